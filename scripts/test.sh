#!/usr/bin/env bash
# Sets up and runs every test of dlcnet (the README's test command; .ci/run calls it).
#   1. installs the Debian packages (scripts/install-deps.sh) and builds twice, with warnings as
#      errors: build/ (gcc, -O2, the README's install build: tests on, not unity, through ccache)
#      and build-sanitize/ (clang, -O1, with AddressSanitizer + UndefinedBehaviorSanitizer and
#      libFuzzer's coverage: -DDLCNET_FUZZ=ON; a unity build, half the time on 2 CPUs);
#   2. host tier, in build-sanitize/: every test labelled `host` or `rdma` (device tests skip
#      without a device), unit and end to end, under the sanitizers: any finding fails its
#      test; and every fuzz target (label `fuzz`) for DLCNET_FUZZ_SECONDS (5) from its seeds,
#      its committed corpus and crash regressions;
#   2b. scale tier, in build/: the tests labelled `scale` (bounds on speed at many ranks);
#   3. rdma tier, in build/: the `rdma` tests that skipped on the host (they need a device; the
#      others ran in the host tier already), inside the Soft-RoCE QEMU guest
#      (scripts/rdma-run.sh) where the host has no RDMA device. There they must pass: a test
#      that skips in the guest fails the tier unless tests/rdma-skips.txt names it and why;
#   4. front tier, in build/: the README's own commands (label `front`): run-main.sh as a user
#      runs it, and the install (the build without tests, cmake --install, the .deb);
#   5. two-guest tier, in build/: tests labelled `guest2` boot two guests joined by a wire.
# A tier whose ctest finds no test fails. Each tier's JUnit file (every test's time) is kept
# in build/test-logs/, and the slowest tests are listed at the end.
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
# ccache (install-deps.sh installs it): the install test's build without tests
# (tests/package/install.sh) compiles the same files with the same flags and finds them there,
# and a later run of the suite (another clone too: paths below the repository are hashed
# relative to it) compiles only what changed. A first run on a machine compiles everything.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt" \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$opt" -DCMAKE_UNITY_BUILD=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$jobs"
# The sanitizers' build: -O1 with line tables (a finding names file and line), asserts on.
san="-O1 -gline-tables-only"
CC=clang CXX=clang++ cmake -S . -B "$sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$san" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$san" \
  -DDLCNET_FUZZ=ON -DCMAKE_UNITY_BUILD=ON "${launcher[@]}" >/dev/null
cmake --build "$sanitize" -j "$jobs"

logs="$(mktemp -d /tmp/dlcnet-test.XXXXXX)"
junit="$(realpath "$build")/test-logs"
rm -rf "$junit"
mkdir -p "$junit"
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
# ctest's options in every tier: no tier may find no test; every test's time kept.
ct() {
  local name="$1"
  shift
  ctest --no-tests=error --output-on-failure --output-junit "$junit/$name.xml" "$@"
}

# LeakSanitizer off: the libraries' own allocations are not freed at exit (hwloc's PCI name
# table, UCX's modules, unloaded before the check so that no suppression can name them: 8 000+
# reports per process), and the check took 17 s per exit, past the tests' --timeout bounds.
# AddressSanitizer's memory errors and every UndefinedBehaviorSanitizer check stay fatal.
# A finding aborts (SIGABRT) rather than exiting 1, so that no test that expects a tool to
# fail can mistake a sanitizer's exit for the error it waits for.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:abort_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
tier host ct host --test-dir "$sanitize" -LE 'guest2|scale|front' --timeout 900
# scale: tests whose bounds are speed at many ranks, on the optimized build.
tier scale ct scale --test-dir "$build" -L scale --timeout 900
# rdma: the `rdma` tests that skipped on the host, where a device exists. On a host with a
# device none skipped (they ran for real under the sanitizers) and this tier has nothing to do.
# The verbs transport's device tests run there a second time, under the sanitizers.
device_tests="$(python3 scripts/skipped_tests.py "$logs/host.log")"
verbs_tests="$(python3 scripts/skipped_tests.py "$logs/host.log" --from verbs_tests \
  --test-dir "$sanitize")"
if [ -n "$device_tests" ]; then
  tier rdma bash scripts/rdma-run.sh --timeout 1800 --env ASAN_OPTIONS --env UBSAN_OPTIONS -- \
    bash -c 'ctest --no-tests=error --output-on-failure --output-junit "$1/rdma.xml" \
        --test-dir "$2" -L rdma -R "$3" --timeout 900 && {
      [ -z "$5" ] || ctest --no-tests=error --output-on-failure \
        --output-junit "$1/rdma-sanitize.xml" --test-dir "$4" -L rdma -R "$5" --timeout 900; }' \
    rdma "$junit" "$build" "$device_tests" "$sanitize" "$verbs_tests"
  # There they must pass: a skip is a failure unless the allow-list names it and why.
  python3 scripts/skipped_tests.py "$logs/rdma.log" --allow tests/rdma-skips.txt || status=1
fi
tier front ct front --test-dir "$build" -L front --timeout 1800
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
  tier guest2 ct guest2 --test-dir "$build" -L guest2 --timeout 1200
fi

# ctest's own summary line of each tier: "X% tests passed, F tests failed out of T".
python3 - "$logs" <<'PY' || status=1
import pathlib, re, sys
passed = failed = skipped = 0
times = []
for log in sorted(pathlib.Path(sys.argv[1]).glob("*.log")):
    text = log.read_text(errors="replace")
    for name, secs in re.findall(r"Test +#\d+: (\S+) \.*.*?(?:Passed|Failed|\*\*\*\w+).*? ([\d.]+) sec", text):
        times.append((float(secs), f"{log.stem}: {name}"))
    # One summary per ctest run (the rdma tier runs two).
    m = re.findall(r"tests passed, (\d+) tests failed out of (\d+)", text)
    if not m:
        print(f"{log.stem}: no ctest summary (no test found, or the tier did not run to the end)")
        failed += 1
        continue
    s = len(re.findall(r"\*\*\*Skipped|Not Run \(Disabled\)", text))
    for f, total in (map(int, x) for x in m):
        passed += total - f
        failed += f
    passed -= s
    skipped += s
print("slowest tests:")
for secs, name in sorted(times, reverse=True)[:15]:
    print(f"  {secs:8.1f} s  {name}")
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
rm -rf "$logs"
exit $status
