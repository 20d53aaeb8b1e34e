# dlc-bench option validation: every bad input is a clear error and exit 2, with no device.
source "$(dirname "$0")/lib.sh"
B="$BIN/dlc-bench"

check_fails "size 0" "-s: size must be at least 1 byte" "$B" lat -s 0 --loopback
check_fails "size garbage" "-s: '4X' has an unknown unit suffix" "$B" lat -s 4X --loopback
check_fails "unknown op" "--op" "$B" lat --op atomic --loopback
check_fails "-a with -s" "-a and -s exclude each other" "$B" bw -a -s 64 --loopback
check_fails "-D with -n" "-D and -n exclude each other" "$B" bw -D 1 -n 10 --loopback
check_fails "no subcommand" "lat|bw|subcommand" "$B"
# Numbers go through one checked parser (core/number.hpp): no wrap, no nan, no silent 0.
check_fails "-n -1" "--iters: '-1' is negative" "$B" lat -n -1 --loopback
check_fails "-D 0" "--duration: '0' is out of range" "$B" lat -D 0 --loopback
check_fails "-D nan" "--duration: 'nan' is not finite" "$B" lat -D nan --loopback
check_fails "-D inf" "--duration: 'inf' is not finite" "$B" bw -D inf --loopback
check_fails "-t 0" "--tx-depth: '0' is out of range" "$B" bw -t 0 --loopback
check_fails "--timeout 1e9" "--timeout: '1e9' is not a whole number" "$B" lat --timeout 1e9 --loopback
check_fails "fanin --gap nan" "--gap: 'nan' is not finite" "$B" fanin --spawn --workers 1 --gap nan
check_fails "fanin -n -1" "--iters: '-1' is negative" "$B" fanin --spawn --workers 1 -n -1
check_fails "unknown transport" "--transport" "$B" lat --transport tcp --loopback
check_fails "loopback with server" "--loopback runs both ends" "$B" lat somehost --loopback
"$B" lat --help >"$work/help" 2>&1 && grep -q -- "--rdma-cm" "$work/help" && ok "help lists options" || bad "help"
# A server that never appears: the client gives up after its timeout, naming the address.
port=$(free_port)
start=$(date +%s)
check_fails "absent server" "could not connect to 127.0.0.1:$port within" \
  "$B" lat 127.0.0.1 -p "$port" --timeout 2 --transport ucx --ucx-tls tcp
[ $(( $(date +%s) - start )) -lt 30 ] && ok "absent server: gave up promptly" || bad "absent server: slow"
# A peer speaking another wire version is named on both sides, and both exit non-zero.
"$B" lat -p "$port" --timeout 4 --transport ucx --ucx-tls tcp >"$work/srv.out" 2>"$work/srv.err" &
srv=$!
sleep 0.5
check_fails "other wire version" "wire protocol version 9" \
  "$B" lat 127.0.0.1 -p "$port" --timeout 4 --transport ucx --ucx-tls tcp --wire-version 9
if wait $srv; then bad "server with only a foreign client exited 0"; else
  grep -q "wire protocol version 9" "$work/srv.err" && ok "server names the foreign version" || bad "server stderr: $(cat "$work/srv.err")"
fi
# perftest's flags keep their meaning or are refused with it; an unknown subcommand is named
# with the known ones (issue 28).
check_usage "-c UD: perftest's connection type" "-c: refused: perftest's connection type" \
  "$B" lat --loopback -c UD
for f in "-l 4" "-Q 8" "-r 256" "-U" "-z"; do
  check_usage "$f: perftest's meaning" "${f% *}: refused: perftest's" "$B" lat --loopback $f
done
check_usage "unknown subcommand" "unknown subcommand 'latency': the subcommands are lat, bw, fanin" \
  "$B" latency
check_usage "fanin: unknown option" "not expected: --bogus" "$B" fanin --spawn --workers 1 --bogus
# An unknown UCX device is an error naming it (UCX itself only warns and runs on another).
check_fails "unknown UCX device" "ucx: device bogus0 \(--ib-dev, UCX_NET_DEVICES\) is neither" \
  "$B" lat --loopback --transport ucx -d bogus0 -n 10 --timeout 20
check "a known UCX device (lo)" "$B" lat --loopback --transport ucx --ucx-tls tcp,self -d lo -n 10 \
  --timeout 20
finish
