#!/usr/bin/env bash
# dlc-compare MEASURED PREDICTED and dlc-compare calibrate from the command line: a hand-made
# flow map against a hand-made fct.txt (errors +10%, -10%, +10%, 0%) gives the JSON and CSV;
# missing arguments, an fct.txt of another flow list and a malformed map exit non-zero with
# the file, line and field named. dlc-compare queue: a hand-made fan-in report against a SimAI
# monitor (the port with the largest peak chosen and named), a bad row named by file, line and
# field.
set -euo pipefail
tool="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "compare_cli: FAILED: $*" >&2; exit 1; }

cat > "$dir/m.map" <<'EOF2'
# dlcnet flow map 1
# tool test
# group round
# origin_ns 0
0 1 0 10000 1000 0 90000 0 0 0 0
1 2 0 10000 2000 0 190000 0 0 1 0
2 1 0 10001 3000 50000 290000 0 0 2 0
3 1 0 10002 4000 1000000 390000 0 1 3 1
EOF2
cat > "$dir/fct.txt" <<'EOF2'
0b000101 0b000001 10000 100 1000 0 110000 50000
0b000201 0b000001 10000 100 2000 0 180000 50000
0b000101 0b000001 10001 100 3000 50000 330000 50000
0b000101 0b000001 10002 100 4000 1000000 400000 50000
EOF2
"$tool" "$dir/m.map" "$dir/fct.txt" --ack-latency-us 10 --json "$dir/c.json" --csv "$dir/c.csv" \
  >"$dir/out" || fail "exit $?: $(cat "$dir/out")"
grep -q "MAPE 7.5%" "$dir/out" || fail "console: $(cat "$dir/out")"
python3 - "$dir/c.json" <<'PY' || fail "JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "dlcnet.compare/1", d["schema"]
assert d["flows"]["compared"] == 4, d["flows"]
assert abs(d["messages"]["mape_pct"] - 7.5) < 1e-9, d["messages"]
assert [g["group"] for g in d["groups"]] == [0, 1], d["groups"]
assert abs(d["groups"][0]["error"] - 30 / 340) < 1e-9, d["groups"][0]
PY
[ "$(wc -l < "$dir/c.csv")" -eq 5 ] || fail "CSV: $(cat "$dir/c.csv")"

# expect_error STATUS PATTERN ARGS...: the tool exits STATUS and prints PATTERN on stderr.
expect_error() {
  local want="$1" pattern="$2" rc=0
  shift 2
  timeout 30 "$tool" "$@" >"$dir/o" 2>"$dir/e" || rc=$?
  [ "$rc" -eq "$want" ] || fail "$*: exit $rc, expected $want: $(cat "$dir/e")"
  grep -Eq -- "$pattern" "$dir/e" || fail "$*: stderr lacks /$pattern/: $(cat "$dir/e")"
}
expect_error 2 "MEASURED and PREDICTED are required" --ack-latency-us 1
expect_error 2 "--calibration or --ack-latency-us" "$dir/m.map" "$dir/fct.txt"
sed 's/10001 100 3000/10007 100 3000/' "$dir/fct.txt" >"$dir/other.txt"
expect_error 3 "other.txt:3: no flow 1 -> 0 with sport 10007" "$dir/m.map" "$dir/other.txt" \
  --ack-latency-us 10
sed 's/^2 1 0 10001 3000/2 1 0 10001 3x00/' "$dir/m.map" >"$dir/bad.map"
expect_error 3 "bad.map:7: field size" "$dir/bad.map" "$dir/fct.txt" --ack-latency-us 10
expect_error 3 "nothing.map: cannot open" "$dir/nothing.map" "$dir/fct.txt" --ack-latency-us 10
expect_error 3 "c.json: missing key \"test\"" calibrate "$dir/c.json" --out "$dir/x.json"
# --link-rate: a value it does not know is bad usage; star from reports that ran on no star is
# refused naming them; auto from them is the bw run's rate.
lat="$root/tests/data/plot/lat.json"
bw="$root/tests/data/plot/bw-tcp.json"
expect_error 2 "--link-rate: fast not in \{auto,bw,star\}" calibrate "$lat" "$bw" \
  --out "$dir/x.json" --link-rate fast
expect_error 3 "--link-rate star: no bw report among .*lat.json, .*bw-tcp.json ran on a" \
  calibrate "$lat" "$bw" --out "$dir/x.json" --link-rate star
"$tool" calibrate "$lat" "$bw" --out "$dir/auto.json" >"$dir/o" 2>&1 ||
  fail "calibrate (auto): $(cat "$dir/o")"
