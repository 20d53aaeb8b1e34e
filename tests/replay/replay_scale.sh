# dlc-replay of a job of many ranks on this host: a synthetic LeNet-5 job (dlc-trace synth) of
# RANKS ranks (RANKS - 8 workers, 8 servers, one iteration), --spawn, UCX over TLS, waiting
# ranks with IDLE (the ranks outnumber the CPUs). The whole run must end within MAX_WALL_S
# seconds with rank 0's verdict OK, and the JSON must time every set-up phase (`setup`), with
# the set-up before the run within MAX_SETUP_S and rank 0's bootstrap frames a whole number of
# rounds of RANKS - 1 (one frame per other rank and collective: linear in the ranks).
# Arguments: BIN RANKS TLS IDLE MAX_SETUP_S MAX_WALL_S
source "$(dirname "$0")/../e2e/lib.sh"
n="$1" tls="$2" idle="$3" max_setup_s="$4" max_wall_s="$5"
job="$work/lenet5-$n"

check "synth: $((n - 8)) workers, 8 servers" "$BIN/dlc-trace" synth -o "$job" -w $((n - 8)) -s 8 \
  -n 1 -m lenet5 --seed 1
t0="$(date +%s.%N)"
# The bound is the test's, not the tool's: a hung set-up ends here, and is a failure.
check "replay of $n ranks ($tls, --idle $idle)" timeout "$max_wall_s" "$BIN/dlc-replay" "$job" \
  --spawn --transport ucx --ucx-tls "$tls" --idle "$idle" --timeout 60 --json "$work/r.json"
t1="$(date +%s.%N)"
cp "$work/out" "$work/replay.out"
echo "wall time: $(python3 -c "print(round($t1 - $t0, 2))") s; $(grep '^# job phases' "$work/replay.out")"
grep -q "^# OK: " "$work/replay.out" && ok "report says OK" || bad "no OK line"
grep -q "^# job phases on rank 0: join .*, gather .* ($n ranks; set-up " "$work/replay.out" &&
  ok "console: one line of phases" || bad "console: no phases line"
json_assert "$work/r.json" \
  "d['setup']['ranks'] == $n and len(d['clock']) == $n" \
  "all(d['setup'][p + '_s'] > 0 for p in ['join', 'agree', 'connect', 'clocks_before', 'run', 'clocks_after', 'gather'])" \
  "all(d['setup'][k] == v for k, v in d['phases_s'].items())" \
  "abs(d['setup']['setup_s'] - sum(d['setup'][p + '_s'] for p in ['join', 'agree', 'connect', 'clocks_before', 'release'])) < 1e-9" \
  "d['setup']['setup_s'] < $max_setup_s" \
  "d['setup']['bootstrap_frames_received'] % ($n - 1) == 0 and d['setup']['bootstrap_frames_received'] // ($n - 1) < 32"
finish
