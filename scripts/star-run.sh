#!/usr/bin/env bash
# Runs one job on a star of network namespaces (scripts/netns-star.sh): rank i in P-h<i>, every
# rank started with --rank i --world-size N --coordinator <P-h0's address>:PORT appended, rank
# 0's output on stdout/stderr, the others' in DIR/rank<i>.log. Waits for every rank (each
# bounded by --timeout) and exits with the first failing rank's status, or 0. The ranks share a
# random job token in their environment (DLCNET_JOB_TOKEN, 128 bits from /dev/urandom; one the
# caller exports is kept), not one derived from the coordinator's address.
#
#   star-run.sh --prefix P --ranks N [--port 19000] [--subnet 10.230.0] [--timeout 300]
#               [--logs DIR] -- PROGRAM ARGS...
#
# Example: a fan-in of 4 workers over UCX tcp, the tbf on p0 sampled by rank 0:
#   netns-star.sh up --prefix P --hosts 5 --rate 100mbit --limit 4mb
#   star-run.sh --prefix P --ranks 5 -- build/bin/dlc-bench fanin --transport ucx \
#     --ucx-tls tcp,self -s 64K --burst 16 --qdisc p0 --qdisc-netns P-sw
#
# -h or --help (before --) prints this comment; bad usage exits 2 with a message.
set -uo pipefail

die() {
  echo "star-run: $*" >&2
  exit 2
}
# show_help: the comment above on stdout, exit 0.
show_help() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
  exit 0
}
# need OPTION [VALUE...]: OPTION has a non-empty value.
need() {
  if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a value"; fi
}

prefix="" ranks="" port=19000 subnet="10.230.0" limit=300 logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) need "$@"; prefix="$2"; shift 2 ;;
    --ranks) need "$@"; ranks="$2"; shift 2 ;;
    --port) need "$@"; port="$2"; shift 2 ;;
    --subnet) need "$@"; subnet="$2"; shift 2 ;;
    --timeout) need "$@"; limit="$2"; shift 2 ;;
    --logs) need "$@"; logs="$2"; shift 2 ;;
    -h | --help) show_help ;;
    --) shift; break ;;
    *) die "unknown argument '$1' (the program comes after --)" ;;
  esac
done
[ -n "$prefix" ] || die "--prefix: which star"
[[ "$ranks" =~ ^[0-9]+$ ]] && [ "$ranks" -ge 2 ] || die "--ranks: 2 or more, not '$ranks'"
[ $# -ge 1 ] || die "no program given after --"
for ((i = 0; i < ranks; i++)); do
  [ -e "/var/run/netns/$prefix-h$i" ] || die "no namespace $prefix-h$i: is the star up with $ranks hosts or more?"
done
[ -n "$logs" ] || logs="$(mktemp -d /tmp/star-run.XXXXXX)"
mkdir -p "$logs"
coord="$subnet.1:$port"
if [ -z "${DLCNET_JOB_TOKEN:-}" ]; then
  DLCNET_JOB_TOKEN="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  [ ${#DLCNET_JOB_TOKEN} -eq 32 ] || die "could not read a job token from /dev/urandom"
fi
export DLCNET_JOB_TOKEN

pids=()
stop_all() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
}
trap stop_all EXIT
trap 'exit 1' INT TERM

for ((i = 1; i < ranks; i++)); do
  timeout "$limit" ip netns exec "$prefix-h$i" "$@" --rank "$i" --world-size "$ranks" \
    --coordinator "$coord" >"$logs/rank$i.log" 2>&1 &
  pids+=($!)
done
timeout "$limit" ip netns exec "$prefix-h0" "$@" --rank 0 --world-size "$ranks" --coordinator "$coord"
status=$?
for ((i = 1; i < ranks; i++)); do
  wait "${pids[$((i - 1))]}"
  s=$?
  if [ "$s" -ne 0 ]; then
    echo "star-run: rank $i exited $s; its output ($logs/rank$i.log):" >&2
    tail -5 "$logs/rank$i.log" | sed 's/^/  | /' >&2
    [ "$status" -ne 0 ] || status=$s
  fi
done
pids=()
exit "$status"
