"""`reveal X to P`: a component shown to some players only (issue 27, item 1, step 2 of the design in
docs/ARCHITECTURE.md). The grant lives in `rv` (bit p + 1 for seat p), so games without it keep
their states; views say only "shown to you"; a move into a zone that is not public, or `conceal`,
ends it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import view, visible_to
from tabula.interpreter.run.determinize import determinize
from tabula.interpreter.run.runtime import GameRuntimeError

MINI = Path(__file__).resolve().parents[2] / "tests" / "games" / "mini"


def mini_with(tmp_path: Path, setup: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    path = folder / "game.yaml"
    lines = "".join(f"      {x}\n" for x in setup.splitlines())
    text = path.read_text().replace(
        "      draw 1 from deck to hand(p)\n", "      draw 1 from deck to hand(p)\n" + lines
    )
    path.write_text(text)
    return folder


def relabel(st: dict[str, Any], a: int, b: int) -> dict[str, Any]:
    """The same game with components a and b exchanged everywhere (a world another seat cannot tell apart)."""
    swap = {a: b, b: a}
    out = {
        **st,
        "z": [[swap.get(c, c) for c in z] for z in st["z"]],
        "loc": list(st["loc"]),
        "rv": list(st["rv"]),
    }
    out["loc"][a], out["loc"][b] = st["loc"][b], st["loc"][a]
    out["rv"][a], out["rv"][b] = st["rv"][b], st["rv"][a]
    out["m"] = {k: [v[swap.get(i, i)] for i in range(len(v))] for k, v in st["m"].items()}
    return out


def test_a_card_shown_to_one_player_is_seen_by_that_player_alone(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, "reveal top(hand(1)) to 0")))
    g = engine.game
    st = engine.new_game(3, seed=2)
    shown = st["z"][g.zones["hand"].index(1)][0]
    assert [visible_to(g, st, shown, p) for p in range(3)] == [True, True, False]
    assert view(g, st, 0)["z"][g.zones["hand"].index(1)] == [shown]
    assert view(g, st, 0)["rv"][shown] == 2 and view(g, st, 2)["rv"][shown] == 0
    # a spectator (a negative viewer, as the table's public board asks) is shown nothing
    assert view(g, st, -2)["rv"][shown] == 0 and view(g, st, -2)["z"][g.zones["hand"].index(1)] != [shown]
    # the swap test for the third player: the card shown to seat 0 and a card in the deck exchanged
    other = st["z"][g.zones["deck"].index(None)][0]
    assert view(g, relabel(st, shown, other), 2) == view(g, st, 2)
    assert view(g, relabel(st, shown, other), 0) != view(g, st, 0)


def test_a_move_into_a_zone_that_is_not_public_or_conceal_ends_the_grant(tmp_path: Path) -> None:
    moved = Engine(
        load_game(mini_with(tmp_path / "a", "let c = top(hand(1))\nreveal c to [0, 2]\nmove c to deck"))
    )
    st = moved.new_game(3, seed=2)
    assert not any(st["rv"])
    concealed = Engine(load_game(mini_with(tmp_path / "b", "reveal top(hand(1)) to 0\nconceal top(hand(1))")))
    assert not any(concealed.new_game(3, seed=2)["rv"])


def test_determinisation_keeps_the_grant_with_the_place_it_was_shown_in(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, "reveal top(hand(1)) to 0")))
    g = engine.game
    st = engine.new_game(3, seed=2)
    for s in range(8):
        world = determinize(g, engine.clone(st), 0, rng.seed_state(s))
        assert view(g, world, 0) == view(g, st, 0)


def test_reveal_to_something_that_is_no_player(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(mini_with(tmp_path / "a", "reveal top(hand(1)) to top(deck)"))
    assert (
        "error[T008]: 'reveal ... to' needs a player or a list of players, found a component"
        in render_report(err.value.report)
    )
    engine = Engine(load_game(mini_with(tmp_path / "b", "reveal top(hand(1)) to num_players")))
    with pytest.raises(GameRuntimeError) as run_err:
        engine.new_game(2, seed=2)
    assert run_err.value.code == "R008" and "needs players of the game, got 2" in str(run_err.value)


def test_hide_from_ends_those_players_grants_only(tmp_path: Path) -> None:
    engine = Engine(
        load_game(mini_with(tmp_path / "a", "reveal top(hand(1)) to [0, 2]\nhide top(hand(1)) from 0"))
    )
    g = engine.game
    st = engine.new_game(3, seed=2)
    shown = st["z"][g.zones["hand"].index(1)][0]
    assert [visible_to(g, st, shown, p) for p in range(3)] == [False, True, True]
    everyone = Engine(
        load_game(mini_with(tmp_path / "b", "reveal top(hand(1))\nhide top(hand(1)) from [0, 1]"))
    )
    st = everyone.new_game(3, seed=2)
    shown = st["z"][g.zones["hand"].index(1)][0]
    # revealed to everyone, then hidden from seats 0 and 1: the third player alone sees it (its
    # owner, seat 1, still does: hide ends grants, not the zone's own visibility)
    assert [visible_to(g, st, shown, p) for p in range(3)] == [False, True, True] and st["rv"][shown] == 8
    assert view(g, st, -2)["rv"][shown] == 0  # no longer shown to a spectator
    nothing = Engine(load_game(mini_with(tmp_path / "c", "hide top(hand(1)) from 0")))
    assert not any(nothing.new_game(3, seed=2)["rv"])


def test_hide_from_something_that_is_no_player(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(mini_with(tmp_path / "a", "hide top(hand(1)) from top(deck)"))
    shown = render_report(err.value.report)
    assert "error[T008]: 'hide ... from' needs a player or a list of players, found a component" in shown
    assert "hide top(hand(1)) from top(deck)" in shown and "^" in shown


def test_a_look_forgotten_in_the_secrets_game() -> None:
    engine = Engine(load_game(MINI.parent / "secrets"))
    st = engine.apply(engine.new_game(3, seed=1), "peek:P2")  # Ann looks at a card of Bob's
    hand = engine.game.zones["hand"].index(1)
    assert engine.view(st, 0)["z"][hand].count(-1) == 1 and engine.view(st, 2)["z"][hand] == [-1, -1]
    st = engine.apply(st, "mix")  # Bob mixes his hand: Ann knows the card no more
    assert engine.view(st, 0)["z"][hand] == [-1, -1] and not any(st["rv"])
