"""Issue 36: one-ply greedy's children in native code (bots/native_greedy.py). At a decision inside
an effect (most of Glory to Rome's) and at a window, the world native code deals and each choice
applied to it give the utilities the Python lookahead gives on the plain world `determinize` deals
from the same generator words, and the tie-break's random continuations too; so a game of one-ply
greedy makes the same choices with native children as without."""

from __future__ import annotations

from typing import Any

import pytest

from tabula.bots.base import Observation, bot_generator
from tabula.bots.native_greedy import NativeGreedy
from tabula.bots.simple import TIE_BREAK_DECISIONS, GreedyBot
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game


def native(name: str) -> Engine:
    engine = Engine(load_game(name), backend="native")
    assert engine.backend == "native", engine.backend_note
    return engine


def positions(engine: Engine, seed: int, steps: int) -> list[tuple[Any, int]]:
    """(state, seat to decide) at the decisions with a real choice of a random game: every one
    inside an effect, every fifth window."""
    st, gen, out = engine.new_game(2, seed), bot_generator(seed), []
    for k in range(steps):
        if engine.is_terminal(st):
            break
        inside = engine.native.choosing(st)  # type: ignore[union-attr]
        if (inside or k % 5 == 0) and len(engine.legal_ids(st)) > 1:
            out.append((engine.clone(st), int(engine.current_player(st))))  # type: ignore[arg-type]
        engine.apply_inplace(st, engine.random_choice(st, gen))
    return out


@pytest.mark.slow  # about 2 s: 60 positions of Glory to Rome, each choice applied twice on Python
def test_native_children_are_the_python_lookahead_s() -> None:
    engine = native("glory-to-rome")
    bot = GreedyBot(engine, "greedy:1:depth=1", samples=1, depth=1)
    fast = NativeGreedy(engine, bot.evaluation)
    inside = 0
    for st, seat in positions(engine, 3, 300):
        obs = Observation(engine, st, seat)
        assert fast.ready(obs)
        inside += engine.native.choosing(st)  # type: ignore[union-attr]
        n = len(obs.legal_ids)
        gen = rng.seed_state(seat + 7)
        native_gen, python_gen = list(gen), list(gen)
        values = fast.values(native_gen, seat, n)
        world = obs.determinize(python_gen)  # plain: its lookahead runs on Python
        assert native_gen == python_gen
        assert values == bot._lookahead(world, seat, n)
        draws = rng.seed_state(seat + 11)
        tied = fast.continued(list(gen), seat, n, draws, TIE_BREAK_DECISIONS)
        assert tied == [bot._continued(world, seat, i, list(draws)) for i in range(n)]
    assert inside >= 10  # decisions inside an effect: worlds replayed from the true segment


@pytest.mark.slow  # about 3 s: a Patchwork game and part of a Glory to Rome game, each twice
@pytest.mark.parametrize("game", ["glory-to-rome", "patchwork"])
def test_greedy_chooses_the_same_with_native_children(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = native(game)

    def play(decisions: int) -> list[str]:
        bot = GreedyBot(engine, "greedy:1:depth=1", samples=1, depth=1)
        st, gen, made = engine.new_game(2, 5), bot_generator(5), []
        while not engine.is_terminal(st) and len(made) < decisions:
            seat = int(engine.current_player(st))  # type: ignore[arg-type]
            made.append(bot.choose(Observation(engine, st, seat), gen))
            engine.apply_inplace(st, made[-1])
        return made

    fast = play(150)
    monkeypatch.setattr(NativeGreedy, "ready", lambda self, obs, judged=True: False)
    assert play(150) == fast
