# perftest's flags on dlc-bench lat/bw (docs/perftest.md) and --cpu on dlc-bench and dlc-replay.
# $1: host (UCX over tcp: parsing, refusals, units, -H, --cpu) | verbs (the QP attributes, -W
# and the console header on an RDMA device).
source "$(dirname "$0")/lib.sh"
mode="$1"
B="$BIN/dlc-bench"
job="$(dirname "$0")/../../examples/lenet5-2w1s"

if [ "$mode" = verbs ]; then
  has_rdma_device || { echo "no RDMA device: skipped"; exit 77; }
  T=(--transport verbs)
  j="$work/qp.json"
  # -m below the port's active MTU (rxe: 1024), so the QP shows that it took it.
  check "-m -I -T -W" "$B" lat -s 64 -n 50 --loopback -m 512 -I 64 -T 32 -W \
    --json "$j" --timeout 120 "${T[@]}"
  cp "$work/out" "$work/qp.out"
  json_assert "$j" \
    "d['context']['transport']['qp']['path_mtu'] == 512" \
    "d['context']['transport']['requested'] == {'path_mtu': 512, 'traffic_class': 32, 'sl': None}" \
    "d['context']['transport']['qp']['traffic_class'] == 32" \
    "d['context']['transport']['inline_requested'] == 64 and d['context']['transport']['inline_size'] <= 64" \
    "d['counters']['device'] == d['context']['transport']['device']" \
    "len(d['counters']['counters']) + len(d['counters']['hw_counters']) > 0" \
    "all(isinstance(v, int) and v >= 0 for g in ('counters', 'hw_counters') for v in d['counters'][g].values())" \
    "d['counters']['hw_counters'].get('sent_pkts', 1) > 0" \
    "'reason' in d['context']['cpu'] and len(d['context']['cpu']['affinity']) > 0" \
    "not d['context']['cpu']['bound'] or d['context']['cpu']['affinity'] == d['context']['cpu']['cpus']"
  grep -Eq "Mtu +: 512\[B\]" "$work/qp.out" && ok "header: MTU" || bad "header: MTU: $(cat "$work/qp.out")"
  grep -Eq "Traffic class +: 32" "$work/qp.out" && ok "header: traffic class" || bad "header: tclass"
  grep -Eq "local address : QPN 0x[0-9a-f]+" "$work/qp.out" && ok "header: QPN" || bad "header: QPN"
  grep -q "# counters of " "$work/qp.out" && ok "-W on the console" || bad "-W console"
  # -S: the QP runs with it, or (rxe keeps no SL) the run says so and stops.
  j="$work/sl.json"
  if timeout 300 "$B" lat -s 64 -n 20 --loopback -S 3 --json "$j" --timeout 120 "${T[@]}" \
    >"$work/out" 2>"$work/err"; then
    json_assert "$j" "d['context']['transport']['qp']['sl'] == 3"
  else
    grep -Eq -- "-S 3: .* accepted it but its QP reports 0: the driver does not keep a service" \
      "$work/err" && ok "-S refused where the driver drops it" || bad "-S: $(tail -3 "$work/err")"
  fi
  check_fails "-m over the active MTU" "-m 4096: .* active MTU of" "$B" lat -m 4096 --loopback "${T[@]}"
  check_fails "-m with -R" "-m with -R/--rdma-cm" "$B" lat -m 512 -R --loopback "${T[@]}"
  finish
  exit
fi

