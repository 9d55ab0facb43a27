"""One game of `tabula soak`: a random game played with its checks, and what they found.

A game is its configuration (variant or expansion, player count: both picked from the seed, so
`--seed S --games 1` plays game S again alone), its seed and the indices of the choices taken (drawn
with the bots' own generator, `bot_generator(seed)`). The checks are drawn from a generator of their
own, so that they never change the choices:

- at a random decision now and then (each with chance 1/`every`, at most `most` a game) and at the
  end: the state is saved and loaded back; the save of the loaded state must be the same text, and
  the loaded state must pose the same decision (legal ids; the decision recomputed from its frames
  is the one posed);
- at every `views`-th of those checks: every player's view must be the same on the loaded state, be
  plain JSON, and not change when two components hidden from that player trade places (the swap
  test: a view that changed shows something the player may not know);
- the first check's clone and loaded state are played on with the game's own remaining choices:
  both must end in the same state as the game (and the game must not change while they move);
- at the end, the game replayed from its seed and choices ends in the same state;
- every `python`-th game is played on the Python backend as well, with the same choices, its state
  compared at every decision (the whole plain state, frames included) and its scores at the end.

A failure stops the game's checks and says what differed: the decision, the check, and the first
place where two states differ (`first_difference`).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.bots.base import bot_generator
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.load.overlay import list_packs
from tabula.interpreter.model.state import State, state_hash
from tabula.interpreter.model.view import visible_to

CHECK_SALT = 104729  # the checks' generator: seed * CHECK_SALT + 3, apart from the bots' one


@dataclass(frozen=True)
class Plan:
    """What a soak runs (picklable: the workers receive it)."""

    game: str
    backend: str = "native"
    every: int = 16  # a decision is checked with chance 1/every
    most: int = 3  # checks at random decisions, at most, per game (the end is checked besides)
    views: int = 2  # views and swap tests at every views-th check
    python: int = 50  # every python-th game (by seed) is compared with the Python backend; 0: none
    max_decisions: int = 5000


@dataclass
class Outcome:
    """What one game did: its counts, and its failure (None when every check held)."""

    seed: int
    label: str = ""
    decisions: int = 0
    finished: bool = False
    saves: int = 0
    views: int = 0
    swaps: int = 0
    played_on: int = 0
    replays: int = 0
    compared: int = 0  # decisions compared with the Python backend
    failure: str | None = None
    backend: str = ""


class Failed(Exception):
    """A check that did not hold: what differed."""


@dataclass
class Setup:
    """A worker's configurations, each loaded (and its engines made) when a game first needs it."""

    game: str
    backend: str
    configurations: list[tuple[str | None, tuple[str, ...]]]
    labels: list[str] = field(default_factory=list)
    loaded: dict[int, tuple[Engine, Engine]] = field(default_factory=dict)  # (soaked, Python)

    def engines(self, k: int) -> tuple[Engine, Engine]:
        """The engines of configuration k: the backend soaked, and Python's."""
        if k not in self.loaded:
            variant, expansions = self.configurations[k]
            game = load_game(self.game, None, variant, expansions)
            self.loaded[k] = (Engine(game, backend=self.backend), Engine(game))
        return self.loaded[k]


_SETUPS: dict[tuple[str, str], Setup] = {}


def configurations(game: str) -> list[tuple[str | None, tuple[str, ...]]]:
    """The base game, each shipped variant alone and each expansion alone."""
    folder = load_game(game).folder
    packs = list_packs(Path(folder))
    out: list[tuple[str | None, tuple[str, ...]]] = [(None, ())]
    out += [(pack, ()) for pack, kind, _, _ in packs if kind == "variant"]
    out += [(None, (pack,)) for pack, kind, _, _ in packs if kind == "expansion"]
    return out


def setup(plan: Plan) -> Setup:
    """The configurations of the plan's game (cached in this process; the base game loaded)."""
    key = (plan.game, plan.backend)
    if key not in _SETUPS:
        configs = configurations(plan.game)
        labels = ["+".join([plan.game, *([v] if v else []), *x]) for v, x in configs]
        _SETUPS[key] = Setup(plan.game, plan.backend, configs, labels)
    return _SETUPS[key]


