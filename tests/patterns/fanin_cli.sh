# dlc-bench fanin end to end on this host (--spawn, UCX over tcp on 127.0.0.1): a run with
# --pull, records, fct and JSON whose contents are counted; the burst of a captured job
# (--sizes-from); and bad input, each failing with a message that names what is wrong.
source "$(dirname "$0")/../e2e/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
B="$BIN"
ucx=(--transport ucx --ucx-tls tcp,self --timeout 60)

# 2 workers x (2 solo + 1 warm-up + 3 measured) rounds of 4 messages, with replies. --fct
# takes HPCC's latency and rate from a calibration (made up here).
echo '{"link_rate_Bps": 1e9, "base_latency_s": 5e-6}' >"$work/c.json"
check "fanin --pull, 2 workers" "$B" fanin --spawn --workers 2 "${ucx[@]}" -s 16K --burst 4 -n 3 \
  --warmup 1 --solo 2 --pull --json "$work/f.json" --records "$work/rec-%r.csv" \
  --fct "$work/fct.txt" --calibration "$work/c.json"
grep -q '^ median ' "$work/out" && ok "console: summary row" || bad "console: summary row"
json_assert "$work/f.json" \
  "d['spec']['workers'] == 2 and d['summary']['iterations'] == 3 and len(d['iterations']) == 4" \
  "all(it['pull_s'] > 0 for it in d['iterations'])" \
  "all(it['bct_s'] > 0 and it['workers'] == 2 and it['bytes'] == 2 * 4 * 16384 for it in d['iterations'])" \
  "d['solo']['rounds'] == 4 and d['solo']['rate_Bps'] > 0" \
  "d['summary']['latency']['count'] == 3 * 2 * 4" \
  "len(d['clock']) == 3 and d['release']['mode'] == 'instant' and 'run_s' in d['phases_s']" \
  "d['setup']['ranks'] == 3 and d['setup']['setup_s'] >= d['setup']['connect_s'] > 0 and d['setup']['gather_s'] >= 0" \
  "len(rows('$work/rec-0.csv')) == 2 * (2 + 1 + 3) * 4 * 2" \
  "len(rows('$work/rec-1.csv')) == (2 + 1 + 3) * 4 * 2" \
  "all(int(r['post_ns']) > 0 and int(r['complete_ns']) > 0 for r in rows('$work/rec-1.csv') if r['op'] == 'send')" \
  "all(int(r['arrival_ns']) > 0 for r in rows('$work/rec-2.csv') if r['op'] == 'recv')" \
  "d['files']['records'] == ['$work/rec-0.csv', '$work/rec-1.csv', '$work/rec-2.csv']"
# fct.txt: one line per message: bursts and replies of every round, solo rounds too.
[ "$(wc -l <"$work/fct.txt")" -eq $((2 * (2 + 1 + 3) * 4 * 2)) ] &&
  ok "fct: one line per message" || bad "fct: $(wc -l <"$work/fct.txt") lines"

# --op write: the data written into the server's memory, an 8-byte send per message after it.
check "fanin --op write" "$B" fanin --spawn --workers 2 "${ucx[@]}" -s 16K --burst 4 -n 3 \
  --solo 1 --op write --pull --json "$work/w.json" --records "$work/wrec-%r.csv"
json_assert "$work/w.json" "d['spec']['op'] == 'write' and d['summary']['iterations'] == 3" \
  "d['summary']['latency']['count'] == 3 * 2 * 4 and d['summary']['latency']['min'] > 0" \
  "all(r['op'] == 'write' and int(r['complete_ns']) > 0 for r in rows('$work/wrec-1.csv') if r['dst'] == '0')" \
  "len(rows('$work/wrec-0.csv')) == 2 * (1 + 2 + 3) * 4 * 2"
# One worker writing: a sender's six control slots fit (its region was two per rank, 4 slots).
check "fanin --op write, one worker" "$B" fanin --spawn --workers 1 "${ucx[@]}" -s 4K --burst 2 \
  -n 2 --solo 1 --op write
check "fanin --sizes-from a captured job" "$B" fanin --spawn --workers 2 "${ucx[@]}" -n 2 --solo 1 \
  --sizes-from "$ROOT/tests/data/trace/basic" --json "$work/s.json"
json_assert "$work/s.json" "d['spec']['burst_bytes'] == [140, 4060]" \
  "'worker0' in d['spec']['burst_source']"

check_fails "a qdisc device that does not exist" "no device 'nosuchdev'" \
  "$B" fanin --spawn --workers 2 "${ucx[@]}" --qdisc nosuchdev
check_fails "bursts larger than memory" "needs 160G of registered memory.*lower -s, --burst" \
  "$B" fanin --spawn --workers 2 "${ucx[@]}" -s 5G
check_fails "--fct without --calibration" "--fct requires --calibration" \
  "$B" fanin --spawn --workers 2 "${ucx[@]}" --fct "$work/x.txt"
