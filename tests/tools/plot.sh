#!/usr/bin/env bash
# dlc-plot end to end: every plot kind from the recorded runs in tests/data/plot (real outputs
# of dlc-bench lat, bw, fanin, ring and dlc-replay and their --records; README.md there), named
# and by the input's own kind, each a PNG of sensible size; --version names the project's; bad
# input (a record's bad field, a report's missing field, broken JSON, an unknown file, the wrong
# kind, a receiver's records, a missing file) exits 2 naming the file and the line or field,
# with no traceback and no PNG. dlc-compare-plot (beside DLC_PLOT) answers --version and -V the
# same way, without --out, and still asks for --out otherwise.
#   plot.sh DLC_PLOT VERSION
set -uo pipefail
export PATH="/usr/bin:/bin:$PATH"
tool="$1" version="$2"
data="$(cd "$(dirname "$0")/../data/plot" && pwd)"
work="$(mktemp -d /tmp/dlcnet-plot.XXXXXX)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# png FILE: a PNG of at least 400 x 250 pixels and 10 KB with data drawn on it: at least 500
# pixels in colour (axes, grid, text and an empty legend are grey; the curves are not).
png() {
  python3 - "$1" <<'PY'
import struct, sys
import matplotlib.image
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", b[16:24])
assert w >= 400 and h >= 250, f"{w} x {h} pixels"
assert len(b) >= 10000, f"{len(b)} bytes"
px = matplotlib.image.imread(sys.argv[1])[:, :, :3]
coloured = int(((px.max(axis=2) - px.min(axis=2)) > 0.2).sum())
assert coloured >= 500, f"{coloured} pixels in colour: nothing drawn"
print(coloured)
PY
}

# draws NAME KIND-PRINTED ARGS...: dlc-plot ARGS --out NAME.png exits 0, says it drew
# KIND-PRINTED, and writes a PNG.
draws() {
  local name="$1" kind="$2"
  shift 2
  rm -f "$work/$name.png"
  if ! "$tool" "$@" --out "$work/$name.png" >"$work/out" 2>"$work/err"; then
    bad "$name: exit $?: $(head -3 "$work/err")"
  elif ! grep -q "^dlc-plot: $kind of " "$work/out"; then
    bad "$name: drew '$(cat "$work/out")', not $kind"
  elif ! why="$(png "$work/$name.png" 2>&1)"; then
    bad "$name: $(echo "$why" | tail -1)"
  else
    ok "$name: $kind, $(stat -c %s "$work/$name.png") bytes, $why pixels in colour"
  fi
}

# refuses NAME PATTERN ARGS...: dlc-plot ARGS exits 2, stderr matches PATTERN (extended
# regex), no traceback, no PNG (ARGS may name another --out).
refuses() {
  local name="$1" pattern="$2" rc
  shift 2
  rm -f "$work/no.png"
  "$tool" --out "$work/no.png" "$@" >"$work/out" 2>"$work/err"
  rc=$?
  if [ "$rc" -ne 2 ]; then
    bad "$name: exit $rc, not 2: $(head -3 "$work/err")"
  elif grep -q Traceback "$work/err"; then
    bad "$name: a traceback"
  elif ! grep -Eq -- "$pattern" "$work/err"; then
    bad "$name: stderr lacks /$pattern/: $(head -3 "$work/err")"
  elif [ -e "$work/no.png" ]; then
    bad "$name: wrote a PNG"
  else
    ok "$name: $(head -1 "$work/err")"
  fi
}

first="$("$tool" --version | head -1)"
[ "$first" = "dlc-plot (dlcnet) $version" ] && ok "--version: $first" || bad "--version: '$first'"
cmp_plot="$(dirname "$tool")/dlc-compare-plot"
for v in --version -V; do
  if first="$("$cmp_plot" "$v" 2>"$work/err")"; then
    first="$(head -1 <<<"$first")"
    [ "$first" = "dlc-compare-plot (dlcnet) $version" ] && ok "dlc-compare-plot $v: $first" ||
      bad "dlc-compare-plot $v: '$first'"
  else
    bad "dlc-compare-plot $v: exit $?: $(head -3 "$work/err")"
  fi
done
"$cmp_plot" --csv "$work/none.csv" >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- "required: --out" "$work/err" && ok "dlc-compare-plot without --out: exit 2" ||
  bad "dlc-compare-plot without --out: exit $rc: $(head -3 "$work/err")"
