#!/usr/bin/env bash
# model_speed.sh: how many messages per second the reference model (docs/model.md) predicts,
# for 100 k and 1 M messages of a seeded job-plus-background mix; writes a JSON result.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

usage() {
  cat <<'USAGE'
usage: bench/model_speed.sh OUT.json [--sizes "100000 1000000"] [--repeat N] [--build DIR]

Runs `dlc-compare model-speed --messages N --repeat R` per size (model/workload_mix.hpp: 16
workers pushing 16 keys to a server and pulling them back, dependency-driven, plus as many
background flows between random hosts at 30 % link load; 17 hosts at 100 Gbit/s). Reported
per size: every run's CPU seconds of the model's thread (steady on a shared machine) and wall
seconds, messages per CPU second (best and median of the runs), events, solves and the mean
number of active (source, destination) pairs per solve. The load average and CPU model are
recorded, as other work on a shared machine moves every figure.

Options:
  --sizes "N ..."  message counts (default "100000 1000000")
  --repeat N       timed runs per size (default 5)
  --build DIR      build directory holding bin/dlc-compare (default build; built if missing)
USAGE
}

out=""
sizes="100000 1000000"
repeat=5
build="$repo/build"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "model_speed.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
[[ -n "$out" ]] || { usage >&2; exit 2; }

tool="$build/bin/dlc-compare"
if [[ ! -x "$tool" ]]; then
  cmake -S "$repo" -B "$build" >/dev/null
  nice -n 10 cmake --build "$build" --target dlc-compare -j2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for n in $sizes; do
  "$tool" model-speed --messages "$n" --repeat "$repeat" --json "$tmp/$n.json"
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

jq -s --arg load_before "$load_before" --arg load_after "$load_after" \
  --arg cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')" \
  --arg commit "$(git -C "$repo" rev-parse --short HEAD)" '
  {
    schema_version: 1,
    bench: "model_speed",
    commit: $commit,
    cpu_model: $cpu,
    load_average_before: $load_before,
    load_average_after: $load_after,
    target_messages_per_s: 1000000,
    sizes: [ .[] | {
      messages: .workload.messages,
      best_messages_per_cpu_s: .best_messages_per_cpu_s,
      median_messages_per_cpu_s: ([.runs[].messages_per_cpu_s] | sort | .[(length / 2 | floor)]),
      best_messages_per_wall_s: ([.runs[].messages_per_wall_s] | max),
      events, solves, mean_pairs_per_solve, modelled_s,
      workload, runs, context } ]
  }' "$tmp"/*.json > "$out"
jq -r '.sizes[] | "\(.messages) messages: best \(.best_messages_per_cpu_s | floor) and median \(.median_messages_per_cpu_s | floor) messages per CPU second (best wall \(.best_messages_per_wall_s | floor))"' "$out"
echo "model_speed.sh: $out"
