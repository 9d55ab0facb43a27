"""Any Tabula game as a PettingZoo AEC environment: `TabulaEnv("porta-nigra", players=3)`.

Agents are `player_0` .. `player_{N-1}` in seat order. Each observation is a dict: `observation`
(the tensor of `tabula.rl.encoding`, from the agent's own view) and `action_mask` (1 at the stable
action index of each legal choice of the agent, 0 elsewhere; all 0 when it is not the agent's
turn). Actions are `Discrete(num_actions)`. The same agent may act several times in a row (Tabula
games have windows of several actions). Rewards come at the end: `Engine.returns` (1 for each
winner, 0 for the others); a game still going after `max_game_length` decisions is truncated with
rewards 0. `reset(seed=s)` starts the engine with seed `s`; without a seed, the environment draws
one from its own generator (seeded by the last `reset(seed=...)`); `reset`'s `options` are not
used (rules options are chosen when the environment is made). `render()` returns the
current agent's view as text (render mode `ansi`), `infos[agent]["choices"]` lists the legal
choice ids of the agent to move.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tabula.rl.actions import DEFAULT_NUMBERS
from tabula.rl.encoding import Encoder
from tabula.rl.match import DEFAULT_MAX_LENGTH, Match, Ruleset, Setup
from tabula.rl.native import NativeRL, observation
from tabula.rl.text import observation_string


class TabulaEnv(AECEnv):  # type: ignore[misc]
    """A Tabula game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"name": "tabula_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str = "high-card",
        players: int = 0,
        variant: str = "",
        expansions: tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
        numbers: tuple[int, int] = DEFAULT_NUMBERS,
        max_game_length: int = DEFAULT_MAX_LENGTH,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        setup = Setup(game, variant, tuple(expansions), tuple(sorted((options or {}).items())), numbers)
        self.rules = Ruleset.get(setup)
        g = self.rules.game
        n = players or g.min_players
        if not g.min_players <= n <= g.max_players:
            raise ValueError(f"{g.name} is for {g.min_players}-{g.max_players} players, not {n}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render mode '{render_mode}' is not supported (modes: ansi)")
        self.render_mode = render_mode
        self.n = n
        self.max_length = max_game_length
        self.encoder = Encoder(g, n)
        # the observation in C when the game runs natively (tabula.rl.native), else from the view
        self.native, _ = NativeRL.get(self.rules.engine, self.rules.index, self.rules.seat_names(n))
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.rules.index.size
        low, high = self._bounds()
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(size)
        self._rng = random.Random()
        self.match: Match | None = None

    def _bounds(self) -> tuple[np.ndarray[Any, np.dtype[np.float32]], np.ndarray[Any, np.dtype[np.float32]]]:
        """Counters, numbers and positions are unbounded; every other entry is a flag or a count >= 0."""
        low = np.zeros(self.encoder.size, np.float32)
        high = np.full(self.encoder.size, np.inf, np.float32)
        at = 0
        for name, width in self.encoder.pieces:
            if name in ("counters", "vars", "marks"):
                low[at : at + width] = -np.inf  # values of the game: any integer
            at += width
        return low, high

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space  # the same object each time, as PettingZoo asks

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # ------------------------------------------------------------ the AEC protocol
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        else:
            seed = self._rng.randrange(1 << 62)
        self.match = Match.start(self.rules, self.n, seed, self.max_length)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the player to move and tell them their choices."""
        m = self._match()
        p = m.current_player()
        if p is not None:
            self.agent_selection = self.possible_agents[p]
            for a in self.agents:
                self.infos[a] = {"choices": list(m.legal().values())} if a == self.agent_selection else {}

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def observe(self, agent: str) -> dict[str, Any]:
        m = self._match()
        p = self._seat[agent]
        mask = np.zeros(self.rules.index.size, np.int8)
        if m.current_player() == p:
            mask[list(m.legal())] = 1
        obs = observation(self.rules.engine, self.native, self.encoder, m.st, p)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self._match()
        if action is None:
            raise ValueError(f"{agent} must choose an action: the game is not over for them")
        self._cumulative_rewards[agent] = 0.0
        m.apply(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if m.is_over():
            returns = m.returns()
            truncated = m.truncated()
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
                self.infos[a] = {}
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        m = self._match()
        p = self._seat[self.agent_selection]
        return observation_string(self.rules.game, m.view(p))

    def close(self) -> None:
        self.match = None
