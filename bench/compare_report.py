#!/usr/bin/env python3
"""compare_report.py: turn run_pairs.sh logs into the comparison JSON and a table.

usage: compare_report.py --tests TESTS.json --out OUT.json [--context CTX.json]
                         SECTION=OUTDIR [SECTION=OUTDIR ...]

TESTS.json maps each test id to {"kind": "lat"|"bw", "size": bytes, "iterations": n,
"dlcnet": what dlc-bench runs, "reference": what the other tool runs, "reference_tool":
"perftest"|"ucx_perftest"}. Each SECTION=OUTDIR is one run_pairs.sh output directory (for
example host=/tmp/x guest=/tmp/y); its tests appear in OUT.json as "SECTION/TEST".

Per test and tool it takes one figure per round from the client's output:
  perftest      lat: t_typical [usec] (its median);     bw: "BW average[Gb/sec]"
  ucx_perftest  lat: the 50.0%ile latency column [usec]; bw: "overall" bandwidth (MB/s,
                MiB-based in ucx_perftest, converted to Gb/s)
  dlcnet        lat: results[0].latency_s.p50;          bw: results[0].bandwidth.average_bytes_per_s
A test whose runs all failed for one tool has ratio and meets_target null (n/a in the table).
All latencies are half a round trip (both tools' convention for ping-pong); bandwidth is in
Gb/s = 1e9 bit/s (perftest's --report_gbits unit).

ratio = median over rounds of dlcnet / median over rounds of the reference. Targets:
latency ratio <= 1.05, bandwidth ratio >= 0.95. Also reported: the median of the per-round
paired ratios (same round, back to back), which is less sensitive to slow phases of a shared
machine, and each side's CPU seconds (a spinning peer costs a 2-core machine bandwidth).
"""
import argparse
import json
import re
import statistics
import sys
from pathlib import Path

LAT_TARGET = 1.05
BW_TARGET = 0.95


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def read_text(p):
    try:
        return Path(p).read_text(errors="replace")
    except OSError:
        return ""


# ---- per-tool parsers: (kind, prefix) -> value or None, plus notes -----------------------

