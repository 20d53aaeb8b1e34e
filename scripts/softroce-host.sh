#!/usr/bin/env bash
# Soft-RoCE on this host, for a kernel that ships rdma_rxe (every stock Debian and Ubuntu
# kernel) on a machine without an RDMA device: no emulated guest needed.
#
#   scripts/softroce-host.sh up [--netdev IF] [--name NAME]
#   scripts/softroce-host.sh down [--name NAME]
#   scripts/softroce-host.sh status
#
# up    loads rdma_rxe and ib_uverbs unless loaded, adds the rxe device NAME (default rxe0)
#       on IF (default: the interface of the default route), waits until its port is ACTIVE
#       with a RoCE v2 GID of IF's IPv4 address, and prints
#       "rxe0 on eth0, 192.0.2.7, RoCE v2 GID index 1" (the index is dlc-bench's and
#       perftest's -x). It notes what it made under /run/dlcnet-softroce/.
# down  removes NAME if `up` made it, and unloads rdma_rxe if `up` loaded it; nothing else.
# status lists the RDMA devices and what `up` made.
#
# Exit status: 0 done; 1 failed (the reason on stderr); 2 bad usage; 3 this kernel has no
# rdma_rxe module (then scripts/rdma-run.sh runs commands in a guest that has one).
# Needs root and iproute2's `rdma` (Debian: iproute2). The Soft-RoCE guest's own set-up
# (scripts/guest/stage2.sh) sources this file and calls softroce_add, so every guest run
# exercises it.

SOFTROCE_STATE=/run/dlcnet-softroce
softroce_error=""
softroce_gid=""

# softroce_add NAME NETDEV IPV4: adds rxe device NAME on NETDEV and waits (10 s) until its
# port is ACTIVE with a RoCE v2 GID of IPV4; sets softroce_gid, or softroce_error and returns 1.
# Builtins only in the wait (a TCG guest pays a fraction of a second per exec).
softroce_add() {
  local name="$1" netdev="$2" addr="$3" out state="" try
  softroce_gid=""
  if ! out="$(rdma link add "$name" type rxe netdev "$netdev" 2>&1)"; then
    softroce_error="'rdma link add $name type rxe netdev $netdev' failed: $out"
    return 1
  fi
  # rxe fills in its GID table asynchronously.
  # shellcheck disable=SC1091  # a helper of this repository, sourced at run time
  . "$(dirname "${BASH_SOURCE[0]}")/guest/gid-index.sh"
  for ((try = 0; try < 100; try++)); do
    state=""
    read -r state <"/sys/class/infiniband/$name/ports/1/state" 2>/dev/null
    if [[ "$state" == *ACTIVE* ]] && softroce_gid="$(gid_index "$name" 1 "$addr" 2>/dev/null)"; then
      return 0
    fi
    softroce_gid=""
    sleep 0.1
  done
  softroce_error="$name did not become ACTIVE with a RoCE v2 GID of $addr (port state: ${state:-none})"
  return 1
}

