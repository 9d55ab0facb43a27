"""Speed of the RL adapters (pytest-benchmark; timing off by default, measure with
`pytest tests/benchmarks/test_rl_speed.py --benchmark-enable`): a random Porta Nigra game through
OpenSpiel (legal actions and apply only), the same with an observation tensor at every decision,
and through PettingZoo (observation and action mask at every decision). Compare with
`test_speed.py::test_random_games` for the engine alone."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from tabula.rl.openspiel import load  # noqa: E402
from tabula.rl.pettingzoo import TabulaEnv  # noqa: E402


def _openspiel_game(game: Any, seed: int, observe: bool) -> Any:
    state = game.state_with_seed(seed)
    gen = np.random.default_rng(seed)
    while not state.is_terminal():
        if observe:
            state.observation_tensor(state.current_player())
        state.apply_action(int(gen.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("observe", [False, True], ids=["bare", "observed"])
def test_openspiel_random_games(benchmark: Any, observe: bool) -> None:
    game = load("porta-nigra", 2)
    seeds = iter(range(1, 1_000_000))
    state = benchmark(lambda: _openspiel_game(game, next(seeds), observe))
    assert state.is_terminal()


def _pettingzoo_game(env: TabulaEnv, seed: int) -> TabulaEnv:
    env.reset(seed=seed)
    gen = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(gen.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def test_pettingzoo_random_games(benchmark: Any) -> None:
    env = TabulaEnv("porta-nigra", 2)
    seeds = iter(range(1, 1_000_000))
    done = benchmark(lambda: _pettingzoo_game(env, next(seeds)))
    assert done.agents == []
