# The namespace star's TCP and its bookkeeping (scripts/netns-star.sh, issues 30 and 31):
#  1. up sets the congestion control in every namespace it makes (cubic by default; the host's
#     tcp_allowed_congestion_control must list it for a namespace to choose it: up adds it) and
#     says so; the star's description (/run/dlcnet-star/P.json) says it too; down restores the
#     host's allowed list as it was;
#  2. a fan-in and a dlc-bench lat run on a star set to reno (with --initcwnd 100) find reno,
#     the buffers and the route's initcwnd in their JSON's context: every rank's (tcp_stacks),
#     the local one (tcp_stack) and the star's description (star);
#  3. an up killed by SIGTERM or SIGINT midway exits non-zero and leaves no namespace, link,
#     state file or change to the allowed list behind;
#  4. down --prefix P removes only what up made: P-other stays; without a state file only the
#     names up makes go (Q-h1, not Q-h01 nor Q-other).
# Root only: exits 77 when not root or `ip netns add` fails. $1: the build's bin directory.
source "$(dirname "$0")/../e2e/lib.sh"
star_test scc
B="$BIN/dlc-bench"
allowed=/proc/sys/net/ipv4/tcp_allowed_congestion_control
state_dir=/run/dlcnet-star
P="$prefix" R="${prefix}r" K="${prefix}k" Q="${prefix}q"
star_prefixes+=("$R" "$K")
cleanup() {
  local ns
  for ns in "$P-other" "$Q-h1" "$Q-h01" "$Q-other"; do ip netns delete "$ns" 2>/dev/null; done
  star_cleanup
}
trap cleanup EXIT

