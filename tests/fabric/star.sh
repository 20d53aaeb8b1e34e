# The star of network namespaces under UCX traffic (scripts/netns-star.sh, fabric/): a 3-host
# star with a 100 Mbit/s tbf on p0, two dlc-bench bw clients (in P-h1 and P-h2) sending to two
# servers in P-h0, the tbf sampled from the switch namespace by qdisc-probe. First, as any
# user, the two scripts' usage: -h and --help print it and exit 0, bad usage exits 2 with a
# message (no namespace made). The star itself is root only: exits 77 (skipped) when not root
# or when `ip netns add` fails, unless a usage check failed. $1: the build's bin directory.
source "$(dirname "$0")/../e2e/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
STAR="$ROOT/scripts/netns-star.sh"
RUN="$ROOT/scripts/star-run.sh"
B="$BIN/dlc-bench"
SECONDS_RUN=3

# usage_exit NAME STATUS PATTERN CMD...: CMD exits STATUS; with 0 its stdout matches PATTERN
# (extended regex) and stderr is empty, else stderr matches PATTERN and stdout is empty.
usage_exit() {
  local name="$1" want="$2" pattern="$3" rc out=out
  shift 3
  timeout 30 "$@" >"$work/out" 2>"$work/err"
  rc=$?
  [ "$want" -eq 0 ] || out=err
  if [ "$rc" -ne "$want" ]; then
    bad "$name: exit $rc, not $want"
    sed 's/^/  | /' "$work/out" "$work/err" | tail -10
  elif ! grep -Eq -- "$pattern" "$work/$out"; then
    bad "$name: std$out lacks /$pattern/"
    sed 's/^/  | /' "$work/$out" | tail -10
  elif [ -s "$work/$([ "$out" = out ] && echo err || echo out)" ]; then
    bad "$name: output on the wrong stream"
  else
    ok "$name"
  fi
}
for h in -h --help; do
  usage_exit "netns-star.sh $h" 0 "^  netns-star.sh up --prefix P --hosts N" bash "$STAR" "$h"
  usage_exit "netns-star.sh up $h" 0 "^  netns-star.sh down --prefix P\$" bash "$STAR" up --prefix x "$h"
  usage_exit "star-run.sh $h" 0 "^  star-run.sh --prefix P --ranks N" bash "$RUN" "$h"
done
usage_exit "netns-star.sh with no command" 2 "up or down" bash "$STAR"
usage_exit "netns-star.sh's unknown command" 2 "unknown command 'sideways'" bash "$STAR" sideways --prefix x
usage_exit "netns-star.sh's unknown argument" 2 "unknown argument '--bogus'" \
  bash "$STAR" up --prefix x --hosts 3 --bogus
usage_exit "netns-star.sh without --prefix" 2 "--prefix: 1 to 41 characters" bash "$STAR" down
usage_exit "netns-star.sh's --prefix without a value" 2 "--prefix needs a value" bash "$STAR" down --prefix
usage_exit "netns-star.sh's --hosts out of range" 2 "--hosts: 2 to 250, not '1'" \
  bash "$STAR" up --prefix x --hosts 1
usage_exit "netns-star.sh's --cc not a name" 2 "--cc: a congestion control's name" \
  bash "$STAR" up --prefix x --hosts 3 --cc "cubic;reboot"
usage_exit "star-run.sh's unknown argument" 2 "unknown argument '--bogus'" bash "$RUN" --bogus
usage_exit "star-run.sh without --prefix" 2 "--prefix: which star" bash "$RUN" --ranks 2 -- true
usage_exit "star-run.sh's --ranks without a value" 2 "--ranks needs a value" bash "$RUN" --prefix x --ranks
usage_exit "star-run.sh without a program" 2 "no program given after --" bash "$RUN" --prefix x --ranks 2

if [ "$(id -u)" -ne 0 ]; then
  [ "$failed" -eq 0 ] || { finish; exit; }
  echo "not root: skipped"
  exit 77
fi
prefix="fstar$$"
ip netns add "$prefix-try" 2>/dev/null || { echo "ip netns add fails: skipped"; exit 77; }
ip netns delete "$prefix-try"

pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  bash "$STAR" down --prefix "$prefix" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

remaining() { ip netns list | awk '{print $1}' | grep -E "^$prefix-" || true; }

check "star up" bash "$STAR" up --prefix "$prefix" --hosts 3 --rate 100mbit --burst 32kb \
  --limit 256kb
cp "$work/out" "$work/up"
sed 's/^/  | /' "$work/up"
[ "$(grep -c '^host ' "$work/up")" -eq 3 ] && ok "up lists 3 hosts" || bad "up lists 3 hosts"
grep -Eq "^port $prefix-sw p0 qdisc tbf .*rate 100Mbit" "$work/up" && ok "tbf on p0" ||
  bad "tbf on p0"
grep -Eq "^port $prefix-sw p1 qdisc noqueue" "$work/up" && ok "no tbf on p1" || bad "no tbf on p1"
server="$(awk -v ns="$prefix-h0" '$1 == "host" && $2 == ns {print $4}' "$work/up")"
[ -n "$server" ] || { bad "no address for $prefix-h0"; finish; exit; }

