#!/usr/bin/env bash
# dlc-ns3-predict --job (the closed loop) on hand-made parameter-server jobs (ps_job.py), named
# after a replay of each (dlc-replay --spawn over UCX shared memory: its flow map), on a
# hand-made star (100 Mbit/s tbf, 50 us):
#  - 2 workers x 2 iterations into a FIFO tbf toward the server's port: every dependent
#    message is posted at the latest simulated arrival of the messages it waits for plus its
#    think time, within 1 us (the server's acknowledgements wait for both workers' pushes);
#    dlc-compare joins every message (--free-starts);
#  - 1 worker x 3 iterations, the tbf on every port (no link shared): the job's span within 4 %
#    of the model's (dlc-compare predict-job, calibrated to the tbf's frames), each 1 MiB
#    message too (ns-3 is 3.0 % faster: the tbf's 32 KiB burst goes at the link's speed); a
#    64-byte message's fct is the path's round trip (arrival when its receiver has read it,
#    plus the acknowledgement's latency), within 1 us;
#  - 2 workers, the tbf on every port: the model on the run's star (predict-job --run, the
#    hosts' up links unshaped) within 5 % of ns-3's span, with every up link at the port's rate
#    (the server's two pulls sharing its link) at least 20 % longer;
#  - the LeNet example: every pair's messages posted in the replay's order by both predictors;
#  - the same input twice gives the same fct.txt and queue CSV;
#  - bad command lines (exit 2) and what cannot be mirrored or read (exit 3, the file and the
#    message or line named).
# $1: the build's bin directory.
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
P="$BIN/dlc-ns3-predict"
C="$BIN/dlc-compare"
cd "$work"

# The model's calibration with the tbf's frames (1448 bytes of payload in 1514 on the wire at
# 100 Mbit/s): both predictors see one rate. ns-3 reads only its base latency.
echo '{"link_rate_Bps": 12500000, "base_latency_s": 5e-5,
       "packet": {"payload_bytes": 1448, "header_bytes": 66}}' >c.json
# run.json with KEY=VALUE edits of the star (a Python expression each).
run_json() {
  python3 - "$@" <<'PY'
import json, sys
star = {"congestion_control": "cubic", "ports": "fifo", "shaped_ports": "p0", "netem": None,
        "tbf": {"rate": "100mbit", "burst": "32kb", "limit": "8mb"}, "initcwnd": None,
        "tcp_rmem": "4096 131072 6291456", "tcp_wmem": "4096 16384 4194304"}
doc = {"context": {"transport": {"transport": "ucx", "connections": "direction"}, "star": star}}
for edit in sys.argv[1:]:
    exec(edit)
print(json.dumps(doc))
PY
}
run_json 'star.update(shaped_ports="p0")' >p0.json
run_json 'star.update(shaped_ports="all")' >all.json
# the job NAME WORKERS ITERATIONS PUSH PULL: NAME.csv and a replay's flow map NAME.txt.map.
the_job() {
  python3 "$here/ps_job.py" write "$2" "$3" "$4" "$5" "$1.csv"
  check "replay $1 (its flow map)" "$BIN/dlc-replay" "$1.csv" --spawn --transport ucx \
    --ucx-tls sm --timeout 60 --export-flows "$1.txt"
}
# Ranks: the workers, then the server. The FIFO tbf is toward rank 0 (worker 0's pulls); the
# workers' pushes meet on the server's link.
the_job two 2 2 1048576 524288
the_job one 1 3 1048576 1048576

check "two workers" "$P" --job two.csv --like two.txt.map --calibration c.json --run p0.json \
  --out two.fct --queue two.q
grep -q '^dlc-ns3-predict: 16 messages (dag) on 3 hosts .* simulated in .* s CPU.* 16 named after two.txt.map; fct.txt in two.fct$' \
  "$work/out" && ok "summary line" || bad "summary line: $(cat "$work/out")"
check "two workers again" "$P" --job two.csv --like two.txt.map --calibration c.json \
  --run p0.json --out two2.fct --queue two2.q
cmp -s two.fct two2.fct && ok "same fct.txt twice" || bad "fct.txt differs between two runs"
cmp -s two.q two2.q && ok "same queue twice" || bad "queue differs between two runs"
python3 "$here/ps_job.py" check 2 2 two.txt.map two.fct 5e-5 1e-6 >py.out 2>&1 &&
  ok "dependencies: $(cat py.out)" || { bad "dependencies"; sed 's/^/  | /' py.out; }
