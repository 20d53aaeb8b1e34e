#!/bin/bash
# Stage 2 of the Soft-RoCE test guest: runs inside the guest, chrooted into the host's
# root (over 9p), as root, with the host's own bash and tools.  scripts/rdma-run.sh
# copies this file into each guest's run directory; the initramfs /init runs it as
#   bash <run dir>/stage2.sh <run dir>
#
# It sets up the network and rxe0, waits for the peer guest (two-guest mode), then runs
# the command with a clean environment, its stdout/stderr going to <run dir>/stdout and
# <run dir>/stderr (read live by the host) and its exit status to <run dir>/status.
# Its own messages go to the serial console (<run dir>/console.log on the host), never
# into the command's output.
#
# Exit status: the command's status, or 125 when the guest could not be set up (the
# reason is also written to <run dir>/setup-fail).
set -uo pipefail   # no -e: every failure here must end in a written status

run="$1"
# shellcheck disable=SC1091
. "$run/params.sh"   # RUN_MODE GUEST_INDEX GUEST_COUNT GUEST_ADDR PEER_ADDR NETEM TBF SYNC_DIR HELPERS
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

# Console messages carry the guest's uptime, to see where boot time goes.
say() {
  local up=""
  read -r up _ </proc/uptime 2>/dev/null
  echo "rdma-guest[$GUEST_INDEX] ${up}s: $*"
}
say "stage 2 started"
setup_fail() {
  say "SETUP FAILED: $*"
  echo "$*" >"$run/setup-fail"
  # Tell the other guest not to wait for this one at the barrier.
  [ "$GUEST_COUNT" -gt 1 ] && touch "$SYNC_DIR/abort"
  exit 125
}
# Runs a setup step; on failure records the step and its output.  Every exec costs
# a fraction of a second in a TCG guest, so setup uses as few as it can (one `ip
# -batch`, builtins for the rest).
step() {
  local out
  if ! out="$("$@" 2>&1)"; then
    setup_fail "'$*' failed: $out"
  fi
}
ip_batch() {  # ip_batch 'ip command lines'
  local out
  if ! out="$(ip -batch - 2>&1 <<<"$1")"; then
    setup_fail "ip -batch failed: $out (commands: ${1//$'\n'/; })"
  fi
}

echo "rdma-guest$GUEST_INDEX" >/proc/sys/kernel/hostname 2>/dev/null

if [ "$RUN_MODE" = single ]; then
  # rxe cannot sit on lo, and two rxe devices on one veth pair in one namespace route
  # through lo; one rxe on one end of a veth pair works, and processes on rxe0 reach
  # each other through rxe's internal loopback.
  netdev=veth0
  ip_batch "link set lo up
link add veth0 type veth peer name veth1
addr add $GUEST_ADDR/24 dev veth0
link set veth0 up
link set veth1 up"
else
  netdev=eth0
  [ -d /sys/class/net/eth0 ] || setup_fail "no eth0 in the guest (virtio-net missing?)"
  ip_batch "link set lo up
addr add $GUEST_ADDR/24 dev eth0
link set eth0 up"
  # shellcheck disable=SC2086  # NETEM and TBF are lists of tc arguments
  if [ -n "$NETEM" ] && [ -n "${TBF:-}" ]; then
    # netem is classful: its one child (1:1) takes what netem releases, so the tbf shapes
    # the delayed traffic (the arrangement of the netem documentation).
    step tc qdisc add dev eth0 root handle 1: netem $NETEM
    step tc qdisc add dev eth0 parent 1:1 handle 10: tbf $TBF
  elif [ -n "$NETEM" ]; then
    step tc qdisc add dev eth0 root netem $NETEM
  elif [ -n "${TBF:-}" ]; then
    step tc qdisc add dev eth0 root tbf $TBF
  fi
fi

# The same steps as Soft-RoCE on a host (scripts/softroce-host.sh up): add rxe0, wait for
# an ACTIVE port with the IPv4 RoCE v2 GID, so the command never sees a half-made device.
# shellcheck disable=SC1091  # a helper of this harness, sourced at run time
. "$HELPERS/../softroce-host.sh"   # defines softroce_add; sourcing runs nothing
# shellcheck disable=SC2154  # softroce_error and softroce_gid are set by softroce_add
softroce_add rxe0 "$netdev" "$GUEST_ADDR" || setup_fail "$softroce_error"
# shellcheck disable=SC2154
gid="$softroce_gid"
[ -e /dev/infiniband/uverbs0 ] || setup_fail "/dev/infiniband/uverbs0 missing (ib_uverbs not loaded?)"
say "rxe0 on $netdev, $GUEST_ADDR, RoCE v2 GID index $gid"

if [ "$GUEST_COUNT" -gt 1 ]; then
  # Barrier: start the commands only when every guest has its rxe0, so a server in one
  # guest and a client in the other start within a second of each other.  The files
  # live on the shared 9p root, which both guests see without caching.
  : >"$SYNC_DIR/ready.$GUEST_INDEX"
  waited=0
  while :; do
    n=0
    for ((i = 0; i < GUEST_COUNT; i++)); do [ -e "$SYNC_DIR/ready.$i" ] && n=$((n + 1)); done
    [ "$n" -eq "$GUEST_COUNT" ] && break
    [ -e "$SYNC_DIR/abort" ] && setup_fail "another guest failed to set up"
    sleep 0.2
    waited=$((waited + 1))
    [ "$waited" -lt 1500 ] || setup_fail "peer guests not ready after 300 s"
  done
  # Resolve the peer's MAC before the command starts (best effort; busybox has ping
  # even where iputils is not installed).
  pinger=(busybox ping)
  command -v ping >/dev/null 2>&1 && pinger=(ping)
  for ((try = 0; try < 20; try++)); do
    "${pinger[@]}" -c1 -W1 "$PEER_ADDR" >/dev/null 2>&1 && break
  done
  say "peer $PEER_ADDR reachable"
fi

# The command's process: clean environment (only what env.sh exports), unlimited
# locked memory (verbs registrations pin pages), the caller's directory, no stdin.
# A subshell rather than `env -i bash -c`: two execs fewer.
# shellcheck disable=SC1091,SC2154  # env.sh and cmd.sh are written per run
(
  for v in $(compgen -e); do unset "$v"; done
  export DLCNET_GID_INDEX="$gid"
  . "$run/env.sh"
  . "$run/cmd.sh"     # CMD_CWD and the cmd array
  ulimit -l unlimited
  cd "$CMD_CWD" || { echo "rdma-run: cannot cd to $CMD_CWD in the guest" >&2; exit 125; }
  if [[ "${cmd[0]}" != */* ]] && ! command -v -- "${cmd[0]}" >/dev/null 2>&1; then
    echo "rdma-run: ${cmd[0]}: command not found (PATH=$PATH)" >&2
    exit 127
  fi
  exec "${cmd[@]}"
) >>"$run/stdout" 2>>"$run/stderr" </dev/null
rc=$?
echo "$rc" >"$run/status"
say "command exited with status $rc"
exit "$rc"
