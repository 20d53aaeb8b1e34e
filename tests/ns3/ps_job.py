"""A hand-made parameter-server job in dlcnet's native CSV (docs/native-trace-format.md), and
what its dependencies say of a prediction. W workers, one server (rank W), key 0, ITERATIONS
iterations; per iteration each worker pushes PUSH bytes (after the previous iteration's pull
arrived, plus COMPUTE), the server acknowledges every worker once every push has arrived (plus
AGGREGATE), each worker asks for the pull once its acknowledgement arrived (plus ASK), and the
server sends it PULL bytes once the ask arrived (plus SERVE).

  ps_job.py write WORKERS ITERATIONS PUSH PULL OUT.csv
  ps_job.py check WORKERS ITERATIONS MAP FCT LATENCY_S TOLERANCE_S
check: each message's predicted start (fct.txt, named through the replay's flow map) is the
latest predicted arrival (start + fct - LATENCY_S) of the messages it waits for plus its think
time, within TOLERANCE_S; prints the largest deviation and how many messages it checked.
"""
import sys

COMPUTE_NS, AGGREGATE_NS, ASK_NS, SERVE_NS = 500_000, 2_000_000, 300_000, 1_000_000
SMALL = 64


def write(workers, iterations, push, pull, out):
    lines = [f"# dlcnet-trace 1 workers={workers} servers=1",
             "node,id,op,peer,key,iteration,bytes,time_ns,dtime_ns,deps"]
    for w in range(workers):
        for i in range(1, iterations + 1):
            b = 10 * i
            first = i == 1
            lines += [f"w{w},{b + 1},push_send,s0,0,{i},{push},0,{0 if first else COMPUTE_NS},"
                      f"{'' if first else b - 10 + 4}",
                      f"w{w},{b + 2},push_recv,s0,0,{i},{SMALL},0,,{b + 1}",
                      f"w{w},{b + 3},pull_send,s0,0,{i},{SMALL},0,{ASK_NS},{b + 2}",
                      f"w{w},{b + 4},pull_recv,s0,0,{i},{pull},0,,{b + 3}"]
    for i in range(1, iterations + 1):
        b = 100 * i
        recvs = [b + w for w in range(workers)]
        for w in range(workers):
            prev = "" if i == 1 else f"{b - 100 + 60 + w}"
            lines.append(f"s0,{b + w},push_recv,w{w},0,{i},{push},0,,{prev}")
        for w in range(workers):
            lines.append(f"s0,{b + 20 + w},push_send,w{w},0,{i},{SMALL},0,{AGGREGATE_NS},"
                         + ";".join(map(str, recvs)))
        for w in range(workers):
            lines.append(f"s0,{b + 40 + w},pull_recv,w{w},0,{i},{SMALL},0,,{b + 20 + w}")
            lines.append(f"s0,{b + 60 + w},pull_send,w{w},0,{i},{pull},0,{SERVE_NS},{b + 40 + w}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def waits(workers, iterations):
    """{(src, dst, opnum): ([(src, dst, opnum) it waits for], think_s)}: ranks are the workers
    then the server; a worker's channel numbers iteration i's steps 4i-2 .. 4i+1."""
    s = workers
    out = {}
    for i in range(1, iterations + 1):
        o = 4 * i - 2
        for w in range(workers):
            push, ack, ask, data = (w, s, o), (s, w, o + 1), (w, s, o + 2), (s, w, o + 3)
            out[push] = ([] if i == 1 else [(s, w, o - 1)], 0 if i == 1 else COMPUTE_NS / 1e9)
            out[ack] = ([(v, s, o) for v in range(workers)], AGGREGATE_NS / 1e9)
            out[ask] = ([ack], ASK_NS / 1e9)
            out[data] = ([ask], SERVE_NS / 1e9)
    return out


def check(workers, iterations, map_path, fct_path, latency_s, tolerance_s):
    name = {}  # (src, dst, sport) -> (src, dst, opnum)
    for line in open(map_path):
        if line.startswith("#"):
            continue
        f = line.split()
        src, dst, sport, opnum = int(f[1]), int(f[2]), int(f[3]), int(f[10])
        name[(src, dst, sport)] = (src, dst, opnum)
    times = {}  # name -> (start_s, arrival_s)
    for line in open(fct_path):
        f = line.split()
        src, dst = int(f[0], 16) >> 8 & 0xFFFF, int(f[1], 16) >> 8 & 0xFFFF
        start, fct = int(f[5]) / 1e9, int(f[6]) / 1e9
        times[name[(src, dst, int(f[2]))]] = (start, start + fct - latency_s)
    expected = waits(workers, iterations)
    assert set(times) == set(expected), (sorted(times), sorted(expected))
    worst, checked = 0.0, 0
    for m, (deps, think) in expected.items():
        if not deps:
            continue
        want = max(times[d][1] for d in deps) + think
        dev = abs(times[m][0] - want)
        assert dev <= tolerance_s, (m, times[m][0], want)
        worst, checked = max(worst, dev), checked + 1
    print(f"{checked} dependent messages at their dependencies' arrival plus think time, "
          f"within {worst * 1e9:.0f} ns")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        check(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6]),
              float(sys.argv[7]))
