#!/usr/bin/env bash
# rdma-run.sh: run a command where an RDMA device exists.
#
# The build machine's kernel has no RDMA support, so unless the host already has an
# RDMA device this boots a QEMU guest (software emulation) with Debian's 6.1 kernel,
# chroots it into the host's own root over virtio-9p, creates a Soft-RoCE device rxe0
# and runs the command there, in the caller's directory, with the host's binaries.
# The command's stdout/stderr stream to ours and its exit status becomes ours.
# What was verified on the build machine: ../shared/docs/softroce-on-this-machine.md (beside
# the repository).
#
# Two-guest mode boots two guests joined by a virtual wire (QEMU -netdev dgram over
# unix sockets) for real host-to-host RoCE v2, optionally through netem and a tbf on guest
# 0's link.
#
# Files: scripts/guest/prepare.sh (kernel fetch + initramfs build, cached),
#        scripts/guest/init.sh (initramfs /init), scripts/guest/stage2.sh (in-guest
#        setup and command runner), scripts/guest/gid-index.sh (RoCE v2 GID index).
set -euo pipefail

prog="rdma-run"
# depmod, modprobe, ip... live in sbin directories, which a non-login PATH may lack.
export PATH="${PATH:-/usr/bin:/bin}:/usr/local/sbin:/usr/sbin:/sbin"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
guest_dir="$here/guest"

