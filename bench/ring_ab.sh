#!/usr/bin/env bash
# ring_ab.sh: dlc-bench ring of two builds (A: a reference build, e.g. of an earlier commit; B:
# this one) against each other, in ONE run, the two alternating round by round and the order
# flipping every round, so that a change of the code around the datapath (the N-rank runner)
# can be told from this VM's swings. Per fabric, N and size: each build's busbw median over the
# rounds and the median of the paired ratios B/A (each round's B over the same round's A).
# Writes OUT.json.
set -euo pipefail
export PATH="/usr/bin:/bin:/usr/sbin:/sbin:$PATH"

usage() {
  cat <<'EOF'
usage: bench/ring_ab.sh OUT.json --a BUILD_A --b BUILD_B [--rounds R] [--ranks "2 4"]
                        [--tls "sm tcp"] [--sizes 1M:4M] [-n ITERS] [-w WARM]
Each round runs, for every fabric and N, `dlc-bench ring --spawn -c 0` of A and of B (order
flipping every round) over UCX (sm: UCX_TLS sm,self; tcp: tcp,self on lo).
EOF
}
[ "${1:-}" = --help ] && { usage; exit 0; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
out="$1"
shift
a="" b="" rounds=5 ranks="2 4" tls="sm tcp" sizes="1M:4M" iters=20 warm=5
while [ $# -gt 0 ]; do
  case "$1" in
    --a) a="$(realpath "$2")"; shift 2 ;;
    --b) b="$(realpath "$2")"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --ranks) ranks="$2"; shift 2 ;;
    --tls) tls="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    -n) iters="$2"; shift 2 ;;
    -w) warm="$2"; shift 2 ;;
    *) usage >&2; exit 2 ;;
  esac
done
[ -x "$a/bin/dlc-bench" ] && [ -x "$b/bin/dlc-bench" ] || { echo "ring_ab: --a and --b: build dirs" >&2; exit 2; }
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d /tmp/ring-ab.XXXXXX)"
trap 'rm -rf "$work"' EXIT
for ((r = 1; r <= rounds; r++)); do
  order="a b"
  [ $((r % 2)) -eq 0 ] && order="b a"
  for f in $tls; do
    for n in $ranks; do
      for side in $order; do
        dir=$a
        [ "$side" = b ] && dir=$b
        t=sm,self
        [ "$f" = tcp ] && t=tcp,self
        timeout 600 "$dir/bin/dlc-bench" ring --spawn --ranks "$n" --transport ucx --ucx-tls "$t" \
          -b "${sizes%:*}" -e "${sizes#*:}" -n "$iters" -w "$warm" -c 0 -q \
          --json "$work/$f-$n-$side-$r.json"
      done
    done
  done
  echo "ring_ab: round $r/$rounds done" >&2
done
python3 - "$work" "$out" "$rounds" "$ranks" "$tls" "$a" "$b" "$repo" "$*" <<'PY'
import json, statistics, subprocess, sys, datetime
work, out, rounds, ranks, tls, a, b, repo = sys.argv[1:9]
rounds = int(rounds)
def commit(d):
    try:
        return open(f"{d}/CMakeCache.txt").read().split("CMAKE_HOME_DIRECTORY:INTERNAL=")[1].split("\n")[0]
    except Exception:
        return d
def git(d, *args):
    return subprocess.run(["git", "-C", d, *args], capture_output=True, text=True).stdout.strip()
res = {"context": {"date": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
                   "comparison": "dlc-bench ring of build B over build A, alternating, -c 0",
                   "a": {"build": a, "source": commit(a), "commit": git(commit(a), "rev-parse", "HEAD")},
                   "b": {"build": b, "source": commit(b), "commit": git(commit(b), "rev-parse", "HEAD"),
                         "tree_dirty": bool(git(commit(b), "status", "--porcelain", "--untracked-files=no"))},
                   "rounds": rounds, "command": "bench/ring_ab.sh " + " ".join(sys.argv[1:2])},
       "rows": []}
for f in tls.split():
    for n in ranks.split():
        per = {}
        for r in range(1, rounds + 1):
            for side in "ab":
                d = json.load(open(f"{work}/{f}-{n}-{side}-{r}.json"))
                for s in d["sizes"]:
                    per.setdefault(s["size_bytes"], {"a": {}, "b": {}})[side][r] = s["busbw_GBps"]
        for size, v in sorted(per.items()):
            pairs = [v["b"][r] / v["a"][r] for r in range(1, rounds + 1) if v["a"].get(r)]
            row = {"fabric": f, "ranks": int(n), "size_bytes": size,
                   "a_busbw_GBps_median": statistics.median(v["a"].values()),
                   "b_busbw_GBps_median": statistics.median(v["b"].values()),
                   "paired_ratios": pairs, "paired_ratio_median": statistics.median(pairs)}
            res["rows"].append(row)
            print(f"{f:4} N={n} {size >> 10:6} KiB  A {row['a_busbw_GBps_median']:.3f}  "
                  f"B {row['b_busbw_GBps_median']:.3f} GB/s  B/A paired median "
                  f"{row['paired_ratio_median']:.3f} (min {min(pairs):.3f}, max {max(pairs):.3f})")
json.dump(res, open(out, "w"), indent=1)
print("written:", out)
PY
