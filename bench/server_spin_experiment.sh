#!/usr/bin/env bash
# server_spin_experiment.sh: does dlc-bench's busy-polling bandwidth server cost bandwidth on
# Soft-RoCE? perftest's ib_write_bw / ib_read_bw server sleeps in a socket read during the
# run ("half duplex: server just waits for client to exit"); dlc-bench's server spins on its
# CQ (PeerSession::serve_until_done -> wait_completion). With Soft-RoCE all data movement is
# kernel work on the same few CPUs, so a spinning peer may take CPU from it.
#
# In one guest run, rounds alternate: perftest, dlc-bench as is, and dlc-bench with its
# server at nice 19 (a stand-in for a server that does not spin: the kernel's softirq work
# then nearly always wins the CPU). If the niced run closes the gap to perftest, the spinning
# server is the cause.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

usage() {
  cat <<'EOF'
usage: bench/server_spin_experiment.sh OUT.json [--rounds N] [--bw-iters N] [--ops "write read"]
                                       [--logs DIR]
Runs in one Soft-RoCE guest (scripts/rdma-run.sh) and writes OUT.json with, per op, the
per-round 64 KiB bandwidth (Gb/s) and server CPU seconds of: perftest, dlcnet,
dlcnet_server_nice19; prints their medians and ratios to perftest. Uses the dlc-bench
already built in build-bench/ (build it with perftest_compare.sh or by hand).
EOF
}
out=""; rounds=3; bw_iters=2000; ops="write read"; logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --bw-iters) bw_iters="$2"; shift 2 ;;
    --ops) ops="$2"; shift 2 ;;
    --logs) logs="$2"; shift 2 ;;
    -*) echo "server_spin_experiment: unknown option $1" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
out="$(realpath -m "$out")"
bin="$repo/build-bench/bin/dlc-bench"
[ -x "$bin" ] || { echo "server_spin_experiment: build $bin first" >&2; exit 1; }
if [ -z "$logs" ]; then logs="$(mktemp -d /tmp/server-spin.XXXXXX)"; fi
mkdir -p "$logs/_plan"; logs="$(realpath "$logs")"
plan="$logs/_plan/plan.tsv"; : >"$plan"
pt="-d rxe0 -x @GID@ -F -p @PORT@"
dopt="-d rxe0 -x @GID@ -p @PORT@"
for op in $ops; do
  t="${op}_bw_64KiB"
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" perftest 600 \
    "ib_${op}_bw $pt -s 65536 -n $bw_iters --report_gbits" "ib_${op}_bw $pt -s 65536 -n $bw_iters --report_gbits @ADDR@" >>"$plan"
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" dlcnet 600 \
    "$bin bw --op $op $dopt -s 65536 -n $bw_iters" "$bin bw --op $op $dopt -s 65536 -n $bw_iters --json @OUT@.json @ADDR@" >>"$plan"
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" dlcnet_server_nice19 600 \
    "nice -n 19 $bin bw --op $op $dopt -s 65536 -n $bw_iters" "$bin bw --op $op $dopt -s 65536 -n $bw_iters --json @OUT@.json @ADDR@" >>"$plan"
done
# Also: system calls of each tool's latency client (strace -c), to see what else than the
# ping-pong the hot loop does (a syscall costs microseconds in a TCG guest).
for op in send write; do
  t="strace_${op}_lat_64B"
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" perftest 600 \
    "ib_${op}_lat $pt -s 64 -n 1000" "strace -f -c -o @OUT@.strace ib_${op}_lat $pt -s 64 -n 1000 @ADDR@" >>"$plan"
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" dlcnet 600 \
    "$bin lat --op $op $dopt -s 64 -n 1000" "strace -f -c -o @OUT@.strace $bin lat --op $op $dopt -s 64 -n 1000 --json @OUT@.json @ADDR@" >>"$plan"
done
# The clock: dlc-bench reads the TSC only where CPUID claims an invariant one, perftest always.
cc -O2 -o "$logs/_plan/clock_cost" "$here/clock_cost.c"
cat >"$logs/_plan/inner.sh" <<EOF
#!/usr/bin/env bash
set -euo pipefail
"$logs/_plan/clock_cost" | tee "$logs/clock_cost.txt"
exec "$here/run_pairs.sh" "$plan" "$logs/guest" "$rounds"
EOF
chmod +x "$logs/_plan/inner.sh"
"$repo/scripts/rdma-run.sh" --timeout $((600 + 400 * rounds)) -- "$logs/_plan/inner.sh" || true
echo "clock in the guest: $(cat "$logs/clock_cost.txt" 2>/dev/null)"

PYTHONPATH="$here" python3 - "$logs/guest" "$out" <<'EOF'
import json, statistics, sys
import compare_report as cr
outdir, out = sys.argv[1], sys.argv[2]
rows = cr.read_manifest(outdir)
res = {}
for row in rows:
    if row["test"].startswith("strace_"):
        print(f'{row["test"]} {row["tool"]}: system calls of the client in {row["prefix"]}.strace')
        continue
    parser = cr.parse_perftest if row["tool"] == "perftest" else cr.parse_dlcnet
    v, _ = parser("bw", row["prefix"])
    ok = row["rc_client"] == "0" and row["rc_server"] == "0"
    e = res.setdefault(row["test"], {}).setdefault(row["tool"], {"gbps": [], "server_cpu_s": [], "client_cpu_s": []})
    e["gbps"].append(v if ok else None)
    e["server_cpu_s"].append(cr.num(row["server_cpu_s"]))
    e["client_cpu_s"].append(cr.num(row["client_cpu_s"]))
for test, tools in res.items():
    ref = cr.median(tools.get("perftest", {}).get("gbps", []))
    print(test)
    for tool, e in tools.items():
        e["gbps_median"] = cr.median(e["gbps"])
        e["ratio_to_perftest"] = e["gbps_median"] / ref if ref and e["gbps_median"] else None
        print(f'  {tool:22s} {cr.fmt(e["gbps_median"], 3)} Gb/s  ratio {cr.fmt(e["ratio_to_perftest"], 3)}'
              f'  server cpu {cr.fmt(cr.median(e["server_cpu_s"]), 1)} s  client cpu {cr.fmt(cr.median(e["client_cpu_s"]), 1)} s'
              f'  per round {[cr.fmt(x, 3) for x in e["gbps"]]}')
clock = open(outdir + "/../clock_cost.txt").read().strip() if __import__("os").path.exists(outdir + "/../clock_cost.txt") else None
json.dump({"context": dict(cr.read_env(outdir), clock_cost=clock), "results": res}, open(out, "w"), indent=2)
print("written:", out)
EOF
