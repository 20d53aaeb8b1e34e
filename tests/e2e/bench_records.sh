# dlc-bench's figures against its own per-message records (--records), over UCX on this host
# (--loopback, tcp and shared memory): lat and bw with --op send, write and read, a sweep of
# sizes and one size with many samples. One Python pass recomputes every figure from the
# records, in exact integer and rational arithmetic, independently of the tool:
# - lat: a message's round trip is complete_ns - post_ns (post_ns: the clock read just before
#   the ping or read is posted; complete_ns: the one just after the reply arrived or the read
#   completed, which is also the next message's post_ns). Latency is half of it for send and
#   write ping-pong and all of it for read, as perftest; min, p50, p90, p99, p99_9, max
#   (nearest rank: the ceil(p*n)-th smallest), mean and stdev (n-1) must be the JSON's.
# - bw: average = the records' bytes / (last complete_ns - first post_ns), message rate and
#   seconds over the same span, peak = the best window of tx_depth consecutive messages (first
#   post to last completion in it), never below the average.
# A factor flipped (whole round trip for send, half for read) or a bandwidth over another span
# fails here (seen against a deliberately broken dlc-bench).
source "$(dirname "$0")/lib.sh"
B="$BIN/dlc-bench"
names=()

# run NAME KIND OP ARGS...: one --loopback run with --json and --records; NAME joins the check.
run() {
  local name="$1" kind="$2" op="$3"
  shift 3
  check "$name" "$B" "$kind" --op "$op" --loopback --transport ucx --timeout 30 \
    --json "$work/$name.json" --records "$work/$name.csv" "$@"
  if [ -s "$work/$name.json" ] && [ -s "$work/$name.csv" ]; then names+=("$name"); else
    bad "$name: no JSON or no records"
  fi
}

# tcp: every op and kind, a sweep (-a: 2 B .. 8 MiB, over the eager/rendezvous threshold) and
# 4 KiB with enough samples that p50, p90, p99, p99_9 and max are different ranks; shared
# memory (--ucx-tls sm): the 4 KiB runs.
for op in send write read; do
  for kind in lat bw; do
    run "$kind-$op-tcp-sweep" "$kind" "$op" -a -n 5 --warmup 1 --ucx-tls tcp
    run "$kind-$op-tcp-4k" "$kind" "$op" -s 4K -n 1000 --warmup 10 --ucx-tls tcp
    run "$kind-$op-sm-4k" "$kind" "$op" -s 4K -n 1000 --warmup 10 --ucx-tls sm
  done
done

args=()
for n in "${names[@]}"; do args+=("$n" "$work/$n.json" "$work/$n.csv"); done
python3 - "${args[@]}" >"$work/py" 2>&1 <<'PY' || bad "records check: python failed"
import csv, json, math, sys
from fractions import Fraction as F

def cmp_s(got, want, tol=F(1, 10**12)):
    """got: a JSON float in seconds; want: an exact Fraction of seconds. 1 ps covers the
    double's rounding; the records are whole ns, so another sample is >= 0.5 ns off."""
    return abs(F(got) - want) <= tol

def cmp_rel(got, want, rel=F(1, 10**9)):
    return want == 0 and got == 0 or abs(F(got) - want) <= rel * abs(want)

