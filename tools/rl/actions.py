"""The stable action index: every choice id a compiled game can ever offer gets a fixed number.

Choice ids (see `tabula.interpreter.model.choices`) are `action` or `action:arg1,arg2` for the actions of
a window, and single values for a `choose` decision: a component's name (or its key `Name#2` when
several copies of that name are offered together), a player's name, a number, a string (symbols
are strings), `true`/`false`, or `none`. The index is computed from the compiled game alone, never
from play, so it does not depend on the order of play:

1. **Value universes.** Each static type has a universe of ids, each id at a fixed slot:
   component (`none`, then one slot per component in component order: the key names it, and a bare
   name stands for its first copy, which is sound because within one offered column a name is
   either shown bare, when exactly one copy is offered, or every offered copy shows its key);
   player (`none`, then one slot per seat up to the game's maximum player count: the player at seat
   i holds slot i whatever their name, so custom player names map to seat order); bool (`none`,
   `true`, `false`); number (`none`, then `min_number`..`max_number`); string (`none`, then every
   string of the game's data and DSL, sorted; see `tabula.rl.strings`); and the *value* universe,
   for untyped (`any`) values: all of these together.
2. **Choose decisions** occupy the first block, `[0, |value universe|)`.
3. **Window actions** follow in the game's action order: an action without parameters takes one
   index; an action with parameters takes the product of its parameters' universes (mixed radix,
   first parameter most significant). A parameter whose declared source is a bare name that fixes
   its values statically (a constant list, a component type, or `players`) gets exactly those
   values instead of its type's universe.

An id is looked up by its text: the name of a window action (and its arguments) first, then a
value. Within one decision the map from ids to indices is one-to-one. An id that fits nowhere (a
number outside the range, a list value, a string built at run time) raises `UnindexedChoice`,
naming the id and what to change; it never gets a wrong index silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.base.types import ANY, BOOL, COMP, INT, PLAYER, STR
from tabula.interpreter.model.game import ActionDef, CompiledGame

DEFAULT_NUMBERS = (0, 200)
_INT = re.compile(r"-?[0-9]+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# engine names the DSL resolves before component types and constants (see the expression compiler)
_SPECIAL_NAMES = {"players", "num_players", "active", "round", "turn", "me", "self", "p"}


class UnindexedChoice(Exception):
    """A choice id that the stable action index has no place for."""


@dataclass
class Universe:
    """The ids one parameter (or a choose decision) can take, each at a fixed slot."""

    what: str  # for messages: "component", "value", "the constant 'roles'"
    static: dict[str, int] = field(default_factory=dict)  # fixed ids -> slot
    canon: list[str] = field(default_factory=list)  # the id shown for each slot
    player_base: int | None = None
    number_base: int | None = None
    numbers: tuple[int, int] = DEFAULT_NUMBERS

    @property
    def size(self) -> int:
        return len(self.canon)

    def _add(self, cid: str) -> None:
        self.static.setdefault(cid, len(self.canon))
        self.canon.append(cid)

    def slot(self, cid: str, names: Sequence[str]) -> int | None:
        """The slot of id `cid` in a game whose players are `names`, or None."""
        if self.player_base is not None and cid in names:
            return self.player_base + names.index(cid)
        s = self.static.get(cid)
        if s is not None:
            return s
        if self.number_base is not None and _INT.fullmatch(cid):
            lo, hi = self.numbers
            v = int(cid)
            if lo <= v <= hi:
                return self.number_base + v - lo
        return None

    def id_at(self, slot: int, names: Sequence[str]) -> str:
        """The id shown for `slot` (a player slot reads as that seat's name in this game)."""
        if self.player_base is not None and 0 <= slot - self.player_base < len(names):
            return names[slot - self.player_base]
        return self.canon[slot]


class _Builder:
    """Builds universes for one game, in a fixed part order."""

    def __init__(self, game: CompiledGame, strings: Sequence[str], numbers: tuple[int, int]) -> None:
        self.game = game
        self.strings = strings
        self.numbers = numbers
        self.seats = [game.seats[i] if i < len(game.seats) else f"P{i + 1}" for i in range(game.max_players)]

    def none(self, u: Universe) -> None:
        u._add("none")

    def bools(self, u: Universe) -> None:
        u._add("true")
        u._add("false")

    def players(self, u: Universe) -> None:
        u.player_base = u.size
        for seat in self.seats:
            u._add(seat)

    def components(self, u: Universe, ids: Sequence[int]) -> None:
        comps = self.game.components
        first: dict[str, int] = {}
        for cid in ids:
            first.setdefault(comps[cid].name, u.size)
            u._add(comps[cid].key)
        for name, slot in first.items():  # a bare name stands for the first copy of that name
            u.static.setdefault(name, slot)

    def string_values(self, u: Universe) -> None:
        for s in self.strings:
            if s not in u.static:
                u._add(s)

    def number_values(self, u: Universe) -> None:
        lo, hi = self.numbers
        u.number_base = u.size
        u.numbers = self.numbers
        u.canon.extend(str(v) for v in range(lo, hi + 1))

    def of_type(self, t: str) -> Universe:
        """The universe of a static element type (`any` and unknown types: every value)."""
        u = Universe(t)
        self.none(u)
        if t == COMP:
            self.components(u, range(len(self.game.components)))
        elif t == PLAYER:
            self.players(u)
        elif t == BOOL:
            self.bools(u)
        elif t == INT:
            self.number_values(u)
        elif t == STR:
            self.string_values(u)
        else:
            u.what = "value"
            self.bools(u)
            self.players(u)
            self.components(u, range(len(self.game.components)))
            self.string_values(u)
            self.number_values(u)
        return u

    def declared(self, text: str, earlier: set[str]) -> Universe | None:
        """The exact universe of a parameter whose source is the bare name `text`, if it has one."""
        game = self.game
        if not _IDENT.fullmatch(text) or text in earlier:
            return None
        if text == "players":
            u = Universe("player")
            self.players(u)
            return u
        if text in _SPECIAL_NAMES:
            return None
        if text in game.by_type:
            u = Universe(f"the component type '{text}'")
            self.components(u, game.by_type[text])
            return u
        value = game.constants.get(text)
        if isinstance(value, list) and all(_scalar(v) for v in value):
            u = Universe(f"the constant '{text}'")
            for v in value:
                u._add(_scalar_id(v))
            return u
        return None


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, str))


