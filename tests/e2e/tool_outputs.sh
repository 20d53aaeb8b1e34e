# Every tool's output files go through core/output_file.hpp: an unwritable path stops the tool
# before its work (nothing printed, nothing run), a symbolic link is written through and kept,
# a device is written into and never replaced. dlc-bench's own cases: bench_outputs.sh.
source "$(dirname "$0")/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
job="$here/../../examples/lenet5-2w1s"
# --fct needs a calibration (HPCC's latency and rate; made up here).
echo '{"link_rate_Bps": 1e9, "base_latency_s": 5e-6}' >"$work/c.json"
R=("$BIN/dlc-replay" "$job" --spawn --transport ucx --timeout 60 --calibration "$work/c.json")
no="$work/no/such"

# dlc-replay: each option checked on the rank that writes it, before anything is replayed.
for opt in --json --fct --records --export-flows; do
  # --records: one file per rank, x.rank<R>.
  check_fails "dlc-replay: unwritable $opt" "$opt $no/x(\.rank0)?: cannot" "${R[@]}" "$opt" "$no/x"
  grep -q "^# OK" "$work/out" && bad "dlc-replay: unwritable $opt: the job ran" ||
    ok "dlc-replay: unwritable $opt: nothing replayed"
done
mkdir "$work/real"
ln -s real/r.json "$work/r.json"
check "dlc-replay: --json through a symlink, --fct into /dev/null" "${R[@]}" --json "$work/r.json" \
  --fct /dev/null
[ -L "$work/r.json" ] && ok "dlc-replay: the symlink stays" || bad "dlc-replay: the symlink was replaced"
[ -c /dev/null ] && ok "dlc-replay: /dev/null stays a device" || bad "dlc-replay: /dev/null replaced"
json_assert "$work/real/r.json" "d['context']['tool'] == 'dlc-replay'"
# The report is printed before any file is written: a file that fails loses nothing printed.
check_fails "dlc-replay: --fct /dev/full" "--fct /dev/full: cannot write" "${R[@]}" --fct /dev/full \
  --json "$work/after-fct.json"
grep -q "^# OK" "$work/out" && ok "dlc-replay: --fct /dev/full: the report is printed" ||
  bad "dlc-replay: --fct /dev/full: no report"
[ -s "$work/after-fct.json" ] && ok "dlc-replay: --fct failed, --json still written" ||
  bad "dlc-replay: --fct failed and --json was not written"

# dlc-bench fanin and ring: a records file on a full device is found when opened (its header
# is written at once), before anything runs.
U=(--transport ucx --ucx-tls tcp,self --timeout 60)
ln -s /dev/full "$work/full.rank0.csv"
check_fails "fanin: --records on a full device" "--records $work/full.rank0.csv: cannot write" \
  "$BIN/dlc-bench" fanin --spawn --workers 1 "${U[@]}" -s 4K --burst 2 -n 2 --records "$work/full.csv"
grep -q "^# dlc-bench fanin" "$work/out" && bad "fanin: ran with a full records device" ||
  ok "fanin: nothing ran"
[ -c /dev/full ] && ok "/dev/full stays a device" || bad "/dev/full replaced"
# Files that fail at the end (2 KiB at most, RLIMIT_FSIZE; SIGXFSZ ignored so writes fail with
# EFBIG): rank 0 prints its report first, then tries the records and the JSON, and the job
# fails naming both. Standard output goes through a pipe, which the limit does not cover.
limited() {
  (trap '' XFSZ; ulimit -f 2; exec "$@") 2>&1 | cat >"$work/out"
}
for tool in fanin ring; do
  if [ $tool = fanin ]; then
    limited "$BIN/dlc-bench" fanin --spawn --workers 1 "${U[@]}" -s 4K --burst 8 -n 20 \
      --records "$work/$tool.csv" --json "$work/$tool.json"
    report="^# dlc-bench fanin"
  else
    limited "$BIN/dlc-bench" ring --spawn --ranks 2 "${U[@]}" -b 4 -e 1M -n 20 -w 1 \
      --records "$work/$tool.csv" --json "$work/$tool.json"
    report="^# Avg bus bandwidth"
  fi
  grep -q "$report" "$work/out" && ok "$tool: the report is printed before the files" ||
    { bad "$tool: no report"; tail -5 "$work/out"; }
  grep -q -- "--records $work/$tool.rank0.csv: cannot write: File too large.*--json $work/$tool.json: cannot write" \
    "$work/out" && ok "$tool: both failed files named" || { bad "$tool: files not named"; tail -5 "$work/out"; }
  # The records stop at the limit with their last whole row, never half of one.
  python3 - "$work/$tool.rank0.csv" <<'PY' && ok "$tool: the records end with a whole row" ||
