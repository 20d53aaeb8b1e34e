"""dlc-plot's readers: what kind of dlcnet output a file is, and the numbers a plot needs.

Every reader raises InputError naming the file and, for a record file, the line, for a JSON
report, the field; dlc-plot prints it and exits 2.
"""
import csv
import json
import math

# core/record.cpp, RecordWriter::header().
RECORD_HEADER = ("seq,op,bytes,src,dst,signaled,planned_ns,post_ns,complete_ns,arrival_ns,"
                 "key,opnum")
RECORD_OPS = ("send", "recv", "write", "read")

# The kinds of input: records (--records of any tool), bench-lat and bench-bw (dlc-bench lat
# and bw --json), fanin and ring (dlc-bench fanin and ring --json), replay (dlc-replay --json).
KINDS = ("records", "bench-lat", "bench-bw", "fanin", "ring", "replay")


class InputError(Exception):
    pass


class Input:
    """One file: its path, its label on the plot, its kind and its content (the parsed JSON
    document, or the record rows)."""

    def __init__(self, path, kind, doc):
        self.path, self.kind, self.doc, self.label = path, kind, doc, path


def load(path):
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not text (a dlcnet JSON report or record CSV file)")
    first = text.split("\n", 1)[0].strip()
    if first == RECORD_HEADER:
        return Input(path, "records", read_records(path, text))
    if first.startswith("seq,"):
        raise InputError(f"{path}:1: a record file's header must be {RECORD_HEADER}")
    if not text.lstrip().startswith("{"):
        raise InputError(f"{path}: neither a dlcnet JSON report nor a record CSV file "
                         f"(dlc-bench, dlc-replay --json or --records)")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{e.lineno}: not valid JSON: {e.msg} (column {e.colno})")
    except (RecursionError, MemoryError) as e:
        raise InputError(f"{path}: JSON nested too deeply or too large to read "
                         f"({type(e).__name__}): not a dlcnet report")
    return Input(path, json_kind(path, doc), doc)


def json_kind(path, doc):
    if not isinstance(doc, dict):
        raise InputError(f"{path}: JSON but not an object: not a dlcnet report")
    if doc.get("schema") == "dlcnet.ring/1":
        return "ring"
    if "test" in doc and "results" in doc:
        kind = field(path, doc, "test", "kind", want=str)
        if kind not in ("lat", "bw"):
            raise InputError(f"{path}: field test.kind: '{kind}', not lat or bw")
        return "bench-" + kind
    if "iterations" in doc and "spec" in doc and "solo" in doc:
        return "fanin"
    if "iterations" in doc and "replay" in doc and "job" in doc:
        return "replay"
    raise InputError(f"{path}: a JSON document but not a dlcnet report that dlc-plot knows "
                     f"(dlc-bench lat, bw, fanin, ring or dlc-replay --json)")


def field(path, doc, *keys, want=float, where=None):
    """doc[k0][k1]...: a number (want=float; bool is not one), a str, a list or a dict;
    InputError naming the field (a dotted path, list indices in brackets) otherwise."""
    name, x = where or "", doc
    for k in keys:
        name += f"[{k}]" if isinstance(k, int) else (f".{k}" if name else k)
        if isinstance(k, int):
            ok = isinstance(x, list) and -len(x) <= k < len(x)
        else:
            ok = isinstance(x, dict) and k in x
        if not ok:
            raise InputError(f"{path}: field {name}: missing")
        x = x[k]
    if want is float:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise InputError(f"{path}: field {name}: not a number")
        return float(x)
    if not isinstance(x, want):
        raise InputError(f"{path}: field {name}: not a {want.__name__}")
    return x


def read_records(path, text):
    """The rows of a record file as tuples (op, bytes, post_ns, complete_ns)."""
    rows = []
    ints = ("seq", "bytes", "src", "dst", "signaled", "planned_ns", "post_ns", "complete_ns",
            "arrival_ns", "key", "opnum")
    reader = csv.DictReader(text.splitlines())
    for r in reader:
        n = reader.line_num
        if None in r or None in r.values():
            raise InputError(f"{path}:{n}: {len(reader.fieldnames)} fields expected")
        for k in ints:
            try:
                r[k] = int(r[k])
            except ValueError:
                raise InputError(f"{path}:{n}: field {k}: not an integer: '{r[k]}'")
        if r["op"] not in RECORD_OPS:
            raise InputError(f"{path}:{n}: field op: '{r['op']}', not one of "
                             + ", ".join(RECORD_OPS))
        rows.append((r["op"], r["bytes"], r["post_ns"], r["complete_ns"]))
    if not rows:
        raise InputError(f"{path}: a record file without records")
    return rows