check "dlc-compare joins it" "$C" two.txt.map two.fct --calibration c.json --free-starts \
  --json two.cmp.json
json_assert two.cmp.json "d['flows']['compared'] == 16 and d['flows']['unpredicted'] == 0" \
  "d['predicted_starts'] == 'its own' and [g['group'] for g in d['groups']] == [1, 2]"

check "one worker (ns-3)" "$P" --job one.csv --like one.txt.map --calibration c.json \
  --run all.json --out one.fct
check "one worker (model)" "$C" predict-job one.csv --like one.txt.map --calibration c.json \
  --out one.model.fct
python3 - <<'PY' >py.out 2>&1 && ok "against the model: $(cat py.out)" || { bad "against the model"; sed 's/^/  | /' py.out; }
def fct(path):  # (src, dst, sport) -> (size, start_s, fct_s)
    return {tuple(x[:3]): (int(x[4]), int(x[5]) / 1e9, int(x[6]) / 1e9)
            for x in map(str.split, open(path))}
ns3, model = fct("one.fct"), fct("one.model.fct")
assert ns3.keys() == model.keys() and len(ns3) == 12, (ns3.keys(), model.keys())
span = lambda d: max(s + f for _, s, f in d.values())
e = span(ns3) / span(model) - 1
big = [ns3[k][2] / model[k][2] - 1 for k in ns3 if ns3[k][0] == 1048576]
small = [f for size, _, f in ns3.values() if size == 64]
print(f"span {e:+.2%}, 1 MiB messages {min(big):+.2%} to {max(big):+.2%}, 64 B "
      f"{min(small) * 1e6:.2f} to {max(small) * 1e6:.2f} us", end="")
assert abs(e) <= 0.04 and all(abs(b) <= 0.04 for b in big), (e, big)
# A message arrives when its receiver has read it (not when it is acknowledged, up to a
# delayed ACK later): 64 bytes on an idle path in its one-way latency, fct one more.
assert all(abs(f - 100e-6) <= 1e-6 for f in small), small
PY

# Two workers, the tbf on every port: the server's two pulls leave it at once, each through its
# worker's port. The model on the run's star (predict-job --run: only the ports toward the hosts
# shaped) predicts the job's span within 5 % of ns-3; on its default network (every host's up
# link at the port's rate too, so the two pulls share the server's) at least 20 % longer.
the_job both 2 2 1048576 1048576
check "two workers, every port (ns-3)" "$P" --job both.csv --like both.txt.map \
  --calibration c.json --run all.json --out both.fct
check "two workers, every port (model on the run's star)" "$C" predict-job both.csv \
  --like both.txt.map --calibration c.json --run all.json --out both.star.fct
check "two workers, every port (model, up links shaped)" "$C" predict-job both.csv \
  --like both.txt.map --calibration c.json --out both.up.fct
python3 - <<'PY' >py.out 2>&1 && ok "up links unshaped: $(cat py.out)" || { bad "up links unshaped"; sed 's/^/  | /' py.out; }
def span(path):  # first start to last completion, s
    rows = [list(map(int, x.split()[4:7])) for x in open(path)]
    return (max(s + f for _, s, f in rows) - min(s for _, s, _ in rows)) / 1e9
ns3, star, up = span("both.fct"), span("both.star.fct"), span("both.up.fct")
e_star, e_up = star / ns3 - 1, up / ns3 - 1
print(f"the model on the star {e_star:+.2%} of ns-3's span, with shaped up links {e_up:+.2%}", end="")
assert abs(e_star) <= 0.05 and e_up >= 0.20, (e_star, e_up)
PY

# The LeNet example: a rank posts its sends to a peer in the order of its timeline, and a small
# key's next push, whose dependencies are met early, waits for the large key's before it. Both
# predictors post every pair's messages in that order (HPCC's sport numbers a pair's messages in
# the order the replay posted them); waiting for dependencies alone, they would not.
check "replay lenet (its flow map)" "$BIN/dlc-replay" "$here/../../examples/lenet5-2w1s" \
  --spawn --transport ucx --ucx-tls sm --timeout 60 --export-flows lenet.txt
