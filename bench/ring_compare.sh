#!/usr/bin/env bash
# ring_compare.sh: `dlc-bench ring` (all-reduce) against Open MPI's MPI_Allreduce with its ring
# algorithm forced, both over UCX with the same UCX_TLS, in ONE run, the two tools alternating
# round by round; on this host (tcp, shared memory) and on the namespace star with a tbf on
# every port (scripts/netns-star.sh), whose rate is the physical limit of busbw there. The MPI
# side is bench/mpi_collective.c (timed like nccl-tests); bench/ompi_coll_probe.c proves in a
# separate run which all-reduce algorithm Open MPI really ran. bench/ring_report.py writes the
# JSON (ratios per size, per N, per fabric) and the PNG.
set -euo pipefail
export PATH="/usr/bin:/bin:/usr/sbin:/sbin:$PATH"  # Debian's python3 with matplotlib

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
orig_args="$*"

usage() {
  cat <<'EOF'
usage: bench/ring_compare.sh OUT.json [--ranks "2 4"] [--rounds R] [--sizes 4K:64M]
                             [--png OUT.png] [--no-build] [options]

Per round, for every fabric and every N: dlc-bench ring -c 0 and mpi_collective -c 0, the order
of the two flipping every round; after the rounds one checked pass (-c 1) of each tool per
fabric and N reports #wrong. Open MPI runs as
  mpirun --allow-run-as-root --oversubscribe -np N --mca pml ucx
         --mca pml_ucx_tls any --mca pml_ucx_devices any --mca coll_tuned_use_dynamic_rules 1
         --mca coll_tuned_allreduce_algorithm 4 -x UCX_TLS=...
and a verification run per fabric and N (bench/ompi_coll_probe.c preloaded, coll_base and
pml_base verbose) records which pml, which coll component and which all-reduce algorithm ran.

Fabrics (--tls, default "tcp sm"; both tools get the same UCX environment):
  tcp    UCX_TLS=tcp,self UCX_NET_DEVICES=lo   (dlc-bench --ucx-tls tcp,self)
  sm     UCX_TLS=sm,self                       (dlc-bench --ucx-tls sm,self)
  posix  UCX_TLS=posix,self                    (dlc-bench --ucx-tls posix,self)
  star   (root; --no-star to skip) scripts/netns-star.sh with a tbf on every port at each
         --star-rates rate, ranks started by scripts/star-run.sh, UCX_TLS=tcp,self; Open MPI
         there too (MPMD, one `ip netns exec` per rank; --no-star-mpi to skip): its PMIx
         client reaches mpirun over TCP, so the star gets one more bridge port, toward this
         namespace, that carries only PMIx's start-up traffic (no tbf, no rank's data).

