"""Ticket to Ride (issue 28 item 7), the bundled route-building game on the USA map.

- The data: 36 cities, 100 routes (78 city pairs, 22 doubles, 309 spaces, 7 routes of 27 spaces in
  each card colour), 110 train cards, 30 tickets.
- Random games of every player count finish, with every card and ticket in one place.
- Hidden hands and tickets never leak (the swap test): two games that differ only in a card of
  Red's hand, or one of Red's tickets, traded with one hidden in the deck, look the same to the
  other players - view, the board the screens draw, log, RL observation tensor and string - and
  so does the opening ticket choice, and a bot's worlds deal Red's tickets anew.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from pathlib import Path
from typing import Any

import places
import pytest
from places import rl_sees_the_same, simulate_random, swapped

from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import visible_log

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def ttr() -> Engine:
    return Engine(load_game(ROOT / "gamedefs" / "ticket-to-ride"))


def of_type(engine: Engine, ctype: str) -> list[Any]:
    return [c for c in engine.game.components if c.type == ctype]


def zone(engine: Engine, st: State, name: str, p: int = 0) -> list[int]:
    return list(st["z"][engine.game.zones[name].index(p)])


def test_the_map_cards_and_tickets_add_up() -> None:
    engine = ttr()
    cities, routes = of_type(engine, "map"), of_type(engine, "map_edge")
    assert len(cities) == 36
    assert len(routes) == 100
    pairs = Counter(tuple(r.props["ends"]) for r in routes)
    assert len(pairs) == 78 and sum(1 for n in pairs.values() if n == 2) == 22
    assert sum(r.props["length"] for r in routes) == 309
    spaces = Counter(r.props["colour"] for r in routes for _ in range(r.props["length"]))
    assert {k: v for k, v in spaces.items() if k != "grey"} == {
        k: 27 for k in ("purple", "white", "blue", "yellow", "orange", "black", "red", "green")
    }
    cards = Counter(c.props["colour"] for c in of_type(engine, "card"))
    assert cards["locomotive"] == 14 and len(cards) == 9
    assert all(n == 12 for k, n in cards.items() if k != "locomotive")
    tickets = of_type(engine, "ticket")
    names = {c.name for c in cities}
    assert len(tickets) == 30 and all({t.props["city1"], t.props["city2"]} <= names for t in tickets)


def after_opening(players: int, seed: int) -> State:
    """A game past the opening ticket choice (everyone keeps all three), at Red's first turn."""
    engine = ttr()
    st = engine.new_game(players, seed=seed)
    while st["dec"] is not None and st["dec"].get("prompt", "").startswith("return which ticket"):
        engine.apply_inplace(st, "none")
    assert engine.legal_ids(st) and "draw_card" in engine.legal_ids(st)
    return st


def test_a_swap_in_reds_hand_and_tickets_changes_nothing_the_others_see() -> None:
    from tabula.play.board import build_board

    engine = ttr()
    st = after_opening(3, seed=7)
    names = engine.game.component_names
    deck = zone(engine, st, "deck")[10:]  # not among the next draws
    card = zone(engine, st, "hand")[0]
    other = next(c for c in deck if names[c] != names[card])
    ticket, hidden = zone(engine, st, "tickets")[0], zone(engine, st, "ticket_deck")[-1]
    world = swapped(swapped(st, card, other), ticket, hidden)
    assert engine.hash(st) != engine.hash(world)
    assert engine.view(st, 0) != engine.view(world, 0)
    logs: list[list[dict[str, Any]]] = [[], []]
    for i, w in enumerate((st, world)):
        for choice in ("draw_card", "draw_card", "draw_card", "draw_card"):  # Red, then Blue
            engine.apply_inplace(w, choice, logs[i])
    for p in (1, 2):
        assert engine.view(st, p) == engine.view(world, p)
        assert build_board(engine, st, p) == build_board(engine, world, p)
        assert visible_log(logs[0], p) == visible_log(logs[1], p)
    assert any("hidden card: deck -> hand(Red)" in line for line in visible_log(logs[0], 1))


