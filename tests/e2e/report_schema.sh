# One view of a message for every tool (issue 12): dlc-bench, dlc-replay and dlc-trace write
# the same latency-summary shape (core/stats_json.hpp), the same context block
# (core/run_context.hpp, plus the tool-specific keys listed below) with one schema_version,
# and dlc-bench and dlc-replay the same records CSV header (core/record.cpp). Host only: UCX
# over tcp (dlc-bench) and shared memory (dlc-replay, as tests/replay/replay_runs.sh).
source "$(dirname "$0")/lib.sh"
here="$(cd "$(dirname "$0")" && pwd)"
job="$here/../../examples/lenet5-2w1s"

check "dlc-bench lat" "$BIN/dlc-bench" lat --loopback --transport ucx --ucx-tls tcp,self \
  -s 64 -n 200 --json "$work/lat.json" --records "$work/lat.csv" --timeout 60
check "dlc-bench bw" "$BIN/dlc-bench" bw --loopback --transport ucx --ucx-tls tcp,self \
  -s 4K -n 200 --json "$work/bw.json" --records "$work/bw.csv" --timeout 60
check "dlc-replay --spawn" timeout 600 "$BIN/dlc-replay" "$job" --transport ucx --ucx-tls sm \
  --json "$work/replay.json" --records "$work/rec.csv" --timeout 120 --spawn \
  --export-flows "$work/replay.txt"
check "dlc-bench fanin" timeout 300 "$BIN/dlc-bench" fanin --spawn --workers 2 --transport ucx \
  --ucx-tls tcp,self -s 4K --burst 4 -n 2 --json "$work/fanin.json" --export-flows "$work/fanin.txt" \
  --timeout 60 -q
check "dlc-bench ring" timeout 300 "$BIN/dlc-bench" ring --spawn --ranks 3 --transport ucx \
  --ucx-tls tcp,self -b 4K -e 16K -n 2 -w 1 --json "$work/ring.json" --export-flows "$work/ring.txt" \
  --timeout 60 -q
check "dlc-trace stats" "$BIN/dlc-trace" stats "$job" --json "$work/stats.json" -q
check "dlc-trace bench-load" "$BIN/dlc-trace" bench-load "$job" --json "$work/load.json"
check "dlc-trace synth" "$BIN/dlc-trace" synth -o "$work/synth" -w 2 -s 1 -n 2 -m lenet5 --seed 1

python3 - "$work" >"$work/py" 2>&1 <<'PY' || bad "report_schema: python failed"
import glob, json, os, sys

work = sys.argv[1]
SUMMARY = {"count", "min", "p50", "p90", "p99", "p99_9", "max", "mean", "stdev"}
# Any object with one of these keys is a summary and must have exactly SUMMARY, except
# dlc-trace's message_sizes: a size distribution in integer bytes with its histogram.
SUMMARY_HINTS = {"p50", "p90", "p99", "p99_9", "stdev"}
SIZE_DISTRIBUTION = {"count", "min", "p50", "p90", "p99", "max", "mean", "log2_histogram"}
# make_run_context(): every tool's context has exactly these ...
COMMON = {"schema_version", "tool", "tool_version", "host", "date", "argv",
          "libibverbs_version", "kernel", "cpus", "clock", "tcp_stack"}
# ... and "star" in any tool run in a namespace of scripts/netns-star.sh (not here).
ANYWHERE = {"star"}
# The TCP stack the process measured with (core/tcp_stack.hpp), read in its own namespace.
TCP_STACK = {"netns", "congestion_control", "tcp_rmem", "tcp_wmem", "tcp_slow_start_after_idle",
             "interfaces", "routes"}
with open("/proc/sys/net/ipv4/tcp_congestion_control") as f:
    HOST_CC = f.read().strip()
# ... plus, per tool, these (required ones must be there, optional ones may).
# "cpu": where the rank's thread runs (--cpu, launch/cpu_binding.hpp).
TRANSPORT = {"transport", "transport_selection", "ucx_version", "cpu"}
# The runner's context, the same for every N-rank tool (runner/runner.cpp).
# "tcp_stacks": every rank's TCP stack, ranks with the same one grouped (runner/rank_stack.hpp).
NRANK = TRANSPORT | {"coordinator", "hosts", "idle", "send_depth", "world_size", "rank_source",
                     "tcp_stacks"}
