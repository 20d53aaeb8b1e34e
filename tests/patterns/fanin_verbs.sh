# dlc-bench fanin over verbs where an RDMA device exists (the `rdma` tier: in the Soft-RoCE
# guest): --op send and --op write (the data written into the server's memory, then an 8-byte
# send, which RC delivers after the write), 2 workers through --spawn; and the error when the
# server cannot hold the completions of every worker's queue pair (-t too deep for the device's
# completion queue). Exits 77 without an RDMA device.
source "$(dirname "$0")/../e2e/lib.sh"
has_rdma_device || { echo "no RDMA device: skipped"; exit 77; }
B="$BIN"
v=(--transport verbs --timeout 120 --idle sleep -s 16K --burst 4 -n 3 --solo 1 --warmup 1)
for op in send write; do
  check "fanin over verbs, --op $op" "$B" fanin --spawn --workers 2 "${v[@]}" --op "$op" \
    --json "$work/$op.json" --records "$work/$op-%r.csv"
  json_assert "$work/$op.json" \
    "d['spec']['op'] == '$op' and d['summary']['iterations'] == 3 and d['spec']['workers'] == 2" \
    "d['context']['transport']['device'].startswith('rxe') or 'device' in d['context']['transport']" \
    "len(rows('$work/$op-1.csv')) == (1 + 1 + 3) * 4" \
    "all(int(r['arrival_ns']) > 0 for r in rows('$work/$op-0.csv'))"
done
# rxe allows 32767 completion queue entries: 3 workers x (12000 sends + the receives) do not fit.
check_fails "a send depth the server's completion queue cannot hold" "CQ entries.*lower -t" \
  "$B" fanin --spawn --workers 3 "${v[@]}" -t 12000
finish
