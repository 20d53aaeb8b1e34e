#!/usr/bin/env python3
"""Checks a GOAL schedule as dlc-trace convert --to goal writes it: the grammar (num_ranks,
rank blocks, labelled send/recv/calc, requires), every send matched by exactly one receive of
the same size on the same (src, dst, tag), every dependency on a label of its rank, and that
the schedule runs to the end (a minimal executor: a send completes when its dependencies have,
a receive when its dependencies and its send have): no cycle, no deadlock.
Prints "ranks R sends S recvs V calcs C requires Q" and exits 1 with a reason otherwise."""
import re
import sys

OP = re.compile(r"^l(\d+): (send (\d+)b to (\d+) tag (\d+)|recv (\d+)b from (\d+) tag (\d+)|calc (\d+))$")
REQ = re.compile(r"^l(\d+) requires l(\d+)$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def parse(path):
    lines = open(path).read().splitlines()
    if not lines or not lines[0].startswith("num_ranks "):
        fail("first line is not num_ranks")
    n = int(lines[0].split()[1])
    ranks, cur = {}, None
    for no, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        m = re.match(r"^rank (\d+) \{$", line)
        if m:
            cur = int(m.group(1))
            ranks[cur] = {"ops": {}, "req": []}
            continue
        if line == "}":
            cur = None
            continue
        if cur is None:
            fail(f"line {no} outside a rank block: {line}")
        m = OP.match(line)
        if m:
            label = int(m.group(1))
            if label in ranks[cur]["ops"]:
                fail(f"line {no}: label l{label} twice")
            if m.group(3):
                op = ("send", int(m.group(3)), int(m.group(4)), int(m.group(5)))
            elif m.group(6):
                op = ("recv", int(m.group(6)), int(m.group(7)), int(m.group(8)))
            else:
                op = ("calc", int(m.group(9)))
            ranks[cur]["ops"][label] = op
            continue
        m = REQ.match(line)
        if m:
            ranks[cur]["req"].append((int(m.group(1)), int(m.group(2))))
            continue
        fail(f"line {no}: not GOAL: {line}")
    if sorted(ranks) != list(range(n)):
        fail(f"rank blocks {sorted(ranks)} for num_ranks {n}")
    return n, ranks


def main():
    n, ranks = parse(sys.argv[1])
    sends, recvs, counts = {}, {}, {"send": 0, "recv": 0, "calc": 0, "req": 0}
    for r, b in ranks.items():
        for label, op in b["ops"].items():
            counts[op[0]] += 1
            if op[0] == "send":
                key = (r, op[2], op[3])
                if key in sends:
                    fail(f"two sends {key}")
                sends[key] = (op[1], r, label)
            elif op[0] == "recv":
                key = (op[2], r, op[3])
                if key in recvs:
                    fail(f"two receives {key}")
                recvs[key] = (op[1], r, label)
        for a, d in b["req"]:
            counts["req"] += 1
            if a not in b["ops"] or d not in b["ops"]:
                fail(f"rank {r}: l{a} requires l{d}: unknown label")
    if set(sends) != set(recvs):
        fail(f"unmatched: sends without receive {sorted(set(sends) - set(recvs))[:5]}, "
             f"receives without send {sorted(set(recvs) - set(sends))[:5]}")
    for key, (size, _, _) in sends.items():
        if recvs[key][0] != size:
            fail(f"{key}: send {size} B, receive {recvs[key][0]} B")
    # Execute.
    deps = {(r, l): [] for r, b in ranks.items() for l in b["ops"]}
    for r, b in ranks.items():
        for a, d in b["req"]:
            deps[(r, a)].append((r, d))
    done, progress = set(), True
    while progress:
        progress = False
        for (r, l), ds in deps.items():
            if (r, l) in done or any(d not in done for d in ds):
                continue
            op = ranks[r]["ops"][l]
            if op[0] == "recv":
                size, src, slabel = sends[(op[2], r, op[3])]
                if (src, slabel) not in done:
                    continue
            done.add((r, l))
            progress = True
    if len(done) != len(deps):
        stuck = sorted(set(deps) - done)[:5]
        fail(f"{len(deps) - len(done)} operations never run (cycle or deadlock), e.g. {stuck}")
    print(f"ranks {n} sends {counts['send']} recvs {counts['recv']} calcs {counts['calc']} "
          f"requires {counts['req']}")


main()