def nearest_rank(sorted_v, num, den):
    """The smallest sample with at least num/den of all samples <= it: the ceil(p*n)-th."""
    k = max(1, -(-num * len(sorted_v) // den))
    return sorted_v[min(k, len(sorted_v)) - 1]

def check_run(name, jpath, cpath):
    bad = {}
    def need(what, cond, detail=""):
        bad.setdefault(what, [])
        if not cond:
            bad[what].append(detail)
    try:
        d = json.load(open(jpath))
        with open(cpath, newline="") as f:
            rows = list(csv.DictReader(f))
    except Exception as e:
        print(f"FAIL: {name}: unreadable outputs ({e!r})")
        return
    kind, op = d["test"]["kind"], d["test"]["op"]
    # The factor is perftest's, not read from the tool: half the round trip for a ping-pong.
    factor = F(1) if op == "read" else F(1, 2)
    if kind == "lat":
        need("JSON says what latency is", d["test"]["latency_is"] ==
             ("round trip" if op == "read" else "half the round trip"), d["test"]["latency_is"])
    lanes = {l["transport"] for e in d["context"]["transport"]["endpoints"]
             for l in e["lanes"] if l["uses"]}
    sm = {"sysv", "posix", "cma", "knem", "xpmem", "self"}
    need("UCX lanes as asked", lanes and (lanes <= sm if "-sm-" in name else lanes == {"tcp"}),
         sorted(lanes))
    need("records are seq 0..N-1 of this op",
         [int(r["seq"]) for r in rows] == list(range(len(rows)))
         and all(r["op"] == op for r in rows))
    # Records of one size are consecutive, in the order of the JSON's results.
    groups = []
    for r in rows:
        b = int(r["bytes"])
        if not groups or groups[-1][0] != b:
            groups.append((b, []))
        groups[-1][1].append(r)
    results = d["results"]
    need("one group of records per result, same sizes and counts",
         [(b, len(g)) for b, g in groups] == [(x["bytes"], x["iterations"]) for x in results],
         f"records {[(b, len(g)) for b, g in groups][:5]}..., JSON "
         f"{[(x['bytes'], x['iterations']) for x in results][:5]}...")
    for (size, g), res in zip(groups, results):
        post = [int(r["post_ns"]) for r in g]
        done = [int(r["complete_ns"]) for r in g]
        n = len(g)
        need("complete_ns >= post_ns > 0", all(c >= p > 0 for p, c in zip(post, done)), size)
        if kind == "lat":
            # One clock read per iteration: each round trip starts where the previous ended.
            need("lat: every message signaled, round trips back to back",
                 all(r["signaled"] == "1" for r in g) and post[1:] == done[:-1], size)
            lat = sorted(F(c - p, 10**9) * factor for p, c in zip(post, done))
            l = res["latency_s"]
            mean = sum(lat) / n
            want = {"count": None, "min": lat[0], "max": lat[-1], "mean": mean,
                    "p50": nearest_rank(lat, 50, 100), "p90": nearest_rank(lat, 90, 100),
                    "p99": nearest_rank(lat, 99, 100), "p99_9": nearest_rank(lat, 999, 1000)}
            need("lat: count", l["count"] == n, (size, l["count"], n))
            for k, v in want.items():
                if v is not None:
                    need(f"lat: {k}", cmp_s(l[k], v),
                         f"{size} B: JSON {l[k]!r} s, records {float(v)!r} s "
                         f"(x{float(l[k] / float(v)) if v else 0:.3f})")
            if n > 1:
                sd = F(math.sqrt(sum((x - mean) ** 2 for x in lat) / (n - 1)))
                need("lat: stdev (n-1)", cmp_rel(l["stdev"], sd, F(1, 10**6)) or
                     cmp_s(l["stdev"], sd), f"{size} B: JSON {l['stdev']!r}, records {float(sd)!r}")
        else:
            bw = res["bandwidth"]
            sig = [r["signaled"] == "1" for r in g]
            # An unsignaled message completes with the signaled completion retiring it.
            later = set()
            ok_sig = sig[-1]
            for s, c in zip(reversed(sig), reversed(done)):
                if s:
                    later.add(c)
                ok_sig = ok_sig and c in later
            need("bw: the last message signaled, each completion a later signaled one's",
                 ok_sig, size)
            total = sum(int(r["bytes"]) for r in g)
            span = F(max(done) - min(post), 10**9)
            need("bw: bytes_total = the records' bytes", bw["bytes_total"] == total,
                 (size, bw["bytes_total"], total))
            need("bw: seconds = last complete_ns - first post_ns", cmp_rel(bw["seconds"], span),
                 f"{size} B: JSON {bw['seconds']!r}, records {float(span)!r}")
            avg = total / span if span else F(0)  # the tool's 0 for a run of no duration
            need("bw: average_bytes_per_s = bytes / (last complete - first post)",
                 cmp_rel(bw["average_bytes_per_s"], avg),
                 f"{size} B: JSON {bw['average_bytes_per_s']!r}, records {float(avg)!r} "
                 f"(x{bw['average_bytes_per_s'] / float(avg) if avg else 0:.4f})")
            need("bw: message_rate_per_s = messages / the same span",
                 cmp_rel(bw["message_rate_per_s"], n / span if span else F(0)), size)
            need("bw: average_mb_per_s (2^20 B), average_gbit_per_s",
                 cmp_rel(bw["average_mb_per_s"], avg / 2**20) and
                 cmp_rel(bw["average_gbit_per_s"], avg * 8 / 10**9), size)
            w = min(max(d["test"]["tx_depth"], 1), n)
            best = max((F(w * size * 10**9, done[i + w - 1] - post[i])
                        for i in range(n - w + 1) if done[i + w - 1] > post[i]), default=F(0))
            need("bw: peak = best window of tx_depth messages",
                 cmp_rel(bw["peak_bytes_per_s"], max(best, avg)),
                 f"{size} B: JSON {bw['peak_bytes_per_s']!r}, records {float(max(best, avg))!r}")
            # The second half: bytes completed after message n/2's completion, over the time
            # from it to the last completion (the average when that time is 0).
            half, last = done[(n - 1) // 2], max(done)
            after = sum(int(r["bytes"]) for r, c in zip(g, done) if c > half)
            steady = F(after * 10**9, last - half) if last > half else avg
            need("bw: steady_bytes_per_s = the second half's bytes over its time",
                 cmp_rel(bw["steady_bytes_per_s"], steady),
                 f"{size} B: JSON {bw['steady_bytes_per_s']!r}, records {float(steady)!r}")
    for what, fails in bad.items():
        if fails:
            print(f"FAIL: {name}: {what}: {len(fails)} size(s), e.g. {fails[:2]}")
        else:
            print(f"ok: {name}: {what} ({len(groups)} size(s), {len(rows)} records)")

args = sys.argv[1:]
for name, jpath, cpath in zip(args[0::3], args[1::3], args[2::3]):
    try:
        check_run(name, jpath, cpath)
    except Exception as e:
        print(f"FAIL: {name}: the check stopped: {e!r}")
PY
count_results "$work/py"
finish
