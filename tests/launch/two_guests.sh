# The job layer across two hosts: two Soft-RoCE guests joined by a wire (scripts/rdma-run.sh
# --guests 2), ranks 0 and 1 of job_check in guest 0, ranks 2 and 3 in guest 1, verbs over
# rxe, each rank's clock moved r x 7 ms. Rank 0 pings rank 2 only (the leader of the other
# kernel); rank 3's clock is aligned through rank 2 and its kernel's CLOCK_MONOTONIC. Checks
# that every step passes (job_check's own checks: no rank starts before the instant by more
# than its bound: rank 3, 7 ms ahead of rank 2, would start 7 ms early if its composition
# through rank 2 were wrong) and that the clock block says how each rank was aligned.
# usage: two_guests.sh JOB_CHECK_BINARY   (run on the host; boots the guests itself)
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
C="$BIN"
[ -x "$C" ] || { echo "no $C: build job_check first"; exit 1; }
port=18741
token=$RANDOM$RANDOM
common="--world-size 4 --coordinator 198.18.1.1:$port --job-token $token --transport verbs --timeout 120 --release instant --clock-shift-us 7000 --max-skew-us 200000"
out="$work/g"
mkdir -p "$out"
chmod 777 "$work" "$out"
pair() {  # pair RANK_A RANK_B [EXTRA for RANK_A]
  echo "$C --rank $1 $common ${3:-} & a=\$!; $C --rank $2 $common & b=\$!;
        wait \$a; sa=\$?; wait \$b; sb=\$?;
        echo \"exit: rank $1 \$sa, rank $2 \$sb\"; [ \$sa -eq 0 ] && [ \$sb -eq 0 ]"
}
t0=$SECONDS
if bash "$repo/scripts/rdma-run.sh" --guests 2 --timeout 1100 -- \
    "$(pair 0 1 "--json $out/r.json")" "$(pair 2 3)" >"$out/stdout" 2>"$out/stderr"; then
  ok "two guests: every rank exits 0 ($((SECONDS - t0)) s)"
else
  bad "two guests: exit $? after $((SECONDS - t0)) s"
  sed "s/^/  | /" "$out/stdout" "$out/stderr" 2>/dev/null | tail -60
fi
json_assert "$out/r.json" \
  "d['ok'] and d['ranks'] == 4 and d['transport'] == 'verbs'" \
  "[c['method'] for c in d['clock']] == ['reference', 'clock_monotonic', 'ping_pong', 'ping_pong']" \
  "[c['via_rank'] for c in d['clock']] == [None, None, None, 2]" \
  "d['clock'][2]['estimate_before']['samples'] > 0 and d['clock'][3]['uncertainty_s'] > d['clock'][2]['uncertainty_s']" \
  "all(r['late_s'] >= -(r['bound_s'] + 1e-6) for r in d['release']['ranks'])"
finish