usage() {
  cat <<'EOF'
usage: rdma-run.sh [OPTIONS] -- CMD [ARGS...]
       rdma-run.sh --guests 2 [OPTIONS] -- 'SHELL CMD FOR GUEST 0' 'SHELL CMD FOR GUEST 1'

Runs CMD where an RDMA device exists and exits with CMD's status.  If the host has
an RDMA device, CMD runs directly; otherwise in a QEMU guest with Soft-RoCE (rxe0).

Options:
  --timeout SECONDS  bound on the whole run incl. guest boot (default 900); on expiry
                     the guest is killed and the exit status is 124
  --mem MB           guest memory (default 2048 for one guest, 1536 each for two)
  --smp N            guest CPUs (default 2)
  --guests N         1 (default) or 2; with 2, one shell command per guest (bash -c)
  --netem 'ARGS'     two-guest mode: `tc qdisc add dev eth0 root netem ARGS` in both
                     guests, e.g. --netem 'delay 1ms loss 1%'
  --tbf 'ARGS'       two-guest mode: `tc qdisc add dev eth0 root tbf ARGS` in guest 0
                     only (its sending link: a bottleneck queue for what guest 0's
                     ranks send to guest 1), e.g. --tbf 'rate 50mbit burst 32kb limit 1mb';
                     with --netem too, guest 0's netem is the root and the tbf its child
  --grace SECONDS    two-guest mode: when one command fails, the other guest gets this
                     long to finish before it is stopped (default 30; status 143)
  --env NAME[=VAL]   pass variable NAME (from our environment, or set to VAL) into the
                     guest; may be repeated.  CI, DLCNET_*, UCX_*, OMPI_* always pass.
                     Two guests: DLCNET_VERBS_ACK_TIMEOUT defaults to 19 (2.1 s RC ACK
                     timeout; rxe's 67 ms default fails under emulated vCPU stalls).
  --force-guest      use a guest even if the host has an RDMA device
  --accel auto|kvm|tcg  the guest's accelerator (default: DLCNET_GUEST_ACCEL, else auto):
                     auto takes KVM when /dev/kvm opens and answers (KVM_GET_API_VERSION),
                     TCG (software emulation, several times slower) otherwise; tcg where
                     KVM is present but misbehaves
  --print-accel      print the accelerator a guest would use and why, and exit
  --keep             keep the per-run directory (console logs etc.) and print its path
  -v, --verbose      progress and timing messages on stderr
  -h, --help         this text

In the guest CMD sees: DLCNET_RDMA_DEVICE=rxe0, DLCNET_GUEST_ADDR, DLCNET_PEER_ADDR
(one guest: its own address 198.18.0.1; two guests: 198.18.1.1 <-> 198.18.1.2),
DLCNET_GUEST_INDEX, DLCNET_GUEST_COUNT, DLCNET_GID_INDEX (the RoCE v2 IPv4 GID index,
for `ib_*_lat -x`), HOME=/root, a PATH, `ulimit -l unlimited`, and no stdin.
The guest runs the host's own files: the host root is shared read-write over 9p
(CMD's files appear on the host at once), except /usr, which is read-only and cached
in the guest (faster execs).  CMD's stdout/stderr stream to ours; the guest kernel's
console goes to a log that is shown only when the guest fails or times out.
Exit status: CMD's; 124 on timeout; 125 when the guest could not be booted or set up;
2 for bad arguments.  In two-guest mode: 0 only if both commands returned 0, else
the status of the command that failed first; both statuses are printed on stderr.
Environment: DLCNET_GUEST_CACHE (kernel/initramfs cache, default <repo>/build/guest-cache),
DLCNET_GUEST_KERNEL_ARGS (extra guest kernel arguments, e.g. loglevel=7 to debug),
DLCNET_GUEST_BOOT_LIMIT (seconds a guest may take to start its command's set-up, default
120: a guest that hangs in its boot is killed and booted again, once; twice gives 125),
DLCNET_GUEST_FIRST_BOOT_ARGS (kernel arguments of the first boot only, for that test).
EOF
}
bad_usage() { echo "$prog: $*" >&2; echo "(try: rdma-run.sh --help)" >&2; exit 2; }
verbose=0
note() { [ "$verbose" -eq 0 ] || echo "$prog: $*" >&2; }

is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }
need_uint() {  # need_uint VALUE MIN MESSAGE: a whole number >= MIN, else usage error
  if ! is_uint "$1" || [ "$1" -lt "$2" ]; then bad_usage "$3, got '$1'"; fi
}

# ---- arguments --------------------------------------------------------------------
timeout_s=900
mem=""
smp=2
guests=1
netem=""
tbf=""
grace=30
force_guest=0
accel="${DLCNET_GUEST_ACCEL:-auto}"
print_accel=0
keep=0
extra_env=()
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout|--mem|--smp|--guests|--netem|--tbf|--env|--grace|--accel)
      [ $# -ge 2 ] || bad_usage "$1 needs a value"
      opt="$1"; val="$2"; shift 2
      case "$opt" in
        --timeout) need_uint "$val" 1 "--timeout wants seconds > 0"; timeout_s="$val" ;;
        --mem)     need_uint "$val" 256 "--mem wants MB >= 256"; mem="$val" ;;
        --smp)     need_uint "$val" 1 "--smp wants a CPU count >= 1"; smp="$val" ;;
        --guests)  [ "$val" = 1 ] || [ "$val" = 2 ] || bad_usage "--guests must be 1 or 2, got '$val'"; guests="$val" ;;
        --grace)   need_uint "$val" 0 "--grace wants seconds"; grace="$val" ;;
        --accel)   accel="$val" ;;
        --netem)   [ -n "$val" ] || bad_usage "--netem needs tc netem arguments"; netem="$val" ;;
        --tbf)     [ -n "$val" ] || bad_usage "--tbf needs tc tbf arguments"; tbf="$val" ;;
        --env)     [[ "$val" =~ ^[A-Za-z_][A-Za-z0-9_]*(=.*)?$ ]] || bad_usage "--env wants NAME or NAME=VALUE, got '$val'"
                   extra_env+=("$val") ;;
      esac ;;
    --timeout=*|--mem=*|--smp=*|--guests=*|--netem=*|--tbf=*|--env=*|--grace=*|--accel=*)
      # Accept --opt=value too by splitting it.
      set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
    --force-guest) force_guest=1; shift ;;
    --print-accel) print_accel=1; shift ;;
    --keep) keep=1; shift ;;
    -v|--verbose) verbose=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) bad_usage "unknown option '$1'" ;;
    *) break ;;
  esac
