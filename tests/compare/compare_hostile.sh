#!/usr/bin/env bash
# dlc-compare and dlc-compare-plot against hostile input (issue 31), one class at a time; each
# case asserts the exit code and that the message names the file (with the line, the field or
# the key) or the option:
#   1 JSON: a number past double's range (1e400), a directory, a document cut short, `[]`;
#     predict-job --run's report without a star or with fewer hosts than the job's ranks;
#   2 numbers of options and files: nan, inf, negative, zero where meaningless;
#   3 memory sized by a number in the input: host ids near 2^31, --hosts, --iterations;
#     out-of-range flow.txt values (start_s 2e10, a size of 2^64-1);
#   4 inputs read once: a pipe, /dev/stdin and a FIFO into dlc-compare queue; directories; an
#     empty fct.txt named (not only the map none of whose flows it matched);
#   5 outputs naming one file, or an input, refused before the work;
#   6 exit codes: 2 for a bad command line (dlc-compare and dlc-trace), "TOOL: error:" prefix;
#   7 dlc-compare-plot: missing, directory, non-UTF-8, BOM, [], missing keys, strings for
#     numbers, absurd values, a 5000-digit number, a blank line and a line of one field too
#     many (which numpy's reader, the fast path, would pass over), unwritable --out: exit 2
#     naming the file and field, no traceback.
# Inputs are the project's own files: a calibration from the dlc-bench reports in
# tests/data/plot, the lenet5 example job, and the small flow list, map, fct.txt and fan-in
# report of compare_cli.sh.
# Usage: compare_hostile.sh DLC_COMPARE DLC_TRACE SOURCE_ROOT
set -euo pipefail
tool="$1"
trace_tool="$2"
root="$3"
plot="$root/tools/dlc-compare-plot"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
failures=0
bad() {
  echo "compare_hostile: FAILED: $*" >&2
  failures=$((failures + 1))
}

# expect STATUS PATTERN CMD...: CMD exits STATUS within 30 s (no signal, no hang) and its
# stderr matches the extended regular expression PATTERN (and holds no traceback).
expect() {
  local want="$1" pattern="$2" rc=0
  shift 2
  timeout 30 "$@" >"$dir/o" 2>"$dir/e" </dev/null || rc=$?
  if [ "$rc" -ne "$want" ]; then
    bad "$(basename "$1") ${*:2}: exit $rc, expected $want: $(head -c 400 "$dir/e")"
  elif ! grep -Eq -- "$pattern" "$dir/e"; then
    bad "$(basename "$1") ${*:2}: stderr lacks /$pattern/: $(head -c 400 "$dir/e")"
  elif grep -q "Traceback\|terminate called" "$dir/e"; then
    bad "$(basename "$1") ${*:2}: a traceback or terminate: $(head -c 400 "$dir/e")"
  fi
}
c() { expect "$1" "$2" "$tool" "${@:3}"; }

# --- the inputs -------------------------------------------------------------------------------
"$tool" calibrate "$root/tests/data/plot/lat.json" "$root/tests/data/plot/bw-tcp.json" \
  --out "$dir/cal.json" >/dev/null
printf '2\n1 0 3 200 1000000 0\n2 0 3 200 1000000 0\n' >"$dir/flow.txt"
cat >"$dir/m.map" <<'EOF2'
# dlcnet flow map 1
# tool test
# group round
# origin_ns 0
0 1 0 10000 1000 0 90000 0 0 0 0
1 2 0 10000 2000 0 190000 0 0 1 0
EOF2
cat >"$dir/fct.txt" <<'EOF2'
0b000101 0b000001 10000 100 1000 0 110000 50000
0b000201 0b000001 10000 100 2000 0 180000 50000
EOF2
cat >"$dir/fan.json" <<'EOF2'
{"flow_origin_s": 10.0,
 "iterations": [{"kind": "incast", "iteration": 1, "first_post_s": 10.0, "last_arrival_s": 12.0}],
 "qdisc": {"series": {"t_s": [10.0, 11.0, 12.0], "backlog_bytes": [1000, 1000, 1000]}}}
