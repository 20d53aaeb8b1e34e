#!/usr/bin/python3
"""compare_accuracy_report.py WORK OUT.json [--png OUT.png]: the table of
bench/compare_accuracy.sh from its cases' dlc-compare JSON (WORK/<case>/cmp.json and run.json;
where ns-3 predicted too, ns3.json; each predictor's CPU time in model.cpu and ns3.cpu). Cases:
fanin-W, ring-N, job-W and joblenet-2 (a replayed job, tests/ns3/ps_job.py's or the LeNet
example: its iterations' time error; the model on the run's star, and in up_shaped_* on its
default network, cmp-up.json).
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


def job_row(case, cmp, run):
    # Groups are the replay's iterations, predicted from the job's dependencies.
    errs = [g["error"] for g in cmp["groups"]]
    return {
        "case": case, "pattern": "job", "workers": int(case.split("-")[1]),
        "job": "lenet5-2w1s" if case.startswith("joblenet") else "ps_job",
        "iteration_error_median": statistics.median(errs),
        "iteration_error_abs_max": max(abs(e) for e in errs),
        "iteration_measured_s": statistics.median(g["measured_s"] for g in cmp["groups"]),
        "iteration_predicted_s": statistics.median(g["predicted_s"] for g in cmp["groups"]),
    }


def cpu_s(path):
    """user + system seconds written by /usr/bin/time -f "%U %S", or None."""
    try:
        return round(sum(float(x) for x in open(path).read().split()[:2]), 3)  # 0.01 s steps
    except (OSError, ValueError):
        return None


def predictor_rows(case, cmp, run):
    m = cmp["messages"]
    extra = {"abs_error_p50": m["abs_error"]["p50"], "abs_error_p90": m["abs_error"]["p90"]}
    if case.startswith("fanin"):
        return [dict(fanin_row(case, cmp, run), **extra)]
    if case.startswith("job"):
        return [dict(job_row(case, cmp, run), **extra)]
    return [dict(r, **extra) for r in ring_rows(case, cmp, run)]


def with_ns3(rows, ns3_rows, model_cpu, ns3_cpu):
    """The model's rows with ns-3's figures beside them (ns3_ prefixed), and both CPU times."""
    keyed = {(r["case"], r.get("bytes")): r for r in ns3_rows}
    for r in rows:
        r["model_cpu_s"] = model_cpu
        o = keyed.get((r["case"], r.get("bytes")))
        if o is None:
            continue
        r["ns3_cpu_s"] = ns3_cpu
        for k in ("bct_error_median", "bct_error_abs_max", "time_error_median",
                  "busbw_error_median", "iteration_error_median", "iteration_error_abs_max",
                  "iteration_predicted_s", "abs_error_p50", "abs_error_p90"):
            if k in o:
                r["ns3_" + k] = o[k]
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
        here = os.path.dirname(d)
        rows = [dict(r, repeat_abs_change_p50=floor) for r in predictor_rows(case, cmp, run)]
        ns3_path = os.path.join(here, "ns3.json")
        ns3 = predictor_rows(case, json.load(open(ns3_path)), run) if os.path.exists(ns3_path) else []
        up_path = os.path.join(here, "cmp-up.json")
        if os.path.exists(up_path):  # a job: the model with every host's up link shaped too
            up = predictor_rows(case, json.load(open(up_path)), run)[0]
            for r in rows:
                for k in ("iteration_error_median", "iteration_error_abs_max", "abs_error_p50",
                          "abs_error_p90"):
                    r["up_shaped_" + k] = up[k]
        table.extend(with_ns3(rows, ns3, cpu_s(os.path.join(here, "model.cpu")),
                              cpu_s(os.path.join(here, "ns3.cpu"))))
    table.sort(key=lambda r: (r["pattern"], r.get("workers", 0), r.get("ranks", 0), r.get("bytes", 0)))
    ctx = json.load(open(os.path.join(a.work, "context.json")))
    doc = {"context": ctx, "table": table, "cases": cases,
           "targets": {"bct_error_median_abs": 0.05, "message_abs_error_p50": 0.10,
                       "ns3_message_abs_error_p50_fanin": 0.05, "ns3_bct_error_median_abs": 0.02,
                       "model_bct_error_median_abs_issue30": 0.02, "busbw_error_abs_ring": 0.05}}
    json.dump(doc, open(a.out, "w"), indent=2)
    def floor_text(r):
        f = r.get("repeat_abs_change_p50")
        return "" if f is None else f" (measured against itself: {100 * f:.1f}%)"

    def ns3_text(r, key):
        if "ns3_" + key not in r:
            return ""
        return (f"; ns-3 {100 * r['ns3_' + key]:+5.1f}%, message |e| p50 "
                f"{100 * r['ns3_abs_error_p50']:.1f}% p90 {100 * r['ns3_abs_error_p90']:.1f}%, "
                f"CPU {r['ns3_cpu_s']} s (model {r['model_cpu_s']} s)")

    for r in table:
        if r["pattern"] == "fanin":
            print(f"fanin W={r['workers']:2d}: BCT error median {100 * r['bct_error_median']:+5.1f}% "
                  f"(max |e| {100 * r['bct_error_abs_max']:.1f}%), message |e| p50 "
                  f"{100 * r['abs_error_p50']:.1f}%{floor_text(r)}{ns3_text(r, 'bct_error_median')}")
        elif r["pattern"] == "job":
            print(f"job {r['job']} W={r['workers']}: iteration error median "
                  f"{100 * r['iteration_error_median']:+5.1f}% (max |e| "
                  f"{100 * r['iteration_error_abs_max']:.1f}%), message |e| p50 "
                  f"{100 * r['abs_error_p50']:.1f}% p90 {100 * r['abs_error_p90']:.1f}%"
                  f"{floor_text(r)}{ns3_text(r, 'iteration_error_median')}")
            if "up_shaped_iteration_error_median" in r:
                print(f"job {r['job']} W={r['workers']}: the model with shaped up links: "
                      f"iteration error median "
                      f"{100 * r['up_shaped_iteration_error_median']:+5.1f}%")
        else:
            print(f"ring N={r['ranks']} {r['bytes'] >> 20} MiB: time error median "
                  f"{100 * r['time_error_median']:+5.1f}%, busbw error {100 * r['busbw_error_median']:+5.1f}%, "
                  f"message |e| p50 {100 * r['abs_error_p50']:.1f}%{floor_text(r)}"
                  f"{ns3_text(r, 'busbw_error_median')}")
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
        fn = [r for r in f if "ns3_bct_error_median" in r]
        if fn:
            ax1.plot([r["workers"] for r in fn], [100 * r["ns3_bct_error_median"] for r in fn], "o-",
                     color="C2", label="ns-3: BCT error")
            ax1.plot([r["workers"] for r in fn], [100 * r["ns3_abs_error_p50"] for r in fn], "s--",
                     color="C3", label="ns-3: per-message |error| p50")
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
        ax2.bar([i - 0.2 for i in range(len(g))], [100 * r["busbw_error_median"] for r in g],
                width=0.4, label="model: busbw error")
        if any("ns3_busbw_error_median" in r for r in g):
            ax2.bar([i + 0.2 for i in range(len(g))],
                    [100 * r.get("ns3_busbw_error_median", 0) for r in g], width=0.4, color="C2",
                    label="ns-3: busbw error")
        ax2.plot(range(len(g)), [100 * r["abs_error_p50"] for r in g], "s", color="C1",
                 label="per-message |error| p50")
        ax2.set_xticks(range(len(g)), labels, fontsize=7)
        ax2.set_ylabel("error (%)")
        ax2.legend(fontsize=8)
        ax2.grid(alpha=0.3, axis="y")
        ports = {"fair": "fair (DRR between senders)",
                 "fair-flows": "fair (DRR between TCP flows)"}.get(ctx.get("ports"), "FIFO tbf")
        fig.suptitle(f"dlcnet's model and ns-3 against the namespace star ({ctx.get('rate', '')}, {ports} "
                     f"ports, initcwnd {ctx.get('initcwnd') or 'default'})", fontsize=10)
        fig.tight_layout()
        fig.savefig(a.png, dpi=120)


if __name__ == "__main__":
    main()
