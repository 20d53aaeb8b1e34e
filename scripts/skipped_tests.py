#!/usr/bin/env python3
"""The tests a ctest log shows as skipped (scripts/test.sh).

usage: skipped_tests.py LOG [--from BINARY --test-dir DIR]
                                             prints a ctest -R regular expression that matches
                                             exactly the skipped tests (nothing if none); with
                                             --from, only those DIR's ctest runs with BINARY
       skipped_tests.py LOG --allow LIST     exits 1, naming each, when a skipped test is not
                                             in LIST (lines "NAME  reason"; # comments)
"""
import json
import re
import subprocess
import sys

SPECIAL = set(".+*?[]()|^$\\")


def skipped(log):
    text = open(log, errors="replace").read()
    return sorted(set(re.findall(r"Test +#\d+: (\S+) \.*\s*\*\*\*Skipped", text)))


def main(argv):
    if len(argv) not in (1, 3, 5) or (len(argv) == 3 and argv[1] != "--allow") or (
            len(argv) == 5 and (argv[1], argv[3]) != ("--from", "--test-dir")):
        print(__doc__, file=sys.stderr)
        return 2
    names = skipped(argv[0])
    if len(argv) == 5:
        # ctest's own list: each test's command, its first word the executable.
        out = subprocess.run(["ctest", "--test-dir", argv[4], "-N", "--show-only=json-v1"],
                             capture_output=True, text=True, check=True).stdout
        runs = {t["name"] for t in json.loads(out)["tests"]
                if t.get("command") and t["command"][0].endswith("/" + argv[2])}
        names = [n for n in names if n in runs]
    if len(argv) != 3:
        if names:
            esc = ["".join("\\" + c if c in SPECIAL else c for c in n) for n in names]
            print("^(" + "|".join(esc) + ")$")
        return 0
    allowed = {}
    for line in open(argv[2]):
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, why = line.partition(" ")
            allowed[name] = why.strip()
    missing = [n for n in names if n not in allowed]
    for n in names:
        if n in allowed:
            print(f"skipped, allowed: {n}: {allowed[n]}")
    for n in missing:
        print(f"FAILED: {n} skipped where it must run (not in {argv[2]})")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
