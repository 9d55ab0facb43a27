"""`visibility: others`: a per-player zone everyone sees but its owner (cards held facing out). Its
owner's view, log and determinised worlds hide the cards; the other players see them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import HIDDEN, view
from tabula.interpreter.run.determinize import determinize

MINI = Path(__file__).resolve().parents[2] / "tests" / "games" / "mini"


def mini_with(tmp_path: Path, zone: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    path = folder / "game.yaml"
    text = path.read_text().replace("zones:\n", f"zones:\n  held: {zone}\n", 1)
    text = text.replace("    shuffle deck\n", "    shuffle deck\n    draw 2 from deck to held(0)\n")
    path.write_text(text)
    return folder


def test_the_owner_alone_does_not_see_a_zone_held_facing_out(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, "{per: player, visibility: others}")))
    log: list[dict] = []
    st = engine.new_game(3, seed=4, log=log)
    held = engine.game.zones["held"].index(0)
    cards = list(st["z"][held])
    assert len(cards) == 2
    assert view(engine.game, st, 0)["z"][held] == [HIDDEN, HIDDEN]
    assert view(engine.game, st, 1)["z"][held] == cards == view(engine.game, st, 2)["z"][held]
    drawn = [e for e in log if str(e["text"]).endswith("deck -> held(P1)")]
    assert len(drawn) == 2 and all(
        e["hidden_from"] == [0] for e in drawn
    )  # only its owner reads 'a hidden card'

    swapped = engine.clone(st)
    swapped["z"][held].reverse()  # the two held cards exchanged (both stay in the zone)
    assert view(engine.game, swapped, 0) == view(engine.game, st, 0)  # the swap test, for the owner
    assert view(engine.game, swapped, 1) != view(engine.game, st, 1)


def test_determinisation_deals_the_owners_held_cards_among_what_the_owner_cannot_see(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, "{per: player, visibility: others}")))
    st = engine.new_game(2, seed=4)
    held = engine.game.zones["held"].index(0)
    worlds = [determinize(engine.game, st, 0, rng.seed_state(s)) for s in range(12)]
    assert all(view(engine.game, w, 0) == view(engine.game, st, 0) for w in worlds)
    assert len({tuple(w["z"][held]) for w in worlds}) > 1  # the held cards are not known to their owner


def test_others_needs_an_owner(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(mini_with(tmp_path, "{visibility: others}"))
    assert "visibility 'others' (everyone but the zone's owner) needs per: player" in render_report(
        err.value.report
    )
