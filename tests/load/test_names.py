"""W003 and W004: names of a game that look alike, or hold invisible, control or bidi characters."""

from __future__ import annotations

from pathlib import Path

from tabula.interpreter.engine import load_game
from tabula.interpreter.load.names import skeleton

GAMES = Path(__file__).resolve().parents[1] / "hostile" / "games"


def warnings(game: str) -> list[tuple[str, int, str, str]]:
    loaded = load_game(GAMES / game)
    return [
        (d.code, d.span.line if d.span else 0, d.message, d.hint or "")
        for d in loaded.check_warnings
        if d.code in ("W003", "W004")
    ]


def test_the_skeleton_of_look_alikes() -> None:
    assert skeleton("\u04211") == skeleton("C1") == "C1"  # Cyrillic Es
    assert skeleton("Cafe\u0301") == skeleton("Caf\u00e9")  # NFD and NFC
    assert skeleton("p\u200bile") == skeleton("pile") == skeleton("p\u0456le")
    assert skeleton("C1") != skeleton("c1")  # case is seen


def test_names_that_look_alike_are_warned_with_their_code_points() -> None:
    found = warnings("names-look-alike")
    assert [(code, line) for code, line, _, _ in found] == [("W003", 30), ("W003", 22), ("W003", 24)]
    _, _, message, hint = found[1]
    assert message == "the name '\u04211' looks like 'C1' and is another name"
    assert hint.startswith("U+0421 U+0031 against U+0043 U+0031")
    assert "U+0065 U+0301 against" in found[2][3]


def test_invisible_control_and_bidi_characters_in_names_are_warned() -> None:
    found = warnings("names-invisible")
    assert [(code, line) for code, line, _, _ in found] == [("W004", 21), ("W004", 22), ("W004", 23)]
    assert found[0][2].endswith("U+200B ZERO WIDTH SPACE")
    assert "evil\\u202egnp.exe" in found[1][2] and "U+202E RIGHT-TO-LEFT OVERRIDE" in found[1][2]
    escapes = warnings("terminal-escapes")
    assert [line for _, line, _, _ in escapes] == [5, 5, 22]
    assert (
        escapes[2][2]
        == "the name 'X\\x0a\\x1b[2J' holds invisible, control or bidi characters: U+000A, U+001B"
    )


def test_the_bundled_games_have_no_look_alike_names() -> None:
    for game in (
        "high-card",
        "porta-nigra",
        "glory-to-rome",
        "coup",
        "hanabi",
        "patchwork",
        "ticket-to-ride",
    ):
        assert not [d for d in load_game(game).check_warnings if d.code in ("W003", "W004")], game
