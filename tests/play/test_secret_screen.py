"""`tabula play`'s screen of a game with secrets (tests/games/secrets): a seat reads `?` for another
player's chips and for the size of their stash (`size_visibility`), never the values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import visible_log
from tabula.play.board import build_board
from tabula.play.screen import Look, decision_screen

GAME = Path(__file__).resolve().parents[1] / "games" / "secrets"


def test_the_terminal_shows_a_secret_count_as_unknown() -> None:
    engine = Engine(load_game(GAME))
    log: list[dict[str, Any]] = []
    st = engine.new_game(2, seed=3)
    stow = next(i for i in st["dec"]["ids"] if i.startswith("stow:"))
    st = engine.apply(st, stow, log)
    st["c"][engine.game.counters["chips"].base] = 4321
    bob = "\n".join(
        ln.plain for ln in decision_screen(build_board(engine, st, 1), visible_log(log, 1), "S", Look())
    )
    assert "4321" not in bob and "stash ?" in bob and "stash(P1)" not in bob
    ann = build_board(engine, st, 0)
    own = next(line for s in ann.you.sections for line in s.lines if line.name == "stash")
    assert own.size == 1 and own.text == stow.split(":")[1]
    theirs = next(
        line
        for p in build_board(engine, st, 1).others
        for s in p.sections
        for line in s.lines
        if line.name == "stash"
    )
    assert theirs.size is None and theirs.text == "?"
