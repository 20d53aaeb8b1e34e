#!/usr/bin/env bash
# run_pairs.sh: run a benchmark plan of server/client pairs for several rounds, alternating
# the tools, and log every run's raw output plus a manifest for compare_report.py.
#
# It runs where it is started: on the host, or inside the Soft-RoCE guest when started by
# scripts/rdma-run.sh (perftest_compare.sh and ucx_compare.sh do that, once per comparison,
# so that every tool of a test sees the same guest, device and load).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: run_pairs.sh PLAN OUTDIR ROUNDS

PLAN is a tab-separated file, one run per line (lines starting with # are ignored):
  TEST  TOOL  TIMEOUT_S  SERVER_CMD  CLIENT_CMD
The commands are shell text. Placeholders replaced before each run:
  @ADDR@  server address ($DLCNET_GUEST_ADDR in a guest, else 127.0.0.1)
  @GID@   RoCE v2 GID index ($DLCNET_GID_INDEX; empty on the host)
  @PORT@  a TCP port unique to this run
  @OUT@   a file prefix unique to this run, inside OUTDIR (e.g. for --json @OUT@.json)

Each round runs every test once per tool. The tools of a test run back to back, and their
order flips every round (A B, then B A, ...), so a slow or busy phase of the shared machine
does not always fall on the same tool.

Writes OUTDIR/manifest.tsv (one line per run: round, test, tool, rc of client and server,
wall seconds, user+sys CPU seconds of server and client, the commands, file prefix),
OUTDIR/runNNN.{server,client}.{out,err,time} and OUTDIR/env.txt (where it ran).
EOF
}

if [ $# -ne 3 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  usage
  [ $# -eq 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; } && exit 0
  exit 2
fi
plan="$1"
outdir="$2"
rounds="$3"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "run_pairs: ROUNDS must be >= 1, got '$rounds'" >&2; exit 2; }
[ -r "$plan" ] || { echo "run_pairs: cannot read plan $plan" >&2; exit 2; }
mkdir -p "$outdir"

addr="${DLCNET_GUEST_ADDR:-127.0.0.1}"
gid="${DLCNET_GID_INDEX:-}"
# Ports: a block well away from both tools' defaults (perftest 18515, ucx_perftest 13337,
# dlc-bench's own) so that a run never meets a lingering listener of the previous one.
port_base="${RUN_PAIRS_PORT_BASE:-20100}"
GNU_TIME=/usr/bin/time   # GNU time: CPU seconds of each side (the server's spinning matters)
# CPU pinning, the same for every tool: server on one CPU, client on another. Both sides of
# a ping-pong spin; left to the scheduler they sometimes share one CPU, and then every round
# trip waits for a time slice to end (seen: medians of ~4 ms = one 250 Hz tick instead of
# ~50 us in the guest, for perftest and dlc-bench alike). RUN_PAIRS_PIN="SERVER_CPU CLIENT_CPU",
# or "none" to let the scheduler place them.
pin="${RUN_PAIRS_PIN:-}"
if [ -z "$pin" ]; then
  if [ "$(nproc)" -ge 2 ]; then pin="0 1"; else pin=none; fi
fi
if [ "$pin" = none ]; then
  pin_server=(); pin_client=()
else
  read -r pin_s pin_c <<<"$pin"
  pin_server=(taskset -c "$pin_s"); pin_client=(taskset -c "$pin_c")
fi

# Where this ran: the report's context.
{
  echo "uname=$(uname -srm)"
  echo "hostname=$(hostname)"
  echo "nproc=$(nproc)"
  echo "loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "in_guest=${DLCNET_IN_GUEST:-0}"
  echo "addr=$addr"
  echo "gid_index=$gid"
  echo "pin=$pin"
  echo "date_start=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$outdir/env.txt"

# Read the plan once.
tests=(); tools=(); timeouts=(); servers=(); clients=()
while IFS=$'\t' read -r t tool to srv cli; do
  [ -n "$t" ] || continue
  case "$t" in \#*) continue ;; esac
  tests+=("$t"); tools+=("$tool"); timeouts+=("$to"); servers+=("$srv"); clients+=("$cli")
done <"$plan"
[ "${#tests[@]}" -gt 0 ] || { echo "run_pairs: empty plan" >&2; exit 2; }

# Unique test names, in plan order.
order=()
for t in "${tests[@]}"; do
  case " ${order[*]} " in *" $t "*) ;; *) order+=("$t") ;; esac
