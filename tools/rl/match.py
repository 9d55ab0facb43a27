"""One Tabula game as the RL adapters see it: a loaded rule set and matches played with it.

`Ruleset` is a compiled game with its stable action index (cached per `Setup`, since compiling a
game takes a second or so and OpenSpiel reloads games from their names when it deserialises).
`Match` is one game in progress: the engine's state, the trail of choices that led to it (shared
between copies), and what the trail needs to replay it. Everything a player is told is computed
from `Engine.view(state, player)`:

- the *observation* is the current view (tensor: `tabula.rl.encoding`, text: `tabula.rl.text`);
- the *information state* adds perfect recall: a digest chained over the canonical JSON of the
  player's view after every decision of the game, and the ids of the player's own choices. It is
  computed lazily (a copy made for a search costs nothing) by replaying the trail from the
  match's first state when no earlier digest is known.

A match that reaches `max_length` decisions without ending is over (truncated): every return is 0.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.rl.actions import DEFAULT_NUMBERS, ActionIndex, IdMapper
from tabula.rl.strings import game_strings, source_files

DEFAULT_MAX_LENGTH = 10_000


@dataclass(frozen=True)
class Setup:
    """What makes a rule set: the game, its variant, expansions, rules options, number range."""

    game: str = "high-card"
    variant: str = ""
    expansions: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    numbers: tuple[int, int] = DEFAULT_NUMBERS


def _same_kind(default: Any, value: Any) -> bool:
    """Is `value` of the kind of option default `default` (bool, whole number, text)?"""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str)
    return True


def _option_problem(game: CompiledGame, key: str, value: Any) -> str | None:
    """Why `value` cannot be rules option `key` of `game`, or None."""
    if key not in game.options:
        return f"unknown rules option '{key}' (options: {', '.join(game.options) or 'none'})"
    default = game.options[key]
    if not _same_kind(default, value):
        return f"rules option '{key}' takes a value like {default!r}, not {value!r}"
    return None


class Ruleset:
    """A compiled game, its engine, its rules options and its stable action index."""

    _cache: dict[Setup, Ruleset] = {}
    _compiled: dict[tuple[str, str, tuple[str, ...]], tuple[CompiledGame, list[str]]] = {}

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.game, strings = self.compiled(setup.game, setup.variant, setup.expansions)
        self.options = dict(setup.options)
        problems = [p for k, v in self.options.items() if (p := _option_problem(self.game, k, v))]
        if problems:
            raise ValueError("; ".join(problems))
        # the native backend where it holds the game (it gives the same games; else Python plays)
        self.engine = Engine(self.game, backend="native")
        self._python: Engine | None = None
        chosen = [v for v in self.options.values() if isinstance(v, str)]
        self.index = ActionIndex(self.game, sorted({*strings, *chosen}), setup.numbers)

    @property
    def python_engine(self) -> Engine:
        """An engine of the same game on the Python backend."""
        if self._python is None:
            self._python = self.engine if self.engine.backend == "python" else Engine(self.game)
        return self._python

    @classmethod
    def compiled(cls, game: str, variant: str, expansions: tuple[str, ...]) -> tuple[CompiledGame, list[str]]:
        """A game compiled with its default options, and its string universe (once per process)."""
        key = (game, variant, expansions)
        found = cls._compiled.get(key)
        if found is None:
            g = load_game(game, None, variant or None, expansions)
            found = cls._compiled[key] = (g, game_strings(g, source_files(g, variant or None, expansions)))
        return found

    @classmethod
    def get(cls, setup: Setup) -> Ruleset:
        """The rule set of `setup`, built once per process."""
        found = cls._cache.get(setup)
        if found is None:
            found = cls._cache[setup] = Ruleset(setup)
        return found

    def seat_names(self, players: int) -> list[str]:
        """The engine's default names for `players` players."""
        g = self.game
        return [g.seats[i] if i < len(g.seats) else f"P{i + 1}" for i in range(players)]


@dataclass(eq=False)
class Trail:
    """One decision of a match: the previous node, who chose, the id chosen. Immutable once made
    (digests are filled in lazily and are a function of the path), so copies share it."""

    parent: Trail | None
    actor: int
    choice: str
    depth: int
    recall: dict[int, str] = field(default_factory=dict)  # player -> digest, filled on demand

    def __deepcopy__(self, memo: dict[int, Any]) -> Trail:
        return self

    def path(self) -> list[Trail]:
        """The nodes from the first decision to this one (the root, depth 0, excluded)."""
        out: list[Trail] = []
        node: Trail | None = self
        while node is not None and node.parent is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out


def _digest(*parts: str) -> str:
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(part.encode())
        h.update(b"\x00")
    return h.hexdigest()


