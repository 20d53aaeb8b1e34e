# A peer killed (SIGKILL) or frozen (SIGSTOP: alive, every connection open) in the middle of a
# run, over UCX on this host: every other rank has exited within --timeout (its waits give up
# after --timeout minus the reserve in which the ranks agree on the cause, write their outputs
# and close: core/stop_budget.hpp), names the rank that stopped (not a rank that merely saw its
# neighbour stop), the job exits non-zero, and the outputs asked for hold everything completed
# before. A frozen rank can only be told by the waits for it: the
# ranks follow them to the one that sent nothing (core/tcp_bootstrap_stopped.cpp).
#   peer_faults.sh BIN bench|fanin|ring|replay
# (dlc-bench lat killed: bench_peer_dies.sh; a fan-in worker killed: fanin_cli.sh; a replay
# rank killed: replay_faults.sh.)
# shellcheck shell=bash source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
tool="$1"
T=5        # --timeout of every run: the survivors have exited within it
margin=0.5 # beyond it: the exit as this script sees it (it polls every 0.1 s on a loaded host).
           # They took 4.2 to 4.9 s here; without the reserve (waits of the whole --timeout)
           # 5.5 to 6.2 s; before the split (issue #16) 7.9 to 10.2 s.
limit=$(awk -v t="$T" -v m="$margin" 'BEGIN { print t + m }')
now() { date +%s.%N; }
stopped=() # pids stopped here: killed (then resumed) on exit, whatever happened
cleanup() {
  local p
  for p in "${stopped[@]}"; do
    kill -KILL "$p" 2>/dev/null
    kill -CONT "$p" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck disable=SC2054  # the comma is UCX_TLS's
ucx=(--transport ucx --ucx-tls tcp,self --timeout "$T")

# wait_rows FILE REGEX N [PID]: waits (30 s at most; while PID runs) until FILE has N lines
# matching REGEX.
wait_rows() {
  for _ in $(seq 300); do
    [ "$(grep -Ec -- "$2" "$1" 2>/dev/null)" -ge "$3" ] && return 0
    [ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null && break
    sleep 0.1
  done
  bad "no $3 lines /$2/ in $(basename "$1") within 30 s"
  sed 's/^/  | /' "$1" | tail -5
  return 1
}

# rank_pid MARK R: the pid of spawned rank R of the run whose arguments include MARK (a path
# in $work: unique to this script).
rank_pid() { pgrep -f -- "$1 .*--rank $2( |$)" | head -1; }

# hit SIG PID: SIGKILL or SIGSTOP the process; a stopped one is remembered for the clean-up.
hit() {
  kill "-$1" "$2" || bad "no process $2 to $1"
  [ "$1" = STOP ] && stopped+=("$2")
  t0=$(now)
}

# since T0: seconds from T0 (a now() reading) to now, to the hundredth.
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# await PID NAME: waits for PID (a run started with &) to end, within --timeout + margin after
# the hit; its exit code in $rc.
await() {
  for _ in $(seq $(((T + 10) * 10))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  took=$(since "$t0")
  if kill -0 "$1" 2>/dev/null; then
    bad "$2: still running $took s after the fault"
    kill -KILL "$1"
  fi
  wait "$1"
  rc=$?
  [ "$rc" -ne 0 ] && ok "$2: exit $rc" || bad "$2: exited 0"
  awk -v t="$took" -v l="$limit" 'BEGIN { exit !(t <= l) }' &&
    ok "$2: stopped $took s after the fault (--timeout $T)" ||
    bad "$2: took $took s (--timeout $T, at most $limit s)"
}

# who K: how the other ranks name rank K (rank 0 is the coordinator they connected to).
who() {
  if [ "$1" -eq 0 ]; then echo "coordinator 127\.0\.0\.1:[0-9]+ \(rank 0\)"; else
    echo "rank $1 \(127\.0\.0\.1:[0-9]+\)"
  fi
}

# named FILE K VERB RANKS...: every rank of RANKS printed one error naming rank K first.
named() {
  local file="$1" k="$2" verb="$3" r
  shift 3
  for r in "$@"; do
    if grep -Eq "rank $r: error: $(who "$k") $verb" "$file"; then
      ok "rank $r names rank $k ($verb)"
    else
      bad "rank $r does not name rank $k ($verb)"
      grep -E "rank $r: error" "$file" | sed 's/^/  | /'
    fi
  done
}

# ---- dlc-bench lat and bw: a server and a client, each its own process ----
# bench_run MODE VICTIM [SIG [ARGS...]]: SIG (default STOP) hits VICTIM (server or client) once
# the client printed 3 sizes; ARGS go to both ends.
bench_run() {
  local mode="$1" victim="$2" sig="${3:-STOP}" port srv cli dead survivor
  shift $(($# < 3 ? $# : 3))
  port=$(free_port)
  local n=100
  rm -f "$work/sweep.json"
  # Not under timeout(1): the signals are for dlc-bench itself; await bounds the survivor, and
  # the clean-up kills the stopped one.
  "$BIN/dlc-bench" "$mode" -a -n "$n" -p "$port" "${ucx[@]}" "$@" >"$work/srv.out" \
    2>"$work/srv.err" &
  srv=$!
  "$BIN/dlc-bench" "$mode" 127.0.0.1 -a -n "$n" -p "$port" "${ucx[@]}" "$@" \
    --json "$work/sweep.json" >"$work/cli.out" 2>"$work/cli.err" &
  cli=$!
  wait_rows "$work/cli.out" "^ +[0-9]+ +$n " 3
  dead=$srv survivor=$cli
  [ "$victim" = client ] && dead=$cli survivor=$srv
  hit "$sig" "$dead"
  local how=frozen
  [ "$sig" = KILL ] && how=killed
  await "$survivor" "$mode${*:+ $*}, $victim $how: the $([ "$victim" = client ] && echo server || echo client)"
  kill -KILL "$dead"
  wait "$dead" 2>/dev/null
}

bench() {
  bench_run lat server
  grep -Eq "error: $(who 0) stopped responding" "$work/cli.err" &&
    ok "lat, server frozen: the client names rank 0 and its host" ||
    { bad "lat, server frozen: the client does not name rank 0"; tail -3 "$work/cli.err"; }
  local sizes
  sizes=$(grep -Ec '^ +[0-9]+ +100 ' "$work/cli.out")
  json_assert "$work/sweep.json" "d['complete'] is False" "'rank 0' in d['error']" \
    "'stopped responding' in d['error']" \
    "[r['bytes'] for r in d['results']] == [2**e for e in range(1, $sizes + 1)]" \
    "all(r['iterations'] == 100 for r in d['results'])"

  bench_run lat client
  grep -Eq "error: $(who 1) stopped responding" "$work/srv.err" &&
    ok "lat, client frozen: the server names rank 1 and its host" ||
    { bad "lat, client frozen: the server does not name rank 1"; tail -3 "$work/srv.err"; }

  bench_run bw server
  grep -Eq "error: $(who 0) stopped responding" "$work/cli.err" &&
    ok "bw, server frozen: the client names rank 0 and its host" ||
    { bad "bw, server frozen: the client does not name rank 0"; tail -3 "$work/cli.err"; }
  sizes=$(grep -Ec '^ +[0-9]+ +100 ' "$work/cli.out")
  json_assert "$work/sweep.json" "d['complete'] is False" \
    "[r['bytes'] for r in d['results']] == [2**e for e in range(1, $sizes + 1)]"

  # One-sided: the server sees none of the client's writes, only its heartbeats, so a frozen
  # client is found by the server within --timeout, however long a size runs.
  bench_run bw client STOP --op write
  grep -Eq "error: $(who 1) stopped responding" "$work/srv.err" &&
    ok "bw write, client frozen: the server names rank 1" ||
    { bad "bw write, client frozen: the server does not name rank 1"; tail -3 "$work/srv.err"; }

  # Killed: its connections close, and the survivor names it at once.
  bench_run bw server KILL
  grep -Eq "error: $(who 0) (is gone|stopped responding)" "$work/cli.err" &&
    ok "bw, server killed: the client names rank 0" ||
    { bad "bw, server killed: the client does not name rank 0"; tail -3 "$work/cli.err"; }
  sizes=$(grep -Ec '^ +[0-9]+ +100 ' "$work/cli.out")
  json_assert "$work/sweep.json" "d['complete'] is False" "'rank 0' in d['error']" \
    "[r['bytes'] for r in d['results']] == [2**e for e in range(1, $sizes + 1)]"
}

# ---- dlc-bench ring: 4 ranks, a sweep of sizes ----
# ring_run SIG K: SIG (KILL or STOP) hits rank K once rank 0 printed 2 sizes.
ring_run() {
  local sig="$1" k="$2" pid job attempt
  # A second attempt where the first failed before any size (the UCX connection between two
  # ranks refused, seen 2 runs in 15 on this loaded host): not what is tested here.
  for attempt in 1 2; do
    rm -f "$work"/ring*
    timeout 90 "$BIN/dlc-bench" ring --spawn --spawn-timeout 80 --ranks 4 "${ucx[@]}" \
      -b 16K -e 64M -f 2 -n 10 -w 1 --json "$work/ring.json" --records "$work/ring-%r.csv" \
      >"$work/ring.out" 2>"$work/ring.err" &
    job=$!
    for _ in $(seq 300); do
      [ "$(grep -Ec '^ +[0-9]+ +[0-9]+ +float' "$work/ring.out")" -ge 2 ] && break 2
      kill -0 "$job" 2>/dev/null || break
      sleep 0.1
    done
    kill "$job" 2>/dev/null
    wait "$job"
    echo "attempt $attempt: the run failed before 2 sizes:"
    grep "error" "$work/ring.err" | sed 's/^/  | /' | head -4
  done
  wait_rows "$work/ring.out" "^ +[0-9]+ +[0-9]+ +float" 2
  pid=$(rank_pid "$work/ring-%r.csv" "$k")
  hit "$sig" "$pid"
  await "$job" "ring, rank $k $([ "$sig" = KILL ] && echo killed || echo frozen)"
}

# ring_outputs K RANKS...: rank 0's JSON (unless K is 0) holds the sizes it printed, marked
# incomplete and naming rank K; the records of every rank of RANKS, the stopped one's too (each
# size is written as it completes), hold the printed sizes whole (10 iterations x 6 steps x a
# send and a receive each) and at most one size after: whole (done everywhere but not gathered
# yet) or, in a survivor's, the iterations it completed before the fault (whole iterations).
ring_outputs() {
  local k="$1"
  shift
  grep -Eo '^ +[0-9]+ +[0-9]+ +float' "$work/ring.out" | awk '{print $1}' >"$work/ring.sizes"
  local rc=0
  python3 - "$work" "$k" "$@" <<'PY' >"$work/py" 2>&1 || rc=$?
import collections, csv, json, sys
work, k, ranks = sys.argv[1], int(sys.argv[2]), [int(r) for r in sys.argv[3:]]
printed = [int(x) for x in open(f"{work}/ring.sizes").read().split()]
def check(name, cond):
    print(("ok: " if cond else "FAIL: ") + name)
check(f"ring: rank 0 printed sizes before the fault ({len(printed)})", len(printed) >= 2)
def load(path):
    try:
        return json.load(open(path))
    except Exception as e:
        check(f"JSON: {e}", False)
if k != 0 and (d := load(f"{work}/ring.json")):
    check("ring JSON: marked incomplete, naming the rank",
          d["complete"] is False and d["error"].startswith(f"rank {k} ("))
    check("ring JSON: every size printed, no other",
          [x["size_bytes"] for x in d["sizes"]] == printed)
    check("ring JSON: each size's 10 iterations", all(x["iterations"] == 10 for x in d["sizes"]))
    p = d.get("size_in_progress")
    check(f"ring JSON: the size in progress, if rank 0 measured any of it ({p})",
          p is None or (p["size_bytes"] == 2 * printed[-1] and
                        0 <= p["iterations_measured_rank0"] <= 10))
for r in ranks:
    rows = list(csv.DictReader(open(f"{work}/ring-{r}.csv")))
    per = collections.Counter(int(x["bytes"]) * 4 for x in rows)
    sizes = sorted(per)
    after = sizes[len(printed):]
    check(f"ring records of rank {r}: the {len(printed)} printed sizes whole, then {after}",
          sizes[:len(printed)] == printed and all(per[s] == 120 for s in printed) and
          len(after) <= 1 and all(0 < per[s] <= 120 and per[s] % 12 == 0 for s in after))
PY
  count_results "$work/py"
  [ "$rc" -eq 0 ] || bad "the outputs' checker failed (exit $rc): see above"
}

ring() {
  ring_run KILL 2
  named "$work/ring.err" 2 "is gone" 0 1 3
  ring_outputs 2 0 1 2 3
  ring_run STOP 2
  named "$work/ring.err" 2 "stopped responding" 0 1 3
  ring_outputs 2 0 1 2 3
  ring_run STOP 0
  named "$work/ring.err" 0 "stopped responding" 1 2 3
  ring_outputs 0 0 1 2 3
}

# ---- dlc-bench fanin: 3 workers to one server ----
# fanin_run K [ROWS]: freezes rank K once its records hold ROWS rows (each round is written as it
# completes; a fixed sleep froze it before the first round on a loaded host). The default 3
# solo rounds a worker (worker 1's three, then 2's, then 3's): 36 rows at rank 0 (3 workers x 3
# x 4 messages), 12 at a worker; an incast round: 12 and 4. By default the freeze is in the
# incast rounds (60 rows at rank 0, 20 at a worker). Rank 0 frozen after 8 rows (--gap 0.15 s
# between rounds) stops in worker 1's third solo round, while workers 2 and 3 wait 1 and 4
# rounds for their turn: they hear the server's tick each round, so they find it frozen within
# one wait limit (without the ticks: after the rounds before their turn times the limit, 14.7 s
# with --timeout 5); workers 2 and 3 recorded nothing. A background rank (rank 4), not started
# before the incast rounds, hears the ticks too.
fanin_run() {
  local k="$1" rows="${2:-}" pid
  shift $(($# < 2 ? $# : 2))
  rm -f "$work"/fanin*
  timeout 90 "$BIN/dlc-bench" fanin --spawn --spawn-timeout 80 --workers 3 "${ucx[@]}" -s 4K \
    --burst 4 -n 100000 --json "$work/fanin.json" --records "$work/fanin-%r.csv" "$@" \
    >"$work/fanin.out" 2>"$work/fanin.err" &
  local job=$!
  for _ in $(seq 300); do
    pid=$(rank_pid "$work/fanin-%r.csv" "$k")
    [ -n "$pid" ] && break
    sleep 0.1
  done
  wait_rows "$work/fanin-$k.csv" "^[0-9]" "${rows:-$([ "$k" -eq 0 ] && echo 60 || echo 20)}" "$job"
  hit STOP "$pid"
  await "$job" "fanin, rank $k frozen"
}

# fanin_outputs K RANKS...: the records of every rank of RANKS, the frozen one's too (each round
# is written as it completes), hold whole rounds (the 4 messages of each worker taking part);
# rank 0's JSON (unless K is 0), marked incomplete and
# naming rank K, counts the rounds its records hold.
fanin_outputs() {
  local k="$1"
  shift
  local rc=0
  python3 - "$work" "$k" "$@" <<'PY' >"$work/py" 2>&1 || rc=$?
import collections, csv, json, sys
work, k, ranks = sys.argv[1], int(sys.argv[2]), [int(r) for r in sys.argv[3:]]
def check(name, cond):
    print(("ok: " if cond else "FAIL: ") + name)
def load(path):
    try:
        return json.load(open(path))
    except Exception as e:
        check(f"JSON: {e}", False)
for r in ranks:
    rows = list(csv.DictReader(open(f"{work}/fanin-{r}.csv")))
    per = collections.Counter((x["opnum"], x["src"]) for x in rows)
    rounds = sorted({int(x["opnum"]) for x in rows})
    check(f"fanin records of rank {r}: {len(rounds)} whole rounds",
          len(rounds) > 0 and all(n == 4 for n in per.values()) and
          all(int(x["arrival_ns" if x["op"] == "recv" else "complete_ns"]) > 0 for x in rows))
    if r == 0:
        check("fanin records of rank 0: the rounds from the first on", rounds == list(range(len(rounds))))
        if k != 0 and (d := load(f"{work}/fanin.json")):
            check("fanin JSON: marked incomplete, naming the rank, counting the rounds recorded",
                  d["complete"] is False and d["error"].startswith(f"rank {k} (") and
                  d["rounds_completed"] == len(rounds) < d["rounds"])
PY
  count_results "$work/py"
  [ "$rc" -eq 0 ] || bad "the outputs' checker failed (exit $rc): see above"
}

fanin() {
  fanin_run 2
  named "$work/fanin.err" 2 "stopped responding" 0 1 3
  fanin_outputs 2 0 1 2 3
  fanin_run 0
  named "$work/fanin.err" 0 "stopped responding" 1 2 3
  fanin_outputs 0 0 1 2 3
  fanin_run 0 8 --gap 150000 --background 1
  named "$work/fanin.err" 0 "stopped responding" 1 2 3 4
  fanin_outputs 0 0 1
  fanin_patient
}

# fanin_patient: nothing frozen, but worker 3 waits 6 solo rounds of 0.4 s (2.4 s) for its turn,
# longer than the wait limit of --timeout 2 (1.5 s): the server's ticks keep it waiting, and the
# run completes (a wait of one limit without them would fail it).
fanin_patient() {
  local rc=0
  timeout 60 "$BIN/dlc-bench" fanin --spawn --spawn-timeout 50 --workers 3 --transport ucx \
    --ucx-tls tcp,self --timeout 2 -s 4K --burst 4 -n 2 --gap 400000 >"$work/fanin.out" \
    2>"$work/fanin.err" || rc=$?
  if [ "$rc" -eq 0 ] && grep -Eq "^ +1 +3 +16K " "$work/fanin.out"; then
    ok "fanin: workers waiting 2.4 s for their turn with a 1.5 s wait limit: completed"
  else
    bad "fanin: workers waiting 2.4 s for their turn with a 1.5 s wait limit: exit $rc"
    sed 's/^/  | /' "$work/fanin.err" | tail -5
  fi
}

# ---- dlc-replay: a captured job of 2 workers and a server (rank 2) ----
# replay_run K AFTER: rank K stops itself (SIGSTOP) after AFTER completions.
replay_run() {
  local k="$1" after="$2" pid
  rm -rf "$work/rec"
  mkdir -p "$work/rec"
  timeout 90 "$BIN/dlc-replay" "$(dirname "$0")/../../examples/lenet5-2w1s" "${ucx[@]}" \
    --spawn --spawn-timeout 80 --records "$work/rec/rec.csv" --json "$work/rec/replay.json" \
    --fault-rank "$k" --fault-after "$after" --fault-signal stop \
    >"$work/replay.out" 2>"$work/replay.err" &
  local job=$!
  # The stop comes from inside the rank; the clock starts when the launcher sees it.
  for _ in $(seq 300); do
    pid=$(pgrep -f -- "--fault-signal stop .*--rank $k( |$)" | head -1)
    [ -n "$pid" ] && [ "$(ps -o stat= -p "$pid" | cut -c1)" = T ] && break
    sleep 0.1
  done
  [ -n "$pid" ] && stopped+=("$pid")
  t0=$(now)
  await "$job" "replay, rank $k frozen"
}

replay() {
  local k others
  for k in 1 2; do
    replay_run "$k" 40
    others=(0 1 2)
    unset "others[$k]"
    named "$work/replay.err" "$k" "stopped responding" "${others[@]}"
    replay_records_intact "$work/rec/rec" 3 >"$work/py" 2>&1 && ok "replay, rank $k frozen: records intact" ||
      { bad "replay, rank $k frozen: records"; sed 's/^/  | /' "$work/py" | tail -5; }
    # Rank 0's JSON: incomplete, the cause, and how far rank 0 got, as its records file says.
    json_assert "$work/rec/replay.json" "d['complete'] is False" \
      "'rank $k' in d['error'] and 'stopped responding' in d['error']" \
      "0 < d['rank0']['records_done'] < d['rank0']['records_planned']" \
      "d['rank0']['records_written'] == len(open('$work/rec/rec.rank0.csv').readlines()) - 1" \
      "d['files']['records'][0].endswith('rec.rank0.csv')"
  done
}

"$tool"
finish
