#!/usr/bin/env bash
# compare_plot.sh: dlc-compare-plot on a comparison of 10^6 messages, the code at --old against
# this tree's, in the same run, rounds interleaved; writes a JSON result.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
export PATH="/usr/bin:/bin:$PATH"  # Debian's python3, as the tools' #! line

usage() {
  cat <<'USAGE'
usage: bench/compare_plot.sh OUT.json [--old REV] [--rounds N] [--iterations N] [--build DIR]

The input is made with the project's tools: `dlc-bench ring --spawn --ranks 2` over UCX shared
memory, 256 B, N iterations (default 250000: 4 messages each, 10^6 messages) with
--export-flows; a calibration from `dlc-bench lat` and `bw --loopback` on the same transport
(`dlc-compare calibrate`); `dlc-compare predict --sharing connection`; `dlc-compare MAP FCT
--json --csv`. Then `dlc-compare-plot --csv --json --out` of REV (default 5e19e6f, the code
before the one-pass reader and the binned figures: `git show REV:tools/dlc-compare-plot`) and of
this tree, alternately, N rounds (default 3), each under /usr/bin/time: wall and CPU seconds,
peak resident memory. Reported: every run, the medians, and old / new of each median.

Options:
  --old REV         the revision to compare against (default 5e19e6f)
  --rounds N        runs of each (default 3)
  --iterations N    ring iterations (default 250000)
  --build DIR       build directory holding bin/dlc-bench and bin/dlc-compare (default build)
USAGE
}

out=""
old="5e19e6f"
rounds=3
iterations=250000
build="$repo/build"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --old) old="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "compare_plot.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
[[ -n "$out" ]] || { usage >&2; exit 2; }
bin="$build/bin"
for t in dlc-bench dlc-compare; do
  [[ -x "$bin/$t" ]] || { echo "compare_plot.sh: $bin/$t: build it first" >&2; exit 2; }
done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
ucx=(--transport ucx --ucx-tls sm,self)
"$bin/dlc-bench" lat --loopback -s 64 -n 2000 "${ucx[@]}" --json "$tmp/lat.json" >/dev/null
"$bin/dlc-bench" bw --loopback -s 64K -n 5000 "${ucx[@]}" --json "$tmp/bw.json" >/dev/null
"$bin/dlc-compare" calibrate "$tmp/lat.json" "$tmp/bw.json" --out "$tmp/cal.json" >/dev/null
"$bin/dlc-bench" ring --spawn --ranks 2 "${ucx[@]}" -s 256 -n "$iterations" -w 10 -q \
  --export-flows "$tmp/run.flow.txt" >/dev/null
"$bin/dlc-compare" predict "$tmp/run.flow.txt" --calibration "$tmp/cal.json" \
  --sharing connection --out "$tmp/fct.txt" >/dev/null
"$bin/dlc-compare" "$tmp/run.flow.txt.map" "$tmp/fct.txt" --calibration "$tmp/cal.json" \
  --json "$tmp/cmp.json" --csv "$tmp/cmp.csv" >/dev/null 2>&1

mkdir -p "$tmp/old"
git -C "$repo" show "$old:tools/dlc-compare-plot" >"$tmp/old/dlc-compare-plot"
chmod +x "$tmp/old/dlc-compare-plot"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for ((k = 1; k <= rounds; k++)); do
  for side in old new; do
    tool="$repo/tools/dlc-compare-plot"
    [[ "$side" = old ]] && tool="$tmp/old/dlc-compare-plot"
    rm -rf "$tmp/png-$side"
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$tool" --csv "$tmp/cmp.csv" \
      --json "$tmp/cmp.json" --out "$tmp/png-$side" >"$tmp/plot.out"
    echo "$side $(cat "$tmp/time") $(du -cb "$tmp/png-$side"/*.png | tail -1 | cut -f1)" \
      >>"$tmp/runs.txt"
    echo "round $k, $side: $(cat "$tmp/time") (wall s, user s, sys s, max RSS KB)"
  done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

commit="$(git -C "$repo" describe --always --dirty --abbrev=7)"
python3 - "$tmp" "$out" "$old" "$commit" "$load_before" "$load_after" <<'PY'
import json, statistics, sys
tmp, out, old, commit, before, after = sys.argv[1:]
runs = {"old": [], "new": []}
for line in open(f"{tmp}/runs.txt"):
    side, wall, user, system, rss_kb, png = line.split()
    runs[side].append({"wall_s": float(wall), "cpu_s": round(float(user) + float(system), 2),
                       "max_rss_mb": round(int(rss_kb) / 1024, 1), "png_bytes": int(png)})
med = {s: {k: statistics.median(r[k] for r in runs[s]) for k in ("wall_s", "cpu_s", "max_rss_mb")}
       for s in runs}
lines = open(f"{tmp}/cmp.csv").read().count("\n") - 1
doc = {
    "schema_version": 1, "bench": "compare_plot", "commit": commit, "old": old,
    "cpu_model": next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                      if l.startswith("model name")),
    "load_average_before": before, "load_average_after": after,
    "input": {"messages": lines, "groups": len(json.load(open(f"{tmp}/cmp.json"))["groups"]),
              "made_by": "dlc-bench ring --spawn --ranks 2 (UCX sm) -s 256 --export-flows; "
                         "dlc-compare calibrate, predict --sharing connection, "
                         "MAP FCT --csv --json"},
    "runs": runs, "median": med,
    "old_over_new": {k: round(med["old"][k] / med["new"][k], 2) for k in med["old"]},
}
json.dump(doc, open(out, "w"), indent=2)
print(f"{lines} messages: median wall {med['old']['wall_s']} s -> {med['new']['wall_s']} s, "
      f"CPU {med['old']['cpu_s']} s -> {med['new']['cpu_s']} s, max RSS "
      f"{med['old']['max_rss_mb']} MB -> {med['new']['max_rss_mb']} MB; old / new "
      + ", ".join(f"{k} x{v}" for k, v in doc["old_over_new"].items()))
PY
echo "compare_plot.sh: $out"
