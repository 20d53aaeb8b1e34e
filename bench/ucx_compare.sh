#!/usr/bin/env bash
# ucx_compare.sh: dlc-bench's UCX transport against ucx_perftest, with the same UCX settings
# on both sides, on the host (tcp, shared memory) and/or in the Soft-RoCE guest (rc_verbs);
# rounds alternate the tools; writes a JSON report of ratios and prints a table.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
orig_args="$*"

usage() {
  cat <<'EOF'
usage: bench/ucx_compare.sh OUT.json [--rounds N] [--where host|guest|both]
                            [--lat-iters N] [--bw-iters N] [--host-tls LIST]
                            [--timeout S] [--no-build] [--logs DIR]

Pairs (server and client are separate processes, one UCX worker each):
  tag_lat_64B    ucx_perftest -t tag_lat    -s 64     vs  dlc-bench lat --op send  -s 64
  tag_bw_64KiB   ucx_perftest -t tag_bw     -s 65536  vs  dlc-bench bw  --op send  -s 65536
  put_bw_64KiB   ucx_perftest -t ucp_put_bw -s 65536  vs  dlc-bench bw  --op write -s 65536
Both tools warm up 100 iterations (ucx_perftest -w 100, dlc-bench's default) and keep 128
operations in flight in the bandwidth tests (ucx_perftest -O 128: its own default there is
1; dlc-bench's tx depth is 128); otherwise each tool's defaults.

Where:
  host   on this machine, once per fabric of --host-tls (default "tcp,shm"):
           tcp: UCX_TLS=tcp UCX_NET_DEVICES=lo      (dlc-bench --ucx-tls tcp -d lo)
           shm: UCX_TLS=posix,cma                   (dlc-bench --ucx-tls posix,cma)
  guest  in ONE Soft-RoCE guest run (scripts/rdma-run.sh), over rxe0:
           UCX_TLS=rc_verbs,tcp:aux UCX_NET_DEVICES=rxe0:1,lo
           (dlc-bench --ucx-tls rc_verbs,tcp:aux -d rxe0:1,lo); ud_verbs wire-up does not
           work on rxe here, hence tcp as the auxiliary transport.
  both   host, then guest (default)

Ratios (see bench/README.md): latency = dlc-bench median / ucx_perftest 50th percentile
(target <= 1.05); bandwidth = dlc-bench average / ucx_perftest "overall" bandwidth (target
>= 0.95); each side's figure is the median over rounds.

Options:
  --rounds N      rounds (default 5)
  --lat-iters N   latency iterations (default: 20000 on the host, 3000 in the guest)
  --bw-iters N    bandwidth iterations (default: 20000 on the host, 2000 in the guest)
  --timeout S     bound on the guest run (default 600 + 300 per round)
  --no-build      do not (re)build dlc-bench first
  --logs DIR      keep the raw logs in DIR (default: a temporary directory, named in the
                  report's context)
EOF
}

out=""; rounds=5; where=both; lat_iters=""; bw_iters=""; host_tls="tcp,shm"; timeout_s=""
build=1; logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rounds|--where|--lat-iters|--bw-iters|--host-tls|--timeout|--logs)
      [ $# -ge 2 ] || { echo "ucx_compare: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --rounds) rounds="$2" ;; --where) where="$2" ;; --lat-iters) lat_iters="$2" ;;
        --bw-iters) bw_iters="$2" ;; --host-tls) host_tls="$2" ;; --timeout) timeout_s="$2" ;;
        --logs) logs="$2" ;;
      esac
      shift 2 ;;
    --no-build) build=0; shift ;;
    -*) echo "ucx_compare: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "ucx_compare: one OUT.json only" >&2; exit 2; }; out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
case "$where" in host|guest|both) ;; *) echo "ucx_compare: --where host|guest|both, got '$where'" >&2; exit 2 ;; esac
for v in "$rounds" ${lat_iters:+"$lat_iters"} ${bw_iters:+"$bw_iters"}; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "ucx_compare: counts must be >= 1, got '$v'" >&2; exit 2; }
done
[ -n "$timeout_s" ] || timeout_s=$((600 + 300 * rounds))
out="$(realpath -m "$out")"
command -v ucx_perftest >/dev/null || { echo "ucx_compare: ucx_perftest not found (Debian package ucx-utils)" >&2; exit 1; }

