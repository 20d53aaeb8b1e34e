#!/usr/bin/env bash
# Prepares (once) and prints the kernel and initramfs that scripts/rdma-run.sh boots.
#
#   scripts/guest/prepare.sh            -> prints two lines: KERNEL=<path> INITRD=<path>
#
# Why this exists: the host kernel has no RDMA support, so Soft-RoCE runs in a QEMU
# guest that boots Debian's own 6.1 kernel package (it ships rdma_rxe as a module) and
# a tiny busybox initramfs.  Both are cached in
#   ${DLCNET_GUEST_CACHE:-<repo>/build/guest-cache}
# and reused: the kernel .deb is downloaded with `apt-get download` only when no kernel
# is cached yet, and the initramfs is rebuilt only when its inputs change (init
# template, this script, the kernel, busybox), because its file name carries a hash
# of those inputs.
#
# Environment:
#   DLCNET_GUEST_CACHE       cache directory (default <repo>/build/guest-cache)
#   DLCNET_GUEST_KERNEL_PKG  kernel package to use instead of the one linux-image-amd64
#                            depends on (e.g. linux-image-6.1.0-56-amd64)
# All progress messages go to stderr; stdout carries only the KERNEL=/INITRD= lines.
# shellcheck disable=SC2012,SC2013  # ls/grep over paths and offsets this script controls
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# depmod, modprobe, ip... live in sbin directories, which a non-login PATH may lack.
export PATH="${PATH:-/usr/bin:/bin}:/usr/local/sbin:/usr/sbin:/sbin"
repo="$(cd "$here/../.." && pwd)"
cache="${DLCNET_GUEST_CACHE:-$repo/build/guest-cache}"
init_template="$here/init.sh"

# Modules the guest needs, in the order they are requested; dependencies are added
# and ordered by `modprobe --show-depends`.  A leading '?' marks a module that is
# nice to have (missing from the package or failing to load is not fatal).
# crc32_generic must come before rdma_rxe: rxe needs the "crc32" crypto algorithm,
# and without it `rdma link add` fails with "No such file or directory".
modules=(
  virtio_pci virtio_net 9pnet_virtio 9p          # host root over virtio-9p, the wire
  veth                                            # one-guest mode: rxe sits on veth0
  crc32_generic rdma_rxe ib_uverbs                # Soft-RoCE and /dev/infiniband/uverbs*
  '?rdma_ucm' '?ib_umad'                          # librdmacm users, umad tools
  '?sch_netem' '?sch_tbf' '?sch_htb' '?sch_prio' '?sch_fq_codel'  # qdiscs for tests
  '?bridge'                                       # the namespace star's switch (netns-star.sh)
)

log() { echo "rdma-run: $*" >&2; }
die() { echo "rdma-run: error: $*" >&2; exit 1; }

for tool in dpkg-deb depmod modprobe cpio gzip sha256sum flock; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found; run scripts/install-deps.sh"
done
busybox_bin=""
for b in /bin/busybox /usr/bin/busybox; do
  # The initramfs has no libraries, so only a static busybox will run there.
  if [ -x "$b" ] && ! LC_ALL=C ldd "$b" >/dev/null 2>&1; then busybox_bin="$b"; break; fi
done
[ -n "$busybox_bin" ] || die "no static busybox found; install busybox-static (scripts/install-deps.sh)"
[ -f "$init_template" ] || die "missing init template $init_template"

mkdir -p "$cache"
# Concurrent runs share the cache: one lock serialises download, unpack and build,
# and every artefact is built under a temporary name and renamed into place.
exec 9>"$cache/.lock"
flock 9

# ---- kernel ---------------------------------------------------------------------
# Use the kernel already unpacked in the cache if there is one, so that a later
# `apt-get update` (a newer ABI) does not trigger a download on every machine.
kdir=""
if [ -n "${DLCNET_GUEST_KERNEL_PKG:-}" ]; then
  pkg="$DLCNET_GUEST_KERNEL_PKG"
  [ -f "$cache/kernel/$pkg/.done" ] && kdir="$cache/kernel/$pkg"
