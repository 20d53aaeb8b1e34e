# Whole-tool mutation fuzz: mutated copies of the example job (tests/replay/mutate_job.py, one
# file changed by edge numbers, flipped bytes, lost, doubled, swapped or cut lines, a BOM, a
# NUL, a very long line) through `dlc-trace validate`, `stats`, `convert` and a short spawned
# `dlc-replay`. Every run must end by itself (no hang: each is given 60 s), without a signal
# (no crash, no sanitizer abort), and a run that refuses the job must name the file it refuses
# with its line where the problem has one.
# $2: how many mutants (default 40); $3: replay every Nth of them (default 4).
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
job="$here/../../examples/lenet5-2w1s"
count="${1:-40}"
every="${2:-4}"
T="$BIN/dlc-trace"
R="$BIN/dlc-replay"
named=0 lined=0 refused=0 replayed=0

# run NAME SEED WHAT CMD...: CMD must exit by itself without a signal; when it refuses the
# job (an exit other than 0, and 4 = warnings of validate), its output must name a trace file.
run() {
  local name="$1" seed="$2" what="$3"
  shift 3
  timeout -s KILL 60 "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [ $rc -eq 137 ] || [ $rc -eq 124 ]; then
    bad "seed $seed $name: still running after 60 s ($what)"
    return
  fi
  if [ $rc -gt 128 ] || grep -q "Sanitizer" "$work/err"; then
    bad "seed $seed $name: exit $rc, a signal or a sanitizer's report ($what)"
    tail -5 "$work/err" | sed 's/^/  | /'
    return
  fi
  if [ $rc -ne 0 ] && ! { [ "$name" = validate ] && [ $rc -eq 4 ]; }; then
    refused=$((refused + 1))
    # validate reports on stdout, the others on stderr
    if cat "$work/out" "$work/err" | grep -Eq 'trace(_sch)?_record\.txt'; then
      named=$((named + 1))
      cat "$work/out" "$work/err" | grep -Eq 'trace(_sch)?_record\.txt:[0-9]+' &&
        lined=$((lined + 1))
    else
      bad "seed $seed $name: exit $rc names no trace file ($what)"
      tail -3 "$work/err" | sed 's/^/  | /'
      return
    fi
  fi
  [ "$name" = replay ] && [ $rc -eq 0 ] && replayed=$((replayed + 1))
  passed=$((passed + 1))
}

for seed in $(seq 1 "$count"); do
  m="$work/job"
  what=$(python3 "$here/mutate_job.py" "$job" "$m" "$seed")
  run validate "$seed" "$what" "$T" validate "$m"
  run stats "$seed" "$what" "$T" stats "$m"
  run convert "$seed" "$what" "$T" convert "$m" -o "$work/job.csv"
  rm -f "$work/job.csv"
  if [ $((seed % every)) -eq 0 ]; then
    run replay "$seed" "$what" "$R" "$m" --spawn --iterations 1 --timeout 10 --spawn-timeout 50 \
      --ucx-tls tcp,self
  fi
done
echo "runs that refused the job: $refused; named the file: $named; with its line: $lined;" \
  "replays that ran a mutant to the end: $replayed"
[ $refused -gt 0 ] && ok "some mutants were refused ($refused)" || bad "no mutant was refused"
finish
