# dlc-replay on the real Chakra traces of ../shared/data/chakra (written by Chakra's own
# converters, from ASTRA-sim's examples; their README says what each holds), one replay per job:
# $1 transport: ucx (host: shared memory) or verbs (needs an RDMA device: exit 77); $2 launcher:
# spawn (--spawn) or mpirun (Open MPI: exit 77 without it); $3 `few`: only the custom ring and
# the 4-rank all-reduce and all-to-all (in the emulated guest); `converted`: only the example
# job (examples/lenet5-2w1s) written as Chakra by `dlc-trace convert --to chakra` (needs no
# data), whose replay sends every message of the SketchDLC job once; else every job and the
# variants below. Every message is sent and received
# exactly once: each rank's counts and bytes are dlc-trace stats' on the same directory (and the
# README's definitions: 2(N-1) or N-1 messages of S/N per rank), and the
# records of the sends and of the receives name the same messages (src, dst, key, opnum, bytes),
# each once. The custom ring all-reduce's steps replay as written: 14 sends and 14 receives of
# 131072 B per rank, in dag, timed and asap mode; --export-flows and --fct write every message
# once, under the records' names. Without the data: skipped, failed when CI is
# set (as tests/trace/chakra_cli_test.cpp does). $3 `native`: instead, the hand-made any-rank
# job of tests/data/any_rank (native CSV version 2: a pipeline's sends and receives between
# three ranks, compute, an all-reduce) over UCX tcp, its 16 messages each once.
source "$(dirname "$0")/../e2e/lib.sh"
transport="$1"
launcher="$2"
scope="${3:-all}"
here="$(cd "$(dirname "$0")" && pwd)"
data="$(cd "$here/../../.." && pwd)/shared/data/chakra"
[ "$scope" = native ] && data="$here/../data/any_rank"
if [ "$scope" != converted ] && [ ! -d "$data" ]; then
  if [ -n "${CI:-}" ]; then bad "CI: no Chakra test data at $data"; finish; exit 1; fi
  echo "no $data: skipped"
  exit 77
fi
replay_transport "$transport" "$launcher"
[ "$scope" = native ] && T=(--transport ucx --ucx-tls tcp,self)

