"""Coup: the Ambassador's exchange is secret, and the 15 characters and 50 coins are conserved in seeded
random games (the swap test of issue 27 is in tests/rl/test_rl_hidden.py)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import places
import pytest

from tabula.cli import main as cli
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import view, visible_log

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def coup() -> CompiledGame:
    """The game, compiled on first use (not at collection)."""
    return load_game(ROOT / "gamedefs" / "coup")


def zone(name: str, owner: int | None = None) -> int:
    return coup().zones[name].index(owner)


def random_positions(players: int, seed: int) -> list[State]:
    """Every position of a random game (the owner's own choices included)."""
    engine = Engine(coup())
    st = engine.new_game(players, seed=seed)
    bot = rng.seed_state(seed)
    out = [engine.clone(st)]
    while not engine.is_terminal(st):
        ids = engine.legal_ids(st)
        engine.apply_inplace(st, ids[rng.below(bot, len(ids))])
        out.append(engine.clone(st))
    return out


def exchange(returned: list[str]) -> tuple[Engine, State, list[dict[str, Any]]]:
    """Ann (holding an Ambassador and a Contessa, with a Duke and an Assassin on the Court deck)
    exchanges, Bob lets it pass, and Ann returns `returned`."""
    engine = Engine(coup())
    game = coup()
    st = engine.new_game(["Ann", "Bob"], seed=6)
    by_name: dict[str, list[int]] = {}
    for cid, c in enumerate(game.components):
        by_name.setdefault(c.name, []).append(cid)
    hand = [by_name["Ambassador"][0], by_name["Contessa"][0]]
    top = [by_name["Duke"][0], by_name["Assassin"][0]]
    bob = [by_name["Captain"][0], by_name["Captain"][1]]
    rest = [c for c in range(len(game.components)) if c not in hand + top + bob]
    for z in (zone("hand", 0), zone("hand", 1), zone("court")):
        st["z"][z] = []
    for z, cards in ((zone("hand", 0), hand), (zone("hand", 1), bob), (zone("court"), top + rest)):
        st["z"][z] = list(cards)
        for c in cards:
            st["loc"][c] = z
    log: list[dict[str, Any]] = []
    for choice in ["exchange", "allow", *returned]:
        engine.apply_inplace(st, choice, log)
    return engine, st, log


def test_the_exchange_is_secret_from_the_other_players() -> None:
    kept_engine, kept, kept_log = exchange(["Duke", "Assassin"])  # Ann keeps her own two
    _, swapped, swapped_log = exchange(["Ambassador", "Contessa"])  # Ann keeps the two drawn
    game = coup()
    names = [game.components[c].name for c in kept["z"][zone("hand", 0)]]
    assert sorted(names) == ["Ambassador", "Contessa"]
    assert sorted(game.components[c].name for c in swapped["z"][zone("hand", 0)]) == ["Assassin", "Duke"]
    assert view(game, kept, 1) == view(game, swapped, 1)  # Bob sees the same table
    assert visible_log(kept_log, 1) == visible_log(swapped_log, 1)  # and reads the same log
    assert visible_log(kept_log, 0) != visible_log(swapped_log, 0)  # Ann knows what she did
    assert not any(n in line for line in visible_log(kept_log, 1) for n in ("Duke", "Assassin", "Contessa"))
    assert kept_engine.legal_ids(kept) == kept_engine.legal_ids(swapped)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_fifteen_characters_and_fifty_coins_in_random_games(players: int) -> None:
    game = coup()
    for seed in (11, 12):
        for st in random_positions(players, seed):
            places.check_places(game, st, range(15))
            coins = st["c"][game.counters["coins"].base : game.counters["coins"].base + players]
            assert sum(coins) + st["c"][game.counters["treasury"].base] == 50
            in_hands = sum(len(st["z"][zone("hand", q)]) for q in range(players))
            lost = sum(len(st["z"][zone("lost", q)]) for q in range(players))
            assert in_hands + lost + len(st["z"][zone("court")]) == 15
            assert all(len(st["z"][zone("hand", q)]) <= 4 for q in range(players))


@pytest.mark.slow  # 100 random games per player count through `tabula simulate`
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulated_random_games_end_with_one_winner(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "coup", "--players", str(players), "--games", "100", "--bot", "all=random"]
    assert cli.main([*argv, "--seed", "1", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == [] and data["games"] == 100
    assert all(e.startswith("declared winner") for e in data["endings"])  # the last player standing
    assert sum(data["endings"].values()) == 100
    assert sum(s["wins"] + s["ties"] for s in data["seats"]) == 100  # one winner a game, never shared
    assert 5 <= data["decisions"]["mean"] <= 15 * players


def test_the_two_player_pick_is_hidden_from_the_other_player_until_both_have_chosen() -> None:
    """Issue 34 item 10 (option two_player_pick): whatever Ann keeps of her set, Bob's view before
    he answers is the same, and the reveal names a position in a shuffled set, not a character."""
    engine = Engine(coup())
    st = engine.new_game(2, seed=3, options={"two_player_pick": True})
    assert engine.waiting(st) == [0, 1] and engine.legal_ids(st) == ["0", "1", "2", "3", "4"]
    views = [json.dumps(engine.view(engine.apply(st, c), 1), sort_keys=True) for c in engine.legal_ids(st)]
    assert len(set(views)) == 1
    engine.apply_inplace(st, "2")
    engine.apply_inplace(st, "0")
    assert [len(st["z"][zone("hand", q)]) for q in (0, 1)] == [2, 2]
    assert len(st["z"][zone("court")]) == 3 and len(st["z"][zone("box")]) == 8
