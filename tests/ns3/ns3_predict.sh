#!/usr/bin/env bash
# dlc-ns3-predict on hand-made inputs: a calibration of 100 Mbit/s (the goodput of full 1448-byte
# segments in 1514-byte frames) and 50 us, a run's JSON on a star with a 100mbit tbf on p0.
#  - one flow of 4 MiB completes in size / rate + the path's latency (out and the
#    acknowledgement back: 2 x 50 us) within 2%: into rank 0 at the tbf's rate in payload
#    (100 Mbit/s x 1448 / 1514), and between two other ranks at --rank-link-rate;
#  - 4 workers x 16 x 64 KiB into rank 0 finish within 2% of the tbf's limit (the total bytes
#    over that rate), with TCP's defaults and with --initcwnd 1000 (whose burst waits in the
#    tbf: the queue's peak the whole burst, its frames, within 10%);
#  - the same input twice gives the same fct.txt and queue CSV;
#  - `dlc-compare MAP fct.txt` joins every flow;
#  - fair ports (between hosts, between TCP flows) against a FIFO: below;
#  - what it cannot mirror (BBR, no star description, verbs, another kind of port, data both
#    ways over one connection (--ucx-connections peer), UCX's rendezvous
#    without --allow-rendezvous, a flow from a host to itself) and a malformed tbf rate are
#    exit 3 with the file and the field named.
# $1: the build's bin directory.
source "$(dirname "$0")/../e2e/lib.sh"
P="$BIN/dlc-ns3-predict"
C="$BIN/dlc-compare"
cd "$work"

echo '{"link_rate_Bps": 11955085.8, "base_latency_s": 5e-5}' >c.json
# run.json with KEY=VALUE edits of the star (a Python expression each), e.g. cc='"bbr"'.
run_json() {
  python3 - "$@" <<'PY'
import json, sys
star = {"congestion_control": "cubic", "ports": "fifo", "shaped_ports": "p0", "netem": None,
        "tbf": {"rate": "100mbit", "burst": "32kb", "limit": "8mb"}, "initcwnd": None,
        "tcp_rmem": "4096 131072 6291456", "tcp_wmem": "4096 16384 4194304"}
doc = {"context": {"transport": {"transport": "ucx", "connections": "peer"}, "star": star}}
for edit in sys.argv[1:]:
    exec(edit)
print(json.dumps(doc))
PY
}
run_json >run.json
run_json 'star.update(initcwnd=1000, tcp_rmem="4096 8388608 16777216", tcp_wmem="4096 8388608 16777216")' >run1000.json
printf '1\n1 0 3 100 4194304 0.000000000\n' >one.txt
printf '1\n1 2 3 100 4194304 0.000000000\n' >other.txt
python3 - <<'PY'
# flow.txt and its flow map: 4 workers x 16 x 64 KiB into rank 0, all posted at 0.
flows = [(w, r) for r in range(16) for w in range(1, 5)]
with open("four.txt", "w") as f, open("four.txt.map", "w") as m:
    f.write(f"{len(flows)}\n")
    m.write("# dlcnet flow map 1\n# tool test\n# group round\n# origin_ns 0\n")
    for i, (w, r) in enumerate(flows):
        f.write(f"{w} 0 3 100 65536 0.000000000\n")
        m.write(f"{i} {w} 0 {10000 + r} 65536 0 {(r + 1) * 22000000} 0 0 {r} 0\n")
PY

check "one flow" "$P" one.txt --calibration c.json --run run.json --out one.fct
check "one flow off the tbf" "$P" other.txt --calibration c.json --run run.json --out other.fct \
  --rank-link-rate 11955085.8
check "four workers" "$P" four.txt --calibration c.json --run run.json --out four.fct \
  --queue q.csv
check "four workers again" "$P" four.txt --calibration c.json --run run.json --out four2.fct \
  --queue q2.csv
check "four workers, --initcwnd 1000" "$P" four.txt --calibration c.json --run run1000.json \
  --out w.fct --queue w.csv