# ---- host: refused at parse time (exit 2), whatever the transport ----
check_fails "-b" "-b: bidirectional runs are not implemented" "$B" bw -b --loopback
check_fails "-q 2" "-q 2: dlc-bench runs one RC QP per peer" "$B" bw -q 2 --loopback
check_fails "-H on bw" "-H: dumps latency samples, and bw has none" "$B" bw -H --loopback
check_fails "-m 1000" "--mtu" "$B" lat -m 1000 --loopback
check_fails "-T 256" "--tclass" "$B" lat -T 256 --loopback
check_fails "-S 16" "--sl" "$B" lat -S 16 --loopback
check_fails "--cpu 3-1" "--cpu: '3-1' is a range that runs backwards" "$B" lat --cpu 3-1 --loopback
check_fails "-c x" "--cpu: 'x' is not auto, none or a CPU list" "$B" lat --cpu x --loopback
check_fails "replay --cpu x" "--cpu: 'x' is not auto, none or a CPU list" \
  "$BIN/dlc-replay" "$job" --spawn --cpu x
# ---- refused under UCX: the flags set a verbs QP's attributes ----
U=(--loopback --transport ucx --ucx-tls tcp --timeout 30)
for f in "-R" "-I 64" "-m 1024" "-T 32" "-S 1"; do
  # shellcheck disable=SC2086
  check_fails "UCX refuses $f" "^dlc-bench: error: ${f%% *}/.* but this run uses UCX \(requested\)" \
    "$B" lat $f -n 10 "${U[@]}"
done
check_fails "UCX refuses -W" "-W: reads the counters of the verbs device's port, but this run uses UCX" \
  "$B" lat -W -n 10 "${U[@]}"
if ! has_rdma_device; then
  check_fails "auto picks UCX and refuses -m" "-m/--mtu .*UCX \(no active RDMA device\)" \
    "$B" lat -m 1024 --loopback --timeout 30
fi
# ---- bash completion (it reads --help): the new options and --cpu's values ----
# shellcheck source=../../packaging/completion.bash
source "$(dirname "$0")/../../packaging/completion.bash"
opts=" $(_dlcnet_options "$B" lat | tr '\n' ' ') "
for o in -F -R -b -q -I -m -T -S -W -H --report_gbits --cpu; do
  [[ "$opts" == *" $o "* ]] && ok "completion offers $o" || bad "completion lacks $o"
done
[ "$(_dlcnet_option_value --cpu "$B" lat)" = "auto none" ] && ok "completion: --cpu auto none" ||
  bad "completion: --cpu values '$(_dlcnet_option_value --cpu "$B" lat)'"
[ "$(_dlcnet_option_value -m "$B" bw)" = "256 512 1024 2048 4096" ] && ok "completion: -m values" ||
  bad "completion: -m values '$(_dlcnet_option_value -m "$B" bw)'"
# ---- accepted: -F, units, -H ----
check "-F" "$B" lat -F -s 64 -n 10 "${U[@]}"
for unit in mb gbits; do
  j="$work/bw-$unit.json"
  flag=()
  [ "$unit" = gbits ] && flag=(--report_gbits)
  check "bw $unit" "$B" bw -s 4K -n 200 --json "$j" "${flag[@]}" "${U[@]}"
  cp "$work/out" "$work/bw-$unit.out"
done
python3 - "$work" >"$work/py" 2>&1 <<'PY'
import json, sys
work = sys.argv[1]
for unit, name, key in (("mb", "MB/sec", "average_mb_per_s"), ("gbits", "Gb/sec", "average_gbit_per_s")):
    out = open(f"{work}/bw-{unit}.out").read().splitlines()
    d = json.load(open(f"{work}/bw-{unit}.json"))
    row = next(l.split() for l in out if l.split()[:1] == ["4096"])
    want = d["results"][0]["bandwidth"][key]
    bps = d["results"][0]["bandwidth"]["average_bytes_per_s"]
    conv = bps / 1048576 if unit == "mb" else bps * 8 / 1e9
    checks = {
        f"{unit}: units line names {name}": any(name in l for l in out[:12]),
        f"{unit}: test.console_bw_unit": d["test"]["console_bw_unit"] == name,
        f"{unit}: JSON {key} is bytes/s converted": abs(want - conv) <= 1e-9 * max(1, conv),
        f"{unit}: console BW average {row[3]} is the JSON's {want:.2f}": abs(float(row[3]) - want) <= 0.006,
    }
    for k, v in checks.items():
        print(("ok: " if v else "FAIL: ") + k)
