#!/usr/bin/env bash
# dlc-compare MEASURED PREDICTED and dlc-compare calibrate from the command line: a hand-made
# flow map against a hand-made fct.txt (errors +10%, -10%, +10%, 0%) gives the JSON and CSV;
# missing arguments, an fct.txt of another flow list and a malformed map exit non-zero with
# the file, line and field named.
set -euo pipefail
tool="$1"
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
expect_error 105 "MEASURED and PREDICTED are required" --ack-latency-us 1
expect_error 105 "--calibration or --ack-latency-us" "$dir/m.map" "$dir/fct.txt"
sed 's/10001 100 3000/10007 100 3000/' "$dir/fct.txt" >"$dir/other.txt"
expect_error 3 "other.txt:3: no flow 1 -> 0 with sport 10007" "$dir/m.map" "$dir/other.txt" \
  --ack-latency-us 10
sed 's/^2 1 0 10001 3000/2 1 0 10001 3x00/' "$dir/m.map" >"$dir/bad.map"
expect_error 3 "bad.map:7: field size" "$dir/bad.map" "$dir/fct.txt" --ack-latency-us 10
expect_error 3 "nothing.map: cannot open" "$dir/nothing.map" "$dir/fct.txt" --ack-latency-us 10
expect_error 3 "c.json: missing key \"test\"" calibrate "$dir/c.json" --out "$dir/x.json"
echo "compare_cli: ok"
