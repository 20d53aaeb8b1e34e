#!/usr/bin/env bash
# chakra_load.sh: how fast dlc-trace reads a Chakra job of millions of nodes and how much memory
# it holds per node, against reading the same job as dlcnet's native CSV (version 2); writes a
# JSON result.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

usage() {
  cat <<'EOF'
usage: bench/chakra_load.sh OUT.json [--nodes N] [--ranks R] [--runs K] [--build DIR]

Writes a data-parallel Chakra job of about N nodes over R ranks (bench/chakra_dp_job.py:
forward and backward compute nodes and a per-layer all-reduce; default 10,000,000 nodes over 2
ranks), converts it to native CSV version 2 (`dlc-trace convert`), then loads each K times
(default 3) with `dlc-trace bench-load`, alternating. Reported per format: the best run's nodes
per CPU second of the load (reading, decoding and checking, this thread's CPU time) and of
reading alone, the bytes the model holds per node and the process's peak resident set per node;
and the Chakra reading's ratio to the CSV's. Targets (issue 29): at least 2 M nodes per CPU
second and at most 128 B per node.
EOF
}

out=""; nodes=10000000; ranks=2; runs=3; build="$repo/build"
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --nodes|--ranks|--runs|--build)
      [ $# -ge 2 ] || { echo "chakra_load: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --nodes) nodes="$2" ;; --ranks) ranks="$2" ;; --runs) runs="$2" ;; --build) build="$2" ;;
      esac
      shift 2 ;;
    -*) echo "chakra_load: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "chakra_load: one OUT.json only" >&2; exit 2; }; out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
for v in "$nodes" "$ranks" "$runs"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "chakra_load: counts must be >= 1, got '$v'" >&2; exit 2; }
done
bin="$build/bin/dlc-trace"
[ -x "$bin" ] || { echo "chakra_load: no $bin (build first)" >&2; exit 2; }

work="$(mktemp -d /tmp/chakra-load.XXXXXX)"
trap 'rm -rf "$work"' EXIT
# 8 layers of 3 nodes per iteration on every rank.
iterations=$(( (nodes / ranks + 23) / 24 ))
python3 "$here/chakra_dp_job.py" "$work/job" --ranks "$ranks" --iterations "$iterations" >&2
"$bin" convert "$work/job" -o "$work/job.csv" >&2
for i in $(seq 1 "$runs"); do
  echo "chakra_load: run $i of $runs" >&2
  "$bin" bench-load "$work/job" --json "$work/et$i.json" >/dev/null
  "$bin" bench-load "$work/job.csv" --json "$work/csv$i.json" >/dev/null
done

python3 - "$out" "$work" "$runs" "$repo" "$nodes" "$ranks" <<'EOF'
import datetime, json, platform, socket, subprocess, sys
out, work, runs, repo, nodes, ranks = sys.argv[1:7]
def best(kind):
    rs = [json.load(open(f"{work}/{kind}{i}.json")) for i in range(1, int(runs) + 1)]
    for r in rs:
        assert r["diagnostics"]["errors"] == 0, r["diagnostics"]
    b = max(rs, key=lambda r: r["nodes_per_cpu_second"])
    read = b["cpu_seconds"]["read"]
    return {"nodes": b["nodes"], "input_bytes": b["input_bytes"],
            "nodes_per_cpu_second": b["nodes_per_cpu_second"],
            "read_nodes_per_cpu_second": b["nodes"] / read if read > 0 else None,
            "nodes_per_second": b["nodes_per_second"],
            "model_bytes_per_node": b["model_bytes_per_node"], "node_bytes": b["node_bytes"],
            "peak_rss_bytes_per_node": b["peak_rss_bytes_per_node"],
            "runs": [{"nodes_per_cpu_second": r["nodes_per_cpu_second"],
                      "peak_rss_bytes_per_node": r["peak_rss_bytes_per_node"]} for r in rs]}
et, csv = best("et"), best("csv")
git = lambda *a: subprocess.run(["git", "-C", repo, *a], capture_output=True, text=True).stdout
res = {
    "context": {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host": socket.gethostname(), "kernel": platform.platform(),
        "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                     if l.startswith("model name")), ""),
        "loadavg": open("/proc/loadavg").read().split()[:3],
        "tool": "bench/chakra_load.sh", "job": f"bench/chakra_dp_job.py, {ranks} ranks",
        "nodes_asked": int(nodes), "runs": int(runs),
        "dlcnet_commit": git("rev-parse", "HEAD").strip(),
        "tree_clean": git("status", "--porcelain", "--untracked-files=no").strip() == "",
    },
    "chakra": et, "native_csv": csv,
    "chakra_over_csv_nodes_per_cpu_second": et["nodes_per_cpu_second"] / csv["nodes_per_cpu_second"],
    "targets": {"nodes_per_cpu_second": 2e6, "bytes_per_node": 128},
    "meets": {"nodes_per_cpu_second": et["nodes_per_cpu_second"] >= 2e6,
              "model_bytes_per_node": et["model_bytes_per_node"] <= 128,
              "peak_rss_bytes_per_node": et["peak_rss_bytes_per_node"] <= 128},
}
json.dump(res, open(out, "w"), indent=2)
for name, r in (("chakra", et), ("native csv", csv)):
    print(f"{name:>10}: {r['nodes']} nodes, {r['nodes_per_cpu_second'] / 1e6:.2f} M nodes per CPU-s "
          f"(reading alone {r['read_nodes_per_cpu_second'] / 1e6:.2f} M), model "
          f"{r['model_bytes_per_node']:.0f} B per node, peak RSS {r['peak_rss_bytes_per_node']:.0f} B per node")
print(f"chakra / csv: {res['chakra_over_csv_nodes_per_cpu_second']:.2f}; targets: 2 M nodes per "
      f"CPU-s {'met' if res['meets']['nodes_per_cpu_second'] else 'NOT met'}, 128 B per node "
      f"{'met' if res['meets']['model_bytes_per_node'] else 'NOT met'}")
EOF
