# dlc-replay's command line: help, usage errors, and errors that name what is wrong.
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
job="$here/../../examples/lenet5-2w1s"
B="$BIN/dlc-replay"

check "help" "$B" --help
"$B" "$job" --mode fast >/dev/null 2>&1; [ $? -eq 2 ] && ok "bad mode: exit 2" || bad "bad mode"
"$B" "$job" --spawn --rank 0 >/dev/null 2>&1; [ $? -eq 2 ] && ok "--spawn with --rank: exit 2" ||
  bad "--spawn with --rank"
check_fails "no rank" "no rank: give --rank" "$B" "$job"
# Numbers go through one checked parser (core/number.hpp).
for v in nan inf; do
  check_fails "--time-scale $v" "--time-scale: '$v' is not finite" "$B" "$job" --spawn \
    --time-scale "$v"
done
check_fails "--time-scale 1e400" "--time-scale: '1e400' is out of range" "$B" "$job" --spawn \
  --time-scale 1e400
check_fails "--time-scale -1" "--time-scale: '-1' is out of range" "$B" "$job" --spawn --time-scale -1
check_fails "--iterations -1" "--iterations: '-1' is negative" "$B" "$job" --spawn --iterations -1
check_fails "--iterations 100000000" "--iterations: '100000000' is out of range" "$B" "$job" --spawn \
  --iterations 100000000
check_fails "--timeout 0" "--timeout: '0' is out of range" "$B" "$job" --spawn --timeout 0
check_fails "missing job" "no such file or directory" "$B" /nonexistent/job --spawn
check_fails "world size differs" "the job has 3 nodes to replay .* the world has 2 ranks" \
  "$B" "$job" --rank 0 --world-size 2 --coordinator "127.0.0.1:$(free_port)" --timeout 5
check_fails "bad map" "--map: 'server7' is not a worker or server" "$B" "$job" --spawn \
  --map server7=0
check_fails "rank without coordinator" "--coordinator" "$B" "$job" --rank 1 --world-size 3
# A missing rank is named by the bootstrap's timeout.
check_fails "missing rank" "rank.* 2" "$B" "$job" --rank 0 --world-size 3 \
  --coordinator "127.0.0.1:$(free_port)" --timeout 3 --transport ucx
# --map moves the server to rank 0; the report names the map.
out="$work/map.out"
if "$B" "$job" --spawn --transport ucx --map server0=0 --timeout 60 >"$out" 2>&1 &&
   grep -q "rank 0 = server0, rank 1 = worker0, rank 2 = worker1" "$out" &&
   grep -q "^# OK" "$out"; then
  ok "--map server0=0"
else
  bad "--map server0=0"
  tail -20 "$out" | sed 's/^/  | /'
fi
finish