EOF2
printf 'time_s,bytes\n0,0\n0.5,2000\n1.5,0\n' >"$dir/q.csv"
job="$root/examples/lenet5-2w1s"
"$tool" "$dir/m.map" "$dir/fct.txt" --calibration "$dir/cal.json" >/dev/null
"$tool" predict "$dir/flow.txt" --calibration "$dir/cal.json" --out "$dir/p.txt" >/dev/null
"$tool" queue "$dir/fan.json" "$dir/q.csv" >/dev/null

# --- 1: JSON ----------------------------------------------------------------------------------
sed 's/"base_latency_s": [^,}]*/"base_latency_s": 1e400/' "$dir/cal.json" >"$dir/c400.json"
grep -q 1e400 "$dir/c400.json" || bad "setup: no 1e400 in c400.json"
overflow='c400\.json:[0-9]+:[0-9]+: base_latency_s: number overflow'
c 3 "$overflow" "$dir/m.map" "$dir/fct.txt" --calibration "$dir/c400.json"
c 3 "$overflow" predict "$dir/flow.txt" --calibration "$dir/c400.json" --out "$dir/x.txt"
c 3 "$overflow" predict-job "$job" --like "$dir/m.map" --calibration "$dir/c400.json" \
  --out "$dir/x.txt"
# predict-job --run: the run's star, read as a JSON report (a bad number named by line and
# key), refused by field when it is not a star's (the job has 3 ranks).
printf '{"context": {"star": {"ports": "fifo", "shaped_ports": "all",\n "hosts": 1e400}}}\n' \
  >"$dir/run400.json"
c 3 'run400\.json:2:[0-9]+: context\.star\.hosts: number overflow' predict-job "$job" \
  --like "$dir/m.map" --calibration "$dir/cal.json" --run "$dir/run400.json" --out "$dir/x.txt"
printf '{"context": {"transport": {}}}\n' >"$dir/run-nostar.json"
c 3 'run-nostar\.json: context\.star: missing: the run did not run on a namespace star' \
  predict-job "$job" --like "$dir/m.map" --calibration "$dir/cal.json" \
  --run "$dir/run-nostar.json" --out "$dir/x.txt"
printf '{"context": {"star": {"ports": "fifo", "shaped_ports": "all", "hosts": [{}, {}]}}}\n' \
  >"$dir/run2.json"
c 3 'run2\.json: context\.star\.hosts: 2 hosts, the job has 3 ranks' predict-job "$job" \
  --like "$dir/m.map" --calibration "$dir/cal.json" --run "$dir/run2.json" --out "$dir/x.txt"
c 2 '--out .*run2\.json is the input --run' predict-job "$job" --like "$dir/m.map" \
  --calibration "$dir/cal.json" --run "$dir/run2.json" --out "$dir/run2.json"
sed 's/11.0, 12.0\]/1e400, 12.0]/' "$dir/fan.json" >"$dir/f400.json"
c 3 'f400\.json:3:[0-9]+: qdisc\.series\.t_s\[1\]: number overflow' queue "$dir/f400.json" \
  "$dir/q.csv"
printf '{"test": {"kind": "lat"},\n "results": [{"bytes": 64, "t_typical_s": 1e999}]}\n' \
  >"$dir/r400.json"
c 3 'r400\.json:2:[0-9]+: results\[0\]\.t_typical_s: number overflow' calibrate "$dir/r400.json" \
  --out "$dir/x.json"
mkdir "$dir/cal.d"
c 3 'cal\.d: is a directory' predict "$dir/flow.txt" --calibration "$dir/cal.d" --out "$dir/x.txt"
c 3 'cal\.d: is a directory' calibrate "$dir/cal.d" --out "$dir/x.json"
c 3 'cal\.d: is a directory' queue "$dir/cal.d" "$dir/q.csv" --measured-format fanin
head -c 40 "$dir/cal.json" >"$dir/cut.json"
c 3 'cut\.json:[0-9]+:[0-9]+: ' predict "$dir/flow.txt" --calibration "$dir/cut.json" \
  --out "$dir/x.txt"
echo '[]' >"$dir/arr.json"
c 3 'arr\.json: calibration: not a JSON object' predict "$dir/flow.txt" \
  --calibration "$dir/arr.json" --out "$dir/x.txt"
c 3 'arr\.json: no "qdisc" object' queue "$dir/arr.json" "$dir/q.csv" --measured-format fanin
sed 's/"t_s": \[10.0/"t_s": ["10"/' "$dir/fan.json" >"$dir/fstr.json"
c 3 'fstr\.json: qdisc\.series\.t_s\[0\]: "10" is not a number' queue "$dir/fstr.json" "$dir/q.csv"