Options:
  --collective NAME  allreduce (default: Open MPI's ring forced, verified), broadcast, reduce,
                     gather or scatter (root 0; Open MPI's own choice of algorithm, not forced)
  --ranks LIST       N values (default "2 4")
  --rounds R         rounds (default 3)
  --sizes MIN:MAX    host sweep, K/M/G = powers of 1024 (default 4K:64M), factor -f
  -f FACTOR          sweep factor (default 2)
  -n ITERS, -w WARM  timed iterations and warm-up per size (default 10, 2), both tools
  --tls LIST         host fabrics (default "tcp sm"; "" for none)
  --star-rates LIST  tbf rates (default "200mbit"); --star-sizes MIN:MAX (default 1M:16M);
                     --star-n ITERS (default 5), --star-w WARM (default 1)
  --star-burst B, --star-limit L   tbf burst and limit (default 32kb, 1mb: 40 ms at 200 Mbit/s)
  --star-fair        ports that share their rate between source hosts (netns-star.sh --fair:
                     an htb at the same rate, deficit round robin between the senders, each
                     with its own FIFO of --star-limit) instead of one FIFO tbf
  --star-fair-flows  the same between TCP flows (netns-star.sh --fair-flows): a flow's ACKs
                     then never queue behind another flow's data
  --no-star, --no-star-mpi
  --idle MODE        dlc-bench --idle (default: its own, auto)
  --segment BYTES    dlc-bench --segment (default: its own)
  --ucx-env "V=X .." more UCX environment for BOTH tools everywhere, e.g. UCX_RNDV_THRESH=inf
                     (UCX's rendezvous over tcp waits for a handshake that queues behind the
                     data of the opposite direction on the star; see bench/README.md)
  --mpi-bind POLICY  mpirun --bind-to POLICY (default: Open MPI's own policy, which binds each
                     rank to a core up to 2 ranks and does not bind an oversubscribed node;
                     dlc-bench does not pin its ranks)
  --timeout S        bound on every single run, both tools (default 900; dlc-bench's own
                     --timeout, the longest one wait, is 120)
  --build DIR        dlc-bench's build directory (default build/); --no-build: measure what
                     is there (else: nice -n 10 cmake --build DIR -j2 --target dlc-bench first,
                     RelWithDebInfo)
  --logs DIR         keep the raw outputs there (default: a directory under /tmp, named in
                     the report)
  --png OUT.png      busbw against size, both tools (ring_report.py)
  --only TOOL        run only dlcnet or only mpi (development; the report then has no ratios)
EOF
}

die() { echo "ring_compare: $*" >&2; exit 2; }

out=""; ranks_list="2 4"; rounds=3; sizes="4K:64M"; factor=2; iters=10; warm=2
tls_list="tcp sm"; star=1; star_mpi=1; star_rates="200mbit"; star_sizes="1M:16M"
star_iters=5; star_warm=1; star_burst=32kb; star_limit=1mb; idle=""; run_timeout=900
star_fair=()
wait_timeout=120  # dlc-bench --timeout: the longest any one wait of a rank may last
build_dir="$repo/build"; build=1; logs=""; png=""; only=""; mpi_bind=default
segment=""; extra_env_text=; coll=allreduce
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --ranks|--rounds|--sizes|-f|-n|-w|--tls|--star-rates|--star-sizes|--star-n|--star-w|\
    --star-burst|--star-limit|--idle|--timeout|--build|--logs|--png|--only|--mpi-bind|--segment|\
    --ucx-env|--collective)
      [ $# -ge 2 ] || die "$1 needs a value"
      case "$1" in
        --ranks) ranks_list="$2" ;; --rounds) rounds="$2" ;; --sizes) sizes="$2" ;;
        -f) factor="$2" ;; -n) iters="$2" ;; -w) warm="$2" ;; --tls) tls_list="$2" ;;
        --star-rates) star_rates="$2" ;; --star-sizes) star_sizes="$2" ;;
        --star-n) star_iters="$2" ;; --star-w) star_warm="$2" ;;
        --star-burst) star_burst="$2" ;; --star-limit) star_limit="$2" ;;
        --idle) idle="$2" ;; --timeout) run_timeout="$2" ;; --build) build_dir="$2" ;;
        --logs) logs="$2" ;; --png) png="$2" ;; --only) only="$2" ;; --mpi-bind) mpi_bind="$2" ;;
        --segment) segment="$2" ;; --ucx-env) extra_env_text="$2" ;; --collective) coll="$2" ;;
      esac
      shift 2 ;;
    --no-build) build=0; shift ;;
    --no-star) star=0; shift ;;
    --no-star-mpi) star_mpi=0; shift ;;
    --star-fair) star_fair=(--fair); shift ;;
    --star-fair-flows) star_fair=(--fair-flows); shift ;;
    -*) die "unknown option $1 (try --help)" ;;
    *) [ -z "$out" ] || die "one OUT.json only"; out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
case "$only" in ""|dlcnet|mpi) ;; *) die "--only dlcnet|mpi, got '$only'" ;; esac
case "$coll" in allreduce|broadcast|reduce|gather|scatter) ;;
  *) die "--collective allreduce|broadcast|reduce|gather|scatter, got '$coll'" ;; esac
