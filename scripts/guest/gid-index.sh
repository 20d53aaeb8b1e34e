#!/usr/bin/env bash
# Prints the GID table index of DEVICE's RoCE v2 GID that carries an IPv4 address
# (an IPv4-mapped IPv6 GID, ::ffff:a.b.c.d), the one perftest's `-x` and
# ibv_query_gid/ibv_modify_qp users need for routable RoCE over IPv4.
#
#   scripts/guest/gid-index.sh DEVICE [PORT] [IPV4]
#
# PORT defaults to 1.  With IPV4 only the GID of that address matches.  Exits 1 (and
# prints nothing) when no such GID exists yet: rxe fills the table a moment after
# `rdma link add` and after an address is added, so callers may want to retry.
# Reads sysfs only (same data as `show_gids`), so it needs no RDMA tools.
set -euo pipefail

usage() { echo "usage: $(basename "$0") DEVICE [PORT] [IPV4]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 3 ] || usage
dev="$1"
port="${2:-1}"
want="${3:-}"
dir="/sys/class/infiniband/$dev/ports/$port"
[ -d "$dir/gids" ] || { echo "gid-index: no port $port on device $dev ($dir)" >&2; exit 1; }

want_hex=""
if [ -n "$want" ]; then
  IFS=. read -r a b c d <<<"$want"
  printf -v want_hex "%02x%02x:%02x%02x" "$a" "$b" "$c" "$d"
fi

# Walk the table in index order and stop at the first match.  Only bash builtins in
# the loop: rxe's table has 1024 entries, and a fork per entry takes minutes in a
# TCG guest whose binaries come over 9p.
idx=0
while [ -e "$dir/gids/$idx" ]; do
  gid=""
  read -r gid <"$dir/gids/$idx" 2>/dev/null || true
  # IPv4-mapped: 0000:0000:0000:0000:0000:ffff:XXXX:XXXX
  if [[ "$gid" == 0000:0000:0000:0000:0000:ffff:* ]]; then
    # Unused entries make the types file fail with EINVAL.
    type=""
    read -r type <"$dir/gid_attrs/types/$idx" 2>/dev/null || true
    if [ "$type" = "RoCE v2" ] &&
       { [ -z "$want_hex" ] || [ "${gid#0000:0000:0000:0000:0000:ffff:}" = "$want_hex" ]; }; then
      echo "$idx"
      exit 0
    fi
  fi
  idx=$((idx + 1))
done
exit 1
