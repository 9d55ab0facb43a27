"""Lists as values, `none` given for typed parameters, number-keyed tables, enum names as lists and
the `simultaneous` statement on the native backend (issue 33), each played by a small fixture game
(tests/native/games) against the Python backend, decision by decision."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_native_equivalence import engines, play_both

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import load_game
from tabula.interpreter.model.state import semantic_hash
from tabula.interpreter.run.runtime import GameRuntimeError

HERE = Path(__file__).resolve().parent
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "6"))


def _both(name: str, options: dict[str, object] | None, players: int) -> None:
    py, nat = engines(load_game(HERE / "games" / name, options))
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, players, seed) > 0
        a, b = py.new_game(players, seed), nat.new_game(players, seed)
        ga, gb = rng.seed_state(seed), rng.seed_state(seed)
        assert py.playout(a, ga) == nat.playout(b, gb)
        assert ga == gb and semantic_hash(a) == semantic_hash(nat.plain(b))


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("backwards", [False, True])
def test_list_values(players: int, backwards: bool) -> None:
    """tests/native/games/order: `list(...)` of a list, a zone and a generator, `reversed`, a list
    local walked with a window inside, `none` given for a `player` parameter."""
    _both("order", {"backwards": backwards}, players)


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize("players", [2, 4, 5])
def test_simultaneous_steps_and_number_keyed_mappings(players: int) -> None:
    """tests/native/games/ballot: `simultaneous` over all players and over a list of them, with an
    optional second choice; mappings keyed by numbers giving numbers, symbols or none, and lists."""
    _both("ballot", None, players)


@pytest.mark.slow  # random games on both backends
def test_a_missing_number_key_and_a_seat_named_twice_fail_alike() -> None:
    """A number key the mapping does not have (3 players: `temper[3]`) and a step naming a seat
    twice (`twice`: R008) stop native code; Python replays the decision and reports it."""
    for options, players in (({"twice": True}, 2), (None, 3)):
        py, nat = engines(load_game(HERE / "games" / "ballot", options))
        codes = []
        for seed in range(1, GAMES + 1):
            for engine in (py, nat):
                try:
                    engine.playout(engine.new_game(players, seed), rng.seed_state(seed))
                except GameRuntimeError as err:
                    codes.append(err.code)
        assert codes and len(codes) % 2 == 0 and codes[::2] == codes[1::2], (options, codes)


def test_answers_given_ahead_on_native_words() -> None:
    """Engine.answer ahead of a seat's turn in a simultaneous step (kept hidden in `t.sim.e`): the
    native state leaves native words and plays on as the Python one does."""
    game = load_game(HERE / "games" / "ballot")
    py, nat = engines(game)
    a, b = py.new_game(4, 7), nat.new_game(4, 7)
    for seat in (3, 1, 0, 2, 2, 3, 1, 0):
        for engine, st in ((py, a), (nat, b)):
            if seat in engine.waiting(st):
                engine.answer(st, seat, 0)
        assert py.waiting(a) == nat.waiting(b)
        assert semantic_hash(nat.plain(b)) == semantic_hash(a)


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("back", [False, True])
def test_enum_lists_keyed_zones_and_zone_positions(players: int, back: bool) -> None:
    """tests/native/games/clues: an enum's name as a list, a zone keyed by an enum, `hand(me)[i]`
    (with `back`, position -1: native code stops, Python reads it and the game goes on alike), list
    vars holding none, `set xs[i] += 1`, a `players` var."""
    game = load_game(HERE / "games" / "clues", {"back": back})
    _both("clues", {"back": back}, players)
    _, nat = engines(game)
    assert nat.native is not None and nat.native.lay.var_kinds["told"] == "list:sym"
    assert nat.native.lay.var_kinds["seen"] == "list:int"
    assert nat.native.lay.var_kinds["order"] == "list:player"


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize("name", ["mini", "primitives", "tables", "sealed"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fixture_games_with_list_vars(name: str, players: int) -> None:
    """tests/games/mini (a var of type any given a seat), primitives (vars declared `players`),
    tables (a per-player `[0, 0, 0]` var whose items are set: `set by_value(me)[i] += 1`) and
    sealed (a simultaneous step choosing from a `let` holding a zone) against the Python backend."""
    game = load_game(HERE.parent / "games" / name)
    if not game.min_players <= players <= game.max_players:
        pytest.skip(f"{name} seats {game.min_players}-{game.max_players}")
    py, nat = engines(game)
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, players, seed) > 0


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_list_as_a_condition(players: int) -> None:
    """tests/native/games/truth: a list used as a condition (a function's `let:` list in an
    `if ... else` and a `not`, a procedure's list parameter in an `if` and an `and`) is true when
    it has items, as in Python; empty and not, in random games."""
    _both("truth", None, players)


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("trap", [0, 1])
def test_grants(players: int, trap: int) -> None:
    """tests/native/games/peek: `reveal ... to` and `hide ... from` a player or a list of players
    (run/support.py reveal_to, hide_from: the `rv` bits compared at every decision); a grant to a
    seat not in the game stops native code and Python reports R008."""
    _, walk = lower_game(load_game(HERE / "games" / "peek"))
    assert walk.report.diagnostics == []  # held natively: not Python against itself
    if not trap:
        _both("peek", None, players)
        return
    py, nat = engines(load_game(HERE / "games" / "peek", {"trap": 1}))
    for seed in range(1, GAMES + 1):  # play_both compares the error where a game fails
        assert play_both(py, nat, players, seed) > 0
