# A rank killed in the middle of a replay: the others exit non-zero within their timeout,
# naming it, every rank's records written so far are intact and parseable, and rank 0's JSON
# says the run is incomplete, why, and how far rank 0 got.
# $1: ucx (host) or verbs (needs an RDMA device: exit 77).
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
job="$here/../../examples/lenet5-2w1s"
B="$BIN/dlc-replay"
case "$1" in
  verbs) has_rdma_device || { echo "no RDMA device: skipped"; exit 77; }
         T=(--transport verbs) ;;
  ucx)   T=(--transport ucx) ;;
esac

# kill_run NAME RANK AFTER EXTRA...: rank RANK dies (SIGKILL) after AFTER completions.
kill_run() {
  local name="$1" victim="$2" after="$3"
  shift 3
  local out="$work/$name"
  mkdir -p "$out"
  local t0=$SECONDS
  timeout 300 "$B" "$job" "${T[@]}" --spawn --timeout 15 --records "$out/rec.csv" \
    --json "$out/replay.json" --fault-rank "$victim" --fault-after "$after" "$@" >"$out/stdout" 2>"$out/stderr"
  local rc=$?
  local took=$((SECONDS - t0))
  if [ $rc -eq 0 ]; then bad "$name: exited 0"; return; fi
  [ $rc -ne 124 ] && ok "$name: exit $rc after $took s" || bad "$name: hung"
  [ "$took" -lt 60 ] && ok "$name: within the timeout" || bad "$name: took $took s"
  grep -q "rank $victim killed by signal 9" "$out/stderr" && ok "$name: rank $victim was killed" ||
    bad "$name: rank $victim not reported killed"
  # Every survivor stops with an error that names the dead rank as the job's cause, first,
  # whatever it saw itself (a survivor may see another survivor leave before the dead rank).
  for r in 0 1 2; do
    [ "$r" = "$victim" ] && continue
    if grep -E "^dlc-replay: rank $r: error: rank $victim \([^)]*\) is gone" "$out/stderr" >/dev/null; then
      ok "$name: rank $r names rank $victim"
    else
      bad "$name: rank $r does not name rank $victim"
      sed 's/^/  | /' "$out/stderr" | tail -12
    fi
  done
  replay_records_intact "$out/rec" 3 && ok "$name: records intact" || bad "$name: records"
  json_assert "$out/replay.json" "d['complete'] is False" \
    "'rank $victim' in d['error'] and 'is gone' in d['error']" \
    "d['rank0']['records_written'] == len(open('$out/rec.rank0.csv').readlines()) - 1"
}

kill_run server 2 60
kill_run worker 1 40
finish