def merge_perftest_header(tokens):
    """perftest's header splits names like 'BW average[Gb/sec]' and '99% percentile[usec]'."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("BW",) or re.fullmatch(r"[0-9.]+%", t):
            if i + 1 < len(tokens):
                out.append(t + " " + tokens[i + 1])
                i += 2
                continue
        out.append(t)
        i += 1
    return out


def parse_perftest(kind, prefix):
    text = read_text(prefix + ".client.out")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.strip().startswith("#bytes"):
            continue
        header = merge_perftest_header(line.split())
        for data in lines[i + 1:]:
            cols = data.split()
            if len(cols) < len(header) or not cols[0].isdigit():
                continue
            row = dict(zip(header, cols))
            if kind == "lat":
                t_min = next((float(v) for n, v in row.items() if n.startswith("t_min")), None)
                for name, v in row.items():
                    if name.startswith("t_typical"):
                        return float(v), {"min_us": t_min}
            else:
                for name, v in row.items():
                    if name.startswith("BW average"):
                        val = float(v)
                        if "MB/sec" in name:  # perftest's MB is 2^20 bytes
                            val = val * 1048576 * 8 / 1e9
                        return val, {}
            break
    return None, {"error": "no result line in perftest output"}


def parse_ucx_perftest(kind, prefix):
    text = read_text(prefix + ".client.out")
    header = None
    for line in text.splitlines():
        if line.startswith("iterations,"):
            header = line.strip().split(",")
            continue
        if header and re.match(r"^\s*\d+,", line):
            row = dict(zip(header, line.strip().split(",")))
            if kind == "lat":
                for name, v in row.items():
                    if name.endswith("_percentile_lat"):
                        return float(v), {"percentile_column": name}
            else:
                if "overall_bw" in row:  # MB/s with MB = 2^20 bytes (ucx_perftest)
                    return float(row["overall_bw"]) * 1048576 * 8 / 1e9, {}
    return None, {"error": "no CSV result line in ucx_perftest output (-v)"}


def parse_dlcnet(kind, prefix):
    try:
        d = json.loads(Path(prefix + ".json").read_text())
        r = d["results"][0]
        if kind == "lat":
            v = r["latency_s"]["p50"] * 1e6
        else:
            v = r["bandwidth"]["average_bytes_per_s"] * 8 / 1e9
        ctx = d.get("context", {})
        clock = ctx.get("clock")
        # Schema 2: {"source", "times"}; schema 1: the source string.
        notes = {"clock": clock.get("source") if isinstance(clock, dict) else clock}
        if kind == "lat":
            notes["min_us"] = r["latency_s"]["min"] * 1e6
        tr = ctx.get("transport", {})
        if isinstance(tr, dict) and tr.get("transport") == "ucx":
            notes["ucx_effective"] = tr.get("effective")
            eps = tr.get("endpoints") or []
            if eps:
                notes["ucx_lanes"] = [
                    f'{l.get("transport")}/{l.get("device")}:{"+".join(l.get("uses", []))}'
                    for l in eps[0].get("lanes", [])]
        return v, notes
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        return None, {"error": f"no dlc-bench JSON result: {e}"}


PARSERS = {"perftest": parse_perftest, "ucx_perftest": parse_ucx_perftest,
           "dlcnet": parse_dlcnet}


def read_manifest(outdir):
    rows = []
    with open(Path(outdir) / "manifest.tsv") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    return rows


def read_env(outdir):
    env = {}
    for line in read_text(Path(outdir) / "env.txt").splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            env[k] = v
    return env


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def build_section(section, outdir, tests):
    rows = read_manifest(outdir)
    out = {}
    commands = {}
    for tid, meta in tests.items():
        kind = meta["kind"]
        ref = meta["reference_tool"]
        entry = {"section": section, "kind": kind, "size": meta["size"],
                 "iterations": meta["iterations"],
                 "unit": "us (median, half round trip)" if kind == "lat" else "Gb/s (average)",
                 "reference_tool": ref}
        per_tool_round = {}
        for tool in ("dlcnet", ref):
            runs = []
            for row in rows:
                if row["test"] != tid or row["tool"] != tool:
                    continue
                value, notes = PARSERS[tool](kind, row["prefix"])
                if value is not None and not (0 < value < float("inf")):
                    # perftest prints 0 when its own CPU-clock calibration failed (stderr:
                    # "Correlation coefficient r^2 < 0.9"): not a measurement.
                    notes = dict(notes, error=f"non-positive figure {value} (tool's clock calibration failed?)")
                    value = None
                ok = row["rc_client"] == "0" and row["rc_server"] == "0"
                if not ok:
                    value = None
                    notes = dict(notes, error=f'rc client {row["rc_client"]}, server {row["rc_server"]}')
                runs.append({"round": int(row["round"]), "value": value,
                             "wall_s": num(row["wall_s"]),
                             "server_cpu_s": num(row["server_cpu_s"]),
                             "client_cpu_s": num(row["client_cpu_s"]),
                             "files": row["prefix"], **({"notes": notes} if notes else {})})
                commands.setdefault(f"{section}/{tid}/{tool}",
                                    {"server": row["server_cmd"], "client": row["client_cmd"]})
            per_tool_round[tool] = {r["round"]: r["value"] for r in runs}
            entry[tool] = [r["value"] for r in runs]
            entry[f"{tool}_median"] = median(entry[tool])
            entry[f"{tool}_server_cpu_s_median"] = median([r["server_cpu_s"] for r in runs])
            entry[f"{tool}_runs"] = runs
        d, p = entry["dlcnet_median"], entry[f"{ref}_median"]
        entry["ratio"] = d / p if d is not None and p else None
        paired = []
        for rnd, dv in per_tool_round["dlcnet"].items():
            pv = per_tool_round[ref].get(rnd)
            if dv is not None and pv:
                paired.append(dv / pv)
        entry["paired_ratios"] = paired
        if kind == "lat":
            # The floor (each run's fastest iteration) is far less sensitive to the host's
            # scheduling than the median; reported beside it, not used for the target.
            mins = {}
            for tool in ("dlcnet", ref):
                mins[tool] = median([(r.get("notes") or {}).get("min_us") for r in entry[f"{tool}_runs"]])
                entry[f"{tool}_min_us_median"] = mins[tool]
            entry["min_ratio"] = (mins["dlcnet"] / mins[ref]
                                  if mins["dlcnet"] is not None and mins[ref] else None)
        entry["paired_ratio_median"] = median(paired)
        if kind == "lat":
            entry["ratio_definition"] = f"dlcnet median latency / {ref} median latency"
            entry["target"] = f"<= {LAT_TARGET}"
            entry["meets_target"] = None if entry["ratio"] is None else entry["ratio"] <= LAT_TARGET
        else:
            entry["ratio_definition"] = f"dlcnet average bandwidth / {ref} average bandwidth"
            entry["target"] = f">= {BW_TARGET}"
            entry["meets_target"] = None if entry["ratio"] is None else entry["ratio"] >= BW_TARGET
        entry["description"] = {"dlcnet": meta.get("dlcnet"), ref: meta.get("reference")}
        out[f"{section}/{tid}"] = entry
    return out, commands


def fmt(v, digits=2):
    return "-" if v is None else f"{v:.{digits}f}"


def print_table(tests):
    cols = ["test", "dlcnet", "reference", "unit", "ratio", "paired", "target", "meets",
            "min ratio", "srv cpu s d/r"]
    rows = []
    for tid, e in tests.items():
        ref = e["reference_tool"]
        digits = 2 if e["kind"] == "lat" else 3
        rows.append([tid, fmt(e["dlcnet_median"], digits), fmt(e[f"{ref}_median"], digits) + f" ({ref})",
                     "us" if e["kind"] == "lat" else "Gb/s", fmt(e["ratio"], 3),
                     fmt(e["paired_ratio_median"], 3), e["target"],
                     {True: "yes", False: "NO", None: "n/a"}[e["meets_target"]], fmt(e.get("min_ratio"), 3),
                     f'{fmt(e["dlcnet_server_cpu_s_median"], 1)}/{fmt(e[f"{ref}_server_cpu_s_median"], 1)}'])
    widths = [max(len(str(r[i])) for r in rows + [cols]) for i in range(len(cols))]
    line = "  ".join(c.ljust(w) for c, w in zip(cols, widths))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests", required=True, help="TESTS.json (test metadata)")
    ap.add_argument("--out", required=True, help="output JSON")
    ap.add_argument("--context", help="JSON object merged into the report's context")
    ap.add_argument("sections", nargs="+", metavar="SECTION=OUTDIR")
    a = ap.parse_args()

    tests_meta = json.loads(Path(a.tests).read_text())
    context = json.loads(Path(a.context).read_text()) if a.context else {}
    context["where_ran"] = {}
    all_tests, all_commands = {}, {}
    for s in a.sections:
        if "=" not in s:
            ap.error(f"want SECTION=OUTDIR, got {s!r}")
        section, outdir = s.split("=", 1)
        meta = tests_meta[section] if section in tests_meta else tests_meta
        tests, commands = build_section(section, outdir, meta)
        all_tests.update(tests)
        all_commands.update(commands)
        context["where_ran"][section] = read_env(outdir)
        context["where_ran"][section]["logs"] = str(outdir)
    # One clock description from dlc-bench's own report (it says how it timed).
    for e in all_tests.values():
        for r in e["dlcnet_runs"]:
            clk = (r.get("notes") or {}).get("clock")
            if clk:
                context["where_ran"][e["section"]].setdefault("dlcnet_clock", clk)
    context["commands"] = all_commands
    context["targets"] = {"latency_ratio_max": LAT_TARGET, "bandwidth_ratio_min": BW_TARGET}
    report = {"context": context, "tests": all_tests}
    Path(a.out).write_text(json.dumps(report, indent=2) + "\n")
    print_table(all_tests)
    print(f"\nwritten: {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
