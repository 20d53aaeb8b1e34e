#!/usr/bin/env python3
"""Plots bench/setup_scale.sh's JSON: set-up time per phase (stacked) and the spawned job's
wall time against the number of ranks, with the 30 s target for join + connect + clocks; the
LeNet-5 replays' set-up (join to release) as points beside them.
    plot_setup_scale.py RESULT.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SETUP = ["join", "agree", "connect", "clocks_before"]
TARGET_S = 30


def phase(run, name):
    return (run.get("setup") or run["phases_s"]).get(name + "_s", 0.0)


def main(src, png):
    doc = json.load(open(src))
    runs = sorted((r for r in doc["runs"] if r["kind"] == "job_check"), key=lambda r: r["ranks"])
    replays = {r["ranks"]: r for r in doc["runs"] if r["kind"] == "replay_lenet5"}
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = [str(r["ranks"]) for r in runs]
    bottom = [0.0] * len(runs)
    for name in SETUP:
        ys = [phase(r, name) for r in runs]
        ax.bar(xs, ys, bottom=bottom, label=name)
        bottom = [b + y for b, y in zip(bottom, ys)]
    ax.plot(xs, [r["wall_s"] for r in runs], "ko-", label="whole job (wall, spawn to exit)")
    rx = [x for x, r in zip(xs, runs) if r["ranks"] in replays]
    if rx:
        ry = [sum(phase(replays[int(x)], n) for n in SETUP) for x in rx]
        ax.plot(rx, ry, "D", color="purple", label="LeNet-5 replay: set-up (join to clocks)")
    for x, r in zip(xs, runs):
        if r["rc"] != 0:
            ax.annotate(f"failed (rc {r['rc']})", (x, 0), ha="center", va="bottom", color="red")
    ax.axhline(TARGET_S, color="red", linestyle="--", label=f"target: set-up < {TARGET_S} s")
    ax.set_xlabel(f"ranks (all on this host, {doc['context'].get('transport', 'UCX')})")
    ax.set_ylabel("seconds (rank 0)")
    ax.set_title(f"job set-up time, {doc['context'].get('host_cpus', '?')} CPUs")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
