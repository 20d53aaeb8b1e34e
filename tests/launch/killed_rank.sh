#!/bin/bash
# A rank killed mid-run (job_check --kill-rank K, SIGKILL once released): the job fails and
# every other rank says so naming rank K, the phase (run) and why, in the cause it prints
# first; no rank names itself as the cause.
#   killed_rank.sh JOB_CHECK [RANKS] [K]
set -u
check="$1"
n="${2:-8}"
k="${3:-5}"
err="$(mktemp)"
trap 'rm -f "$err"' EXIT
timeout 240 "$check" --spawn "$n" --transport ucx --ucx-tls tcp,self --release barrier \
  --kill-rank "$k" --timeout 30 >/dev/null 2>"$err"
rc=$?
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}
[ "$rc" -ne 0 ] || bad "the job succeeded with rank $k killed"
for ((r = 0; r < n; r++)); do
  [ "$r" -eq "$k" ] && continue
  lines="$(grep "^job_check: rank $r: error: " "$err")"
  if [ "$(printf '%s' "$lines" | grep -c '')" -ne 1 ]; then
    bad "rank $r printed $(printf '%s' "$lines" | grep -c '') error lines, not one"
    continue
  fi
  cause="${lines#job_check: rank $r: error: }"
  cause="${cause%%; after it this rank: *}"
  [[ "$cause" =~ ^rank\ $k\ \(.*\)\ is\ gone\ during\ run:\ .+ ]] ||
    bad "rank $r does not name rank $k, the phase and why first: $cause"
  [[ "$cause" =~ ^rank\ $r[^0-9] ]] && bad "rank $r names itself as the cause: $cause"
done
if [ "$fail" -ne 0 ]; then
  echo "--- what the ranks printed:"
  grep -v "closing the endpoint" "$err" | head -40
  exit 1
fi
echo "ok: $((n - 1)) ranks name rank $k, killed during run"
grep "^job_check: rank 0: error: " "$err"
