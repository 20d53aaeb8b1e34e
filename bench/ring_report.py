#!/usr/bin/env python3
"""ring_report.py WORK_DIR OUT.json [--png OUT.png]: bench/ring_compare.sh's report.

Reads WORK_DIR/runs.tsv (one line a run: section, N, round, tool, kind, json, exit status,
seconds, log), every run's JSON (dlc-bench ring's "dlcnet.ring/1", mpi_collective's
"dlcnet.mpi_collective/1"), WORK_DIR/context.json, the verification logs (which pml, which coll
component, which all-reduce algorithm Open MPI ran) and, for the star, the tbf's set-up and
counters and the plain TCP flow's figure.

Per section (host-tcp, host-sm, star-RATE), per N, per size: both tools' busbw per round (as
each tool reports it, GB/s = 1e9 bytes/s), their medians, ratio = dlc-bench median / MPI median
and the median of the per-round ratios (the two runs of a round ran back to back); target
ratio >= 1.0 at sizes >= 1 MiB. On the star also busbw / port rate (the tbf's rate in bits/s
over 8 = bytes/s; tbf counts L2 bytes, so TCP's payload can reach at most 1448/1514 of it with
1500-byte frames and TCP timestamps), target >= 0.9. Each run's busbw is checked against its
own time_s (busbw = bytes / time x 2(N-1)/N).
"""
import glob, json, math, os, re, statistics, sys

TARGET_RATIO, TARGET_PORT = 1.0, 0.9
MIB = 1 << 20
# L2 bytes of a full 1500-byte frame and the TCP payload in it (IPv4 20 B, TCP 20 B + 12 B of
# timestamps); veth adds no FCS or preamble, and tbf counts from the Ethernet header.
FRAME_L2, FRAME_PAYLOAD = 1500 + 14, 1500 - 20 - 20 - 12


def rate_bps(text):
    m = re.fullmatch(r"([0-9.]+)(k|m|g)?bit", text)
    return float(m.group(1)) * {None: 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)]


def med(v):
    return statistics.median(v) if v else None


def rnd(x, n=4):
    return None if x is None else round(x, n)


def load_runs(work):
    runs = []
    for line in open(os.path.join(work, "runs.tsv")).read().splitlines():
        section, n, rnd_, tool, kind, path, status, secs, log = line.split("\t")
        run = {"section": section, "ranks": int(n), "round": int(rnd_), "tool": tool, "kind": kind,
               "json": path, "exit_status": int(status), "seconds": float(secs), "log": log, "doc": None}
        if path and os.path.exists(path):
            try:
                run["doc"] = json.load(open(path))
            except ValueError as e:
                run["error"] = f"unreadable JSON: {e}"
        runs.append(run)
    return runs


def busbw_factor(n, collective="allreduce"):
    """nccl-tests' factors, as dlc-bench ring and mpi_collective use them."""
    if collective == "allreduce":
        return 2.0 * (n - 1) / n
    if collective in ("broadcast", "reduce"):
        return 1.0
    return (n - 1) / n


def check_units(run):
    """Each size's busbw against its own time: bytes / time / 1e9 x the factor (within 1 %)."""
    bad = []
    collective = run["doc"].get("collective", "allreduce")
    for s in run["doc"].get("sizes", []):
        t, b = s.get("time_s"), s.get("busbw_GBps")
        if not t or b is None:
            continue
        expect = s["size_bytes"] / t / 1e9 * busbw_factor(run["ranks"], collective)
        if abs(expect - b) > 0.01 * max(expect, 1e-12):
            bad.append({"size_bytes": s["size_bytes"], "busbw_GBps": b, "from_time_s": expect})
    return bad