else
  for d in "$cache"/kernel/linux-image-*; do
    [ -f "$d/.done" ] && kdir="$d"
  done
  if [ -z "$kdir" ]; then
    # The 6.1 kernel image package that the linux-image-amd64 metapackage depends on.
    pkg="$(apt-cache depends linux-image-amd64 2>/dev/null \
           | sed -n 's/^ *Depends: \(linux-image-6\.1\.[^ ]*-amd64\)$/\1/p' | head -n1)"
    [ -n "$pkg" ] || die "cannot find the kernel package linux-image-amd64 depends on (apt-get update?)"
  fi
fi

if [ -z "$kdir" ]; then
  kdir="$cache/kernel/$pkg"
  mkdir -p "$cache/deb"
  deb="$(ls "$cache/deb/${pkg}_"*.deb 2>/dev/null | head -n1 || true)"
  if [ -z "$deb" ]; then
    log "downloading $pkg (once; cached in $cache)"
    # apt-get download writes into the current directory.  As root it warns that the
    # _apt user cannot write there; that warning is harmless.
    (cd "$cache/deb" && apt-get download -q "$pkg" >&2) || die "apt-get download $pkg failed"
    deb="$(ls "$cache/deb/${pkg}_"*.deb 2>/dev/null | head -n1 || true)"
    [ -n "$deb" ] || die "apt-get download $pkg produced no .deb in $cache/deb"
  fi
  log "unpacking $(basename "$deb")"
  rm -rf "$kdir.tmp"
  mkdir -p "$kdir.tmp"
  dpkg-deb -x "$deb" "$kdir.tmp/root"
  kver="$(ls "$kdir.tmp/root/lib/modules" | head -n1)"
  if [ -z "$kver" ] || [ ! -f "$kdir.tmp/root/boot/vmlinuz-$kver" ]; then
    die "unexpected layout in $deb"
  fi
  # The package ships no modules.dep (the postinst makes it); build one for modprobe.
  depmod -b "$kdir.tmp/root" "$kver"
  echo "$kver" >"$kdir.tmp/version"
  touch "$kdir.tmp/.done"
  rm -rf "$kdir"
  mv "$kdir.tmp" "$kdir"
fi
kver="$(cat "$kdir/version")"
kroot="$kdir/root"
vmlinuz="$kroot/boot/vmlinuz-$kver"

# ---- uncompressed kernel for a direct (PVH) boot ----------------------------------------
# Debian's bzImage is xz-compressed, and its decompressor takes 10-15 s under TCG on
# every boot.  QEMU boots an uncompressed ELF vmlinux directly when it carries the PVH
# entry note (CONFIG_PVH, set in Debian's config), so decompress once here, as the
# kernel's scripts/extract-vmlinux does: find a compressed stream inside the bzImage
# and keep the first one that decompresses to an ELF with the PVH note.  Without
# readelf or the note, boot the bzImage as is (slower, same result).
extract_vmlinux() {  # extract_vmlinux BZIMAGE OUT
  local img="$1" out="$2" magic tool off
  command -v readelf >/dev/null 2>&1 || return 1
  for spec in '\xfd7zXZ\x00:xz -dc' '\x1f\x8b\x08:gzip -dc' '\x28\xb5\x2f\xfd:zstd -qdc' \
              '\x02\x21\x4c\x18:lz4 -dc'; do
    magic="${spec%%:*}"; tool="${spec#*:}"
    command -v "${tool%% *}" >/dev/null 2>&1 || continue
    for off in $(LC_ALL=C grep -obUaP "$magic" "$img" 2>/dev/null | cut -d: -f1); do
      # Trailing data after the stream makes the decompressor complain; the ELF check
      # below is what decides.
      tail -c "+$((off + 1))" "$img" | $tool >"$out" 2>/dev/null || true
      if [ "$(head -c 4 "$out" 2>/dev/null)" = $'\x7fELF' ] &&
         LC_ALL=C readelf -n "$out" 2>/dev/null | grep -q 'Unknown note type: (0x00000012)\|XEN_ELFNOTE_PHYS32_ENTRY'; then
        return 0
      fi
    done
  done
  rm -f "$out"
  return 1
}
boot_kernel="$vmlinuz"
if [ -f "$kdir/vmlinux.pvh" ]; then
  boot_kernel="$kdir/vmlinux.pvh"