# replay JOB NAME ARGS...: one replay of $data/JOB (or of JOB, a path from /), then its checks
# against dlc-trace stats.
replay() {
  local job="$1" name="$2"
  shift 2
  local out="$work/$name" src="$data/$job"
  case "$job" in /*) src="$job" ;; esac
  mkdir -p "$out"
  "$BIN/dlc-trace" stats -q --json "$out/stats.json" "$src" >/dev/null 2>&1 ||
    { bad "$name: dlc-trace stats"; return; }
  local ranks
  ranks=$(python3 -c "import json; print(len(json.load(open('$out/stats.json'))['ranks']))")
  local cmd=("$BIN/dlc-replay" "$src" "${T[@]}" --json "$out/r.json" \
             --records "$out/rec.csv" --timeout 60 "$@")
  if [ "$launcher" = mpirun ]; then
    cmd=(mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$ranks" "${cmd[@]}")
  else
    cmd+=(--spawn)
  fi
  if timeout 300 "${cmd[@]}" >"$out/stdout" 2>"$out/stderr"; then
    ok "$name: exit 0"
  else
    bad "$name: exit $?"
    sed 's/^/  | /' "$out/stdout" "$out/stderr" | tail -20
    return
  fi
  grep -q "^# OK: " "$out/stdout" && ok "$name: report says OK" || bad "$name: no OK line"
  if python3 - "$out" "$ranks" "$job" >"$out/check" 2>&1 <<'PY'; then
import collections, csv, json, os, sys
out, ranks, job = sys.argv[1], int(sys.argv[2]), sys.argv[3]
stats = json.load(open(out + "/stats.json"))
rep = json.load(open(out + "/r.json"))
assert rep["ok"], rep["verdict"]
assert rep["job"]["format"] == "chakra" and rep["job"]["ranks"] == ranks
total = sum(r["messages"]["sends"] for r in stats["ranks"])
# The README's definitions, independent of the code under test: S = 1 MiB among N ranks, ring
# all-reduce 2(N-1) messages of S/N per rank, all-gather, reduce-scatter and all-to-all N-1;
# the custom ring 14 of 131072 B.
# The hand-made job (dp3.csv): 4 sends between ranks and an all-reduce among 3 ranks, 2(N-1) = 4
# messages per rank: 16 (tests/trace/chakra_native_cli_test.cpp derives each rank's).
# Converted (a path from /): the original job's messages (ORIGINAL_MESSAGES).
native = job.endswith(".csv")
per_rank = 14 if job.startswith("custom_ring") else \
    (2 if job.startswith("all_reduce") else 1) * (ranks - 1)
if job.startswith("/"):
    assert total == int(os.environ["ORIGINAL_MESSAGES"]), (total, os.environ["ORIGINAL_MESSAGES"])
else:
    assert total == (16 if native else per_rank * ranks), (total, per_rank, ranks)
    assert native or \
        all(r["messages"]["send_bytes"] == per_rank * (1 << 20) // ranks for r in stats["ranks"])
m = rep["messages"]
assert m["sent"] == m["received"] == m["flows"] == total, (m, total)
assert m["wrong"] == 0 and m["duplicates"] == 0 and m["not_replayed"] == 0, m
sent, received = collections.Counter(), collections.Counter()
for r in range(ranks):
    want = stats["ranks"][r]["messages"]
    got = rep["ranks"][r]
    assert got["sends"] == want["sends"] and got["receives"] == want["receives"], (r, got, want)
    st = stats["ranks"][r]
    assert abs(got["trace_compute_s"] - st["compute_us"] * 1e-6) < 1e-12, (r, got, st)
    assert abs(got["trace_comm_s"] - st["comm_us"] * 1e-6) < 1e-12, (r, got, st)
    assert got["duration_s"] > 0, got
    with open("%s/rec.rank%d.csv" % (out, r), newline="") as f:
        rows = list(csv.DictReader(f))
    mine = {"send": [], "recv": []}
    for x in rows:
        op = "recv" if x["op"] == "recv" else "send"  # send, or write (--op write)
        mine[op].append(x)
        name = (x["src"], x["dst"], x["key"], x["opnum"], x["bytes"])
        (sent if op == "send" else received)[name] += 1
    for op, key in (("send", "send_bytes"), ("recv", "receive_bytes")):
        assert sum(int(x["bytes"]) for x in mine[op]) == want[key], (r, op)
    assert all(int(x["dst" if x["op"] == "recv" else "src"]) == r for x in rows), r
    if job.startswith("custom_ring"):
        for op in ("send", "recv"):
            assert len(mine[op]) == 14 and all(x["bytes"] == "131072" for x in mine[op]), (r, op)
colls = rep["collectives"]
if job.startswith("custom_ring") or job.startswith("/"):
    assert colls == [], colls
else:  # one collective: every message is its own (but dp3's 4 sends), and it took some time
    assert len(colls) == 1 and colls[0]["messages"] == total - (4 if native else 0), colls
    assert colls[0]["span_s"] > 0, colls
assert sent == received, "the records' sends and receives differ"
if os.path.exists(out + "/flows.txt"):  # --export-flows and --fct: every message, once
    with open(out + "/flows.txt") as f:
        assert int(f.readline()) == total
    with open(out + "/fct.txt") as f:
        assert sum(1 for line in f if line.strip()) == total
    with open(out + "/flows.txt.map") as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    named = collections.Counter((r[1], r[2], r[9], r[10], r[4]) for r in rows)
    assert named == sent, "the flow map names other messages than the records"
assert all(n == 1 for n in sent.values()), "a message recorded twice"
assert sum(sent.values()) == total
print("%d messages, each sent and received once; per rank as dlc-trace stats" % total)
PY
    ok "$name: $(tail -1 "$out/check")"
  else
    bad "$name: checks"
    sed 's/^/  | /' "$out/check" | tail -10
  fi
}

# The example job as Chakra: the SketchDLC job's messages (dlc-trace stats' count), each once.
if [ "$scope" = converted ]; then
  example="$(cd "$here/../../examples/lenet5-2w1s" && pwd)"
  if "$BIN/dlc-trace" convert "$example" --to chakra -o "$work/lenet-chakra" >"$work/convert" 2>&1 &&
     "$BIN/dlc-trace" stats -q --json "$work/lenet.json" "$example" >/dev/null 2>&1; then
    ok "convert --to chakra: $(cat "$work/convert")"
    ORIGINAL_MESSAGES=$(python3 -c "import json; print(json.load(open('$work/lenet.json'))['job']['messages'])") \
      replay "$work/lenet-chakra" converted_lenet
  else
    bad "convert --to chakra"
    sed 's/^/  | /' "$work/convert"
  fi
  finish
  exit
fi
if [ "$scope" = native ]; then
  replay dp3.csv dp3
  finish
  exit
fi
jobs=(custom_ring_allreduce_8npus_1MB all_reduce/4npus_1MB all_to_all/4npus_1MB)
if [ "$scope" = few ]; then
  for job in "${jobs[@]}"; do replay "$job" "$(echo "$job" | tr / _)"; done
  finish
  exit
fi
for job in "${jobs[@]}" all_reduce/8npus_1MB all_gather/4npus_1MB all_gather/8npus_1MB \
           reduce_scatter/4npus_1MB reduce_scatter/8npus_1MB all_to_all/8npus_1MB; do
  replay "$job" "$(echo "$job" | tr / _)"
done
# The custom ring's compute nodes as think times (dag, above), its start times (timed), none
# (asap); RDMA writes; the flows out.
for mode in timed asap; do
  replay custom_ring_allreduce_8npus_1MB "ring_$mode" --mode "$mode"
done
replay all_reduce/4npus_1MB all_reduce_write --op write
echo '{"link_rate_Bps": 1e9, "base_latency_s": 5e-6}' >"$work/c.json"  # made up: --fct's fields
replay custom_ring_allreduce_8npus_1MB ring_flows --export-flows "$work/ring_flows/flows.txt" \
  --fct "$work/ring_flows/fct.txt" --calibration "$work/c.json"
finish
