#!/usr/bin/env bash
# fanin.sh: dlc-bench fanin on the namespace star (scripts/netns-star.sh) for W workers at two
# tbf rates, with and without a background rank. The reference is the physical limit of the
# rate-limited link: all the iteration's bytes at the tbf's rate (payload only: the headers
# on the wire make the true limit a few percent higher). Also the solo-derived limit
# (base + bytes / effective rate, what the tool reports as BCT/limit), Jain's index, and the
# queue at burst start and peak, sampled from the tbf and derived from latencies. Last, the
# cost of --records: W=4 with records on and off, alternating.
set -euo pipefail
export PATH="/usr/bin:/bin:$PATH"  # Debian's python3 with matplotlib (scripts/install-deps.sh)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
usage() {
  cat <<'EOF2'
usage: bench/fanin.sh OUT.json [--workers "1 2 4 8 16"] [--rates "100mbit 1gbit"]
                      [--burst 16] [--size 64K] [-n 5] [--build DIR] [--png OUT.png]

Needs root (network namespaces). Writes every run's summary and the cases' table to OUT.json,
and a plot (BCT over the physical limit and the queue peak against W) to --png.
EOF2
}
out=""; workers="1 2 4 8 16"; rates="100mbit 1gbit"; burst=16; size=64K; iters=5
build="$repo/build"; png=""
while [ $# -gt 0 ]; do
  case "$1" in
    --workers) workers="$2"; shift 2 ;;
    --rates) rates="$2"; shift 2 ;;
    --burst) burst="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    -n) iters="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --png) png="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fanin.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
bin="$build/bin/dlc-bench"
[ -x "$bin" ] || { echo "fanin.sh: $bin not built (cmake --build $build)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "fanin.sh: needs root (network namespaces)" >&2; exit 1; }
source "$here/lib.sh"
build_note="measured $bin"

star="bfan$$"
runs="$(mktemp -d /tmp/bench-fanin.XXXXXX)"
cleanup() { bash "$repo/scripts/netns-star.sh" down --prefix "$star" >/dev/null 2>&1 || true; }
trap cleanup EXIT
max=4  # the records' cost runs with 4 workers
for w in $workers; do [ "$w" -gt "$max" ] && max=$w; done
hosts=$((max + 2))

# run RATE W BG TAG [ARGS...]: one fan-in; its JSON is $runs/TAG.json.
run() {
  local rate="$1" w="$2" bg="$3" tag="$4"
  shift 4
  local extra=()
  [ "$bg" -gt 0 ] && extra=(--background "$bg" --bg-size 16K --bg-lead 50)
  echo "fanin.sh: $tag" >&2
  bash "$repo/scripts/star-run.sh" --prefix "$star" --ranks $((1 + w + bg)) --logs "$runs/logs" \
    --timeout 600 -- "$bin" fanin --transport ucx --ucx-tls tcp,self -s "$size" --burst "$burst" \
    -n "$iters" --warmup 1 --solo 2 --timeout 120 -q --qdisc p0 --qdisc-netns "$star-sw" \
    --json "$runs/$tag.json" "${extra[@]}" "$@" || echo "fanin.sh: $tag FAILED" >&2
}

for rate in $rates; do
  bash "$repo/scripts/netns-star.sh" up --prefix "$star" --hosts "$hosts" --rate "$rate" \
    --burst 32kb --limit 16mb >/dev/null
  for w in $workers; do
    for bg in 0 1; do run "$rate" "$w" "$bg" "$rate-w$w-bg$bg"; done
  done
  if [ "$rate" = "${rates%% *}" ]; then
    for k in 1 2 3; do
      run "$rate" 4 0 "records-off-$k"
      run "$rate" 4 0 "records-on-$k" --records "$runs/rec-%r.csv"
    done
  fi
  bash "$repo/scripts/netns-star.sh" down --prefix "$star"
done

bench_context "$runs/context.json" "tool=\"dlc-bench fanin\"" "burst=$burst" \
  "size=$(json_str "$size")" "iterations=$iters" "transport=\"ucx tcp,self\"" \
  "fabric=$(json_str "netns star, tbf on the server's port (burst 32kb, limit 16mb)")"
python3 "$here/fanin_report.py" "$runs" "$out" ${png:+--png "$png"}
rm -rf "$runs"