EXTRAS = {
    # "peer_tcp_stack": the server's TCP stack (the context's tcp_stack is the client's).
    "dlc-bench": (TRANSPORT | {"peer_tcp_stack"}, {"role", "peer", "records_file"}),
    "dlc-bench fanin": (NRANK, set()),
    "dlc-bench ring": (NRANK, set()),
    "dlc-replay": (NRANK | {"recv_ahead"}, set()),
    "dlc-trace stats": (set(), set()),
    "dlc-trace bench-load": (set(), set()),
    "dlc-trace synth": (set(), set()),
}
docs = {
    "dlc-bench lat": f"{work}/lat.json",
    "dlc-bench bw": f"{work}/bw.json",
    "dlc-bench fanin": f"{work}/fanin.json",
    "dlc-bench ring": f"{work}/ring.json",
    "dlc-replay": f"{work}/replay.json",
    "dlc-trace stats": f"{work}/stats.json",
    "dlc-trace bench-load": f"{work}/load.json",
    "dlc-trace synth": f"{work}/synth/synth.json",
}
# Summaries each tool must have (so an empty walk cannot pass).
MUST = {
    "dlc-bench lat": lambda d: [r["latency_s"] for r in d["results"]],
    "dlc-replay": lambda d: [d["scheduling_error_s"], d["order_hold_s"]]
    + [p["one_way_s"] for p in d["latency"]] + [r["scheduling_error_s"] for r in d["ranks"]]
    + list(d["trace_stats"]["summary"].values()) + list(d["replay_stats"]["summary"].values()),
    "dlc-trace stats": lambda d: list(d["summary"].values())
    + [k["push_rtt_s"] for k in d["keys"]],
}


def result(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)


def walk(x, path, out):
    if isinstance(x, dict):
        if SUMMARY_HINTS & x.keys():
            out.append((path, x))
        for k, v in x.items():
            walk(v, f"{path}.{k}", out)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            walk(v, f"{path}[{i}]", out)


loaded = {}
for name, path in docs.items():
    try:
        loaded[name] = json.load(open(path))
    except Exception as e:
        result(False, f"{name}: {path}: {e}")

def shape_of(path):
    if path.endswith(".message_sizes"):
        return SIZE_DISTRIBUTION
    # dlc-bench ring's iteration times: the summary and their coefficient of variation.
    if path.endswith(".time_dist_s"):
        return SUMMARY | {"cv"}
    return SUMMARY


def check_summaries(name, d):
    found = []
    walk(d, name, found)
    wrong = [(p, sorted(s.keys())) for p, s in found if set(s.keys()) != shape_of(p)]
    result(not wrong, f"{name}: {len(found)} summaries have the shared shape"
           + (f"; not: {wrong[:3]}" if wrong else ""))
    if name in MUST:
        must = MUST[name](d)
        result(len(must) > 0 and all(set(s.keys()) == SUMMARY for s in must),
               f"{name}: its {len(must)} expected summaries are there, each with the nine keys")
        result(any(s.get("count", 0) > 0 for s in must),
               f"{name}: summaries count their samples")


def for_each_report(check, what):
    """Runs check(name, doc) on every loaded report; an exception is one failed check."""
    for name, d in loaded.items():
        try:
            check(name, d)
        except Exception as e:
            result(False, f"{name}: {what}: {e!r}")


for_each_report(check_summaries, "summaries")


lat = loaded.get("dlc-bench lat")
if lat:
    result(all(r["latency_s"].get("count") == r["iterations"] for r in lat["results"]),
           "dlc-bench lat: latency_s.count is the iterations")

versions = set()
times = set()