def parse_verify(log_path, n, collective="allreduce"):
    """What the verification run says Open MPI ran."""
    text = open(log_path, errors="replace").read() if os.path.exists(log_path) else ""
    pml = sorted(set(re.findall(r"select: component (\w+) selected", text)))
    pml_count = len(re.findall(r"select: component ucx selected", text))
    # Per process: the enabled coll components of MPI_COMM_WORLD and their priorities.
    world_top = {}
    current = {}
    for line in text.splitlines():
        m = re.match(r"\[[^:\]]+:(\d+)\] coll:base:comm_select: new communicator: (\S+)", line)
        if m:
            current[m.group(1)] = m.group(2)
            continue
        m = re.match(r"\[[^:\]]+:(\d+)\] coll:base:comm_select: selecting\s+(\w+), priority\s+(-?\d+), Enabled", line)
        if m and current.get(m.group(1)) == "MPI_COMM_WORLD":
            pid, comp, prio = m.group(1), m.group(2), int(m.group(3))
            if pid not in world_top or prio > world_top[pid][1]:
                world_top[pid] = (comp, prio)
    probe = {}
    for m in re.finditer(r"ompi_coll_probe: rank (\S+):((?: \w+ \d+/\d+/\d+)+)", text):
        algs = {}
        for a in re.finditer(r"(\w+) (\d+)/(\d+)/(\d+)", m.group(2)):
            algs[a.group(1)] = {"calls": int(a.group(2)), "elements": int(a.group(3)),
                                "largest_call_elements": int(a.group(4))}
        probe[m.group(1)] = algs
    count = MIB // 4  # the verification run's -s 1M
    ring_only = bool(probe) and len(probe) == n and all(
        a["ring"]["largest_call_elements"] == count and a["ring"]["calls"] >= 5 and
        all(v["largest_call_elements"] < count for k, v in a.items() if k != "ring")
        for a in probe.values())
    tops = sorted({c for c, _ in world_top.values()})
    evidence = [l.strip() for l in text.splitlines()
                if "select: component ucx selected" in l or "ompi_coll_probe:" in l or
                ("MPI_COMM_WORLD" in l) or re.search(r"selecting\s+\w+, priority\s+-?\d+, Enabled", l)]
    if collective != "allreduce":  # Open MPI's own algorithm, not forced: only the pml and coll
        return {
            "log": log_path,
            "pml_selected": pml, "ranks_with_pml_ucx": pml_count,
            "mpi_comm_world_top_coll_component": tops,
            "ring_ran": None,
            "pml_ucx_on_every_rank": pml == ["ucx"] and pml_count == n,
            "how": f"mpi_collective -C {collective} -s 1M -n 3 -w 1 -c 1: pml_base_verbose: pml ucx "
                   "selected on every rank; the algorithm is Open MPI's own choice (not forced)",
            "evidence_lines": evidence[:60],
        }
    return {
        "log": log_path,
        "pml_selected": pml, "ranks_with_pml_ucx": pml_count,
        "mpi_comm_world_top_coll_component": tops,
        "probe": probe,
        "ring_ran": ring_only and tops == ["tuned"] and pml == ["ucx"] and pml_count == n,
        "how": "mpi_collective -s 1M -n 3 -w 1 -c 1 with bench/ompi_coll_probe.c preloaded: every rank "
               "must show ompi_coll_base_allreduce_intra_ring called with the 262144-element buffer "
               "(warm-up, timed and checked calls) and no other all-reduce algorithm with it; "
               "pml_base_verbose: pml ucx selected on every rank; coll_base_verbose: tuned the "
               "enabled coll component of highest priority on MPI_COMM_WORLD",
        "evidence_lines": evidence[:60],
    }


def parse_star(work, section):
    info = {}
    path = os.path.join(work, "raw", f"{section}-star.txt")
    if os.path.exists(path):
        lines = open(path).read().splitlines()
        info["setup"] = [l for l in lines if not l.startswith("port p")]
        counters = {}
        for l in lines:
            m = re.match(r"port (p\d+) .*Sent (\d+) bytes (\d+) pkt \(dropped (\d+), overlimits (\d+)", l)
            if m:
                counters[m.group(1)] = {"sent_bytes": int(m.group(2)), "sent_packets": int(m.group(3)),
                                        "dropped": int(m.group(4)), "overlimits": int(m.group(5))}
        info["tbf_counters_end"] = counters
    log = os.path.join(work, "raw", f"{section}-tcp-stream.log")
    if os.path.exists(log):
        text = open(log).read()
        m = re.search(r"tcp_stream bytes (\d+) seconds ([0-9.]+) GBps ([0-9.]+)", text)
        if m:
            info["tcp_stream"] = {"bytes": int(m.group(1)), "seconds": float(m.group(2)),
                                  "GBps": float(m.group(3))}
        bidir = [float(x) for x in re.findall(r"tcp_bidir bytes \d+ seconds [0-9.]+ GBps ([0-9.]+)", text)]
        if bidir:
            info["tcp_bidir"] = {"GBps_each": bidir, "what": "two opposite flows P-h1 -> P-h0 and P-h0 -> P-h1 at once"}
    return info


