#!/usr/bin/env python3
"""Writes a copy of dlc-compare's input files (a flat folder: tests/data/compare) with one of
them mutated, chosen by SEED (reproducible). Prints one line, tab-separated:
  FILE  FORM  WHAT
FORM: `file` (FILE holds the mutated bytes), `dir` (FILE is an empty directory) or `fifo`
(FILE holds the mutated bytes, for the caller to serve through a FIFO, a writer per run).
The byte-level mutations are the trace tools' (tests/replay/mutate_job.py); here numbers are
also replaced whole (with their fraction and exponent) by values past every type's range, by
JSON values of other types, and a file can be made empty or 4 MB longer (a line repeated, or
a number of 4 million digits).

usage: mutate_inputs.py SRC DST SEED
"""
import pathlib
import random
import re
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "replay"))
import mutate_job  # noqa: E402  (the trace tools' mutations)

# Numbers at and past the edges of int32, int64, uint64 and double, and what no number is.
EDGES = [b"0", b"-0", b"-1", b"1", b"2147483647", b"2147483648", b"-2147483649", b"4294967296",
         b"9223372036854775807", b"9223372036854775808", b"18446744073709551615",
         b"18446744073709551616", b"-9223372036854775809", b"99999999999999999999999",
         b"1e308", b"1e400", b"-1e400", b"1e-400", b"4.9e-324", b"nan", b"NaN", b"inf",
         b"-inf", b"Infinity", b"0x10", b"1.5", b"", b"\"1\"", b"null", b"true", b"[]", b"{}"]
NUMBER = re.compile(rb"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def whole_number(data, rng):
    """A whole number (sign, fraction, exponent) replaced by an edge."""
    spans = [m.span() for m in NUMBER.finditer(data)]
    if not spans:
        return data + b"\n", "a trailing newline"
    a, b = rng.choice(spans)
    v = rng.choice(EDGES)
    return data[:a] + v + data[b:], f"number {data[a:b].decode()} at byte {a} -> {v.decode() or 'empty'}"


def huge(data, rng):
    """About 4 MB more: a line repeated, or a number 4 million digits long (memory and time
    bounded by the input's size)."""
    spans = [m.span() for m in NUMBER.finditer(data)]
    if spans and rng.random() < 0.3:
        a, _ = rng.choice(spans)
        return data[:a] + b"9" * 4_000_000 + data[a:], f"4 million digits at byte {a}"
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    copies = 4_000_000 // (len(lines[i]) + 1) + 1
    return b"\n".join(lines[:i + 1] + [lines[i]] * copies + lines[i + 1:]), \
        f"line {i + 1} repeated {copies} times"


def mutate(data, rng):
    kind = rng.choices(["number", "bytes", "huge", "empty"], weights=[10, 10, 2, 1])[0]
    if kind == "number":
        return whole_number(data, rng)
    if kind == "huge" and data:
        return huge(data, rng)
    if kind == "empty":
        return b"", "emptied"
    return mutate_job.mutate(data, rng, EDGES)


def main():
    src, dst, seed = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("README.md"))
    victim = rng.choice(sorted(p for p in dst.iterdir()))
    form = rng.choices(["file", "dir", "fifo"], weights=[86, 4, 10])[0]
    if form == "dir":
        victim.unlink()
        victim.mkdir()
        print(f"{victim.name}\tdir\ta directory")
        return
    print(f"{victim.name}\t{form}\t{mutate_job.mutate_file(victim, rng, mutate)}")


if __name__ == "__main__":
    main()
