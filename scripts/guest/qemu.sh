# Sourced by scripts/rdma-run.sh: how a guest's QEMU is started and watched while it boots.
# Uses rdma-run.sh's variables (run, guests, accel, mem, smp, kernel, initrd, prog) and arrays
# (qemu_pids, tail_pids), and its console_tail.
# shellcheck shell=bash disable=SC2154

# start_guest INDEX: boots guest INDEX's QEMU and streams its output while it runs (`tail
# --pid` ends after the final read once that QEMU has exited; two guests: a [gN] prefix).
start_guest() {
  local i="$1" g="$run/g$1"
  # shellcheck disable=SC2054  # the commas are QEMU's option syntax
  local qargs=(
    -machine "pc,accel=$accel" -cpu "$([ "$accel" = kvm ] && echo host || echo max)"
    -m "$mem" -smp "$smp"
    -nodefaults -no-user-config -display none -monitor none
    -serial "file:$g/console.log"                            # kernel noise -> file
    -no-reboot                                               # panic/poweroff -> qemu exits
    -kernel "$kernel" -initrd "$initrd"
    # Speed-ups that are safe in a throw-away emulated guest: no speculation
    # mitigations, no crypto self-tests, no IO-APIC timer check (~1 s under TCG).
    # tsc=reliable: TCG's TSC is the host's, but the guest kernel's watchdog would fall back
    # to the emulated HPET (~3 us a clock read); with the TSC as clocksource, clock_gettime
    # goes through the vDSO and now_ns() reads the TSC directly, as perftest does.
    -append "console=ttyS0 quiet loglevel=4 panic=-1 mitigations=off cryptomgr.notests no_timer_check tsc=reliable dlcnet.run=$g ${DLCNET_GUEST_KERNEL_ARGS:-} ${first_args[$i]:-}"
    -fsdev "local,id=hostroot,path=/,security_model=none,multidevs=remap"
    -device "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot"
    -fsdev "local,id=hostusr,path=/usr,security_model=none,readonly=on,multidevs=remap"
    -device "virtio-9p-pci,fsdev=hostusr,mount_tag=hostusr"
  )
  if [ "$guests" -eq 2 ]; then
    # The wire: each guest sends to the other's socket (crossed paths).
    rm -f "$run/g$i.sock"
    qargs+=(
      -netdev "dgram,id=wire,local.type=unix,local.path=$run/g$i.sock,remote.type=unix,remote.path=$run/g$((1 - i)).sock"
      -device "virtio-net-pci,netdev=wire,mac=52:54:00:d1:c0:0$((i + 1))"
    )
  fi
  qemu-system-x86_64 "${qargs[@]}" </dev/null >"$g/qemu.log" 2>&1 &
  qemu_pids[i]=$!
  boot_at[i]=$SECONDS
  if [ "$guests" -eq 1 ]; then
    tail -q -s 0.2 -n +1 -f --pid="${qemu_pids[$i]}" "$g/stdout" &
    tail_pids+=($!)
    tail -q -s 0.2 -n +1 -f --pid="${qemu_pids[$i]}" "$g/stderr" >&2 &
    tail_pids+=($!)
  else
    tail -q -s 0.2 -n +1 -f --pid="${qemu_pids[$i]}" "$g/stdout" | sed -u "s/^/[g$i] /" &
    tail_pids+=($!)
    tail -q -s 0.2 -n +1 -f --pid="${qemu_pids[$i]}" "$g/stderr" | sed -u "s/^/[g$i] /" >&2 &
    tail_pids+=($!)
  fi
}
# A guest whose stage 2 has not started within boot_limit seconds (its kernel or initramfs
# hung: seen once in 40 two-guest boots under TCG, where the peer then waited 300 s at the
# barrier) is killed and booted again, once. Its boot normally takes 5 to 30 s.
# DLCNET_GUEST_FIRST_BOOT_ARGS: kernel arguments of each guest's first boot only (the test of
# this, tests/guest/smoke.sh, hangs it with rdinit=/bin/cat).
boot_limit="${DLCNET_GUEST_BOOT_LIMIT:-120}"
booted=(); rebooted=(); boot_at=(); first_args=()
for ((i = 0; i < guests; i++)); do first_args[i]="${DLCNET_GUEST_FIRST_BOOT_ARGS:-}"; done
# boot_watch: run in the wait loop; returns 1 when a guest failed to boot twice.
boot_watch() {
  local i g
  for ((i = 0; i < guests; i++)); do
    [ -n "${booted[$i]:-}" ] && continue
    g="$run/g$i"
    if grep -q "rdma-guest\[$i\] .*stage 2 started" "$g/console.log" 2>/dev/null ||
      [ -e "$g/status" ] || [ -e "$g/guest-fail" ]; then
      booted[i]=1
      continue
    fi
    [ $((SECONDS - boot_at[i])) -ge "$boot_limit" ] || continue
    if [ -n "${rebooted[$i]:-}" ]; then
      echo "$prog: guest $i did not start in $boot_limit s, twice" >&2
      console_tail "$i"
      return 1
    fi
    echo "$prog: guest $i did not start in $boot_limit s: booting it again" >&2
    console_tail "$i"
    kill -KILL "${qemu_pids[$i]}" 2>/dev/null || true
    wait "${qemu_pids[$i]}" 2>/dev/null || true
    mv "$g/console.log" "$g/console.first.log"
    : >"$g/console.log"
    rebooted[i]=1
    first_args[i]=""
    start_guest "$i"
  done
  return 0
}
