"""Runs the commands shown in the documentation and compares what they print with what is shown.

The convention (README.md and docs/*.md; tests/docs/test_doc_commands.py runs every page):

- A fenced block whose info string is `console` holds commands: a line starting with `$ ` is a
  command, and the lines after it, up to the next `$ ` line, are its expected output (stdout and
  stderr together, as a terminal shows them). A command line ending with ` \\` goes on on the next
  line.
- A line `...` in an expected output matches any number of lines (none included); `...` inside a
  line matches any text within that line (for figures that change from run to run, like speed).
- Every page runs in a new temporary folder, its blocks in the order of the page, so a block can use
  the files an earlier block of the same page wrote. The folder holds links to the repository's
  `gamedefs/`, `tests/` and `docs/`, so a page may name their files as a reader in a checkout would.
- `<!-- requires: MODULE, ... -->` anywhere in a page: the page needs an optional extra; the test
  skips it where those modules are not installed (CI installs every extra).
- `<!-- file: PATH -->` on the line before a fenced block writes the block's text to PATH (relative
  to the page's folder) when the runner reaches it: that is how the tutorial builds its game.
- Each command runs in its own `bash` in the page's folder (a `cd` does not carry over), with this
  environment's `tabula` and `python` first on PATH and COLUMNS=100, NO_COLOR=1, TERM=dumb. The exit
  code is not compared: a page that means to show it writes `$ tabula ...; echo "exit code $?"`.
- Trailing spaces and trailing blank lines of an output are ignored.

Run `python tests/docs/docrun.py docs/tutorial.md` to see where a page differs from what its commands
print (`--print` shows every output; `--update` writes the printed outputs into the page, except
where the page shows `...`: check the diff before committing).
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)[^\n]*$")
FILE_MARK = re.compile(r"^<!-- file: (\S+) -->$")
REQUIRES = re.compile(r"^<!-- requires: ([\w., ]+) -->$", re.M)
TIMEOUT = 600
REPO = Path(__file__).resolve().parents[2]
# folders of the repository a page may name as a reader in a checkout would (`tabula verify
# tests/games/relay/...`): linked into the page's folder
SHARED = ("gamedefs", "tests", "docs")


@dataclass(frozen=True)
class Command:
    """One `$ ` command of a console block, with its expected output and the line it is on."""

    line: int
    text: str
    expected: list[str]


@dataclass(frozen=True)
class FileWrite:
    """A block marked `<!-- file: PATH -->`: its text is written to PATH."""

    line: int
    path: str
    text: str


Step = Command | FileWrite


@dataclass(frozen=True)
class Block:
    """A fenced block: its info string, the line of its opening fence, its text, and the file mark."""

    info: str
    line: int
    text: str
    file: str | None


def blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, in order."""
    out: list[Block] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, info = m.group(1), m.group(2)
        mark = FILE_MARK.match(lines[i - 1]) if i > 0 else None
        j = i + 1
        while j < len(lines) and not lines[j].startswith(fence[0] * len(fence)):
            j += 1
        body = "\n".join(lines[i + 1 : j])
        out.append(Block(info, i + 1, body + "\n" if body else "", mark.group(1) if mark else None))
        i = j + 1
    return out


def commands(block: Block) -> list[Command]:
    """The commands of a console block with their expected outputs."""
    out: list[Command] = []
    lines = block.text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"line {block.line + 1 + i}: a console block starts with a `$ ` command")
        start = i
        parts = [lines[i][2:]]
        while parts[-1].endswith(" \\") and i + 1 < len(lines):
            i += 1
            parts.append(lines[i])
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        out.append(Command(block.line + 1 + start, "\n".join(parts), expected))
    return out


def steps(text: str) -> list[Step]:
    """What a page asks to run, in order: file writes and commands."""
    out: list[Step] = []
    for block in blocks(text):
        if block.file is not None:
            out.append(FileWrite(block.line, block.file, block.text))
        if block.info == "console":
            out.extend(commands(block))
    return out


# ------------------------------------------------------------------ matching


