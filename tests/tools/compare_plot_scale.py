#!/usr/bin/python3
"""dlc-compare-plot's cost at scale (issue 31): a seeded comparison of MESSAGES messages in
dlc-compare's CSV and JSON (one group per 4 messages, as a 2-rank ring's iterations) drawn once
small (SMALL messages: the fixed cost of python, numpy, matplotlib and the four figures) and
once large; what the large run costs beyond the small one, in CPU seconds (user + system: steadier
than wall time on a shared machine) and in peak resident memory, is held under the bounds.
The four PNG files of the large run are checked, and the tool's output says that scatter.png
and errors.png were binned (their titles say so too).

  compare_plot_scale.py DLC_COMPARE_PLOT [--messages N] [--cpu-s S] [--rss-mb M] [--runs R]

The bounds (the defaults, as tests/tools/CMakeLists.txt gives them) come from the tool's runs
at 300 000 messages on a 2-CPU host at load average 3 to 5: 0.75, 0.77, 0.82, 1.03 and 1.10 s
of CPU and 40 to 41 MB beyond the small run (5 tests of 3 runs each), so twice that work
fails; the code before the one-pass reader and the binned figures (5e19e6f) took 2.47 s and
261 MB.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np


def write_comparison(d, n, seed=1):
    """cmp.csv and cmp.json of n messages, as dlc-compare writes them."""
    rng = np.random.default_rng(seed)
    i = np.arange(n)
    start = np.cumsum(rng.exponential(5e-6, n))
    measured = rng.lognormal(np.log(5e-6), 0.5, n)
    predicted = measured * rng.lognormal(0.2, 0.3, n)
    error = predicted / measured - 1
    table = np.column_stack((i % 2, (i + 1) % 2, 10000 + i // 2, np.full(n, 128), i // 4,
                             start, measured, predicted, error))
    np.savetxt(os.path.join(d, "cmp.csv"), table, delimiter=",", comments="",
               fmt=["%d"] * 5 + ["%.9f"] * 3 + ["%.6f"],
               header="src,dst,sport,size,group,start_s,measured_fct_s,predicted_fct_s,error")
    groups = [{"group": g, "measured_s": float(measured[4 * g:4 * g + 4].sum()),
               "predicted_s": float(predicted[4 * g:4 * g + 4].sum()), "messages": 4,
               "error": 0.2} for g in range((n + 3) // 4)]
    doc = {"schema": "dlcnet.compare/1", "measured": {"tool": "dlc-bench ring"},
           "predicted": {"file": "fct.txt"}, "messages": {"ks": 0.3, "mape_pct": 25.0},
           "group_kind": "iteration", "groups": groups}
    with open(os.path.join(d, "cmp.json"), "w") as f:
        json.dump(doc, f, indent=2)


def run(tool, d, out):
    """CPU seconds, peak RSS (MB) and the output of one run of the tool on d's comparison."""
    p = subprocess.Popen([tool, "--csv", os.path.join(d, "cmp.csv"), "--json",
                          os.path.join(d, "cmp.json"), "--out", out],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text = p.stdout.read().decode(errors="replace")
    _, status, use = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"FAIL: {tool} on {d}: exit {p.returncode}: {text[-2000:]}")
    return use.ru_utime + use.ru_stime, use.ru_maxrss / 1024, text


def main():
    a = argparse.ArgumentParser()
    a.add_argument("tool")
    a.add_argument("--messages", type=int, default=300000)
    a.add_argument("--small", type=int, default=1000)
    a.add_argument("--cpu-s", type=float, default=1.5)
    a.add_argument("--rss-mb", type=float, default=60)
    a.add_argument("--runs", type=int, default=3)
    o = a.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="dlcnet-plot-scale.") as w:
        small, large = os.path.join(w, "small"), os.path.join(w, "large")
        for d, n in ((small, o.small), (large, o.messages)):
            os.mkdir(d)
            write_comparison(d, n)
        # The least of a few runs each: other work on the machine only adds.
        s = [run(o.tool, small, os.path.join(w, "png-small")) for _ in range(o.runs)]
        big = [run(o.tool, large, os.path.join(w, "png")) for _ in range(o.runs)]
        cpu = min(r[0] for r in big) - min(r[0] for r in s)
        rss = min(r[1] for r in big) - min(r[1] for r in s)
        print(f"small ({o.small} messages): CPU {[round(r[0], 2) for r in s]} s, "
              f"RSS {[round(r[1]) for r in s]} MB; large ({o.messages}): CPU "
              f"{[round(r[0], 2) for r in big]} s, RSS {[round(r[1]) for r in big]} MB")
        checks = [(f"CPU beyond the small run: {cpu:.2f} s (bound {o.cpu_s:g} s)", cpu <= o.cpu_s),
                  (f"peak RSS beyond the small run: {rss:.0f} MB (bound {o.rss_mb:g} MB)",
                   rss <= o.rss_mb),
                  ("the output says scatter.png and errors.png were binned",
                   "(scatter.png and errors.png binned)" in big[0][2])]
        for f in ("cdf.png", "scatter.png", "errors.png", "groups.png"):
            size = os.path.getsize(os.path.join(w, "png", f))
            checks.append((f"{f}: {size} bytes", size > 10000))
        for what, ok in checks:
            failed += not ok
            print(f"{'ok' if ok else 'FAIL'}: {what}")
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