import sys
text = open(sys.argv[1]).read()
lines = text.split("\n")
sys.exit(0 if text.endswith("\n") and len(lines) > 2 and
         all(len(l.split(",")) == 12 for l in lines[:-1]) else 1)
PY
    bad "$tool: the records end in a torn row: $(tail -c 80 "$work/$tool.rank0.csv")"
done

# A disk that fills at the end (root: a 64 KiB tmpfs): the flows that do not fit are named in
# the JSON (written elsewhere, "complete": false) under "unwritten", its "files" lists only
# what was written, no
# part of them and no temporary file is left, and the job fails naming them.
if [ "$(id -u)" -eq 0 ] && mkdir "$work/small" && mount -t tmpfs -o size=64k tmpfs "$work/small"; then
  trap 'umount "$work/small" 2>/dev/null; rm -rf "$work"' EXIT
  "$BIN/dlc-bench" fanin --spawn --workers 1 "${U[@]}" -s 4K --burst 8 -n 300 -q \
    --export-flows "$work/small/f.txt" --json "$work/full.json" >"$work/out" 2>&1 &&
    bad "fanin: flows on a full disk: exit 0" || ok "fanin: flows on a full disk: the job fails"
  grep -q -- "--export-flows $work/small/f.txt.*No space left on device" "$work/out" &&
    ok "fanin: the full disk named" || { bad "fanin: the full disk not named"; tail -3 "$work/out"; }
  json_assert "$work/full.json" \
    "d['complete'] is False and d['error'].startswith('outputs not written: --export-flows')" \
    "'No space left' in d['unwritten']['flows']" \
    "d['files']['flows'] is None and d['files']['flow_map'] is None"
  [ -z "$(ls -A "$work/small")" ] && ok "fanin: nothing left on the full disk" ||
    bad "fanin: left on the full disk: $(ls -A "$work/small")"
  umount "$work/small"
else
  echo "skipped: the full-disk case needs root and a tmpfs"
fi

# dlc-trace: stats and bench-load check --json before loading; convert writes through devices.
T="$BIN/dlc-trace"
check_fails "dlc-trace stats: unwritable --json" "--json $no/s.json: cannot create" \
  "$T" stats "$job" --json "$no/s.json"
[ -s "$work/out" ] && bad "dlc-trace stats: printed statistics first" || ok "dlc-trace stats: nothing computed"
check_fails "dlc-trace bench-load: unwritable --json" "--json $no/b.json: cannot create" \
  "$T" bench-load "$job" --json "$no/b.json"
check_fails "dlc-trace convert: -o /dev/full" "-o /dev/full: cannot write" \
  "$T" convert "$job" --to native -o /dev/full
[ -c /dev/full ] && ok "dlc-trace convert: /dev/full stays a device" || bad "/dev/full replaced"
ln -s real/job.csv "$work/job.csv"
check "dlc-trace convert: -o through a symlink" "$T" convert "$job" --to native -o "$work/job.csv"
[ -L "$work/job.csv" ] && [ -s "$work/real/job.csv" ] && ok "dlc-trace convert: the symlink stays" ||
  bad "dlc-trace convert: the symlink was replaced"

# dlc-compare: every file checked before the model runs.
if [ -x "$BIN/dlc-compare" ]; then
  check_fails "dlc-compare model-speed: unwritable --json" "--json $no/m.json: cannot create" \
    "$BIN/dlc-compare" model-speed --messages 1000 --json "$no/m.json"
  grep -q "model-speed:" "$work/out" && bad "dlc-compare model-speed: ran first" ||
    ok "dlc-compare model-speed: nothing ran"
fi
ls "$work" "$work/real" | grep -q '\.tmp$' && bad "a temporary file was left" || ok "no temporary left"
finish
