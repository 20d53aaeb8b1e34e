# Whole-tool mutation test of dlc-compare and dlc-compare-plot (issue 31), as e2e_tool_mutation
# is for the trace tools. The inputs are real files the tools wrote (tests/data/compare: a
# calibration and the dlc-bench reports it came from, a fan-in report with its qdisc series,
# --export-flows flow.txt and flow map of a fan-in, a ring and a replay, their predicted
# fct.txt, the model's queue.csv, and compare's and queue's --json/--csv). Each seed mutates one
# of them (tests/compare/mutate_inputs.py: numbers at and past their types' edges, nan, inf,
# other JSON types, flipped bytes, cut, doubled and swapped lines, a BOM, a NUL, a long line, a
# file emptied or made 4 MB long, a directory in its place, or its bytes through a FIFO) and
# runs every command that reads that file: compare, predict, predict-job, queue, calibrate,
# dlc-compare-plot. Asserted for every run:
#   - it ends by itself within 60 s and in bounded memory (1 GB resident under AddressSanitizer,
#     its hard_rss_limit_mb; else 2 GB of address space, ulimit -v), without a signal, a
#     sanitizer's report, a traceback or std::terminate;
#   - a refusal exits 3 (dlc-compare) or 2 (dlc-compare-plot), and its message names the
#     mutated file with a line (FILE:LINE) or a field (FILE: ... field, key or index), or is
#     one of the few that rightly name the file alone (allowed_whole_file below).
# Usage: compare_mutation.sh BIN_DIR [COUNT [FIRST_SEED]] (default 40 seeds from seed 1);
# MUTATION_VERBOSE=1 prints every refusal.
source "$(dirname "$0")/../e2e/lib.sh"
set -e
here="$(cd "$(dirname "$0")" && pwd)"
data="$here/../data/compare"
job="$here/../../examples/lenet5-2w1s"
plot="$here/../../tools/dlc-compare-plot"
count="${1:-40}"
first="${2:-1}"
C="$BIN/dlc-compare"
refused=0 located=0 whole=0 runs=0
declare -A refusals=()

# Memory: ulimit -v cannot hold a sanitized binary (its shadow memory is terabytes of address
# space); AddressSanitizer's own resident-size limit does.
if grep -qa __asan_init "$C"; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=1024:max_allocation_size_mb=1024"
  vlimit=unlimited
else
  vlimit=$((2 * 1024 * 1024))
fi

# Refusals that rightly name the file without a line or field: the file as a whole is wrong (a
# directory, empty, not text, of no format `queue` knows; a map none of whose flows matched,
# with no flow at all, or with fewer flows than the fct.txt: lines lost; JSON nested past what
# Python reads).
allowed_whole_file() {
  grep -Eq ": (is a directory|empty|not UTF-8|no messages|cannot read|JSON but not an object)|\
not a queue series dlc-compare knows|no flow of .* could be compared|holds no flows|\
flows, more than the flow map|JSON nested too deeply or too large" "$work/err"
}

