#!/usr/bin/env bash
# one_screen.sh: the outputs the README's "in one screen" sections show for dlc-bench ring and
# dlc-compare, made again from this checkout with the commands the README gives, each written
# to OUT_DIR/DATE-one-screen-{ring,compare}.txt with the commit it ran (a dirty tree is said).
#   ring:    a star of 4 hosts with a 100 Mbit/s tbf on every port, the README's ring command;
#   compare: a star of 5 hosts with a 100 Mbit/s tbf toward h0 (FIFO), dlc-bench lat/bw for the
#            calibration between h1 and h0, a fan-in of 4 workers x 16 x 64 KiB with
#            --export-flows, `dlc-compare predict` and `dlc-compare` (as tests/compare/
#            compare_star.sh runs them).
# Root (network namespaces). Removes the stars it made on any exit.
set -euo pipefail

usage() {
  echo "usage: bench/one_screen.sh OUT_DIR [--build DIR]   (default build: build/)"
}
[ "${1:-}" = --help ] && { usage; exit 0; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$1"
shift
build="$repo/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(realpath "$2")"; shift 2 ;;
    *) usage >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
bin="$build/bin"
star="$repo/scripts/netns-star.sh"
run="$repo/scripts/star-run.sh"
day="$(date -u +%Y-%m-%d)"
commit="$(git -C "$repo" rev-parse --short HEAD)"
dirty="$(git -C "$repo" status --porcelain --untracked-files=no | head -c1)"
work="$(mktemp -d /tmp/one-screen.XXXXXX)"
prefixes=()
cleanup() {
  for p in "${prefixes[@]}"; do bash "$star" down --prefix "$p" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

header() {  # header FILE COMMAND...: what made the file, its paths as a checkout has them
  local file="$1" cmd
  shift
  cmd="$*"
  cmd="${cmd//$bin\//build/bin/}"
  cmd="${cmd//$repo\//}"
  {
    echo "# made by bench/one_screen.sh at $commit${dirty:+ (tree dirty)} on $(date -u +%FT%TZ)"
    echo "# command: $cmd"
  } >"$file"
}

# --- dlc-bench ring on a 100 Mbit/s star (README, "dlc-bench ring in one screen") ---
p=os1r$$
prefixes+=("$p")
bash "$star" up --prefix "$p" --hosts 4 --rate 100mbit --all-ports >/dev/null
ring=(bash "$run" --prefix "$p" --ranks 4 -- "$bin/dlc-bench" ring --transport ucx
  --ucx-tls tcp,self -b 4K -e 4M -f 4 -n 5 -w 1 --segment 256K)
header "$out/$day-one-screen-ring.txt" "${ring[*]}"
"${ring[@]}" >>"$out/$day-one-screen-ring.txt"
bash "$star" down --prefix "$p" >/dev/null

# --- dlc-compare on a fan-in (README, "dlc-compare in one screen") ---
p=os1c$$
prefixes+=("$p")
bash "$star" up --prefix "$p" --hosts 5 --rate 100mbit --burst 32kb --limit 8mb >/dev/null
ucx=(--transport ucx --ucx-tls tcp,self -p 18811 --timeout 60)
pair() {  # pair NAME ARGS...: server in h0, client in h1 writes NAME.json
  local name="$1"
  shift
  ip netns exec "$p-h0" timeout 120 "$bin/dlc-bench" "$@" "${ucx[@]}" >/dev/null 2>&1 &
  sleep 0.5
  ip netns exec "$p-h1" timeout 120 "$bin/dlc-bench" "$@" "${ucx[@]}" \
    --json "$work/$name.json" 10.230.0.1 >/dev/null
  wait
}
pair lat64 lat -s 64 -n 300
pair lat64k lat -s 64K -n 50
pair bw bw -s 64K -n 1000
"$bin/dlc-compare" calibrate "$work/lat64.json" "$work/lat64k.json" "$work/bw.json" \
  --out "$work/c.json" >/dev/null
bash "$run" --prefix "$p" --ranks 5 --timeout 200 -- "$bin/dlc-bench" fanin --transport ucx \
  --ucx-tls tcp,self -s 64K --burst 16 -n 5 --warmup 1 --solo 3 --timeout 60 -q \
  --export-flows "$work/run.txt" >/dev/null
"$bin/dlc-compare" predict "$work/run.txt" --calibration "$work/c.json" --sharing connection \
  --hosts 5 --out "$work/fct.txt" >/dev/null
cmp=("$bin/dlc-compare" run.txt.map fct.txt --calibration c.json)
header "$out/$day-one-screen-compare.txt" "${cmp[*]}"
(cd "$work" && "${cmp[@]}") >>"$out/$day-one-screen-compare.txt"
echo "one_screen: wrote $out/$day-one-screen-ring.txt and $out/$day-one-screen-compare.txt"
