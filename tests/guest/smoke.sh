#!/usr/bin/env bash
# Smoke test of the Soft-RoCE harness scripts/rdma-run.sh, for real: boots guests and
# moves verbs traffic.  Exits non-zero if any check fails; the last line is
# "N passed, N failed".  Takes about 1-3 minutes on the 2-core build machine (five
# guest boots under software emulation).
#
#   tests/guest/smoke.sh            (any cwd; needs scripts/install-deps.sh done)
#
# Checks:
#   1. one guest: ibv_devices lists rxe0; the command sees DLCNET_RDMA_DEVICE,
#      DLCNET_GUEST_ADDR, the caller's cwd and passed-through variables; stdout and
#      stderr arrive apart; gid-index.sh agrees with DLCNET_GID_INDEX; rdma-run.sh
#      called inside the guest runs directly (the device exists there).
#   2. one guest: ib_send_lat server and client on rxe0 (client -> 198.18.0.1) exit 0.
#   3. a command's exit status (7) comes back as the harness's exit status.
#   4. --timeout 5 on a hanging command gives 124, quickly, with the timeout message.
#   5. two guests over the virtual wire: ib_send_lat server in g0, client in g1.
#   6. a guest whose first boot hangs (its initramfs runs `cat` instead of /init) is killed
#      after DLCNET_GUEST_BOOT_LIMIT seconds and booted again, and its command runs.
#   plus argument errors exit 2 without booting anything.
# shellcheck disable=SC2016  # guest commands are single-quoted: they expand in the guest
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rr="$repo/scripts/rdma-run.sh"
gidx="$repo/scripts/guest/gid-index.sh"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/rdma-smoke.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
t0=$SECONDS
ok()  { passed=$((passed + 1)); echo "PASS: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
check() {  # check NAME COMMAND...: PASS if COMMAND succeeds
  local name="$1"; shift
  if "$@"; then ok "$name"; else bad "$name"; fi
}
# run_rr TAG ARGS...: runs rdma-run.sh, keeping stdout/stderr/status/seconds in $tmp/TAG.*
run_rr() {
  local tag="$1"; shift
  local start=$SECONDS rc=0
  "$rr" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err" </dev/null || rc=$?
  echo "$rc" >"$tmp/$tag.rc"
  echo $((SECONDS - start)) >"$tmp/$tag.secs"
  echo "  ($tag: exit $rc after $((SECONDS - start)) s)"
}
rc_of() { cat "$tmp/$1.rc"; }
# Show what a failed run printed, to diagnose without rerunning.
dump() {
  echo "  --- $1 stdout (tail) ---"; tail -n 15 "$tmp/$1.out" | sed 's/^/  | /'
  echo "  --- $1 stderr (tail) ---"; tail -n 25 "$tmp/$1.err" | sed 's/^/  | /'
}

[ -x "$rr" ] || { echo "FAIL: $rr missing"; echo "0 passed, 1 failed"; exit 1; }

# ---- 0. argument errors: exit 2, no guest -------------------------------------------
rc=0; "$rr" --bogus -- true >/dev/null 2>&1 || rc=$?
check "unknown option exits 2 (got $rc)" [ "$rc" -eq 2 ]
rc=0; "$rr" --guests 2 -- 'only one' >/dev/null 2>&1 || rc=$?
check "--guests 2 with one command exits 2 (got $rc)" [ "$rc" -eq 2 ]

# ---- 1. ibv_devices and the command's environment ------------------------------------
# From a directory of our own, to see that the command runs in the caller's cwd.
mkdir -p "$tmp/cwd"
cd "$tmp/cwd"
DLCNET_SMOKE_VALUE="a b'c" run_rr devices --force-guest --timeout 240 -- bash -c '
  ibv_devices
  echo "env: dev=$DLCNET_RDMA_DEVICE addr=$DLCNET_GUEST_ADDR cwd=$PWD home=$HOME"
  echo "pass: $DLCNET_SMOKE_VALUE"
  echo "memlock: $(ulimit -l)"
  echo "gid: helper=$("$1" rxe0) env=$DLCNET_GID_INDEX"
  echo "to-stderr" >&2
  # Inside the guest rxe0 exists, so rdma-run.sh must run the command directly.
  "$2" -- sh -c "echo nested:\$DLCNET_RDMA_DEVICE"
' smoke "$gidx" "$rr"
# (stay there: check 2 writes its server log into the cwd)
out="$tmp/devices.out"
if [ "$(rc_of devices)" -eq 0 ] && grep -qw rxe0 "$out"; then ok "ibv_devices in a guest lists rxe0"
else bad "ibv_devices in a guest lists rxe0"; dump devices; fi
check "command sees rxe0, 198.18.0.1, caller's cwd, HOME=/root" \
  grep -qxF "env: dev=rxe0 addr=198.18.0.1 cwd=$tmp/cwd home=/root" "$out"
check "DLCNET_* variables pass through unchanged" grep -qxF "pass: a b'c" "$out"
check "memlock limit is unlimited" grep -qxF "memlock: unlimited" "$out"
check "gid-index.sh agrees with DLCNET_GID_INDEX" grep -qE '^gid: helper=([0-9]+) env=\1$' "$out"
check "stderr stays on stderr" bash -c "grep -qxF to-stderr '$tmp/devices.err' && ! grep -q to-stderr '$out'"
check "no kernel console noise in the output" bash -c "! grep -qE '^\[ *[0-9]+\.[0-9]+\]|DLCNET-GUEST' '$out' '$tmp/devices.err'"
check "rdma-run.sh inside a guest runs directly" grep -qxF "nested:rxe0" "$out"

# ---- 2. ib_send_lat, server and client on one rxe0 ------------------------------------
# The client retries until the server listens (perftest's client gives up at once).
# Every perftest process is bounded: a pair that hangs (once in a CI run, 2026-11-25: no output
# for 240 s, under TCG) is killed and a fresh server and client try again, up to 3 pairs; the
# output says how many it took.
run_rr sendlat --force-guest --timeout 240 -- bash -c '
  gid="$("$1" rxe0)" || { echo "no RoCE v2 GID" >&2; exit 90; }
  for pair in 1 2 3; do
    timeout 60 ib_send_lat -d rxe0 -x "$gid" -n 200 >server.log 2>&1 &
    server=$!
    client=1
    for try in $(seq 10); do
      sleep 1
      timeout 20 ib_send_lat -d rxe0 -x "$gid" -n 200 198.18.0.1; rc=$?
      [ "$rc" -eq 0 ] && { client=0; break; }
      [ "$rc" -eq 124 ] && break  # hung: a fresh pair
    done
    [ "$client" -eq 0 ] || kill "$server" 2>/dev/null
    wait "$server"; srv=$?
    echo "--- server (pair $pair) ---"; cat server.log
    echo "statuses: client=$client server=$srv (pair $pair)"
    [ "$client" -eq 0 ] && [ "$srv" -eq 0 ] && exit 0
  done
  exit 1
' smoke "$gidx"
if [ "$(rc_of sendlat)" -eq 0 ] && grep -q 't_typical' "$tmp/sendlat.out"; then
  ok "ib_send_lat server+client on rxe0 in one guest exit 0"
else
  bad "ib_send_lat server+client on rxe0 in one guest exit 0"; dump sendlat
fi

# ---- 3. exit status -------------------------------------------------------------------
run_rr status --force-guest --timeout 240 -- sh -c 'exit 7'
check "exit status 7 comes back as 7 (got $(rc_of status))" [ "$(rc_of status)" -eq 7 ]

# ---- 4. timeout -----------------------------------------------------------------------
run_rr hang --force-guest --timeout 5 -- sleep 60
if [ "$(rc_of hang)" -eq 124 ] && [ "$(cat "$tmp/hang.secs")" -le 20 ] &&
   grep -qF "rdma-run: guest timed out after 5 s running: sleep 60" "$tmp/hang.err"; then
  ok "--timeout 5 on 'sleep 60' gives 124 in $(cat "$tmp/hang.secs") s"
else
  bad "--timeout 5 on 'sleep 60' gives 124 quickly (got $(rc_of hang) after $(cat "$tmp/hang.secs") s)"; dump hang
fi

# ---- 5. two guests over the wire --------------------------------------------------------
# Single quotes: the variables expand inside each guest.
run_rr wire --guests 2 --timeout 300 -- \
  'ib_send_lat -d rxe0 -x "$('"$gidx"' rxe0)" -n 200' \
  'gid="$('"$gidx"' rxe0)"
   echo "g$DLCNET_GUEST_INDEX $DLCNET_GUEST_ADDR -> $DLCNET_PEER_ADDR"
   for try in $(seq 30); do
     sleep 1
     ib_send_lat -d rxe0 -x "$gid" -n 200 "$DLCNET_PEER_ADDR" && exit 0
   done
   exit 1'
w="$tmp/wire.out"
if [ "$(rc_of wire)" -eq 0 ] && grep -q '^\[g0\] .*t_typical' "$w" && grep -q '^\[g1\] .*t_typical' "$w" &&
   grep -qxF '[g1] g1 198.18.1.2 -> 198.18.1.1' "$w" &&
   grep -q 'GID: 00:00:00:00:00:00:00:00:00:00:255:255:198:18:01:02' "$w"; then
  ok "two guests: ib_send_lat g0 server <- g1 client over the wire exit 0"
else
  bad "two guests: ib_send_lat g0 server <- g1 client over the wire exit 0"; dump wire
fi
check "two guests: both statuses printed" grep -qxF "rdma-run: exit status g0=0 g1=0" "$tmp/wire.err"

# ---- 6. a boot that hangs is done again -------------------------------------------------
DLCNET_GUEST_FIRST_BOOT_ARGS=rdinit=/bin/cat DLCNET_GUEST_BOOT_LIMIT=15 \
  run_rr reboot --timeout 120 -- echo booted-again
if [ "$(rc_of reboot)" -eq 0 ] && grep -qxF booted-again "$tmp/reboot.out" &&
   grep -qF "guest 0 did not start in 15 s: booting it again" "$tmp/reboot.err"; then
  ok "a hung first boot is booted again and the command runs ($(cat "$tmp/reboot.secs") s)"
else
  bad "a hung first boot is booted again and the command runs"; dump reboot
fi

echo "smoke: $((SECONDS - t0)) s in all (boot+run: devices $(cat "$tmp/devices.secs") s, sendlat $(cat "$tmp/sendlat.secs") s, status $(cat "$tmp/status.secs") s, two guests $(cat "$tmp/wire.secs") s)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
