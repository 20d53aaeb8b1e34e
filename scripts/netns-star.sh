#!/usr/bin/env bash
# A star of network namespaces on this host: one namespace per rank and a switch namespace
# whose bridge port toward rank 0 (the server of a many-to-one burst) carries a tbf, the
# bottleneck queue. docs/fabric.md describes the layout.
#
#   netns-star.sh up --prefix P --hosts N [--rate 100mbit] [--burst 32kb] [--limit 256kb]
#                    [--netem "delay 100us"] [--all-ports] [--subnet 10.230.0]
#                    [--initcwnd N] [--fair | --fair-flows] [--cc cubic]
#   netns-star.sh down --prefix P
#
# up builds P-h0 .. P-h{N-1} (veth h<i>, address <subnet>.<i+1>/24, lo up) and P-sw (bridge
# br0 with ports p<i>), and prints, one record a line:
#   cc <name>
#   host <netns> <dev> <address>
#   port <netns> <dev> <qdisc as `tc qdisc show` prints it>
#   description /run/dlcnet-star/P.json
# --cc sets TCP's congestion control in every namespace (default cubic; the kernel's default,
# which every namespace would otherwise inherit, may be another: BBR on some distributions). A
# namespace may only choose one the host's net.ipv4.tcp_allowed_congestion_control lists, so up
# adds it there (loading tcp_<name> if need be) and down takes out what up added.
# The description (JSON: hosts and addresses, tbf rate/burst/limit, FIFO or fair ports, each
# port's qdisc, netem, initcwnd, tcp_rmem/tcp_wmem, congestion control) is what every tool's
# JSON quotes under "star" when it runs in a namespace of the star.
# The tbf goes on p0 (every port with --all-ports). --netem adds that netem as the root qdisc
# of every rank's h<i>, so each direction of a flow crosses it once and the switch ports hold
# only the tbf. --fair makes each shaped port share its rate fairly between the senders
# instead of one FIFO: an htb at the same rate and burst with one class per source host, equal
# quanta of one frame (deficit round robin between the hosts that have packets queued), each
# class's own byte FIFO holding --limit; what a max-min model (docs/model.md) assumes of a
# switch. --fair-flows shares it between TCP flows instead (256 classes, both ports hashed):
# one flow's ACKs then never wait behind another flow's data from the same host.
# up refuses a prefix that is in use, and removes what it made when it fails or is interrupted
# (SIGINT, SIGTERM; it then exits non-zero). It records what it makes and changes in
# /run/dlcnet-star/P.state; down removes exactly that (the namespaces, and with them their
# veths and the bridge; the host's allowed list as it was) and is idempotent. Without a state
# file down removes only namespaces named as up names them (P-sw, P-h0 .. P-h249).
# -h or --help prints this comment; bad usage (an unknown command or argument, a value out of
# range) exits 2 with a message and the synopsis, before anything needs root.
set -euo pipefail
# shellcheck source=scripts/netns-star-state.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns-star-state.sh"