def check_context(name, d):
    c = d.get("context", {})
    tool = c.get("tool")
    required, optional = EXTRAS.get(tool, (set(), set()))
    optional = optional | ANYWHERE
    keys = set(c.keys())
    result(tool is not None and name.startswith(tool), f"{name}: context.tool is {tool!r}")
    result(keys - required - optional == COMMON,
           f"{name}: context keys are the common set plus {sorted(required | optional)}"
           + f" (missing {sorted(COMMON - keys)}, extra {sorted(keys - COMMON - required - optional)})")
    result(required <= keys, f"{name}: context has {sorted(required)}"
           + f" (missing {sorted(required - keys)})")
    clock = c.get("clock")
    result(isinstance(clock, dict) and set(clock) == {"source", "times"}
           and all(isinstance(v, str) and v for v in clock.values()),
           f"{name}: context.clock is {{source, times}}")
    if isinstance(clock, dict):
        times.add(clock.get("times"))
    versions.add(c.get("schema_version"))
    stack = c.get("tcp_stack", {})
    result(set(stack) == TCP_STACK and stack["congestion_control"] == HOST_CC
           and len(stack["tcp_rmem"]) == 3 and len(stack["tcp_wmem"]) == 3
           and isinstance(stack["routes"], list) and isinstance(stack["interfaces"], list),
           f"{name}: context.tcp_stack has {sorted(TCP_STACK)}, congestion_control {HOST_CC}")
    if "peer_tcp_stack" in required:
        # --loopback: both ends in this namespace.
        result(c.get("peer_tcp_stack") == stack, f"{name}: context.peer_tcp_stack is the server's")
    if "tcp_stacks" in required:
        # --spawn: every rank in this namespace, one stack for all.
        stacks = c.get("tcp_stacks")
        result(isinstance(stacks, list) and len(stacks) == 1
               and stacks[0]["ranks"] == list(range(c["world_size"]))
               and {k: v for k, v in stacks[0].items() if k != "ranks"} == stack,
               f"{name}: context.tcp_stacks: one stack for ranks 0..{c['world_size'] - 1}")
    if "ucx_version" in required:
        result(isinstance(c.get("ucx_version"), str) and c["ucx_version"] != "",
               f"{name}: ucx_version set")


for_each_report(check_context, "context")
result(len(versions) == 1 and None not in versions, f"one schema_version: {sorted(map(str, versions))}")
result(len(times) == 1, "one description of the times")

rep = loaded.get("dlc-replay")
if rep:
    result(rep.get("schema_version") == rep["context"].get("schema_version"),
           "dlc-replay: top-level schema_version is the context's")
    result(all({"offset_s", "drift", "at_s", "uncertainty_s", "method"} <= c.keys()
               for c in rep["clock"]), "dlc-replay: clock mapping keys per rank")

# One envelope: the runner's keys, the same in all three, around each pattern's own.
ENVELOPE = {"complete", "context", "clock", "release", "phases_s", "setup", "flow_origin_s",
            "files"}
FILES = {"records", "fct", "flows", "flow_map"}
CLOCK = {"offset_s", "drift", "at_s", "uncertainty_s", "method"}
for name in ("dlc-bench fanin", "dlc-bench ring", "dlc-replay"):
    d = loaded.get(name)
    if d is None:
        continue
    result(ENVELOPE <= d.keys(), f"{name}: the envelope's keys (missing {sorted(ENVELOPE - d.keys())})")
    result(d.get("complete") is True, f"{name}: complete")
    result(set(d.get("files", {})) == FILES, f"{name}: files are {sorted(FILES)}")
    result(isinstance(d.get("clock"), list) and len(d["clock"]) == d["context"]["world_size"]
           and all(CLOCK <= c.keys() for c in d["clock"]), f"{name}: one clock per rank")
    result(isinstance(d.get("flow_origin_s"), float), f"{name}: flow_origin_s")
    result({"join_s", "setup_s", "gather_s"} <= d.get("setup", {}).keys(),
           f"{name}: setup names the phases")
    result(list(d.get("phases_s", {})) == list(loaded["dlc-replay"].get("phases_s", {}))
           and "gather_s" in d.get("phases_s", {}), f"{name}: the same phases as dlc-replay's")

def header(path):
    with open(path) as f:
        return f.readline().rstrip("\n")

csvs = [f"{work}/lat.csv", f"{work}/bw.csv"] + sorted(glob.glob(f"{work}/rec.rank*.csv"))
result(len(csvs) == 5, f"records files: {[os.path.basename(p) for p in csvs]}")
heads = {header(p) for p in csvs if os.path.exists(p)}
result(len(heads) == 1 and next(iter(heads)).startswith("seq,"),
       f"one records CSV header across tools: {sorted(heads)}")
if rep:
    files = rep.get("files", {}).get("records", [])
    result(sorted(files) == sorted(csvs[2:]), "dlc-replay: JSON names its records files")
PY
count_results "$work/py"
finish
