"""docs/rl.md stays true: its example files are shown as they are, and its commands print what it says.

Commands are the lines starting with `$ ` in ```console blocks, each followed by its expected
output, where a line `...` matches any number of lines (the convention every doc page follows).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rl.md"
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.py"))


def console_commands(text: str) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every `$ ` line of every console block."""
    out: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Do the lines match, with `...` standing for any number of lines?"""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


def test_the_matcher() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "..."], ["a"])
    assert not matches(["a", "d"], ["a", "b", "d"])


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_are_shown_as_they_are(example: Path) -> None:
    assert f"```python\n{example.read_text(encoding='utf-8')}```" in PAGE.read_text(encoding="utf-8")


COMMANDS = console_commands(PAGE.read_text(encoding="utf-8"))


@pytest.mark.slow  # a new Python process per command
@pytest.mark.parametrize(("command", "expected"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_commands_print_what_the_page_says(command: str, expected: list[str]) -> None:
    if "examples/" in command or "tabula.rl" in command:
        pytest.importorskip("numpy")
    if "mcts" in command:
        pytest.importorskip("pyspiel")
    if "pettingzoo" in command:
        pytest.importorskip("pettingzoo")
    assert command.startswith("python ")
    result = subprocess.run(
        [sys.executable, *command.split()[1:]], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert matches(expected, result.stdout.splitlines()), result.stdout