done

# ---- accelerator ------------------------------------------------------------------------
# KVM when /dev/kvm opens read-write and answers KVM_GET_API_VERSION (12), so a device node
# left without a working module (or without permission) falls back to TCG with the reason.
kvm_problem() {
  [ -e /dev/kvm ] || { echo "no /dev/kvm"; return; }
  if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then echo "/dev/kvm is not readable and writable by $(id -un)"; return; fi
  local v
  v="$(python3 -c 'import fcntl, os; print(fcntl.ioctl(os.open("/dev/kvm", os.O_RDWR), 0xAE00))' 2>&1)" ||
    { echo "/dev/kvm does not answer: ${v##*$'\n'}"; return; }
  [ "$v" = 12 ] || { echo "/dev/kvm answers API version $v, not 12"; return; }
  # A device that answers can still fail the first vCPU (nested KVM without an MSR QEMU sets:
  # "failed to set MSR 0x10a", then an assertion): start one, paused, and quit.
  local out
  out="$(echo quit | timeout 30 qemu-system-x86_64 -machine pc,accel=kvm -cpu host -S -nodefaults \
    -display none -monitor stdio -m 64 2>&1 >/dev/null)" ||
    echo "QEMU cannot start a KVM vCPU here: $(echo "$out" | grep -m1 -i 'error' || echo "$out" | tail -1)"
}
case "$accel" in
  tcg) accel_reason="requested" ;;
  kvm) problem="$(kvm_problem)"
       [ -z "$problem" ] || bad_usage "--accel kvm: $problem"
       accel_reason="requested" ;;
  auto) problem="$(kvm_problem)"
        if [ -z "$problem" ]; then accel=kvm; accel_reason="/dev/kvm works"
        else accel=tcg; accel_reason="$problem"; fi ;;
  *) bad_usage "--accel (or DLCNET_GUEST_ACCEL) must be auto, kvm or tcg, got '$accel'" ;;
esac
if [ "$print_accel" -eq 1 ]; then echo "$accel ($accel_reason)"; exit 0; fi