# MPI_Bcast is in place: dlc-bench's broadcast runs the same operation with --in-place (its root
# sends from its input and copies nothing), the other rooted collectives have no such option.
coll_args=(--collective "$coll")
[ "$coll" = broadcast ] && coll_args+=(--in-place)
# want TOOL: whether TOOL runs (--only).
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
for v in "$rounds" "$iters" "$star_iters" "$run_timeout" "$factor"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || die "counts must be >= 1, got '$v'"
done
for v in "$warm" "$star_warm"; do [[ "$v" =~ ^[0-9]+$ ]] || die "warm-up: a count, got '$v'"; done
for n in $ranks_list; do
  if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 2 ]; then die "--ranks: values >= 2, got '$n'"; fi
done
[ -n "$ranks_list" ] || die "--ranks: at least one N"
size_re='^[0-9]+[KMG]?:[0-9]+[KMG]?$'
[[ "$sizes" =~ $size_re ]] || die "--sizes MIN:MAX such as 4K:64M, got '$sizes'"
[[ "$star_sizes" =~ $size_re ]] || die "--star-sizes MIN:MAX such as 1M:16M, got '$star_sizes'"
for t in $tls_list; do
  case "$t" in tcp|sm|posix) ;; *) die "--tls: tcp, sm or posix, got '$t'" ;; esac
done
for r in $star_rates; do
  [[ "$r" =~ ^[0-9]+(\.[0-9]+)?(k|m|g)?bit$ ]] || die "--star-rates: tc rates such as 200mbit, got '$r'"
done
if [ "$star" -eq 1 ] && [ "$(id -u)" -ne 0 ]; then
  die "the star needs root (network namespaces); --no-star to skip it"
fi
for c in mpicc mpirun ompi_info ucx_info python3 timeout; do
  command -v "$c" >/dev/null || { echo "ring_compare: $c not found (Debian: openmpi-bin, libopenmpi-dev, ucx-utils)" >&2; exit 1; }
done
out="$(realpath -m "$out")"
[ -z "$png" ] || png="$(realpath -m "$png")"

# --- dlc-bench -------------------------------------------------------------------------------
bin="$build_dir/bin/dlc-bench"
build_note="not rebuilt (--no-build)"
if [ "$build" -eq 1 ]; then
  mkdir -p "$build_dir"
  blog="$build_dir/ring-compare-build.log"
  echo "ring_compare: building dlc-bench in $build_dir (log $blog)" >&2
  # RelWithDebInfo, the project's default (bench/lib.sh, scripts/test.sh).
  if nice -n 10 cmake -S "$repo" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$blog" 2>&1 &&
    nice -n 10 cmake --build "$build_dir" -j2 --target dlc-bench >>"$blog" 2>&1; then
    build_note="rebuilt (RelWithDebInfo)"
  else
    build_note="rebuild FAILED (see $blog); measured the existing binary"
    echo "ring_compare: warning: $build_note" >&2
  fi
fi
if want dlcnet; then
  [ -x "$bin" ] || { echo "ring_compare: $bin not built (drop --no-build, or --build DIR)" >&2; exit 1; }
  "$bin" ring --help >/dev/null 2>&1 || { echo "ring_compare: $bin has no 'ring' subcommand (is dlc-bench ring merged?)" >&2; exit 1; }
  build_note="$build_note; binary $bin built $(date -u -r "$bin" +%Y-%m-%dT%H:%M:%SZ)"
else
  build_note="dlc-bench not run (--only mpi)"
fi

load_start="$(cut -d' ' -f1-3 /proc/loadavg)"