python3 - "$dir/auto.json" <<'PY' || fail "calibrate (auto) off a star: not the bw run's rate"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["link_rate"]["from"] == "bw", d["link_rate"]
assert d["link_rate_Bps"] == d["link_rate"]["bw_steady_payload_Bps"], d
PY
# A calibration of another fabric is named (the map's messages took 90 to 390 us): one whose
# idle network is 43x faster (shared memory's), one 11x slower; one that fits (1.4) is quiet.
# cal_fit NAME RATE_BPS BASE_S: compare against that calibration; its stderr in $dir/NAME.err.
cal_fit() {
  echo "{\"link_rate_Bps\": $2, \"base_latency_s\": $3, \"header_bytes\": 0}" >"$dir/$1.cal"
  "$tool" "$dir/m.map" "$dir/fct.txt" --calibration "$dir/$1.cal" --json "$dir/$1.json" \
    >"$dir/o" 2>"$dir/$1.err" || fail "calibration $1: exit $?: $(cat "$dir/$1.err")"
}
cal_fit fast 1e10 1e-6
grep -q "warning: $dir/fast.cal: even the run's fastest message took 4[0-9].[0-9] times" "$dir/fast.err" ||
  fail "a faster fabric's calibration not named: $(cat "$dir/fast.err")"
cal_fit slow 1e5 1e-3
grep -q "warning: $dir/slow.cal: the run's fastest message took 0.0[0-9]* of" "$dir/slow.err" ||
  fail "a slower fabric's calibration not named: $(cat "$dir/slow.err")"
cal_fit fits 1e8 4e-5
[ ! -s "$dir/fits.err" ] || fail "a fitting calibration warned: $(cat "$dir/fits.err")"
python3 - "$dir" <<'PY' || fail "calibration_fit in the JSON"
import json, sys
fit = {n: json.load(open(f"{sys.argv[1]}/{n}.json"))["calibration_fit"] for n in ("fast", "fits")}
assert 40 < fit["fast"]["fastest_over_idle"] < 47 and "faster" in fit["fast"]["warning"]
assert 1.3 < fit["fits"]["fastest_over_idle"] < 1.5 and fit["fits"]["warning"] is None
PY
# dlc-compare queue: measured 1000 B from 10 s to 12 s (flow.txt's zero at 10 s); SimAI's port 4:2
# holds 2000 B from 0.5 s to 1.5 s after that zero, port 4:1 at most 500 B.
cat > "$dir/fan.json" <<'EOF2'
{"flow_origin_s": 10.0,
 "iterations": [{"kind": "incast", "iteration": 1, "first_post_s": 10.0, "last_arrival_s": 12.0}],
 "qdisc": {"series": {"t_s": [10.0, 11.0, 12.0], "backlog_bytes": [1000, 1000, 1000]}}}
EOF2
cat > "$dir/mon.csv" <<'EOF2'
time, sw_id, port_id, q_id, q_len, port_len
100000000, 4, 1, 0, 500, 500
500000000, 4, 2, 0, 2000, 2000
1500000000, 4, 2, 0, 0, 0
EOF2
"$tool" queue "$dir/fan.json" "$dir/mon.csv" --grid-us 500000 --json "$dir/q.json" \
  --csv "$dir/q.csv" >"$dir/out" || fail "queue: exit $?: $(cat "$dir/out")"
grep -q "port 4:2, the largest peak of its 2 ports" "$dir/out" || fail "queue: $(cat "$dir/out")"
python3 - "$dir/q.json" <<'PY' || fail "queue JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "dlcnet.compare-queue/1", d["schema"]
assert d["alignment"] == {"offset_s": 10.0, "from": "flow_origin_s"}, d["alignment"]
assert d["peak"]["predicted_bytes"] == 2000 and d["peak"]["error"] == 1.0, d["peak"]
# grid 0, 0.5, 1, 1.5, 2: predicted 0, 2000, 2000, 0, 0 -> mean 800
assert abs(d["mean"]["predicted_bytes"] - 800) < 1e-9, d["mean"]
assert d["rounds"][0]["predicted_peak_bytes"] == 2000, d["rounds"]
PY
[ "$(wc -l < "$dir/q.csv")" -eq 6 ] || fail "queue CSV: $(cat "$dir/q.csv")"
sed 's/^500000000, 4, 2, 0, 2000/500000000, 4, 2, 0, 2x00/' "$dir/mon.csv" >"$dir/bad.csv"
expect_error 3 "bad.csv:3: field q_len: \"2x00\" is not a whole number" queue "$dir/fan.json" \
  "$dir/bad.csv"
expect_error 3 "no port 9:9" queue "$dir/fan.json" "$dir/mon.csv" --port 9:9
echo "compare_cli: ok"
