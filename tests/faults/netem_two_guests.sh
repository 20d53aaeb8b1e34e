# Faults on the wire (issue #16): two Soft-RoCE guests joined by a wire (scripts/rdma-run.sh
# --guests 2), netem on guest 0's eth0 changed between runs: 1 ms delay, 1 % loss, 5 % loss
# (guest 0 -> guest 1; the way back is clean). Under each, over verbs on rxe:
#   dlc-bench bw  (client in guest 0, server in guest 1, -W: rxe's counters before and after):
#                 completes, every message measured, and under loss rxe's retransmission
#                 counters moved (in the JSON's `counters`);
#   dlc-replay    (ranks 0, 1 in guest 0, rank 2 in guest 1; the LeNet-5 example): completes
#                 with "# OK", every message sent and received once with its size.
# DLCNET_VERBS_ACK_TIMEOUT=19 (rdma-run.sh's two-guest default): rxe's go-back-N recovers a
# loss at once when a later packet arrives (sequence NAK); a lost tail waits for the timeout.
# Under 5 % loss the replay runs with DLCNET_VERBS_RETRY_COUNT=7 (rxe: retry for ever): with
# the default 6, a LeNet-5 message of hundreds of packets used up its retries ("transport
# retry counter exceeded", naming the peer), as RC does on any lossy link.
# usage: netem_two_guests.sh BUILD_BIN_DIR   (run on the host; boots the guests itself)
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
job="$repo/examples/lenet5-2w1s"
for t in dlc-bench dlc-replay; do [ -x "$BIN/$t" ] || { echo "no $BIN/$t: build it first"; exit 1; }; done
conditions=("delay 1ms" "loss 1%" "loss 5%")
retries=("" "" "DLCNET_VERBS_RETRY_COUNT=7 DLCNET_VERBS_ACK_TIMEOUT=16")
# Under 5 % loss a lost tail packet of a 1.6 MB message waits out the ACK timeout many times:
# one iteration of the job and a 268 ms timeout (no queue on this wire) keep it to minutes;
# under loss the replay runs one iteration (the suite's time).
replay_args=("" "--iterations 1" "--iterations 1")
out="$work/g"
mkdir -p "$out"
chmod 777 "$work" "$out"
token=$RANDOM$RANDOM
bench="$BIN/dlc-bench bw --transport verbs -s 4K -n 1000 -W --timeout 120"
replay_common="--world-size 3 --job-token $token --transport verbs --timeout 180 --idle sleep"
g0="rc=0"
g1="rc=0"
for i in "${!conditions[@]}"; do
  c="${conditions[$i]}"
  bport=$((18800 + i)) rport=$((18810 + i)) e="env ${retries[$i]}"
  g0+="
    tc qdisc change dev eth0 root netem $c || rc=1
    echo \"== netem $c\"
    $BIN/dlc-bench bw 198.18.1.2 --transport verbs -s 4K -n 1000 -W --timeout 120 -p $bport \
      --json $out/bw$i.json >$out/bw$i.out 2>&1 || { echo \"bw under $c: exit \$?\"; rc=1; }
    $e $BIN/dlc-replay $job --rank 0 --coordinator 198.18.1.1:$rport $replay_common ${replay_args[$i]} \
      --json $out/replay$i.json >$out/replay$i.out 2>&1 &
    r0=\$!
    $e $BIN/dlc-replay $job --rank 1 --coordinator 198.18.1.1:$rport $replay_common ${replay_args[$i]} 2>$out/replay$i.r1 >/dev/null &
    r1=\$!
    wait \$r0 || { echo \"replay rank 0 under $c: exit \$?\"; rc=1; }
    wait \$r1 || { echo \"replay rank 1 under $c: exit \$?\"; rc=1; }
    tc -s qdisc show dev eth0"
  g1+="
    $bench -p $bport >$out/bws$i.out 2>&1 || { echo \"bw server under $c: exit \$?\"; rc=1; }
    $e $BIN/dlc-replay $job --rank 2 --coordinator 198.18.1.1:$rport $replay_common ${replay_args[$i]} 2>$out/replay$i.r2 >/dev/null ||
      { echo \"replay rank 2 under $c: exit \$?\"; rc=1; }"
done
g0+="
    exit \$rc"
g1+="
    exit \$rc"
t0=$SECONDS
if bash "$repo/scripts/rdma-run.sh" --guests 2 --netem "delay 1ms" --timeout 1100 -- "$g0" "$g1" \
    >"$out/stdout" 2>"$out/stderr"; then
  ok "two guests under netem: both exit 0 ($((SECONDS - t0)) s)"
else
  bad "two guests under netem: exit $? after $((SECONDS - t0)) s"
  sed 's/^/  | /' "$out/stdout" "$out/stderr" | tail -40
fi
grep -E 'netem|dropped' "$out/stdout" | sed 's/^/  /'
for i in "${!conditions[@]}"; do
  c="${conditions[$i]}"
  json_assert "$out/bw$i.json" \
    "d['results'][0]['iterations'] == 1000  # $c: every message measured" \
    "'counters' in d"
  if [ "${c#loss}" != "$c" ]; then
    # rxe counts the requester's retransmissions and timeouts, and the duplicates and
    # out-of-sequence packets its responder saw; under loss one of the sender's must move.
    json_assert "$out/bw$i.json" \
      "sum(v for k, v in d['counters']['hw_counters'].items() if k in ('completer_retry_err', 'retry_exceeded_err', 'rcvd_seq_err') and isinstance(v, (int, float))) > 0  # $c: retransmissions counted"
  fi
  [ -z "${retries[$i]}" ] ||
    json_assert "$out/replay$i.json" "d['context']['transport']['qp']['retry_cnt'] == 7  # ${retries[$i]}"
  sed -n "s/^# scheduling error.*run took/  replay under $c: run took/p" "$out/replay$i.out"
  grep -q '^# OK: ' "$out/replay$i.out" && ok "replay under $c: OK, every message once" ||
    bad "replay under $c: $(tail -5 "$out/replay$i.out")"
done
python3 - "$out" "${#conditions[@]}" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    try:
        d = json.load(open(f"{out}/bw{i}.json"))
        hw = d.get("counters", {}).get("hw_counters", {})
        moved = {k: v for k, v in hw.items() if isinstance(v, (int, float)) and v}
        r = d["results"][0]
        print(f"  bw run {i}: {r.get('bandwidth_Bps', {})} counters moved: {moved}")
    except Exception as e:  # the asserts above report the failure
        print(f"  bw run {i}: {e}")
PY
finish