def normalise(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")) + r"\Z")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines fit the expected ones (`...` lines and `...` inside lines)."""
    exp = [line.rstrip() for line in expected]
    while exp and not exp[-1]:
        exp.pop()
    patterns = [None if line == "..." else _line_pattern(line) for line in exp]
    # reach[j]: the first j actual lines are matched by the expected lines seen so far
    reach = [True] + [False] * len(actual)
    for pattern in patterns:
        if pattern is None:
            first = next((j for j, ok in enumerate(reach) if ok), None)
            reach = [first is not None and j >= first for j in range(len(actual) + 1)]
        else:
            reach = [False] + [reach[j] and bool(pattern.match(actual[j])) for j in range(len(actual))]
    return reach[len(actual)]


# ------------------------------------------------------------------ running


@dataclass
class Outcome:
    """A command as run: the command, what the page shows and what it printed."""

    command: Command
    actual: list[str]

    @property
    def ok(self) -> bool:
        return matches(self.command.expected, self.actual)

    def diff(self) -> str:
        return "\n".join(
            difflib.unified_diff(self.command.expected, self.actual, "shown", "printed", lineterm="")
        )


def environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env.update(PATH=bin_dir + os.pathsep + env.get("PATH", ""), COLUMNS="100", NO_COLOR="1", TERM="dumb")
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleaved as a terminal shows them
    env.pop("FORCE_COLOR", None)
    # a page's `pytest` runs outside the repository's pyproject (no --benchmark-disable there):
    # pytest-benchmark, a test extra, would warn about xdist into the shown output
    env["PYTEST_ADDOPTS"] = "-p no:benchmark"
    return env


def run_command(command: Command, folder: Path, env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        ["bash", "-c", command.text],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    return normalise(done.stdout)


def missing_requirements(text: str) -> list[str]:
    """The modules a page's `<!-- requires: a, b -->` line names that cannot be imported here."""
    import importlib.util

    wanted = [m.strip() for line in REQUIRES.findall(text) for m in line.split(",") if m.strip()]
    return [m for m in wanted if importlib.util.find_spec(m) is None]


def run_page(page: Path, folder: Path | None = None) -> list[Outcome]:
    """Run every step of a page in `folder` (a new temporary folder when None)."""
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="tabula-doc-") as tmp:
            for shared in SHARED:  # the repository's example files, read-only by convention
                (Path(tmp) / shared).symlink_to(REPO / shared)
            return run_page(page, Path(tmp))
    env = environment()
    outcomes = []
    for step in steps(page.read_text(encoding="utf-8")):
        if isinstance(step, FileWrite):
            target = folder / step.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, encoding="utf-8")
        else:
            outcomes.append(Outcome(step, run_command(step, folder, env)))
    return outcomes


def report(page: Path, outcomes: list[Outcome]) -> str:
    """The failed commands of a page, each with its line and a diff of shown and printed."""
    parts = []
    for o in outcomes:
        if not o.ok:
            parts.append(f"{page}:{o.command.line}: $ {o.command.text}\n{o.diff()}")
    return "\n\n".join(parts)


def update(page: Path, outcomes: list[Outcome]) -> int:
    """Write what a command printed into the page where it differs and the page shows no `...`
    (those need a person); the number of outputs rewritten."""
    lines = page.read_text(encoding="utf-8").split("\n")
    changed = 0
    for o in sorted(outcomes, key=lambda o: -o.command.line):
        if o.ok or any("..." in line for line in o.command.expected):
            continue
        start = o.command.line - 1 + o.command.text.count("\n") + 1
        lines[start : start + len(o.command.expected)] = o.actual
        changed += 1
    page.write_text("\n".join(lines), encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the console blocks of Markdown pages.")
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--print", action="store_true", help="print every command and what it printed")
    parser.add_argument(
        "--update", action="store_true", help="write the printed outputs into the page (not at `...`)"
    )
    args = parser.parse_args(argv)
    failed = 0
    for page in args.pages:
        outcomes = run_page(page)
        if args.update:
            print(f"{page}: {update(page, outcomes)} outputs rewritten", file=sys.stderr)
            continue
        for o in outcomes:
            if args.print:
                print(f"$ {o.command.text}\n" + "\n".join(o.actual))
        text = report(page, outcomes)
        if text:
            print(text, file=sys.stderr)
        wrong = sum(not o.ok for o in outcomes)
        failed += wrong
        print(f"{page}: {len(outcomes) - wrong} of {len(outcomes)} commands as shown", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
