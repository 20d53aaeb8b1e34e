#!/usr/bin/env bash
# ucx_layers.sh: what dlcnet's own layers cost in UCX tag latency. Each round runs, in turn,
# ucx_perftest -t tag_lat, bench/ucx_floor_pingpong.c (a bare UCP ping-pong with every UCX
# setting dlcnet's transport uses, none of its layers) and dlc-bench lat --op send, all on the
# same UCX transport, pinned like bench/run_pairs.sh; writes a JSON report and prints a table.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
  cat <<'EOF'
usage: bench/ucx_layers.sh OUT.json [--rounds N] [--iters N] [--tls shm|tcp] [--no-build]

  shm: UCX_TLS=posix,cma (dlc-bench --ucx-tls posix,cma; endpoint error mode none, as dlcnet
       picks there)
  tcp: UCX_TLS=tcp UCX_NET_DEVICES=lo (dlc-bench --ucx-tls tcp -d lo; error mode peer)
64-byte messages, 100 warm-up iterations for every tool; --iters (default 100000) measured.
Ratios per round against that round's ucx_perftest 50th percentile; the report gives each
tool's median over rounds and the median of the paired ratios.
EOF
}

out=""; rounds=8; iters=100000; tls=shm; build=1
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --rounds|--iters|--tls)
      [ $# -ge 2 ] || { echo "ucx_layers: $1 needs a value" >&2; exit 2; }
      case "$1" in --rounds) rounds="$2" ;; --iters) iters="$2" ;; --tls) tls="$2" ;; esac
      shift 2 ;;
    --no-build) build=0; shift ;;
    -*) echo "ucx_layers: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "ucx_layers: one OUT.json only" >&2; exit 2; }; out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
for v in "$rounds" "$iters"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "ucx_layers: counts must be >= 1, got '$v'" >&2; exit 2; }
done
case "$tls" in
  shm) env_tls=(UCX_TLS=posix,cma); dl_tls=(--ucx-tls posix,cma); err_mode=none ;;
  tcp) env_tls=(UCX_TLS=tcp UCX_NET_DEVICES=lo); dl_tls=(--ucx-tls tcp -d lo); err_mode=peer ;;
  *) echo "ucx_layers: --tls shm|tcp, got '$tls'" >&2; exit 2 ;;
esac
out="$(realpath -m "$out")"
command -v ucx_perftest >/dev/null || { echo "ucx_layers: ucx_perftest not found (Debian package ucx-utils)" >&2; exit 1; }

source "$here/lib.sh"
bench_build ucx_layers "$build"
work="$(mktemp -d /tmp/ucx-layers.XXXXXX)"
floor="$work/ucx_floor_pingpong"
cc -O2 -Wall -Wextra -Werror -o "$floor" "$here/ucx_floor_pingpong.c" -lucp -lucs

if [ "$(nproc)" -ge 2 ]; then pin_s=(taskset -c 0); pin_c=(taskset -c 1); else pin_s=(); pin_c=(); fi
port=$((23000 + RANDOM % 4000))
# pair NAME SERVER_CMD... -- CLIENT_CMD...: one server/client run, both bounded in time; the
# client's stdout goes to $work/NAME.out.
pair() {
  local name="$1"; shift
  local srv=() cli=()
  while [ "$1" != -- ]; do srv+=("$1"); shift; done
  shift; cli=("$@")
  port=$((port + 1))
  timeout 120 env "${env_tls[@]}" "${pin_s[@]}" "${srv[@]//@PORT@/$port}" >"$work/$name.srv" 2>&1 &
  local spid=$!
  sleep 0.3
  if ! timeout 120 env "${env_tls[@]}" "${pin_c[@]}" "${cli[@]//@PORT@/$port}" >"$work/$name.out" 2>"$work/$name.err"; then
    echo "ucx_layers: $name failed; see $work/$name.err" >&2
    wait "$spid" || true
    return 1
  fi
  wait "$spid" || { echo "ucx_layers: $name server failed; see $work/$name.srv" >&2; return 1; }
}