PY
count_results "$work/py"
j="$work/h.json"
check "-H" "$B" lat -H -s 64 --json "$j" -n 30 "${U[@]}"
grep -Eq "^#, usec$" "$work/out" && ok "-H: sample header" || bad "-H: no '#, usec' line"
[ "$(grep -Ec '^[0-9]+, [0-9]+\.[0-9]+$' "$work/out")" -eq 30 ] && ok "-H: 30 sample lines" ||
  bad "-H: $(grep -Ec '^[0-9]+, [0-9]+\.[0-9]+$' "$work/out") sample lines"
json_assert "$j" \
  "len(d['results'][0]['latency_samples_s']) == 30" \
  "min(d['results'][0]['latency_samples_s']) == d['results'][0]['latency_s']['min']" \
  "max(d['results'][0]['latency_samples_s']) == d['results'][0]['latency_s']['max']"
# ---- --cpu: what the kernel says the rank's thread may run on ----
allowed=$(python3 -c 'import os; print(sorted(os.sched_getaffinity(0)))')
j="$work/cpu-none.json"
check "--cpu none" "$B" lat -s 64 -n 10 --cpu none --json "$j" "${U[@]}"
json_assert "$j" "not d['context']['cpu']['bound'] and d['context']['cpu']['affinity'] == $allowed"
j="$work/cpu-auto.json"
check "--cpu auto under UCX" "$B" lat -s 64 -n 10 --json "$j" "${U[@]}"
json_assert "$j" "d['context']['cpu']['requested'] == 'auto' and not d['context']['cpu']['bound']" \
  "'not bound' in d['context']['cpu']['reason']"
grep -q "dlc-bench (client): cpu no RDMA device to place by" "$work/err" &&
  ok "--cpu auto: said on the console" || bad "--cpu auto console: $(cat "$work/err")"
list=$(python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')
# The client is the loopback's second rank: the list's second CPU (its only one on one CPU).
want=$(python3 -c "import os; c=sorted(os.sched_getaffinity(0)); print(c[1 % len(c)])")
j="$work/cpu-list.json"
check "-c LIST" "$B" lat -s 64 -n 10 --cpu "$list" --json "$j" "${U[@]}"
json_assert "$j" "d['context']['cpu']['bound'] and d['context']['cpu']['cpus'] == [$want]" \
  "d['context']['cpu']['affinity'] == [$want]"
check_fails "-c a CPU not ours" "CPU 4000 is not one this process may run on" \
  "$B" lat --cpu 4000 -n 10 "${U[@]}"
# fanin and ring: rank 0 writes the JSON, its thread on the list's first CPU.
first=${list%%,*}
j="$work/fanin.json"
check "fanin --cpu LIST" "$B" fanin --spawn --workers 1 --transport ucx --ucx-tls tcp,self \
  --timeout 60 -s 4K --burst 2 -n 2 --warmup 1 --solo 1 --cpu "$list" --json "$j"
json_assert "$j" "d['context']['cpu']['affinity'] == [$first]"
j="$work/ring.json"
check "ring --cpu LIST" "$B" ring --spawn --ranks 2 --transport ucx --ucx-tls tcp,self \
  --timeout 60 -s 4K -n 2 -w 1 --cpu "$list" --json "$j"
json_assert "$j" "d['context']['cpu']['affinity'] == [$first]"
check_fails "ring --cpu x" "--cpu: 'x' is not auto, none or a CPU list" \
  "$B" ring --spawn --ranks 2 --cpu x
j="$work/replay.json"
check "dlc-replay --cpu LIST" timeout 600 "$BIN/dlc-replay" "$job" --transport ucx --ucx-tls sm \
  --json "$j" --timeout 120 --spawn --cpu "$list"
json_assert "$j" "d['context']['cpu']['affinity'] == [$first]"
finish
