#!/bin/busybox sh
# /init of the Soft-RoCE test guest (copied into the initramfs by scripts/guest/prepare.sh;
# editing this file makes the next run rebuild the initramfs).
#
# Runs as PID 1 under busybox: loads the modules listed in /modules/order, mounts the
# host's root file system over virtio-9p, gives it fresh /proc, /sys, /dev, /dev/shm
# and /run, then chroots into it and runs the per-run stage-2 script
# <run dir>/stage2.sh with the host's own bash.  The run directory comes from the
# kernel command line (dlcnet.run=<dir>) and lives on the 9p share, which is how the
# command's output and exit status reach the host.  Everything printed here goes to
# the serial console, which the host keeps in <run dir>/console.log: it never mixes
# with the command's output.
#
# Marker lines for the host (one per boot, at the end):
#   DLCNET-GUEST-STATUS <n>       stage 2 ran and returned n
#   DLCNET-GUEST-FAIL <reason>    the guest could not get as far as stage 2

export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null

run=""
# shellcheck disable=SC2013  # the command line is words
for word in $(cat /proc/cmdline); do
  case "$word" in
    dlcnet.run=*) run="${word#dlcnet.run=}" ;;
  esac
done

fail() {
  echo "DLCNET-GUEST-FAIL $*"
  # Leave the reason on the share too, if it is mounted.
  if [ -n "$run" ] && [ -d "/newroot$run" ]; then
    echo "$*" >"/newroot$run/guest-fail" 2>/dev/null
  fi
  sync
  poweroff -f
}

# Load modules in dependency order.  A '?' prefix marks one the guest can live without.
while read -r entry; do
  [ -n "$entry" ] || continue
  mod="${entry#\?}"
  if ! out="$(insmod "/modules/$mod.ko" 2>&1)"; then
    case "$out" in
      *"File exists"*) ;;   # already loaded (built in or pulled in earlier)
      *)
        if [ "$mod" != "$entry" ]; then
          echo "rdma-guest: optional module $mod failed to load: $out"
        else
          fail "insmod $mod: $out"
        fi ;;
    esac
  fi
done </modules/order

[ -n "$run" ] || fail "no dlcnet.run= on the kernel command line"

# cache=mmap: writes go straight to the host (so the host can stream the command's
# output while it runs) and programs may still mmap files shared and writable.
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=mmap hostroot /newroot \
  || fail "cannot mount the host root over 9p (tag hostroot)"
# System files (/usr: on Debian 12 also /bin, /sbin, /lib) come from a second mount
# of the same share with cache=loose: dentries, attributes and pages stay cached,
# which makes every exec much cheaper.  Nothing in /usr changes while a test runs.
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro hostusr /newroot/usr || echo "rdma-guest: no cached /usr"
[ -f "/newroot$run/stage2.sh" ] || fail "run directory $run not visible over 9p"

# Fresh kernel file systems for the chroot: the host's /proc, /sys, /dev describe the
# host's kernel, not this one.  /dev/shm and /run get private tmpfs so that shared
# memory works (9p cannot back it well) and nothing in the host's /run is disturbed.
mount -t proc proc /newroot/proc || fail "mount /proc"
mount -t sysfs sysfs /newroot/sys || fail "mount /sys"
mount -t devtmpfs devtmpfs /newroot/dev || fail "mount /dev"
# What udev would add: /dev/fd and the standard streams (bash's process substitution uses them).
ln -sf /proc/self/fd /newroot/dev/fd
ln -sf /proc/self/fd/0 /newroot/dev/stdin
ln -sf /proc/self/fd/1 /newroot/dev/stdout
ln -sf /proc/self/fd/2 /newroot/dev/stderr
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts devpts /newroot/dev/pts
mount -t tmpfs -o mode=1777 tmpfs /newroot/dev/shm
mount -t tmpfs -o mode=755 tmpfs /newroot/run

chroot /newroot /bin/bash "$run/stage2.sh" "$run"
rc=$?
sync
echo "DLCNET-GUEST-STATUS $rc"
poweroff -f