# --- 2: numbers of options and files ------------------------------------------------------------
c 2 "--ack-latency-us: 'nan' is not finite" "$dir/m.map" "$dir/fct.txt" --ack-latency-us nan
c 2 "--ack-latency-us: '-1'" "$dir/m.map" "$dir/fct.txt" --ack-latency-us -1
c 2 "--ack-latency-us: 'inf' is not finite" "$dir/m.map" "$dir/fct.txt" --ack-latency-us inf
c 2 "--grid-us: '0' is out of range" queue "$dir/fan.json" "$dir/q.csv" --grid-us 0
c 2 "--hpcc-sample-ns: 'inf' is not finite" queue "$dir/fan.json" "$dir/q.csv" \
  --hpcc-sample-ns inf
c 2 "--offset-s: 'nan' is not finite" queue "$dir/fan.json" "$dir/q.csv" --offset-s nan
c 2 "--time-scale: 'nan' is not finite" predict-job "$job" --like "$dir/m.map" \
  --calibration "$dir/cal.json" --out "$dir/x.txt" --time-scale nan
c 2 "--port-rate: '-1'" predict "$dir/flow.txt" --calibration "$dir/cal.json" --out "$dir/x.txt" \
  --port-host 0 --port-rate -1
c 2 "--port-buffer: 'nan' is not finite" predict "$dir/flow.txt" --calibration "$dir/cal.json" \
  --out "$dir/x.txt" --port-host 0 --port-buffer nan
c 2 "--port-host: '-2'" predict "$dir/flow.txt" --calibration "$dir/cal.json" \
  --out "$dir/x.txt" --port-host -2
c 2 "--messages: '0' is out of range" model-speed --messages 0
c 2 "--repeat: '-1' is out of range" model-speed --repeat -1
c 2 "--hosts: '1' is out of range" model-speed --hosts 1
sed 's/"link_rate_Bps": [^,}]*/"link_rate_Bps": -5/' "$dir/cal.json" >"$dir/neg.json"
c 3 'neg\.json: calibration: "link_rate_Bps" = -5' predict "$dir/flow.txt" \
  --calibration "$dir/neg.json" --out "$dir/x.txt"
# A calibration predict would refuse (a rate below 1 B/s) is refused by calibrate, naming
# the reports; times past an hour, by predict, naming the calibration.
printf '{"test": {"kind": "bw"}, "results": [{"bytes": 64, "bandwidth": %s}]}\n' \
  '{"average_bytes_per_s": 1e-300}' >"$dir/slow.json"
c 3 'lat\.json, .*slow\.json: calibration: "link_rate_Bps" = 1e-300: from 1 to' calibrate \
  "$root/tests/data/plot/lat.json" "$dir/slow.json" --out "$dir/x.json"
sed 's/"overhead_s": [^,}]*/"overhead_s": 2e23/' "$dir/cal.json" >"$dir/late.json"
c 3 'late\.json: calibration: "overhead_s" = 2e\+23: from 0 to 3600' predict "$dir/flow.txt" \
  --calibration "$dir/late.json" --out "$dir/x.txt"
printf '1\n1 0 3 200 1000 nan\n' >"$dir/fnan.txt"
c 3 'fnan\.txt:2: field start_s' predict "$dir/fnan.txt" --calibration "$dir/cal.json" \
  --out "$dir/x.txt"

# --- 3: memory sized by what the input holds; values in range -----------------------------------
printf '1\n2147483647 0 3 200 1000 0\n' >"$dir/bighost.txt"
c 3 'bighost\.txt:2: field src: 2147483647 is past 65535' predict "$dir/bighost.txt" \
  --calibration "$dir/cal.json" --out "$dir/x.txt"
printf '1\n0 4294967295 3 200 1000 0\n' >"$dir/bigdst.txt"
c 3 'bigdst\.txt:2: field dst: 4294967295 is past 65535' predict "$dir/bigdst.txt" \
  --calibration "$dir/cal.json" --out "$dir/x.txt"
c 2 "--hosts: '2147483648' is out of range" predict "$dir/flow.txt" \
  --calibration "$dir/cal.json" --out "$dir/x.txt" --hosts 2147483648
