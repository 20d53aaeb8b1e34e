#!/usr/bin/env bash
# A replayed job on the namespace star, predicted closed loop by ns-3 (dlc-ns3-predict --job) and
# by the model (dlc-compare predict-job: on the run's star with --run, and on its default network
# of shaped up links), each compared with the replay (--free-starts):
#  1. a star of 3 hosts, a 100 Mbit/s tbf on every port (FIFO), cubic; calibrated with dlc-bench
#     lat and bw between h1 and h0 (`dlc-compare calibrate`);
#  2. the hand-made parameter-server job of ps_job.py (2 workers, 1 server, 4 iterations of 1 MiB
#     pushes and pulls) replayed over UCX tcp, eager (UCX_RNDV_THRESH=inf), one connection per
#     direction, with --export-flows and --json;
#  3. every message predicted by each and joined; per-message |error| p50 and the iterations'
#     error (median) bound for each (the bounds and the runs behind them: below), and ns-3 on
#     the run described with a tbf of twice its rate misses them.
# Root only: exits 77 when not root or `ip netns add` fails. $1: the build's bin directory.
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
star_test ns3j
C="$BIN/dlc-compare"
P="$BIN/dlc-ns3-predict"
R="$BIN/dlc-replay"
check "star up" bash "$STAR" up --prefix "$prefix" --hosts 3 --rate 100mbit --burst 32kb \
  --limit 8mb --all-ports
star_calibrate 18830

python3 "$here/ps_job.py" write 2 4 1048576 1048576 "$work/job.csv"
check "replay on the star" env UCX_RNDV_THRESH=inf bash "$RUN" --prefix "$prefix" --ranks 3 \
  --logs "$work/logs" --timeout 120 -- "$R" "$work/job.csv" --transport ucx \
  --ucx-tls tcp,self --ucx-connections direction --timeout 60 --export-flows "$work/f.txt" \
  --json "$work/run.json"
check "predict (ns-3)" "$P" --job "$work/job.csv" --like "$work/f.txt.map" --calibration \
  "$work/c.json" --run "$work/run.json" --out "$work/ns3.fct"
sed 's/^/  | /' "$work/out"
check "predict (model)" "$C" predict-job "$work/job.csv" --like "$work/f.txt.map" \
  --calibration "$work/c.json" --out "$work/model.fct"
check "predict (model on the run's star)" "$C" predict-job "$work/job.csv" --like \
  "$work/f.txt.map" --calibration "$work/c.json" --run "$work/run.json" --out "$work/star.fct"
for who in ns3 model star; do
  check "compare ($who)" "$C" "$work/f.txt.map" "$work/$who.fct" --calibration "$work/c.json" \
    --free-starts --json "$work/$who.json"
done
python3 - "$work" <<'PY'
import json, statistics, sys
for who in ("ns3", "model", "star"):
    d = json.load(open(f"{sys.argv[1]}/{who}.json"))
    it = [g["error"] for g in d["groups"]]
    r = d["measured_repeatability"]["abs_change"]["p50"]
    print(f"  {who}: |error| p50 {d['messages']['abs_error']['p50']:.1%} p90 "
          f"{d['messages']['abs_error']['p90']:.1%}, iterations median "
          f"{statistics.median(it):+.1%} max |{max(map(abs, it)):.1%}| (itself {r:.1%})")
PY
# Bounds. Measured (build/, 6 runs, load 6 to 7 from other users; each run: ns-3, model, the
# measurement against itself, p50 of the same message one iteration later):
#   per message |error| p50: ns-3 7.7 to 33.6 %, model 73.8 to 88.9 % (itself 1.2 to 16.1 %);
#     p90 89 to 112 % for both: half the messages are 64 bytes, measured at 0.01 to 3 ms (the
#     ranks wait for a CPU on this loaded host), predicted in tens of microseconds;
#   iterations (first post to last arrival), median error: ns-3 -1.0 to -2.3 %, model +26.7 to
#     +37.8 %: the model gives every host's up link the calibrated rate, so the server's two
#     pulls share its link there, while the star shapes only the ports toward the hosts;
#   the model on the run's star (--run: the hosts' up links unshaped; 3 runs, load 4 to 5):
#     iterations -3.2 to -4.2 % (the calibrated rate is a little above the tbf's), p50 6.2 to
#     30.7 % (ns-3 in the same runs 8.7 to 33.7 %).
# Bounds: ns-3's iterations within 6 % at the median (2.6x the worst), its per-message p50 at
# most 45 % (1.3x); the model on the star's iterations within 8 % (1.9x), its p50 at most 45 %;
# without --run its iterations between +15 and +50 %, its p50 at most 100 %. A
# prediction twice too slow or too fast misses the iteration bounds (+100 % or -50 %); so does
# ns-3 given a tbf of twice the star's rate (below).
median="sorted(g['error'] for g in d['groups'])[len(d['groups']) // 2]"
for who in ns3 model star; do
  json_assert "$work/$who.json" "d['flows']['compared'] == 4 * 2 * 4" \
    "d['flows']['unpredicted'] == 0 and d['predicted_starts'] == 'its own'" \
    "[g['group'] for g in d['groups']] == [1, 2, 3, 4]"
done
json_assert "$work/ns3.json" "abs($median) <= 0.06" "d['messages']['abs_error']['p50'] <= 0.45"
json_assert "$work/star.json" "abs($median) <= 0.08" "d['messages']['abs_error']['p50'] <= 0.45"
json_assert "$work/model.json" "0.15 <= $median <= 0.50" \
  "d['messages']['abs_error']['p50'] <= 1.0"
# The bounds can fail: the same run described with a tbf of twice its rate.
python3 - "$work/run.json" "$work/run2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["star"]["tbf"]["rate"] = "200mbit"
json.dump(d, open(sys.argv[2], "w"))
PY
check "predict (ns-3, tbf rate doubled)" "$P" --job "$work/job.csv" --like "$work/f.txt.map" \
  --calibration "$work/c.json" --run "$work/run2.json" --out "$work/ns3x2.fct"
check "compare (ns-3, tbf rate doubled)" "$C" "$work/f.txt.map" "$work/ns3x2.fct" \
  --calibration "$work/c.json" --free-starts --json "$work/ns3x2.json"
json_assert "$work/ns3x2.json" "$median < -0.2"
[ -z "${DLCNET_NS3_KEEP:-}" ] || cp "$work"/*.json "$work"/*.fct "$work"/f.txt* "$DLCNET_NS3_KEEP/"
finish
