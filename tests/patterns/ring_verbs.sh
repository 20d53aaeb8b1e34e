# dlc-bench ring over verbs where an RDMA device exists (the `rdma` tier: in the Soft-RoCE
# guest): all-reduce at 2 and 3 ranks from 4 B to 1 MiB with --op send and --op write (the
# data written into the peer's buffer, then an 8-byte send, which RC delivers after the
# write), all-to-all, broadcast (also --in-place), reduce, gather, scatter, sendrecv and barrier
# at 3 ranks, every element checked; and a corrupted run that must fail.
# Then UCX over RC verbs (rc_verbs, tcp only for wire-up) with its connection per direction
# (the ring's default: two endpoints per peer, two RC QPs). Exits 77 without an RDMA device.
source "$(dirname "$0")/../e2e/lib.sh"
has_rdma_device || { echo "no RDMA device: skipped"; exit 77; }
B="$BIN"
v=(--transport verbs --timeout 120 --idle sleep -n 3 -w 1)
for op in send write; do
  check "allreduce over verbs, 2 ranks, --op $op" "$B" ring --spawn --ranks 2 "${v[@]}" \
    --op "$op" -b 4 -e 1M -f 8 --json "$work/$op.json" --records "$work/$op-%r.csv"
  json_assert "$work/$op.json" \
    "d['op'] == '$op' and d['wrong_total'] == 0 and len(d['sizes']) == 7" \
    "all(s['checked_iterations'] == 2 * 4 for s in d['sizes'])" \
    "d['context']['transport']['device'].startswith('rxe') or 'device' in d['context']['transport']" \
    "sum(1 for r in rows('$work/$op-1.csv') if r['op'] == '$op' and int(r['bytes']) == 524288) == 3 * 2"
done
check "allreduce over verbs, 3 ranks, 4004 B" "$B" ring --spawn --ranks 3 "${v[@]}" -s 4004 \
  --json "$work/three.json"
json_assert "$work/three.json" "d['wrong_total'] == 0 and d['sizes'][0]['count'] == 1001"
check "alltoall over verbs, 3 ranks, --op write" "$B" ring --spawn --ranks 3 "${v[@]}" \
  --collective alltoall --op write -s 96K --json "$work/a2a.json"
json_assert "$work/a2a.json" "d['wrong_total'] == 0 and len(d['sizes'][0]['steps']) == 2"
check_fails "a corrupted all-reduce over verbs exits non-zero" "ring" "$B" ring --spawn \
  --ranks 2 "${v[@]}" -s 64K --test-corrupt-rank 0
grep -Eq "Out of bounds values : 8 FAILED" "$work/out" && ok "verbs: 8 wrong, FAILED" ||
  bad "verbs corrupted: $(grep -E 'Out of bounds' "$work/out")"
# Broadcast, reduce, gather, scatter, sendrecv and barrier at 3 ranks (1001 floats, root 1),
# every element checked; --op write where they take it (barrier).
for c in broadcast reduce gather scatter sendrecv barrier; do
  opts=() ops=(send)
  case $c in broadcast | reduce | gather | scatter) opts=(--root 1) ;; esac
  [ "$c" = barrier ] || opts+=(-s 4004)
  [ "$c" = barrier ] && ops=(send write)
  for op in "${ops[@]}"; do
    check "$c over verbs, 3 ranks, --op $op" "$B" ring --spawn --ranks 3 "${v[@]}" \
      --collective "$c" "${opts[@]}" --op "$op" --json "$work/$c-$op.json"
    json_assert "$work/$c-$op.json" "d['wrong_total'] == 0 and d['collective'] == '$c'"
  done
done
check "broadcast --in-place over verbs, 3 ranks" "$B" ring --spawn --ranks 3 "${v[@]}" \
  --collective broadcast --root 2 --in-place -s 4004 --json "$work/bcast-inplace.json"
json_assert "$work/bcast-inplace.json" "d['wrong_total'] == 0 and d['collective'] == 'broadcast'"
u=(--transport ucx --ucx-tls rc_verbs,tcp:aux --ib-dev "${DLCNET_RDMA_DEVICE:-$(ls /sys/class/infiniband | head -1)}:1,lo"
  --timeout 120 --idle sleep -n 3 -w 1)
for op in send write; do
  check "allreduce over UCX rc_verbs, 2 ranks, --op $op" "$B" ring --spawn --ranks 2 "${u[@]}" \
    --op "$op" -b 4 -e 1M -f 64 --json "$work/ucx-$op.json"
  json_assert "$work/ucx-$op.json" "d['wrong_total'] == 0 and len(d['sizes']) == 4" \
    "d['context']['transport']['connections'] == 'direction'" \
    "'rc_verbs' in d['context']['transport']['endpoints'][0]['transports']"
done
finish