# bench NS ARGS...: dlc-bench bw over UCX tcp inside namespace NS. No UCX_NET_DEVICES: the
# rank's veth is the only device there besides lo, and dlc-bench wants the same value on
# every rank (h0 in one namespace, h1 in another would be refused).
bench() {
  local ns="$1"
  shift
  ip netns exec "$ns" env UCX_TLS=tcp,self "$B" bw --transport ucx --ucx-tls tcp,self -s 64K \
    -D "$SECONDS_RUN" --timeout 30 "$@"
}
for i in 1 2; do
  bench "$prefix-h0" -p $((18800 + i)) --json "$work/server$i.json" >"$work/server$i.log" 2>&1 &
  pids+=($!)
done
sleep 0.5
# Until the clients are done (SIGINT below): under load the ranks take seconds to start.
"$BIN/qdisc-probe" p0 "$prefix-sw" 120 10000 "$work/series.json" \
  >"$work/probe.json" 2>"$work/probe.err" &
probe=$!
pids+=("$probe")
sleep 0.3
for i in 1 2; do
  bench "$prefix-h$i" "$server" -p $((18800 + i)) --json "$work/client$i.json" \
    >"$work/client$i.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do
  if [ "$p" = "$probe" ]; then continue; fi
  wait "$p" || bad "dlc-bench (pid $p) exited non-zero"
done
kill -INT "$probe"
for f in "$work"/server*.log "$work"/client*.log; do sed "s|^|  $(basename "$f"): |" "$f" | tail -4; done
wait "$probe" && ok "qdisc-probe exited 0" || bad "qdisc-probe: $(cat "$work/probe.err")"
cat "$work/probe.json"
# 10 kHz is aimed at; stalls of 10-70 ms (the rtnl lock, scheduling) on this shared 2-core
# machine cost up to 3 % of the samples under load: 9.5 kHz is asserted.
json_assert "$work/probe.json" \
  "d['summary']['peak_backlog_bytes'] > 0" \
  "d['summary']['drops'] + d['summary']['overlimits'] > 0" \
  "d['summary']['achieved_rate_hz'] >= 9500" \
  "d['summary']['sent_bytes'] > 10e6"
json_assert "$work/series.json" \
  "len(d['t_s']) == len(d['backlog_bytes']) == len(d['backlog_packets']) == len(d['drops']) > 1000" \
  "all(b <= 256 * 1024 + 65536 for b in d['backlog_bytes'])"
# The tbf shapes to its rate: while it has a backlog it sends at 100 Mbit/s (L2 bytes; summed
# over the intervals between two samples that both saw a backlog). The clients' own figures
# are the senders' count (a message is done once UCX has it in the socket buffer: above the
# wire by a few socket buffers in 3 s) and fall when the loaded machine cannot drive them
# (with cubic, 2026-11-27, 9 runs: the tbf 99.2 to 100.0 Mbit/s, the clients 93.6 to 132.7).
# Their sum is no bound: each average is over its own run, and under load one client can start
# seconds after the other and have the port alone for most of its run (CI, 2026-11-28: 77.9 +
# 84.1 Mbit/s, the tbf backlogged 7.83 s of 11.10 s). Each client alone is bounded by the port
# and a few socket buffers: checked loosely, per client.
python3 - "$work/series.json" "$work"/client1.json "$work"/client2.json >"$work/bw" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
bps = [json.load(open(f))['results'][0]['bandwidth']['average_bytes_per_s'] * 8 for f in sys.argv[2:]]
total = sum(bps)
print("clients: " + ", ".join(f"{b / 1e6:.1f}" for b in bps) + f" Mbit/s, total {total / 1e6:.1f}")
for i, b in enumerate(bps, 1):
    print(("ok: " if 25e6 <= b <= 140e6 else "FAIL: ") + f"client {i} within 25..140 Mbit/s")
t, b, sent = s['t_s'], s['backlog_bytes'], s['sent_bytes']
busy = [i for i in range(1, len(t)) if b[i - 1] > 0 and b[i] > 0]
dt = sum(t[i] - t[i - 1] for i in busy)
wire = sum(sent[i] - sent[i - 1] for i in busy) * 8 / dt if dt > 0 else 0
print(f"tbf sent {wire / 1e6:.1f} Mbit/s while backlogged ({dt:.2f} s of {t[-1] - t[0]:.2f} s)")
print(("ok: " if 95e6 <= wire <= 105e6 else "FAIL: ") + "tbf's rate while backlogged within 95..105 Mbit/s")
print(("ok: " if dt >= 1 else "FAIL: ") + "the tbf had a backlog for at least 1 s")
PY
count_results "$work/bw"

check "star down" bash "$STAR" down --prefix "$prefix"
check "down again (idempotent)" bash "$STAR" down --prefix "$prefix"
[ -z "$(remaining)" ] && ok "no namespace of $prefix remains" || bad "left: $(remaining)"
finish
