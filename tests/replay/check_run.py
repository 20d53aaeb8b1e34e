#!/usr/bin/env python3
"""Checks a dlc-replay run against its job, independently of the tool's own verdict.

usage: check_run.py JOB_DIR JSON RECORDS_PREFIX FCT [--iterations N] [--op send|write]
                    [--cross-host RANK ...] [--flows FLOW_TXT]

- every trace message (one per sending record of a worker or server file) was sent exactly
  once and received exactly once, with the trace's size, between the ranks of the default map;
- dependency order, from the records alone: at a worker, per key, the events alternate
  push (send), acknowledgement (recv), pull request (send), pull reply (recv); at a server,
  per key and worker, push (recv), acknowledgement (send), pull request (recv), reply (send);
- the records files parse (header, 12 integer-or-name columns), the fct file has one line per
  message in HPCC's layout (FCT `-`: none was written), the flow.txt of --export-flows (with
  --flows) counts and lists every message and its flow map has a line per message, and the JSON
  report says ok with the expected counts.
Prints one line per failed check and exits 1 if any failed.
"""
import collections
import csv
import glob
import json
import os
import re
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def trace_messages(job):
    """(src, dst, length) of every message the job's sending records describe, per node."""
    msgs = []
    workers = None
    for path in sorted(glob.glob(os.path.join(job, "*", "trace_record.txt"))):
        node = os.path.basename(os.path.dirname(path))
        with open(path) as f:
            text = f.read()
        if workers is None:
            workers = int(re.search(r"num_workers:\s*=\s*(\d+)", text).group(1))
        m = re.match(r"(worker|server)(\d+)$", node)
        rank = int(m.group(2)) + (workers if m.group(1) == "server" else 0)
        for line in text.splitlines():
            fields = line.split()
            if len(fields) < 4 or not fields[0].isdigit():
                continue
            src, dst, length = int(fields[1]), int(fields[2]), int(fields[3])
            if src == rank:
                msgs.append((src, dst, length, line))
    return msgs, workers


def read_records(prefix, world):
    rows = {}
    for r in range(world):
        path = f"{prefix}.rank{r}.csv"
        if not check(os.path.exists(path), f"records file {path} missing"):
            rows[r] = []
            continue
        with open(path) as f:
            lines = f.read().splitlines()
        check(lines and lines[0].startswith("seq,op,bytes,src,dst"), f"{path}: header")
        parsed = list(csv.DictReader(lines))
        for i, row in enumerate(parsed):
            ok = len(row) == 12 and all(v is not None and re.fullmatch(r"-?\d+|send|recv|write", v)
                                        for v in row.values())
            check(ok, f"{path}: line {i + 2} does not parse: {row}")
        rows[r] = parsed
    return rows


