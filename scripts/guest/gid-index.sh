#!/usr/bin/env bash
# Prints the GID table index of DEVICE's RoCE v2 GID that carries an IPv4 address
# (an IPv4-mapped IPv6 GID, ::ffff:a.b.c.d): the index perftest's `-x` and
# ibv_query_gid()/ibv_modify_qp() users need for routable RoCE over IPv4.
#
#   scripts/guest/gid-index.sh DEVICE [PORT] [IPV4]
#
# PORT defaults to 1.  With IPV4, only the GID of that address matches.  Exits 1 (and
# prints nothing) when there is no such GID (yet: rxe fills the table a moment after
# `rdma link add` and after an address is added, so callers may want to retry), 2 on
# bad arguments.  Reads sysfs only (same data as `show_gids`), so it needs no RDMA
# tools.  Bash scripts may also source it and call `gid_index DEVICE [PORT] [IPV4]`.

gid_index() {
  local dev="${1:-}" port="${2:-1}" want="${3:-}" dir want_hex="" a b c d idx gid type
  [ -n "$dev" ] || { echo "usage: gid-index.sh DEVICE [PORT] [IPV4]" >&2; return 2; }
  dir="/sys/class/infiniband/$dev/ports/$port"
  [ -d "$dir/gids" ] || { echo "gid-index: no port $port on RDMA device $dev ($dir)" >&2; return 1; }
  if [ -n "$want" ]; then
    IFS=. read -r a b c d <<<"$want"
    printf -v want_hex "%02x%02x:%02x%02x" "$a" "$b" "$c" "$d" 2>/dev/null \
      || { echo "gid-index: bad IPv4 address '$want'" >&2; return 2; }
  fi
  # Walk the table in index order and stop at the first match.  Only builtins in the
  # loop: rxe's table has 1024 entries, and a fork per entry takes minutes in a TCG
  # guest whose binaries come over 9p.
  idx=0
  while [ -e "$dir/gids/$idx" ]; do
    gid=""
    read -r gid <"$dir/gids/$idx" 2>/dev/null
    # IPv4-mapped: 0000:0000:0000:0000:0000:ffff:XXXX:XXXX
    if [[ "$gid" == 0000:0000:0000:0000:0000:ffff:* ]]; then
      # Unused entries make the types file fail with EINVAL.
      type=""
      read -r type <"$dir/gid_attrs/types/$idx" 2>/dev/null
      if [ "$type" = "RoCE v2" ] &&
         { [ -z "$want_hex" ] || [ "${gid#0000:0000:0000:0000:0000:ffff:}" = "$want_hex" ]; }; then
        echo "$idx"
        return 0
      fi
    fi
    idx=$((idx + 1))
  done
  return 1
}

# Run as a command (not sourced).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  if [ $# -lt 1 ] || [ $# -gt 3 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    echo "usage: $(basename "$0") DEVICE [PORT] [IPV4]" >&2
    exit 2
  fi
  gid_index "$@"
  exit $?
fi