# run NAME SEED VICTIM WHAT CMD...: one run under the limits; asserts as said above.
run() {
  local name="$1" seed="$2" victim="$3" what="$4" rc=0 want=3 lim="$vlimit" writer=""
  shift 4
  runs=$((runs + 1))
  [ "$name" = plot ] && want=2 && lim=$((4 * 1024 * 1024))
  if [ "$form" = fifo ]; then
    mkfifo "$in/$victim"
    cat "$work/fifo.data" >"$in/$victim" 2>/dev/null &
    writer=$!
  fi
  (ulimit -v "$lim" && exec timeout -s KILL 60 "$@") >"$work/out" 2>"$work/err" </dev/null ||
    rc=$?
  if [ -n "$writer" ]; then
    # a run that refused before it opened the FIFO leaves its writer blocked in open
    kill "$writer" 2>/dev/null || true
    wait "$writer" 2>/dev/null || true
    rm -f "$in/$victim"
  fi
  local where="seed $seed $name on $victim ($what)"
  if [ $rc -eq 137 ]; then
    bad "$where: still running after 60 s (or killed)"
  elif [ $rc -gt 128 ] || grep -Eq "Sanitizer|runtime error|terminate called|Traceback" \
    "$work/err"; then
    bad "$where: exit $rc, a signal, a sanitizer's report or a traceback"
    tail -5 "$work/err" | sed 's/^/  | /'
  elif [ $rc -ne 0 ] && [ $rc -ne "$want" ]; then
    bad "$where: exit $rc, not 0 or $want"
    tail -3 "$work/err" | sed 's/^/  | /'
  elif [ $rc -ne 0 ]; then
    refused=$((refused + 1))
    refusals[$name]=$((${refusals[$name]:-0} + 1))
    [ -z "${MUTATION_VERBOSE:-}" ] || echo "  $where: $(head -c 300 "$work/err")"
    local v="${victim//./\\.}"
    # FILE:LINE, or after FILE: a field, a key, an index, a "key" or a key.path
    local w='[A-Za-z_0-9]+'
    if grep -Eq "$v:[0-9]+|$v: .*(field |key |\[[0-9]+\]|\"$w\"|$w\.$w: )" "$work/err"; then
      located=$((located + 1))
      passed=$((passed + 1))
    elif grep -q "$victim" "$work/err" && allowed_whole_file; then
      whole=$((whole + 1))
      passed=$((passed + 1))
    else
      bad "$where: exit $rc names not $victim with a line or field"
      tail -3 "$work/err" | sed 's/^/  | /'
    fi
  else
    passed=$((passed + 1))
  fi
}

# The commands that read each input, on the mutated copy in $in.
runs_for() {
  local seed="$1" victim="$2" what="$3" o="$work/o" kind
  rm -rf "$o" && mkdir "$o"
  r() { run "$1" "$seed" "$victim" "$what" "${@:2}"; }
  cmp_run() { r compare "$C" "$in/$1.flow.txt.map" "$in/$1.fct.txt" --calibration "$in/cal.json" \
    --json "$o/c.json" --csv "$o/c.csv" "${@:2}"; }
  predict_run() { r predict "$C" predict "$in/$1.flow.txt" --calibration "$in/cal.json" \
    --out "$o/p.txt" --json "$o/p.json" --port-host 0 --port-buffer 1000000 --queue "$o/q.csv"; }
  job_run() { r predict-job "$C" predict-job "$job" --iterations 1 \
    --like "$in/replay.flow.txt.map" --calibration "$in/cal.json" --out "$o/j.txt"; }
  case "$victim" in
    cal.json) cmp_run fanin; predict_run fanin; job_run ;;
    lat.json | bw.json)
      r calibrate "$C" calibrate "$in/lat.json" "$in/bw.json" --out "$o/cal.json" ;;
    fanin.json | queue.csv)
      r queue "$C" queue "$in/fanin.json" "$in/queue.csv" --json "$o/q.json" --csv "$o/q.csv" ;;
    replay.flow.txt.map) cmp_run replay --free-starts; job_run ;;
    replay.fct.txt) cmp_run replay --free-starts ;;
    *.flow.txt) predict_run "${victim%.flow.txt}" ;;
    *.flow.txt.map | *.fct.txt)
      kind="${victim%.flow.txt.map}"
      cmp_run "${kind%.fct.txt}" ;;
    cmp.csv | cmp.json)
      r plot python3 "$plot" --csv "$in/cmp.csv" --json "$in/cmp.json" --out "$o/png" ;;
    q.csv | q.json)
      r plot python3 "$plot" --queue-csv "$in/q.csv" --queue-json "$in/q.json" --out "$o/png" ;;
    *) bad "no command reads $victim" ;;
  esac
}

t0=$SECONDS
for seed in $(seq "$first" $((first + count - 1))); do
  in="$work/in"
  IFS=$'\t' read -r victim form what < <(python3 "$here/mutate_inputs.py" "$data" "$in" "$seed")
  if [ "$form" = fifo ]; then mv "$in/$victim" "$work/fifo.data"; fi
  runs_for "$seed" "$victim" "$what"
done
echo "seeds $first..$((first + count - 1)): $runs runs in $((SECONDS - t0)) s; refused: $refused" \
  "($(for k in "${!refusals[@]}"; do printf '%s %s ' "$k" "${refusals[$k]}"; done)); named" \
  "the file with a line or field: $located; the file as a whole: $whole"
[ $refused -gt 0 ] && ok "some mutants were refused ($refused)" || bad "no mutant was refused"
finish
