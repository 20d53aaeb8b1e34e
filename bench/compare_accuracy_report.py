#!/usr/bin/python3
"""compare_accuracy_report.py WORK OUT.json [--png OUT.png]: the table of
bench/compare_accuracy.sh from its cases' dlc-compare JSON (WORK/<case>/cmp.json and run.json).
"""
import argparse
import glob
import json
import os
import statistics


def fanin_row(case, cmp, run):
    # Groups are rounds: one solo round per worker, 1 warm-up, then the measured iterations.
    iters = run["summary"]["iterations"]
    groups = cmp["groups"][-iters:]
    errs = [g["error"] for g in groups]
    return {
        "case": case, "pattern": "fanin", "workers": run["spec"]["workers"],
        "bct_error_median": statistics.median(errs),
        "bct_error_abs_max": max(abs(e) for e in errs),
        "bct_measured_s": statistics.median(g["measured_s"] for g in groups),
        "bct_predicted_s": statistics.median(g["predicted_s"] for g in groups),
    }


def ring_rows(case, cmp, run):
    rows = []
    # Groups are the measured iterations, numbered on across the sizes.
    first = 0
    for s in run["sizes"]:
        per = s["iterations"]
        groups = cmp["groups"][first:first + per]
        first += per
        errs = [g["error"] for g in groups]
        if not errs:
            continue
        e = statistics.median(errs)
        rows.append({
            "case": case, "pattern": "ring", "ranks": run["ranks"], "bytes": s["size_bytes"],
            "time_error_median": e, "busbw_error_median": -e / (1 + e),
        })
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("work")
    p.add_argument("out")
    p.add_argument("--png")
    a = p.parse_args()
    cases, table = [], []
    for d in sorted(glob.glob(os.path.join(a.work, "*", "cmp.json"))):
        case = os.path.basename(os.path.dirname(d))
        cmp = json.load(open(d))
        run = json.load(open(os.path.join(os.path.dirname(d), "run.json")))
        m = cmp["messages"]
        # The measured run against itself (the same message one round or iteration later):
        # the floor under any model's per-message error on this star.
        rep = cmp.get("measured_repeatability", {})
        floor = rep.get("abs_change", {}).get("p50") if rep.get("messages") else None
        cases.append({"case": case, "flows": cmp["flows"], "abs_error_p50": m["abs_error"]["p50"],
                      "signed_error_p50": m["signed_error"]["p50"], "mape_pct": m["mape_pct"],
                      "ks": m["ks"], "repeat_abs_change_p50": floor, "groups": cmp["groups"]})
        if case.startswith("fanin"):
            table.append(dict(fanin_row(case, cmp, run), abs_error_p50=m["abs_error"]["p50"],
                              repeat_abs_change_p50=floor))
        else:
            for r in ring_rows(case, cmp, run):
                table.append(dict(r, abs_error_p50=m["abs_error"]["p50"],
                                  repeat_abs_change_p50=floor))
    table.sort(key=lambda r: (r["pattern"], r.get("workers", 0), r.get("ranks", 0), r.get("bytes", 0)))
    ctx = json.load(open(os.path.join(a.work, "context.json")))
    doc = {"context": ctx, "table": table, "cases": cases,
           "targets": {"bct_error_median_abs": 0.05, "message_abs_error_p50": 0.10}}
    json.dump(doc, open(a.out, "w"), indent=2)
    def floor_text(r):
        f = r.get("repeat_abs_change_p50")
        return "" if f is None else f" (measured against itself: {100 * f:.1f}%)"

    for r in table:
        if r["pattern"] == "fanin":
            print(f"fanin W={r['workers']:2d}: BCT error median {100 * r['bct_error_median']:+5.1f}% "
                  f"(max |e| {100 * r['bct_error_abs_max']:.1f}%), message |e| p50 "
                  f"{100 * r['abs_error_p50']:.1f}%{floor_text(r)}")
        else:
            print(f"ring N={r['ranks']} {r['bytes'] >> 20} MiB: time error median "
                  f"{100 * r['time_error_median']:+5.1f}%, busbw error {100 * r['busbw_error_median']:+5.1f}%, "
                  f"message |e| p50 {100 * r['abs_error_p50']:.1f}%{floor_text(r)}")
    if a.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        f = [r for r in table if r["pattern"] == "fanin"]
        ax1.plot([r["workers"] for r in f], [100 * r["bct_error_median"] for r in f], "o-",
                 label="BCT error (median of iterations)")
        ax1.plot([r["workers"] for r in f], [100 * r["abs_error_p50"] for r in f], "s--",
                 label="per-message |error| p50")
        fw = [r for r in f if r.get("repeat_abs_change_p50") is not None]
        ax1.plot([r["workers"] for r in fw], [100 * r["repeat_abs_change_p50"] for r in fw], "x:",
                 color="0.4", label="measured against itself, p50")
        ax1.axhspan(-5, 5, color="g", alpha=0.1, label="BCT target +-5%")
        ax1.set_xscale("log", base=2)
        ax1.set_xlabel("fan-in workers W")
        ax1.set_ylabel("error (%)")
        ax1.legend(fontsize=8)
        ax1.grid(alpha=0.3)
        g = [r for r in table if r["pattern"] == "ring"]
        labels = [f"N={r['ranks']}\n{r['bytes'] >> 20}M" for r in g]
        ax2.bar(range(len(g)), [100 * r["busbw_error_median"] for r in g], label="busbw error")
        ax2.plot(range(len(g)), [100 * r["abs_error_p50"] for r in g], "s", color="C1",
                 label="per-message |error| p50")
        ax2.set_xticks(range(len(g)), labels, fontsize=7)
        ax2.set_ylabel("error (%)")
        ax2.legend(fontsize=8)
        ax2.grid(alpha=0.3, axis="y")
        ports = "fair (DRR between senders)" if ctx.get("ports") == "fair" else "FIFO tbf"
        fig.suptitle(f"dlcnet's model against the namespace star ({ctx.get('rate', '')}, {ports} "
                     f"ports, initcwnd {ctx.get('initcwnd') or 'default'})", fontsize=10)
        fig.tight_layout()
        fig.savefig(a.png, dpi=120)


if __name__ == "__main__":
    main()