class Match:
    """One game in progress (see the module docstring)."""

    def __init__(self, rules: Ruleset, st: State, first: str, trail: Trail, max_length: int) -> None:
        self.rules = rules
        self.st = st
        self.first = first  # the engine JSON of the match's first state (for replays)
        self.trail = trail
        self.max_length = max_length
        self.names: list[str] = rules.engine.player_names(st)
        self.ids = IdMapper(rules.index, self.names)
        self._legal: dict[int, str] | None = None
        self._views: dict[int, dict[str, Any]] = {}  # views of the current state, by player

    @classmethod
    def start(
        cls,
        rules: Ruleset,
        players: int | list[str],
        seed: int,
        max_length: int = DEFAULT_MAX_LENGTH,
    ) -> Match:
        """A new match, run up to its first decision."""
        st = rules.engine.new_game(players, seed, rules.options or None)
        return cls.from_state(rules, st, max_length)

    @classmethod
    def from_state(cls, rules: Ruleset, st: State, max_length: int = DEFAULT_MAX_LENGTH) -> Match:
        """A match whose first state is `st` (any state, in the engine's form when it converts; the
        match owns it; recall starts here)."""
        st = rules.engine.backend_form(st)
        return cls(rules, st, rules.engine.to_json(st), Trail(None, -1, "", 0), max_length)

    # ------------------------------------------------------------ copies and text
    def copy(self) -> Match:
        """An independent copy: the engine's clone of the state, the same (immutable) trail."""
        m = Match(self.rules, self.rules.engine.clone(self.st), self.first, self.trail, self.max_length)
        m.ids = self.ids
        m._legal = self._legal
        return m

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.copy()

    def to_json(self) -> str:
        """The match as JSON: rule set, engine state, first state, trail."""
        s = self.rules.setup
        return json.dumps(
            {
                "setup": [s.game, s.variant, s.expansions, s.options, s.numbers],
                "state": self.rules.engine.to_json(self.st),
                "first": self.first,
                "trail": [[n.actor, n.choice] for n in self.trail.path()],
                "max_length": self.max_length,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Match:
        data = json.loads(text)
        game, variant, expansions, options, numbers = data["setup"]
        setup = Setup(game, variant, tuple(expansions), tuple((k, v) for k, v in options), tuple(numbers))
        rules = Ruleset.get(setup)
        node = Trail(None, -1, "", 0)
        for actor, choice in data["trail"]:
            node = Trail(node, actor, choice, node.depth + 1)
        st = rules.engine.from_json(data["state"])
        return cls(rules, st, data["first"], node, data["max_length"])

    def __reduce__(self) -> tuple[Any, ...]:
        return (Match.from_json, (self.to_json(),))

    # ------------------------------------------------------------ play
    @property
    def depth(self) -> int:
        return self.trail.depth

    def truncated(self) -> bool:
        return self.depth >= self.max_length and not self.rules.engine.is_terminal(self.st)

    def is_over(self) -> bool:
        return self.rules.engine.is_terminal(self.st) or self.depth >= self.max_length

    def current_player(self) -> int | None:
        """Who decides now, or None when the match is over."""
        return None if self.is_over() else self.rules.engine.current_player(self.st)

    def legal(self) -> dict[int, str]:
        """index -> choice id of every legal choice now (empty when the match is over)."""
        if self._legal is None:
            ids = [] if self.is_over() else self.rules.engine.legal_ids(self.st)
            self._legal = self.ids.legal(ids)
        return self._legal

    def apply(self, action: int) -> str:
        """Make the choice with index `action`; returns its id. Raises ValueError if not legal."""
        cid = self.legal().get(action)
        if cid is None:
            legal = sorted(self.legal())
            raise ValueError(
                f"action {action} ({self.rules.index.id_of(action, self.names)}) is not legal now; "
                f"legal: {legal[:12]}{' ...' if len(legal) > 12 else ''}"
                if 0 <= action < self.rules.index.size
                else f"action {action} is outside 0..{self.rules.index.size - 1}"
            )
        actor = self.rules.engine.current_player(self.st)
        assert actor is not None
        self.rules.engine.apply_inplace(self.st, cid)
        self.trail = Trail(self.trail, actor, cid, self.trail.depth + 1)
        self._legal = None
        self._views = {}
        return cid

    def action_text(self, action: int) -> str:
        """The id of `action`: the legal id when it is legal now, else its canonical id."""
        return self.legal().get(action) or self.rules.index.id_of(action, self.names)

    def returns(self) -> list[float]:
        if self.truncated():
            return [0.0] * len(self.names)
        return self.rules.engine.returns(self.st)

    # ------------------------------------------------------------ what a player knows
    def view(self, player: int) -> dict[str, Any]:
        """What `player` may see now (the same dict until the next choice: do not modify it)."""
        found = self._views.get(player)
        if found is None:
            found = self._views[player] = self.rules.engine.view(self.st, player)
        return found

    def recall(self, player: int) -> str:
        """The perfect-recall digest of `player` (see the module docstring)."""
        node = self.trail
        found = node.recall.get(player)
        if found is None:
            parent = node.parent
            seen = _seen(self.view(player))
            if parent is None:
                found = seen
            elif player in parent.recall:
                found = _link(parent.recall[player], node, player, seen)
            else:
                self._replay(player)
                found = node.recall[player]
            node.recall[player] = found
        return found

    def _replay(self, player: int) -> None:
        """Fill `player`'s digests along the whole trail by replaying it from the first state."""
        engine = self.rules.engine
        st = engine.from_json(self.first)
        root: Trail = self.trail
        while root.parent is not None:
            root = root.parent
        before = root.recall.setdefault(player, _seen(engine.view(st, player)))
        for step in self.trail.path():
            engine.apply_inplace(st, step.choice)
            if player not in step.recall:
                step.recall[player] = _link(before, step, player, _seen(engine.view(st, player)))
            before = step.recall[player]


def _seen(view: dict[str, Any]) -> str:
    """The digest of one view."""
    return _digest(json.dumps(view, sort_keys=True, separators=(",", ":")))


def _link(before: str, node: Trail, player: int, seen: str) -> str:
    """The digest after `node`: the one before, the player's own choice (if theirs), what they see."""
    return _digest(before, node.choice if node.actor == player else "", seen)
