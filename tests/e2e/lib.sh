# Shared helpers for the end-to-end scripts: counting checks and asserting on JSON.
set -uo pipefail
# Debian's python3 (scripts/install-deps.sh), not a pyenv-style shim: in the emulated guest a
# shim costs 10+ s per call.
export PATH="/usr/bin:/bin:$PATH"
BIN="$1"
shift
passed=0
failed=0
work="$(mktemp -d /tmp/dlcnet-e2e.XXXXXX)"
trap 'rm -rf "$work"' EXIT

ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# check NAME CMD...: CMD must exit 0.
check() {
  local name="$1"
  shift
  if "$@" >"$work/out" 2>"$work/err"; then ok "$name"; else
    bad "$name (exit $?)"
    sed 's/^/  | /' "$work/out" "$work/err" | tail -30
  fi
}

# check_fails NAME PATTERN CMD...: CMD must exit non-zero within its own timeout and print
# PATTERN (extended regex) on stderr.
# check_usage NAME PATTERN CMD...: a bad command line: exit 2 (cli::kExitUsage), and stderr
# "TOOL: error: ..." matching PATTERN.
check_usage() {
  local name="$1" pattern="$2" rc=0
  shift 2
  timeout 120 "$@" >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" -ne 2 ]; then
    bad "$name: exit $rc, not 2"
    sed 's/^/  | /' "$work/err" | tail -5
  elif grep -Eq -- "^[a-z -]+: error: .*$pattern" "$work/err"; then
    ok "$name"
  else
    bad "$name: stderr lacks /TOOL: error: ...$pattern/"
    sed 's/^/  | /' "$work/err" | tail -5
  fi
}

check_fails() {
  local name="$1" pattern="$2"
  shift 2
  if timeout 120 "$@" >"$work/out" 2>"$work/err"; then
    bad "$name: exited 0"
  elif [ $? -eq 124 ]; then
    bad "$name: hung (killed after 120 s)"
  elif grep -Eq -- "$pattern" "$work/err"; then
    ok "$name"
  else
    bad "$name: stderr lacks /$pattern/"
    sed 's/^/  | /' "$work/err" | tail -10
  fi
}

# json_assert FILE EXPR...: each Python expression, over `d` (the parsed document), must be
# true; each counts as one check. `rows(PATH)` reads a CSV file as a list of dicts. All of
# them run in ONE interpreter: in the emulated guest each python3 start costs seconds.
json_assert() {
  local file="$1" line
  shift
  python3 - "$file" "$@" >"$work/py" 2>&1 <<'PY' || bad "json_assert $file: python failed"
import csv, json, sys
def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    for x in sys.argv[2:]:
        print(f"FAIL: json: {x} ({sys.argv[1]}: {e})")
    sys.exit(0)
failed = False
for x in sys.argv[2:]:
    try:
        r = bool(eval(x))
    except Exception as e:
        r = False
        print(f"  {x}: {e!r}")
    print(("ok: json: " if r else "FAIL: json: ") + x)
    failed |= not r
if failed:
    print(json.dumps(d, indent=1)[:3000])
PY
  count_results "$work/py"
}

# count_results FILE: each "ok: ..." / "FAIL: ..." line of FILE (a checker's output) counts as
# one check; other lines are shown.
count_results() {
  local line
  while IFS= read -r line; do
    case "$line" in
      "ok: "*) ok "${line#ok: }" ;;
      "FAIL: "*) bad "${line#FAIL: }" ;;
      *) echo "  | $line" ;;
    esac
  done <"$1"
}