def record_latencies(inp):
    """(post_s from the file's first post, post-to-completion latency_s) of every message of
    the record file that has both times: the sender's side (a receiver's rows have neither)."""
    pts = [(p, c - p) for op, _, p, c in inp.doc if op != "recv" and p >= 0 and c >= p]
    if not pts:
        raise InputError(f"{inp.path}: no record with both post_ns and complete_ns "
                         f"(a receiver's records: the senders' files have the times)")
    t0 = min(p for p, _ in pts)
    return [((p - t0) * 1e-9, d * 1e-9) for p, d in pts]


def bench_sizes(inp):
    """dlc-bench lat/bw --json: [(bytes, result)] in the file's order."""
    out = []
    for i, r in enumerate(field(inp.path, inp.doc, "results", want=list)):
        out.append((int(field(inp.path, r, "bytes", where=f"results[{i}]")), r))
    if not out:
        raise InputError(f"{inp.path}: field results: empty (the run measured no size)")
    return out


def bench_samples(inp):
    """dlc-bench lat --json: [(bytes, [latency_s...])] of the sizes that have samples."""
    out = []
    for i, (b, r) in enumerate(bench_sizes(inp)):
        if "latency_samples_s" not in r:
            continue
        v = field(inp.path, r, "latency_samples_s", want=list, where=f"results[{i}]")
        if not v:
            raise InputError(f"{inp.path}: field results[{i}].latency_samples_s: empty")
        out.append((b, [field(inp.path, v, j, where=f"results[{i}].latency_samples_s")
                        for j in range(len(v))]))
    if not out:
        raise InputError(f"{inp.path}: field results[].latency_samples_s: missing in every "
                         f"size (dlc-bench lat writes them with -a or -H)")
    return out


def bench_curve(inp, *keys):
    """[(bytes, value of keys)] over the sizes of a dlc-bench report."""
    return [(b, field(inp.path, r, *keys, where=f"results[{i}]"))
            for i, (b, r) in enumerate(bench_sizes(inp))]


def ring_curve(inp, key):
    sizes = field(inp.path, inp.doc, "sizes", want=list)
    if not sizes:
        raise InputError(f"{inp.path}: field sizes: empty (the run measured no size)")
    return [(int(field(inp.path, s, "size_bytes", where=f"sizes[{i}]")),
             field(inp.path, s, key, where=f"sizes[{i}]")) for i, s in enumerate(sizes)]


def fanin_rounds(inp):
    """dlc-bench fanin --json: [(kind, iteration, bct_s, limit_s)] of every round."""
    its = field(inp.path, inp.doc, "iterations", want=list)
    if not its:
        raise InputError(f"{inp.path}: field iterations: empty")
    out = []
    for i, it in enumerate(its):
        w = f"iterations[{i}]"
        kind = field(inp.path, it, "kind", want=str, where=w)
        out.append((kind, int(field(inp.path, it, "iteration", where=w)),
                    field(inp.path, it, "bct_s", where=w), field(inp.path, it, "limit_s", where=w)))
    return out


def replay_iterations(inp, side):
    """dlc-replay --json: [(iteration, iteration_time_s)] of side 'trace' or 'replay', the
    iterations that side has workers in."""
    its = field(inp.path, inp.doc, "iterations", want=list)
    out = []
    for i, it in enumerate(its):
        w = f"iterations[{i}]"
        row = it.get(side) if isinstance(it, dict) else None
        if row is None or not field(inp.path, row, "workers", where=f"{w}.{side}"):
            continue
        out.append((int(field(inp.path, it, "iteration", where=w)),
                    field(inp.path, row, "iteration_time_s", where=f"{w}.{side}")))
    if not out:
        raise InputError(f"{inp.path}: field iterations[].{side}.iteration_time_s: in no "
                         f"iteration")
    return out