def test_the_opening_ticket_choice_is_hidden_from_the_others() -> None:
    """Two openings that differ only in the ticket Red returns (the first one offered, traded with
    one hidden in the ticket deck beforehand): Blue and Green see the same, while the step is open
    and after the answers are revealed together (an answer is a position among the three offered,
    never the ticket)."""
    engine = ttr()
    logs: list[list[dict[str, Any]]] = [[], []]
    first = engine.new_game(3, seed=3, log=logs[0])
    offered, hidden = zone(engine, first, "offered", 0)[0], zone(engine, first, "ticket_deck")[-1]
    worlds = [first, swapped(first, offered, hidden)]
    logs[1] = list(logs[0])
    assert engine.view(worlds[0], 0) != engine.view(worlds[1], 0)  # Red is offered another ticket
    for st, log in zip(worlds, logs, strict=True):
        engine.apply_inplace(st, "0", log)  # Red returns the first ticket: 2 left, Red is done
        assert engine.waiting(st) == [1, 2]
    for p in (1, 2):
        assert engine.view(worlds[0], p) == engine.view(worlds[1], p)
        assert visible_log(logs[0], p) == visible_log(logs[1], p)
    for st, log in zip(worlds, logs, strict=True):  # Blue and Green answer; the step ends
        engine.apply_inplace(st, "none", log)
        engine.apply_inplace(st, "none", log)
    returned = [zone(engine, st, "ticket_deck")[-1] for st in worlds]
    assert returned == [offered, hidden]
    for p in (1, 2):
        assert engine.view(worlds[0], p) == engine.view(worlds[1], p)
        assert visible_log(logs[0], p) == visible_log(logs[1], p)
    assert any(line.startswith("revealed together - Red: 0") for line in visible_log(logs[0], 1))
    assert [len(zone(engine, st, "tickets", 0)) for st in worlds] == [2, 2]


def test_what_red_answers_in_the_opening_changes_nothing_blue_sees_before_answering() -> None:
    """Issue 34 item 5: a returned ticket stays in `offered`, marked, until the step ends, so the
    sizes of `offered(Red)` and `ticket_deck` do not tell Blue whether Red returned one."""
    engine = ttr()
    st = engine.new_game(2, seed=5)
    answers = engine.legal_ids(st)
    assert engine.waiting(st) == [0, 1] and "none" in answers and len(answers) == 4
    views = []
    for choice in answers:
        after = engine.apply(st, choice)
        assert engine.current_player(after) == 1
        views.append(engine.view(after, 1))
    assert all(v == views[0] for v in views)


@pytest.mark.slow  # builds the RL encoder
def test_the_swap_changes_nothing_in_the_others_observation() -> None:
    pytest.importorskip("numpy")
    from tabula.rl.match import Ruleset, Setup

    rules = Ruleset.get(Setup("ticket-to-ride"))
    st = after_opening(2, seed=9)
    ticket, hidden = zone(ttr(), st, "tickets")[0], zone(ttr(), st, "ticket_deck")[-1]
    for p, same in ((1, True), (0, False)):
        assert rl_sees_the_same(rules, st, swapped(st, ticket, hidden), p) is same


def test_a_bot_deals_the_others_tickets_anew() -> None:
    from tabula.bots.base import Observation

    engine = ttr()
    st = after_opening(2, seed=11)
    engine.apply_inplace(st, "draw_card")
    engine.apply_inplace(st, "draw_card")  # Blue decides now
    obs = Observation(engine, st, 1)
    reds = [sorted(zone(engine, obs.determinize(rng.seed_state(s)), "tickets", 0)) for s in range(8)]
    assert len({tuple(t) for t in reds}) > 1
    assert all(len(t) == 3 for t in reds)


@pytest.mark.slow  # a random game of each player count
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_finish_with_every_card_in_one_place(players: int) -> None:
    engine = ttr()
    st = engine.new_game(players, seed=players)
    gen = rng.seed_state(players)
    cards = [c.id for c in engine.game.components if c.type in ("card", "ticket")]
    decisions = 0
    while not engine.is_terminal(st):
        engine.apply_inplace(st, engine.random_choice(st, gen))
        decisions += 1
        places.check_places(engine.game, st, cards)
    assert decisions > 50
    assert len(engine.winners(st)) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_simulated_random_games_end_without_error(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    games = int(os.environ.get("TABULA_TTR_GAMES", "20"))  # the brief's run: 500 per count
    summary = simulate_random("ticket-to-ride", players, games, capsys)
    assert summary["endings"] == {"end check (last_round_over)": games}