[ $# -gt 0 ] || bad_usage "no command given"
if [ "$guests" -eq 2 ]; then
  [ $# -eq 2 ] || bad_usage "--guests 2 wants exactly two shell commands (one per guest), got $#"
else
  [ -z "$netem" ] || bad_usage "--netem needs --guests 2 (traffic inside one rxe device never reaches the netdev's qdisc)"
  [ -z "$tbf" ] || bad_usage "--tbf needs --guests 2 (traffic inside one rxe device never reaches the netdev's qdisc)"
fi
args=("$@")
[ -n "$mem" ] || { [ "$guests" -eq 2 ] && mem=1536 || mem=2048; }

# ---- host with an RDMA device: no guest -----------------------------------------------
host_rdma_device() {
  local d
  for d in /sys/class/infiniband/*; do
    [ -e "$d" ] && { basename "$d"; return 0; }
  done
  if command -v ibv_devices >/dev/null 2>&1; then
    # ibv_devices prints a two-line header, then one line per device.
    d="$(ibv_devices 2>/dev/null | awk 'NR > 2 && NF >= 1 { print $1; exit }')"
    [ -n "$d" ] && { echo "$d"; return 0; }
  fi
  return 1
}

if [ "$guests" -eq 1 ] && [ "$force_guest" -eq 0 ] && dev="$(host_rdma_device)"; then
  note "host has RDMA device $dev; running directly"
  export DLCNET_RDMA_DEVICE="${DLCNET_RDMA_DEVICE:-$dev}"
  for e in "${extra_env[@]}"; do [[ "$e" == *=* ]] && export "${e?}"; done
  ulimit -l unlimited 2>/dev/null || note "could not raise the memlock limit"
  set +e
  timeout -k 10 "$timeout_s" "${args[@]}" </dev/null
  rc=$?
  set -e
  if [ "$rc" -eq 124 ]; then
    echo "$prog: timed out after $timeout_s s running: ${args[*]}" >&2
  fi
  exit "$rc"
fi

# ---- guest: prerequisites, kernel and initramfs ---------------------------------------
command -v qemu-system-x86_64 >/dev/null 2>&1 \
  || { echo "$prog: qemu-system-x86_64 not found; run scripts/install-deps.sh" >&2; exit 125; }
t_start=$SECONDS
kernel=""; initrd=""
prep_out="$("$guest_dir/prepare.sh")" || { echo "$prog: preparing the guest kernel/initramfs failed" >&2; exit 125; }
while IFS='=' read -r k v; do
  case "$k" in KERNEL) kernel="$v" ;; INITRD) initrd="$v" ;; esac
done <<<"$prep_out"
if [ ! -f "$kernel" ] || [ ! -f "$initrd" ]; then
  echo "$prog: prepare.sh gave no kernel/initrd" >&2
  exit 125
fi
note "kernel $kernel, initramfs $initrd ($((SECONDS - t_start)) s)"

# ---- per-run directory -------------------------------------------------------------------
# It must be visible in the guest at the same path (it is: the whole host root is
# shared), its path must not contain blanks (it travels on the kernel command line)
# and unix socket paths inside it must stay under 108 bytes.
base="${TMPDIR:-/tmp}"
if [[ "$base" =~ [[:space:]] ]] || [ "${#base}" -gt 60 ] || [ ! -d "$base" ]; then base=/tmp; fi
run="$(mktemp -d "$base/rdma-run.XXXXXX")"
chmod 755 "$run"

qemu_pids=()
tail_pids=()
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  local p
  for p in "${qemu_pids[@]}" "${tail_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ "$keep" -eq 1 ]; then
    echo "$prog: run directory kept: $run" >&2
  else
    rm -rf "$run"
  fi
}
trap cleanup EXIT
trap 'echo "$prog: interrupted" >&2; exit 130' INT
trap 'echo "$prog: terminated" >&2; exit 143' TERM

# The command's PATH: the caller's, then the system directories (root's sbin ones too),
# each once.
guest_path=""
IFS=: read -r -a path_dirs <<<"${PATH:-}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for d in "${path_dirs[@]}"; do
  [ -n "$d" ] || continue
  case ":$guest_path:" in *":$d:"*) ;; *) guest_path="${guest_path:+$guest_path:}$d" ;; esac
done

# Environment for the command: a clean, sane base plus the pass-through variables.
write_env() {  # write_env FILE INDEX ADDR PEER
  local f="$1" i="$2" addr="$3" peer="$4" name e
  {
    printf 'export PATH=%q\n' "$guest_path"
    printf 'export HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb LANG=C.UTF-8\n'
    for name in $(compgen -e); do
      case "$name" in
        CI|DLCNET_*|UCX_*|OMPI_*) printf 'export %s=%q\n' "$name" "${!name}" ;;
      esac
    done
    for e in "${extra_env[@]}"; do
      if [[ "$e" == *=* ]]; then
        printf 'export %s=%q\n' "${e%%=*}" "${e#*=}"
      elif [ -n "${!e+set}" ]; then
        printf 'export %s=%q\n' "$e" "${!e}"
      fi
    done
    # Two emulated guests: rxe's RC ACK timeout of 67 ms (exponent 14) is shorter than a
    # stalled TCG vCPU, and kernel 6.1 rxe's go-back-N retransmissions then end a send in
    # "remote invalid request" (docs/fanin-roce.md). 19 (2.1 s) unless the caller chose.
    if [ "$guests" -gt 1 ] && [ -z "${DLCNET_VERBS_ACK_TIMEOUT+set}" ]; then
      printf 'export DLCNET_VERBS_ACK_TIMEOUT=19\n'
    fi
    # Set last: they describe this guest and win over any caller's values.
    printf 'export DLCNET_RDMA_DEVICE=rxe0 DLCNET_IN_GUEST=1\n'
    printf 'export DLCNET_GUEST_INDEX=%s DLCNET_GUEST_COUNT=%s\n' "$i" "$guests"
    printf 'export DLCNET_GUEST_ADDR=%q DLCNET_PEER_ADDR=%q\n' "$addr" "$peer"
  } >"$f"
}

if [ "$guests" -eq 1 ]; then
  addrs=(198.18.0.1)
  peers=(198.18.0.1)   # one guest: the "peer" is rxe0 itself (rxe loops back)
else
  addrs=(198.18.1.1 198.18.1.2)
  peers=(198.18.1.2 198.18.1.1)
fi

for ((i = 0; i < guests; i++)); do
  g="$run/g$i"
  mkdir -p "$g"
  cp "$guest_dir/stage2.sh" "$g/stage2.sh"
  {
    printf 'RUN_MODE=%q\n' "$([ "$guests" -eq 1 ] && echo single || echo multi)"
    printf 'GUEST_INDEX=%q GUEST_COUNT=%q\n' "$i" "$guests"
    printf 'GUEST_ADDR=%q PEER_ADDR=%q\n' "${addrs[$i]}" "${peers[$i]}"
    printf 'NETEM=%q SYNC_DIR=%q HELPERS=%q\n' "$netem" "$run" "$guest_dir"
    printf 'TBF=%q\n' "$([ "$i" -eq 0 ] && printf '%s' "$tbf")"   # guest 0's link only
  } >"$g/params.sh"
  write_env "$g/env.sh" "$i" "${addrs[$i]}" "${peers[$i]}"
  {
    printf 'CMD_CWD=%q\n' "$PWD"
    if [ "$guests" -eq 1 ]; then
      printf 'cmd=('; printf ' %q' "${args[@]}"; printf ' )\n'
    else
      printf 'cmd=(/bin/bash -c %q g%s)\n' "${args[$i]}" "$i"
    fi
  } >"$g/cmd.sh"
  : >"$g/stdout"; : >"$g/stderr"; : >"$g/console.log"
done

# ---- boot -------------------------------------------------------------------------------
t_boot=$SECONDS
note "guest accelerator: $accel ($accel_reason)"
# shellcheck source=scripts/guest/qemu.sh
source "$(dirname "${BASH_SOURCE[0]}")/guest/qemu.sh"
for ((i = 0; i < guests; i++)); do start_guest "$i"; done

console_tail() {  # console_tail INDEX
  local g="$run/g$1"
  echo "$prog: --- last lines of guest $1's console ($g/console.log) ---" >&2
  tr -d '\r' <"$g/console.log" | tail -n 25 | sed 's/^/  | /' >&2
  if [ -s "$g/qemu.log" ]; then
    echo "$prog: --- qemu messages ---" >&2
    tail -n 10 "$g/qemu.log" | sed 's/^/  | /' >&2
  fi
}

describe_cmd() {
  if [ "$guests" -eq 1 ]; then echo "${args[*]}"; else printf "g0: %s; g1: %s" "${args[0]}" "${args[1]}"; fi
}

# ---- wait, with the timeout ------------------------------------------------------------------
deadline=$((t_start + timeout_s))
reported=()
stopped=()
failed_guest=""
fail_at=0
timed_out=0
while :; do
  if ! boot_watch; then

    for p in "${qemu_pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    wait "${tail_pids[@]}" 2>/dev/null || true
    exit 125
  fi
  alive=0
  for ((i = 0; i < guests; i++)); do
    if kill -0 "${qemu_pids[$i]}" 2>/dev/null; then
      alive=$((alive + 1))
    elif [ -z "${reported[$i]:-}" ]; then
      reported[i]=1
      note "guest $i finished after $((SECONDS - t_boot)) s"
      # A guest that died before stage 2 must not leave its peer at the barrier.
      [ -e "$run/g$i/status" ] || [ "$guests" -eq 1 ] || : >"$run/abort"
      # Two guests: once one command has failed, its peer often waits for ever
      # (a server for its client; perftest retries for ever against a dead peer),
      # so the others get --grace seconds to finish, then are stopped.
      if [ -z "$failed_guest" ] && [ "$(cat "$run/g$i/status" 2>/dev/null || echo x)" != 0 ]; then
        failed_guest=$i
        fail_at=$SECONDS
      fi
    fi
  done
  [ "$alive" -gt 0 ] || break
  if [ "$SECONDS" -ge "$deadline" ]; then timed_out=1; break; fi
  if [ -n "$failed_guest" ] && [ $((SECONDS - fail_at)) -ge "$grace" ]; then
    for ((i = 0; i < guests; i++)); do
      if kill -0 "${qemu_pids[$i]}" 2>/dev/null; then
        stopped[i]=1
        kill -TERM "${qemu_pids[$i]}" 2>/dev/null || true
      fi
    done
    sleep 1
    for p in "${qemu_pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    break
  fi
  sleep 0.2
done

if [ "$timed_out" -eq 1 ]; then
  for p in "${qemu_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  sleep 1
  for p in "${qemu_pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  wait "${tail_pids[@]}" 2>/dev/null || true
  echo "$prog: guest timed out after $timeout_s s running: $(describe_cmd)" >&2
  for ((i = 0; i < guests; i++)); do
    [ -e "$run/g$i/status" ] || console_tail "$i"
  done
  exit 124
fi
wait "${tail_pids[@]}" 2>/dev/null || true

# ---- results ------------------------------------------------------------------------------
rcs=()
for ((i = 0; i < guests; i++)); do
  g="$run/g$i"
  rc=""
  if [ -n "${stopped[$i]:-}" ]; then
    echo "$prog: g$i stopped: still running $grace s after g$failed_guest failed" >&2
    rcs+=(143)
    continue
  fi
  if [ -s "$g/status" ]; then
    rc="$(tr -dc '0-9' <"$g/status")"
  fi
  if [ -z "$rc" ]; then
    # No status file: fall back to the console marker, else explain what went wrong.
    marker="$(tr -d '\r' <"$g/console.log" | sed -n 's/^DLCNET-GUEST-STATUS \([0-9]*\)$/\1/p' | tail -n1)"
    if [ -e "$g/setup-fail" ]; then
      echo "$prog: guest $i could not set up Soft-RoCE: $(cat "$g/setup-fail")" >&2
      console_tail "$i"; rc=125
    elif [ -e "$g/guest-fail" ]; then
      echo "$prog: guest $i failed to boot: $(cat "$g/guest-fail")" >&2
      console_tail "$i"; rc=125
    elif [ -n "$marker" ] && [ "$marker" != 125 ]; then
      rc="$marker"
    else
      reason="$(tr -d '\r' <"$g/console.log" | sed -n 's/^DLCNET-GUEST-FAIL //p' | tail -n1)"
      echo "$prog: guest $i failed to boot${reason:+: $reason} (no exit status came back)" >&2
      console_tail "$i"; rc=125
    fi
  fi
  rcs+=("$rc")
done
note "total $((SECONDS - t_start)) s"

if [ "$guests" -eq 1 ]; then
  exit "${rcs[0]}"
fi
echo "$prog: exit status g0=${rcs[0]} g1=${rcs[1]}" >&2
# The status of the guest that failed first (a stopped peer's 143 is a consequence).
[ -z "$failed_guest" ] || exit "${rcs[$failed_guest]}"
for rc in "${rcs[@]}"; do
  [ "$rc" -eq 0 ] || exit "$rc"
done
exit 0
