# dlc-bench fanin on a real kernel queue: a star of network namespaces (scripts/netns-star.sh)
# with a 100 Mbit/s tbf on the switch port toward the server, 4 workers bursting 16 x 64 KiB
# each over UCX tcp, the tbf sampled by rank 0 (--qdisc p0 --qdisc-netns P-sw). Checks what
# issue #13 asks of the pattern: the burst completion time (BCT) is at least the physical limit
# (all bytes at 100 Mbit/s) and within 1.10x of it; Jain >= 0.9 for equal workers; no message is
# much faster in the incast than alone, and the median message is slowed (slowdown min >= 0.85,
# p50 >= 1.5: the smallest slowdown is that of a round's first message, which meets the queue
# empty as in a solo round; a first message's solo minimum of about 3.3 ms varied from 3.22 to
# 3.71 ms between runs of 5 ranks on this 2-CPU host, with or without TCP's restart after idle
# and with 10 ms between rounds, so its ratio carries about 12 % of scheduling noise; 0.95 and
# 0.90 each failed a run in three to six); the sampled queue peaks above zero. With --initcwnd
# 1000 (senders that do not slow-start, as an RDMA NIC) the latency-derived queue agrees with
# the sampled one within 2x; with a background rank the queue at burst start is above zero and
# the BCT grows. The figures above were measured with BBR, the kernel's default the star ran
# before it set cubic; with cubic (2026-11-27, 9 runs, load 2 to 7): BCT/limit 0.993 to 0.999,
# Jain 0.961 to 0.999, slowdown min 0.97 to 1.03 and p50 3.90 to 4.28; with --initcwnd 1000 the
# latency-derived peak 3069 to 3117 KiB against the sampled 3114 to 4209 KiB. Root only: exits
# 77 when not root or when `ip netns add` fails. $1: the build's bin directory.
source "$(dirname "$0")/../e2e/lib.sh"
star_test fan
star_prefixes+=("${prefix}w")

common=(fanin --transport ucx --ucx-tls tcp,self -s 64K --burst 16 -n 5 --warmup 1 --solo 3
        --timeout 60 -q)
# fanin STAR RANKS JSON ARGS...: one run, rank 0 sampling the tbf.
fanin() {
  local star="$1" ranks="$2" json="$3"
  shift 3
  check "fanin on $star, $ranks ranks $*" bash "$RUN" --prefix "$star" --ranks "$ranks" \
    --logs "$work/logs" --timeout 200 -- "$BIN/dlc-bench" "${common[@]}" --qdisc p0 \
    --qdisc-netns "$star-sw" --json "$json" "$@"
}
# The physical limit of an iteration: its bytes at 100 Mbit/s; the BCT is the median's.
limits=(
  "d['spec']['workers'] == 4 and d['summary']['iterations'] == 5"
  "d['summary']['bct_s'] >= 0.99 * d['iterations'][-1]['bytes'] * 8 / 100e6"
  "d['summary']['bct_s'] <= 1.10 * d['iterations'][-1]['bytes'] * 8 / 100e6"
)

check "star up (TCP defaults)" bash "$STAR" up --prefix "$prefix" --hosts 6 --rate 100mbit \
  --burst 32kb --limit 8mb
fanin "$prefix" 5 "$work/plain.json"
json_assert "$work/plain.json" "${limits[@]}" \
  "d['summary']['jain'] >= 0.9" \
  "d['summary']['slowdown']['min'] >= 0.85" \
  "d['summary']['slowdown']['p50'] >= 1.5" \
  "d['summary']['qdisc']['peak_bytes'] > 0" \
  "d['qdisc']['summary']['achieved_rate_hz'] >= 9000"
fanin "$prefix" 6 "$work/bg.json" --background 1 --bg-size 16K --bg-lead 50
json_assert "$work/bg.json" "${limits[@]:0:1}" \
  "d['summary']['qdisc']['start_bytes'] > 0" \
  "d['background']['messages'] > 0"
python3 - "$work/plain.json" "$work/bg.json" >"$work/cmp" <<'PY'
import json, sys
a, b = (json.load(open(p))["summary"] for p in sys.argv[1:])
ok = b["bct_s"] > a["bct_s"]
print(("ok: " if ok else "FAIL: ") +
      f"the background makes the BCT grow: {a['bct_s'] * 1e3:.1f} ms -> {b['bct_s'] * 1e3:.1f} ms")
PY
count_results "$work/cmp"
bash "$STAR" down --prefix "$prefix" >/dev/null

check "star up (--initcwnd 1000)" bash "$STAR" up --prefix "${prefix}w" --hosts 5 \
  --rate 100mbit --burst 32kb --limit 8mb --initcwnd 1000
fanin "${prefix}w" 5 "$work/window.json"
json_assert "$work/window.json" "${limits[@]:0:1}" \
  "0.5 <= d['summary']['queue_estimate_bytes']['peak'] / d['summary']['qdisc']['peak_bytes'] <= 2"
python3 - "$work/plain.json" "$work/bg.json" "$work/window.json" <<'PY'
import json, sys
for p in sys.argv[1:]:
    s = json.load(open(p))["summary"]
    q = s.get("qdisc", {})
    print(f"  | {p.split('/')[-1]}: BCT {s['bct_s'] * 1e3:.1f} ms, BCT/limit {s['bct_over_limit']:.3f}, "
          f"Jain {s['jain']:.3f}, slowdown min {s['slowdown']['min']:.2f} p50 {s['slowdown']['p50']:.2f}, queue estimate "
          f"start/peak {s['queue_estimate_bytes']['start'] / 1024:.0f}/"
          f"{s['queue_estimate_bytes']['peak'] / 1024:.0f} KiB, qdisc "
          f"{q.get('start_bytes', -1024) / 1024:.0f}/{q.get('peak_bytes', -1024) / 1024:.0f} KiB")
PY
bash "$STAR" down --prefix "${prefix}w" >/dev/null
[ -z "$(ip netns list | awk '{print $1}' | grep -E "^$prefix")" ] && ok "no namespace left" ||
  bad "namespaces left: $(ip netns list | grep "$prefix")"
finish
