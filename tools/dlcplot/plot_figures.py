"""dlc-plot's figures: one function per plot kind, from dlc-plot's inputs (plot_inputs.Input) to
a matplotlib figure. The readers validate; these draw."""
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

import plot_inputs as pi  # noqa: E402

TITLES = {
    "cdf": "latency CDF",
    "timeline": "latency over time",
    "bw": "bandwidth against size",
    "bursts": "fan-in burst completion per iteration",
    "busbw": "bus bandwidth against size",
    "iterations": "replay iteration times against the trace's",
}
MAX_CURVES_PER_FILE = 6


def format_size(b):
    b = int(b)
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift}{unit}"
    return str(int(b))


def time_unit(values):
    """(factor, name) for showing seconds: us, ms or s after the median."""
    m = statistics.median(values)
    if m < 1e-3:
        return 1e6, "us"
    return (1e3, "ms") if m < 1 else (1.0, "s")


def spread(values):
    lo, hi = min(values), max(values)
    return hi / lo if lo > 0 else 0


def size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ticks = sorted(set(sizes))
    step = max(1, (len(ticks) + 11) // 12)
    ticks = ticks[::step]
    ax.set_xticks(ticks, [format_size(b) for b in ticks], fontsize=8)
    ax.minorticks_off()
    ax.set_xlabel("message size (bytes)")


def new_figure(kind, width=8):
    """A figure with its default title, TITLES[kind] (dlc-plot's --title replaces it)."""
    fig, ax = plt.subplots(figsize=(width, 4.5))
    ax.grid(alpha=0.3)
    ax.set_title(TITLES[kind], fontsize=10)
    return fig, ax


def pick(sizes, wanted, path):
    """The sizes (bytes) of a file to draw: --size's, or up to MAX_CURVES_PER_FILE spread over
    the sweep."""
    if wanted:
        got = [b for b in sizes if b in wanted]
        if not got:
            raise pi.InputError(f"{path}: none of the sizes " + ", ".join(map(format_size, wanted))
                                + " (it has " + ", ".join(map(format_size, sizes)) + ")")
        return got
    if len(sizes) <= MAX_CURVES_PER_FILE:
        return sizes
    n = MAX_CURVES_PER_FILE
    return [sizes[round(i * (len(sizes) - 1) / (n - 1))] for i in range(n)]


def cdf(inputs, sizes=None):
    curves, notes = [], []
    for inp in inputs:
        if inp.kind == "records":
            curves.append((inp.label, [d for _, d in pi.record_latencies(inp)]))
            notes.append("records: post to completion at the sender (ping-pong: round trip)")
        else:
            samples = dict(pi.bench_samples(inp))
            for b in pick(list(samples), sizes, inp.path):
                curves.append((f"{inp.label}, {format_size(b)} B", samples[b]))
            notes.append("dlc-bench lat: " + inp.doc.get("test", {}).get("latency_is", "latency"))
    k, unit = time_unit([v for _, vs in curves for v in vs])
    fig, ax = new_figure("cdf", 7)
    for label, vs in curves:
        v = sorted(x * k for x in vs)
        ax.step(v, [(i + 1) / len(v) for i in range(len(v))], where="post",
                label=f"{label} ({len(v)})")
    if spread([v for _, vs in curves for v in vs]) > 20:
        ax.set_xscale("log")
    ax.set_xlabel(f"latency ({unit}); " + "; ".join(dict.fromkeys(notes)), fontsize=8)
    ax.set_ylabel("fraction of messages")
    return fig, ax


def timeline(inputs, sizes=None):
    series = [(inp.label, pi.record_latencies(inp)) for inp in inputs]
    k, unit = time_unit([d for _, pts in series for _, d in pts])
    fig, ax = new_figure("timeline")
    for label, pts in series:
        ax.scatter([t for t, _ in pts], [d * k for _, d in pts], s=5, alpha=0.6,
                   label=f"{label} ({len(pts)})")
    if spread([d for _, pts in series for _, d in pts]) > 20:
        ax.set_yscale("log")
    ax.set_xlabel("post time (s, from the file's first post)")
    ax.set_ylabel(f"post to completion at the sender ({unit})")
    return fig, ax


def bw(inputs, sizes=None):
    kinds = {inp.kind for inp in inputs}
    if len(kinds) > 1:
        raise pi.InputError(inputs[-1].path + ": a dlc-bench " + inputs[-1].kind[6:]
                            + " report beside " + inputs[0].kind[6:] + " ones: bw draws all of "
                            "one kind")
    fig, ax = new_figure("bw")
    allb = []
    if kinds == {"bench-bw"}:
        for inp in inputs:
            pts = pi.bench_curve(inp, "bandwidth", "average_bytes_per_s")
            allb += [b for b, _ in pts]
            ax.plot([b for b, _ in pts], [v * 8e-9 for _, v in pts], marker="o", ms=3,
                    label=inp.label)
        ax.set_ylabel("average bandwidth (Gb/s, 10^9 bit)")
    else:
        p50 = [(inp, pi.bench_curve(inp, "latency_s", "p50")) for inp in inputs]
        p99 = [pi.bench_curve(inp, "latency_s", "p99") for inp in inputs]
        k, unit = time_unit([v for _, pts in p50 for _, v in pts])
        for (inp, pts), tail in zip(p50, p99):
            allb += [b for b, _ in pts]
            line, = ax.plot([b for b, _ in pts], [v * k for _, v in pts], marker="o", ms=3,
                            label=f"{inp.label} p50")
            ax.plot([b for b, _ in tail], [v * k for _, v in tail], ls="--", lw=0.8,
                    color=line.get_color(), label=f"{inp.label} p99")
        ax.set_yscale("log")
        latency_is = inputs[0].doc.get("test", {}).get("latency_is", "latency")
        ax.set_ylabel(f"latency ({unit}; {latency_is})")
        ax.set_title("latency against size", fontsize=10)
    size_axis(ax, allb)
    return fig, ax


def busbw(inputs, sizes=None):
    fig, ax = new_figure("busbw")
    allb = []
    for inp in inputs:
        pts = pi.ring_curve(inp, "busbw_GBps")
        allb += [b for b, _ in pts]
        what = "{}, {} ranks".format(inp.doc.get("collective", "?"), inp.doc.get("ranks", "?"))
        ax.plot([b for b, _ in pts], [v for _, v in pts], marker="o", ms=3,
                label=f"{inp.label} ({what})")
    size_axis(ax, allb)
    ax.set_ylabel("busbw (GB/s, nccl-tests' bus bandwidth)")
    return fig, ax


def bursts(inputs, sizes=None):
    series = [(inp, pi.fanin_rounds(inp)) for inp in inputs]
    k, unit = time_unit([r[2] for _, rounds in series for r in rounds])
    fig, ax = new_figure("bursts")
    ticks = {}
    for inp, rounds in series:
        warm = [r for r in rounds if r[0] == "warmup"]
        xs = [i - len(warm) if r[0] == "warmup" else r[1] for i, r in enumerate(rounds)]
        for x, r in zip(xs, rounds):
            ticks[x] = f"w{r[1]}" if r[0] == "warmup" else str(r[1])
        inc = [(x, r) for x, r in zip(xs, rounds) if r[0] != "warmup"]
        line, = ax.plot([x for x, _ in inc], [r[2] * k for _, r in inc], marker="o", ms=4,
                        label=f"{inp.label}: burst completion")
        ax.plot([x for x, r in zip(xs, rounds) if r[0] == "warmup"], [r[2] * k for r in warm],
                ls="none", marker="o", ms=4, mfc="none", color=line.get_color())
        ax.plot(xs, [r[3] * k for r in rounds], ls="--", lw=0.8, color=line.get_color(),
                label=f"{inp.label}: limit (base + bytes / rate)")
    ax.set_xticks(sorted(ticks), [ticks[x] for x in sorted(ticks)], fontsize=8)
    ax.set_xlabel("iteration (w: warm-up, hollow)")
    ax.set_ylabel(f"first post to last arrival ({unit}, rank 0's clock)")
    ax.set_ylim(bottom=0)
    return fig, ax


def iterations(inputs, sizes=None):
    fig, ax = new_figure("iterations")
    traces = {}
    replays = [(inp, pi.replay_iterations(inp, "replay")) for inp in inputs]
    for inp in inputs:
        traces.setdefault(tuple(pi.replay_iterations(inp, "trace")), inp.label)
    k, unit = time_unit([v for _, pts in replays for _, v in pts] + [v for t in traces for _, v in t])
    for pts, label in traces.items():
        ax.plot([i for i, _ in pts], [v * k for _, v in pts], color="0.3", ls="--", marker="s",
                ms=3, label="trace" if len(traces) == 1 else f"trace of {label}")
    for inp, pts in replays:
        ax.plot([i for i, _ in pts], [v * k for _, v in pts], marker="o", ms=4,
                label=f"{inp.label}: replay")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("iteration")
    ax.set_ylabel(f"iteration time ({unit}, mean over workers)")
    ax.set_ylim(bottom=0)
    return fig, ax