softroce_default_netdev() {
  local words i
  # A here-string, not a process substitution: the guest's chroot has no /dev/fd.
  read -r -a words <<<"$(ip -o route show default 2>/dev/null | head -n 1)"
  for ((i = 0; i < ${#words[@]} - 1; i++)); do
    [ "${words[$i]}" = dev ] && { echo "${words[$((i + 1))]}"; return 0; }
  done
  return 1
}

softroce_ipv4() {  # softroce_ipv4 IF: its first IPv4 address, without the prefix length
  local words i
  read -r -a words <<<"$(ip -o -4 addr show dev "$1" 2>/dev/null | head -n 1)"
  for ((i = 0; i < ${#words[@]} - 1; i++)); do
    [ "${words[$i]}" = inet ] && { echo "${words[$((i + 1))]%/*}"; return 0; }
  done
  return 1
}

softroce_main() {
  set -uo pipefail
  local cmd="${1:-}" name=rxe0 netdev="" addr loaded_here=0
  case " $* " in
    *" -h "* | *" --help "*)
      sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      return 0
      ;;
  esac
  [ $# -gt 0 ] && shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --netdev) netdev="${2:-}"; shift 2 ;;
      --name) name="${2:-}"; shift 2 ;;
      *) echo "softroce-host.sh: unknown argument '$1'" >&2; return 2 ;;
    esac
  done
  [[ "$name" =~ ^[A-Za-z0-9_]{1,31}$ ]] || { echo "softroce-host.sh: bad --name '$name'" >&2; return 2; }
  case "$cmd" in
    up)
      [ "$(id -u)" -eq 0 ] || { echo "softroce-host.sh: up needs root" >&2; return 1; }
      command -v rdma >/dev/null || { echo "softroce-host.sh: no 'rdma' tool (apt-get install iproute2)" >&2; return 1; }
      if [ ! -d /sys/module/rdma_rxe ]; then
        if ! modprobe rdma_rxe 2>/dev/null; then
          echo "softroce-host.sh: this kernel ($(uname -r)) has no rdma_rxe module: run commands in the Soft-RoCE guest instead (scripts/rdma-run.sh)" >&2
          return 3
        fi
        loaded_here=1
      fi
      [ -d /sys/module/ib_uverbs ] || modprobe ib_uverbs 2>/dev/null ||
        { echo "softroce-host.sh: cannot load ib_uverbs (needed for /dev/infiniband/uverbs*)" >&2; return 1; }
      if [ -e "/sys/class/infiniband/$name" ]; then
        echo "softroce-host.sh: an RDMA device named $name exists already (rdma link show); choose another --name" >&2
        return 1
      fi
      if [ -z "$netdev" ]; then
        netdev="$(softroce_default_netdev)" ||
          { echo "softroce-host.sh: no default route: name the interface with --netdev IF" >&2; return 1; }
      fi
      [ -d "/sys/class/net/$netdev" ] || { echo "softroce-host.sh: no interface '$netdev'" >&2; return 1; }
      addr="$(softroce_ipv4 "$netdev")" ||
        { echo "softroce-host.sh: $netdev has no IPv4 address (RoCE v2 over IPv4 needs one)" >&2; return 1; }
      mkdir -p "$SOFTROCE_STATE"
      if ! softroce_add "$name" "$netdev" "$addr"; then
        echo "softroce-host.sh: $softroce_error" >&2
        rdma link delete "$name" 2>/dev/null
        [ "$loaded_here" -eq 1 ] && modprobe -r rdma_rxe 2>/dev/null
        return 1
      fi
      printf 'netdev=%s\nloaded_module=%s\n' "$netdev" "$loaded_here" >"$SOFTROCE_STATE/$name"
      echo "$name on $netdev, $addr, RoCE v2 GID index $softroce_gid"
      ;;
    down)
      [ -f "$SOFTROCE_STATE/$name" ] || { echo "softroce-host.sh: $name was not made by 'up' here; leaving it" >&2; return 1; }
      local loaded_module=0
      # shellcheck disable=SC1090  # written by `up` above
      . "$SOFTROCE_STATE/$name"
      if [ -e "/sys/class/infiniband/$name" ] && ! rdma link delete "$name"; then
        echo "softroce-host.sh: 'rdma link delete $name' failed" >&2
        return 1
      fi
      rm -f "$SOFTROCE_STATE/$name"
      if [ "$loaded_module" = 1 ] && [ -z "$(ls "$SOFTROCE_STATE" 2>/dev/null)" ]; then
        modprobe -r rdma_rxe 2>/dev/null || echo "softroce-host.sh: rdma_rxe stays loaded (in use)" >&2
      fi
      echo "$name removed"
      ;;
    status)
      rdma link show 2>/dev/null || ls /sys/class/infiniband 2>/dev/null
      find "$SOFTROCE_STATE" -maxdepth 1 -type f -printf 'made by up: %f\n' 2>/dev/null
      ;;
    *)
      echo "usage: softroce-host.sh up [--netdev IF] [--name NAME] | down [--name NAME] | status" >&2
      return 2
      ;;
  esac
}

# Run as a command (not sourced).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  softroce_main "$@"
  exit $?
fi