: >"$work/rounds.tsv"
for r in $(seq 1 "$rounds"); do
  pair "perftest-$r" ucx_perftest -p @PORT@ -w 100 -t tag_lat -s 64 -n "$iters" -- \
    ucx_perftest -p @PORT@ -w 100 -t tag_lat -s 64 -n "$iters" 127.0.0.1
  p=$(awk '/Final/{print $3}' "$work/perftest-$r.out")
  pair "floor-$r" "$floor" -p @PORT@ -n "$iters" -E "$err_mode" -- \
    "$floor" -p @PORT@ -n "$iters" -E "$err_mode" 127.0.0.1
  f=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["p50_us"])' "$work/floor-$r.out")
  pair "dlcnet-$r" "$bench_bin" lat --op send --transport ucx "${dl_tls[@]}" -p @PORT@ -s 64 -n "$iters" -- \
    "$bench_bin" lat --op send --transport ucx "${dl_tls[@]}" -p @PORT@ -s 64 -n "$iters" \
    --json "$work/dlcnet-$r.json" 127.0.0.1
  d=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["latency_s"]["p50"]*1e6)' "$work/dlcnet-$r.json")
  [ -n "$p" ] && [ -n "$f" ] && [ -n "$d" ] || { echo "ucx_layers: round $r: a figure is missing (see $work)" >&2; exit 1; }
  printf '%s\t%s\t%s\t%s\n' "$r" "$p" "$f" "$d" >>"$work/rounds.tsv"
  echo "round $r: ucx_perftest $p us, floor $f us, dlc-bench $d us" >&2
done

bench_context "$work/context.json" \
  "comparison=$(json_str "ucx_perftest vs bare UCP with dlcnet's UCX settings vs dlc-bench, tag latency 64 B")" \
  "ucx_settings=$(json_str "${env_tls[*]}; endpoint error mode $err_mode")" \
  "ucx_perftest_version=$(json_str "$(ucx_info -v 2>/dev/null | head -1)")" \
  "logs=$(json_str "$work")"
python3 - "$work/rounds.tsv" "$work/context.json" "$out" "$iters" <<'EOF'
import json, statistics as st, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()]
ctx = json.load(open(sys.argv[2]))
p = [float(r[1]) for r in rows]; f = [float(r[2]) for r in rows]; d = [float(r[3]) for r in rows]
med = lambda v: round(st.median(v), 4)
report = {
    "context": ctx,
    "unit": "us (50th percentile, half round trip)", "size": 64, "iterations": int(sys.argv[4]),
    "rounds": [{"round": int(r[0]), "ucx_perftest": float(r[1]), "floor": float(r[2]),
                "dlcnet": float(r[3])} for r in rows],
    "median": {"ucx_perftest": med(p), "floor": med(f), "dlcnet": med(d)},
    "paired_ratio_median": {
        "floor_vs_ucx_perftest": med([b / a for a, b in zip(p, f)]),
        "dlcnet_vs_ucx_perftest": med([b / a for a, b in zip(p, d)]),
        "dlcnet_vs_floor": med([b / a for a, b in zip(f, d)]),
    },
}
json.dump(report, open(sys.argv[3], "w"), indent=2)
m, r = report["median"], report["paired_ratio_median"]
print(f"{'tool':<14}{'median us':>10}{'vs ucx_perftest':>17}")
print(f"{'ucx_perftest':<14}{m['ucx_perftest']:>10}{1.0:>17.3f}")
print(f"{'floor':<14}{m['floor']:>10}{r['floor_vs_ucx_perftest']:>17.3f}")
print(f"{'dlc-bench':<14}{m['dlcnet']:>10}{r['dlcnet_vs_ucx_perftest']:>17.3f}")
print(f"dlc-bench vs floor (paired median): {r['dlcnet_vs_floor']:.3f}")
EOF