# star_test STEM: the start of a test on stars of network namespaces (scripts/netns-star.sh):
# skips it (exit 77) unless root and `ip netns add` works; sets STAR, RUN (scripts/star-run.sh)
# and prefix (STEM and the pid); on exit removes the stars of every prefix in star_prefixes
# (prefix, and what the test adds) and $work.
star_test() {
  local scripts
  scripts="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)"
  STAR="$scripts/netns-star.sh"
  RUN="$scripts/star-run.sh"
  [ "$(id -u)" -eq 0 ] || { echo "not root: skipped"; exit 77; }
  prefix="$1$$"
  star_prefixes=("$prefix")
  ip netns add "$prefix-try" 2>/dev/null || { echo "ip netns add fails: skipped"; exit 77; }
  ip netns delete "$prefix-try"
  trap star_cleanup EXIT
  trap 'exit 1' INT TERM
}
# star_calibrate PORT: on the star `star_test` made, dlc-bench lat (64 B, 64 KiB) and bw
# (64 KiB) over UCX tcp between $prefix-h1 and $prefix-h0 (port PORT), each a check, then
# `dlc-compare calibrate` of the three into $work/c.json, and $work/lat64.json ... kept.
star_calibrate() {
  local port="$1" name server spec
  local ucx=(--transport ucx --ucx-tls tcp,self -p "$port" --timeout 60)
  for spec in "lat64 lat -s 64 -n 300" "lat64k lat -s 64K -n 50" "bw64k bw -s 64K -n 1000"; do
    set -- $spec
    name="$1"
    shift
    ip netns exec "$prefix-h0" timeout 120 "$BIN/dlc-bench" "$@" "${ucx[@]}" \
      >"$work/$name.server" 2>&1 &
    server=$!
    sleep 0.5
    check "calibration run: $*" ip netns exec "$prefix-h1" timeout 120 "$BIN/dlc-bench" "$@" \
      "${ucx[@]}" --json "$work/$name.json" 10.230.0.1
    wait "$server"
  done
  check "calibrate" "$BIN/dlc-compare" calibrate "$work/lat64.json" "$work/lat64k.json" \
    "$work/bw64k.json" --out "$work/c.json"
}
star_cleanup() {
  local p
  for p in "${star_prefixes[@]}"; do bash "$STAR" down --prefix "$p" >/dev/null 2>&1; done
  rm -rf "$work"
}

# free_port: a TCP port free now, drawn below the kernel's ephemeral range (32768 and up on
# Debian), so that no outgoing connection or UCX listener of a test running beside this one can
# take it between the draw and the bind (port 0's answer is an ephemeral port: CI saw it taken).
free_port() {
  python3 -c '
import random, socket
for _ in range(200):
    p = random.randrange(20000, 32000)
    s = socket.socket()
    try:
        s.bind(("", p)); print(p); break
    except OSError:
        pass
    finally:
        s.close()
else:
    raise SystemExit("free_port: no free port in 20000-31999")'
}
has_rdma_device() { [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; }

# replay_transport TRANSPORT LAUNCHER: a replay test's transport options in T (verbs; ucx over
# shared memory), or exit 77 (skipped) without an RDMA device for verbs or mpirun for mpirun.
replay_transport() {
  case "$1" in
    verbs) has_rdma_device || { echo "no RDMA device: skipped"; exit 77; }
           T=(--transport verbs) ;;
    ucx)   T=(--transport ucx --ucx-tls sm) ;;
  esac
  command -v mpirun >/dev/null || [ "$2" != mpirun ] || { echo "no mpirun: skipped"; exit 77; }
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# replay_records_intact PREFIX RANKS: every rank's replay records file (PREFIX.rank<r>.csv, r <
# RANKS) has the header and only whole, well-formed rows, and together they hold at least one
# row. Prints the row count; exits non-zero otherwise (with the failed assertion).
replay_records_intact() {
  python3 - "$1" "$2" <<'PY'
import csv, re, sys
total = 0
for r in range(int(sys.argv[2])):
    lines = open(f"{sys.argv[1]}.rank{r}.csv").read().splitlines()
    assert lines[0].startswith("seq,op,bytes"), lines[:1]
    for row in csv.DictReader(lines):
        assert len(row) == 12 and all(v is not None and re.fullmatch(r"-?\d+|send|recv|write", v)
                                      for v in row.values()), row
        total += 1
assert total > 0, "no records at all"
print(total, "records")
PY
}