c 2 "--hosts: '65537' is out of range" predict "$dir/flow.txt" --calibration "$dir/cal.json" \
  --out "$dir/x.txt" --hosts 65537
c 2 "--iterations: '1000001' is out of range" predict-job "$job" --like "$dir/m.map" \
  --calibration "$dir/cal.json" --out "$dir/x.txt" --iterations 1000001
# A job of many records an iteration, looped a million times: more than any host holds.
"$trace_tool" synth -o "$dir/big" -m resnet50 -w 8 -s 4 -n 2 --seed 1 >/dev/null
c 3 "--iterations 1000000: .* would need [0-9.]+ GiB" predict-job \
  "$dir/big" --like "$dir/m.map" --calibration "$dir/cal.json" --out "$dir/x.txt" \
  --iterations 1000000
printf '1\n1 0 3 200 1000 2e10\n' >"$dir/late.txt"
c 3 'late\.txt:2: field start_s: 2e\+10 s is past' predict "$dir/late.txt" --calibration "$dir/cal.json" \
  --out "$dir/x.txt"
printf '1\n1 0 3 200 18446744073709551615 0\n' >"$dir/huge.txt"
c 3 'huge\.txt:2: field size: 18446744073709551615 is past' predict "$dir/huge.txt" \
  --calibration "$dir/cal.json" --out "$dir/x.txt"

# --- 4: inputs read once; directories -----------------------------------------------------------
rc=0
cat "$dir/fan.json" | timeout 30 "$tool" queue /dev/stdin "$dir/q.csv" >"$dir/o" 2>"$dir/e" || rc=$?
[ "$rc" -eq 0 ] || bad "queue from a pipe (/dev/stdin): exit $rc: $(cat "$dir/e")"
rc=0
timeout 30 "$tool" queue /dev/stdin "$dir/q.csv" <"$dir/fan.json" >"$dir/o" 2>"$dir/e" || rc=$?
[ "$rc" -eq 0 ] || bad "queue from /dev/stdin (a file): exit $rc: $(cat "$dir/e")"
rc=0
timeout 30 "$tool" queue "$dir/fan.json" <(cat "$dir/q.csv") >"$dir/o" 2>"$dir/e" || rc=$?
[ "$rc" -eq 0 ] || bad "queue, PREDICTED a pipe: exit $rc: $(cat "$dir/e")"
mkfifo "$dir/fifo"
(cat "$dir/fan.json" >"$dir/fifo") &
rc=0
timeout 30 "$tool" queue "$dir/fifo" "$dir/q.csv" >"$dir/o" 2>"$dir/e" || rc=$?
wait
[ "$rc" -eq 0 ] || bad "queue from a FIFO: exit $rc: $(cat "$dir/e")"
rc=0
cat "$dir/flow.txt" | timeout 30 "$tool" predict /dev/stdin --calibration <(cat "$dir/cal.json") \
  --out "$dir/x.txt" >"$dir/o" 2>"$dir/e" || rc=$?
[ "$rc" -eq 0 ] || bad "predict from pipes: exit $rc: $(cat "$dir/e")"
mkdir "$dir/in.d"
c 3 'in\.d: is a directory' queue "$dir/in.d" "$dir/q.csv"
c 3 'in\.d: is a directory' queue "$dir/fan.json" "$dir/in.d"
c 3 'in\.d: is a directory' predict "$dir/in.d" --calibration "$dir/cal.json" --out "$dir/x.txt"
c 3 'in\.d: is a directory' "$dir/in.d" "$dir/fct.txt" --ack-latency-us 1
c 3 'in\.d: is a directory' "$dir/m.map" "$dir/in.d" --ack-latency-us 1
: >"$dir/empty.txt"
c 3 'empty\.txt: empty: no fct\.txt record for the 2 flows of .*m\.map' "$dir/m.map" \
  "$dir/empty.txt" --ack-latency-us 1

# --- 5: outputs -------------------------------------------------------------------------------
cp "$dir/flow.txt" "$dir/keep.txt"
c 2 '--out .*x\.txt and --json .*x\.txt name one file' predict "$dir/flow.txt" \
  --calibration "$dir/cal.json" --out "$dir/x.txt" --json "$dir/x.txt"
c 2 '--out .*keep\.txt is the input FLOW_TXT .*keep\.txt' predict "$dir/keep.txt" \
  --calibration "$dir/cal.json" --out "$dir/keep.txt"
