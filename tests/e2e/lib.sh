# Shared helpers for the end-to-end scripts: counting checks and asserting on JSON.
set -uo pipefail
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

# json_assert FILE PYTHON-EXPR: the expression, over `d` (the parsed document), must be true.
json_assert() {
  local file="$1" expr="$2"
  if python3 - "$file" "$expr" <<'PY'; then ok "json: $expr"; else bad "json: $expr"; fi
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print(json.dumps(d, indent=1)[:3000])
sys.exit(0 if ok else 1)
PY
}

has_rdma_device() { [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; }

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
