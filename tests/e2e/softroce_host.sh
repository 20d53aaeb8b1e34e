# scripts/softroce-host.sh: Soft-RoCE on the machine itself (issue #17).
#   softroce_host.sh BIN absent   a kernel without rdma_rxe (this build host): `up` says so and
#                                 exits 3, naming the guest script; usage errors exit 2
#   softroce_host.sh BIN rxe      where rdma_rxe is available (the Soft-RoCE guest; root): up on
#                                 a veth of its own, a verbs ping-pong over the new device,
#                                 down, and nothing left behind (exit 77 elsewhere)
source "$(dirname "$0")/lib.sh"
mode="$1"
S="$(dirname "$0")/../../scripts/softroce-host.sh"
have_rxe() { [ -d /sys/module/rdma_rxe ] || modinfo rdma_rxe >/dev/null 2>&1; }

bash "$S" frobnicate 2>"$work/err"
[ $? -eq 2 ] && ok "an unknown command is bad usage (2)" || bad "unknown command: not 2"
bash "$S" up --name 'bad name' 2>"$work/err"
[ $? -eq 2 ] && ok "a bad --name is bad usage (2)" || bad "bad --name: not 2"
bash "$S" down --name dlcnever 2>"$work/err"
[ $? -eq 1 ] && grep -q "not made by 'up'" "$work/err" && ok "down leaves what up did not make" ||
  bad "down of a foreign device: $(cat "$work/err")"

if [ "$mode" = absent ]; then
  if have_rxe; then echo "skip: this kernel has rdma_rxe (the rxe mode tests it)"; exit 77; fi
  [ "$(id -u)" -eq 0 ] || { echo "skip: up needs root"; exit 77; }
  bash "$S" up 2>"$work/err"
  [ $? -eq 3 ] && grep -q "no rdma_rxe module.*scripts/rdma-run.sh" "$work/err" &&
    ok "no rdma_rxe: exit 3, pointing to the guest" || bad "no rdma_rxe: $(cat "$work/err")"
else
  have_rxe && [ "$(id -u)" -eq 0 ] || { echo "skip: needs rdma_rxe and root"; exit 77; }
  ns_if="dsr$$"
  trap 'bash "$S" down --name rxe_t$$ >/dev/null 2>&1; ip link del "${ns_if}a" 2>/dev/null; rm -rf "$work"' EXIT
  ip link add "${ns_if}a" type veth peer name "${ns_if}b" &&
    ip addr add 10.77.0.1/24 dev "${ns_if}a" && ip link set "${ns_if}a" up && ip link set "${ns_if}b" up ||
    { bad "cannot make a veth pair"; exit 1; }
  check "up --netdev ${ns_if}a" bash "$S" up --netdev "${ns_if}a" --name "rxe_t$$"
  gid="$(sed -n 's/.*RoCE v2 GID index \([0-9]*\)$/\1/p' "$work/out")"
  grep -q "^rxe_t$$ on ${ns_if}a, 10.77.0.1, RoCE v2 GID index [0-9]" "$work/out" &&
    ok "up names the device, interface, address and GID index" || bad "up said: $(cat "$work/out")"
  [ -e "/sys/class/infiniband/rxe_t$$" ] && ok "the device exists" || bad "no /sys/class/infiniband/rxe_t$$"
  check "a verbs ping-pong over the new device" "$BIN/dlc-bench" lat --loopback --transport verbs \
    -d "rxe_t$$" -x "$gid" -n 200 --timeout 60
  check "down" bash "$S" down --name "rxe_t$$"
  [ ! -e "/sys/class/infiniband/rxe_t$$" ] && [ ! -e "/run/dlcnet-softroce/rxe_t$$" ] &&
    ok "down removed the device and its note" || bad "left behind after down"
  [ -d /sys/module/rdma_rxe ] && ok "rdma_rxe stays (up did not load it)" || bad "rdma_rxe unloaded"
fi

echo "passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
