"""dlc-compare-plot's pictures (matplotlib, Agg): cdf.png, scatter.png, errors.png, groups.png
of a comparison and queue.png of a queue comparison, from what dlc-compare-plot loaded and
checked. From DENSE messages on, scatter.png and errors.png bin the messages into hexagons
(every message counted, a cell of one message still drawn: the extremes stay) and say so in
the title; the CDFs keep their tails exact and sample the middle, a long span line is drawn
through its envelope (a 10^6-point line costs seconds and memory, and draws nothing a few
thousand points would not)."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from compare_columns import InputError  # noqa: E402

# From this many messages the scatter and the errors are drawn binned (2-D histograms).
DENSE = 20000
# A CDF of more points is drawn through this many quantiles, plus TAIL points exact at each end.
CDF_POINTS = 4000
TAIL = 500
# groups.png draws bars up to this many groups, a line beyond (through its envelope from
# 2 ENVELOPE groups on: its axes are about 850 pixels across).
MAX_BARS = 200
ENVELOPE = 1000


def save(fig, out, name):
    fig.tight_layout()
    try:
        fig.savefig(os.path.join(out, name), dpi=120)
    except OSError as e:
        raise InputError(f"{os.path.join(out, name)}: cannot write: {e.strerror or e}")
    plt.close(fig)


def cdf(ax, values, label):
    """The step CDF of `values`: every point up to CDF_POINTS + 2 TAIL of them, else both tails'
    TAIL points and CDF_POINTS evenly spaced ranks between (off by at most 1/CDF_POINTS in y)."""
    v = np.sort(values)
    n = len(v)
    i = np.arange(n)
    if n > CDF_POINTS + 2 * TAIL:
        i = np.unique(np.concatenate((i[:TAIL], np.linspace(0, n - 1, CDF_POINTS).astype(np.int64),
                                      i[-TAIL:])))
    ax.step(v[i], (i + 1) / n, where="post", label=label)


def envelope(y):
    """A line of more than 2 ENVELOPE points as each of ENVELOPE runs' least and greatest value
    (at the run's first x), then the last point: in an axes of fewer than ENVELOPE pixels
    across it draws as the whole line, its peaks and troughs included, at a bounded cost
    (Agg's memory grows with a line's segments: 50 000 noisy groups cost 27 MB, 0 now)."""
    n = len(y)
    if n <= 2 * ENVELOPE:
        return np.arange(n), y
    starts = np.linspace(0, n, ENVELOPE, endpoint=False).astype(np.int64)
    x = np.repeat(starts, 2)
    v = np.empty(2 * ENVELOPE)
    v[0::2] = np.minimum.reduceat(y, starts)
    v[1::2] = np.maximum.reduceat(y, starts)
    return np.append(x, n - 1), np.append(v, y[-1])  # the last point: the axis' whole range


def binned(fig, ax, x, y, log, what):
    """x against y as hexagons coloured by their count of messages (log colour scale); on log
    axes (then one range for both, as the y = x line spans) the values <= 0, which they cannot
    show, are left out and counted. Returns the title line that says so."""
    shown = (x > 0) & (y > 0) if log else np.ones(len(x), dtype=bool)
    left = len(x) - int(shown.sum())
    if left < len(x):
        extent = None
        if log:
            lo = np.log10(min(x[shown].min(), y[shown].min()))
            hi = np.log10(max(x[shown].max(), y[shown].max()))
            extent = (lo, hi, lo, hi)
        scale = "log" if log else "linear"
        hb = ax.hexbin(x[shown], y[shown], xscale=scale, yscale=scale, extent=extent,
                       gridsize=(100, 60) if log else (200, 80), bins="log", mincnt=1,
                       cmap="viridis", linewidths=0)
        fig.colorbar(hb, ax=ax, label=f"{what} per cell")
    return (f"{len(x)} {what} binned (colour: {what} per cell)"
            + (f"; {left} at <= 0 not shown" if left else ""))


def draw_queue(d, out):
    q, measured, name, starts, title = d["q"], d["measured"], d["name"], d["starts"], d["title"]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    kib = 1 / 1024
    ax.plot(q["t_s"], q["measured_bytes"] * kib, lw=0.8, label=f"measured ({measured})")
    ax.plot(q["t_s"], q["predicted_bytes"] * kib, lw=0.8, label=f"predicted ({name})")
    for i, t in enumerate(starts[:MAX_BARS]):
        ax.axvline(t, color="0.7", lw=0.5, ls=":", label="round start" if i == 0 else None)
    ax.set_xlabel("time (s, from the first post: flow.txt's zero)")
    ax.set_ylabel("queue (KiB)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    save(fig, out, "queue.png")
    print(f"dlc-compare-plot: queue, {len(q['t_s'])} points; queue.png in {out}")


def draw_comparison(d, out):
    rows, title, ks, mape, spans, kind, ms, ps = (
        d[k] for k in ("rows", "title", "ks", "mape", "spans", "kind", "ms", "ps"))
    dense = len(ms) >= DENSE
    # A legend placed "best" searches every drawn point: fixed places for the dense figures.
    where = "upper left" if dense else "best"
    fig, ax = plt.subplots(figsize=(7, 4.5))
    cdf(ax, ms, "measured")
    cdf(ax, ps, "predicted")
    ax.set_xscale("log")
    ax.set_xlabel("fct (ms): start to the sender's completion")
    ax.set_ylabel("fraction of messages")
    ax.set_title(title + (f"\nKS distance {ks:.3f}" if ks is not None else ""), fontsize=9)
    ax.legend(loc="best")  # a few thousand points to search at most (cdf())
    ax.grid(alpha=0.3)
    save(fig, out, "cdf.png")

    fig, ax = plt.subplots(figsize=(6.5, 5.5) if dense else (5.5, 5.5))
    note = ""
    if dense:
        note = "\n" + binned(fig, ax, ms, ps, True, "messages")
    else:
        # plot() with a marker and no line: scatter() builds one object per point.
        ax.plot(ms, ps, ".", ms=2, alpha=0.5, ls="none")
    lo, hi = min(ms.min(), ps.min()), max(ms.max(), ps.max())
    ax.plot([lo, hi], [lo, hi], color="k", lw=0.8, label="predicted = measured")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("measured fct (ms)")
    ax.set_ylabel("predicted fct (ms)")
    ax.set_title(title + note, fontsize=9)
    ax.legend(loc=where)
    ax.grid(alpha=0.3)
    save(fig, out, "scatter.png")

    fig, ax = plt.subplots(figsize=(8, 4))
    errors = 100 * rows["error"]
    note = ""
    if dense:
        note = "\n" + binned(fig, ax, rows["start_s"], errors, False, "messages")
    else:
        ax.plot(rows["start_s"], errors, ".", ms=2, alpha=0.5, ls="none")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("start (s, from the first post)")
    ax.set_ylabel("error (%): (predicted - measured) / measured")
    ax.set_title(title + (f"\nMAPE {mape:.1f}%" if mape is not None else "") + note, fontsize=9)
    ax.grid(alpha=0.3)
    save(fig, out, "errors.png")

    if len(spans["group"]):
        draw_groups(spans, kind, title, out)
    binned_note = " (scatter.png and errors.png binned)" if dense else ""
    print(f"dlc-compare-plot: {len(ms)} messages{binned_note}; PNG files in {out}")


def draw_groups(spans, kind, title, out):
    fig, ax = plt.subplots(figsize=(8, 4))
    n = len(spans["group"])
    x = np.arange(n)
    measured, predicted = spans["measured_s"] * 1e3, spans["predicted_s"] * 1e3
    if n <= MAX_BARS:
        ax.bar(x - 0.2, measured, 0.4, label="measured")
        ax.bar(x + 0.2, predicted, 0.4, label="predicted")
        ax.set_xticks(x, [f"{g:.0f}" for g in spans["group"]])
    else:
        ax.plot(*envelope(measured), lw=0.8, label="measured")
        ax.plot(*envelope(predicted), lw=0.8, label="predicted")
    ax.set_xlabel(kind or "group")
    ax.set_ylabel("first post to last arrival (ms)")
    ax.set_title(title, fontsize=9)
    ax.legend()
    ax.grid(alpha=0.3, axis="y")
    save(fig, out, "groups.png")
