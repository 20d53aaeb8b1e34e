# The README's main command as a user runs it: `bash scripts/run-main.sh` with no arguments,
# from the repository, on this build (DLCNET_BUILD_DIR). Without an RDMA device it boots the
# Soft-RoCE guest itself, so this runs on the host (label `front`), not inside a guest.
# Checked: its bad arguments are refused before anything is booted; the report's OK and
# fidelity lines; the JSON, every rank's records and the exported flow.txt and flow map agree
# with the job message for message (tests/replay/check_run.py); it names only files it wrote.
#   run_main.sh BIN BUILD_DIR
source "$(dirname "$0")/lib.sh"
build="$1"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
job="$repo/examples/lenet5-2w1s"
export DLCNET_BUILD_DIR="$build" DLCNET_OUT="$work/out"

# Refusals: each within seconds, exit 2, no guest booted (a guest says "booting" or takes 20 s+).
refused() {
  local name="$1" pattern="$2" t0=$SECONDS rc=0
  shift 2
  timeout 120 bash "$repo/scripts/run-main.sh" "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  if [ $rc -eq 2 ] && grep -Eq -- "$pattern" "$work/err.txt" && [ $((SECONDS - t0)) -lt 60 ] &&
    ! grep -q "Soft-RoCE guest" "$work/err.txt"; then
    ok "$name: exit 2 in $((SECONDS - t0)) s"
  else
    bad "$name: exit $rc after $((SECONDS - t0)) s"
    sed 's/^/  | /' "$work/err.txt" | tail -8
  fi
}
refused "a job directory that does not exist" "no-such-job: no such job" "$work/no-such-job"
refused "an option dlc-replay does not know" "--no-such-option" --no-such-option
refused "an output run-main sets itself" "--json is set by run-main" --json x.json
refused "a bad value" "--iterations" --iterations many
[ ! -e "$work/out/report.json" ] && ok "nothing written by the refusals" || bad "a refusal wrote a report"

# The main command itself.
t0=$SECONDS
rc=0
(cd "$repo" && bash scripts/run-main.sh) >"$work/stdout" 2>"$work/stderr" </dev/null || rc=$?
[ $rc -eq 0 ] && ok "run-main exits 0 in $((SECONDS - t0)) s" || {
  bad "run-main exited $rc after $((SECONDS - t0)) s"
  sed 's/^/  | /' "$work/stderr" | tail -30
}
grep -q "^# OK: " "$work/stdout" && ok "report: $(grep '^# OK: ' "$work/stdout")" ||
  bad "report has no '# OK:' line"
grep -Eq "^# fidelity: (reliable|unreliable|no_think_times): " "$work/stdout" &&
  ok "report: $(grep '^# fidelity: ' "$work/stdout" | cut -c1-60)" || bad "report has no fidelity verdict"
grep -q "check passed" "$work/stderr" && ok "the job was checked before the run" ||
  bad "no dlc-replay --check line"
out="$work/out"
if python3 "$repo/tests/replay/check_run.py" "$job" "$out/report.json" "$out/records" - \
  --flows "$out/flows.txt" >"$work/check" 2>&1; then
  ok "outputs agree with the job: $(tail -1 "$work/check")"
else
  bad "outputs disagree with the job"
  sed 's/^/  | /' "$work/check" | tail -20
fi
# Over verbs: on this host's device, or on the guest's rxe0.
json_assert "$out/report.json" "d['complete'] is True" "d['replay']['ranks'] == 3" \
  "d['context']['tool'] == 'dlc-replay'" "d['context']['transport_selection']['chosen'] == 'verbs'" \
  "$(has_rdma_device && echo True || echo "d['context']['transport']['device'] == 'rxe0'")"
has_rdma_device || grep -q "replaying .* in the Soft-RoCE guest" "$work/stderr" &&
  ok "ran where an RDMA device is" || bad "run-main did not say where it ran"
wrote="$(grep '^run-main: wrote ' "$work/stderr")"
for f in report.json records.rank0.csv records.rank1.csv records.rank2.csv flows.txt flows.txt.map; do
  [[ " $wrote " == *" $out/$f "* ]] && [ -s "$out/$f" ] && ok "names and wrote $f" ||
    bad "$f: not written or not named ($wrote)"
done
finish
