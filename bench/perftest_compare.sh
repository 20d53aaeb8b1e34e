#!/usr/bin/env bash
# perftest_compare.sh: dlc-bench (verbs) against perftest on the same Soft-RoCE device, in one
# guest run, rounds alternating the tools; writes a JSON report of ratios and prints a table.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

orig_args="$*"

usage() {
  cat <<'EOF'
usage: bench/perftest_compare.sh OUT.json [--rounds N] [--lat-iters N] [--bw-iters N]
                                 [--timeout S] [--no-build] [--logs DIR]

Compares dlc-bench's verbs transport with perftest 4.5 (ib_send_lat, ib_write_lat,
ib_write_bw, ib_read_bw) on rxe0, server and client as separate processes on the same
device, all inside ONE Soft-RoCE guest (scripts/rdma-run.sh; directly on a host that has an
RDMA device). Each round runs every test once with each tool, back to back, the tool order
flipping every round.

Tests: send and write latency at 64 B and 4 KiB (-n LAT_ITERS), write and read bandwidth at
64 KiB (-n BW_ITERS); every other parameter is each tool's default (tx depth 128 for both).

Ratios (see bench/README.md): latency = dlc-bench median / perftest t_typical (target
<= 1.05); bandwidth = dlc-bench average / perftest "BW average" (target >= 0.95); each
side's figure is the median over rounds.

Options:
  --rounds N      rounds (default 5)
  --lat-iters N   iterations of each latency run (default 3000)
  --bw-iters N    iterations of each bandwidth run (default 2000)
  --timeout S     bound on the whole guest run (default 600 + 300 per round)
  --no-build      do not (re)build dlc-bench first
  --logs DIR      keep the raw logs in DIR (default: a temporary directory, kept and
                  named in the report's context)
EOF
}

out=""; rounds=5; lat_iters=3000; bw_iters=2000; timeout_s=""; build=1; logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rounds|--lat-iters|--bw-iters|--timeout|--logs)
      [ $# -ge 2 ] || { echo "perftest_compare: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --rounds) rounds="$2" ;; --lat-iters) lat_iters="$2" ;; --bw-iters) bw_iters="$2" ;;
        --timeout) timeout_s="$2" ;; --logs) logs="$2" ;;
      esac
      shift 2 ;;
    --no-build) build=0; shift ;;
    -*) echo "perftest_compare: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "perftest_compare: one OUT.json only" >&2; exit 2; }; out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
for v in "$rounds" "$lat_iters" "$bw_iters"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "perftest_compare: counts must be >= 1, got '$v'" >&2; exit 2; }
done
[ -n "$timeout_s" ] || timeout_s=$((600 + 300 * rounds))
out="$(realpath -m "$out")"

source "$here/lib.sh"
bench_build perftest_compare "$build"
bin="$bench_bin"
for t in ib_send_lat ib_write_lat ib_write_bw ib_read_bw; do
  command -v "$t" >/dev/null || { echo "perftest_compare: $t not found (Debian package perftest)" >&2; exit 1; }
done

# The logs must be visible inside the guest at the same path: the guest mounts the host's
# root, so any host path will do.
if [ -z "$logs" ]; then logs="$(mktemp -d /tmp/perftest-compare.XXXXXX)"; fi
mkdir -p "$logs"; logs="$(realpath "$logs")"
work="$logs/_plan"; mkdir -p "$work"

