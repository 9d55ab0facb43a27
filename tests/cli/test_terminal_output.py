"""What the command line prints of a hostile game: no raw control or bidi character reaches the terminal,
long names are cut, and the calls that were silently misread are refused (issue 26, items 4 and 8)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from test_cli import tabula

from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import Engine, load_game
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


def test_a_variant_given_twice_is_a_bad_call_naming_both() -> None:
    run = tabula("simulate", str(HOSTILE / "base"), "--variant", "a", "--variant", "b")
    assert run.returncode == 2
    assert "argument --variant: given twice ('a' and 'b')" in run.stderr


def test_an_option_of_more_than_20_digits_is_refused() -> None:
    run = tabula("simulate", str(HOSTILE / "base"), "--option", "target=9999999999999999999999999")
    assert run.returncode == 2
    assert (
        "error[O002]: option 'target' must be an integer of at most 20 digits, not a longer one" in run.stderr
    )
    with pytest.raises(AuthorError, match="O002"):
        Engine(load_game(HOSTILE / "base")).new_game(2, options={"target": 10**20})
    assert Engine(load_game(HOSTILE / "base")).new_game(2, options={"target": 10**20 - 1})


@pytest.mark.parametrize(
    ("pause", "hint"),
    [("nosuchphase", "phases: main; or 'turn' (before the first)"), ("mian", "did you mean 'main'?")],
)
def test_new_game_refuses_a_pause_that_is_not_a_phase(pause: str, hint: str) -> None:
    engine = Engine(load_game(HOSTILE / "base"))
    with pytest.raises(AuthorError) as err:
        engine.new_game(2, pause=pause)
    (d,) = err.value.report.errors
    assert (d.code, d.message, d.hint) == (
        "G004",
        f"pause at '{pause}': it is not a phase of Hostile base",
        hint,
    )
    assert engine.new_game(2, pause="main")["t"]["paused"] and engine.new_game(2, pause="turn")["t"]["paused"]
