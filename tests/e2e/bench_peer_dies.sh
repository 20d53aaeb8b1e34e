# A dlc-bench peer killed in the middle of a sweep (separate server and client processes over
# UCX on this host): the survivor stops within seconds, names the dead peer (rank and host),
# and the client's JSON keeps every size measured before, marked incomplete.
# $1: the UCX transports (tcp; sm: shared memory, which cannot see a dead peer by itself;
# default: UCX_TLS unset, which on one host is shared memory too).
source "$(dirname "$0")/lib.sh"
tls="$1"
B="$BIN/dlc-bench"
T=(--transport ucx --timeout 30)
[ "$tls" = default ] || T+=(--ucx-tls "$tls")

# sweep VICTIM: runs a sweep, SIGKILLs VICTIM (server or client) once the client printed three
# rows, and leaves the survivor's stderr in $work/survivor.err and its exit in $rc, $secs.
sweep() {
  local victim="$1" port srv cli
  port=$(free_port)
  rm -f "$work/sweep.json"
  "$B" lat -a -n 3000 -p "$port" "${T[@]}" >"$work/srv.out" 2>"$work/srv.err" &
  srv=$!
  "$B" lat 127.0.0.1 -a -n 3000 -p "$port" "${T[@]}" --json "$work/sweep.json" \
    >"$work/cli.out" 2>"$work/cli.err" &
  cli=$!
  rows=0
  for _ in $(seq 600); do
    rows=$(grep -Ec '^ +[0-9]+ +3000 ' "$work/cli.out")
    [ "$rows" -ge 3 ] && break
    sleep 0.1
  done
  [ "$rows" -ge 3 ] || bad "$victim: the client printed no three rows within 60 s"
  local dead=$srv survivor=$cli
  [ "$victim" = client ] && dead=$cli && survivor=$srv
  kill -9 "$dead"
  wait "$dead" 2>/dev/null
  local t0=$SECONDS
  # The survivor's own bound is --timeout (30 s); give it a little more, then stop it.
  for _ in $(seq 450); do kill -0 "$survivor" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$survivor" 2>/dev/null && { bad "$victim killed: the survivor still runs after 45 s"; kill -9 "$survivor"; }
  wait "$survivor"
  rc=$?
  secs=$((SECONDS - t0))
  [ "$victim" = server ] && cp "$work/cli.err" "$work/survivor.err" || cp "$work/srv.err" "$work/survivor.err"
}

show() { sed 's/^/  | /' "$work/survivor.err" | tail -8; }

sweep server
[ "$rc" -ne 0 ] && ok "server killed: the client exits non-zero" || bad "server killed: the client exited 0"
[ "$secs" -le 5 ] && ok "server killed: the client stopped within 5 s ($secs s)" ||
  bad "server killed: the client took $secs s"
grep -Eq "error: coordinator 127\.0\.0\.1:[0-9]+ \(rank 0\) is gone" "$work/survivor.err" &&
  ok "server killed: the client names it (rank 0 and its host)" ||
  { bad "server killed: the client does not name it"; show; }
warnings=$(grep -c "UCX  WARN\|UCX  ERROR" "$work/survivor.err")
[ "$warnings" -le 2 ] && ok "server killed: $warnings UCX warnings" ||
  { bad "server killed: $warnings UCX warnings"; show; }
sizes=$(grep -Ec '^ +[0-9]+ +3000 ' "$work/cli.out")
json_assert "$work/sweep.json" "d['complete'] is False" "'rank 0' in d['error']" \
  "[r['bytes'] for r in d['results']] == [2**e for e in range(1, $sizes + 1)]" \
  "all(r['iterations'] == 3000 for r in d['results'])"

sweep client
[ "$rc" -ne 0 ] && ok "client killed: the server exits non-zero" || bad "client killed: the server exited 0"
[ "$secs" -le 5 ] && ok "client killed: the server stopped within 5 s ($secs s)" ||
  bad "client killed: the server took $secs s"
grep -Eq "error: rank 1 \(127\.0\.0\.1:[0-9]+\) is gone" "$work/survivor.err" &&
  ok "client killed: the server names it (rank 1 and its host)" ||
  { bad "client killed: the server does not name it"; show; }
warnings=$(grep -c "UCX  WARN\|UCX  ERROR" "$work/survivor.err")
[ "$warnings" -le 2 ] && ok "client killed: $warnings UCX warnings" ||
  { bad "client killed: $warnings UCX warnings"; show; }
finish
