#!/usr/bin/env bash
# release_skew.sh: how close together the ranks of a job start their measured phase, released
# by the bootstrap barrier or at a common instant on rank 0's clock (launch/job.hpp), measured
# on rank 0's clock by the job layer itself (tests/launch/job_check.cpp), for several job
# sizes. The reference is the clock bound: a skew is only known to within skew_bound_s.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

usage() {
  cat <<'EOF'
usage: bench/release_skew.sh OUT.json [--ranks "2 4 8"] [--rounds N] [--transport ucx|verbs]
                             [--ucx-tls TLS] [--build DIR]

Runs job_check --spawn N with --release barrier and --release instant, alternating, ROUNDS
times for each N, and writes every run's skew (latest start minus earliest, on rank 0's
clock), each rank's lateness and the clock bound, with the median and maximum per case.
Defaults: ranks "2 4 8", 10 rounds, UCX over tcp,self on this host.
EOF
}

out=""; ranks="2 4 8"; rounds=10; transport=ucx; tls="tcp,self"; build="$repo/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --transport) transport="$2"; shift 2 ;;
    --ucx-tls) tls="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "release_skew.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
check="$build/tests/launch/job_check"
[ -x "$check" ] || { echo "release_skew.sh: $check not built (cmake --build $build)" >&2; exit 1; }

runs="$(mktemp /tmp/release-skew.XXXXXX)"
trap 'rm -f "$runs"' EXIT
extra=()
[ "$transport" = ucx ] && extra=(--ucx-tls "$tls")
for n in $ranks; do
  for ((k = 0; k < rounds; k++)); do
    for mode in barrier instant; do
      line="$(timeout 300 "$check" --spawn "$n" --transport "$transport" "${extra[@]}" \
              --release "$mode" --max-skew-us 1e9 2>/dev/null | grep '^{' || true)"
      if [ -z "$line" ]; then
        echo "release_skew.sh: $n ranks, $mode, round $k: no result" >&2
        continue
      fi
      echo "$line" >>"$runs"
    done
  done
done

python3 - "$runs" "$out" "$transport" "$tls" "$rounds" <<'PY'
import json, statistics, subprocess, sys, datetime, platform, os
runs_path, out, transport, tls, rounds = sys.argv[1:6]
runs = [json.loads(l) for l in open(runs_path) if l.strip()]
cases = {}
for r in runs:
    cases.setdefault((r["ranks"], r["release"]["mode"]), []).append(r)
rows = []
print(f"{'ranks':>5} {'release':>8} {'runs':>4} {'skew p50 us':>12} {'skew max us':>12} "
      f"{'bound max us':>12} {'latest rank (most often)':>25}")
for (n, mode), rs in sorted(cases.items()):
    skews = [r["release"]["skew_s"] * 1e6 for r in rs]
    bounds = [r["release"]["skew_bound_s"] * 1e6 for r in rs]
    latest = [r["release"]["latest_rank"] for r in rs]
    most = max(set(latest), key=latest.count)
    row = {"ranks": n, "release": mode, "runs": len(rs),
           "skew_p50_s": statistics.median(skews) * 1e-6, "skew_max_s": max(skews) * 1e-6,
           "skew_bound_max_s": max(bounds) * 1e-6, "latest_rank_counts":
           {str(k): latest.count(k) for k in sorted(set(latest))}}
    rows.append(row)
    print(f"{n:>5} {mode:>8} {len(rs):>4} {statistics.median(skews):>12.1f} {max(skews):>12.1f} "
          f"{max(bounds):>12.3f} {most:>25}")
doc = {"context": {"tool": "bench/release_skew.sh",
                   "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                   "host": platform.node(), "cpus": os.cpu_count(), "transport": transport,
                   "ucx_tls": tls if transport == "ucx" else None, "rounds": int(rounds)},
       "cases": rows, "runs": runs}
for r in runs:
    r.pop("clock", None)  # per-rank clock blocks: job_check prints them, the skew needs none
with open(out, "w") as f:  # one line per run: 160 runs of 16-rank jobs stay readable
    f.write('{"context": ' + json.dumps(doc["context"]) + ',\n "cases": ' +
            json.dumps(rows, indent=1) + ',\n "runs": [\n' +
            ",\n".join(json.dumps(r) for r in runs) + "\n]}\n")
print(f"wrote {out}")
PY
