"""Tabula games as PettingZoo AEC environments: PettingZoo's own api_test on every bundled game and
player count, and what the environment promises beyond it."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from tabula.rl.pettingzoo import TabulaEnv  # noqa: E402

PLAYERS = {"high-card": [2, 3, 4], "porta-nigra": [2, 3, 4], "glory-to-rome": [2, 3, 4, 5], "coup": [2, 6]}
CASES = [(g, n) for g, counts in PLAYERS.items() for n in counts]


def _api_test(env: TabulaEnv, cycles: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo advises a bare Box observation; an action mask needs a Dict (as its own
        # classic games do), and that is all these two warnings say
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(env, num_cycles=cycles)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_api_test(name: str, players: int) -> None:
    _api_test(TabulaEnv(name, players), 1000)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS["glory-to-rome"])
def test_api_test_without_surrender(players: int) -> None:
    _api_test(TabulaEnv("glory-to-rome", players, options={"surrender_allowed": False}), 2000)


def _play(env: TabulaEnv, seed: int) -> list[tuple[str, list[int], float]]:
    """A random game: (agent, legal actions, reward) at each turn."""
    env.reset(seed=seed)
    gen = np.random.default_rng(seed)
    out = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        out.append((agent, legal, float(reward)))
        env.step(None if terminated or truncated else int(gen.choice(legal)))
    return out


def test_seeded_resets_repeat() -> None:
    env = TabulaEnv("porta-nigra", 3)
    assert _play(env, 5) == _play(env, 5)
    assert _play(env, 5) != _play(env, 6)


def test_masks_and_infos_name_the_legal_choices() -> None:
    env = TabulaEnv("high-card", 3)
    env.reset(seed=1)
    agent = env.agent_selection
    m = env.match
    assert m is not None
    mask = env.observe(agent)["action_mask"]
    assert sorted(np.flatnonzero(mask)) == sorted(m.legal())
    assert sorted(env.infos[agent]["choices"]) == sorted(m.rules.engine.legal_ids(m.st))
    other = next(a for a in env.agents if a != agent)
    assert not env.observe(other)["action_mask"].any()
    assert env.infos[other] == {}


def test_rewards_are_the_engine_returns() -> None:
    env = TabulaEnv("high-card", 2)
    turns = _play(env, 3)
    final = {agent: reward for agent, _, reward in turns[-2:]}
    m = env.match
    assert m is not None and m.is_over()
    assert [final[f"player_{p}"] for p in range(2)] == m.returns()
    assert sum(final.values()) >= 1.0


def test_truncation() -> None:
    env = TabulaEnv("porta-nigra", 2, max_game_length=4)
    turns = _play(env, 0)
    assert len(turns) == 4 + 2  # four decisions, then each agent's last look
    assert all(reward == 0.0 for _, _, reward in turns)
    assert env.agents == []


def test_render_and_bad_arguments() -> None:
    env = TabulaEnv("high-card", 2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and text.startswith("High Card: seen by North")
    with pytest.raises(ValueError, match="for 2-4 players"):
        TabulaEnv("high-card", 5)
    with pytest.raises(ValueError, match="render mode"):
        TabulaEnv("high-card", 2, render_mode="human")
    with pytest.raises(ValueError, match="unknown rules option"):
        TabulaEnv("high-card", 2, options={"nope": 1})
    with pytest.raises(ValueError, match="not legal now"):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0]))
