# dlc-bench's output files (core/output_file.hpp), over UCX on this host: --json through a
# symlink, into a FIFO or a device, never replacing them; an unwritable --json or --records
# stops the run before anything is measured; a file that fails at the end loses no result.
source "$(dirname "$0")/lib.sh"
B="$BIN/dlc-bench"
run=(lat -s 64 -n 50 --loopback --timeout 30 --transport ucx --ucx-tls tcp)

# A report written into `fifo` by dlc-bench is read here: the reader holds it open read-write
# (so it neither waits for a writer nor sees an end) and stops at one whole JSON document.
fifo_reader() {
  python3 - "$@" <<'PY'
import json, os, select, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
open(sys.argv[3], "w").close()
data, end = b"", time.time() + 60
while time.time() < end:
    if select.select([fd], [], [], 1)[0]:
        data += os.read(fd, 65536)
    try:
        json.loads(data)
        break
    except ValueError:
        pass
open(sys.argv[2], "wb").write(data)
PY
}

# --json through a symbolic link: the file it names gets the report; the link stays.
mkdir "$work/real"
ln -s real/r.json "$work/link.json"
check "--json through a symlink" "$B" "${run[@]}" --json "$work/link.json"
[ -L "$work/link.json" ] && ok "the symlink stays a symlink" || bad "the symlink was replaced"
json_assert "$work/real/r.json" "d['results'][0]['bytes'] == 64" "d['complete'] is True"

# --json into a FIFO: written through; the FIFO stays a FIFO.
mkfifo "$work/fifo"
fifo_reader "$work/fifo" "$work/from-fifo" "$work/ready" &
reader=$!
for _ in $(seq 100); do [ -e "$work/ready" ] && break; sleep 0.1; done
check "--json into a FIFO" "$B" "${run[@]}" --json "$work/fifo"
wait $reader
[ -p "$work/fifo" ] && ok "the FIFO stays a FIFO" || bad "the FIFO was replaced"
json_assert "$work/from-fifo" "d['results'][0]['iterations'] == 50"
# A FIFO nobody reads: an error before the run, not a wait.
mkfifo "$work/unread"
check_fails "--json into a FIFO without a reader" "--json $work/unread: a FIFO with no reader" \
  "$B" "${run[@]}" --json "$work/unread"
grep -q "^# dlc-bench" "$work/out" && bad "a FIFO without a reader: the test ran" ||
  ok "a FIFO without a reader: nothing ran"

# --json into a device that fails every write: the device stays, and the size's row is printed.
check_fails "--json /dev/full" "--json /dev/full: cannot write: No space left on device" \
  "$B" "${run[@]}" --json /dev/full
grep -Eq "^ +64 +50 " "$work/out" && ok "/dev/full: the size's row is printed" ||
  { bad "/dev/full: no row for the size"; sed 's/^/  | /' "$work/out"; }
[ -c /dev/full ] && ok "/dev/full stays a device" || bad "/dev/full was replaced"

# Unwritable paths stop the run before anything is measured (the header never printed).
for opt in --json --records; do
  check_fails "unwritable $opt" "$opt $work/no/such/x: cannot" "$B" "${run[@]}" "$opt" "$work/no/such/x"
  grep -q "^# dlc-bench" "$work/out" && bad "unwritable $opt: the test ran first" ||
    ok "unwritable $opt: nothing ran"
done

# --records fails after the first size: its row is printed and the JSON keeps the size,
# marked incomplete.
check_fails "--records /dev/full" "--records /dev/full: cannot write: No space left on device" \
  "$B" "${run[@]}" --records /dev/full --json "$work/partial.json"
grep -Eq "^ +64 +50 " "$work/out" && ok "--records /dev/full: the size's row is printed" ||
  bad "--records /dev/full: no row for the size"
json_assert "$work/partial.json" "d['complete'] is False" "[r['bytes'] for r in d['results']] == [64]" \
  "'--records /dev/full' in d['error']"
ls "$work" | grep -q '\.tmp$' && bad "a temporary file was left behind" || ok "no temporary left"
finish
