"""Hanabi: hands held facing out leak nothing to their owner (the swap test: two cards of a
player's own hand exchanged change nothing in that player's view, observation tensor, observation
string or log), what the clues told is public, and a bot deals only cards that fit what it was told
(`bots: deal:`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from places import rl_sees_the_same, simulate_random, swapped

from tabula.bots.base import Observation
from tabula.bots.deal import deal_conditions
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import visible_log

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "gamedefs" / "hanabi"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game(GAME))


def hand(engine: Engine, st: State, p: int) -> list[int]:
    return list(st["z"][engine.game.zones["hand"].index(p)])


def different_pair(engine: Engine, cards: list[int]) -> tuple[int, int]:
    names = engine.game.component_names
    return next((a, b) for a in cards for b in cards if names[a] != names[b])


def test_a_swap_in_my_own_hand_changes_nothing_i_see(engine: Engine) -> None:
    st = engine.new_game(3, seed=4)
    a, b = different_pair(engine, hand(engine, st, 0))
    other = swapped(st, a, b)
    assert engine.hash(st) != engine.hash(other)
    assert engine.view(st, 0) == engine.view(other, 0)  # Ann holds her cards facing out
    assert engine.view(st, 1) != engine.view(other, 1)  # Bob sees them


def test_the_swap_changes_nothing_in_my_log(engine: Engine) -> None:
    """Two cards of Ann's of one rank and different colours exchanged; Bob then tells Ann which
    of her cards are of that rank: her log reads the same in both worlds, Bob's does not differ
    either (he sees both), but the states do."""
    comps = engine.game.components
    for seed in range(50):
        st = engine.new_game(2, seed=seed)
        mine = hand(engine, st, 0)
        pairs = [
            (a, b)
            for a in mine
            for b in mine
            if comps[a].props["rank"] == comps[b].props["rank"]
            and comps[a].props["colour"] != comps[b].props["colour"]
        ]
        if pairs:
            break
    a, b = pairs[0]
    rank, bob_rank = comps[a].props["rank"], comps[hand(engine, st, 1)[0]].props["rank"]
    logs: list[list[dict[str, Any]]] = [[], []]
    for i, world in enumerate((st, swapped(st, a, b))):
        world = engine.apply(world, f"tell_rank:Bob,{bob_rank}", logs[i])
        world = engine.apply(world, f"tell_rank:Ann,{rank}", logs[i])
        world = engine.apply(world, "discard:0", logs[i])  # Ann discards her first card
    assert any(f"which cards are {rank}s" in line for line in visible_log(logs[0], 0))
    if mine[0] not in (a, b):  # the discarded card is the same in both worlds
        assert visible_log(logs[0], 0) == visible_log(logs[1], 0)
    else:
        assert visible_log(logs[0], 0)[:2] == visible_log(logs[1], 0)[:2]


@pytest.mark.slow
def test_the_swap_changes_nothing_in_my_observation(engine: Engine) -> None:
    pytest.importorskip("numpy")
    from tabula.rl.match import Match, Ruleset, Setup

    rules = Ruleset.get(Setup("hanabi"))
    st = rules.engine.plain(Match.start(rules, 2, 9).st)  # the RL engine is native: its plain data
    mine = st["z"][rules.game.zones["hand"].index(0)]
    a, b = different_pair(rules.engine, list(mine))
    for p, same in ((0, True), (1, False)):
        assert rl_sees_the_same(rules, st, swapped(st, a, b), p) is same


def test_clues_are_public_and_follow_the_cards(engine: Engine) -> None:
    st = engine.new_game(2, seed=4)
    bob = hand(engine, st, 1)
    colour = engine.game.components[bob[0]].props["colour"]
    st = engine.apply(st, f"tell_colour:Bob,{colour}")
    told = [colour if engine.game.components[c].props["colour"] == colour else None for c in bob]
    for p in (0, 1):  # everyone knows what Bob was told, Bob included
        assert engine.view(st, p)["v"]["told_colour"][1] == told


def test_a_bot_deals_itself_only_cards_that_fit_its_clues(engine: Engine) -> None:
    assert set(deal_conditions(engine.game)) == {"hand"}
    st = engine.new_game(2, seed=4)
    rank_of = [engine.game.components[hand(engine, st, p)[0]].props["rank"] for p in (0, 1)]
    st = engine.apply(st, f"tell_rank:Bob,{rank_of[1]}")  # Ann tells Bob; then Bob tells Ann
    st = engine.apply(st, f"tell_rank:Ann,{rank_of[0]}")
    rank = rank_of[0]
    told = engine.view(st, 0)["v"]["told_rank"][0]
    assert told[0] == rank
    obs = Observation(engine, st, 0)
    gen = rng.seed_state(1)
    for _ in range(20):
        world = obs.determinize(gen)
        dealt = world["z"][engine.game.zones["hand"].index(0)]
        for pos, c in enumerate(dealt):
            if told[pos] is not None:
                assert engine.game.components[c].props["rank"] == told[pos]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_finish_without_error(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    games = int(os.environ.get("TABULA_HANABI_GAMES", "100"))  # the brief's run: 500 per count
    simulate_random("hanabi", players, games, capsys)
