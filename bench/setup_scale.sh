#!/usr/bin/env bash
# setup_scale.sh: how long a job's set-up takes against its number of ranks, all on this host:
# join (TCP bootstrap), agree, connect (UCX all to all) and the clock alignment, per phase as
# the job layer times them on rank 0 (tests/launch/job_check.cpp, the report's `setup`), plus
# the wall time and the CPU time (user + system, every rank) of the whole spawned job and the
# host's load average when it started; optionally a LeNet-5 replay (dlc-replay --spawn) as
# well. Writes OUT.json and OUT.png (bench/plot_setup_scale.py).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=bench/lib.sh
source "$here/lib.sh"

usage() {
  cat <<'EOF2'
usage: bench/setup_scale.sh OUT.json [--ranks "8 32 64 128 256"] [--replay-ranks "128"]
                            [--idle block|auto|...] [--tls tcp,self] [--timeout S] [--build DIR]

Runs job_check --spawn N (UCX over --tls, release by barrier, skew not checked) once per N;
ranks beyond this host's CPUs wait with --idle (default block: on the transport's events).
With --replay-ranks, also replays a LeNet-5 job (dlc-trace synth -m lenet5, N-8 workers and
8 servers, 2 iterations) with dlc-replay --spawn for each N given there.
EOF2
}

out=""; ranks="8 32 64 128 256"; replay_ranks=""; idle=block; timeout_s=120; tls=tcp,self
build="$repo/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks="$2"; shift 2 ;;
    --replay-ranks) replay_ranks="$2"; shift 2 ;;
    --idle) idle="$2"; shift 2 ;;
    --tls) tls="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "setup_scale.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { usage >&2; exit 2; }
check="$build/tests/launch/job_check"
[ -x "$check" ] || { echo "setup_scale.sh: $check not built" >&2; exit 1; }

work="$(mktemp -d /tmp/setup-scale.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cpus="$(nproc)"
idle_for() { if [ "$1" -gt "$cpus" ]; then echo "$idle"; else echo auto; fi; }

# One run: KIND N COMMAND...; appends {"kind", "ranks", "rc", "wall_s", "cpu_s", "load_1min",
# "idle", "phases_s", "setup", "errors"}.
run_one() {
  local kind="$1" n="$2" json="$work/$1-$2.json"
  shift 2
  local t0 t1 rc=0 load
  load="$(cut -d' ' -f1 /proc/loadavg)"
  t0="$(date +%s.%N)"
  timeout $((timeout_s * 3)) nice -n 10 /usr/bin/time -o "$work/$kind-$n.time" -f "%U %S" \
    "$@" --json "$json" >"$work/$kind-$n.out" 2>"$work/$kind-$n.err" || rc=$?
  t1="$(date +%s.%N)"
  python3 - "$json" "$kind" "$n" "$rc" "$t0" "$t1" "$work/$kind-$n.err" "$work/$kind-$n.time" \
    "$load" >>"$work/runs" <<'PY'
import json, os, sys
path, kind, n, rc, t0, t1, err, tm, load = sys.argv[1:10]
doc = json.load(open(path)) if os.path.exists(path) else {}
errors = [l.strip()[:400] for l in open(err) if "Assertion" in l or ": error: " in l][:3]
closes = sum(1 for l in open(err) if "closing the endpoint" in l)
if closes:
    errors.append(f"{closes} line(s) 'closing the endpoint(s) to ... timed out' at exit")
try:
    cpu = round(sum(float(x) for x in open(tm).read().split()[-2:]), 2)
except (OSError, ValueError):
    cpu = None
print(json.dumps({"kind": kind, "ranks": int(n), "rc": int(rc),
                  "wall_s": round(float(t1) - float(t0), 3), "cpu_s": cpu,
                  "load_1min": float(load),
                  "idle": doc.get("idle", doc.get("context", {}).get("idle")),
                  "phases_s": doc.get("phases_s", {}), "setup": doc.get("setup", {}),
                  "errors": errors}))
PY
  tail -n1 "$work/runs"
}

for n in $ranks; do
  run_one job_check "$n" "$check" --spawn "$n" --transport ucx --ucx-tls "$tls" \
    --release barrier --max-skew-us 1e12 --idle "$(idle_for "$n")" --timeout "$timeout_s"
done
for n in $replay_ranks; do
  "$build/bin/dlc-trace" synth -o "$work/lenet5-$n" -w $((n - 8)) -s 8 -n 2 -m lenet5 --seed 1 \
    >/dev/null
  run_one replay_lenet5 "$n" "$build/bin/dlc-replay" "$work/lenet5-$n" --spawn --transport ucx \
    --ucx-tls "$tls" --idle "$(idle_for "$n")" --timeout "$timeout_s"
done

build_note="binary built $(date -u -r "$check" +%Y-%m-%dT%H:%M:%SZ)"
bench_context "$work/context" "tool=\"bench/setup_scale.sh\"" "transport=$(json_str "ucx $tls")" \
  "launcher=\"--spawn (all ranks on this host)\"" "idle_when_oversubscribed=$(json_str "$idle")"
python3 - "$work/context" "$work/runs" "$out" <<'PY'
import json, sys
ctx, runs, out = sys.argv[1:4]
doc = {"context": json.load(open(ctx)), "runs": [json.loads(l) for l in open(runs)]}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
print(f"wrote {out}")
PY
# Debian's python3-matplotlib is for the system interpreter (a pyenv python3 may lack it).
"${PLOT_PYTHON:-/usr/bin/python3}" "$here/plot_setup_scale.py" "$out" "${out%.json}.png"