grep -q 'simulated in .* s CPU' "$work/out" && ok "CPU time said" || bad "no CPU time"
# The same settings from the ranks' own stacks (a dlc-bench report's tcp_stacks: the largest
# buffers and route window, the smallest MTU) give the same prediction as the star's.
run_json 'doc["context"]["tcp_stacks"] = [{"ranks": [r], "congestion_control": "cubic", "tcp_rmem": [4096, 131072, 16777216 if r else 4096], "tcp_wmem": [4096, 16384, 16777216 if r else 4096], "routes": [{"initcwnd": 1000 if r else None}], "interfaces": [{"name": "h", "mtu": 1500 if r else 9000}]} for r in range(5)]' >stacks.json
check "four workers, the ranks' stacks" "$P" four.txt --calibration c.json --run stacks.json \
  --out s.fct
cmp -s w.fct s.fct && ok "the ranks' stacks read as the star's" ||
  bad "the ranks' stacks predicted otherwise than the star's"
cmp -s four.fct four2.fct && ok "same fct.txt twice" || bad "fct.txt differs between two runs"
cmp -s q.csv q2.csv && ok "same queue twice" || bad "queue differs between two runs"
python3 - <<'PY' >py.out 2>&1 && ok "limits: $(cat py.out)" || { bad "limits"; sed 's/^/  | /' py.out; }
import csv
def fct(path):
    return [[int(x, 16) if i < 2 else int(x) for i, x in enumerate(l.split())] for l in open(path)]
rate, lat = 11955085.8, 5e-5
for name in ("one.fct", "other.fct"):
    (one,) = fct(name)
    want = 4194304 / rate + 2 * lat
    got = one[6] / 1e9
    print(f"{name} {got / want - 1:+.2%}", end="; ")
    assert abs(got / want - 1) <= 0.02, (name, got, want)
for name in ("four.fct", "w.fct"):
    rows = fct(name)
    assert len(rows) == 64 and all(r[4] == 65536 for r in rows), name
    span = max(r[5] + r[6] for r in rows) / 1e9
    want = 64 * 65536 / rate
    print(f"{name} {span / want - 1:+.2%}", end="; ")
    assert abs(span / want - 1) <= 0.02, (name, span, want)
def peak(path):
    with open(path) as f:
        assert f.readline() == "time_s,bytes\n", path
        return max(float(l.split(",")[1]) for l in f)
p = peak("w.csv") / (4 * 2**20 * 1514 / 1448)
print(f"--initcwnd 1000 queue peak {p:.2f} of the burst", end="")
assert 0.9 <= p <= 1.1, p
PY
# Fair ports (netns-star.sh --fair, --fair-flows: a DRR queue disc under the tbf). A 256 KiB flow
# from host 2 into rank 0 while host 1's 4 MiB flow fills the port: with the port shared between
# hosts it gets half the rate (2 x size / rate, within 5 %: slow start's first round trips),
# behind host 1's queue in a FIFO at least twice that. Between TCP flows, host 0's 4 MiB to host
# 1 (off the tbf) while host 1 sends 4 MiB to rank 0 through it: its ACKs have a class of their
# own and do not wait behind host 1's data as they do between hosts (and in a FIFO).
dir='doc["context"]["transport"]["connections"] = "direction"'
run_json "$dir" 'star.update(ports="fair between hosts", tbf={"rate": "100mbit", "burst": "32kb", "limit": "256kb"})' >hosts.json
run_json "$dir" 'star.update(ports="fair between TCP flows", tbf={"rate": "100mbit", "burst": "32kb", "limit": "256kb"})' >flows.json
run_json "$dir" 'star.update(tbf={"rate": "100mbit", "burst": "32kb", "limit": "256kb"})' >fifo.json
printf '2\n1 0 3 100 4194304 0\n2 0 3 100 262144 0.1\n' >late.txt
printf '2\n1 0 3 100 4194304 0\n0 1 3 100 4194304 0\n' >cross.txt
for ports in hosts flows fifo; do
  for job in late cross; do
    check "fair ports: $job, $ports" "$P" $job.txt --calibration c.json --run $ports.json \
      --out $job-$ports.fct
  done
