#!/usr/bin/env python3
"""Writes a mutated copy of a SketchDLC job directory: one of its files changed by 1 to 3
mutations chosen by SEED (reproducible). Prints what was changed, one line.

usage: mutate_job.py SRC DST SEED
"""
import pathlib
import random
import re
import shutil
import sys

# Numbers at the edge of their types, and texts a number parser must refuse.
EDGES = [b"2147483647", b"2147483648", b"-2147483648", b"4294967296", b"-1", b"0",
         b"99999999999999999999", b"1e308", b"nan", b"inf", b"-0", b"0x10", b"", b"1.5"]


def numbers(data):
    """(start, end) of every run of digits, with a leading minus."""
    return [m.span() for m in re.finditer(rb"-?[0-9]+", data)]


def mutate(data, rng, edges=EDGES):
    """One mutation of `data`, numbers replaced by one of `edges`: (new data, what changed)."""
    lines = data.split(b"\n")
    kind = rng.choice(["edge", "edge", "edge", "byte", "delete", "duplicate", "truncate",
                       "swap", "bom", "nul", "long"])
    if kind == "edge":
        spans = numbers(data)
        if spans:
            a, b = rng.choice(spans)
            v = rng.choice(edges)
            return data[:a] + v + data[b:], f"number at byte {a} -> {v.decode() or 'empty'}"
    if kind == "byte" and data:
        i = rng.randrange(len(data))
        c = bytes([rng.choice([0x09, 0x20, 0x2C, 0x2D, 0x3A, 0x3D, 0x41, 0x7F, 0xC3, 0xFF])])
        return data[:i] + c + data[i + 1:], f"byte {i} -> {c!r}"
    if kind == "delete" and len(lines) > 1:
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i] + lines[i + 1:]), f"line {i + 1} deleted"
    if kind == "duplicate" and lines:
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i + 1] + lines[i:]), f"line {i + 1} doubled"
    if kind == "truncate" and data:
        i = rng.randrange(len(data))
        return data[:i], f"cut at byte {i}"
    if kind == "swap" and len(lines) > 2:
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines), f"lines {i + 1} and {j + 1} swapped"
    if kind == "bom":
        return b"\xef\xbb\xbf" + data, "UTF-8 byte-order mark"
    if kind == "nul" and data:
        i = rng.randrange(len(data))
        return data[:i] + b"\0" + data[i:], f"NUL at byte {i}"
    if kind == "long" and lines:
        i = rng.randrange(len(lines))
        lines[i] = lines[i] + b"\t7" * 5000
        return b"\n".join(lines), f"line {i + 1} given 5000 more fields"
    return data + b"\n", "a trailing newline"


def mutate_file(victim, rng, one=mutate):
    """1 to 3 mutations of the file `victim` (each by `one`), in place: what changed."""
    data = victim.read_bytes()
    done = []
    for _ in range(rng.randint(1, 3)):
        data, what = one(data, rng)
        done.append(what)
    victim.write_bytes(data)
    return "; ".join(done)


def main():
    src, dst, seed = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    files = sorted(p for p in dst.rglob("*.txt"))
    victim = rng.choice(files)
    what = mutate_file(victim, rng)
    print(f"{victim.relative_to(dst)}: {what}")


if __name__ == "__main__":
    main()
