# dlc-bench fanin over verbs on Soft-RoCE across two guests joined by a wire
# (scripts/rdma-run.sh --guests 2): the 4 workers (ranks 1..4) in guest 0, the server (rank 0)
# in guest 1, a 10 Mbit/s tbf on guest 0's eth0 (--tbf): every burst crosses that one queue.
# rxe alone gave 21-33 Mbit/s to four workers through the wire in these emulated guests (10 on
# a very busy host), so the tbf is the bottleneck. Checks that every rank exits 0, the summary
# has 4 workers and n iterations, every iteration's BCT is at least the physical limit (its
# bytes at the tbf's rate, less the tbf's 32 KiB bucket that leaves at once), and every rank's
# records file has one line per message it sent or received, with the times it must have.
# DLCNET_VERBS_ACK_TIMEOUT=19 (2.1 s): a packet may wait up to 0.84 s in the tbf (1 MB at 10
# Mbit/s); with the default 67 ms, rxe's go-back-N retransmissions pile up until its responder
# fails a request, and a timeout near the queue's delay (5 Mbit/s: 1.7 s) fills the queue with
# duplicates (BCT 13x the limit). --idle sleep: a spinning rank holds a vCPU that rxe's kernel
# threads need (see tests/replay/two_guests.sh).
# usage: fanin_two_guests.sh BUILD_BIN_DIR   (run on the host; boots the guests itself)
source "$(dirname "$0")/../e2e/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
B="$BIN/dlc-bench"
[ -x "$B" ] || { echo "no $B: build dlc-bench first"; exit 1; }
rate_mbit=10
tbf_burst_bytes=32768
workers=4 burst=8 iters=3 warmup=1 solo=2
port=18761
token=$RANDOM$RANDOM
export DLCNET_VERBS_ACK_TIMEOUT=19
out="$work/g"
mkdir -p "$out"
chmod 777 "$work" "$out"
common="fanin --world-size $((workers + 1)) --coordinator 198.18.1.2:$port --job-token $token
        --transport verbs --timeout 120 --idle sleep -s 64K --burst $burst -n $iters
        --warmup $warmup --solo $solo --records $out/rec.%r.csv"
common="${common//$'\n'/ }"
g0="for r in \$(seq 1 $workers); do $B $common --rank \$r -q 2>$out/rank\$r.err & p[\$r]=\$!; done
    rc=0
    for r in \$(seq 1 $workers); do
      wait \${p[\$r]}; s=\$?; echo \"exit: rank \$r \$s\"; [ \$s -eq 0 ] || rc=1
    done
    tc -s qdisc show dev eth0
    exit \$rc"
g1="$B $common --rank 0 --json $out/r.json"
t0=$SECONDS
if bash "$repo/scripts/rdma-run.sh" --guests 2 --timeout 1000 \
    --tbf "rate ${rate_mbit}mbit burst 32kb limit 1mb" -- "$g0" "$g1" >"$out/stdout" \
    2>"$out/stderr"; then
  ok "two guests: every rank exits 0 ($((SECONDS - t0)) s)"
else
  bad "two guests: exit $? after $((SECONDS - t0)) s"
  sed 's/^/  | /' "$out/stdout" "$out/stderr" "$out"/rank*.err 2>/dev/null | tail -40
fi
if grep -q "^\[g0\] qdisc tbf .* rate ${rate_mbit}Mbit" "$out/stdout"; then
  ok "guest 0's root qdisc is the tbf"
else
  bad "no tbf on guest 0's eth0"
fi
if grep "^\[g1\] *median " "$out/stdout"; then ok "summary line printed"; else bad "no summary line"; fi
json_assert "$out/r.json" \
  "d['spec']['workers'] == $workers and d['summary']['iterations'] == $iters" \
  "d['context']['transport_selection']['chosen'] == 'verbs'" \
  "all(i['bct_s'] >= (i['bytes'] - $tbf_burst_bytes) * 8 / ${rate_mbit}e6 for i in d['iterations'])" \
  "d['summary']['bct_s'] >= (d['iterations'][-1]['bytes'] - $tbf_burst_bytes) * 8 / ${rate_mbit}e6"
# Records: a worker sends burst messages in its solo rounds, the warmup and the iterations
# (with post and completion times); the server receives them all (with an arrival time).
python3 - "$out" "$workers" "$burst" "$((solo + warmup + iters))" >"$out/rec-check" 2>&1 <<'PY'
import csv, sys
out, workers, burst, rounds = sys.argv[1], *map(int, sys.argv[2:])
def check(rank, expected, op, times):
    try:
        rows = list(csv.DictReader(open(f"{out}/rec.{rank}.csv")))
    except OSError as e:
        print(f"FAIL: rank {rank}'s records: {e}")
        return
    wrong = [r for r in rows if r["op"] != op or any(int(r[t]) < 0 for t in times)]
    ok = len(rows) == expected and not wrong
    print(("ok: " if ok else "FAIL: ") + f"rank {rank}: {len(rows)} records (expected {expected}), "
          f"{len(wrong)} without a {'/'.join(times)} or not {op}")
for w in range(1, workers + 1):
    check(w, rounds * burst, "send", ["post_ns", "complete_ns"])
check(0, workers * rounds * burst, "recv", ["arrival_ns"])
PY
count_results "$out/rec-check"
python3 - "$out/r.json" "$rate_mbit" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, b = d["summary"], d["iterations"][-1]["bytes"]
print(f"  | summary: BCT {s['bct_s'] * 1e3:.1f} ms, physical limit {b * 8 / float(sys.argv[2]) / 1e3:.1f}"
      f" ms, BCT/limit {s['bct_over_limit']:.3f} (limit from the solo rounds: "
      f"{d['solo']['rate_Bps'] * 8e-6:.1f} Mbit/s), goodput {s['goodput_Bps'] * 8e-6:.1f} Mbit/s, "
      f"Jain {s['jain']:.3f}, slowdown p50 {s['slowdown']['p50']:.2f}")
PY
finish
