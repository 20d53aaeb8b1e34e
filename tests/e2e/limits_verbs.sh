# The limits users hit on an RDMA device (issue #16): each ends the run at once with a message
# that names the limit and the fix, never a crash or a hang.
#   limits_verbs.sh BIN     needs an RDMA device and root (the Soft-RoCE guest; exit 77 elsewhere)
# - a size above the port's max_msg_sz (rxe: 8 MiB in older kernels, 2 GiB since a later
#   fix): the max_msg_sz dlc-bench reports decides what -s 64M must do, run to a complete report
#   (within it) or be refused naming it; a size just above it is refused either way (before any
#   buffer is allocated)
# - a send depth above the device's max_qp_wr or its CQ's max_cqe
# - a locked-memory limit (ulimit -l 64) in a process without CAP_IPC_LOCK: verbs names the
#   limit; UCX, whose worker creation retries its own pools for ever there, is warned about
#   first and the run ends within its timeout (core/stall_guard.hpp) instead of hanging
source "$(dirname "$0")/lib.sh"
[ -d /sys/class/infiniband ] && [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ] ||
  { echo "skip: no RDMA device"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: dropping CAP_IPC_LOCK needs root"; exit 77; }
command -v setpriv >/dev/null || { echo "skip: no setpriv (util-linux)"; exit 77; }
V=(--loopback --transport verbs --timeout 20)

# fmt BYTES: a size as dlc-bench prints it (core/units.cpp's format_size: 8M, 2G, 2147483649).
fmt() {
  local b="$1" u=0 units=("" K M G)
  while [ "$u" -lt 3 ] && [ "$b" -ge 1024 ] && [ $((b % 1024)) -eq 0 ]; do
    b=$((b / 1024)) u=$((u + 1))
  done
  echo "$b${units[$u]}"
}
# The port's max_msg_sz, as dlc-bench reads it (the JSON's context.transport).
check "a 64K run reports the port's max_msg_sz" "$BIN/dlc-bench" bw "${V[@]}" -s 64K -n 4 \
  --json "$work/small.json"
max="$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["context"]["transport"]["max_msg_sz"]
print(m if isinstance(m, int) and m > 0 else "")' "$work/small.json" 2>/dev/null)"
big=$((64 << 20))
if ! [[ "$max" =~ ^[0-9]+$ ]]; then
  bad "no max_msg_sz in $work/small.json's context.transport"
else
  echo "  | max_msg_sz $max ($(fmt "$max"))"
  if [ "$max" -ge "$big" ]; then
    # Within the limit: the run completes every iteration at 64 MiB.
    check "-s 64M, within max_msg_sz $(fmt "$max"), runs" "$BIN/dlc-bench" bw "${V[@]}" -s 64M -n 4 \
      --warmup 1 --json "$work/big.json"
    json_assert "$work/big.json" "d['complete'] is True and 'error' not in d" \
      "[(r['bytes'], r['iterations']) for r in d['results']] == [($big, 4)]" \
      "d['results'][0]['bandwidth']['bytes_total'] == 4 * $big" \
      "d['results'][0]['bandwidth']['average_bytes_per_s'] > 0" \
      "d['context']['transport']['max_msg_sz'] == $max"
    over=$((max + 1))
  else
    over=$big
  fi
  check_fails "-s $(fmt "$over") above max_msg_sz names the maximum and the fix" \
    "-s $(fmt "$over") exceeds .*maximum message size of $(fmt "$max"): give sizes up to $(fmt "$max") " \
    "$BIN/dlc-bench" bw "${V[@]}" -s "$over" -n 4
fi

check_fails "a send depth above the device's limits names the limit and the fix" \
  "(max_qp_wr [0-9]+: lower -t \(the send depth\) to at most [0-9]+|the device allows [0-9]+: lower -t \(the send depth; the receive depth follows it\) to about [0-9]+)" \
  "$BIN/dlc-bench" bw "${V[@]}" -s 64K -t 65536 -n 4

# A shell that may lock 64 KiB and has no CAP_IPC_LOCK (root's would lift the limit).
# shellcheck disable=SC2016  # $@ belongs to the inner shell
low_memlock=(setpriv --bounding-set -ipc_lock --inh-caps -ipc_lock -- bash -c 'ulimit -l 64 && exec "$@"' --)
check_fails "verbs under ulimit -l 64 names the limit and the fix" \
  "ibv_reg_mr\(.*\): Cannot allocate memory .*raise ulimit -l \(locked-memory limit is 64 KiB" \
  "${low_memlock[@]}" "$BIN/dlc-bench" bw "${V[@]}" -s 1M -n 4

t0=$SECONDS
"${low_memlock[@]}" "$BIN/dlc-bench" bw --loopback --transport ucx --timeout 10 -s 1M -n 4 \
  >"$work/ucx.out" 2>"$work/ucx.err" &
pid=$!
while kill -0 "$pid" 2>/dev/null && [ $((SECONDS - t0)) -lt 90 ]; do sleep 1; done
if kill -0 "$pid" 2>/dev/null; then
  pkill -9 -P "$pid" 2>/dev/null
  kill -9 "$pid" 2>/dev/null
  bad "UCX under ulimit -l 64 still ran after 90 s (--timeout 10)"
else
  wait "$pid"
  rc=$?
  took=$((SECONDS - t0))
  [ $rc -ne 0 ] && ok "UCX under ulimit -l 64 fails (exit $rc) within ${took} s (--timeout 10)" ||
    bad "UCX under ulimit -l 64 exited 0"
fi
grep -q "warning: ucx: UCX may use an RDMA device here .*raise ulimit -l (locked-memory limit is 64 KiB.*--ucx-tls tcp,sm" "$work/ucx.err" &&
  ok "UCX is warned about the limit, with both fixes" ||
  { bad "no memlock warning for UCX"; grep -v 'UCX  ERROR' "$work/ucx.err" | sed 's/^/  | /' | tail -8; }
grep -v 'UCX  ERROR\|UCX  WARN' "$work/ucx.err" | sed 's/^/  (ucx) /' | tail -4

echo "passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