cmp -s "$dir/flow.txt" "$dir/keep.txt" || bad "predict F --out F changed F"
cp "$root/tests/data/plot/lat.json" "$dir/r1.json"
c 2 '--out .*r1\.json is the input REPORTS .*r1\.json' calibrate "$dir/r1.json" \
  "$root/tests/data/plot/bw-tcp.json" --out "$dir/r1.json"
cmp -s "$dir/r1.json" "$root/tests/data/plot/lat.json" || bad "calibrate R1 R2 --out R1 changed R1"
c 2 '--json .*c\.csv and --csv .*c\.csv name one file' "$dir/m.map" "$dir/fct.txt" \
  --ack-latency-us 1 --json "$dir/c.csv" --csv "$dir/c.csv"
c 2 '--csv .*fct\.txt is the input PREDICTED' "$dir/m.map" "$dir/fct.txt" --ack-latency-us 1 \
  --csv "$dir/fct.txt"
c 2 '--out .*m\.map is the input --like' predict-job "$job" --like "$dir/m.map" \
  --calibration "$dir/cal.json" --out "$dir/m.map"
# /dev/null twice is a stream twice, not a file replaced: allowed.
"$tool" predict "$dir/flow.txt" --calibration "$dir/cal.json" --out /dev/null --json /dev/null \
  >/dev/null || bad "predict --out /dev/null --json /dev/null refused"

# --- 6: exit codes and the error prefix ----------------------------------------------------------
c 2 '^dlc-compare: error: .*--bogus' --bogus
c 2 '^dlc-compare: error: .*FLOW_TXT is required' predict --calibration "$dir/cal.json" --out x
c 2 '^dlc-compare: error: MEASURED and PREDICTED are required' --ack-latency-us 1
c 3 '^dlc-compare: error: .*nothing\.map: cannot open' "$dir/nothing.map" "$dir/fct.txt" \
  --ack-latency-us 1
expect 2 '^dlc-trace: error: .*--bogus' "$trace_tool" --bogus validate x
expect 2 '^dlc-trace: error: ' "$trace_tool"
expect 2 "^dlc-trace: error: --workers: '0' is out of range" "$trace_tool" synth -o "$dir/j" -w 0
expect 3 '^dlc-trace: error: ' "$trace_tool" synth -o "$dir/fct.txt" -w 1 -s 1 -n 1
for t in "$tool" "$trace_tool"; do
  "$t" --help >/dev/null || bad "$t --help: exit $?"
  "$t" --version >/dev/null || bad "$t --version: exit $?"
done

# --- 7: dlc-compare-plot ----------------------------------------------------------------------
p() { expect "$1" "$2" "$plot" "${@:3}"; }
"$tool" "$dir/m.map" "$dir/fct.txt" --ack-latency-us 10 --json "$dir/c.json" \
  --csv "$dir/c.csv" >/dev/null
"$tool" queue "$dir/fan.json" "$dir/q.csv" --json "$dir/qc.json" --csv "$dir/qc.csv" >/dev/null
e='^dlc-compare-plot: error: '
p 2 "${e}.*none\.csv: cannot read: No such file" --csv "$dir/none.csv" --out "$dir/png"
p 2 "${e}.*in\.d: is a directory" --csv "$dir/in.d" --out "$dir/png"
p 2 "${e}.*in\.d: is a directory" --csv "$dir/c.csv" --json "$dir/in.d" --out "$dir/png"
printf 'start_s,\xff\xfe\n' >"$dir/bin.csv"
p 2 "${e}.*bin\.csv: not UTF-8" --csv "$dir/bin.csv" --out "$dir/png"
printf '\xef\xbb\xbf' | cat - "$dir/c.csv" >"$dir/bom.csv"
p 2 "${e}.*bom\.csv:1: starts with a byte-order mark" --csv "$dir/bom.csv" --out "$dir/png"
printf '\xef\xbb\xbf' | cat - "$dir/c.json" >"$dir/bom.json"
p 2 "${e}.*bom\.json:1: starts with a byte-order mark" --csv "$dir/c.csv" \
  --json "$dir/bom.json" --out "$dir/png"
p 2 "${e}.*arr\.json: JSON but not an object" --csv "$dir/c.csv" --json "$dir/arr.json" \
  --out "$dir/png"