def pick(s: Setup, seed: int) -> tuple[int, int]:
    """The configuration and player count of the game with this seed."""
    k = seed % len(s.configurations)
    g = s.engines(k)[0].game
    counts = range(g.min_players, g.max_players + 1)
    return k, counts[(seed // len(s.configurations)) % len(counts)]


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two plain values first differ, and both values there (shortened)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}: present in {'the second' if k in b else 'the first'} only"
            if a[k] != b[k]:
                return first_difference(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path}: {len(a)} items against {len(b)}"
    return f"{path or 'the value'}: {_short(a)} against {_short(b)}"


def _short(x: Any) -> str:
    text = json.dumps(x, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _same(what: str, a: State, b: State) -> None:
    if state_hash(a) != state_hash(b):
        raise Failed(f"{what}: {first_difference(a, b)}")


def check_save(engine: Engine, st: State, out: Outcome, with_views: bool, gen: list[int]) -> State:
    """Save and load `st`: the loaded state (equal to `st`, see the module docstring)."""
    plain = engine.plain(st)  # converted once (native words): the checks below read it
    text = engine.to_json(plain)
    loaded = engine.from_json(text)
    loaded_plain = engine.plain(loaded)
    again = engine.to_json(loaded_plain)
    if again != text:
        _same("save/load: the loaded state differs", json.loads(text), json.loads(again))
        raise Failed("save/load: the save of the loaded state is another text")
    if engine.legal_ids(loaded) != engine.legal_ids(st):
        raise Failed("save/load: the loaded state offers other choices")
    if plain["dec"] is not None and engine.recompute_decision(loaded) != plain["dec"]:
        raise Failed("save/load: the decision recomputed from the loaded state's frames is another")
    out.saves += 1
    if with_views:
        check_views(engine, plain, loaded_plain, out, gen)
    return loaded


def check_views(engine: Engine, st: State, loaded: State, out: Outcome, gen: list[int]) -> None:
    """Every player's view: the same on the loaded state, plain JSON, and blind to a swap of two
    components hidden from them."""
    game = engine.game
    for p in range(st["t"]["n"]):
        v = engine.view(st, p)
        w = engine.view(loaded, p)
        if v != w:
            raise Failed(f"view of seat {p}: differs on the loaded state at {first_difference(v, w)}")
        json.dumps(v)
        out.views += 1
        pair = hidden_pair(game, st, p, gen)
        if pair is None:
            continue
        a, b = pair
        other = engine.view(swapped(st, a, b), p)
        if other != v:
            names = game.component_names
            raise Failed(
                f"view of seat {p} leaks: trading hidden components {names[a]} and {names[b]} "
                f"changes it at {first_difference(v, other)}"
            )
        out.swaps += 1


def hidden_pair(game: Any, st: State, p: int, gen: list[int]) -> tuple[int, int] | None:
    """Two components hidden from seat p in different places (drawn with `gen`), or None."""
    hidden = [c for c in range(len(game.components)) if st["loc"][c] >= 0 and not visible_to(game, st, c, p)]
    if len(hidden) < 2:
        return None
    a = hidden[rng.below(gen, len(hidden))]
    b = hidden[rng.below(gen, len(hidden))]
    return None if a == b else (a, b)


def swapped(st: State, a: int, b: int) -> State:
    """A copy of `st` with components a and b trading places (zones and locations); the parts not
    changed are shared with `st` (a view reads the state, never writes it)."""
    out: State = dict(st)
    za, zb = st["loc"][a], st["loc"][b]
    ia, ib = st["z"][za].index(a), st["z"][zb].index(b)
    out["z"] = list(st["z"])
    out["z"][za] = list(st["z"][za])
    out["z"][zb] = list(out["z"][zb])
    out["z"][za][ia], out["z"][zb][ib] = b, a
    out["loc"] = list(st["loc"])
    out["loc"][a], out["loc"][b] = zb, za
    return out


def play(config: Plan, index: int, seed: int) -> Outcome:
    """One soak game (the `map_seeds` task): played, checked, and its outcome."""
    s = setup(config)
    try:
        k, players = pick(s, seed)
    except Exception as err:  # a configuration that does not load: every game of it fails, saying so
        label = s.labels[seed % len(s.labels)]
        return Outcome(seed, label, failure=f"{label}, seed {seed}: {type(err).__name__}: {err}")
    out = Outcome(seed, f"{s.labels[k]}, {players} players")
    engine, python = s.engines(k)
    out.backend = engine.backend
    try:
        _play(config, engine, python, players, seed, out)
    except Failed as err:
        out.failure = f"{out.label}, seed {seed}, decision {out.decisions}: {err}"
    except Exception as err:  # any crash is a failure of the game, located
        out.failure = f"{out.label}, seed {seed}, decision {out.decisions}: {type(err).__name__}: {err}"
    return out


def _play(plan: Plan, engine: Engine, python: Engine, players: int, seed: int, out: Outcome) -> None:
    st = engine.new_game(players, seed=seed)
    bot, checks = bot_generator(seed), rng.seed_state(seed * CHECK_SALT + 3)
    compare = plan.python > 0 and seed % plan.python == 0 and engine is not python
    twin = python.new_game(players, seed=seed) if compare else None
    choices: list[int] = []
    followers: list[tuple[str, State, int]] = []  # (what, state, decisions it has taken)
    checked = 0
    while not engine.is_terminal(st) and len(choices) < plan.max_decisions:
        if twin is not None:
            _same("against the Python backend", engine.plain(st), twin)
            out.compared += 1
        if checked < plan.most and rng.below(checks, plan.every) == 0:
            loaded = check_save(engine, st, out, checked % plan.views == 0, checks)
            if not followers:
                followers = [
                    ("the clone", engine.clone(st), len(choices)),
                    ("the loaded state", loaded, len(choices)),
                ]
            checked += 1
        i = engine.random_choice(st, bot)
        choices.append(i)
        engine.apply_inplace(st, i)
        out.decisions += 1
        if twin is not None:
            python.apply_inplace(twin, i)
    out.finished = engine.is_terminal(st)
    out.decisions = len(choices)
    final = copy.deepcopy(engine.plain(st))  # the Python backend's plain state is the game itself
    if twin is not None:
        _same("against the Python backend", final, twin)
        if engine.scores(st) != python.scores(twin) or engine.winners(st) != python.winners(twin):
            raise Failed("against the Python backend: other scores or winners")
        out.compared += 1
    check_save(engine, st, out, True, checks)
    for what, state, done in followers:
        try:
            for i in choices[done:]:
                engine.apply_inplace(state, i)
        except Exception as err:
            raise Failed(f"{what} (from decision {done}) played on: {type(err).__name__}: {err}") from None
        _same(f"{what} (from decision {done}) played on", final, engine.plain(state))
        out.played_on += 1
    _same("the game after its clones moved", final, engine.plain(st))
    replayed = engine.replay(players, seed, choices)  # type: ignore[arg-type]  # indices are choices too
    _same("the replay from the seed and the choices", final, engine.plain(replayed))
    out.replays += 1
