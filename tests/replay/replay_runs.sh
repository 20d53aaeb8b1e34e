# dlc-replay end to end on the bundled LeNet-5 job (2 workers, 1 server, 3 iterations):
# $1 transport: ucx (host: shared memory, and tcp) or verbs (needs an RDMA device: exit 77);
# $2 launcher: spawn (--spawn) or mpirun (Open MPI). Each run is checked by check_run.py.
source "$(dirname "$0")/../e2e/lib.sh"
transport="$1"
launcher="$2"
here="$(cd "$(dirname "$0")" && pwd)"
job="$here/../../examples/lenet5-2w1s"
B="$BIN/dlc-replay"
replay_transport "$transport" "$launcher"

# run NAME CHECK-ARGS -- DLC-REPLAY-ARGS...: one replay, then its checks.
run() {
  local name="$1" check_args="$2"
  shift 3
  local out="$work/$name"
  mkdir -p "$out"
  local cmd=("$B" "$job" "${T[@]}" --json "$out/r.json" --records "$out/rec.csv" \
             --fct "$out/fct.txt" --calibration "$work/c.json" --timeout 120 "$@")
  if [ "$launcher" = mpirun ]; then
    cmd=(mpirun --allow-run-as-root --oversubscribe --bind-to none -np 3 "${cmd[@]}")
  else
    cmd+=(--spawn)
  fi
  if timeout 600 "${cmd[@]}" >"$out/stdout" 2>"$out/stderr"; then
    ok "$name: exit 0"
  else
    bad "$name: exit $?"
    sed 's/^/  | /' "$out/stdout" "$out/stderr" | tail -30
    return
  fi
  grep -q "^# OK: " "$out/stdout" && ok "$name: report says OK" || bad "$name: no OK line"
  grep -q "per iteration" "$out/stdout" && ok "$name: side-by-side table" || bad "$name: no table"
  grep -q "^#   iter_time \[msec\]: " "$out/stdout" && ok "$name: legend" || bad "$name: no legend"
  # The fidelity verdict after the OK line, the same in the JSON; unreliable comes with a
  # warning naming the figures (which verdict depends on this host: tests assert behaviour).
  local v
  v=$(sed -n 's/^# fidelity: \([a-z_]*\): .*/\1/p' "$out/stdout")
  case "$v" in
    reliable|unreliable|no_think_times) ok "$name: fidelity verdict '$v'" ;;
    *) bad "$name: no fidelity verdict" ;;
  esac
  [ "$v" != unreliable ] || grep -q "^# WARNING: the replay's iter_time, computation" \
    "$out/stdout" && ok "$name: a warning when unreliable" || bad "$name: unreliable, no warning"
  json_assert "$out/r.json" "d['fidelity']['verdict'] == '$v'" \
    "(d['fidelity']['verdict'] == 'unreliable') == bool(d['fidelity']['unreliable_figures'])" \
    "d['fidelity']['sched_error_p99_s'] == d['scheduling_error_s']['p99']"
  json_assert "$out/r.json" \
    "d['replay']['mode'] != 'asap' or d['fidelity']['verdict'] == 'no_think_times'" \
    "d['replay']['mode'] == 'asap' or d['fidelity']['think_times'] > 0"
  if python3 "$here/check_run.py" "$job" "$out/r.json" "$out/rec" "$out/fct.txt" $check_args \
      >"$out/check" 2>&1; then
    ok "$name: $(tail -1 "$out/check")"
  else
    bad "$name: checks"
    sed 's/^/  | /' "$out/check" | tail -20
  fi
  [ "$launcher" != mpirun ] || json_assert "$out/r.json" "d['replay']['rank_source']=='open-mpi'"
}

# A made-up calibration for --fct (HPCC's fct and standalone fct) and the prediction below.
echo '{"link_rate_Bps": 1e9, "base_latency_s": 5e-6}' >"$work/c.json"
run send "" -- --op send --export-flows "$work/flows.txt"
# The flows out and back in: the model predicts the exported flow.txt, dlc-compare joins every
# message of the map with its prediction (the calibration is made up: only the join is checked).
if [ -x "$BIN/dlc-compare" ]; then
  check "predict the exported flows" "$BIN/dlc-compare" predict "$work/flows.txt" \
    --calibration "$work/c.json" --out "$work/pred.txt" --sharing connection
  check "compare with the prediction" "$BIN/dlc-compare" "$work/flows.txt.map" "$work/pred.txt" \
    --calibration "$work/c.json" --json "$work/cmp.json"
  json_assert "$work/cmp.json" \
    "d['flows']['compared'] + d['flows']['unmeasurable'] == json.load(open('$work/send/r.json'))['messages']['flows']" \
    "d['flows']['unpredicted'] == 0 and d['measured']['tool'] == 'dlc-replay'" \
    "d['group_kind'] == 'iteration' and [g['group'] for g in d['groups']] == [1, 2, 3]" \
    "all(g['messages'] == 64 for g in d['groups'])"
  # The job predicted from its dependencies, named after the replay's flow map.
  check "predict the job from its dependencies" "$BIN/dlc-compare" predict-job "$job" \
    --like "$work/flows.txt.map" --calibration "$work/c.json" --out "$work/pred-job.txt"
  check "compare with it (--free-starts)" "$BIN/dlc-compare" "$work/flows.txt.map" \
    "$work/pred-job.txt" --calibration "$work/c.json" --free-starts --json "$work/cmp-job.json"
  json_assert "$work/cmp-job.json" \
    "d['flows']['compared'] + d['flows']['unmeasurable'] == json.load(open('$work/send/r.json'))['messages']['flows']" \
    "d['predicted_starts'] == 'its own' and [g['group'] for g in d['groups']] == [1, 2, 3]"
  check_fails "a dependency-driven prediction needs --free-starts" "field start_ns" \
    "$BIN/dlc-compare" "$work/flows.txt.map" "$work/pred-job.txt" --calibration "$work/c.json"
fi
if [ "$launcher" = spawn ]; then
  run write "--op write" -- --op write
  # Looping is transport-neutral: once, where runs are cheap.
  [ "$transport" = verbs ] || run loop-asap "--iterations 5" -- --mode asap --iterations 5
  json_assert "$work/send/r.json" "d['replay']['rank_source']=='spawn'"
  # The fidelity figure of this host, for the log (tests assert behaviour, not speed).
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['scheduling_error_s']; print(f\"scheduling error p50 {s['p50']*1e6:.2f} us, p99 {s['p99']*1e6:.2f} us, max {s['max']*1e6:.2f} us\")" "$work/send/r.json"
fi
finish