# --- work directory, the MPI program and the probe --------------------------------------------
if [ -n "$logs" ]; then mkdir -p "$logs"; work="$(realpath "$logs")"; else work="$(mktemp -d /tmp/ring-compare.XXXXXX)"; fi
mkdir -p "$work/raw"
mpi_bin="$work/mpi_collective"
probe="$work/ompi_coll_probe.so"
mpicc -O2 -Wall -Wextra -Werror -o "$mpi_bin" "$here/mpi_collective.c" -lm
cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$probe" "$here/ompi_coll_probe.c" -ldl
echo "ring_compare: raw outputs in $work" >&2

star_prefix="rcmp$$"
star_subnet="10.237.$(( $$ % 200 + 20 ))"
cleanup() {
  if [ "$star" -eq 1 ]; then
    bash "$repo/scripts/netns-star.sh" down --prefix "$star_prefix" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Each mpirun's session directory under $work: another user's mpirun on this host (same uid,
# root) otherwise shares /tmp/ompi.HOST.0 and can remove it under this one.
mkdir -p "$work/ompi-tmp"
mpi_bind_args=(); [ "$mpi_bind" = default ] || mpi_bind_args=(--bind-to "$mpi_bind")
mpi_common=(--allow-run-as-root --oversubscribe "${mpi_bind_args[@]}" --mca orte_tmpdir_base "$work/ompi-tmp"
  --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any
  --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4)
idle_args=(); [ -z "$idle" ] || idle_args=(--idle "$idle")
[ -z "$segment" ] || idle_args+=(--segment "$segment")
read -r -a extra_env <<<"$extra_env_text"
for e in "${extra_env[@]}"; do [[ "$e" =~ ^UCX_[A-Z0-9_]+=.+$ ]] || die "--ucx-env: UCX_NAME=VALUE words, got '$e'"; done

# fabric NAME: sets ucx_env (VAR=VALUE ...) and ucx_tls for a host fabric.
fabric() {
  case "$1" in
    tcp) ucx_tls="tcp,self"; ucx_env=("UCX_TLS=tcp,self" UCX_NET_DEVICES=lo) ;;
    sm) ucx_tls="sm,self"; ucx_env=("UCX_TLS=sm,self") ;;
    posix) ucx_tls="posix,self"; ucx_env=("UCX_TLS=posix,self") ;;
  esac
  ucx_env+=("${extra_env[@]}")
}

# sweep MIN:MAX -> "-b MIN -e MAX -f F"
sweep() { echo "-b ${1%%:*} -e ${1##*:} -f $factor"; }

# record SECTION N ROUND TOOL KIND JSON STATUS SECONDS LOG: one line of the runs' manifest.
: >"$work/runs.tsv"
record() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$work/runs.tsv"; }

# timed CMD...: runs CMD, sets run_status and run_secs; never fails the script.
timed() {
  local t0 t1
  t0=$(date +%s.%N)
  set +e
  "$@"
  run_status=$?
  set -e
  t1=$(date +%s.%N)
  run_secs=$(python3 -c "print(round($t1 - $t0, 2))")
}

# run_dlc SECTION N ROUND KIND CHECK ITERS WARM SIZES: dlc-bench ring on this host.
run_dlc() {
  local section="$1" n="$2" round="$3" kind="$4" check="$5" it="$6" wu="$7" sz="$8"
  local tag="$section-n$n-$kind-r$round-dlcnet" json log
  want dlcnet || return 0
  json="$work/raw/$tag.json"; log="$work/raw/$tag.log"
  # shellcheck disable=SC2046  # the sweep's words
  timed timeout -k 10 "$run_timeout" env "${ucx_env[@]}" "$bin" ring "${coll_args[@]}" \
    $(sweep "$sz") -n "$it" -w "$wu" -c "$check" --spawn --ranks "$n" --transport ucx \
    --ucx-tls "$ucx_tls" --timeout "$wait_timeout" --spawn-timeout "$run_timeout" "${idle_args[@]}" \
    --json "$json" >"$log" 2>&1
  record "$section" "$n" "$round" dlcnet "$kind" "$json" "$run_status" "$run_secs" "$log"
  echo "ring_compare: $tag: exit $run_status, ${run_secs} s" >&2
}