def main(argv):
    work, out = argv[1], argv[2]
    png = argv[argv.index("--png") + 1] if "--png" in argv else None
    runs = load_runs(work)
    doc = {"context": json.load(open(os.path.join(work, "context.json"))), "sections": {}}
    unit_errors = []
    sections = []
    for r in runs:
        if r["section"] not in sections:
            sections.append(r["section"])
    for section in sections:
        sec = {"ranks": {}}
        star = section.startswith("star-")
        if star:
            bps = rate_bps(section[len("star-"):])
            sec["port_rate_bits_per_s"] = bps
            sec["port_rate_GBps"] = bps / 8 / 1e9
            sec["tcp_payload_ceiling_GBps"] = bps / 8 / 1e9 * FRAME_PAYLOAD / FRAME_L2
            sec.update(parse_star(work, section))
            if "tcp_stream" in sec:
                sec["tcp_stream"]["over_port_rate"] = rnd(sec["tcp_stream"]["GBps"] / sec["port_rate_GBps"])
            if "tcp_bidir" in sec:
                sec["tcp_bidir"]["over_port_rate"] = [rnd(x / sec["port_rate_GBps"]) for x in sec["tcp_bidir"]["GBps_each"]]
        for n in sorted({r["ranks"] for r in runs if r["section"] == section}):
            mine = [r for r in runs if r["section"] == section and r["ranks"] == n]
            entry = {"runs": [], "sizes": []}
            per = {}  # size -> tool -> round -> (busbw, time)
            for r in mine:
                entry["runs"].append({k: r[k] for k in ("tool", "kind", "round", "exit_status", "seconds", "json", "log")})
                if r["kind"] == "verify":
                    entry["mpi_verification"] = parse_verify(
                        r["log"], n, doc["context"].get("collective", "allreduce"))
                    continue
                if r["doc"] is None:
                    entry["runs"][-1]["error"] = r.get("error", "no JSON written")
                    continue
                bad = check_units(r)
                if bad:
                    unit_errors.append({"section": section, "ranks": n, "tool": r["tool"], "round": r["round"], "sizes": bad})
                if r["kind"] == "checked":
                    entry[f"{r['tool']}_check"] = {
                        "wrong_total": r["doc"].get("wrong_total"), "exit_status": r["exit_status"],
                        "wrong_per_size": {str(s["size_bytes"]): s.get("wrong") for s in r["doc"].get("sizes", [])}}
                    continue
                for s in r["doc"].get("sizes", []):
                    per.setdefault(s["size_bytes"], {}).setdefault(r["tool"], {})[r["round"]] = (
                        s["busbw_GBps"], s["time_s"])
            for size in sorted(per):
                d = per[size].get("dlcnet", {})
                m = per[size].get("mpi", {})
                row = {"size_bytes": size,
                       "dlcnet_busbw_GBps": [rnd(d[k][0], 6) for k in sorted(d)],
                       "mpi_busbw_GBps": [rnd(m[k][0], 6) for k in sorted(m)],
                       "dlcnet_rounds": sorted(d), "mpi_rounds": sorted(m)}
                dm = med([v[0] for v in d.values()])
                mm = med([v[0] for v in m.values()])
                row["dlcnet_median_GBps"] = rnd(dm, 6)
                row["mpi_median_GBps"] = rnd(mm, 6)
                row["dlcnet_time_median_s"] = rnd(med([v[1] for v in d.values()]), 9)
                row["mpi_time_median_s"] = rnd(med([v[1] for v in m.values()]), 9)
                row["ratio"] = rnd(dm / mm) if dm is not None and mm else None
                paired = [d[k][0] / m[k][0] for k in d if k in m and m[k][0] > 0]
                row["paired_ratios"] = [rnd(x) for x in paired]
                row["paired_ratio_median"] = rnd(med(paired))
                if size >= MIB and row["ratio"] is not None:
                    row["meets_target_ratio"] = row["ratio"] >= TARGET_RATIO
                if star:
                    pr = sec["port_rate_GBps"]
                    row["dlcnet_busbw_over_port_rate"] = rnd(dm / pr) if dm is not None else None
                    row["mpi_busbw_over_port_rate"] = rnd(mm / pr) if mm is not None else None
                    if dm is not None:
                        row["dlcnet_meets_port_target"] = dm / pr >= TARGET_PORT
                entry["sizes"].append(row)
            sec["ranks"][str(n)] = entry
        doc["sections"][section] = sec
    doc["busbw_unit_check"] = {"rule": "busbw_GBps == size_bytes / time_s / 1e9 x 2(N-1)/N within 1 %",
                               "mismatches": unit_errors}
    doc["targets"] = {"ratio_dlcnet_over_mpi_at_sizes_ge_1MiB": TARGET_RATIO,
                      "star_dlcnet_busbw_over_port_rate": TARGET_PORT}
    json.dump(doc, open(out, "w"), indent=1)
    print_table(doc)
    if png:
        plot(doc, png)


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def size_text(b):
    for unit, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= k and b % k == 0:
            return f"{b // k}{unit}"
    return f"{b}B"


