#!/usr/bin/env bash
# gap_experiment.sh: where do dlc-bench's verbs gaps to perftest on Soft-RoCE come from?
#
# In a QEMU TCG guest the CPU does not claim an invariant TSC, so dlc-bench's now_ns() falls
# back to clock_gettime(CLOCK_MONOTONIC), and the guest kernel's clocksource is the emulated
# HPET: every clock read is a system call plus an emulated MMIO access (bench/clock_cost.c
# measured ~3.5 us, up to 30 us under load), while perftest reads the TSC (~25 ns). The guest
# is booted with tsc=reliable so that the kernel may also use the TSC clocksource, and rounds
# alternate, on the same device:
#   perftest                 (clocksource hpet, as in perftest_compare.sh)
#   dlcnet                   (clocksource hpet: dlc-bench as the comparison measured it)
#   dlcnet_tsc_clocksource   (clocksource tsc: clock_gettime through the vDSO, ~0.4 us)
# If dlcnet_tsc closes the gap, the clock reads are the cause. It also records each side's
# CPU seconds (dlc-bench's bandwidth server busy-polls; perftest's sleeps in a socket read)
# and, once per round, `strace -c` of both tools' latency clients (what the hot loop calls).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

usage() {
  cat <<'EOF'
usage: bench/gap_experiment.sh OUT.json [--rounds N] [--lat-iters N] [--bw-iters N] [--ops "write read"]
                                       [--logs DIR]
Runs in one Soft-RoCE guest (scripts/rdma-run.sh, kernel argument tsc=reliable) and writes
OUT.json with, per test, the per-round figures (64 B latency in us, 64 KiB bandwidth in
Gb/s) and CPU seconds of: perftest, dlcnet, dlcnet_tsc_clocksource; prints medians and
ratios to perftest. Uses the dlc-bench already built in build-bench/.
EOF
}
out=""; rounds=3; bw_iters=2000; lat_iters=3000; ops="write read"; logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --bw-iters) bw_iters="$2"; shift 2 ;;
    --lat-iters) lat_iters="$2"; shift 2 ;;
    --ops) ops="$2"; shift 2 ;;
    --logs) logs="$2"; shift 2 ;;
    -*) echo "gap_experiment: unknown option $1" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
out="$(realpath -m "$out")"
bin="$repo/build-bench/bin/dlc-bench"
[ -x "$bin" ] || { echo "gap_experiment: build $bin first" >&2; exit 1; }
if [ -z "$logs" ]; then logs="$(mktemp -d /tmp/server-spin.XXXXXX)"; fi
mkdir -p "$logs/_plan"; logs="$(realpath "$logs")"
plan="$logs/_plan/plan.tsv"; : >"$plan"
pt="-d rxe0 -x @GID@ -F -p @PORT@"
dopt="-d rxe0 -x @GID@ -p @PORT@"
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
hpet="echo hpet > $cs; exec"
tsc="echo tsc > $cs; exec"
line() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$plan"; }
for op in send write; do
  t="${op}_lat_64B"
  line "$t" perftest 600 "sh -c '$hpet ib_${op}_lat $pt -s 64 -n $lat_iters'" "ib_${op}_lat $pt -s 64 -n $lat_iters @ADDR@"
  line "$t" dlcnet 600 "sh -c '$hpet $bin lat --op $op $dopt -s 64 -n $lat_iters'" "$bin lat --op $op $dopt -s 64 -n $lat_iters --json @OUT@.json @ADDR@"
  line "$t" dlcnet_tsc_clocksource 600 "sh -c '$tsc $bin lat --op $op $dopt -s 64 -n $lat_iters'" "$bin lat --op $op $dopt -s 64 -n $lat_iters --json @OUT@.json @ADDR@"
done
for op in $ops; do
  t="${op}_bw_64KiB"
  line "$t" perftest 600 "sh -c '$hpet ib_${op}_bw $pt -s 65536 -n $bw_iters --report_gbits'" "ib_${op}_bw $pt -s 65536 -n $bw_iters --report_gbits @ADDR@"
  line "$t" dlcnet 600 "sh -c '$hpet $bin bw --op $op $dopt -s 65536 -n $bw_iters'" "$bin bw --op $op $dopt -s 65536 -n $bw_iters --json @OUT@.json @ADDR@"
  line "$t" dlcnet_tsc_clocksource 600 "sh -c '$tsc $bin bw --op $op $dopt -s 65536 -n $bw_iters'" "$bin bw --op $op $dopt -s 65536 -n $bw_iters --json @OUT@.json @ADDR@"
done
# Also: system calls of each tool's latency client (strace -c), to see what else than the
# ping-pong the hot loop does (a syscall costs microseconds in a TCG guest).
for op in send write; do
  t="strace_${op}_lat_64B"
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" perftest 600 \
    "sh -c '$hpet ib_${op}_lat $pt -s 64 -n 1000'" "strace -f -c -o @OUT@.strace ib_${op}_lat $pt -s 64 -n 1000 @ADDR@" >>"$plan"
  printf '%s\t%s\t%s\t%s\t%s\n' "$t" dlcnet 600 \
    "sh -c '$hpet $bin lat --op $op $dopt -s 64 -n 1000'" "strace -f -c -o @OUT@.strace $bin lat --op $op $dopt -s 64 -n 1000 --json @OUT@.json @ADDR@" >>"$plan"
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
DLCNET_GUEST_KERNEL_ARGS="${DLCNET_GUEST_KERNEL_ARGS:-} tsc=reliable" \
  "$repo/scripts/rdma-run.sh" --timeout $((600 + 500 * rounds)) -- "$logs/_plan/inner.sh" || true
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
    kind = "lat" if "_lat_" in row["test"] else "bw"
    v, _ = parser(kind, row["prefix"])
    if v is not None and not (0 < v < float("inf")):
        v = None
    ok = row["rc_client"] == "0" and row["rc_server"] == "0"
    e = res.setdefault(row["test"], {}).setdefault(row["tool"], {"values": [], "server_cpu_s": [], "client_cpu_s": []})
    e["unit"] = "us (median)" if kind == "lat" else "Gb/s (average)"
    e["values"].append(v if ok else None)
    e["server_cpu_s"].append(cr.num(row["server_cpu_s"]))
    e["client_cpu_s"].append(cr.num(row["client_cpu_s"]))
for test, tools in res.items():
    ref = cr.median(tools.get("perftest", {}).get("values", []))
    print(test)
    for tool, e in tools.items():
        e["median"] = cr.median(e["values"])
        e["ratio_to_perftest"] = e["median"] / ref if ref and e["median"] else None
        print(f'  {tool:24s} {cr.fmt(e["median"], 3)} {e["unit"]}  ratio {cr.fmt(e["ratio_to_perftest"], 3)}'
              f'  server cpu {cr.fmt(cr.median(e["server_cpu_s"]), 1)} s  client cpu {cr.fmt(cr.median(e["client_cpu_s"]), 1)} s'
              f'  per round {[cr.fmt(x, 3) for x in e["values"]]}')
clock = open(outdir + "/../clock_cost.txt").read().strip() if __import__("os").path.exists(outdir + "/../clock_cost.txt") else None
json.dump({"context": dict(cr.read_env(outdir), clock_cost=clock), "results": res}, open(out, "w"), indent=2)
print("written:", out)
EOF