# run_mpi SECTION N ROUND KIND CHECK ITERS WARM SIZES: mpi_collective on this host.
run_mpi() {
  local section="$1" n="$2" round="$3" kind="$4" check="$5" it="$6" wu="$7" sz="$8"
  local tag="$section-n$n-$kind-r$round-mpi" json log x=() e
  want mpi || return 0
  json="$work/raw/$tag.json"; log="$work/raw/$tag.log"
  for e in "${ucx_env[@]}"; do x+=(-x "$e"); done
  # shellcheck disable=SC2046
  timed timeout -k 10 "$run_timeout" mpirun "${mpi_common[@]}" -np "$n" "${x[@]}" "$mpi_bin" \
    -C "$coll" $(sweep "$sz") -n "$it" -w "$wu" -c "$check" -j "$json" >"$log" 2>&1
  record "$section" "$n" "$round" mpi "$kind" "$json" "$run_status" "$run_secs" "$log"
  echo "ring_compare: $tag: exit $run_status, ${run_secs} s" >&2
}

# verify_mpi SECTION N [MPMD ARGS...]: one short run with the probe preloaded and the
# selection verbose; its log is the evidence ring_report.py reads.
verify_mpi() {
  local section="$1" n="$2" log="$work/raw/$1-n$2-verify-mpi.log" x=() e
  want mpi || return 0
  shift 2
  for e in "${ucx_env[@]}"; do x+=(-x "$e"); done
  local args=(-C "$coll" -s 1M -n 3 -w 1 -c 1)
  set +e
  if [ $# -gt 0 ]; then  # the star's MPMD command line, built by the caller
    timeout -k 10 "$run_timeout" env "${pmix_env[@]}" mpirun "${mpi_common[@]}" \
      --mca pml_base_verbose 10 --mca coll_base_verbose 10 "$@" >"$log" 2>&1
  else
    timeout -k 10 "$run_timeout" mpirun "${mpi_common[@]}" -np "$n" \
      --mca pml_base_verbose 10 --mca coll_base_verbose 10 "${x[@]}" -x LD_PRELOAD="$probe" \
      "$mpi_bin" "${args[@]}" >"$log" 2>&1
  fi
  local s=$?
  set -e
  record "$section" "$n" 0 mpi verify "" "$s" 0 "$log"
  echo "ring_compare: $section-n$n verification run: exit $s" >&2
}

# --- this host --------------------------------------------------------------------------------
for t in $tls_list; do
  fabric "$t"
  for n in $ranks_list; do verify_mpi "host-$t" "$n"; done
done
for r in $(seq 1 "$rounds"); do
  for t in $tls_list; do
    fabric "$t"
    for n in $ranks_list; do
      if [ $((r % 2)) -eq 1 ]; then
        run_dlc "host-$t" "$n" "$r" timed 0 "$iters" "$warm" "$sizes"
        run_mpi "host-$t" "$n" "$r" timed 0 "$iters" "$warm" "$sizes"
      else
        run_mpi "host-$t" "$n" "$r" timed 0 "$iters" "$warm" "$sizes"
        run_dlc "host-$t" "$n" "$r" timed 0 "$iters" "$warm" "$sizes"
      fi
    done
  done
done
for t in $tls_list; do
  fabric "$t"
  for n in $ranks_list; do
    run_dlc "host-$t" "$n" 0 checked 1 2 1 "$sizes"
    run_mpi "host-$t" "$n" 0 checked 1 2 1 "$sizes"
  done
done

# --- the namespace star -----------------------------------------------------------------------
max_n=2
for n in $ranks_list; do [ "$n" -gt "$max_n" ] && max_n=$n; done
pmix_env=()
star_port=19000

# star_dlc SECTION N ROUND KIND CHECK: dlc-bench ring, rank i in P-h<i> (scripts/star-run.sh).
star_dlc() {
  local section="$1" n="$2" round="$3" kind="$4" check="$5"
  local tag="$section-n$n-$kind-r$round-dlcnet" json log it="$star_iters" wu="$star_warm"
  want dlcnet || return 0
  [ "$check" -eq 0 ] || { it=2; wu=1; }
  json="$work/raw/$tag.json"; log="$work/raw/$tag.log"
  star_port=$((star_port + 1))
  # shellcheck disable=SC2046
  timed bash "$repo/scripts/star-run.sh" --prefix "$star_prefix" --ranks "$n" --subnet "$star_subnet" \
    --port "$star_port" --timeout "$run_timeout" --logs "$work/raw/$tag.ranks" -- \
    env UCX_TLS=tcp,self "${extra_env[@]}" "$bin" ring "${coll_args[@]}" $(sweep "$star_sizes") -n "$it" -w "$wu" \
    -c "$check" --transport ucx --ucx-tls tcp,self --timeout "$wait_timeout" "${idle_args[@]}" \
    --json "$json" >"$log" 2>&1
  record "$section" "$n" "$round" dlcnet "$kind" "$json" "$run_status" "$run_secs" "$log"
  echo "ring_compare: $tag: exit $run_status, ${run_secs} s" >&2
}

# star_apps N PRELOAD ARGS...: sets mpmd to mpirun's MPMD list, rank i in P-h<i> on device
# h<i>. The environment goes through env(1) in each rank's command: mpirun's -x before the
# first app context reaches that context only.
star_apps() {
  local n="$1" preload="$2" i
  shift 2
  mpmd=()
  for ((i = 0; i < n; i++)); do
    [ "$i" -eq 0 ] || mpmd+=(:)
    mpmd+=(-np 1 ip netns exec "$star_prefix-h$i" env "UCX_TLS=tcp,self" "UCX_NET_DEVICES=h$i" "${extra_env[@]}"
      ${preload:+"LD_PRELOAD=$preload"} "$mpi_bin" "$@")
  done
}

# star_mpi SECTION N ROUND KIND CHECK: mpi_collective on the star (MPMD).
star_mpi_run() {
  local section="$1" n="$2" round="$3" kind="$4" check="$5"
  local tag="$section-n$n-$kind-r$round-mpi" json log it="$star_iters" wu="$star_warm"
  want mpi || return 0
  [ "$check" -eq 0 ] || { it=2; wu=1; }
  json="$work/raw/$tag.json"; log="$work/raw/$tag.log"
  # shellcheck disable=SC2046
  star_apps "$n" "" -C "$coll" $(sweep "$star_sizes") -n "$it" -w "$wu" -c "$check" -j "$json"
  timed timeout -k 10 "$run_timeout" env "${pmix_env[@]}" mpirun "${mpi_common[@]}" \
    "${mpmd[@]}" >"$log" 2>&1
  record "$section" "$n" "$round" mpi "$kind" "$json" "$run_status" "$run_secs" "$log"
  echo "ring_compare: $tag: exit $run_status, ${run_secs} s" >&2
}

# tcp_stream SECTION RATE_BPS: plain TCP flows (python) through the tbf, ~3 s of the port rate
# each: one flow P-h1 -> P-h0 alone, then two opposite flows at once (P-h1 -> P-h0 and
# P-h0 -> P-h1: each port then carries one flow's data and the other's ACKs, as in a ring). What
# TCP alone gets through the ports: measured references, not targets.
tcp_stream() {
  local section="$1" rate_bps="$2" bytes log="$work/raw/$1-tcp-stream.log"
  bytes=$(python3 -c "print(int($rate_bps / 8 * 3))")
  cat >"$work/tcpflow.py" <<'EOF'
import socket, sys, time
mode, host, port, nbytes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
label = sys.argv[5] if len(sys.argv) > 5 else "tcp_stream"
if mode == "recv":
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, port)); s.listen(1); s.settimeout(30)
    c, _ = s.accept(); c.settimeout(30)
    got, t0, buf = 0, None, bytearray(1 << 20)
    while got < nbytes:
        n = c.recv_into(buf)
        if n == 0:
            break
        if t0 is None:
            t0 = time.monotonic()
        got += n
    dt = time.monotonic() - t0
    print(f"{label} bytes {got} seconds {dt:.6f} GBps {got / dt / 1e9:.6f}")
