"""What the command line prints of a hostile game: no raw control or bidi character reaches the terminal,
and long names are cut (issue 26, items 4 and 8)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from test_cli import tabula

from tabula.play.command import safe_text

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
ESCAPES = HOSTILE / "games" / "terminal-escapes"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize(
    "args",
    [
        ("check", str(ESCAPES)),
        ("check", str(ESCAPES), "--json"),
        ("options", str(ESCAPES)),
        ("simulate", str(ESCAPES), "--games", "2"),
        ("rules", str(ESCAPES)),
        ("play", str(ESCAPES), "--seed", "3", "--names", "Eve\x1b]0;owned\x07,Bob\u202e"),
    ],
    ids=lambda a: " ".join(a[:1] + a[2:3]),
)
def test_no_raw_control_or_bidi_character_reaches_the_terminal(args: tuple[str, ...]) -> None:
    run = tabula(*args, stdin="1\n" * 40 + "board\nlog\nq\n")
    assert run.returncode == 0, run.stderr
    assert not RAW.search(run.stdout + run.stderr)
    assert "\\x1b" in run.stdout  # shown, escaped


def test_the_play_screen_keeps_its_styles_on_escaped_text() -> None:
    line = Text("hand: ", style="bold").append("X\x1b[2J", style="red").append(" end")
    shown = safe_text(line)
    assert shown.plain == "hand: X\\x1b[2J end"
    assert [(s.start, s.end, s.style) for s in shown.spans] == [(6, 14, "red")]
    console = Console(force_terminal=True, width=80, record=True)
    console.print(shown)
    assert "\\x1b[2J" in console.export_text() and "\x1b[2J" not in console.export_text(styles=True)


def test_a_long_game_name_is_cut_with_its_length(tmp_path: Path) -> None:
    game = tmp_path / "long"
    shutil.copytree(HOSTILE / "base", game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("name: Hostile base", "name: " + "N" * 900_000))
    run = tabula("check", str(game))
    assert run.returncode == 0, run.stderr
    first = run.stdout.splitlines()[0]
    assert first.startswith("ok: " + "N" * 200 + "… (900,000 characters) (") and len(first) < 300
