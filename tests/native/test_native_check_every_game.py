"""`tabula check --native` on every bundled game and every fixture game of tests/games and
tests/native/games: it says "supported", but for tests/native/games/unheld (an action of nine
parameters, a capacity limit: the one game native code refuses), and never fails itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(
    p.parent
    for p in [
        *ROOT.glob("gamedefs/*/game.yaml"),
        *ROOT.glob("tests/games/*/game.yaml"),
        *ROOT.glob("tests/native/games/*/game.yaml"),
    ]
)
REFUSED = "native: 1 construct not supported yet (the game runs on the Python backend)"


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_check_native_answers_for_every_game(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--native", str(folder)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "internal error" not in text
    assert code == 0, text
    last = text.strip().splitlines()[-1]
    assert last == (REFUSED if folder.name == "unheld" else "native: supported"), last
