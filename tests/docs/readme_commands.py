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

Every fenced block that holds a command line (a tool or script above by any path, or cmake,
cpack, apt/apt-get install) carries a marker, an HTML comment on the line right before its
opening fence (invisible on GitHub):
  <!-- tested: NAME[, NAME] -->   the ctest test(s) that run the block's command (the same tool,
                                  subcommand and the options that matter) and check what the
                                  text around it claims of its output
  <!-- illustrative -->           shown for the reader; no test runs it as written
  <!-- illustrative: REASON -->   the same, with a free-text reason
  <!-- output -->                 program output only, no command line (optional)
Clauses combine with `;` for a block whose lines differ, `tested:` first and `illustrative` (and
its reason, to the end of the comment) last:
  <!-- tested: run_main; illustrative: scripts/test.sh is the suite itself -->
A command block without a marker, a marker that does not parse or stands elsewhere than right
before a fence, an `output` block with a command line, or a test name that
`ctest --test-dir BUILD -N` (BUILD: the parent of --bin) does not list is a problem: one line
each with the file and line, exit 1.
"""
import argparse
import pathlib
import re
import subprocess
import sys

TOOLS = ["dlc-compare-plot", "dlc-bench", "dlc-trace", "dlc-replay", "dlc-compare", "dlc-plot"]
SCRIPTS = ["run-main.sh", "test.sh", "rdma-run.sh", "netns-star.sh", "star-run.sh",
           "softroce-host.sh", "fuzz.sh"]
WORD = re.compile(r"(?:^|(?<=[\s(`'\"]))(?:[\w./-]*/)?(" +
                  "|".join(re.escape(t) for t in TOOLS + SCRIPTS) + r")(?=$|[\s`'\"])")
OPTION = re.compile(r"(?:^|(?<=[\s\[|(]))(--?[A-Za-z][\w-]*)")
END = re.compile(r"\s(?:#|\||&&|;|>|2>)\s|\s--\s")
# A block's command line also: the build and the install of the README's "Install".
BUILD_CMD = re.compile(r"(?:^|[\s(;&|])(?:cmake|cpack|apt(?:-get)?\s+install)(?=\s|$)")
OUTPUT_LINE = re.compile(r"(?:[\w./-]*/)?(?:" + "|".join(re.escape(t) for t in TOOLS + SCRIPTS) +
                         r"):")
MARKER = re.compile(r"^\s*<!--\s*(.*?)\s*-->\s*$", re.S)
MARKER_WORD = re.compile(r"^\s*<!--\s*(?:tested|illustrative|output)\b")
TEST_NAME = re.compile(r"[\w.:/+-]+")


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


def is_fence(line):
    return line.lstrip().startswith("```")


def blocks(md):
    """(line number of the opening fence, the line before it, the block's lines) of every
    fenced block in a Markdown file, and the line numbers of marker comments not before one."""
    lines = md.read_text().splitlines()
    out, stray = [], []
    i = 0
    while i < len(lines):
        if is_fence(lines[i]):
            start = i
            i += 1
            while i < len(lines) and not is_fence(lines[i]):
                i += 1
            out.append((start + 1, lines[start - 1] if start else "", lines[start + 1:i]))
        elif MARKER_WORD.match(lines[i]) and not (i + 1 < len(lines) and is_fence(lines[i + 1])):
            stray.append(i + 1)
        i += 1
    return out, stray


def command_line(line):
    """Whether a line of a fenced block runs a tool or script (not an output line such as
    `dlc-compare: ...`, `# ...`, nor a diagram's `dlc-bench -> ...`)."""
    s = line.strip()
    if not s or s.startswith(("#", "$ #")):
        return False
    s = re.split(r"(?:^|\s)#\s", s)[0]
    if OUTPUT_LINE.match(s):
        return False  # an output line: "dlc-compare: 448 messages of dlc-bench fanin ..."
    if BUILD_CMD.search(s):
        return True
    for m in WORD.finditer(s):
        rest = s[m.end():]
        if not (rest.startswith(":") or re.match(r"\s*(?:\(|->)", rest)):
            return True
    return False


def parse_marker(text):
    """(kinds, test names) of a marker comment's text, or None if it does not parse."""
    kinds, names, rest = set(), [], text.strip()
    while rest:
        m = re.match(r"tested:\s*([^;]*?)\s*(?:;\s*|$)", rest)
        if m and "tested" not in kinds and not kinds & {"illustrative", "output"}:
            got = [n.strip() for n in m.group(1).split(",")]
            if not all(TEST_NAME.fullmatch(n) for n in got):
                return None
            kinds.add("tested")
            names += got
            rest = rest[m.end():]
            continue
        if re.fullmatch(r"illustrative(?::\s*\S.*)?", rest, re.S):
            kinds.add("illustrative")
            break
        if rest == "output" and not kinds:
            kinds.add("output")
            break
        return None
    return (kinds, names) if kinds else None


def ctest_names(build):
    """The names `ctest --test-dir BUILD -N` lists; exits 1 with a message if it cannot."""
    cmd = ["ctest", "--test-dir", str(build), "-N"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        p = None
        why = str(e)
    names = set(re.findall(r"(?m)^\s*Test\s+#\d+:\s*(\S+)\s*$", p.stdout)) if p else set()
    if p is None or p.returncode != 0 or not names:
        if p is not None:
            why = f"exit {p.returncode}, {len(names)} tests listed: {(p.stderr or p.stdout).strip()[:200]}"
        print(f"readme_commands: cannot list the tests to check the `tested:` markers against: "
              f"{' '.join(cmd)}: {why}")
        raise SystemExit(1)
    return names


def check_markers(md, tests):
    """Prints one line per marker problem of a Markdown file; returns (problems, tested,
    illustrative, command blocks)."""
    bad = tested = illustrative = n_cmd = 0
    found, stray = blocks(md)
    for n in stray:
        print(f"{md.name}:{n}: a marker stands elsewhere than on the line right before a fence")
        bad += 1
    for n, before, body in found:
        cmd = next((l.strip() for l in body if command_line(l)), None)
        n_cmd += cmd is not None
        m = MARKER.match(before)
        if not m:
            if cmd:
                print(f"{md.name}:{n}: a command block without a marker (<!-- tested: NAME --> or "
                      f"<!-- illustrative -->): {cmd[:100]}")
                bad += 1
            continue
        marker = parse_marker(m.group(1))
        if marker is None:
            print(f"{md.name}:{n - 1}: not a marker (tested: NAME[, NAME]; illustrative[: REASON]; "
                  f"output): {before.strip()[:100]}")
            bad += 1
            continue
        kinds, names = marker
        if "output" in kinds and cmd:
            print(f"{md.name}:{n - 1}: marked output, but runs a command: {cmd[:100]}")
            bad += 1
        if cmd and "tested" in kinds:
            tested += 1
        elif cmd and "illustrative" in kinds:
            illustrative += 1
        for t in names:
            if t not in tests():
                print(f"{md.name}:{n - 1}: no ctest test is named {t}")
                bad += 1
    return bad, tested, illustrative, n_cmd


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
    build = pathlib.Path(a.bin).resolve().parent
    known_tests = []
    def tests():
        if not known_tests:
            known_tests.append(ctest_names(build))
        return known_tests[0]
    marks = [0, 0, 0, 0]  # problems, tested, illustrative, command blocks
    for md in files:
        marks = [x + y for x, y in zip(marks, check_markers(md, tests))]
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
    print(f"readme_commands: {checked} commands checked, {bad} unknown options; "
          f"{marks[3]} command blocks ({marks[1]} tested, {marks[2]} illustrative), "
          f"{marks[0]} marker problems")
    return 1 if bad or marks[0] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