# usage: the synopsis (lines 6-9 above) on stderr, exit 2: bad usage.
usage() {
  sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
# usage_error MESSAGE: MESSAGE and the synopsis on stderr, exit 2.
usage_error() {
  echo "netns-star: $*" >&2
  usage
}
# help: the comment above (what it builds, the synopsis) on stdout, exit 0 (-h, --help).
show_help() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
  exit 0
}
# need OPTION [VALUE...]: OPTION has a non-empty value.
need() {
  if [ $# -lt 2 ] || [ -z "$2" ]; then usage_error "$1 needs a value"; fi
}
die() {
  echo "netns-star: $*" >&2
  exit 1
}

# Namespaces of PREFIX: those its state file lists that exist; without one, exactly the names
# up makes (PREFIX-sw and PREFIX-h0 .. PREFIX-h249, no leading zero), nothing else.
prefix_namespaces() {
  local prefix="$1"
  if [ -f "$(state_file "$prefix")" ]; then
    # No process substitution: the Soft-RoCE guest's /dev has no /dev/fd.
    ip netns list | awk -v want="$(state_get "$prefix" ns)" \
      'BEGIN { n = split(want, a, "\n"); for (i = 1; i <= n; i++) w[a[i]] = 1 } ($1 in w) { print $1 }'
  else
    ip netns list | awk '{print $1}' |
      grep -E "^${prefix}-(sw|h(0|[1-9][0-9]?|1[0-9][0-9]|2[0-4][0-9]))\$" || true
  fi
}

down() {
  local prefix="$1" ns
  for ns in $(prefix_namespaces "$prefix"); do
    ip netns delete "$ns" 2>/dev/null || [ ! -e "/var/run/netns/$ns" ] ||
      die "cannot delete namespace $ns"
  done
  [ -z "$(prefix_namespaces "$prefix")" ] || die "namespaces of prefix $prefix remain"
  with_lock restore_cc "$prefix"
  rm -f "$(state_file "$prefix")" "$star_dir/$prefix.json"
}

# in NS CMD...: CMD inside namespace NS.
in_ns() {
  local ns="$1"
  shift
  ip netns exec "$ns" "$@"
}

# new_ns PREFIX NS: an empty namespace (recorded in PREFIX's state first) with lo up, IPv6 off
# (no router solicitations or DAD packets in the queues being measured) and TCP's congestion
# control set to --cc.
new_ns() {
  state_add "$1" ns "$2"
  ip netns add "$2"
  ip -n "$2" link set lo up
  in_ns "$2" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  in_ns "$2" sysctl -qw net.ipv4.tcp_congestion_control="$cc"
}

# undo_failed_up STATUS PREFIX: after a failed or interrupted up, removes what it made.
undo_failed_up() {
  [ "$1" -eq 0 ] && return
  trap '' INT TERM
  echo "netns-star: up failed, removing $2-*" >&2
  down "$2" >/dev/null || true
}

# The class of a TCP segment when ports are fair between flows: both ports folded into 8 bits,
# h = sport ^ dport, class 1:(0x100 + ((h ^ h >> 8) & 0xff)); anything else 1:ffff. Both ports,
# because the connections a listener accepted share their source port toward the clients: a
# flow's ACKs and another flow's data from the same host differ only in the destination port.
# Classic BPF (the kernel here has the u32 and bpf classifiers, not flow or flower), offsets
# from the Ethernet header; the same as `bpf_asm` of:
#   ldh [12]; jne #0x800, other; ldb [23]; jne #6, other; ldxb 4*([14]&0xf)
#   ldh [x+14]; st M[0]; ldh [x+16]; ldx M[0]; xor x; st M[1]; rsh #8; ldx M[1]; xor x
#   and #0xff; add #0x10100; ret a; other: ret #0x1ffff
flow_hash_bpf="18,40 0 0 12,21 0 15 2048,48 0 0 23,21 0 13 6,177 0 0 14,72 0 0 14,2 0 0 0,\
72 0 0 16,97 0 0 0,172 0 0 0,2 0 0 1,116 0 0 8,97 0 0 1,172 0 0 0,84 0 0 255,4 0 0 65792,\
22 0 0 0,6 0 0 131071"

# fair_port NS DEV HOSTS BY: the port's rate shared by deficit round robin between source
# hosts (BY=host: a u32 match on each host's address) or between TCP flows (BY=flow: both
# ports hashed into 256 classes, flow_hash_bpf). An htb: every class is guaranteed almost
# nothing and allowed the whole rate, so all of it is lent in equal quanta of one frame; each
# class is its own byte FIFO of --limit; what no filter matches (ARP, or not TCP) goes to
# class 1:ffff, the same.
# The commands go to one `tc -batch` (about 520 a port for BY=flow).
fair_port() {
  local ns="$1" dev="$2" hosts="$3" by="$4" n b cls
  local class="htb rate 8kbit ceil $rate burst $burst cburst $burst quantum 1514"
  if [ "$by" = host ]; then n="$hosts"; else n=256; fi
  {
    echo "qdisc add dev $dev root handle 1: htb default ffff"
    echo "class add dev $dev parent 1: classid 1:1 htb rate $rate ceil $rate burst $burst cburst $burst quantum 1514"
    for cls in $(for ((b = 0; b < n; b++)); do printf '%x ' $((b + 256)); done) ffff; do
      echo "class add dev $dev parent 1:1 classid 1:$cls $class"
      echo "qdisc add dev $dev parent 1:$cls bfifo limit $limit"
    done
    if [ "$by" = host ]; then
      for ((b = 0; b < n; b++)); do
        echo "filter add dev $dev parent 1: protocol ip prio 1 u32 match ip src $subnet.$((b + 1))/32 flowid 1:$(printf '%x' $((b + 256)))"
      done
    else
      echo "filter add dev $dev parent 1: prio 1 protocol all bpf bytecode \"$flow_hash_bpf\" classid 1:ffff"
    fi
  } | tc -n "$ns" -batch -
}

up() {
  local prefix="$1" hosts="$2" sw="$1-sw" i ns
  if [ -n "$(prefix_namespaces "$prefix")" ] || [ -e "$(state_file "$prefix")" ]; then
    die "prefix $prefix is in use: $(prefix_namespaces "$prefix" | tr '\n' ' ')(run down first)"
  fi
  # From here on, a failure or a signal removes what was made.
  trap 'undo_failed_up $? "$prefix"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  state_add "$prefix" cc "$cc"
  with_lock allow_cc "$prefix" "$cc"
  new_ns "$prefix" "$sw"
  ip -n "$sw" link add br0 type bridge stp_state 0 forward_delay 0
  ip -n "$sw" link set br0 up
  for ((i = 0; i < hosts; i++)); do
    ns="$prefix-h$i"
    new_ns "$prefix" "$ns"
    # Created inside the switch namespace, the peer straight in the rank's: no name ever
    # exists in the host's namespace, so parallel stars cannot collide.
    ip -n "$sw" link add "p$i" type veth peer name "h$i" netns "$ns"
    ip -n "$sw" link set "p$i" master br0
    ip -n "$sw" link set "p$i" up
    ip -n "$ns" addr add "$subnet.$((i + 1))/24" dev "h$i"
    ip -n "$ns" link set "h$i" up
    if [ -n "$initcwnd" ]; then
      # Senders that put a whole burst on the wire at once, as an RDMA NIC does: TCP starts
      # with this window and keeps it across idle periods, so a burst waits in the tbf's queue
      # (where it can be sampled) instead of in the senders' socket buffers.
      ip -n "$ns" route replace "$subnet.0/24" dev "h$i" initcwnd "$initcwnd" initrwnd "$initcwnd"
      in_ns "$ns" sysctl -qw net.ipv4.tcp_slow_start_after_idle=0
      # Socket buffers that hold a whole window from the start: without them the receiver
      # offers about 64 KiB until autotuning sees the application read, so a receiver that
      # is slow to be scheduled holds the senders' bursts back (a fan-in's sampled queue
      # then peaked at a third of its size on a loaded host).
      in_ns "$ns" sysctl -qw net.ipv4.tcp_rmem="4096 8388608 16777216"
      in_ns "$ns" sysctl -qw net.ipv4.tcp_wmem="4096 8388608 16777216"
    fi
    if [ -n "$netem" ]; then
      # shellcheck disable=SC2086  # the netem arguments are words
      tc -n "$ns" qdisc add dev "h$i" root netem $netem ||
        die "netem on h$i failed: is sch_netem in this kernel (CONFIG_NET_SCH_NETEM)?"
    fi
    if [ "$i" -eq 0 ] || [ "$all_ports" -eq 1 ]; then
      if [ -n "$fair" ]; then
        fair_port "$sw" "p$i" "$hosts" "$fair"
      else
        tc -n "$sw" qdisc add dev "p$i" root tbf rate "$rate" burst "$burst" limit "$limit"
      fi
    fi
  done
  write_star_json "$prefix" "$hosts"
  echo "cc $(in_ns "$prefix-h0" cat /proc/sys/net/ipv4/tcp_congestion_control)"
  for ((i = 0; i < hosts; i++)); do
    echo "host $prefix-h$i h$i $subnet.$((i + 1))"
  done
  for ((i = 0; i < hosts; i++)); do
    echo "port $sw p$i $(tc -n "$sw" qdisc show dev "p$i" | head -1)"
  done
  if [ -n "$netem" ]; then
    for ((i = 0; i < hosts; i++)); do
      echo "link $prefix-h$i h$i $(tc -n "$prefix-h$i" qdisc show dev "h$i" | head -1)"
    done
  fi
  echo "description $star_dir/$prefix.json"
}

[ $# -ge 1 ] || usage_error "up or down?"
cmd="$1"
shift
case "$cmd" in
  -h | --help) show_help ;;
  up | down) ;;
  *) usage_error "unknown command '$cmd' (up or down)" ;;
