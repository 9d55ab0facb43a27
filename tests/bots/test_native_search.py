"""Issue 23, item 4: the search bots on the native backend. Worlds are dealt straight into native
words and convert to exactly the worlds `determinize` deals; the bots' evaluation runs in native
code with the values Python gives; a search with a playout budget chooses as it does on Python
(the same worlds, moves, rollouts and rewards); a rule failing inside a native playout is reported
with the choices replayed on Python."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabula.bots.base import Observation, PlayoutFailure, bot_generator
from tabula.bots.evaluation import Evaluation
from tabula.bots.native_search import NativeSearch
from tabula.bots.spec import make_bot
from tabula.interpreter.compile.native.deal import NativeDeal
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.determinize import determinize
from tabula.interpreter.run.runtime import GameRuntimeError

BOOM = Path(__file__).resolve().parents[1] / "native" / "games" / "boom"


def native(name: str | Path) -> Engine:
    engine = Engine(load_game(name), backend="native")
    assert engine.backend == "native", engine.backend_note
    return engine


def window_states(engine: Engine, seed: int, players: int, steps: int) -> list[tuple[Any, int]]:
    """(state, seat to decide) at the windows of one random game, every third decision."""
    st, gen, out = engine.new_game(players, seed), bot_generator(seed), []
    for k in range(steps):
        if engine.is_terminal(st):
            break
        if k % 3 == 0 and not engine.native.choosing(st):  # type: ignore[union-attr]
            out.append((engine.clone(st), int(engine.current_player(st))))  # type: ignore[arg-type]
        engine.apply_inplace(st, engine.random_choice(st, gen))
    return out


def even_places(c: int, zi: int, pos: int) -> bool | None:
    """A `bots: deal:`-like constraint: odd places take odd components where one is left."""
    return None if zi % 2 else (c % 2 == pos % 2)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["porta-nigra", "high-card"])
@pytest.mark.parametrize("fits", [None, even_places])
def test_a_native_deal_is_the_world_determinize_deals(game: str, fits: Any) -> None:
    engine = native(game)
    nat = engine.native
    assert nat is not None
    checked = 0
    for seed, players in ((1, 2), (2, 4)):
        for st, seat in window_states(engine, seed, players, 90):
            plain = engine.plain(st)
            deal = NativeDeal(engine.game, nat, plain, seat, fits)
            reuse = None
            for k in range(2):
                g1, g2 = bot_generator(100 * seed + k), bot_generator(100 * seed + k)
                world = deal.deal(g1, reuse)
                assert nat.to_plain(world) == determinize(engine.game, plain, seat, g2, fits)
                assert g1 == g2  # the same draws
                reuse = world
                checked += 1
    assert checked > 20


def test_a_world_inside_an_effect_is_dealt_plain_without_a_native_deal() -> None:
    """Glory to Rome decides inside procedures: there a native deal's worlds are for native search
    trees only, so a bot's world is `determinize`'s plain one, and no deal is built for it (it cost
    greedy:1:depth=1 more than half of its time a decision)."""
    engine = native("glory-to-rome")
    nat = engine.native
    assert nat is not None
    st, gen, inside = engine.new_game(2, 4), bot_generator(4), 0
    for _ in range(40):
        seat = int(engine.current_player(st))  # type: ignore[arg-type]
        obs = Observation(engine, st, seat)
        world = obs.world(bot_generator(7))
        if nat.choosing(st):
            inside += 1
            assert obs._native_deal is None  # the deal was not built
            assert world == determinize(engine.game, engine.plain(st), seat, bot_generator(7))
        engine.apply_inplace(st, engine.random_choice(st, gen))
    assert inside > 10


@pytest.mark.slow
def test_the_native_evaluation_is_pythons() -> None:
    engine = native("porta-nigra")
    assert engine.native is not None and engine.native.has_evaluation
    ev = Evaluation(engine)
    for st, _ in window_states(engine, 3, 3, 120):
        got = engine.native_evaluation(st)
        assert got is not None
        assert ev.values(st) == ev.values(engine.plain(st)) == [float(v) for v in got]


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["ismcts:40", "mcts:30", "greedy:2", "ismcts:20:rollout=greedy:depth=3"])
def test_a_search_on_native_chooses_as_on_python(spec: str) -> None:
    nat = native("porta-nigra")
    py = Engine(nat.game)
    for (st, seat), gen_seed in zip(window_states(nat, 5, 2, 40), range(4), strict=False):
        g_nat, g_py = bot_generator(gen_seed), bot_generator(gen_seed)
        a = make_bot(spec, nat).choose(Observation(nat, st, seat), g_nat)
        b = make_bot(spec, py).choose(Observation(py, nat.plain(st), seat), g_py)
        assert (a, g_nat) == (b, g_py)


@pytest.mark.slow
def test_a_rule_failing_in_a_native_playout_is_replayed_on_python() -> None:
    failures = []
    for engine in (native(BOOM), Engine(load_game(BOOM))):
        st = engine.new_game(2, 1)
        with pytest.raises(PlayoutFailure) as caught:
            make_bot("ismcts:50", engine).choose(Observation(engine, st, 0), bot_generator(7))
        failures.append(caught.value)
    on_native, on_python = failures
    assert (on_native.world_gen, on_native.choices) == (on_python.world_gen, on_python.choices)
    err = on_native.error
    assert isinstance(err, GameRuntimeError) and err.code in ("R006", "R009") and err.span is not None
    # the world and choices it names fail again, at the last choice, on the Python backend
    py = Engine(load_game(BOOM))
    world = Observation(py, py.new_game(2, 1), 0).determinize(list(on_native.world_gen))
    for choice in on_native.choices[:-1]:
        py.apply_inplace(world, choice)
    with pytest.raises(GameRuntimeError) as again:
        py.apply_inplace(world, on_native.choices[-1])
    assert again.value.code == err.code


@pytest.mark.slow
def test_hanabi_searches_natively_as_on_python() -> None:
    """Hanabi's `bots: deal:` conditions (what each player was told) deal natively (runtime tb_deal
    as determinize's _deal_fitting), and its clues (`tell_rank:Bob,1`: a player, then a number)
    are native tree keys: the same visits, move and generator words as the Python tree."""
    nat = native("hanabi")
    py = Engine(nat.game)
    checked = 0
    for (st, seat), gen_seed in zip(window_states(nat, 2, 2, 24), range(2), strict=False):
        g_nat, g_py = bot_generator(gen_seed), bot_generator(gen_seed)
        obs = Observation(nat, st, seat)
        on_native, on_python = make_bot("ismcts:25", nat), make_bot("ismcts:25", py)
        a = on_native.choose(obs, g_nat)
        assert obs.native_deal() is not None and obs.native_deal().fits is not None  # type: ignore[union-attr]
        s = on_native.settings  # type: ignore[attr-defined]
        assert NativeSearch.make(nat, obs, on_native.evaluation, s.depth, s.rollout, True) is not None  # type: ignore[attr-defined]
        b = on_python.choose(Observation(py, nat.plain(st), seat), g_py)
        assert (a, g_nat, on_native.visits) == (b, g_py, on_python.visits)
        checked += any(i.startswith("tell_rank:") for i in on_native.visits)
    assert checked


@pytest.mark.slow
def test_a_simultaneous_step_searches_natively_as_on_python() -> None:
    """Sushi Go's picks are a simultaneous step: a seat searching after another answered searches in
    native code (the true segment replayed to its decision, the dealt world replacing its words;
    the other's answer never read), with the same visits, move and generator words as Python's tree
    on its plain state (the others' answers hidden)."""
    nat = native("sushi-go")
    py = Engine(nat.game)
    st, gen, after_another = nat.new_game(3, 3), bot_generator(3), 0
    for k in range(12):
        plain, seat = nat.plain(st), int(nat.current_player(st))  # type: ignore[arg-type]
        if k % 3 == 1:
            obs = Observation(nat, st, seat)
            on_native, on_python = make_bot("ismcts:20", nat), make_bot("ismcts:20", py)
            s = on_native.settings  # type: ignore[attr-defined]
            assert NativeSearch.make(nat, obs, on_native.evaluation, s.depth, s.rollout, True) is not None  # type: ignore[attr-defined]
            g_nat, g_py = bot_generator(k), bot_generator(k)
            a = on_native.choose(obs, g_nat)
            b = on_python.choose(Observation(py, plain, seat), g_py)
            assert (a, g_nat, on_native.visits) == (b, g_py, on_python.visits)
            after_another += any(q != seat for q, _ in plain["t"]["sim"]["a"])
        nat.apply_inplace(st, nat.random_choice(st, gen))
    assert after_another


@pytest.mark.slow
def test_placements_are_native_tree_keys() -> None:
    """Patchwork asks where a patch goes (a placement: one word natively, its cells' names joined
    with + as an id): the native tree keys it by its word and names it by its cells, with the same
    visits, move and generator words as the Python tree."""
    nat = native("patchwork")
    py = Engine(nat.game)
    st, gen, placed = nat.new_game(2, 3), bot_generator(3), 0
    for k in range(11):
        plain, seat = nat.plain(st), int(nat.current_player(st))  # type: ignore[arg-type]
        if plain["dec"]["k"] == "choose" and len(plain["dec"]["ids"]) > 1:
            obs = Observation(nat, st, seat)
            on_native, on_python = make_bot("ismcts:15", nat), make_bot("ismcts:15", py)
            s = on_native.settings  # type: ignore[attr-defined]
            assert NativeSearch.make(nat, obs, on_native.evaluation, s.depth, s.rollout, True) is not None  # type: ignore[attr-defined]
            g_nat, g_py = bot_generator(k), bot_generator(k)
            a = on_native.choose(obs, g_nat)
            b = on_python.choose(Observation(py, plain, seat), g_py)
            assert (a, g_nat, on_native.visits) == (b, g_py, on_python.visits)
            placed += "+" in a
        nat.apply_inplace(st, nat.random_choice(st, gen))
    assert placed
