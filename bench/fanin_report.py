#!/usr/bin/env python3
"""fanin_report.py RUNS_DIR OUT.json [--png OUT.png]: the fan-in benchmark's table (bench/fanin.sh).

Per case (rate, W, background): the median BCT of the measured iterations over the physical
limit (bytes at the tbf rate), over the tool's solo-derived limit, Jain, and the queue at burst
start and at its peak, sampled and latency-derived. The records' cost: median BCT with
--records over without, runs alternated.
"""
import glob, json, os, re, statistics, sys


def rate_bps(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(k|m|g)?bit", text)
    return float(m.group(1)) * {None: 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)]


def main(argv):
    runs, out = argv[1], argv[2]
    png = argv[argv.index("--png") + 1] if "--png" in argv else None
    cases, rec = [], {"on": [], "off": []}
    for path in sorted(glob.glob(os.path.join(runs, "*.json"))):
        name = os.path.basename(path)[:-5]
        if name == "context":
            continue
        d = json.load(open(path))
        s = d["summary"]
        m = re.fullmatch(r"records-(on|off)-\d+", name)
        if m:
            rec[m.group(1)].append(s["bct_s"])
            continue
        rate, w, bg = re.fullmatch(r"(.+)-w(\d+)-bg(\d+)", name).groups()
        bytes_ = d["iterations"][-1]["bytes"]
        physical = bytes_ * 8 / rate_bps(rate)
        q = s.get("qdisc", {})
        cases.append({
            "rate": rate, "workers": int(w), "background": int(bg), "bytes": bytes_,
            "bct_s": s["bct_s"], "physical_limit_s": physical,
            "bct_over_physical": s["bct_s"] / physical,
            "bct_over_solo_limit": s["bct_over_limit"], "jain": s["jain"],
            "slowdown_p50": s["slowdown"]["p50"], "slowdown_p99": s["slowdown"]["p99"],
            "queue_estimate_start_bytes": s["queue_estimate_bytes"]["start"],
            "queue_estimate_peak_bytes": s["queue_estimate_bytes"]["peak"],
            "qdisc_start_bytes": q.get("start_bytes"), "qdisc_peak_bytes": q.get("peak_bytes"),
            "qdisc_rate_hz": d["qdisc"]["summary"]["achieved_rate_hz"],
            "skew_s": s["skew_s"],
        })
    cases.sort(key=lambda c: (rate_bps(c["rate"]), c["background"], c["workers"]))
    doc = {"context": json.load(open(os.path.join(runs, "context.json"))), "cases": cases}
    if rec["on"] and rec["off"]:
        doc["records_cost"] = {
            "bct_on_s": rec["on"], "bct_off_s": rec["off"],
            "ratio_of_medians": statistics.median(rec["on"]) / statistics.median(rec["off"]),
        }
    json.dump(doc, open(out, "w"), indent=1)
    print(f"{'rate':>8} {'W':>3} {'bg':>2} {'BCT ms':>9} {'/phys':>6} {'/solo':>6} {'Jain':>6} "
          f"{'q@start KiB est/tbf':>20} {'q peak KiB est/tbf':>20}")
    for c in cases:
        print(f"{c['rate']:>8} {c['workers']:>3} {c['background']:>2} {c['bct_s'] * 1e3:9.1f} "
              f"{c['bct_over_physical']:6.3f} {c['bct_over_solo_limit']:6.3f} {c['jain']:6.3f} "
              f"{c['queue_estimate_start_bytes'] / 1024:9.0f}/{(c['qdisc_start_bytes'] or 0) / 1024:<9.0f} "
              f"{c['queue_estimate_peak_bytes'] / 1024:9.0f}/{(c['qdisc_peak_bytes'] or 0) / 1024:<9.0f}")
    if "records_cost" in doc:
        print(f"--records: BCT ratio on/off (medians) {doc['records_cost']['ratio_of_medians']:.3f}")
    if png:
        plot(cases, png)


def plot(cases, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    n = 0
    for rate in sorted({c["rate"] for c in cases}, key=rate_bps):
        for bg in (0, 1):
            sel = [c for c in cases if c["rate"] == rate and c["background"] == bg]
            if not sel:
                continue
            w = [c["workers"] for c in sel]
            label = f"{rate}" + (", background" if bg else "")
            style, colour = ("-o" if bg == 0 else "--s"), f"C{n}"
            n += 1
            a.plot(w, [c["bct_over_physical"] for c in sel], style, color=colour, label=label)
            b.plot(w, [(c["qdisc_peak_bytes"] or 0) / 1024 for c in sel], style, color=colour,
                   label=label + " (tbf, sampled)")
            b.plot(w, [c["queue_estimate_peak_bytes"] / 1024 for c in sel], ":", color=colour,
                   label=label + " (from latencies)")
    a.axhline(1.0, color="grey", lw=0.8)
    a.set_xscale("log", base=2)
    a.set_xlabel("workers")
    a.set_ylabel("burst completion time / physical limit")
    a.legend(fontsize=8)
    b.set_xscale("log", base=2)
    b.set_yscale("log")
    b.set_xlabel("workers")
    b.set_ylabel("queue peak (KiB)")
    b.legend(fontsize=7)
    fig.suptitle("dlc-bench fanin on a namespace star, UCX tcp, tbf on the server's port")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main(sys.argv)
