#!/usr/bin/env bash
# dlc-compare predict end to end: an HPCC flow.txt in, fct.txt, topology.txt, the queue and
# the JSON summary out; a malformed flow file and a bad calibration rejected by name.
set -euo pipefail
tool="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "predict_cli: FAILED: $*" >&2; exit 1; }

cat > "$dir/c.json" <<'JSON'
{"link_rate_Bps": 1e9, "base_latency_s": 1e-6, "packet": {"header_bytes": 0}}
JSON
# Two flows of 1 MB into host 0 share its down link: each sent at 2 ms, arrived 1 us later,
# acknowledged 1 us after that: fct 2002000 ns; alone 1 ms + 2 us.
printf '2\n1 0 3 200 1000000 0\n2 0 3 200 1000000 0\n' > "$dir/flow.txt"
"$tool" predict "$dir/flow.txt" --calibration "$dir/c.json" --out "$dir/fct.txt" \
  --topology "$dir/topo.txt" --json "$dir/p.json" > "$dir/out.txt"
expected='0b000101 0b000001 10000 200 1000000 0 2002000 1002000
0b000201 0b000001 10000 200 1000000 0 2002000 1002000'
[[ "$(cat "$dir/fct.txt")" == "$expected" ]] || fail "fct.txt: $(cat "$dir/fct.txt")"
[[ "$(head -1 "$dir/topo.txt")" == "4 1 3" ]] || fail "topology.txt: $(cat "$dir/topo.txt")"
grep -q '"link": "down 0"' "$dir/p.json" || fail "JSON without links"

# The same incast through a port with a buffer: the queue is written.
"$tool" predict "$dir/flow.txt" --calibration "$dir/c.json" --out "$dir/fct2.txt" \
  --port-host 0 --port-buffer 500000 --queue "$dir/q.csv" > /dev/null
[[ "$(head -1 "$dir/q.csv")" == "time_s,bytes" ]] || fail "queue CSV header"
grep -q ',500000$' "$dir/q.csv" || fail "the queue never reached its buffer: $(cat "$dir/q.csv")"

# Malformed input: exit 3, the error names the file, the line and the field.
printf '2\n1 0 3 200 1000000 0\n2 0 3 200 10x0 0\n' > "$dir/bad.txt"
if "$tool" predict "$dir/bad.txt" --calibration "$dir/c.json" --out "$dir/x.txt" 2> "$dir/err"; then
  fail "a malformed flow.txt was accepted"
fi
grep -q "bad.txt:3: field size" "$dir/err" || fail "error: $(cat "$dir/err")"
echo '{"base_latency_s": 1e-6}' > "$dir/bad.json"
if "$tool" predict "$dir/flow.txt" --calibration "$dir/bad.json" --out "$dir/x.txt" 2> "$dir/err"; then
  fail "a calibration without a rate was accepted"
fi
grep -q 'bad.json: calibration: missing key "link_rate_Bps"' "$dir/err" || fail "error: $(cat "$dir/err")"
echo "predict_cli: OK"