echo '{"link_rate_Bps": 0, "base_latency_s": 1}' >"$work/bad-c.json"
check_fails "a bad calibration, before the run" "bad-c.json: calibration: .link_rate_Bps" \
  "$B" fanin --spawn --workers 2 "${ucx[@]}" --fct "$work/x.txt" --calibration "$work/bad-c.json"
check_fails "an unknown model" "--model nope: unknown; the presets are lenet5, resnet50" \
  "$B" fanin --spawn --workers 2 --model nope
check_fails "--op read" "--op: read not in|read not in \{send,write\}" "$B" fanin --spawn --workers 2 --op read
check_fails "--spawn without --workers" "--spawn needs --workers" "$B" fanin --spawn
check_fails "--workers against the world" "--workers 3 but the world of 3 ranks" \
  "$B" fanin --workers 3 --rank 1 --world-size 3 --coordinator 127.0.0.1:1
check_fails "no worker" "at least one worker: the world has 2 ranks and --background 1" \
  "$B" fanin --rank 0 --world-size 2 --background 1 --coordinator 127.0.0.1:1
# Ranks started with different bursts: the agreement names the rank that differs.
port=$((21000 + RANDOM % 2000))
"$B" fanin --rank 1 --world-size 2 --coordinator 127.0.0.1:$port "${ucx[@]}" --burst 8 -q \
  >/dev/null 2>&1 &
check_fails "ranks with different bursts" "rank 1 runs another fan-in" \
  "$B" fanin --rank 0 --world-size 2 --coordinator 127.0.0.1:$port "${ucx[@]}" --burst 4 -q
wait
# ... with the option and both values (issue 28).
grep -q "burst: 8 messages, 512K on rank 1, 4 messages, 256K here" "$work/err" &&
  ok "the differing option and both values named" || bad "no option named: $(cat "$work/err")"
# A worker killed in the middle: every other rank stops within seconds and names it, and the
# rounds completed before are in every rank's records (the killed one's too: each round is
# written as it completes) and counted in the JSON.
("$B" fanin --spawn --workers 2 "${ucx[@]}" -s 4K --burst 4 -n 99991 -q --json "$work/kill.json" \
  --records "$work/kill-%r.csv" >"$work/kill" 2>&1
 echo "exit $?" >>"$work/kill") &
# Killed once it has recorded 2 rounds (header + 8 rows), within 60 s.
for _ in $(seq 600); do
  [ "$(wc -l <"$work/kill-2.csv" 2>/dev/null || echo 0)" -ge 9 ] && break
  sleep 0.1
done
pkill -9 -f -- "-n 99991 .*--rank 2 " || bad "no rank 2 to kill"
t0=$SECONDS
wait
grep -q "rank 0: error: rank 2 .*is gone" "$work/kill" && grep -q "rank 1: error: rank 2 .*is gone" "$work/kill" &&
  ! grep -q "exit 0" "$work/kill" && ok "a killed worker is named by every other rank ($((SECONDS - t0)) s)" ||
  { bad "a killed worker is named by every other rank"; sed 's/^/  | /' "$work/kill"; }
json_assert "$work/kill.json" "d['complete'] is False and d['error'].startswith('rank 2 (')" \
  "0 < d['rounds_completed'] < d['rounds']" \
  "len({r['opnum'] for r in rows('$work/kill-0.csv')}) == d['rounds_completed']" \
  "all(int(r['arrival_ns']) > 0 for r in rows('$work/kill-0.csv'))" \
  "len(rows('$work/kill-1.csv')) > 0 and len(rows('$work/kill-1.csv')) % 4 == 0" \
  "len(rows('$work/kill-2.csv')) >= 8 and len(rows('$work/kill-2.csv')) % 4 == 0"
# Rank 0 killed (SIGKILL) mid-run: no temporary file of its --json, --fct or --export-flows is
# left in their folder (they are unnamed until written, core/output_file.hpp).
mkdir "$work/k0"
echo '{"link_rate_Bps": 1e9, "base_latency_s": 5e-6}' >"$work/k0.cal"
("$B" fanin --spawn --workers 1 "${ucx[@]}" -s 4K --burst 4 -n 99992 -q --json "$work/k0/r.json" \
  --fct "$work/k0/f.txt" --calibration "$work/k0.cal" --export-flows "$work/k0/x.txt" \
  --records "$work/k0-%r.csv" >"$work/k0.out" 2>&1) &
for _ in $(seq 600); do
  [ "$(wc -l <"$work/k0-0.csv" 2>/dev/null || echo 0)" -ge 9 ] && break
  sleep 0.1
done
pkill -9 -f -- "-n 99992 .*--rank 0 " || bad "no rank 0 to kill"
wait
[ -z "$(ls -A "$work/k0")" ] && ok "rank 0 killed: no temporary file left" ||
  bad "rank 0 killed: left $(ls -A "$work/k0")"
finish
