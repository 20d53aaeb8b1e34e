#!/usr/bin/env bash
# The guest's accelerator (scripts/rdma-run.sh --accel / DLCNET_GUEST_ACCEL): KVM where
# /dev/kvm works and QEMU starts a vCPU on it, TCG otherwise with the reason; a forced KVM
# without it is bad usage.
set -uo pipefail
R="$(dirname "$0")/../../scripts/rdma-run.sh"
passed=0
failed=0
expect() {  # expect NAME WANTED_STATUS OUTPUT_REGEX CMD...
  local name="$1" want="$2" re="$3" out rc
  shift 3
  out="$("$@" 2>&1)"
  rc=$?
  if [ "$rc" -eq "$want" ] && grep -Eq -- "$re" <<<"$out"; then
    passed=$((passed + 1)); echo "ok: $name"
  else
    failed=$((failed + 1)); echo "FAIL: $name (exit $rc): $out"
  fi
}
if [ -e /dev/kvm ] && python3 -c 'import fcntl, os; fcntl.ioctl(os.open("/dev/kvm", os.O_RDWR), 0xAE00)' 2>/dev/null; then
  # ... unless QEMU cannot start a vCPU on it (nested KVM lacking an MSR): then TCG, saying so.
  expect "auto takes KVM where /dev/kvm works, else TCG naming QEMU's error" 0 \
    '^(kvm \(/dev/kvm works\)|tcg \(QEMU cannot start a KVM vCPU here: .*error.*\))$' bash "$R" --print-accel
else
  expect "auto falls back to TCG and says why" 0 '^tcg \((no /dev/kvm|/dev/kvm .*)\)$' bash "$R" --print-accel
  expect "a forced KVM without it is bad usage naming the cause" 2 'rdma-run: --accel kvm: (no /dev/kvm|/dev/kvm)' \
    bash "$R" --accel kvm --print-accel
fi
expect "DLCNET_GUEST_ACCEL=tcg forces TCG" 0 '^tcg \(requested\)$' env DLCNET_GUEST_ACCEL=tcg bash "$R" --print-accel
expect "--accel overrides the environment" 0 '^tcg \(requested\)$' env DLCNET_GUEST_ACCEL=kvm bash "$R" --accel tcg --print-accel
expect "an unknown accelerator is bad usage" 2 'must be auto, kvm or tcg' bash "$R" --accel xen --print-accel
echo "passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
