# dlc-bench ring over verbs on Soft-RoCE across two guests joined by a wire
# (scripts/rdma-run.sh --guests 2): ranks 1 and 3 in guest 0, ranks 0 and 2 in guest 1, so every
# link of the ring crosses the wire and every step's latency joins two kernels' clocks. An
# all-reduce from 4 B to 256 KiB (--op write for the largest: the data written into the peer,
# then an 8-byte send) and an all-to-all, every element checked. Checks that every rank exits
# 0, nothing is wrong, each step's slowest link is a ring pair, and every message's one-way
# latency on rank 0's clock is positive within the clock bound (a wrong clock alignment across
# the kernels shows as negative latencies). --idle sleep and DLCNET_VERBS_ACK_TIMEOUT as in
# fanin_two_guests.sh.
# usage: ring_two_guests.sh BUILD_BIN_DIR   (run on the host; boots the guests itself)
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
B="$BIN/dlc-bench"
[ -x "$B" ] || { echo "no $B: build dlc-bench first"; exit 1; }
port=18771
token=$RANDOM$RANDOM
export DLCNET_VERBS_ACK_TIMEOUT=19
out="$work/g"
mkdir -p "$out"
chmod 777 "$work" "$out"
# run NAME PORT ARGS: one job, ranks 1 and 3 in guest 0, 0 and 2 in guest 1.
job() {
  local name="$1" p="$2"
  shift 2
  local common="ring --world-size 4 --coordinator 198.18.1.2:$p --job-token $token
        --transport verbs --timeout 120 --idle sleep -n 3 -w 1 $*"
  common="${common//$'\n'/ }"
  echo "for r in 1 3; do $B $common --rank \$r -q 2>$out/$name.rank\$r.err & p[\$r]=\$!; done
    rc=0
    for r in 1 3; do wait \${p[\$r]}; s=\$?; echo \"exit: rank \$r \$s\"; [ \$s -eq 0 ] || rc=1; done
    exit \$rc" >"$out/$name.g0"
  echo "$B $common --rank 2 -q 2>$out/$name.rank2.err & p=\$!
    $B $common --rank 0 --json $out/$name.json; rc=\$?
    wait \$p || rc=1
    exit \$rc" >"$out/$name.g1"
}
job ar $port -b 4 -e 256K -f 16
job wr $((port + 1)) --op write -s 256K
job a2a $((port + 2)) --collective alltoall -s 96K
g0="bash $out/ar.g0 && bash $out/wr.g0 && bash $out/a2a.g0"
g1="bash $out/ar.g1 && bash $out/wr.g1 && bash $out/a2a.g1"
t0=$SECONDS
if bash "$repo/scripts/rdma-run.sh" --guests 2 --timeout 1000 -- "$g0" "$g1" >"$out/stdout" \
    2>"$out/stderr"; then
  ok "two guests: every rank of the three jobs exits 0 ($((SECONDS - t0)) s)"
else
  bad "two guests: exit $? after $((SECONDS - t0)) s"
  sed 's/^/  | /' "$out/stdout" "$out/stderr" "$out"/*.err 2>/dev/null | tail -40
fi
for name in ar wr a2a; do
  json_assert "$out/$name.json" "d['wrong_total'] == 0 and d['ranks'] == 4" \
    "d['context']['transport_selection']['chosen'] == 'verbs'" \
    "len(set(d['context']['hosts'])) == 2" \
    "all(st['latency_s']['min'] > -st['clock_bound_s'] for s in d['sizes'] for st in s['steps'] if st['latency_s']['count'])" \
    "all(st['clock_bound_s'] > 0 for st in d['sizes'][-1]['steps'])"
done
json_assert "$out/ar.json" "len(d['sizes']) == 5" \
  "all(st['slowest_link']['dst'] == (st['slowest_link']['src'] + 1) % 4 for st in d['sizes'][-1]['steps'])"
json_assert "$out/wr.json" "d['op'] == 'write'"
finish
