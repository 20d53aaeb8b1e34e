#!/usr/bin/env bash
# Sets up and runs every test of dlcnet (the README's test command; .ci/run calls it).
#   1. installs the Debian packages (scripts/install-deps.sh) and builds with warnings as errors;
#   2. host tier: every test labelled `host` or `rdma` (device tests skip without a device);
#   3. rdma tier: `ctest -L rdma` where an RDMA device exists: directly on an RDMA host, else
#      inside the Soft-RoCE QEMU guest (scripts/rdma-run.sh), where they must pass;
#   4. two-guest tier: tests labelled `guest2` boot two guests joined by a wire themselves;
#   5. asan tiers: dlc-trace's unit and end-to-end tests and every fuzz target's seeds and crash
#      regressions, built with AddressSanitizer + UndefinedBehaviorSanitizer
#      (-DDLCNET_SANITIZE=ON) in build-sanitize/: the parsers' part of the tree only, as the
#      whole tree's ASan build does not fit the suite's 30-minute budget on a 2-CPU host
#      (docs/architecture.md, "Input that is not ours");
#   6. fuzz tier: each libFuzzer target of tests/fuzz for 5 s (clang, build-fuzz/).
#   Tiers 5 and 6 run with DLCNET_SANITIZE_TIERS=1 (about 11 more minutes).
# Prints one closing line "tests: N passed, N failed, N skipped" and exits non-zero on any
# failure. DLCNET_BUILD_DIR overrides the build folder (default: build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Debian's own tools first (install-deps.sh installs them): a python3 shim of pyenv or the like
# runs a shell and a resolver per call, 10+ s each inside the emulated guest.
export PATH="/usr/bin:/bin:$PATH"
build="${DLCNET_BUILD_DIR:-build}"
jobs="${DLCNET_JOBS:-$(nproc)}"

bash scripts/install-deps.sh
# The project's default build (-O2, NDEBUG) without -g: debug info is 25 to 30 % of the
# build's time on this 2-CPU host (CI's budget); DLCNET_DEBUG_INFO=1 keeps it.
opt="-O2 -DNDEBUG"
[ "${DLCNET_DEBUG_INFO:-0}" = 1 ] && opt="-O2 -g -DNDEBUG"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt" \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$opt" >/dev/null
cmake --build "$build" -j "$jobs"

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

tier host ctest --test-dir "$build" -LE guest2 --output-on-failure --timeout 900
tier rdma bash scripts/rdma-run.sh --timeout 1800 -- \
  ctest --test-dir "$build" -L rdma --output-on-failure --timeout 900
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
  tier guest2 ctest --test-dir "$build" -L guest2 --output-on-failure --timeout 1200
fi

# Sanitizer and fuzz tiers: the parsers' part of the tree only (core and trace: trace files,
# option numbers, sizes, hostlists, the wire's frames), built in folders of their own.
subset=(-DDLCNET_WITH_VERBS=OFF -DDLCNET_WITH_UCX=OFF -DDLCNET_WITH_LAUNCH=OFF
  -DDLCNET_WITH_PATTERNS=OFF -DDLCNET_WITH_REPLAY=OFF -DDLCNET_WITH_FABRIC=OFF
  -DDLCNET_WITH_FLOWS=OFF)
fuzz_targets="fuzz_trace_file fuzz_sketch_rows_diff fuzz_units fuzz_wire fuzz_bootstrap fuzz_sim_formats"
# build_and_test DIR TESTDIR LABEL TARGETS CMAKE_ARGS...: configures DIR, builds TARGETS, then
# runs the tests labelled LABEL under DIR/TESTDIR.
build_and_test() {
  local dir="$1" testdir="$2" label="$3" targets="$4"
  shift 4
  "$@" >/dev/null && cmake --build "$dir" -j "$jobs" --target $targets >/dev/null &&
    ctest --test-dir "$dir/$testdir" -L "$label" --output-on-failure --timeout 900
}
# asan: dlc-trace's unit and end-to-end tests under ASan + UBSan; asan-seeds: every fuzz
# target on its seeds and crash regressions under ASan + UBSan (gcc). About 11 minutes on an
# idle 2-CPU host, most of it the ASan build (CLI11 costs a minute of CPU per file under it),
# which would take the suite near its 30-minute budget: opt-in, DLCNET_SANITIZE_TIERS=1.
if [ "${DLCNET_SANITIZE_TIERS:-0}" = 1 ]; then
  tier asan build_and_test build-sanitize tests/trace host \
    "dlc-trace trace_tests trace_cli_tests $fuzz_targets" \
    cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLCNET_SANITIZE=ON "${subset[@]}"
  tier asan-seeds ctest --test-dir build-sanitize/tests/fuzz -L host --output-on-failure
  # fuzz: each libFuzzer target for 5 s (clang).
  tier fuzz build_and_test build-fuzz tests/fuzz fuzz "$fuzz_targets" \
    env CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DDLCNET_FUZZ=ON -DDLCNET_FUZZ_SECONDS=5 "${subset[@]}"
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
