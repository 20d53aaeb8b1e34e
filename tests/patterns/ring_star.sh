# dlc-bench ring on real kernel queues: a star of network namespaces (scripts/netns-star.sh)
# with a 100 Mbit/s tbf on every switch port, 4 ranks, all-reduce of 2 MiB over UCX tcp. Each
# rank receives 2(N-1)/N of the vector per iteration through its port, so busbw is bounded by
# the port rate: the test checks busbw <= 1.02 x the rate (the measurement cannot beat the
# physical limit) and >= 0.5 x (the ring keeps the ports busy; bench/ring_compare.sh measures
# how close it comes), every element right, and every step's slowest link a ring neighbour
# pair; the 4 ranks are on this one host (its 4 namespaces share its hostname and kernel:
# every rank named after it, every clock aligned through CLOCK_MONOTONIC). Then 2 ranks on a
# second star whose ports are fair between TCP flows (--fair-flows): with a connection per
# direction (the ring's default) each port carries the peer's data and this rank's ACKs in two
# classes and busbw is >= 0.9 x the port rate (0.955 measured with BBR, the kernel's default the
# star ran before it set cubic; the payload ceiling 0.956); with one connection per peer both
# ride one class (bench/README.md, "Seventh run"). With cubic (2026-11-27, 9 runs, load 2 to 7):
# 4 ranks 0.587 to 0.688 of the port rate, 2 ranks per direction 0.922 to 0.960, per peer 0.556
# to 0.952. Root only: exits 77 when not root or when `ip netns add` fails. $1: the bin
# directory.
source "$(dirname "$0")/../e2e/lib.sh"
star_test ring

check "star up, 100 Mbit/s on every port" bash "$STAR" up --prefix "$prefix" --hosts 4 \
  --rate 100mbit --burst 32kb --limit 4mb --all-ports
check "allreduce of 2 MiB on the star, 4 ranks" bash "$RUN" --prefix "$prefix" --ranks 4 \
  --logs "$work/logs" --timeout 200 -- "$BIN/dlc-bench" ring --transport ucx --ucx-tls tcp,self \
  --timeout 60 -s 2M -n 3 -w 1 --json "$work/star.json"
rate=$((100 * 1000 * 1000 / 8))
# busbw / port rate of these 4 ranks (2026-11-27, load 2.5 to 10): build/ 12 runs 0.587 to 0.739
# (median 0.653), build-sanitize/ 7 runs 0.586 to 0.734 (median 0.662); 0.95 is the 2 ranks'
# below, not these 4's (a 4 MB FIFO and UCX's rendezvous, docs/ring.md). 0.5 stays: the worst
# passes by 1.17x and half the best (0.37) fails; no tighter bound keeps a margin.
json_assert "$work/star.json" "d['wrong_total'] == 0 and d['ranks'] == 4" \
  "d['sizes'][0]['busbw_GBps'] * 1e9 <= 1.02 * $rate" \
  "d['sizes'][0]['busbw_GBps'] * 1e9 >= 0.5 * $rate" \
  "all(st['slowest_link']['dst'] == (st['slowest_link']['src'] + 1) % 4 for st in d['sizes'][0]['steps'])" \
  "d['context']['hosts'] == [__import__('socket').gethostname()] * 4  # namespaces share the host's name" \
  "[(c['rank'], c['same_kernel_as_rank0'], c['method']) for c in d['clock']] == [(0, True, 'reference')] + [(r, True, 'clock_monotonic') for r in (1, 2, 3)]"
python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['sizes'][0]; print('busbw / port rate: %.3f' % (s['busbw_GBps'] * 1e9 / $rate))" \
  "$work/star.json" || true

# busy_classes NS DEV: the port's leaf classes that sent more than 100 packets.
busy_classes() {
  tc -n "$1" -s class show dev "$2" | awk '/^class htb .* parent 1:1 / {c = $3}
    /^ Sent / && c != "" {if ($4 > 100) n++; c = ""} END {print n + 0}'
}
fprefix="${prefix}f"
star_prefixes+=("$fprefix")
for conn in direction peer; do
  check "star up, 100 Mbit/s ports fair between flows" bash "$STAR" up --prefix "$fprefix" \
    --hosts 2 --rate 100mbit --burst 32kb --limit 1mb --all-ports --fair-flows
  check "allreduce of 4 MiB, 2 ranks, --ucx-connections $conn" bash "$RUN" --prefix "$fprefix" \
    --ranks 2 --logs "$work/logs2" --timeout 200 -- "$BIN/dlc-bench" ring --transport ucx \
    --ucx-tls tcp,self --ucx-connections "$conn" --timeout 60 -s 4M -n 3 -w 1 \
    --json "$work/two-$conn.json"
  classes=$(busy_classes "$fprefix-sw" p0)
  [ "$conn" = direction ] && want=2 || want=1
  check "p0: $want class(es) carried > 100 packets with --ucx-connections $conn (saw $classes)" \
    test "$classes" -eq "$want"
  bash "$STAR" down --prefix "$fprefix" >/dev/null
done
# 2 ranks, a connection per direction (2026-11-27): build/ 12 runs 0.914 to 0.961 (median
# 0.957), build-sanitize/ 7 runs 0.932 to 0.968; 0.9 passes the worst by 1.02x and fails a 2x
# regression by far.
json_assert "$work/two-direction.json" "d['wrong_total'] == 0" \
  "d['context']['transport']['connections'] == 'direction'" \
  "d['sizes'][0]['busbw_GBps'] * 1e9 <= 1.02 * $rate" \
  "d['sizes'][0]['busbw_GBps'] * 1e9 >= 0.9 * $rate"
for conn in direction peer; do
  python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['sizes'][0]; print('2 ranks, $conn: busbw / port rate %.3f' % (s['busbw_GBps'] * 1e9 / $rate))" \
    "$work/two-$conn.json" || true
done
finish
