#!/usr/bin/env bash
# run-main.sh: the README's main command. Installs the dependencies (scripts/install-deps.sh,
# a no-op when they are present), builds dlc-replay if needed and replays a DLC job
# (default: the bundled examples/lenet5-2w1s, LeNet-5 with 2 workers and 1 server) on this
# machine, one process per trace node (--spawn), and prints the report. Where the host has
# an RDMA device it runs there (verbs); otherwise inside the Soft-RoCE QEMU guest
# (scripts/rdma-run.sh), on rxe0.
#
#   scripts/run-main.sh [JOB_DIR] [DLC-REPLAY OPTIONS...]
#
# The JSON report, the per-rank records and the fct.txt flows land in $DLCNET_OUT (default
# build/replay-main/). DLCNET_BUILD_DIR chooses the build folder (default build/).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLCNET_BUILD_DIR:-$repo/build}"
job="$repo/examples/lenet5-2w1s"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  job="$(cd "$1" && pwd)"
  shift
fi
out="${DLCNET_OUT:-$build/replay-main}"

bash "$repo/scripts/install-deps.sh" >&2
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
echo "run-main: building dlc-replay in $build" >&2
cmake --build "$build" -j "$(nproc)" --target dlc-replay >/dev/null
mkdir -p "$out"
out="$(cd "$out" && pwd)"

cmd=("$build/bin/dlc-replay" "$job" --spawn --json "$out/report.json" --records "$out/records.csv"
     --fct "$out/fct.txt" "$@")
status=0
if [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
  echo "run-main: replaying $job on this host's RDMA device" >&2
  "${cmd[@]}" || status=$?
else
  echo "run-main: no RDMA device here: replaying $job in the Soft-RoCE guest (boots in ~20-60 s)" >&2
  bash "$repo/scripts/rdma-run.sh" --timeout 900 -- "${cmd[@]}" || status=$?
fi
echo "run-main: report $out/report.json, records $out/records.rank*.csv, flows $out/fct.txt" >&2
exit $status