esac
prefix="" hosts="" cc="cubic" rate="100mbit" burst="32kb" limit="256kb" netem="" all_ports=0 initcwnd="" fair=""
subnet="10.230.0"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) need "$@"; prefix="$2"; shift 2 ;;
    --hosts) need "$@"; hosts="$2"; shift 2 ;;
    --rate) need "$@"; rate="$2"; shift 2 ;;
    --burst) need "$@"; burst="$2"; shift 2 ;;
    --limit) need "$@"; limit="$2"; shift 2 ;;
    --netem) need "$@"; netem="$2"; shift 2 ;;
    --subnet) need "$@"; subnet="$2"; shift 2 ;;
    --all-ports) all_ports=1; shift ;;
    --initcwnd) need "$@"; initcwnd="$2"; shift 2 ;;
    --fair) fair=host; shift ;;
    --fair-flows) fair=flow; shift ;;
    --cc) need "$@"; cc="$2"; shift 2 ;;
    -h | --help) show_help ;;
    *) usage_error "unknown argument '$1'" ;;
  esac
done
# The arguments first (bad usage exits 2 whoever runs it), then root.
[[ "$prefix" =~ ^[A-Za-z0-9_][A-Za-z0-9_-]{0,40}$ ]] ||
  usage_error "--prefix: 1 to 41 characters of [A-Za-z0-9_-], not '$prefix'"
if [ "$cmd" = up ]; then
  if ! [[ "$hosts" =~ ^[0-9]+$ ]] || [ "$hosts" -lt 2 ] || [ "$hosts" -gt 250 ]; then
    usage_error "--hosts: 2 to 250, not '$hosts'"
  fi
  [[ "$subnet" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || usage_error "--subnet: three octets such as 10.230.0"
  [[ "$subnet" != 198.1[89].* ]] || usage_error "--subnet: 198.18.0.0/15 belongs to the Soft-RoCE guests"
  [ -z "$initcwnd" ] || [[ "$initcwnd" =~ ^[1-9][0-9]{0,4}$ ]] || usage_error "--initcwnd: 1 to 99999 segments"
  [[ "$cc" =~ ^[a-z][a-z0-9_]{0,15}$ ]] ||
    usage_error "--cc: a congestion control's name such as cubic, reno or bbr, not '$cc'"
fi
[ "$(id -u)" -eq 0 ] || die "needs root (ip netns add)"
if [ "$cmd" = up ]; then
  up "$prefix" "$hosts"
else
  down "$prefix"
fi