elif [ ! -f "$kdir/vmlinux.none" ]; then
  log "extracting the uncompressed kernel (once)"
  if extract_vmlinux "$vmlinuz" "$kdir/vmlinux.tmp"; then
    mv "$kdir/vmlinux.tmp" "$kdir/vmlinux.pvh"
    boot_kernel="$kdir/vmlinux.pvh"
  else
    log "note: no PVH-bootable vmlinux in $(basename "$vmlinuz"); booting the compressed image"
    touch "$kdir/vmlinux.none"
  fi
fi

# ---- initramfs ------------------------------------------------------------------
# The name carries a hash of everything that goes into it, so a changed init template
# (or module list, busybox, kernel) gives a new file and the old one is replaced.
hash="$( { sha256sum "$init_template" "${BASH_SOURCE[0]}" "$busybox_bin";
           echo "$kver"; } | sha256sum | cut -c1-12)"
initrd="$cache/initramfs-$kver-$hash.cpio.gz"

if [ ! -f "$initrd" ]; then
  log "building initramfs for $kver"
  stage="$(mktemp -d "$cache/initramfs.XXXXXX")"
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage"/{bin,dev,proc,sys,newroot,modules}
  cp "$busybox_bin" "$stage/bin/busybox"
  # Install applet links now, so /init can call mount, insmod, chroot... directly.
  for applet in $("$busybox_bin" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$stage/bin/$applet"
  done
  cp "$init_template" "$stage/init"
  chmod 755 "$stage/init"

  # Resolve load order.  Each module's dependency list comes out in load order; the
  # first appearance wins, so the concatenation is a valid global order.
  declare -A seen=()
  : >"$stage/modules/order"
  for spec in "${modules[@]}"; do
    optional=""
    name="$spec"
    if [ "${spec:0:1}" = "?" ]; then optional="?"; name="${spec:1}"; fi
    if ! deps="$(modprobe --show-depends -d "$kroot" -S "$kver" "$name" 2>/dev/null)"; then
      [ -n "$optional" ] && { log "note: optional module $name not in $kver, skipped"; continue; }
      die "module $name not found in kernel $kver"
    fi
    while read -r kind path _; do
      # "builtin foo" lines need nothing loaded.
      [ "$kind" = insmod ] || continue
      base="$(basename "$path")"
      mod="${base%%.ko*}"
      [ -n "${seen[$mod]:-}" ] && continue
      seen[$mod]=1
      # busybox insmod cannot decompress: store every module as plain .ko.
      case "$base" in
        *.ko)     cp "$path" "$stage/modules/$mod.ko" ;;
        *.ko.xz)  xz -dc "$path" >"$stage/modules/$mod.ko" ;;
        *.ko.zst) zstd -qdc "$path" >"$stage/modules/$mod.ko" ;;
        *.ko.gz)  gzip -dc "$path" >"$stage/modules/$mod.ko" ;;
        *) die "unknown module file type: $path" ;;
      esac
      # Only the module that was asked for carries the optional flag; its
      # dependencies are needed by it alone, so they are optional as well.
      echo "$optional$mod" >>"$stage/modules/order"
    done <<<"$deps"
  done

  (cd "$stage" && find . -print0 | LC_ALL=C sort -z \
     | cpio --null -o -H newc --quiet --owner=0:0) | gzip -1 >"$initrd.tmp"
  mv "$initrd.tmp" "$initrd"
  rm -rf "$stage"
  trap - EXIT
  # Older initramfs images of this kernel are stale now.  A guest that is already
  # running has read its copy into memory at start, so removing them is safe.
  for old in "$cache"/initramfs-*.cpio.gz; do
    [ "$old" = "$initrd" ] || rm -f "$old"
  done
fi

echo "KERNEL=$boot_kernel"
echo "INITRD=$initrd"
