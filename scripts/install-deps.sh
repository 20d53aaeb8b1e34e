#!/usr/bin/env bash
# Installs every build, test and benchmark dependency of dlcnet from Debian's archive.
# Safe to run twice: apt-get install is idempotent and `apt-get update` is skipped when
# every package is already present.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config clang-format ccache
  # fuzzing (tests/fuzz, scripts/fuzz.sh): clang and its libFuzzer
  clang libfuzzer-14-dev
  # RDMA user space (verbs, rdma_cm, providers incl. rxe) and tools
  libibverbs-dev librdmacm-dev ibverbs-providers rdma-core ibverbs-utils rdmacm-utils
  # UCX
  libucx-dev ucx-utils
  # libraries
  libhwloc-dev libcli11-dev nlohmann-json3-dev libgtest-dev libnl-route-3-dev
  # Chakra execution traces (trace/chakra): protobuf's library and protoc, run at build time
  libprotobuf-dev protobuf-compiler
  # launchers
  openmpi-bin libopenmpi-dev
  # reference benchmarks
  perftest
  # Soft-RoCE guest: kernel unpacking (xz: extract vmlinux), initramfs, emulator
  qemu-system-x86 busybox-static cpio kmod iproute2 python3 xz-utils
  # ns-3 predictor (apps/dlc_ns3, optional in CMake): Debian's ns-3 libraries and headers
  libns3-dev
  # benchmark plots (bench/setup_scale.sh, bench/fanin.sh); dlc-plot, dlc-compare-plot (numpy:
  # its one-pass reader and binned figures; matplotlib depends on it, named for what we use)
  python3-matplotlib python3-numpy
  # packaging: man pages from --help (help2man), the package test reads them (man-db);
  # CPack's .deb takes its Depends from dpkg-shlibdeps (dpkg-dev, with build-essential)
  help2man man-db dpkg-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
