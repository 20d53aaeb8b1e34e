# A libFuzzer target as a ctest (tests/fuzz/CMakeLists.txt, DLCNET_FUZZ builds): runs it with
# the given arguments; when it fails, prints every input it wrote to ARTIFACT_PREFIX* in base64,
# so that a crash CI found can be rebuilt from the log alone (base64 -d > input) and added to
# tests/fuzz/regressions/<target>/ once fixed.
#   run_target.sh ARTIFACT_PREFIX TARGET ARGS...
prefix="$1"
shift
rm -f "$prefix"*
rc=0
"$@" || rc=$?
if [ $rc -ne 0 ]; then
  for f in "$prefix"*; do
    [ -f "$f" ] || continue
    echo "=== artifact $f ($(stat -c %s "$f") bytes), base64:"
    base64 -w 100 "$f" | head -200
    echo "=== end of $f"
  done
fi
exit $rc
