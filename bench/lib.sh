# bench/lib.sh: what perftest_compare.sh and ucx_compare.sh share (sourced, not run).
#   bench_build NAME BUILD(0|1): sets $bench_bin (build-bench/bin/dlc-bench) and $build_note,
#     (re)building it when BUILD is 1; exits when there is no binary to measure.
#   bench_context OUT.json KEY=JSON...: the report's context block: host, kernel, CPUs, date,
#     dlcnet commit and build, plus the given keys (each value a JSON literal).

bench_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

bench_build() {
  local name="$1" build="$2"
  bench_bin="$bench_repo/build-bench/bin/dlc-bench"
  build_note="not rebuilt (--no-build)"
  if [ "$build" -eq 1 ]; then
    # A build folder of its own, RelWithDebInfo like the tests' one. When the tree does not
    # build right now, the binary already there is measured, and the report says so.
    mkdir -p "$bench_repo/build-bench"
    local log="$bench_repo/build-bench/bench-build.log"
    if cmake -S "$bench_repo" -B "$bench_repo/build-bench" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$log" 2>&1 &&
      cmake --build "$bench_repo/build-bench" -j "$(nproc)" --target dlc-bench >>"$log" 2>&1; then
      build_note="rebuilt"
    else
      build_note="rebuild FAILED (see build-bench/bench-build.log); measured the existing binary"
      echo "$name: warning: $build_note" >&2
    fi
  fi
  [ -x "$bench_bin" ] || { echo "$name: $bench_bin not built (drop --no-build)" >&2; exit 1; }
  build_note="$build_note; binary built $(date -u -r "$bench_bin" +%Y-%m-%dT%H:%M:%SZ)"
}

bench_context() {
  local out="$1"
  shift
  python3 - "$out" "$bench_repo" "$build_note" "$@" <<'EOF'
import datetime, json, platform, socket, subprocess, sys
out, repo, build_note, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""
ctx = {
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "host": socket.gethostname(),
    "host_kernel": platform.platform(),
    "host_cpus": int(sh("nproc") or 0),
    "cpu_model": sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-"),
    "dlcnet_commit": sh(f"git -C '{repo}' rev-parse HEAD"),
    "dlcnet_tree_dirty": bool(sh(f"git -C '{repo}' status --porcelain --untracked-files=no")),
    "dlcnet_build": build_note,
}
for kv in extra:
    key, _, value = kv.partition("=")
    ctx[key] = json.loads(value)
json.dump(ctx, open(out, "w"), indent=2)
EOF
}

# json_str TEXT: TEXT as a JSON string literal (for bench_context's values).
json_str() {
  python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$1"
}
