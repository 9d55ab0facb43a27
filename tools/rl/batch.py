"""N games stepped at once into numpy arrays, as Pgx and EnvPool do: `BatchEnv("porta-nigra", 2, 64)`.

`reset(seeds)` starts one game per seed; `step(actions)` makes one choice in every game (an index
of the stable action index, `tabula.rl.actions`, legal for the player to move) and returns a
`Batch` of arrays, each row one game:

- `observation` (N x obs_size float32): the tensor of `tabula.rl.encoding` for the player to move,
  from that player's view (nothing hidden from them is in it);
- `action_mask` (N x num_actions int8): 1 at the index of each legal choice of that player;
- `current_player` (N int64): the seat to move (-1: the game is over);
- `reward` (N x players float32): `Engine.returns` on the step that ends a game, else 0 (a game
  past `max_game_length` decisions is truncated with rewards 0);
- `terminated`, `truncated` (N bool): the game ended on this step.

With `auto_reset` (the default) a game that ended starts again at once with the next seed of its
row's generator (seeded by its `reset` seed): its row then shows the new game's first decision,
and `reward`, `terminated`, `truncated` still tell how the old one ended. Without it, a game that
ended keeps its final state (its row: the view of the player who made the last choice, mask all 0)
until `reset`. The arrays are the environment's own buffers, overwritten by the next call: copy
what you keep.

On the native backend the whole step (the rules, the observation and the mask) runs in C, in one
call for the batch (`tabula.rl.native`); a game that is not native, or a decision native code hands
back to Python, is stepped and encoded on Python for that row, with the same results.
"""

from __future__ import annotations

import ctypes
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tabula.rl.actions import DEFAULT_NUMBERS, IdMapper
from tabula.rl.encoding import Encoder
from tabula.rl.match import DEFAULT_MAX_LENGTH, Ruleset, Setup
from tabula.rl.native import NativeRL, observation

_OK, _OVER, _FAILED = 0, 1, 3
_ILLEGAL = 1  # runtime/tabula.h E_ILLEGAL


class Batch(NamedTuple):
    """What `reset` and `step` return (see the module docstring)."""

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    current_player: npt.NDArray[np.int64]
    reward: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