else:
    c = socket.create_connection((host, port), timeout=30)
    data, sent = b"x" * (1 << 20), 0
    while sent < nbytes:
        c.sendall(data); sent += len(data)
    c.close()
EOF
  set +e
  timeout 60 ip netns exec "$star_prefix-h0" python3 "$work/tcpflow.py" recv "$star_subnet.1" 5099 "$bytes" >"$log" 2>&1 &
  local rpid=$!
  sleep 0.5
  timeout 60 ip netns exec "$star_prefix-h1" python3 "$work/tcpflow.py" send "$star_subnet.1" 5099 "$bytes" >>"$log" 2>&1
  wait "$rpid"
  timeout 60 ip netns exec "$star_prefix-h0" python3 "$work/tcpflow.py" recv "$star_subnet.1" 5098 "$bytes" tcp_bidir >>"$log" 2>&1 &
  rpid=$!
  timeout 60 ip netns exec "$star_prefix-h1" python3 "$work/tcpflow.py" recv "$star_subnet.2" 5097 "$bytes" tcp_bidir >>"$log" 2>&1 &
  local rpid2=$!
  sleep 0.5
  timeout 60 ip netns exec "$star_prefix-h1" python3 "$work/tcpflow.py" send "$star_subnet.1" 5098 "$bytes" >>"$log" 2>&1 &
  local spid=$!
  timeout 60 ip netns exec "$star_prefix-h0" python3 "$work/tcpflow.py" send "$star_subnet.2" 5097 "$bytes" >>"$log" 2>&1
  wait "$spid"; wait "$rpid"; wait "$rpid2"
  set -e
}