def print_table(doc):
    print(f"{'section':<14}{'N':>3} {'size':>7} {'dlc GB/s':>9} {'MPI GB/s':>9} {'ratio':>7} {'paired':>7} "
          f"{'meets':>6} {'dlc/port':>9} {'MPI/port':>9}")
    for name, sec in doc["sections"].items():
        for n, e in sec["ranks"].items():
            for row in e["sizes"]:
                meets = row.get("meets_target_ratio")
                print(f"{name:<14}{n:>3} {size_text(row['size_bytes']):>7} {fmt(row['dlcnet_median_GBps'], '9.4f')} "
                      f"{fmt(row['mpi_median_GBps'], '9.4f')} {fmt(row['ratio'], '7.3f')} "
                      f"{fmt(row['paired_ratio_median'], '7.3f')} {('-' if meets is None else 'yes' if meets else 'NO'):>6} "
                      f"{fmt(row.get('dlcnet_busbw_over_port_rate'), '9.3f')} {fmt(row.get('mpi_busbw_over_port_rate'), '9.3f')}")
            checks = []
            for tool in ("dlcnet", "mpi"):
                c = e.get(f"{tool}_check")
                if c:
                    checks.append(f"{tool} #wrong {c['wrong_total']} (exit {c['exit_status']})")
            v = e.get("mpi_verification")
            if v:
                if v["ring_ran"] is None:
                    checks.append("Open MPI pml ucx on every rank: "
                                  f"{'yes' if v['pml_ucx_on_every_rank'] else 'NO'}")
                else:
                    checks.append(f"Open MPI ring verified: {'yes' if v['ring_ran'] else 'NO'}")
            failed = [f"{x['tool']} r{x['round']} {x['kind']} exit {x['exit_status']}" for x in e["runs"]
                      if x["exit_status"] != 0 and x["kind"] != "verify"]
            if failed:
                checks.append("failed runs: " + ", ".join(failed))
            print(f"{'':<14}{n:>3} " + "; ".join(checks))
        if "tcp_stream" in sec:
            t = sec["tcp_stream"]
            print(f"{name}: port {sec['port_rate_GBps']:.4f} GB/s; one plain TCP flow through a port "
                  f"{t['GBps']:.4f} GB/s ({t['over_port_rate']:.3f} of the port rate; payload ceiling "
                  f"{sec['tcp_payload_ceiling_GBps'] / sec['port_rate_GBps']:.3f})")
        if "tcp_bidir" in sec:
            print(f"{name}: two opposite plain TCP flows at once: " +
                  ", ".join(f"{x:.3f}" for x in sec["tcp_bidir"]["over_port_rate"]) + " of the port rate each")
    if doc["busbw_unit_check"]["mismatches"]:
        print(f"WARNING: busbw does not follow from time_s in {len(doc['busbw_unit_check']['mismatches'])} runs")


def plot(doc, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(doc["sections"])
    fig, axes = plt.subplots(1, len(names), figsize=(5.2 * len(names), 5.4), squeeze=False)
    for ax, name in zip(axes[0], names):
        sec = doc["sections"][name]
        for i, (n, e) in enumerate(sec["ranks"].items()):
            rows = e["sizes"]
            x = [r["size_bytes"] for r in rows]
            for tool, style, label in (("dlcnet", "-o", "dlc-bench ring"), ("mpi", "--s", "Open MPI ring")):
                y = [r[f"{tool}_median_GBps"] for r in rows]
                pts = [(a, b) for a, b in zip(x, y) if b]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=f"C{i}", ms=4,
                            label=f"{label}, N={n}")
        if "port_rate_GBps" in sec:
            ax.axhline(sec["port_rate_GBps"], color="grey", lw=1, label="port rate (tbf)")
            if "tcp_stream" in sec:
                ax.axhline(sec["tcp_stream"]["GBps"], color="grey", lw=1, ls=":", label="one TCP flow")
            if "tcp_bidir" in sec:
                ax.axhline(min(sec["tcp_bidir"]["GBps_each"]), color="grey", lw=1, ls="-.",
                           label="two opposite TCP flows, until both are done")
        ax.set_xscale("log", base=2)
        if "port_rate_GBps" in sec:  # linear from 0: the fraction of the port rate reads off
            ax.set_ylim(0, sec["port_rate_GBps"] * 1.08)
        else:
            ax.set_yscale("log")
        ticks = sorted({r["size_bytes"] for e in sec["ranks"].values() for r in e["sizes"]})
        if ticks:
            step = max(1, len(ticks) // 6)
            ax.set_xticks(ticks[::step])
            ax.set_xticklabels([size_text(t) for t in ticks[::step]], fontsize=8)
        ax.set_xlabel("size (bytes per rank)")
        ax.set_ylabel("busbw (GB/s, median over rounds)")
        ax.set_title(name, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        if "port_rate_GBps" in sec:
            ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
        else:
            ax.legend(fontsize=7)
    fig.suptitle("all-reduce busbw: dlc-bench ring vs Open MPI 4.1\n(ring forced), both over UCX", fontsize=11)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main(sys.argv)
