#!/usr/bin/env python3
"""Every option a README or docs/*.md command gives is one its tool accepts.

usage: readme_commands.py --bin BUILD/bin --repo REPO [FILE.md ...]   (default: README.md, docs/*.md)

A command is a line of a fenced code block, or an inline code span, that runs one of dlcnet's
tools (dlc-bench, dlc-trace, dlc-replay, dlc-compare, dlc-plot, dlc-compare-plot, by any path)
or scripts (run-main.sh, test.sh, rdma-run.sh, netns-star.sh, star-run.sh, softroce-host.sh);
its subcommand is the next word when the tool has subcommands. Each option it names
(-x, --long, --long=VALUE) must appear in the `--help` of that tool and subcommand. Options of
a wrapper before the tool (mpirun, srun, star-run.sh -- TOOL) belong to the wrapper; output
lines (`# ...`, `TOOL: ...`) are not commands. Prints one line per unknown option with the
file and line, and exits 1 if there is any.
"""
import argparse
import pathlib
import re
import subprocess
import sys

TOOLS = ["dlc-compare-plot", "dlc-bench", "dlc-trace", "dlc-replay", "dlc-compare", "dlc-plot"]
SCRIPTS = ["run-main.sh", "test.sh", "rdma-run.sh", "netns-star.sh", "star-run.sh",
           "softroce-host.sh"]
WORD = re.compile(r"(?:^|(?<=[\s(`'\"]))(?:[\w./-]*/)?(" +
                  "|".join(re.escape(t) for t in TOOLS + SCRIPTS) + r")(?=$|[\s`'\"])")
OPTION = re.compile(r"(?:^|(?<=[\s\[|(]))(--?[A-Za-z][\w-]*)")
END = re.compile(r"\s(?:#|\||&&|;|>|2>)\s|\s--\s")


class Helps:
    def __init__(self, bin_dir, repo):
        self.bin, self.repo, self.cache = pathlib.Path(bin_dir), pathlib.Path(repo), {}

    def path(self, tool):
        if tool in SCRIPTS:
            return ["bash", str(self.repo / "scripts" / tool)]
        if tool in ("dlc-plot", "dlc-compare-plot"):
            return ["python3", str(self.repo / "tools" / tool)]
        return [str(self.bin / tool)]

    def text(self, tool, sub=None):
        key = (tool, sub)
        if key not in self.cache:
            cmd = self.path(tool) + ([sub] if sub else []) + ["--help"]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            self.cache[key] = p.stdout + p.stderr
            if p.returncode != 0:
                raise SystemExit(f"readme_commands: {' '.join(cmd)} exited {p.returncode}")
        return self.cache[key]

    def subcommands(self, tool):
        if tool in SCRIPTS:
            return set()
        text = self.text(tool)
        m = re.search(r"(?ims)^(?:SUBCOMMANDS|positional arguments):?\s*\n(.*?)(?:\n\s*\n|\Z)", text)
        subs = set()
        if m:
            for line in m.group(1).splitlines():
                w = line.split()
                if w and re.fullmatch(r"[a-z][a-z-]*", w[0]):
                    subs.add(w[0])
                elif w and w[0].startswith("{"):
                    subs |= set(w[0].strip("{}").split(","))
        return subs

    def options(self, tool, sub):
        opts = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", self.text(tool, sub)))
        return opts | {"-h", "--help", "-V", "--version"}


def commands(md):
    """(line number, text) of every command candidate in a Markdown file."""
    lines = md.read_text().splitlines()
    fence = False
    out = []
    prose = []  # (line number, line) outside fences: inline spans may cross lines
    i = 0
    while i < len(lines):
        line = lines[i]
        n = i + 1
        if line.lstrip().startswith("```"):
            fence = not fence
            i += 1
            continue
        if fence:
            # Continuation lines (a trailing backslash, or a synopsis's indented [options]).
            while i + 1 < len(lines) and (line.rstrip().endswith("\\") or
                                          re.match(r"\s+\[", lines[i + 1])):
                i += 1
                line = line.rstrip().rstrip("\\") + " " + lines[i].strip()
            out.append((n, line))
        else:
            prose.append((n, line))
        i += 1
    text = "\n".join(l for _, l in prose)
    starts = [n for n, _ in prose]
    for m in re.finditer(r"`([^`]+)`", text):
        out.append((starts[text.count("\n", 0, m.start())], m.group(1).replace("\n", " ")))
    return out


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args(argv)
    repo = pathlib.Path(a.repo)
    files = [pathlib.Path(f) for f in a.files] or [repo / "README.md"] + sorted(
        (repo / "docs").glob("*.md"))
    helps = Helps(a.bin, repo)
    bad = checked = 0
    for md in files:
        for n, text in commands(md):
            if text.lstrip().startswith(("#", "$ #")):
                continue
            text = re.split(r"(?:^|\s)#\s", text)[0]  # a shell comment
            text = re.sub(r"\"[^\"]*\"|'[^']*'", "Q", text)  # a quoted argument is no command
            for m in WORD.finditer(text):
                tool = m.group(1)
                rest = text[m.end():]
                if rest.startswith(":") or re.match(r"\s*\(", rest):
                    continue  # an output line or prose ("dlc-bench (dlcnet) 0.1.0")
                rest = END.split(" " + rest, maxsplit=1)[0]
                words = rest.split()
                sub = None
                subs = helps.subcommands(tool)
                if words and subs:
                    first = words[0].split("|")
                    if all(w in subs for w in first):
                        sub = first
                names = set(OPTION.findall(rest))
                if not names:
                    continue
                for s in sub or [None]:
                    known = helps.options(tool, s)
                    if s is None:
                        # Prose names a tool's option without the subcommand: any of them.
                        for x in subs:
                            known |= helps.options(tool, x)
                    for o in sorted(names - known):
                        print(f"{md.name}:{n}: {tool}{' ' + s if s else ''} has no option {o}: "
                              f"{text.strip()[:120]}")
                        bad += 1
                    checked += 1
    print(f"readme_commands: {checked} commands checked, {bad} unknown options")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
