#!/usr/bin/env bash
# Sets up and runs every test of dlcnet (the README's test command; .ci/run calls it).
#   1. installs the Debian packages (scripts/install-deps.sh) and builds twice, with warnings as
#      errors: build/ (gcc, -O2, the project's default) and build-sanitize/ (clang, -O1, with
#      AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer's coverage: -DDLCNET_FUZZ=ON);
#   2. host tier, in build-sanitize/: every test labelled `host` or `rdma` (device tests skip
#      without a device), unit and end to end, under the sanitizers: any finding fails its
#      test; and every fuzz target (label `fuzz`) for DLCNET_FUZZ_SECONDS (5) from its seeds and
#      crash regressions;
#   2b. scale tier, in build/: the tests labelled `scale` (bounds on speed at many ranks);
#   3. rdma tier, in build/: `ctest -L rdma` where an RDMA device exists: directly on an RDMA
#      host, else inside the Soft-RoCE QEMU guest (scripts/rdma-run.sh), where they must pass;
#   4. two-guest tier, in build/: tests labelled `guest2` boot two guests joined by a wire.
#   Both builds are unity builds (-DCMAKE_UNITY_BUILD=ON): half the build's time on a 2-CPU
#   host (CI's budget); the code builds either way.
# Prints one closing line "tests: N passed, N failed, N skipped" and exits non-zero on any
# failure. DLCNET_BUILD_DIR overrides the build folder (default: build; the sanitizers' is
# its name + "-sanitize").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Debian's own tools first (install-deps.sh installs them): a python3 shim of pyenv or the like
# runs a shell and a resolver per call, 10+ s each inside the emulated guest.
export PATH="/usr/bin:/bin:$PATH"
build="${DLCNET_BUILD_DIR:-build}"
sanitize="$build-sanitize"
jobs="${DLCNET_JOBS:-$(nproc)}"

bash scripts/install-deps.sh
# The project's default build (-O2, NDEBUG) without -g: debug info is 25 to 30 % of the
# build's time on this 2-CPU host (CI's budget); DLCNET_DEBUG_INFO=1 keeps it.
opt="-O2 -DNDEBUG"
[ "${DLCNET_DEBUG_INFO:-0}" = 1 ] && opt="-O2 -g -DNDEBUG"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt" \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$opt" -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build "$build" -j "$jobs"
# The sanitizers' build: -O1 with line tables (a finding names file and line), asserts on.
san="-O1 -gline-tables-only"
CC=clang CXX=clang++ cmake -S . -B "$sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$san" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$san" \
  -DDLCNET_FUZZ=ON -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build "$sanitize" -j "$jobs"

logs="$(mktemp -d /tmp/dlcnet-test.XXXXXX)"
status=0
# tier NAME COMMAND...: runs one tier, keeps its log, remembers a failure.
tier() {
  local name="$1"
  shift
  echo "=== $name ==="
  local t0=$SECONDS
  if "$@" 2>&1 | tee "$logs/$name.log"; then :; else status=1; fi
  echo "=== $name: $((SECONDS - t0)) s ==="
}

# LeakSanitizer off: the libraries' own allocations are not freed at exit (hwloc's PCI name
# table, UCX's modules, unloaded before the check so that no suppression can name them: 8 000+
# reports per process), and the check took 17 s per exit, past the tests' --timeout bounds.
# AddressSanitizer's memory errors and every UndefinedBehaviorSanitizer check stay fatal.
# A finding aborts (SIGABRT) rather than exiting 1, so that no test that expects a tool to
# fail can mistake a sanitizer's exit for the error it waits for.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:abort_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
tier host ctest --test-dir "$sanitize" -LE 'guest2|scale' --output-on-failure --timeout 900
# scale: tests whose bounds are speed at many ranks, on the optimized build.
tier scale ctest --test-dir "$build" -L scale --output-on-failure --timeout 900
tier rdma bash scripts/rdma-run.sh --timeout 1800 -- \
  ctest --test-dir "$build" -L rdma --output-on-failure --timeout 900
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
  tier guest2 ctest --test-dir "$build" -L guest2 --output-on-failure --timeout 1200
fi

# ctest's own summary line of each tier: "X% tests passed, F tests failed out of T".
python3 - "$logs" <<'PY' || status=1
import pathlib, re, sys
passed = failed = skipped = 0
for log in sorted(pathlib.Path(sys.argv[1]).glob("*.log")):
    text = log.read_text(errors="replace")
    m = re.findall(r"tests passed, (\d+) tests failed out of (\d+)", text)
    if not m:
        if "No tests were found" in text:
            continue
        print(f"{log.stem}: no ctest summary (the tier did not run to the end)")
        failed += 1
        continue
    f, total = map(int, m[-1])
    s = len(re.findall(r"\*\*\*Skipped|Not Run \(Disabled\)", text))
    passed += total - f - s
    failed += f
    skipped += s
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
rm -rf "$logs"
exit $status
