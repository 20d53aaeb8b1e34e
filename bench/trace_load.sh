#!/usr/bin/env bash
# trace_load.sh: how fast dlc-trace loads a 10-million-record SketchDLC job and how much
# memory the model holds; writes a JSON result.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

usage() {
  cat <<'EOF'
usage: bench/trace_load.sh OUT.json [--records N] [--runs N] [--build DIR] [--job DIR]

Generates a job with `dlc-trace synth` (ResNet-50, 4 workers, 2 servers, N records; default
10,000,000, about 1 GB of text), then loads it --runs times (default 5) with
`dlc-trace bench-load` under /usr/bin/time -v. Reported: the best run's wall-clock rate and
its CPU-time rate (records per second of this thread's CPU, steadier on a shared machine),
CPU seconds per step (read, resolve, match, check), bytes the model holds per record, and the
peak RSS of the process (getrusage and /usr/bin/time agree) per record. The machine's load
average and CPU model are recorded with the result, as other work on a shared machine moves
the wall-clock figures.

Options:
  --records N   records to generate (default 10000000)
  --runs N      loads to time (default 5); the best is reported, every run is kept
  --build DIR   build directory holding bin/dlc-trace (default build; built if missing)
  --job DIR     use (or create) the job here instead of a temporary directory
EOF
}

out=""
records=10000000
runs=5
build="$repo/build"
job=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --records) records="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --job) job="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "trace_load.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) if [[ -z "$out" ]]; then out="$1"; shift; else usage >&2; exit 2; fi ;;
  esac
done
[[ -n "$out" ]] || { usage >&2; exit 2; }

bin="$build/bin/dlc-trace"
if [[ ! -x "$bin" ]]; then
  cmake -S "$repo" -B "$build" >/dev/null
  cmake --build "$build" --target dlc-trace -j "$(nproc)"
fi

work="$(mktemp -d)"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
if [[ -z "$job" ]]; then job="$work/job"; fi
if [[ ! -f "$job/synth.json" ]]; then
  echo "trace_load.sh: generating $records records in $job" >&2
  "$bin" synth -o "$job" -m resnet50 -w 4 -s 2 --records "$records" --seed 1 \
    --no-scheduler-files >&2
fi

for i in $(seq 1 "$runs"); do
  /usr/bin/time -v -o "$work/time$i.txt" "$bin" bench-load "$job" --json "$work/run$i.json" \
    >/dev/null
  echo "trace_load.sh: run $i: $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("%.2f M records/s wall, %.2f M records/s CPU, %.1f B/record held, %.1f B/record peak RSS"
      % (d["records_per_second"] / 1e6, d["records_per_cpu_second"] / 1e6,
         d["model_bytes_per_record"], d["peak_rss_bytes_per_record"]))' "$work/run$i.json")" >&2
done

DLCNET_REPO="$repo" python3 - "$out" "$work" "$runs" "$job" <<'PY'
import json, os, re, sys
out, work, runs, job = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
all_runs = []
for i in range(1, runs + 1):
    d = json.load(open(f"{work}/run{i}.json"))
    t = open(f"{work}/time{i}.txt").read()
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
    d["time_v_max_rss_bytes"] = int(m.group(1)) * 1024 if m else None
    all_runs.append(d)
best = max(all_runs, key=lambda d: d["records_per_second"])
best_cpu = max(all_runs, key=lambda d: d["records_per_cpu_second"])
cpu_model = ""
for line in open("/proc/cpuinfo"):
    if line.startswith("model name"):
        cpu_model = line.split(":", 1)[1].strip()
        break
import subprocess
git = lambda *a: subprocess.run(["git", "-C", os.environ["DLCNET_REPO"], *a], capture_output=True,
                                text=True).stdout.strip()
context = dict(best["context"])
# The commit measured, and whether the tree had changes to tracked files (a figure quoted in
# the README must come from a clean tree).
context["dlcnet_commit"] = git("rev-parse", "HEAD")
context["tree_clean"] = git("status", "--porcelain", "--untracked-files=no") == ""
result = {
    "benchmark": "trace_load",
    "context": context,
    "machine": {"cpu_model": cpu_model, "cpus": os.cpu_count(),
                "load_average": list(os.getloadavg())},
    "job": {"dir": job, "records": best["records"], "messages": best["messages"],
            "input_bytes": best["input_bytes"]},
    "best_wall": {"load_seconds": best["load_seconds"],
                  "records_per_second": best["records_per_second"]},
    "best_cpu": {"cpu_seconds": best_cpu["cpu_seconds"],
                 "records_per_cpu_second": best_cpu["records_per_cpu_second"]},
    "memory": {"model_bytes_per_record": best["model_bytes_per_record"],
               "model_breakdown": best["model_breakdown"],
               "peak_rss_bytes": max(d["peak_rss_bytes"] for d in all_runs),
               "peak_rss_bytes_per_record": max(d["peak_rss_bytes_per_record"] for d in all_runs),
               "time_v_max_rss_bytes": max((d["time_v_max_rss_bytes"] or 0) for d in all_runs)},
    "targets": {"records_per_second": 5e6, "bytes_per_record": 64},
    "runs": [{k: d[k] for k in ("load_seconds", "records_per_second", "cpu_seconds",
                                "records_per_cpu_second", "peak_rss_bytes")} for d in all_runs],
}
tmp = out + ".tmp"
with open(tmp, "w") as f:
    json.dump(result, f, indent=2)
    f.write("\n")
os.replace(tmp, out)
print(f"trace_load: {result['job']['records']} records: best {best['records_per_second']/1e6:.2f} M/s wall, "
      f"{best_cpu['records_per_cpu_second']/1e6:.2f} M/s CPU; "
      f"{best['model_bytes_per_record']:.1f} B/record held, "
      f"{result['memory']['peak_rss_bytes_per_record']:.1f} B/record peak RSS -> {out}")
PY
