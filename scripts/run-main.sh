#!/usr/bin/env bash
# run-main.sh: the README's main command. Installs the dependencies (scripts/install-deps.sh,
# a no-op when they are present), builds dlc-replay if needed, checks the job and the options
# (dlc-replay --check) and replays a DLC job (default: the bundled examples/lenet5-2w1s,
# LeNet-5 with 2 workers and 1 server) on this machine, one process per trace node (--spawn),
# and prints the report. Where the host has an RDMA device it runs there (verbs); otherwise
# inside the Soft-RoCE QEMU guest (scripts/rdma-run.sh), on rxe0.
#
#   scripts/run-main.sh [JOB_DIR] [DLC-REPLAY OPTIONS...]
#
# Outputs, in $DLCNET_OUT (default: BUILD/replay-main/):
#   report.json        rank 0's JSON report (docs/replay.md, "Reports")
#   records.rankR.csv  one per-message CSV per rank
#   flows.txt          every message as HPCC's flow.txt (measured post times), for a simulator
#                      or `dlc-compare predict`; flows.txt.map, what was measured of each line,
#                      for `dlc-compare flows.txt.map FCT.txt` (docs/compare.md)
# DLCNET_BUILD_DIR chooses the build folder (default build/). Exit status: dlc-replay's;
# 2 for a bad argument (before anything is built or booted).
set -euo pipefail
prog="run-main"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DLCNET_BUILD_DIR:-$repo/build}"
job="$repo/examples/lenet5-2w1s"
case "${1:-}" in
  -h | --help)
    sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  if [ ! -e "$1" ]; then
    echo "$prog: $1: no such job directory or trace file" >&2
    exit 2
  fi
  job="$(realpath "$1")"
  shift
fi
for a in "$@"; do
  case "$a" in
    --json | --json=* | --records | --records=* | --export-flows | --export-flows=* | --rank | \
      --rank=* | --world-size | --world-size=* | --coordinator | --coordinator=*)
      echo "$prog: ${a%%=*} is set by run-main (outputs in \$DLCNET_OUT, ranks by --spawn);" \
        "run build/bin/dlc-replay directly to choose it" >&2
      exit 2
      ;;
  esac
done
out="${DLCNET_OUT:-$build/replay-main}"

bash "$repo/scripts/install-deps.sh" >&2
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
echo "$prog: building dlc-replay in $build" >&2
cmake --build "$build" -j "$(nproc)" --target dlc-replay >/dev/null
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# Outputs of an earlier run would be reported as this run's.
rm -f "$out/report.json" "$out"/records.rank*.csv "$out/flows.txt" "$out/flows.txt.map"

cmd=("$build/bin/dlc-replay" "$job" --spawn --json "$out/report.json" --records "$out/records.csv"
     --export-flows "$out/flows.txt" "$@")
# The job and the options are checked here, before a guest is booted for them.
"${cmd[@]}" --check >&2 || exit $?

status=0
if [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
  echo "$prog: replaying $job on this host's RDMA device" >&2
  "${cmd[@]}" || status=$?
else
  echo "$prog: no RDMA device here: replaying $job in the Soft-RoCE guest (boots in ~20-60 s)" >&2
  bash "$repo/scripts/rdma-run.sh" --timeout 900 -- "${cmd[@]}" || status=$?
fi
wrote=()
for f in "$out/report.json" "$out"/records.rank*.csv "$out/flows.txt" "$out/flows.txt.map"; do
  [ -f "$f" ] && wrote+=("$f")
done
if [ ${#wrote[@]} -gt 0 ]; then
  echo "$prog: wrote ${wrote[*]}" >&2
else
  echo "$prog: no output was written" >&2
fi
exit $status
