"""The native backend plays exactly as the Python one: random games of every game it holds compared
decision by decision (choice ids, semantic hashes, frames, scores), the recorded traces replayed on
it, states converted to plain data and back, and whole playouts in native code drawing the same
choices as the Python loop."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tabula.dev import traces
from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.backend import prepare
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import new_state, semantic_hash
from tabula.interpreter.run.runtime import GameRuntimeError

HERE = Path(__file__).resolve().parent
# random games per configuration: 10 in the suite (90 High Card games); on demand, e.g.
# TABULA_NATIVE_GAMES=11112 for 100,000
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))
TRACES = HERE.parent / "traces"
FIXTURES = HERE.parent / "games"


def engines(game: Any) -> tuple[Engine, Engine]:
    native = Engine(game, backend="native")
    assert native.backend == "native", native.backend_note
    return Engine(game), native


def play_both(py: Engine, nat: Engine, players: int, seed: int) -> int:
    """One random game on both backends, compared at every decision; the decisions taken."""
    a, b = py.new_game(players, seed), nat.new_game(players, seed)
    gen = rng.seed_state(seed + 0xB07)
    k = 0
    while True:
        plain = nat.plain(b)
        assert semantic_hash(plain) == semantic_hash(a), (seed, k)
        assert plain["stk"] == a["stk"] and plain["dec"] == a["dec"], (seed, k)
        assert nat.legal_ids(b) == py.legal_ids(a) and nat.legal_actions(b) == py.legal_actions(a)
        assert nat.current_player(b) == py.current_player(a)
        assert nat.recompute_decision(b) == a["dec"]  # a window's natively, a choice's from frames
        if py.is_terminal(a):
            assert nat.is_terminal(b)
            break
        i = py.random_choice(a, gen)
        try:
            py.apply_inplace(a, i)
        except GameRuntimeError as err:  # the same decision fails on native, said the same way
            with pytest.raises(GameRuntimeError) as got:
                nat.apply_inplace(b, i)
            assert (got.value.message, got.value.code, got.value.span) == (err.message, err.code, err.span)
            return k
        nat.apply_inplace(b, i)
        k += 1
    assert nat.ranking_keys(b) == py.ranking_keys(a)
    assert nat.scores(b) == py.scores(a) and nat.winners(b) == py.winners(a)
    return k


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("tricks", [1, 5, 6])
def test_high_card_random_games(players: int, tricks: int) -> None:
    py, nat = engines(load_game("high-card", {"tricks": tricks}))
    decisions = sum(play_both(py, nat, players, seed) for seed in range(1, GAMES + 1))
    assert decisions == GAMES * players * min(tricks, 24 // players)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rounds", [4, 9])  # 9: hands run out, turns are skipped
def test_reach_random_games(players: int, rounds: int) -> None:
    """The constructs beyond High Card (tests/native/games/reach: procedures, counters with keys,
    constant lists, ranges, clockwise_from, picked moves, top, player, a number parameter, while,
    take, turn.skip_if)."""
    py, nat = engines(load_game(HERE / "games" / "reach", {"rounds": rounds}))
    assert sum(play_both(py, nat, players, seed) for seed in range(1, GAMES + 1)) > GAMES * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_list_values_random_games(players: int) -> None:
    """tests/native/games/tally: lists as values (a list property, `let`, comprehensions, distinct,
    indexing, count, in, min, `[]`, lists through functions and procedures, mapping columns)."""
    py, nat = engines(load_game(HERE / "games" / "tally"))
    decisions = [play_both(py, nat, players, seed) for seed in range(1, GAMES + 1)]
    assert sum(decisions) >= GAMES * players * 4  # four rounds of a decision each (errors end early)


@pytest.mark.parametrize(("players", "style"), [(2, "calm"), (3, "wild"), (4, "wild,calm")])
def test_values_and_rules_random_games(players: int, style: str) -> None:
    """tests/native/games/powers: values with modifiers and rules with allows and denies, from a
    type and from cards, under the type's `active` (which the games' own moves switch on); a text
    option and symbol vars."""
    py, nat = engines(load_game(HERE / "games" / "powers", {"style": style}))
    decisions = sum(play_both(py, nat, players, seed) for seed in range(1, GAMES + 1))
    assert decisions >= GAMES * players * 8 - GAMES  # eight rounds of a decision each


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_checks_random_games(players: int) -> None:
    """tests/native/games/finale: end checks ending the game at once, after the turn and after
    final turns (the flow's ending words compared with the rest), turns without rounds."""
    py, nat = engines(load_game(HERE / "games" / "finale"))
    endings = set()
    for seed in range(1, 3 * GAMES + 1):
        play_both(py, nat, players, seed)
        st = py.new_game(players, seed)
        py.playout(st, rng.seed_state(seed + 0xB07))
        endings.add(st["t"]["ending"])
    assert {"after_turn", "final_turns"} <= endings


@pytest.mark.slow  # the fixture games loaded and compiled
def test_fixture_games_the_native_backend_holds() -> None:
    """Every fixture game is either played identically or refused with a reason (and counted)."""
    held = []
    for folder in sorted([*FIXTURES.iterdir(), *(HERE / "games").iterdir()]):
        game = load_game(folder)
        native, why = prepare(game)
        if native is None:
            assert "not in the native backend yet" in why or "construct" in why
            continue
        held.append(folder.name)
        py, nat = engines(game)
        for seed in range(1, 6):
            play_both(py, nat, game.min_players, seed)
    assert {"boom", "finale", "reach", "secrets", "lost-cities", "glimpse"} <= set(held)


def playouts_agree(py: Engine, nat: Engine, players: int, seed: int, limit: int) -> None:
    """Engine.playout in native code against the Python loop: the same decisions, generator words
    and state; stopped by a limit, the native state goes on as Python's does."""
    a, b = py.new_game(players, seed), nat.new_game(players, seed)
    ga, gb = rng.seed_state(seed), rng.seed_state(seed)
    assert py.playout(a, ga, limit) == nat.playout(b, gb, limit)
    assert ga == gb and semantic_hash(a) == semantic_hash(nat.plain(b)), (players, seed)
    if limit < 1000:
        assert nat.playout(b, gb) == py.playout(a, ga)
        assert semantic_hash(a) == semantic_hash(nat.plain(b))
    assert nat.ranking_keys(b) == py.ranking_keys(a) and nat.winners(b) == py.winners(a)


def replay_traces_natively(path: Path, most: int | None = None) -> int:
    """Replay the games of a trace file (at most `most`) on the native backend, checking that each
    recorded choice is legal, the state stays native and every hash equals the recorded one."""
    cfg, games = traces.read(path)
    game = load_game(cfg.game, cfg.options or None, cfg.variant, cfg.expansions)
    nat = Engine(game, backend="native")
    assert nat.backend == "native", nat.backend_note
    replayed = 0
    for trace in games:
        st = nat.new_game(cfg.players, trace.seed)
        assert semantic_hash(nat.plain(st)) == trace.hashes[0]
        for i, choice in enumerate(trace.choices, start=1):
            assert choice in nat.legal_ids(st)
            nat.apply_inplace(st, choice)
            assert st.plain is None  # type: ignore[attr-defined]  # it stayed native
            assert semantic_hash(nat.plain(st)) == trace.hashes[i], (trace.seed, i)
        replayed += 1
        if replayed == most:
            break
    return replayed


def test_recorded_traces_replay_on_native() -> None:
    assert replay_traces_natively(TRACES / "high-card_2p.jsonl.gz") > 0


def test_native_state_to_plain_and_back() -> None:
    game = load_game("high-card")
    py, nat = engines(game)
    st = nat.new_game(3, 11)
    for k in range(7):
        plain = nat.plain(st)
        back = nat.native.from_plain(plain)  # type: ignore[union-attr]
        assert nat.plain(back) == plain  # type: ignore[arg-type]  # frames included
        # a plain state goes on in Python exactly as the native one goes on natively
        cont = py.apply(plain, k % len(plain["dec"]["ids"]))
        nat.apply_inplace(st, k % len(plain["dec"]["ids"]))
        assert semantic_hash(nat.plain(st)) == semantic_hash(cont)
    assert nat.hash(st) == py.hash(nat.plain(st))
    # saves written from a native state load back into one
    loaded = nat.from_json(nat.to_json(st))
    assert loaded.__class__.__name__ == "NativeState" and nat.plain(loaded) == nat.plain(st)


def test_playout_in_native_code_draws_the_python_choices() -> None:
    game = load_game("high-card")
    py, nat = engines(game)
    for seed in range(1, 21):
        a, b = py.new_game(4, seed), nat.new_game(4, seed)
        ga, gb = rng.seed_state(seed), rng.seed_state(seed)
        assert py.playout(a, ga) == nat.playout(b, gb) == 20
        assert ga == gb and semantic_hash(a) == semantic_hash(nat.plain(b))
        assert nat.ranking_keys(b) == py.ranking_keys(a)


def test_clones_are_independent() -> None:
    _, nat = engines(load_game("high-card"))
    st = nat.new_game(2, 3)
    copy = nat.clone(st)
    nat.apply_inplace(st, 0)
    assert nat.hash(copy) != nat.hash(st)
    assert nat.plain(copy)["t"]["decisions"] == 0


def test_a_list_of_players_packs_into_one_word_and_back() -> None:
    """A list mark of players is one word (slots.pack_players): order and repeats kept, and what
    does not fit (a 16th seat, a seat past 14, none, a component list) refused, so such a state
    stays on the Python backend."""
    from tabula.interpreter.compile.native.slots import pack_players, unpack_players

    for seats in ([], [0], [3, 0, 3], [14] * 15, [1, 0, 2, 4]):
        assert unpack_players(pack_players(seats)) == seats
    assert pack_players([1, 0]) != pack_players([0, 1])
    for bad in ([0] * 16, [15], [None], [True], "0", None):
        with pytest.raises(ValueError):
            pack_players(bad)


@pytest.mark.parametrize("limit", [1 << 40, 2])
def test_playouts_in_one_native_call_play_as_playout(limit: int) -> None:
    """Engine.playouts (the games one after the other in one native call) against each game's
    Engine.playout on Python: the same decisions and generator words. tests/native/games/pick: a
    choice in setup (answered inline, where new_game stops at it), choices inside effects; a limit
    that falls inside a segment stops native code, and that game is played again alone."""
    game = load_game(HERE / "games" / "pick")
    py, nat = engines(game)
    assert nat.native is not None
    seeds = list(range(1, 13))
    for players in (2, 3):
        ga = [rng.seed_state(seed + 0xB07) for seed in seeds]
        gb = [rng.seed_state(seed + 0xB07) for seed in seeds]
        took = [py.playout(py.new_game(players, seed), g, limit) for seed, g in zip(seeds, ga, strict=True)]
        assert nat.playouts(players, seeds, gb, limit=limit) == took and ga == gb
        names = nat.new_game(players).names  # type: ignore[attr-defined]
        start = nat.native.start_state(names, dict(game.options), lambda n=names: new_state(game, n, 1, {}))
        gc = [rng.seed_state(seed + 0xB07) for seed in seeds]
        again = nat.native.playouts(start, seeds, gc, game.work_budget, limit)
        assert (None in again) == (limit < 100), again  # native code stopped inside a segment
    assert py.playouts(2, [3], [rng.seed_state(3)]) == nat.playouts(2, [3], [rng.seed_state(3)])