if [ "$star" -eq 1 ]; then
  for rate in $star_rates; do
    section="star-$rate"
    rate_bps=$(python3 -c "import re; m=re.fullmatch(r'([0-9.]+)(k|m|g)?bit', '$rate'); print(int(float(m.group(1))*{None:1,'k':1e3,'m':1e6,'g':1e9}[m.group(2)]))")
    bash "$repo/scripts/netns-star.sh" up --prefix "$star_prefix" --hosts "$max_n" --rate "$rate" \
      --burst "$star_burst" --limit "$star_limit" --all-ports --subnet "$star_subnet" \
      "${star_fair[@]}" >"$work/raw/$section-star.txt"
    if [ "$star_mpi" -eq 1 ]; then
      # PMIx's client connects to mpirun over TCP: one more bridge port, to this namespace.
      hv="rcmp$$"
      ip link add "$hv" type veth peer name pmx netns "$star_prefix-sw"
      ip -n "$star_prefix-sw" link set pmx master br0
      ip -n "$star_prefix-sw" link set pmx up
      ip addr add "$star_subnet.254/24" dev "$hv"
      ip link set "$hv" up
      pmix_env=(PMIX_MCA_ptl_tcp_remote_connections=1 "PMIX_MCA_ptl_tcp_if_include=$hv")
      echo "pmix port $hv $star_subnet.254 (bridge port pmx, no qdisc)" >>"$work/raw/$section-star.txt"
    fi
    tcp_stream "$section" "$rate_bps"
    ucx_env=("UCX_TLS=tcp,self" "${extra_env[@]}")
    if [ "$star_mpi" -eq 1 ]; then
      for n in $ranks_list; do
        star_apps "$n" "$probe" -C "$coll" -s 1M -n 3 -w 1 -c 1
        verify_mpi "$section" "$n" "${mpmd[@]}"
      done
    fi
    for r in $(seq 1 "$rounds"); do
      for n in $ranks_list; do
        if [ "$star_mpi" -eq 0 ]; then
          star_dlc "$section" "$n" "$r" timed 0
        elif [ $((r % 2)) -eq 1 ]; then
          star_dlc "$section" "$n" "$r" timed 0
          star_mpi_run "$section" "$n" "$r" timed 0
        else
          star_mpi_run "$section" "$n" "$r" timed 0
          star_dlc "$section" "$n" "$r" timed 0
        fi
      done
    done
    for n in $ranks_list; do
      star_dlc "$section" "$n" 0 checked 1
      [ "$star_mpi" -eq 0 ] || star_mpi_run "$section" "$n" 0 checked 1
    done
    for ((i = 0; i < max_n; i++)); do
      echo "port p$i $(ip netns exec "$star_prefix-sw" tc -s qdisc show dev "p$i" | tr '\n' ' ')"
    done >>"$work/raw/$section-star.txt"
    bash "$repo/scripts/netns-star.sh" down --prefix "$star_prefix"
    pmix_env=()
  done