def main(argv):
    job, json_path, prefix, fct = argv[:4]
    opts = argv[4:]
    iterations = None
    op = "send"
    cross = set()
    flows = None
    i = 0
    while i < len(opts):
        if opts[i] == "--iterations":
            iterations = int(opts[i + 1])
            i += 2
        elif opts[i] == "--op":
            op = opts[i + 1]
            i += 2
        elif opts[i] == "--flows":
            flows = opts[i + 1]
            i += 2
        elif opts[i] == "--cross-host":
            cross.add(int(opts[i + 1]))
            i += 2
        else:
            raise SystemExit(f"unknown option {opts[i]}")

    msgs, workers = trace_messages(job)
    doc = json.load(open(json_path))
    world = doc["replay"]["ranks"]
    rows = read_records(prefix, world)
    sends = [(r, row) for r in rows for row in rows[r] if row["op"] in ("send", "write")]
    recvs = [(r, row) for r in rows for row in rows[r] if row["op"] == "recv"]

    def name(row):
        return (int(row["src"]), int(row["dst"]), int(row["key"]), int(row["opnum"]))

    sent = collections.Counter(name(row) for _, row in sends)
    got = collections.Counter(name(row) for _, row in recvs)
    check(all(c == 1 for c in sent.values()), "a message was sent twice")
    check(all(c == 1 for c in got.values()), "a message was received twice")
    check(set(sent) == set(got), f"sent and received differ: {len(set(sent) ^ set(got))} messages")
    check(all(row["op"] == op for _, row in sends), f"sends are not all '{op}'")
    size_of = {name(row): int(row["bytes"]) for _, row in sends}
    check(all(size_of.get(name(row)) == int(row["bytes"]) for _, row in recvs),
          "a message arrived with another size than it was sent with")
    if iterations is None:
        want = collections.Counter((s, d, n) for s, d, n, _ in msgs)
        have = collections.Counter((int(r["src"]), int(r["dst"]), int(r["bytes"])) for _, r in sends)
        check(want == have, f"sent messages differ from the trace's: {len(msgs)} in the trace, "
                            f"{len(sends)} sent; first missing: "
                            f"{list((want - have).items())[:3]} extra: {list((have - want).items())[:3]}")
    for _, row in sends:
        check(int(row["post_ns"]) >= int(row["planned_ns"]) >= 0, f"posted before planned: {row}")
        check(int(row["complete_ns"]) >= int(row["post_ns"]), f"completed before posted: {row}")
    for _, row in recvs:
        check(int(row["arrival_ns"]) >= int(row["post_ns"]) >= 0, f"arrived before posted: {row}")

    # Dependency order from the records: per (rank, key, peer) the data events alternate.
    for r, rr in rows.items():
        events = collections.defaultdict(list)
        for row in rr:
            if int(row["key"]) < 0:
                continue
            peer = int(row["dst"]) if row["op"] != "recv" else int(row["src"])
            t = int(row["post_ns"]) if row["op"] != "recv" else int(row["arrival_ns"])
            events[(int(row["key"]), peer)].append((t, row["op"] != "recv"))
        for (key, peer), ev in events.items():
            ev.sort()
            pattern = [is_send for _, is_send in ev]
            first = r < workers  # workers start with a send (push or pull request)
            want = [(k % 2 == 0) == first for k in range(len(pattern))]
            check(pattern == want,
                  f"rank {r} key {key} peer {peer}: sends and receives do not alternate")

    check(doc.get("ok") is True, f"JSON says not ok: {doc.get('verdict')}")
    m = doc["messages"]
    check(m["sent"] == len(sends) == m["received"] == len(recvs) == m["flows"],
          f"JSON counts {m} vs records {len(sends)} sent, {len(recvs)} received")
    check(m["wrong"] == 0 and m["duplicates"] == 0, f"JSON: wrong/duplicates {m}")
    check(len(doc["rank_map"]) == world and len(doc["clock"]) == world, "JSON: map/clock size")
    check(doc["job"]["scheduler"] == "not replayed", "JSON: scheduler")
    sched = doc["scheduling_error_s"]
    check(sched["count"] == len(sends) and sched["p99"] >= sched["p50"] >= 0,
          f"JSON: scheduling error {sched}")
    its = doc["iterations"]
    check(its and all("trace" in x and "replay" in x for x in its), "JSON: iterations side by side")
    if iterations is not None:
        check(max(x["iteration"] for x in its) == iterations, "JSON: iterations replayed")
    for k, c in enumerate(doc["clock"]):
        if k in cross:
            check(c["method"] == "ping_pong" and c["uncertainty_s"] > 0,
                  f"rank {k} should be aligned by ping-pong with a bound: {c}")
        elif k > 0:
            check(c["method"] == "clock_monotonic", f"rank {k} should share rank 0's kernel: {c}")
    if cross:
        bounds = [p["uncertainty_s"] for p in doc["latency"] if p["src"] in cross or p["dst"] in cross]
        check(bounds and all(b > 0 for b in bounds), "cross-host latencies carry their bound")

    lines = open(fct).read().splitlines() if fct != "-" else []
    check(fct == "-" or len(lines) == len(sends), f"fct: {len(lines)} lines for {len(sends)} messages")
    if flows is not None:
        # HPCC's flow.txt: a count, then "src dst priority dport size start_s" per message.
        fl = open(flows).read().splitlines()
        check(fl and fl[0].strip() == str(len(sends)) and len(fl) == len(sends) + 1,
              f"flow.txt: first line {fl[:1]}, {len(fl) - 1} flows for {len(sends)} messages")
        check(all(len(x.split()) == 6 for x in fl[1:]), "flow.txt: a line without 6 fields")
        sizes = collections.Counter(int(x.split()[4]) for x in fl[1:])
        check(sizes == collections.Counter(int(r["bytes"]) for _, r in sends),
              "flow.txt: the sizes are not the messages' sizes")
        mp = [x for x in open(flows + ".map").read().splitlines() if x and not x.startswith("#")]
        check(len(mp) >= len(sends), f"flow map: {len(mp)} lines for {len(sends)} messages")
    for line in lines:
        f = line.split()
        if not check(len(f) == 8 and re.fullmatch(r"[0-9a-f]{8}", f[0]) and
                     re.fullmatch(r"[0-9a-f]{8}", f[1]) and all(x.isdigit() for x in f[2:]),
                     f"fct line: {line}"):
            break

    for f in failures[:20]:
        print("FAIL:", f)
    print(f"check_run: {len(sends)} messages, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
