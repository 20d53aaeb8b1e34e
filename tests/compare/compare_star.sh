# The loop with a simulator, end to end on a real kernel queue: a star of network namespaces
# (scripts/netns-star.sh) with a 100 Mbit/s tbf on the switch port toward rank 0.
#  1. calibrate: dlc-bench lat (64 B, 64 KiB) and bw (64 KiB) between h1 and h0 over the star,
#     `dlc-compare calibrate` -> c.json;
#  2. measure: a fan-in of 4 workers x 16 x 64 KiB over UCX tcp, --export-flows f.txt (HPCC's
#     flow.txt and the flow map f.txt.map);
#  3. predict: `dlc-compare predict f.txt --sharing connection` -> fct.txt (the reference model);
#  4. compare: `dlc-compare f.txt.map fct.txt` -> every message joined, and the burst
#     completion time of the measured iterations (the rounds after 12 solo and 1 warm-up) within
#     9% of the prediction at the median (issue 15's target was 5%: met with BBR, not with
#     cubic, see the figures below), four of five within 10%.
# Then the same comparison against a calibration whose rate is doubled must report the rounds
# about 50% fast: the comparison can fail.
# The queue (dlc-compare queue): on a second star whose senders put a burst on the wire at once
# (--initcwnd 1000, as an RDMA NIC would), a fan-in with the tbf's backlog sampled (--qdisc) is
# predicted with the model's bottleneck port (--port-host 0, the tbf's limit as its buffer) and
# the predicted queue compared with the sampled one; a prediction scaled by 10 must fail the
# same check.
# Per message, on a third star whose ports share fairly between the senders (--fair, deficit
# round robin, and --initcwnd 1000): a fan-in of 2 workers predicted by the same calibration
# has every message's |error| p50 within 8% (issue 15's target: 10%), and the measurement against
# itself (the same message one round later) is reported; on the FIFO star it is reported too.
# Where dlc-ns3-predict is built, ns-3 predicts the star's fan-ins too (TCP's defaults and
# --initcwnd 1000; the runs above, whose 64 KiB messages UCX sent by rendezvous, one eager
# fan-in on each FIFO star, and the fair ports' eager one): its per-message |error| p50/p90,
# rounds and queue peak are printed beside the model's, and on the eager fan-ins bound
# (ns3_bound).
# The check can fail: a calibration at twice the rate misses it. Root only: exits 77 when not root or `ip netns add`
# fails. $1: the build's bin directory.
source "$(dirname "$0")/../e2e/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
star_test cmp
B="$BIN/dlc-bench"
C="$BIN/dlc-compare"
N="$BIN/dlc-ns3-predict"
# ns3_report NAME FLOW_TXT RUN_JSON MODEL_CMP FIRST_ROUND QUEUE [OPTIONS...]: where ns-3 is
# built (apps/dlc_ns3), its prediction of the same run (dlc-ns3-predict OPTIONS) held against
# the measurement beside the model's (MODEL_CMP): per-message |error| p50 and the rounds from
# FIRST_ROUND on; with QUEUE 1, the tbf's queue too. Reported (bound by ns3_bound).
ns3_report() {
  local name="$1" flows="$2" run="$3" model="$4" first="$5" queue=()
  shift 5
  [ -x "$N" ] || { echo "  ns-3 ($name): dlc-ns3-predict not built"; return 0; }
  [ "$1" = 0 ] || queue=(--queue "$work/$name.ns3q.csv")
  shift
  check "ns-3 predict ($name)" "$N" "$flows" --calibration "$work/c.json" --run "$run" \
    --out "$work/$name.ns3.fct" "${queue[@]}" "$@"
  sed 's/^/  | /' "$work/out"
  check "ns-3 compare ($name)" "$C" "$flows.map" "$work/$name.ns3.fct" --calibration \
    "$work/c.json" --json "$work/$name.ns3.json"
  python3 - "$model" "$work/$name.ns3.json" "$first" "$name" <<'PY'
import json, statistics, sys
def figures(path):
    d = json.load(open(path))
    rounds = [abs(g["error"]) for g in d["groups"][int(sys.argv[3]):]]
    return (f"|error| p50 {d['messages']['abs_error']['p50']:.1%} p90 "
            f"{d['messages']['abs_error']['p90']:.1%}, rounds median "
            f"{statistics.median(rounds):.1%} max {max(rounds):.1%}")
print(f"  {sys.argv[4]}: ns-3 {figures(sys.argv[2])}; model {figures(sys.argv[1])}")
PY
  if [ ${#queue[@]} -gt 0 ]; then
    check "ns-3 queue ($name)" "$C" queue "$run" "$work/$name.ns3q.csv" --json \
      "$work/$name.ns3q.json"
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); p = d['peak']
print(f\"  {sys.argv[2]}: ns-3 queue peak {p['predicted_bytes'] / p['measured_bytes'] - 1:+.1%}\")" \
      "$work/$name.ns3q.json" "$name"
  fi
}

check "star up" bash "$STAR" up --prefix "$prefix" --hosts 5 --rate 100mbit --burst 32kb \
  --limit 8mb
star_calibrate 18810
json_assert "$work/c.json" \
  "80e6 / 8 <= d['link_rate_Bps'] <= 110e6 / 8" \
  "[s['test'] for s in d['source']] == ['lat', 'lat', 'bw']" \
  "all(s['transport'] == 'ucx' and s['lanes'] == ['tcp on h1'] for s in d['source'])" \
  "all(s['netns'] == '$prefix-h1' and s['congestion_control'] == 'cubic' for s in d['source'])" \
  "all(len(s['star']['hosts']) == 5 for s in d['source'])" \
  "0 < d['base_latency_s'] < 0.01"

check "fanin with --export-flows" bash "$RUN" --prefix "$prefix" --ranks 5 --logs "$work/logs" \
  --timeout 200 -- "$B" fanin --transport ucx --ucx-tls tcp,self -s 64K --burst 16 -n 5 \
  --warmup 1 --solo 3 --timeout 60 -q --export-flows "$work/f.txt" --json "$work/fan.json"
check "predict" "$C" predict "$work/f.txt" --calibration "$work/c.json" --out "$work/fct.txt" \
  --sharing connection --hosts 5
check "compare" "$C" "$work/f.txt.map" "$work/fct.txt" --calibration "$work/c.json" \
  --json "$work/cmp.json" --csv "$work/cmp.csv"
sed 's/^/  | /' "$work/out" | head -30
# 12 solo rounds (3 per worker), 1 warm-up, 5 iterations: groups 13..17 are the iterations.
# The calibration's rate is the star's (`calibrate --link-rate auto`: the tbf's 100 Mbit/s of
# 1514-byte frames, 1448 bytes of payload each). Measured (2026-11-28, build/, cubic): quiet
# host, 6 runs, every iteration +0.2 to +0.4 %; load about 3 (two busy processes), 2 runs, -0.1
# to +1.7 %; with the tbf's burst as a token bucket since (docs/model.md), 2 runs, -0.4 %. With the bw run's steady rate instead (`--link-rate bw`, what the calibration took
# before; it swings with cubic's losses and the sender's partial segments, docs/compare.md):
# 2026-11-27, 10 runs, every iteration -3.7 to -7.4 %; 2026-11-28, 3 runs, -1.0 to +0.0 % in
# two and +6.6 to +11.7 % in one. In CI (2026-11-27, stop 33) one iteration of five stalled for
# 35 ms (+10.1 %): a scheduling stall on the 2-core machine, not the model. Bounds: the median
# within 3 % and four of five within 4 % (about 2x the worst loaded run; the +6.6 to +11.7 %
# run fails them, seen), the fifth within 20 % (a stall); a model off by 2x errs by 50 % (the
# doubled-rate check below).
json_assert "$work/c.json" "d['link_rate']['from'] == 'star'" "d['link_rate_Bps'] == 12.5e6" \
  "d['packet'] == {'header_bytes': 66, 'payload_bytes': 1448}"
json_assert "$work/cmp.json" \
  "d['flows']['compared'] == (12 * 16 + 6 * 64) and d['flows']['unpredicted'] == 0" \
  "[g['group'] for g in d['groups']] == list(range(18))" \
  "d['measured_repeatability']['group_pairs'] == 4 * 2 + 5" \
  "d['measured_repeatability']['messages'] == 4 * 2 * 16 + 5 * 64" \
  "sorted(abs(g['error']) for g in d['groups'][13:])[2] <= 0.03" \
  "sorted(abs(g['error']) for g in d['groups'][13:])[3] <= 0.04" \
  "max(abs(g['error']) for g in d['groups'][13:]) <= 0.20"

# ns-3 on this run (UCX's rendezvous simulated as eager), and on an eager one (UCX_RNDV_THRESH=inf:
# what it mirrors; docs/compare.md, "ns-3 as a predictor").
ns3_report fifo "$work/f.txt" "$work/fan.json" "$work/cmp.json" 13 0 --allow-rendezvous
# ns3_bound NAME P50 ROUNDS FIRST: ns-3's prediction NAME (ns3_report) has every message's
# |error| p50 within P50 and the rounds from FIRST on within ROUNDS at the median. Issue 30's
# targets are 5 % and 2 %. Measured (2026-11-27, build/, 10 runs, load 3 to 8 from other
# builds): eager fan-ins, TCP's defaults p50 4.2 to 10.6 % (bound 15 %: this FIFO's order of
# arrivals is the senders' race, which the simulation cannot know; the target is missed in
# about half the runs), --initcwnd 1000 0.3 to 4.2 % (bound 6 %), fair ports 2.4 to 3.6 %
# (bound 5 %); rounds at most 0.6 % at the median (bound 2 %). The bounds are about 1.4x the
# worst seen: the spread is the measurement's (a run against itself moves as much), so a
# prediction twice as far off is caught only where the spread is narrow (the rounds). The run
# described with a tbf of twice its rate misses both (below).
ns3_bound() {
  [ -x "$N" ] || return 0
  json_assert "$work/$1.ns3.json" "d['messages']['abs_error']['p50'] <= $2" \
    "sorted(abs(g['error']) for g in d['groups'][$4:])[len(d['groups'][$4:]) // 2] <= $3"
}
# ns3_eager NAME STAR [FANIN OPTIONS...]: an eager fan-in on STAR, the model's and ns-3's
# predictions of it (4 solo rounds and a warm-up, then 3 measured).
ns3_eager() {
  local name="$1" star="$2"
  shift 2
  check "fanin eager ($name)" env UCX_RNDV_THRESH=inf bash "$RUN" --prefix "$star" --ranks 5 \
    --logs "$work/$name.logs" --timeout 200 -- "$B" fanin --transport ucx --ucx-tls tcp,self \
    -s 64K --burst 16 -n 3 --warmup 1 --solo 1 --timeout 60 -q --export-flows "$work/$name.txt" \
    --json "$work/$name.json" "$@"
  check "predict ($name)" "$C" predict "$work/$name.txt" --calibration "$work/c.json" --out \
    "$work/$name.fct" --sharing connection --hosts 5 --port-host 0 --port-buffer 8388608
  check "compare ($name)" "$C" "$work/$name.txt.map" "$work/$name.fct" --calibration \
    "$work/c.json" --json "$work/$name.cmp.json"
  local queue=0
  [ $# -eq 0 ] || queue=1  # the tbf sampled (--qdisc)
  ns3_report "$name" "$work/$name.txt" "$work/$name.json" "$work/$name.cmp.json" 5 "$queue"
}
[ ! -x "$N" ] || ns3_eager fifo-eager "$prefix"
ns3_bound fifo-eager 0.15 0.02 5

check "plots" "$ROOT/tools/dlc-compare-plot" --csv "$work/cmp.csv" --json "$work/cmp.json" \
  --out "$work/plots"
for png in cdf scatter errors groups; do
  [ -s "$work/plots/$png.png" ] && ok "plot $png.png" || bad "no plot $png.png"
done
[ -z "${DLCNET_COMPARE_KEEP:-}" ] || cp -r "$work/plots" "$work/cmp.json" "$DLCNET_COMPARE_KEEP/"

# The check can fail: a calibration claiming twice the rate predicts the bursts in half the time.
python3 - "$work/c.json" "$work/c2.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["link_rate_Bps"] *= 2
json.dump(c, open(sys.argv[2], "w"))
PY
check "predict (rate doubled)" "$C" predict "$work/f.txt" --calibration "$work/c2.json" \
  --out "$work/fct2.txt" --sharing connection --hosts 5
check "compare (rate doubled)" "$C" "$work/f.txt.map" "$work/fct2.txt" --calibration \
  "$work/c2.json" --json "$work/cmp2.json"
json_assert "$work/cmp2.json" \
  "-0.6 <= sorted(g['error'] for g in d['groups'][13:])[2] <= -0.4"

qprefix="${prefix}q"
star_prefixes+=("$qprefix")
check "star up (--initcwnd 1000)" bash "$STAR" up --prefix "$qprefix" --hosts 5 --rate 100mbit \
  --burst 32kb --limit 8mb --initcwnd 1000
check "fanin with --qdisc" bash "$RUN" --prefix "$qprefix" --ranks 5 --logs "$work/qlogs" \
  --timeout 200 -- "$B" fanin --transport ucx --ucx-tls tcp,self -s 64K --burst 16 -n 3 \
  --warmup 1 --solo 1 --timeout 60 -q --qdisc p0 --qdisc-netns "$qprefix-sw" \
  --export-flows "$work/g.txt" --json "$work/gfan.json"
check "predict with the port" "$C" predict "$work/g.txt" --calibration "$work/c.json" \
  --out "$work/gfct.txt" --sharing connection --hosts 5 --port-host 0 --port-buffer 8388608 \
  --queue "$work/q.csv"
check "queue" "$C" queue "$work/gfan.json" "$work/q.csv" --json "$work/q.json" \
  --csv "$work/qgrid.csv"
sed 's/^/  | /' "$work/out" | head -20
check "compare with the port" "$C" "$work/g.txt.map" "$work/gfct.txt" --calibration \
  "$work/c.json" --json "$work/gcmp.json"
ns3_report initcwnd1000 "$work/g.txt" "$work/gfan.json" "$work/gcmp.json" 5 1 --allow-rendezvous
[ ! -x "$N" ] || ns3_eager initcwnd1000-eager "$qprefix" --qdisc p0 --qdisc-netns "$qprefix-sw"
ns3_bound initcwnd1000-eager 0.06 0.02 5
# The model's senders send at the calibrated rate and hold nothing back: 4 x 1 MiB into one
# port of that rate peak at 3 MiB (3/4 of the bytes). The senders' veths are not limited, so the
# sampled tbf holds up to the whole 4 MiB. Measured here (2026-11-25, docs/compare.md "Queue
# monitors"): sampled peaks 4072 to 4186 KiB against predicted 3063 to 3067 KiB (x0.73 to
# x0.75), incast rounds' peaks x0.73 to x1.07. Before the star gave its sockets 8 MiB buffers
# a loaded CI run sampled 940 KiB (x3.3: the receiver's window held the senders back). The model
# is a fluid with ideal senders and the check is that it predicts the queue's scale at the right
# time (a prediction x 10, or one not aligned by flow_origin_s, fails it). Measured again
# (2026-11-27, build/, 7 runs, load 5 to 18): the run's peak x0.727 to x0.749 (4094 to 4221 KiB
# sampled, 3065 to 3070 predicted), the median incast round's x0.730 to x0.774 (every incast
# round x0.731 to x0.976 in the first 5); build-sanitize/, 6 runs: x0.730 to x0.735 and x0.731
# to x0.849. Bounds 0.55 to 1.4 on both (were 0.5 to 2): the worst seen passes by 1.3x below and
# 1.65x above (1.3x above the x1.07 of 2026-11-25), and a prediction or a sampled queue off by
# 2x (x0.37 or x1.5 from the usual x0.74) fails.
json_assert "$work/q.json" "d['explanation'] is None" \
  "d['schema'] == 'dlcnet.compare-queue/1' and d['alignment']['from'] == 'flow_origin_s'" \
  "0.55 <= d['peak']['predicted_bytes'] / d['peak']['measured_bytes'] <= 1.4" \
  "sorted(r['predicted_peak_bytes'] / max(r['measured_peak_bytes'], 1) for r in d['rounds'] \
     if r['kind'] == 'incast')[1] <= 1.4" \
  "sorted(r['predicted_peak_bytes'] / max(r['measured_peak_bytes'], 1) for r in d['rounds'] \
     if r['kind'] == 'incast')[1] >= 0.55" \
  "len(rows('$work/qgrid.csv')) == d['grid_points']"
check "queue plot" "$ROOT/tools/dlc-compare-plot" --queue-csv "$work/qgrid.csv" \
  --queue-json "$work/q.json" --out "$work/plots"
[ -s "$work/plots/queue.png" ] && ok "plot queue.png" || bad "no plot queue.png"
[ -z "${DLCNET_COMPARE_KEEP:-}" ] ||
  cp -r "$work/plots" "$work/q.json" "$work/gfan.json" "$work/q.csv" "$DLCNET_COMPARE_KEEP/"
# The check can fail: the prediction's queue scaled by 10.
python3 - "$work/q.csv" "$work/q10.csv" <<'PY'
import sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as g:
    g.write(f.readline())
    for line in f:
        t, b = line.strip().split(",")
        g.write(f"{t},{float(b) * 10}\n")
PY
check "queue (scaled by 10)" "$C" queue "$work/gfan.json" "$work/q10.csv" --json "$work/q10.json"
json_assert "$work/q10.json" "d['peak']['predicted_bytes'] / d['peak']['measured_bytes'] > 2" \
  "d['explanation'] is None"
# A known reason is named: the same report as if its senders had run TCP's initial window (their
# routes' initcwnd unset) against a prediction far above it: the burst waited in the senders'
# socket buffers (on the console, in the JSON and in the PNG's title).
python3 - "$work/gfan.json" "$work/gdef.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert any(r["initcwnd"] == 1000 for s in d["context"]["tcp_stacks"] for r in s["routes"])
for s in d["context"]["tcp_stacks"]:
    for r in s["routes"]:
        r["initcwnd"] = None
json.dump(d, open(sys.argv[2], "w"))
PY
check "queue (TCP's initial window)" "$C" queue "$work/gdef.json" "$work/q10.csv" \
  --json "$work/qdef.json" --csv "$work/qdef.csv"
grep -q "why they differ: the senders ran TCP's initial window" "$work/out" &&
  ok "the initial window named on the console" || bad "the initial window not named"
json_assert "$work/qdef.json" "'socket buffer' in d['explanation']"
check "queue plot (explained)" "$ROOT/tools/dlc-compare-plot" --queue-csv "$work/qdef.csv" \
  --queue-json "$work/qdef.json" --out "$work/plots-def"

fprefix="${prefix}f"
star_prefixes+=("$fprefix")
check "star up (--fair --initcwnd 1000)" bash "$STAR" up --prefix "$fprefix" --hosts 3 \
  --rate 100mbit --burst 32kb --limit 8mb --initcwnd 1000 --fair
# UCX's rendezvous over tcp (a 64 KiB message is above its threshold) waits for a handshake that
# queues behind the other direction's data and makes a message's time vary by tens of percent
# from round to round (docs/ring.md): eager only, as bench/compare_accuracy.sh measures.
check "fanin on fair ports" env UCX_RNDV_THRESH=inf bash "$RUN" --prefix "$fprefix" --ranks 3 \
  --logs "$work/flogs" \
  --timeout 200 -- "$B" fanin --transport ucx --ucx-tls tcp,self -s 64K --burst 16 -n 4 \
  --warmup 1 --solo 1 --timeout 60 -q --export-flows "$work/h.txt" --json "$work/hfan.json"
check "predict (fair ports)" "$C" predict "$work/h.txt" --calibration "$work/c.json" \
  --out "$work/hfct.txt" --sharing connection --hosts 3
check "compare (fair ports)" "$C" "$work/h.txt.map" "$work/hfct.txt" --calibration \
  "$work/c.json" --json "$work/hcmp.json"
sed 's/^/  | /' "$work/out" | head -6
# Measured here (2026-11-25, quiet host, 4 runs): |error| p50 1.3 to 3.7%, the measurement
# against itself 0.1 to 0.4%; on the FIFO star (W = 2, bench/compare_accuracy.sh) 13.7% and
# 7.6%, with rendezvous left on 7 to 14% and 23 to 34%. Again 2026-11-27 (build/, 7 runs, load 5
# to 18): |error| p50 1.5 to 3.3% (median 2.5%), against itself 0.15 to 3.8% (median 1.2%); at
# twice the rate 47 to 52%, at 1.1x 9.5%; build-sanitize/, 6 runs: 1.6 to 5.8% (median 2.8%),
# against itself 0.2 to 2.9%. Bounds (were 10% and 15%): 8%, 1.4x the worst seen (the spread,
# 3.6x, is wider than 2x: twice a run's error fails from 4% up, and a calibration 10% fast
# fails), and 7.5% against itself (2x the worst seen).
json_assert "$work/hcmp.json" \
  "d['flows']['compared'] == 2 * 16 + 5 * 32" \
  "d['messages']['abs_error']['p50'] <= 0.08" \
  "d['measured_repeatability']['group_pairs'] == 4" \
  "d['measured_repeatability']['abs_change']['p50'] <= 0.075"
ns3_report fair "$work/h.txt" "$work/hfan.json" "$work/hcmp.json" 3 0
ns3_bound fair 0.05 0.02 3
# The bounds can fail: the same run described with a tbf of twice the rate.
if [ -x "$N" ]; then
  python3 - "$work/hfan.json" "$work/hfan2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["star"]["tbf"]["rate"] = "200mbit"
json.dump(d, open(sys.argv[2], "w"))
PY
  ns3_report fair-rate-doubled "$work/h.txt" "$work/hfan2.json" "$work/hcmp.json" 3 0
  json_assert "$work/fair-rate-doubled.ns3.json" "d['messages']['abs_error']['p50'] > 0.05" \
    "sorted(abs(g['error']) for g in d['groups'][3:])[len(d['groups'][3:]) // 2] > 0.02"
fi
# The check can fail: a model that gives each worker the whole port (half the time each).
python3 - "$work/c.json" "$work/c2h.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["link_rate_Bps"] *= 2
json.dump(c, open(sys.argv[2], "w"))
PY
check "predict (fair ports, rate doubled)" "$C" predict "$work/h.txt" --calibration \
  "$work/c2h.json" --out "$work/hfct2.txt" --sharing connection --hosts 3
check "compare (fair ports, rate doubled)" "$C" "$work/h.txt.map" "$work/hfct2.txt" \
  --calibration "$work/c2h.json" --json "$work/hcmp2.json"
json_assert "$work/hcmp2.json" "d['messages']['abs_error']['p50'] > 0.08"

# A ring (all-reduce of 1 MiB, 3 ranks, eager) on a star with the tbf on every port shared
# between TCP flows (--fair-flows), one UCX connection per direction (the ring's default): ns-3
# and the model predict each iteration. Measured (2026-11-27, build/, 4 runs, load 3 to 6):
# ns-3 per message p50 5.4 to 9.6 %, iterations 1.3 to 2.6 % at the median; the model 3.6 to
# 6.3 % and 1.0 to 2.3 %. Issue 30's target for rings is 5 % on busbw (the iteration's time):
# bound there for both, and ns-3's per message at 15 % (1.6x the worst). On FIFO ports (the same
# ring, 2 runs) ns-3 was 18 to 27 % per message and 2.1 to 3.0 % per iteration, the model 2.4 to
# 2.8 % and 2.1 to 3.5 %: each port's FIFO holds one direction's data and the other
# connection's ACKs, and ns-3 orders them otherwise than Linux's veth with its GSO packets.
rprefix="${prefix}r"
star_prefixes+=("$rprefix")
check "star up (--all-ports)" bash "$STAR" up --prefix "$rprefix" --hosts 3 --rate 100mbit \
  --burst 32kb --limit 1mb --all-ports --fair-flows
check "ring on the star" env UCX_RNDV_THRESH=inf bash "$RUN" --prefix "$rprefix" --ranks 3 \
  --logs "$work/rlogs" --timeout 200 -- "$B" ring --transport ucx --ucx-tls tcp,self -b 1M \
  -e 1M -n 3 -w 1 --timeout 60 -q --export-flows "$work/r.txt" --json "$work/ring.json"
check "predict (ring)" "$C" predict "$work/r.txt" --calibration "$work/c.json" \
  --out "$work/rfct.txt" --sharing connection --hosts 3
check "compare (ring)" "$C" "$work/r.txt.map" "$work/rfct.txt" --calibration "$work/c.json" \
  --json "$work/rcmp.json"
json_assert "$work/rcmp.json" "d['flows']['compared'] == 3 * 4 * 3" \
  "sorted(abs(g['error']) for g in d['groups'])[1] <= 0.05"
ns3_report ring "$work/r.txt" "$work/ring.json" "$work/rcmp.json" 0 0
ns3_bound ring 0.15 0.05 0
finish
