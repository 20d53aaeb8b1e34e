# dlc-trace convert --to goal: the bundled job and a looped one written as GOAL schedules and
# checked by check_goal.py (grammar, every send matched by one receive of its size, a run to
# the end); the message count equals what dlc-replay replays of the same job; bad options.
source "$(dirname "$0")/../e2e/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
T="$BIN/dlc-trace"
job="$ROOT/examples/lenet5-2w1s"
check "convert to goal" "$T" convert "$job" --to goal -o "$work/j.goal"
check "the schedule is GOAL, matched and runs to the end" python3 "$ROOT/tests/replay/check_goal.py" "$work/j.goal"
read -r _ ranks _ sends _ recvs _ calcs _ reqs <"$work/out"
[ "$ranks" = 3 ] && [ "$sends" = "$recvs" ] && [ "$sends" -gt 0 ] && ok "3 ranks, $sends messages" ||
  bad "counts: $(cat "$work/out")"
check "replay of the same job" "$BIN/dlc-replay" "$job" --spawn --transport ucx --ucx-tls tcp,self \
  --timeout 60 -q --json "$work/r.json"
json_assert "$work/r.json" "d['messages']['sent'] == $sends and d['messages']['received'] == $sends"
check "convert to goal, 5 iterations" "$T" convert "$job" --to goal --iterations 5 -o "$work/j5.goal"
check "the looped schedule runs to the end" python3 "$ROOT/tests/replay/check_goal.py" "$work/j5.goal"
read -r _ _ _ sends5 _ <"$work/out"
[ "$sends5" -gt "$sends" ] && ok "5 iterations: $sends5 messages" || bad "looped: $sends5 vs $sends"
check_fails "--iterations without --to goal" "give --to goal" "$T" convert "$job" --to native \
  --iterations 3 -o "$work/x.csv"
finish