p 2 "${e}.*arr\.json: JSON but not an object" --queue-csv "$dir/qc.csv" \
  --queue-json "$dir/arr.json" --out "$dir/png"
# Nested past Python's recursion limit (compare_mutation seed 7159: a line repeated 333 334
# times): the file named, no traceback.
python3 -c 'print("{\"a\": " + "[" * 100000 + "]" * 100000 + "}")' >"$dir/deep.json"
p 2 "${e}.*deep\.json: JSON nested too deeply or too large" --queue-csv "$dir/qc.csv" \
  --queue-json "$dir/deep.json" --out "$dir/png"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
c = json.load(open(f"{d}/c.json"))
del c["groups"][0]["measured_s"]
json.dump(c, open(f"{d}/nokey.json", "w"))
c = json.load(open(f"{d}/c.json"))
c["messages"]["ks"] = "0.5"
json.dump(c, open(f"{d}/str.json", "w"))
c = json.load(open(f"{d}/c.json"))
c["groups"][0]["predicted_s"] = 1e300
json.dump(c, open(f"{d}/huge.json", "w"))
c = json.load(open(f"{d}/c.json"))
c["messages"]["ks"] = 12345
open(f"{d}/digits.json", "w").write(json.dumps(c).replace("12345", "9" * 5000))
q = json.load(open(f"{d}/qc.json"))
q["peak"]["measured_bytes"] = "big"
json.dump(q, open(f"{d}/qstr.json", "w"))
PY
p 2 "${e}.*nokey\.json: field groups\[0\]\.measured_s: missing" --csv "$dir/c.csv" \
  --json "$dir/nokey.json" --out "$dir/png"
p 2 "${e}.*str\.json: field messages\.ks: \"0\.5\" is not a number" --csv "$dir/c.csv" \
  --json "$dir/str.json" --out "$dir/png"
p 2 "${e}.*huge\.json: field groups\[0\]\.predicted_s: 1e\+300 is outside" --csv "$dir/c.csv" \
  --json "$dir/huge.json" --out "$dir/png"
# 5000 digits: past Python's 4300 for an int, past a float's range (a traceback before)
p 2 "${e}.*digits\.json: field messages\.ks: inf is outside" --csv "$dir/c.csv" \
  --json "$dir/digits.json" --out "$dir/png"
p 2 "${e}.*qstr\.json: field peak\.measured_bytes: \"big\" is not a number" \
  --queue-csv "$dir/qc.csv" --queue-json "$dir/qstr.json" --out "$dir/png"
sed '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\)[^,]*/\1soon/' "$dir/c.csv" >"$dir/word.csv"
p 2 "${e}.*word\.csv:2: field start_s: 'soon' is not a number" --csv "$dir/word.csv" \
  --out "$dir/png"
sed '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\)[^,]*/\11e999/' "$dir/c.csv" >"$dir/inf.csv"
p 2 "${e}.*inf\.csv:2: field measured_fct_s: 1e999 is outside" --csv "$dir/inf.csv" \
  --out "$dir/png"
cut -d, -f1-3 "$dir/c.csv" >"$dir/cols.csv"
p 2 "${e}.*cols\.csv:1: field start_s: missing" --csv "$dir/cols.csv" --out "$dir/png"
awk 'NR == 3 { print "" } 1' "$dir/c.csv" >"$dir/blank.csv"
p 2 "${e}.*blank\.csv:3: 0 fields, the header has 9" --csv "$dir/blank.csv" --out "$dir/png"
awk 'NR == 3 { $0 = $0 ",7" } 1' "$dir/c.csv" >"$dir/wide.csv"
p 2 "${e}.*wide\.csv:3: 10 fields, the header has 9" --csv "$dir/wide.csv" --out "$dir/png"
head -1 "$dir/c.csv" >"$dir/head.csv"
p 2 "${e}.*head\.csv: no messages" --csv "$dir/head.csv" --out "$dir/png"
p 2 "${e}.*qc\.csv:1: field start_s: missing" --csv "$dir/qc.csv" --out "$dir/png"
p 2 "${e}--out .*c\.csv/png: cannot make the directory" --csv "$dir/c.csv" --out "$dir/c.csv/png"

if [ "$failures" -ne 0 ]; then
  echo "compare_hostile: $failures case(s) failed" >&2
  exit 1
fi
echo "compare_hostile: ok"