done

subst() {  # subst TEXT PORT OUT -> TEXT with the placeholders filled in
  local s="$1"
  s="${s//@ADDR@/$addr}"; s="${s//@GID@/$gid}"; s="${s//@PORT@/$2}"; s="${s//@OUT@/$3}"
  printf '%s' "$s"
}

wait_listen() {  # wait_listen PORT PID: until something listens on PORT (or PID died)
  local port="$1" pid="$2" i
  for ((i = 0; i < 600; i++)); do   # up to 60 s: a TCG guest starts processes slowly
    if ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then return 0; fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

manifest="$outdir/manifest.tsv"
printf 'run\tround\ttest\ttool\trc_client\trc_server\twall_s\tserver_cpu_s\tclient_cpu_s\tprefix\tserver_cmd\tclient_cmd\n' >"$manifest"

cpu_of() {  # cpu_of TIMEFILE -> user+sys seconds from GNU time's "%U %S" line, or ""
  [ -s "$1" ] || return 0
  awk 'NF >= 2 && $1 ~ /^[0-9.]+$/ { printf "%.3f", $1 + $2; exit }' "$1"
}

run_no=0
for ((r = 1; r <= rounds; r++)); do
  for t in "${order[@]}"; do
    idx=()
    for i in "${!tests[@]}"; do [ "${tests[$i]}" = "$t" ] && idx+=("$i"); done
    # Flip the tool order every round.
    if [ $((r % 2)) -eq 0 ]; then
      rev=(); for ((k = ${#idx[@]} - 1; k >= 0; k--)); do rev+=("${idx[$k]}"); done; idx=("${rev[@]}")
    fi
    for i in "${idx[@]}"; do
      run_no=$((run_no + 1))
      port=$((port_base + run_no))
      prefix="$outdir/$(printf 'run%03d' "$run_no")"
      scmd="$(subst "${servers[$i]}" "$port" "$prefix")"
      ccmd="$(subst "${clients[$i]}" "$port" "$prefix")"
      to="${timeouts[$i]}"
      echo "run_pairs: round $r/$rounds  $t  ${tools[$i]}" >&2
      t0=$(date +%s.%N)
      # Each side runs under GNU time (CPU seconds) and timeout (a hung peer must not eat the
      # whole guest run); exec keeps the measured process the tool itself.
      $GNU_TIME -f '%U %S %e' -o "$prefix.server.time" "${pin_server[@]}" \
        timeout -k 5 "$to" bash -c "exec $scmd" >"$prefix.server.out" 2>"$prefix.server.err" &
      spid=$!
      rc_c=0; rc_s=0
      if wait_listen "$port" "$spid"; then
        $GNU_TIME -f '%U %S %e' -o "$prefix.client.time" "${pin_client[@]}" \
          timeout -k 5 "$to" bash -c "exec $ccmd" >"$prefix.client.out" 2>"$prefix.client.err" \
          || rc_c=$?
      else
        echo "run_pairs: server never listened on port $port" >"$prefix.client.err"
        rc_c=125
        kill "$spid" 2>/dev/null || true
      fi
      wait "$spid" || rc_s=$?
      t1=$(date +%s.%N)
      wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
      [ "$rc_c" -eq 0 ] && [ "$rc_s" -eq 0 ] || echo "run_pairs:   FAILED (client rc $rc_c, server rc $rc_s): see $prefix.*" >&2
      printf '%d\t%d\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run_no" "$r" "$t" "${tools[$i]}" \
        "$rc_c" "$rc_s" "$wall" "$(cpu_of "$prefix.server.time")" "$(cpu_of "$prefix.client.time")" \
        "$prefix" "$scmd" "$ccmd" >>"$manifest"
    done
  done
done
{
  echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "date_end=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >>"$outdir/env.txt"
echo "run_pairs: $run_no runs done; manifest $manifest" >&2