check "lenet (ns-3)" "$P" --job "$here/../../examples/lenet5-2w1s" --like lenet.txt.map \
  --calibration c.json --run all.json --out lenet.fct
check "lenet (model)" "$C" predict-job "$here/../../examples/lenet5-2w1s" --like lenet.txt.map \
  --calibration c.json --run all.json --out lenet.model.fct
python3 - <<'PY' >py.out 2>&1 && ok "channel order: $(cat py.out)" || { bad "channel order"; sed 's/^/  | /' py.out; }
for path in ("lenet.fct", "lenet.model.fct"):
    pairs = {}  # (sip, dip) -> [(sport, start_ns)]
    for x in map(str.split, open(path)):
        pairs.setdefault((x[0], x[1]), []).append((int(x[2]), int(x[5])))
    out = [(p, a, b) for p, v in pairs.items() for a, b in zip(sorted(v), sorted(v)[1:])
           if b[1] < a[1]]
    assert not out, (path, len(out), out[:3])
    print(f"{path}: {sum(map(len, pairs.values()))} messages in order; ", end="")
PY

# usage NAME PATTERN CMD...: a bad command line, exit 2 with PATTERN on stderr (check_usage's
# tool-name pattern has no digits).
usage() {
  local name="$1" pattern="$2" rc=0
  shift 2
  timeout 120 "$@" >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" -eq 2 ] && grep -Eq -- "^dlc-ns3-predict: error: $pattern" "$work/err"; then
    ok "$name"
  else
    bad "$name: exit $rc, stderr: $(cat "$work/err")"
  fi
}
# Bad command lines.
usage "FLOW_TXT and --job" "FLOW_TXT or --job JOB: one of them" "$P" two.txt --job \
  two.csv --like two.txt.map --calibration c.json --run p0.json --out bad.fct
usage "neither" "FLOW_TXT or --job JOB: one of them" "$P" --calibration c.json \
  --run p0.json --out bad.fct
usage "--job without --like" "--job requires --like" "$P" --job two.csv \
  --calibration c.json --run p0.json --out bad.fct
usage "--mode without --job" "--mode requires --job" "$P" two.txt --mode asap \
  --calibration c.json --run p0.json --out bad.fct
usage "--out is --like" "--out two.txt.map is the input --like" "$P" --job two.csv \
  --like two.txt.map --calibration c.json --run p0.json --out two.txt.map
usage "--hosts too few" "--hosts 2: two.csv names host 2" "$P" --job two.csv \
  --like two.txt.map --calibration c.json --run p0.json --out bad.fct --hosts 2
# What cannot be mirrored, and a bad job: exit 3 naming the file and the message or line.
run_json 'doc["context"]["transport"]["connections"] = "peer"' >peer.json
check_fails "both directions on one connection" \
  "^dlc-ns3-predict: error: peer.json: context.transport.connections: 'peer': .* two.csv message 8 \(key 0, opnum 3\) \(host 2 to 0\)" \
  "$P" --job two.csv --like two.txt.map --calibration c.json --run peer.json --out bad.fct
run_json 'doc["context"]["transport"]["endpoints"] = [{"protocols": {"tag_send": "0..<egr/short>..8185..<egr/zcopy>..19522..<rndv>..(inf)"}}]' >rndv.json
check_fails "rendezvous" \
  "^dlc-ns3-predict: error: rndv.json: context.transport.endpoints\[0\].protocols.tag_send: UCX sent messages from 19522 bytes on by rendezvous \(two.csv message 0 \(key 0, opnum 2\): 1048576 bytes\)" \
  "$P" --job two.csv --like two.txt.map --calibration c.json --run rndv.json --out bad.fct
sed 's/^w1,13,pull_send,s0,0,1,64,/w1,13,pull_send,s0,0,1,-64,/' two.csv >broken.csv
check_fails "a bad job" "^broken.csv:13: error: field 'bytes'" \
  "$P" --job broken.csv --like two.txt.map --calibration c.json --run p0.json --out bad.fct
check_fails "no flow map" "^dlc-ns3-predict: error: .*none.map" \
  "$P" --job two.csv --like none.map --calibration c.json --run p0.json --out bad.fct
[ -e bad.fct ] && bad "a refused input left bad.fct" || ok "nothing written when refused"
finish
