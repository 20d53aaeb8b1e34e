# Progress on stderr while a run lasts, on a terminal only (issue #17): `script` gives the
# tools a pseudo-terminal; the same runs with stderr in a file print no progress line.
source "$(dirname "$0")/lib.sh"
command -v script >/dev/null || { echo "skip: no script(1)"; exit 77; }
on_tty() { script -qec "$*" /dev/null >"$work/tty" 2>&1; }

bench="$BIN/dlc-bench bw --loopback --transport ucx --ucx-tls sm,self -s 4K -D 2.5"
on_tty "$bench" && ok "dlc-bench -D on a terminal exits 0" || bad "dlc-bench on a terminal: $(tail -3 "$work/tty")"
grep -aEq $'\rdlc-bench 4096 B: [0-9 ]+ messages, [0-9.]+ [kM]?/s, [0-9]+ s left' "$work/tty" &&
  ok "dlc-bench -D: messages, rate and time left, rewritten in place" ||
  bad "dlc-bench -D: no progress line: $(tr '\r' '\n' <"$work/tty" | tail -5)"
tr '\r' '\n' <"$work/tty" | grep -aEq '^ +4096 +[0-9]+ ' && ok "dlc-bench -D: the size's row follows" ||
  bad "dlc-bench -D: no row"
$bench >"$work/out" 2>"$work/err" && ok "dlc-bench -D with stderr in a file exits 0" || bad "dlc-bench -D (file)"
grep -q 'messages,' "$work/err" && bad "dlc-bench: progress written to a file" ||
  ok "dlc-bench: no progress when stderr is not a terminal"
DLCNET_PROGRESS=1 $bench >"$work/out" 2>"$work/err"
grep -q 'messages,' "$work/err" && ok "DLCNET_PROGRESS=1 asks for it anyway" ||
  bad "DLCNET_PROGRESS=1: nothing"

# A replay slowed 80-fold lasts about 3 s: rank 0 shows its messages, the others nothing.
replay="$BIN/dlc-replay $(dirname "$0")/../../examples/lenet5-2w1s --spawn --transport ucx --time-scale 80"
on_tty "$replay" && ok "dlc-replay on a terminal exits 0" || bad "dlc-replay on a terminal: $(tail -3 "$work/tty")"
grep -aEq $'\rdlc-replay rank 0 \\(worker0\\): [0-9 ]+ of [0-9 ]+ messages \\([0-9.]+ %\\)' "$work/tty" &&
  ok "dlc-replay: rank 0's messages done of its total" ||
  bad "dlc-replay: no progress line: $(tr '\r' '\n' <"$work/tty" | grep -a rank | tail -3)"
grep -aq 'dlc-replay rank [12]' "$work/tty" && bad "dlc-replay: a rank other than 0 printed progress" ||
  ok "dlc-replay: only rank 0 prints progress"
grep -aq '^# OK' "$work/tty" && ok "dlc-replay: the report follows" || bad "dlc-replay: no OK line"

echo "passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
