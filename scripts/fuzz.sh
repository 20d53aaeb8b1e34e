#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan) and runs each for a given
# time on a working copy of its seed corpus.
#   scripts/fuzz.sh [--merge] [SECONDS] [TARGET...]      (default: 5 s, every target)
# --merge: afterwards, each target's working corpus is merged (libFuzzer's -merge=1: only inputs
# that add coverage) into tests/fuzz/corpus/<target>, the corpus CI starts from: commit it.
# Prints one line per target: executions, coverage (libFuzzer's edge count "cov" and feature
# count "ft"), corpus size, and the result. A crash leaves its input in
# <build>/fuzz-artifacts/<target>/ and fails the script: copy it to
# tests/fuzz/regressions/<target>/ once fixed (every build then runs it as a test).
# DLCNET_FUZZ_BUILD_DIR overrides the build folder (default: build-fuzz); DLCNET_JOBS the
# build's parallelism.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/bin:/bin:$PATH"
case "${1:-}" in
  -h | --help)
    sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
merge=0
if [ "${1:-}" = --merge ]; then
  merge=1
  shift
fi
seconds="${1:-5}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(fuzz_trace_file fuzz_sketch_rows_diff fuzz_units fuzz_wire fuzz_bootstrap fuzz_sim_formats)
build="${DLCNET_FUZZ_BUILD_DIR:-build-fuzz}"
jobs="${DLCNET_JOBS:-2}"

if [ ! -f "$build/CMakeCache.txt" ]; then
  # The targets need core/ and trace/ only (tests/fuzz/CMakeLists.txt): the rest stays off.
  CC=clang CXX=clang++ cmake -S . -B "$build" -DDLCNET_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DDLCNET_WITH_VERBS=OFF -DDLCNET_WITH_UCX=OFF -DDLCNET_WITH_LAUNCH=OFF \
    -DDLCNET_WITH_PATTERNS=OFF -DDLCNET_WITH_REPLAY=OFF -DDLCNET_WITH_FABRIC=OFF \
    -DDLCNET_WITH_FLOWS=OFF >/dev/null
fi
nice -n 10 cmake --build "$build" -j "$jobs" --target "${targets[@]}" >/dev/null

status=0
for t in "${targets[@]}"; do
  corpus="$build/fuzz-corpus/$t"
  artifacts="$build/fuzz-artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  cp -n tests/fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
  dirs=("$corpus")
  [ -d "tests/fuzz/regressions/$t" ] && dirs+=("tests/fuzz/regressions/$t")
  log="$build/fuzz-$t.log"
  rc=0
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=256 -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "${dirs[@]}" \
    >"$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo ?)
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo ?)
  corp=$(grep -o 'corp: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo ?)
  if [ $rc -eq 0 ]; then
    result=ok
  else
    result="CRASH (exit $rc; input in $artifacts, log $log)"
    status=1
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
  fi
  printf '%-24s %4s s  %10s execs  cov %5s  ft %6s  corpus %5s  %s\n' \
    "$t" "$seconds" "$execs" "$cov" "$ft" "$corp" "$result"
  if [ $merge -eq 1 ] && [ $rc -eq 0 ]; then
    before=$(ls tests/fuzz/corpus/"$t" | wc -l)
    "$build/tests/fuzz/$t" -merge=1 -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=256 \
      tests/fuzz/corpus/"$t" "$corpus" >"$build/fuzz-$t-merge.log" 2>&1 ||
      { echo "  merge failed: $build/fuzz-$t-merge.log"; status=1; }
    echo "  merged into tests/fuzz/corpus/$t: $before -> $(ls tests/fuzz/corpus/"$t" | wc -l) inputs"
  fi
done
exit $status