class BatchEnv:
    """`num_envs` games of one rule set and player count, stepped together (module docstring)."""

    def __init__(
        self,
        game: str = "high-card",
        players: int = 0,
        num_envs: int = 1,
        variant: str = "",
        expansions: tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
        numbers: tuple[int, int] = DEFAULT_NUMBERS,
        max_game_length: int = DEFAULT_MAX_LENGTH,
        auto_reset: bool = True,
        backend: str = "native",
    ) -> None:
        setup = Setup(game, variant, tuple(expansions), tuple(sorted((options or {}).items())), numbers)
        self.rules = Ruleset.get(setup)
        g = self.rules.game
        n = players or g.min_players
        if not g.min_players <= n <= g.max_players:
            raise ValueError(f"{g.name} is for {g.min_players}-{g.max_players} players, not {n}")
        if num_envs < 1:
            raise ValueError(f"num_envs: at least one game, not {num_envs}")
        self.players = n
        self.num_envs = num_envs
        self.names = self.rules.seat_names(n)
        self.max_length = max_game_length
        self.auto_reset = auto_reset
        self.engine = self.rules.engine if backend == "native" else self.rules.python_engine
        self.encoder = Encoder(g, n)
        self.ids = IdMapper(self.rules.index, self.names)
        self.native, self.note = NativeRL.get(self.engine, self.rules.index, self.names)
        self.obs_size = self.encoder.size
        self.num_actions = self.rules.index.size
        size = num_envs
        self.obs = np.zeros((size, self.obs_size), np.float32)
        self.mask = np.zeros((size, self.num_actions), np.int8)
        self.player = np.full(size, -1, np.int64)
        self.reward = np.zeros((size, n), np.float32)
        self.terminated = np.zeros(size, np.bool_)
        self.truncated = np.zeros(size, np.bool_)
        self._status = np.zeros(size, np.int64)
        self._code = np.zeros(size, np.int64)
        self._chosen = np.zeros(size, np.int64)
        self._ptrs = (ctypes.c_void_p * size)()
        self._rows_at = np.arange(size)
        self.states: list[Any] = [None] * size
        self._depth = np.zeros(size, np.int64)  # decisions taken in each row's game
        self._native = np.zeros(size, np.bool_)  # the row is stepped in C (its pointer is set)
        self._legal: list[dict[int, str]] = [{} for _ in range(size)]  # rows on Python: index -> id
        self._rngs = [random.Random(0) for _ in range(size)]

    # ------------------------------------------------------------ the API
    def reset(self, seeds: Sequence[int]) -> Batch:
        """A new game in every row, row i started with engine seed `seeds[i]`."""
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset: {self.num_envs} seeds are needed, got {len(seeds)}")
        for i, seed in enumerate(seeds):
            self._rngs[i] = random.Random(int(seed))
            self._start(i, int(seed))
        self.reward.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        self._rows(range(self.num_envs))
        return self._batch()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Batch:
        """One choice in every row (an action index legal for the player to move)."""
        acts = np.ascontiguousarray(actions, np.int64)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"step: {self.num_envs} actions are needed, got shape {acts.shape}")
        inside = (acts >= 0) & (acts < self.num_actions)
        legal = inside & (self.mask[self._rows_at, np.where(inside, acts, 0)] == 1)
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(self._illegal(bad, int(acts[bad])))
        nat = self.native
        self.reward.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        actor = self.player.copy()
        self._status.fill(_OK)
        if nat is not None:
            at = 0
            while at < self.num_envs:
                stop = nat.lib.rl_step(
                    self._ptrs,
                    self.num_envs,
                    at,
                    acts.ctypes.data,
                    self._chosen.ctypes.data,
                    nat.table_p,
                    nat.apply_p,
                    nat.nocopy_p,
                    self.engine.game.work_budget,
                    ctypes.addressof(nat.nat.before),
                    self.obs.ctypes.data,
                    self.mask.ctypes.data,
                    self.num_actions,
                    self.player.ctypes.data,
                    self._status.ctypes.data,
                    self._code.ctypes.data,
                )
                if stop < self.num_envs:  # native code stopped: the decision again, on Python
                    ns = self.states[stop]
                    if self._code[stop] == _ILLEGAL:  # the mask said legal: never, unless it was written to
                        raise ValueError(self._illegal(stop, int(acts[stop])) + " (was the mask changed?)")
                    nat.nat.restore(ns)
                    self.engine.apply_inplace(ns, int(self._chosen[stop]))
                at = stop + 1
        on_python = np.flatnonzero(~self._native)
        for i in on_python:
            self.engine.apply_inplace(self.states[i], self._legal[i][int(acts[i])])
        self._depth += 1
        todo = ~self._native | (self._status != _OK) | (self._depth >= self.max_length)
        self._finish([int(i) for i in np.flatnonzero(todo)], actor)
        return self._batch()

    # ------------------------------------------------------------ rows
    def _start(self, i: int, seed: int) -> None:
        self._depth[i] = 0
        st = self.states[i]
        if self.native is not None and self.native.live(st) and self.native.restart(st, seed):
            return  # the row's own words, started again in place
        self.states[i] = self.engine.new_game(list(self.names), seed, self.rules.options or None)

    def _finish(self, rows: list[int], actor: npt.NDArray[np.int64]) -> None:
        """Rows that ended, or whose state is on Python: rewards, a new game, their arrays."""
        fresh = []
        for i in rows:
            st = self.states[i]
            over = self.engine.is_terminal(st)
            if not over and self._depth[i] < self.max_length:
                fresh.append(i)
                continue
            if over:
                self.reward[i] = self.engine.returns(st)
                self.terminated[i] = True
            else:
                self.truncated[i] = True
            if self.auto_reset:
                self._start(i, self._rngs[i].randrange(1 << 62))
                fresh.append(i)
            else:
                self._final_row(i, int(actor[i]))
        self._rows(fresh)

    def _final_row(self, i: int, actor: int) -> None:
        self.player[i] = -1
        self.mask[i] = 0
        self._ptrs[i] = None
        self._native[i] = False
        self._legal[i] = {}
        observation(self.engine, self.native, self.encoder, self.states[i], max(actor, 0), self.obs[i])

    def _rows(self, rows: Sequence[int]) -> None:
        """Observation, mask and player of these rows (in C where their state is native words)."""
        nat = self.native
        for i in rows:
            st = self.states[i]
            if self.engine.is_terminal(st):  # a game over at its start, or kept over
                self._final_row(i, 0)
                continue
            p = self.engine.current_player(st)
            assert p is not None
            self.player[i] = p
            if nat is not None and nat.live(st):
                nat.observe(st, p, self.obs[i])
                if nat.mask(st, self.mask[i]):
                    self._ptrs[i] = ctypes.addressof(st.words)
                    self._native[i] = True
                    continue
            else:
                observation(self.engine, nat, self.encoder, st, p, self.obs[i])
            self._ptrs[i] = None  # stepped on Python: its ids named there
            self._native[i] = False
            self._legal[i] = self.ids.legal(self.engine.legal_ids(st))
            self.mask[i] = 0
            self.mask[i, list(self._legal[i])] = 1

    def _illegal(self, i: int, action: int) -> str:
        if self.player[i] < 0:
            return f"row {i}: the game is over (reset it, or use auto_reset)"
        where = (
            f"({self.rules.index.id_of(action, self.names)})"
            if 0 <= action < self.num_actions
            else "(no such index)"
        )
        return f"row {i}: action {action} {where} is not legal now"

    def _batch(self) -> Batch:
        return Batch(self.obs, self.mask, self.player, self.reward, self.terminated, self.truncated)