help="$("$tool" --help)"
missing=""
for k in cdf timeline bw bursts busbw iterations; do grep -q "^  $k " <<<"$help" || missing+=" $k"; done
[ -z "$missing" ] && ok "--help lists every kind" || bad "--help lacks$missing"

# Every kind, named.
draws cdf-records cdf cdf "$data/records-r1.csv" "$data/records-r2.csv"
draws cdf-lat cdf cdf "$data/lat.json"
draws timeline timeline timeline "$data/records-r1.csv" "$data/records-r2.csv" --label r1 --label r2
draws bw bw bw "$data/bw-tcp.json" "$data/bw-sm.json" --title "tcp against shared memory"
draws bw-lat bw bw "$data/lat-sweep.json"
draws bursts bursts bursts "$data/fanin.json"
draws busbw busbw busbw "$data/ring-tcp.json" "$data/ring-sm.json"
draws iterations iterations iterations "$data/replay.json"
# The input's own kind when none is named.
draws auto-records cdf "$data/records-r1.csv"
draws auto-lat cdf "$data/lat.json"
draws auto-bw bw "$data/bw-tcp.json"
draws auto-lat-sweep bw "$data/lat-sweep.json"
draws auto-fanin bursts "$data/fanin.json"
draws auto-ring busbw "$data/ring-tcp.json"
draws auto-replay iterations "$data/replay.json"

# Bad input.
awk -F, -v OFS=, 'NR == 4 { $8 = "soon" } 1' "$data/records-r1.csv" >"$work/bad.csv"
refuses "record's bad field" "bad\.csv:4: field post_ns: not an integer" cdf "$data/records-r2.csv" "$work/bad.csv"
head -3 "$data/records-r1.csv" >"$work/short.csv"
echo "3,send,16384,1,0" >>"$work/short.csv"
refuses "record's missing fields" "short\.csv:4: 12 fields expected" timeline "$work/short.csv"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
del d["sizes"][1]["busbw_GBps"]
json.dump(d, open(sys.argv[2], "w"), indent=2)' "$data/ring-tcp.json" "$work/ring.json"
refuses "report's missing field" "ring\.json: field sizes\[1\]\.busbw_GBps: missing" "$work/ring.json"
sed 's/"bct_s": \(.*\),/"bct_s": "\1",/' "$data/fanin.json" >"$work/fanin.json"
refuses "report's field not a number" "fanin\.json: field iterations\[0\]\.bct_s: not a number" "$work/fanin.json"
head -c 3000 "$data/replay.json" >"$work/cut.json"
refuses "broken JSON" "cut\.json:[0-9]+: not valid JSON" iterations "$work/cut.json"
python3 -c 'print("{\"a\": " + "[" * 100000 + "]" * 100000 + "}")' >"$work/deep.json"
refuses "JSON nested past the recursion limit" "deep\.json: JSON nested too deeply" "$work/deep.json"
echo '{"hello": 1}' >"$work/other.json"
refuses "unknown JSON" "other\.json: a JSON document but not a dlcnet report" "$work/other.json"
printf 'not,a,report\n1,2,3\n' >"$work/other.csv"
refuses "unknown file" "other\.csv: neither a dlcnet JSON report nor a record CSV file" "$work/other.csv"
refuses "wrong kind" "fanin\.json: a dlc-bench fanin report; busbw draws a dlc-bench ring report" \
  busbw "$data/ring-tcp.json" "$data/fanin.json"
{ head -1 "$data/records-r1.csv"; echo "0,recv,16384,1,0,1,-1,-1,-1,56325759011869,0,0"; } >"$work/r0.csv"
refuses "a receiver's records" "r0\.csv: no record with both post_ns and complete_ns" cdf "$work/r0.csv"
refuses "missing file" "nowhere\.json: cannot read" "$work/nowhere.json"
refuses "labels" "--label: 1 names for 2 files" busbw "$data/ring-tcp.json" "$data/ring-sm.json" --label x
refuses "no such size" "lat\.json: none of the sizes 4K" cdf "$data/lat.json" --size 4K
refuses "unwritable output" "cannot write" cdf "$data/lat.json" --out "$work/no/such/dir/x.png"

echo "plot: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