source "$here/lib.sh"
bench_build ucx_compare "$build"
bin="$bench_bin"

if [ -z "$logs" ]; then logs="$(mktemp -d /tmp/ucx-compare.XXXXXX)"; fi
mkdir -p "$logs"; logs="$(realpath "$logs")"
work="$logs/_plan"; mkdir -p "$work"

# write_plan FILE SECTION ENV DLCNET_UCX_OPTS LAT_ITERS BW_ITERS: the three pairs with one
# UCX setting. ENV goes on both sides of both tools (UCX reads it in each process); dlc-bench
# also gets the equivalent options, which is how its users set them.
write_plan() {
  local f="$1" env="$3" dopts="$4" li="$5" bi="$6"
  local up="env $env ucx_perftest -p @PORT@ -w 100 -v"
  # ucx_perftest's tag_bw and ucp_put_bw default to ONE outstanding operation (their window
  # size in its test table, used when -O is 0); dlc-bench keeps its tx depth (128) in flight.
  # -O 128 gives both the same depth.
  local upbw="$up -O 128"
  local dl="env $env $bin"
  local dp="--transport ucx $dopts -p @PORT@"
  : >"$f"
  {
    printf '%s\t%s\t%s\t%s\t%s\n' tag_lat_64B ucx_perftest 300 \
      "$up -t tag_lat -s 64 -n $li" "$up -t tag_lat -s 64 -n $li @ADDR@"
    printf '%s\t%s\t%s\t%s\t%s\n' tag_lat_64B dlcnet 300 \
      "$dl lat --op send $dp -s 64 -n $li" "$dl lat --op send $dp -s 64 -n $li --json @OUT@.json @ADDR@"
    printf '%s\t%s\t%s\t%s\t%s\n' tag_bw_64KiB ucx_perftest 600 \
      "$upbw -t tag_bw -s 65536 -n $bi" "$upbw -t tag_bw -s 65536 -n $bi @ADDR@"
    printf '%s\t%s\t%s\t%s\t%s\n' tag_bw_64KiB dlcnet 600 \
      "$dl bw --op send $dp -s 65536 -n $bi" "$dl bw --op send $dp -s 65536 -n $bi --json @OUT@.json @ADDR@"
    printf '%s\t%s\t%s\t%s\t%s\n' put_bw_64KiB ucx_perftest 600 \
      "$upbw -t ucp_put_bw -s 65536 -n $bi" "$upbw -t ucp_put_bw -s 65536 -n $bi @ADDR@"
    printf '%s\t%s\t%s\t%s\t%s\n' put_bw_64KiB dlcnet 600 \
      "$dl bw --op write $dp -s 65536 -n $bi" "$dl bw --op write $dp -s 65536 -n $bi --json @OUT@.json @ADDR@"
  } >>"$f"
}

sections=()      # SECTION=OUTDIR for the report
tests_json="{"   # per section: test metadata
add_tests_meta() {  # add_tests_meta SECTION LAT_ITERS BW_ITERS SETTINGS
  tests_json+="$(python3 - "$@" <<'EOF'
import json, sys
sec, li, bi, settings = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
t = {
  "tag_lat_64B": {"kind": "lat", "size": 64, "iterations": li, "reference_tool": "ucx_perftest",
                  "dlcnet": "dlc-bench lat --op send --transport ucx", "reference": "ucx_perftest -t tag_lat"},
  "tag_bw_64KiB": {"kind": "bw", "size": 65536, "iterations": bi, "reference_tool": "ucx_perftest",
                   "dlcnet": "dlc-bench bw --op send --transport ucx", "reference": "ucx_perftest -t tag_bw"},
  "put_bw_64KiB": {"kind": "bw", "size": 65536, "iterations": bi, "reference_tool": "ucx_perftest",
                   "dlcnet": "dlc-bench bw --op write --transport ucx", "reference": "ucx_perftest -t ucp_put_bw"},
}
for v in t.values():
    v["ucx_settings"] = settings
print(json.dumps(sec) + ": " + json.dumps(t) + ",")
EOF
)"
}