# perftest: -F ignores the CPU-frequency check (a guest has no cpufreq); -x the RoCE v2 GID.
pt="-d rxe0 -x @GID@ -F -p @PORT@"
dl="$bin"
dopt="-d rxe0 -x @GID@ -p @PORT@"
plan="$work/plan.tsv"
: >"$plan"
add() {  # add TEST TOOL TIMEOUT SERVER_CMD CLIENT_CMD
  printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$plan"
}
for size in 64 4096; do
  name=$([ "$size" = 64 ] && echo 64B || echo 4KiB)
  add "send_lat_$name"  perftest 300 "ib_send_lat $pt -s $size -n $lat_iters" "ib_send_lat $pt -s $size -n $lat_iters @ADDR@"
  add "send_lat_$name"  dlcnet   300 "$dl lat --op send $dopt -s $size -n $lat_iters" "$dl lat --op send $dopt -s $size -n $lat_iters --json @OUT@.json @ADDR@"
  add "write_lat_$name" perftest 300 "ib_write_lat $pt -s $size -n $lat_iters" "ib_write_lat $pt -s $size -n $lat_iters @ADDR@"
  add "write_lat_$name" dlcnet   300 "$dl lat --op write $dopt -s $size -n $lat_iters" "$dl lat --op write $dopt -s $size -n $lat_iters --json @OUT@.json @ADDR@"
done
for op in write read; do
  add "${op}_bw_64KiB" perftest 600 "ib_${op}_bw $pt -s 65536 -n $bw_iters --report_gbits" "ib_${op}_bw $pt -s 65536 -n $bw_iters --report_gbits @ADDR@"
  add "${op}_bw_64KiB" dlcnet   600 "$dl bw --op $op $dopt -s 65536 -n $bw_iters" "$dl bw --op $op $dopt -s 65536 -n $bw_iters --json @OUT@.json @ADDR@"
done

# Test metadata for the report.
python3 - "$work/tests.json" "$lat_iters" "$bw_iters" <<'EOF'
import json, sys
path, li, bi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
tests = {}
for size, name in ((64, "64B"), (4096, "4KiB")):
    for op in ("send", "write"):
        tests[f"{op}_lat_{name}"] = {"kind": "lat", "size": size, "iterations": li,
                                     "reference_tool": "perftest",
                                     "dlcnet": f"dlc-bench lat --op {op} (verbs)",
                                     "reference": f"ib_{op}_lat"}
for op in ("write", "read"):
    tests[f"{op}_bw_64KiB"] = {"kind": "bw", "size": 65536, "iterations": bi,
                               "reference_tool": "perftest",
                               "dlcnet": f"dlc-bench bw --op {op} (verbs)",
                               "reference": f"ib_{op}_bw --report_gbits"}
json.dump(tests, open(path, "w"), indent=2)
EOF

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "perftest_compare: $rounds rounds in one guest run (timeout $timeout_s s); logs in $logs" >&2
rc=0
"$repo/scripts/rdma-run.sh" --timeout "$timeout_s" -- \
  "$here/run_pairs.sh" "$plan" "$logs/guest" "$rounds" || rc=$?
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$rc" -ne 0 ] || [ ! -s "$logs/guest/manifest.tsv" ]; then
  echo "perftest_compare: the guest run failed (status $rc); logs in $logs" >&2
  [ -s "$logs/guest/manifest.tsv" ] || exit 1
fi

bench_context "$work/context.json" \
  comparison='"dlc-bench (verbs) vs perftest"' \
  host_loadavg_before="$(json_str "$load_before")" host_loadavg_after="$(json_str "$load_after")" \
  rounds="$rounds" sizes='{"latency": [64, 4096], "bandwidth": [65536]}' \
  iterations="{\"latency\": $lat_iters, \"bandwidth\": $bw_iters}" \
  device='"rxe0 (Soft-RoCE in a QEMU TCG guest via scripts/rdma-run.sh, or the host device)"' \
  rdma_run_status="$rc" \
  perftest_version="$(json_str "$(dpkg-query -W -f '${Version}' perftest)")" \
  order='"per round, each test runs both tools back to back; the order flips every round"' \
  notes='"each tool defaults otherwise (tx depth 128; dlc-bench warms up 100 iterations, perftest not)"' \
  invocation="$(json_str "bench/perftest_compare.sh $orig_args")"

python3 "$here/compare_report.py" --tests "$work/tests.json" --context "$work/context.json" \
  --out "$out" "guest=$logs/guest"
