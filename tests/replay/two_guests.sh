# dlc-replay across two hosts: two Soft-RoCE guests joined by a wire (scripts/rdma-run.sh
# --guests 2), the workers (ranks 0, 1) in guest 0 and the server (rank 2) in guest 1, verbs
# over rxe. Checks the cross-host path: clocks aligned by ping-pong with a bound on every
# cross-host latency, and the same end-to-end checks as on one host. --idle sleep: the guests
# are emulated (TCG); a spinning rank keeps a vCPU, hence a host core, busy that rxe's kernel
# threads in the other guest need, and the wire then stalls long enough for RC's retries
# (6 x 67 ms) to run out.
# usage: two_guests.sh BUILD_BIN_DIR   (run on the host; boots the guests itself)
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
job="$repo/examples/lenet5-2w1s"
B="$BIN/dlc-replay"
[ -x "$B" ] || { echo "no $B: build dlc-replay first"; exit 1; }
port=18731
token=$RANDOM$RANDOM
common="--world-size 3 --coordinator 198.18.1.1:$port --job-token $token --transport verbs --timeout 180 --idle sleep"
out="$work/g"
mkdir -p "$out"
chmod 777 "$work" "$out"
echo '{"link_rate_Bps": 1.25e8, "base_latency_s": 1e-4}' >"$out/c.json"  # for --fct
g0="$B $job --rank 0 $common --json $out/r.json --records $out/rec.csv --fct $out/fct.txt --calibration $out/c.json &
    r0=\$!
    $B $job --rank 1 $common --records $out/rec.csv 2>$out/rank1.err &
    r1=\$!
    wait \$r0; s0=\$?; wait \$r1; s1=\$?
    echo \"exit: rank 0 \$s0, rank 1 \$s1\"; [ \$s0 -eq 0 ] && [ \$s1 -eq 0 ]"
g1="$B $job --rank 2 $common --records $out/rec.csv"
t0=$SECONDS
if bash "$repo/scripts/rdma-run.sh" --guests 2 --timeout 1100 -- "$g0" "$g1" >"$out/stdout" \
    2>"$out/stderr"; then
  ok "two guests: both exit 0 ($((SECONDS - t0)) s)"
else
  bad "two guests: exit $? after $((SECONDS - t0)) s"
  sed 's/^/  | /' "$out/stdout" "$out/stderr" "$out/rank1.err" 2>/dev/null | tail -40
fi
grep -q "^\[g0\] # OK: " "$out/stdout" && ok "report says OK" || bad "no OK line"
# The fidelity verdict, whatever it is in emulated guests (there it is expected unreliable).
grep "^\[g0\] # fidelity: " "$out/stdout" && ok "fidelity verdict reported" ||
  bad "no fidelity verdict"
grep "^\[g0\] # clock of rank 2" "$out/stdout" && ok "rank 2's clock offset reported" ||
  bad "no clock line for rank 2"
sed -n 's/^\[g0\] //p' "$out/stdout"
if python3 "$here/check_run.py" "$job" "$out/r.json" "$out/rec" "$out/fct.txt" --cross-host 2 \
    >"$out/check" 2>&1; then
  ok "checks: $(tail -1 "$out/check")"
else
  bad "checks"
  sed 's/^/  | /' "$out/check" | tail -20
fi
json_assert "$out/r.json" "d['context']['transport_selection']['chosen']=='verbs'"
json_assert "$out/r.json" "d['clock'][2]['host'] != d['clock'][0]['host'] or d['clock'][2]['method']=='ping_pong'"
json_assert "$out/r.json" "d['context']['transport']['qp']['timeout']==19  # rdma-run.sh's two-guest default"
finish