# words FILE: the words of FILE, sorted, one line.
words() { tr -s ' \t' '\n' <"$1" | grep -v '^$' | sort | tr '\n' ' '; }
# allowed_restored BEFORE WHAT: the host's allowed list is BEFORE again, but for algorithms
# another star (a state file of $state_dir) still sets: a star of someone else's may be up.
allowed_restored() {
  local before="$1" now extra missing w
  now="$(words "$allowed")"
  missing="$(comm -23 <(tr ' ' '\n' <<<"$before" | grep .) <(tr ' ' '\n' <<<"$now" | grep .))"
  extra=""
  for w in $(comm -13 <(tr ' ' '\n' <<<"$before" | grep .) <(tr ' ' '\n' <<<"$now" | grep .)); do
    grep -qx "cc $w" "$state_dir"/*.state 2>/dev/null || extra+="$w "
  done
  if [ -z "$missing" ] && [ -z "$extra" ]; then ok "$2: the host's allowed list restored ($now)"
  else bad "$2: the host's allowed list is '$now', was '$before'"; fi
}
ns_of() { ip netns list | awk '{print $1}' | grep -E "^$1-" || true; }

# 1. cubic by default, everywhere, and the allowed list as it was after down.
before="$(words "$allowed")"
grep -qw cubic "$allowed" && echo "  | cubic was allowed already: up adds nothing to the list"
check "star up (default --cc)" bash "$STAR" up --prefix "$P" --hosts 2
grep -qx "cc cubic" "$work/out" && ok "up says: cc cubic" || bad "up does not say 'cc cubic'"
for ns in "$P-h0" "$P-h1" "$P-sw"; do
  got="$(ip netns exec "$ns" cat /proc/sys/net/ipv4/tcp_congestion_control)"
  [ "$got" = cubic ] && ok "$ns runs cubic" || bad "$ns runs '$got', not cubic"
done
grep -qw cubic "$allowed" && ok "the host allows cubic while the star is up" ||
  bad "cubic not in the host's allowed list: $(cat "$allowed")"
json_assert "$state_dir/$P.json" "d['congestion_control'] == 'cubic'" \
  "[h['netns'] for h in d['hosts']] == ['$P-h0', '$P-h1']" \
  "d['tbf'] == {'rate': '100mbit', 'burst': '32kb', 'limit': '256kb'} and d['ports'] == 'fifo'" \
  "d['hosts'][0]['port_qdisc'].startswith('qdisc tbf') and d['netem'] is None"
# 4. down removes what up made, and nothing else.
ip netns add "$P-other"
check "star down" bash "$STAR" down --prefix "$P"
[ -z "$(ns_of "$P" | grep -vx "$P-other")" ] && ok "down removed the star" || bad "left: $(ns_of "$P")"
[ -e "/run/netns/$P-other" ] && ok "down left $P-other alone" || bad "down removed $P-other"
[ ! -e "$state_dir/$P.state" ] && [ ! -e "$state_dir/$P.json" ] && ok "down removed the state" ||
  bad "state left in $state_dir"
allowed_restored "$before" "down"
for ns in "$Q-h1" "$Q-h01" "$Q-other"; do ip netns add "$ns"; done
check "down without a state file" bash "$STAR" down --prefix "$Q"
[ ! -e "/run/netns/$Q-h1" ] && ok "down removed $Q-h1" || bad "down left $Q-h1"
[ -e "/run/netns/$Q-h01" ] && [ -e "/run/netns/$Q-other" ] && ok "down left $Q-h01 and $Q-other" ||
  bad "down removed a namespace up never makes: left $(ns_of "$Q" | tr '\n' ' ')"

# 2. reno, found in the JSON of the runs on the star.
check "star up --cc reno --initcwnd 100" bash "$STAR" up --prefix "$R" --hosts 3 --cc reno \
  --initcwnd 100
grep -qx "cc reno" "$work/out" && ok "up says: cc reno" || bad "up does not say 'cc reno'"
check "fanin on the reno star" bash "$RUN" --prefix "$R" --ranks 3 --logs "$work/logs" \
  --timeout 120 -- "$B" fanin --transport ucx --ucx-tls tcp,self -s 4K --burst 2 -n 2 \
  --warmup 0 --solo 1 --timeout 60 -q --json "$work/fan.json"
# stack(S, i): rank i's entry of tcp_stacks is S's, its route toward the star's subnet carries
# the initcwnd and its buffers the star's --initcwnd settings.
json_assert "$work/fan.json" \
  "d['context']['tcp_stack']['congestion_control'] == 'reno'" \
  "[s['ranks'] for s in d['context']['tcp_stacks']] == [[0], [1], [2]]" \
  "all(s['congestion_control'] == 'reno' for s in d['context']['tcp_stacks'])" \
  "[s['netns']['name'] for s in d['context']['tcp_stacks']] == ['$R-h0', '$R-h1', '$R-h2']" \
  "all(s['tcp_rmem'] == [4096, 8388608, 16777216] and s['tcp_slow_start_after_idle'] == 0
       for s in d['context']['tcp_stacks'])" \
  "all({'dst': '10.230.0.0/24', 'dev': f'h{s[\"ranks\"][0]}', 'initcwnd': 100, 'initrwnd': 100,
        'mtu': None} in s['routes'] for s in d['context']['tcp_stacks'])" \
  "[i['name'] for i in d['context']['tcp_stacks'][1]['interfaces']] == ['h1']" \
  "d['context']['star']['congestion_control'] == 'reno' and d['context']['star']['initcwnd'] == 100" \
  "d['context']['star']['file'] == '$state_dir/$R.json'"
ip netns exec "$R-h0" "$B" lat --transport ucx --ucx-tls tcp,self -s 64 -n 50 -p 18871 \
  --timeout 60 >"$work/lat-server.log" 2>&1 &
sleep 0.5
check "dlc-bench lat on the reno star" ip netns exec "$R-h1" "$B" lat 10.230.0.1 --transport ucx \
  --ucx-tls tcp,self -s 64 -n 50 -p 18871 --timeout 60 --json "$work/lat.json"
wait $! || bad "the lat server exited non-zero: $(tail -3 "$work/lat-server.log")"
json_assert "$work/lat.json" \
  "d['context']['tcp_stack']['congestion_control'] == 'reno'" \
  "d['context']['tcp_stack']['netns']['name'] == '$R-h1'" \
  "d['context']['peer_tcp_stack']['netns']['name'] == '$R-h0'" \
  "d['context']['peer_tcp_stack']['congestion_control'] == 'reno'" \
  "d['context']['star']['prefix'] == '$R'"
check "reno star down" bash "$STAR" down --prefix "$R"

# 3. SIGTERM or SIGINT midway through up: everything it made removed, the allowed list
# restored. Job control on for the launch: a non-interactive shell's background job would
# ignore SIGINT.
links_before="$(ip -o link | awk -F': ' '{print $2}' | sort | tr '\n' ' ')"
for sig in TERM INT; do
  set -m
  bash "$STAR" up --prefix "$K" --hosts 60 --fair-flows >"$work/kill.out" 2>&1 &
  up_pid=$!
  set +m
  for _ in $(seq 300); do [ "$(ns_of "$K" | wc -l)" -ge 4 ] && break; sleep 0.05; done
  made="$(ns_of "$K" | wc -l)"
  kill -"$sig" "$up_pid"
  wait "$up_pid"
  rc=$?
  [ "$made" -ge 4 ] && [ "$made" -lt 61 ] && ok "up killed by SIG$sig midway ($made namespaces made)" ||
    bad "up was not killed midway by SIG$sig ($made namespaces)"
  [ "$rc" -ne 0 ] && ok "the up killed by SIG$sig exits $rc" || bad "the up killed by SIG$sig exits 0"
  [ -z "$(ns_of "$K")" ] && ok "no namespace of the killed up remains" ||
    bad "left after SIG$sig: $(ns_of "$K" | tr '\n' ' ')"
  [ "$(ip -o link | awk -F': ' '{print $2}' | sort | tr '\n' ' ')" = "$links_before" ] &&
    ok "no link of the killed up remains" || bad "the host's links changed after SIG$sig"
  [ ! -e "$state_dir/$K.state" ] && ok "no state of the killed up remains" ||
    bad "$state_dir/$K.state left after SIG$sig"
  allowed_restored "$before" "the up killed by SIG$sig"
done
finish