fi

# --- context and report -----------------------------------------------------------------------
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
ompi_alg=$(OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=4 \
  ompi_info --param coll tuned --level 9 2>/dev/null |
  grep -E 'parameter "coll_tuned_(allreduce_algorithm|use_dynamic_rules)"' | sed 's/^ *//' || true)
bench_context "$work/context.json" \
  "load_average_start=$(json_str "$load_start")" \
  "collective=$(json_str "$coll")" \
  "comparison=$(json_str "$(if [ "$coll" = allreduce ]; then echo "dlc-bench ring (allreduce) vs Open MPI MPI_Allreduce, ring forced (coll_tuned algorithm 4)"; else echo "dlc-bench ring ($coll, root 0) vs Open MPI's (root 0, its own algorithm)"; fi), both over UCX with the same UCX_TLS")" \
  "command=$(json_str "bench/ring_compare.sh $orig_args")" \
  "ranks=$(python3 -c 'import json,sys; print(json.dumps([int(x) for x in sys.argv[1].split()]))' "$ranks_list")" \
  "rounds=$rounds" "sizes=$(json_str "$sizes")" "factor=$factor" "iterations=$iters" "warmup=$warm" \
  "host_fabrics=$(json_str "$tls_list")" "star_rates=$(json_str "$(if [ "$star" -eq 1 ]; then echo "$star_rates"; fi)")" \
  "star_sizes=$(json_str "$star_sizes")" "star_iterations=$star_iters" "star_warmup=$star_warm" \
  "star_tbf=$(json_str "$(case "${star_fair[*]}" in --fair) echo "fair ports (htb, DRR between source hosts, netns-star.sh --fair)" ;; --fair-flows) echo "fair ports (htb, DRR between TCP flows, netns-star.sh --fair-flows)" ;; *) echo "tbf" ;; esac) on every port (--all-ports), burst $star_burst, limit $star_limit")" \
  "star_mpi=$( [ "$star" -eq 1 ] && [ "$star_mpi" -eq 1 ] && echo true || echo false)" \
  "dlcnet_idle=$(json_str "${idle:-auto, dlc-bench default}")" \
  "dlcnet_segment=$(json_str "${segment:-dlc-bench default}")" \
  "ucx_env_both_tools=$(json_str "$extra_env_text")" \
  "mpi_bind=$(json_str "$mpi_bind")" \
  "run_timeout_s=$run_timeout" \
  "mpirun_common=$(json_str "mpirun ${mpi_common[*]}")" \
  "mpi_version=$(json_str "$(mpirun --version 2>&1 | head -1)")" \
  "ucx_version=$(json_str "$(ucx_info -v 2>/dev/null | head -1)")" \
  "ompi_info_with_the_forcing_env=$(json_str "$ompi_alg")" \
  "load_average_end=$(json_str "$(cut -d' ' -f1-3 /proc/loadavg)")" \
  "logs=$(json_str "$work")"
python3 "$here/ring_report.py" "$work" "$out" ${png:+--png "$png"}
