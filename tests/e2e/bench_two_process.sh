# dlc-bench as separate server and client processes on one RDMA device, like perftest.
source "$(dirname "$0")/lib.sh"
has_rdma_device || { echo "no RDMA device: skipped"; exit 77; }
B="$BIN/dlc-bench"
addr="${DLCNET_GUEST_ADDR:-127.0.0.1}"
for op in send write read; do
  "$B" lat --op "$op" -s 64 -n 200 -p 18600 --timeout 60 >"$work/srv" 2>&1 &
  srv=$!
  check "two-process lat $op" "$B" lat "$addr" --op "$op" -s 64 -n 200 -p 18600 --timeout 60
  wait $srv && ok "server $op exited 0" || bad "server $op: $(tail -3 "$work/srv")"
done
# Mismatched tests are named on both sides.
"$B" bw --op write -p 18601 --timeout 20 >"$work/srv" 2>&1 &
srv=$!
check_fails "mismatched test" "client runs 'lat --op send' but the server runs 'bw --op write'" \
  "$B" lat "$addr" -p 18601 --timeout 20
wait $srv && bad "server exited 0 on mismatch" || ok "server exits non-zero on mismatch"
finish