done
python3 - <<'PY' >py.out 2>&1 && ok "fair ports: $(cat py.out)" || { bad "fair ports"; sed 's/^/  | /' py.out; }
def fct(path, src, size):  # the flow's completion time, s (fct.txt: sip dip sport dport size start fct)
    (t,) = [int(x[6]) for x in map(str.split, open(path)) if int(x[0], 16) >> 8 & 0xff == src and int(x[4]) == size]
    return t / 1e9
half = 2 * 262144 / 11955085.8
hosts, fifo = fct("late-hosts.fct", 2, 262144), fct("late-fifo.fct", 2, 262144)
print(f"late flow between hosts {hosts / half - 1:+.1%} of half the rate, FIFO {fifo / half:.1f}x", end="; ")
assert abs(hosts / half - 1) <= 0.05 and fifo >= 2 * half, (hosts, fifo, half)
flows, hosts = fct("cross-flows.fct", 0, 4194304), fct("cross-hosts.fct", 0, 4194304)
print(f"reverse flow between flows {flows * 1e3:.1f} ms, between hosts {hosts * 1e3:.1f} ms", end="")
assert flows * 10 < hosts, (flows, hosts)
PY

check "dlc-compare reads it" "$C" four.txt.map four.fct --ack-latency-us 50 --json cmp.json
json_assert cmp.json "d['flows']['compared'] == 64 and d['flows']['unpredicted'] == 0"

# refused RUN_EDIT PATTERN: the run's JSON with that edit is exit 3, stderr matching PATTERN.
refused() {
  run_json "$1" >bad.json
  local rc=0
  "$P" four.txt --calibration c.json --run bad.json --out bad.fct >/dev/null 2>err || rc=$?
  if [ "$rc" -eq 3 ] && grep -Eq -- "^dlc-ns3-predict: error: bad.json: $2" err; then
    ok "refused: $1"
  else
    bad "refused: $1: exit $rc, stderr: $(cat err)"
  fi
}
refused 'star["congestion_control"] = "bbr"' "context.star.congestion_control: 'bbr'"
refused 'del doc["context"]["star"]' "context.star: missing"
refused 'doc["context"]["transport"]["transport"] = "verbs"' "context.transport.transport: 'verbs'"
refused 'star["tbf"]["rate"] = "fast"' "context.star.tbf.rate: 'fast' is not a rate"
refused 'star["ports"] = "fair"' "context.star.ports: 'fair': 'fifo', 'fair between hosts' or"
refused 'doc["context"]["tcp_stacks"] = [{"ranks": [0], "congestion_control": "reno"}]' \
  "context.tcp_stacks\[0\].congestion_control: 'reno', the star says 'cubic'"
rndv='doc["context"]["transport"]["endpoints"] = [{"protocols": {"tag_send": "0..<egr/short>..8185..<egr/zcopy>..19522..<rndv>..(inf)"}}]'
refused "$rndv" "context.transport.endpoints\[0\].protocols.tag_send: UCX sent messages from 19522 bytes on by rendezvous \(four.txt flow 0: 65536 bytes\)"
run_json "$rndv" >rndv.json
check "--allow-rendezvous" "$P" four.txt --calibration c.json --run rndv.json --out rndv.fct \
  --allow-rendezvous
grep -q "warning: rndv.json: .*simulated as eager" "$work/err" && ok "rendezvous: a warning" ||
  bad "rendezvous: no warning"
# Data both ways between two ranks over one UCX connection (--ucx-connections peer): the
# simulation has one per direction.
run_json 'star.update(ports="fair between TCP flows")' >peer.json
check_fails "both directions on one connection" \
  "^dlc-ns3-predict: error: peer.json: context.transport.connections: 'peer': .* cross.txt flow 1 \(host 0 to 1\)" \
  "$P" cross.txt --calibration c.json --run peer.json --out bad.fct
printf '2\n1 0 3 100 65536 0\n1 1 3 100 65536 0\n' >self.txt
check_fails "a flow to itself" "^dlc-ns3-predict: error: self.txt: flow 1: from host 1 to itself" \
  "$P" self.txt --calibration c.json --run run.json --out bad.fct
[ -e bad.fct ] && bad "a refused input left bad.fct" || ok "nothing written when refused"
finish