def _scalar_id(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def source_text(span: Span | None) -> str | None:
    """The text a span covers when it is on one line of a readable file (YAML quotes removed)."""
    if span is None or span.line != span.end_line:
        return None
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    if not 0 < span.line <= len(lines):
        return None
    text = lines[span.line - 1][span.col - 1 : span.end_col - 1].strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1].strip()
    return text


@dataclass
class ActionBlock:
    """The indices of one window action: `offset` and the universes of its parameters."""

    name: str
    offset: int
    params: list[tuple[str, Universe]]

    @property
    def size(self) -> int:
        n = 1
        for _, u in self.params:
            n *= u.size
        return n


class ActionIndex:
    """The stable action index of a compiled game (see the module docstring)."""

    def __init__(
        self, game: CompiledGame, strings: Sequence[str], numbers: tuple[int, int] = DEFAULT_NUMBERS
    ) -> None:
        if numbers[0] > numbers[1]:
            raise ValueError(f"empty number range {numbers[0]}..{numbers[1]}")
        self.game = game
        self.numbers = numbers
        b = _Builder(game, strings, numbers)
        self.values = b.of_type(ANY)
        self.blocks: list[ActionBlock] = []
        self._by_name: dict[str, ActionBlock] = {}
        offset = self.values.size
        for act in game.action_list:
            block = ActionBlock(act.name, offset, self._param_universes(b, act))
            self.blocks.append(block)
            self._by_name[act.name] = block
            offset += block.size
        self.size = offset

    @staticmethod
    def _param_universes(b: _Builder, act: ActionDef) -> list[tuple[str, Universe]]:
        out: list[tuple[str, Universe]] = []
        earlier: set[str] = set()
        spans = act.param_spans or [None] * len(act.params)
        for (name, _, t), span in zip(act.params, spans, strict=True):
            if t.startswith("list["):
                raise UnindexedChoice(
                    f"action '{act.name}': parameter '{name}' offers lists ({t}); the action index "
                    "numbers single values only (offer the list's items, or choose them one by one)"
                )
            text = source_text(span)
            u = b.declared(text, earlier) if text is not None else None
            out.append((name, u if u is not None else b.of_type(t)))
            earlier.add(name)
        return out

    # ------------------------------------------------------------ ids -> indices
    def index(self, cid: str, names: Sequence[str]) -> int:
        """The index of choice id `cid` in a game whose players are `names`."""
        found = self._window_index(cid, names)
        if found is not None:
            return found
        slot = self.values.slot(cid, names)
        if slot is not None:
            return slot
        raise UnindexedChoice(self._why(cid))

    def _window_index(self, cid: str, names: Sequence[str]) -> int | None:
        name, sep, rest = cid.partition(":")
        block = self._by_name.get(name)
        if block is None:
            return None
        if not sep:
            return block.offset if not block.params else None
        if not block.params:
            return None
        digits = _parse_args(rest, [u for _, u in block.params], names)
        if digits is None:
            return None
        idx = 0
        for (_, u), d in zip(block.params, digits, strict=True):
            idx = idx * u.size + d
        return block.offset + idx

    def _why(self, cid: str) -> str:
        game = self.game.name
        lo, hi = self.numbers
        name, sep, _ = cid.partition(":")
        if sep and name in self._by_name:
            return (
                f"{game}: the choice '{cid}' has arguments outside the action index of '{name}' "
                f"(its parameters: {', '.join(f'{p} ({u.what})' for p, u in self._by_name[name].params)})"
            )
        if _INT.fullmatch(cid):
            return (
                f"{game}: the choice '{cid}' is a number outside the action index's range {lo}..{hi}; "
                "pass a wider range (game parameters min_number / max_number)"
            )
        if "+" in cid:
            return f"{game}: the choice '{cid}' is a list of values; the action index numbers single values"
        return (
            f"{game}: the choice '{cid}' is not an action, a component, a player, a string of the "
            "game's data or DSL, or a number of the action index; a string made at run time must be "
            "declared (for instance as an enum symbol) to get an index"
        )

    # ------------------------------------------------------------ indices -> ids
    def id_of(self, index: int, names: Sequence[str]) -> str:
        """The id an index stands for (for a bare-name slot, the component's key)."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside 0..{self.size - 1}")
        if index < self.values.size:
            return self.values.id_at(index, names)
        for block in self.blocks:
            if index < block.offset + block.size:
                rest = index - block.offset
                args: list[str] = []
                for _, u in reversed(block.params):
                    rest, d = divmod(rest, u.size)
                    args.append(u.id_at(d, names))
                return block.name + (":" + ",".join(reversed(args)) if args else "")
        raise AssertionError("unreachable: the blocks cover every index")

    def layout(self) -> list[tuple[str, int, int]]:
        """(block, first index, size) for the choose block and every action, in index order."""
        rows = [("choose", 0, self.values.size)]
        for block in self.blocks:
            params = ",".join(f"{p}:{u.what}" for p, u in block.params)
            rows.append((f"{block.name}({params})" if params else block.name, block.offset, block.size))
        return rows


def _parse_args(rest: str, universes: list[Universe], names: Sequence[str]) -> list[int] | None:
    """Split `rest` at commas into one id per universe (ids may contain commas: try each split)."""
    u = universes[0]
    if len(universes) == 1:
        s = u.slot(rest, names)
        return None if s is None else [s]
    start = 0
    while True:
        i = rest.find(",", start)
        if i < 0:
            return None
        s = u.slot(rest[:i], names)
        if s is not None:
            tail = _parse_args(rest[i + 1 :], universes[1:], names)
            if tail is not None:
                return [s, *tail]
        start = i + 1


class IdMapper:
    """Ids <-> indices for one game's player names, remembering ids already looked up."""

    def __init__(self, index: ActionIndex, names: Sequence[str]) -> None:
        self.index = index
        self.names = list(names)
        self._cache: dict[str, int] = {}

    def __call__(self, cid: str) -> int:
        got = self._cache.get(cid)
        if got is None:
            got = self._cache[cid] = self.index.index(cid, self.names)
        return got

    def legal(self, ids: Sequence[str]) -> dict[int, str]:
        """index -> id for the legal ids of one decision (fails loudly if two ids share an index)."""
        out: dict[int, str] = {}
        for cid in ids:
            i = self(cid)
            if i in out:
                raise UnindexedChoice(
                    f"{self.index.game.name}: the choices '{out[i]}' and '{cid}' share action {i}"
                )
            out[i] = cid
        return out