status=0
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$where" = host ] || [ "$where" = both ]; then
  li="${lat_iters:-20000}"; bi="${bw_iters:-20000}"
  IFS=, read -r -a fabrics <<<"$host_tls"
  for fab in "${fabrics[@]}"; do
    case "$fab" in
      tcp) env_s="UCX_TLS=tcp UCX_NET_DEVICES=lo"; dopts="--ucx-tls tcp -d lo" ;;
      shm) env_s="UCX_TLS=posix,cma"; dopts="--ucx-tls posix,cma" ;;
      *) echo "ucx_compare: --host-tls knows tcp and shm, got '$fab'" >&2; exit 2 ;;
    esac
    sec="host-$fab"
    write_plan "$work/plan-$sec.tsv" "$sec" "$env_s" "$dopts" "$li" "$bi"
    add_tests_meta "$sec" "$li" "$bi" "$env_s"
    echo "ucx_compare: $sec: $rounds rounds on the host; logs in $logs/$sec" >&2
    # The host is not the guest: no RDMA address, the loopback one.
    env -u DLCNET_GUEST_ADDR -u DLCNET_GID_INDEX RUN_PAIRS_PORT_BASE=21100 \
      "$here/run_pairs.sh" "$work/plan-$sec.tsv" "$logs/$sec" "$rounds" || status=$?
    [ -s "$logs/$sec/manifest.tsv" ] && sections+=("$sec=$logs/$sec")
  done
fi
if [ "$where" = guest ] || [ "$where" = both ]; then
  li="${lat_iters:-3000}"; bi="${bw_iters:-2000}"
  sec="guest-rc_verbs"
  env_s="UCX_TLS=rc_verbs,tcp:aux UCX_NET_DEVICES=rxe0:1,lo"
  write_plan "$work/plan-$sec.tsv" "$sec" "$env_s" "--ucx-tls rc_verbs,tcp:aux -d rxe0:1,lo" "$li" "$bi"
  add_tests_meta "$sec" "$li" "$bi" "$env_s"
  echo "ucx_compare: $sec: $rounds rounds in one guest run (timeout $timeout_s s); logs in $logs/$sec" >&2
  rc=0
  "$repo/scripts/rdma-run.sh" --timeout "$timeout_s" -- \
    "$here/run_pairs.sh" "$work/plan-$sec.tsv" "$logs/$sec" "$rounds" || rc=$?
  [ "$rc" -eq 0 ] || { echo "ucx_compare: the guest run failed (status $rc)" >&2; status=$rc; }
  [ -s "$logs/$sec/manifest.tsv" ] && sections+=("$sec=$logs/$sec")
fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
tests_json="${tests_json%,}}"
printf '%s\n' "$tests_json" >"$work/tests.json"
[ "${#sections[@]}" -gt 0 ] || { echo "ucx_compare: nothing ran" >&2; exit 1; }

bench_context "$work/context.json" \
  comparison='"dlc-bench --transport ucx vs ucx_perftest"' \
  host_loadavg_before="$(json_str "$load_before")" host_loadavg_after="$(json_str "$load_after")" \
  rounds="$rounds" where="$(json_str "$where")" sizes='{"latency": [64], "bandwidth": [65536]}' \
  device='{"host-tcp": "lo (UCX tcp)", "host-shm": "posix shared memory + cma", "guest-rc_verbs": "rxe0:1 (Soft-RoCE in a QEMU TCG guest), tcp on lo as aux"}' \
  run_status="$status" \
  ucx_version="$(json_str "$(dpkg-query -W -f '${Version}' ucx-utils)")" \
  order='"per round, each test runs both tools back to back; the order flips every round"' \
  notes='"both tools warm up 100 iterations; bandwidth: 128 in flight for both (ucx_perftest -O 128); iterations per section are in each test"' \
  invocation="$(json_str "bench/ucx_compare.sh $orig_args")"

python3 "$here/compare_report.py" --tests "$work/tests.json" --context "$work/context.json" \
  --out "$out" "${sections[@]}"
exit "$status"
