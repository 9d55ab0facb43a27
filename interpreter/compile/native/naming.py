"""The pending decision's choice ids of native words, named in C where the runtime can (names.c).

Stage: compile (native). A step through the engine's API that names its legal choices named them
in Python (decoding each option, then model/choices.py option_ids): more than the native step
itself. runtime/names.c writes them as text in one call from tables given here once (the texts of
components, keys, symbols and actions, and how each parameter's column is named); a column it
does not name (a list, a place, a value type whose ids are not those of a number, a flag, a symbol,
a component or a player) is named by the bridge in Python, as before (`NativeGame._name_ids`).
"""

from __future__ import annotations

import ctypes
import mmap
from array import array
from codecs import utf_8_decode
from typing import Any

from tabula.interpreter.base.types import COMP, PLAYER
from tabula.interpreter.model.choices import option_ids
from tabula.interpreter.model.game import CompiledGame

# how a column is named (runtime/names.c NM_*): -1 by Python
_PY, _COMP, _PLAYER, _INT, _BOOL, _SYM = -1, 1, 2, 3, 4, 5
# a choice's value type as the Python backend names it (model/choices.py)
PY_TYPES = {"sym": "symbol", "place": "list[comp]"}
_ROOM = 1 << 16  # bytes of ids one call writes at most (more: named in Python)
_NT_BYTES = 2  # the word of tb_step's table holding the bytes of ids it named last (names.c NT_BYTES)
# tb_step's words of `ctx` after tb_ids's (names.c NM_S, NM_K, NM_BUDGET, NM_GEN: its arguments, and
# the words' generation after the step), written in place: a call with one argument converts quicker
_NM_S = 13  # (Namer.step writes words 13..16 as literals: a global costs a lookup a step)


def column_mode(t: str, kind: str) -> int:
    """How a column of values of type `t`, kept as word `kind`, is named (model/choices.py value_id
    on the decoded values: a component by its name or key, a player by name, a number by its digits,
    a flag and a symbol by their words; anything else by Python)."""
    if kind == "int":
        return _COMP if t == COMP else _PLAYER if t == PLAYER else _INT
    if t == COMP:  # a component column holding a flag or a symbol: Python says what it is
        return _PY
    return {"bool": _BOOL, "sym": _SYM}.get(kind, _PY)


class Namer:
    """The library's tb_ids with its tables (kept alive here: tb_ids reads them by address)."""

    def __init__(
        self,
        game: CompiledGame,
        lib: ctypes.CDLL,
        symbols: list[str],
        stride: int,
        arg_kinds: dict[int, list[str]],
        sites: list[tuple[str, str]],
        before: int = 0,
        gen_at: int = 0,
    ) -> None:
        width = stride - 1
        modes: list[int] = []
        for ai, act in enumerate(game.action_list):
            kinds = arg_kinds.get(ai, [])
            if len(kinds) != len(act.params) or len(kinds) > width:  # (never: Python names them)
                row = [_PY] * width
            else:
                row = [column_mode(t, kind) for (_, _, t), kind in zip(act.params, kinds, strict=True)]
            modes += row + [0] * (width - len(row))
        modes += [column_mode(PY_TYPES.get(t, t), kind) for t, kind in sites]
        numbers: dict[str, int] = {}
        comps = game.components
        texts = [c.name for c in comps] + [c.key for c in comps] + symbols
        texts += [a.name for a in game.action_list]
        self.ok = width > 0 and not any("\0" in t for t in texts)
        self._mode = array("q", modes or [0])
        self._name = array("q", [numbers.setdefault(c.name, len(numbers)) for c in comps] or [0])
        self._off, self._text, self._keep = _table(texts)
        self._out = ctypes.create_string_buffer(_ROOM)
        self._view = memoryview(self._out).cast("B")
        # tb_ids's `ctx` but the players' names (names.c NM_*)
        self._ctx = [self._mode.buffer_info()[0], self._name.buffer_info()[0], self._off, self._text]
        self._ctx += [len(symbols), len(game.action_list)]
        self._before = before  # tb_step's `before` (the bridge's words kept before a step)
        self.gen_at = gen_at  # the words' generation (T_GEN): the ids named last are theirs while it holds
        # per players' names: `ctx` whole (its address, the array, the names' buffers, tb_step's
        # table and the ids of each of its entries), or None
        self._players: dict[tuple[str, ...], Context | None] = {}
        self._last: tuple[Any, Context | None] = (None, None)
        # calls that keep the GIL (ctypes.PyDLL): quicker, and one thread at a time writes `_out`
        dll = ctypes.PyDLL(lib._name)
        self._ids = dll.tb_ids
        self._ids.argtypes = [ctypes.c_int64, ctypes.c_int64]  # (addresses: a quicker conversion)
        self._ids.restype = ctypes.c_int64
        self._step = dll.tb_step
        self._step.restype = ctypes.c_int64
        # players' names named in Python: the step is tb_apply alone, addresses as ints (converted
        # quicker than arrays), the GIL kept (a step is microseconds)
        self._apply = dll.tb_apply
        self._apply.argtypes = [ctypes.c_int64] * 4
        self._apply.restype = ctypes.c_int
        lib.tb_step_words.restype = ctypes.c_int64
        self._tab_words = int(lib.tb_step_words())

    def _context(self, names: list[str]) -> Context | None:
        """tb_ids's and tb_step's `ctx` with these players' names (None: a name holds a NUL)."""
        if any("\0" in n for n in names):
            return None
        off, text, keep = _table(names)
        # tb_step's table: a mapping, whose pages are zeroed as first written (2 MB, mostly unused)
        tab = mmap.mmap(-1, 8 * self._tab_words)
        words = (ctypes.c_int64 * self._tab_words).from_buffer(tab)
        ctx = array("q", [*self._ctx, off, text, len(names), ctypes.addressof(self._out), _ROOM])
        ctx += array("q", [self._before, ctypes.addressof(words), 0, 0, 0, 0, 0])  # (+ recompute.c NM_INTO)
        return Context(ctx, (keep, tab, words), memoryview(tab).cast("q"))

    def _for(self, names: list[str]) -> Context | None:
        """The context of these players' names (None: they are named in Python)."""
        last = self._last
        if last[0] is not names:  # (the states of a game share their names' list)
            key = tuple(names)
            if key not in self._players:
                self._players[key] = self._context(names) if self.ok else None
            last = self._last = (names, self._players[key])
        return last[1]

    def ids(self, words: Any, names: list[str]) -> list[str] | None:
        """The pending options' ids named in C, or None (Python names them)."""
        c = self._for(names)
        if c is None:
            return None
        n = self._ids(ctypes.addressof(words), c.at)
        if n <= 0:
            return None
        return utf_8_decode(self._view[: n - 1])[0].split("\0")

    def step(self, ns: Any, choice: int | str, budget: int) -> int | None:
        """Answer `choice` on native words `ns` and name the next decision, in one call (runtime
        tb_step): 0, or the error code of the answer; `ns.named` holds the next decision's ids when
        they were named in C. `choice` is an index, or a legal id of those the last step named
        (looked up here: a frame less a step); None: another id or value, nothing done (the caller
        finds its index). Players' names named in Python: tb_apply alone (the ids named when asked)."""
        if choice.__class__ is str:
            kept, v = ns.named, ns.mv  # (the words' view: made by the last step's caller, as a rule)
            if kept is None or kept[0] != (ns.view if v is None else v)[self.gen_at]:
                return None
            ids = kept[1].ids
            if len(ids) > 16:  # many: looked up (Named.index); a few: scanned here (a frame less)
                if (k := kept[1].index(choice)) is None:
                    return None
            elif choice in ids:  # (the first id so named, as Named.index)
                k = ids.index(choice)
            else:
                return None
        elif choice.__class__ is int:
            k = choice
        else:
            return None
        c = self._last[1] if self._last[0] is ns.names else self._for(ns.names)
        if c is None:
            return self._apply(ns.addr, k, budget, self._before)  # type: ignore[no-any-return]
        a = c.words  # (its words NM_S.. as literals: a global and an addition cost as much as a store)
        a[13], a[14], a[15] = ns._a or ns.addr, k, budget  # (the address kept: no property's frame)
        r = self._step(c.arg)  # (a ctypes array: no argtypes to convert through)
        if r <= 0:  # -code, or 0: the game is over or the ids are Python's (named when asked)
            return -r  # type: ignore[no-any-return]  # (an int: restype c_int64)
        named = c.entries[r >> 1] if r & 1 else self.entry(c, r)  # (odd: options named before)
        gen = a[16]
        if gen:
            ns.named = (gen, named)
        return 0

    def entry(self, c: Context, r: int) -> Named:
        """The options tb_step (or tb_recompute) named now, as entry (r >> 1) - 1 of context `c`'s
        table (entries are numbered again from 0 when the table is full): their ids, kept."""
        e = (r >> 1) - 1
        named = Named(utf_8_decode(self._view[: c.tab[_NT_BYTES] - 1])[0].split("\0"))
        if e < len(c.entries):
            c.entries[e] = named
        else:
            c.entries.append(named)
        return named

    def context(self, names: list[str]) -> Context | None:
        """tb_ids's and tb_step's `ctx` with these players' names (None: they are named in Python)."""
        last = self._last
        return last[1] if last[0] is names else self._for(names)


def _table(texts: list[str]) -> tuple[int, int, Any]:
    """The addresses of texts end to end in UTF-8 and of where each starts (one more: where the
    last ends), with the two buffers (kept alive with the addresses)."""
    data = [t.encode() for t in texts]
    off = [0]
    for d in data:
        off.append(off[-1] + len(d))
    starts, text = array("q", off), ctypes.create_string_buffer(b"".join(data), max(off[-1], 1))
    return starts.buffer_info()[0], ctypes.addressof(text), (starts, text)


def choice_ids(game: CompiledGame, options: list[tuple[int, Any]], names: list[str]) -> list[str]:
    """The choice ids, as the Python backend names them (support.add_single and add_options:
    per action, one column of ids per parameter, joined by commas)."""
    ids: list[str] = []
    k = 0
    while k < len(options):
        ai = options[k][0]
        j = k
        while j < len(options) and options[j][0] == ai:
            j += 1
        act = game.action_list[ai]
        rows = [args for _, args in options[k:j]]
        if not act.params:
            ids += [act.name] * (j - k)
        else:
            columns = [
                option_ids(game, names, [r[c] for r in rows], t) for c, (_, _, t) in enumerate(act.params)
            ]
            ids += [act.name + ":" + ",".join(col[r] for col in columns) for r in range(j - k)]
        k = j
    return ids


class Context:
    """tb_ids's `ctx` for one players' names (its address `at`), what it points to (kept alive),
    tb_step's table as words (`tab`) and the ids of each of the table's entries."""

    __slots__ = ("arg", "at", "ctx", "entries", "keep", "tab", "words")

    def __init__(self, ctx: array[int], keep: Any, tab: memoryview) -> None:
        self.ctx, self.keep, self.tab = ctx, keep, tab
        self.words = memoryview(ctx)  # `ctx` written and read a step (an array's item costs twice a view's)
        self.at = ctx.buffer_info()[0]
        self.arg = (ctypes.c_int64 * len(ctx)).from_buffer(ctx)  # `ctx` as tb_step's argument
        self.entries: list[Named] = []


UNSET: Any = object()  # a decision not decoded yet


class Named:
    """A pending decision's options as named once: ids, each id's first index, and the decision
    (player, decoded options) as `NativeGame.decision` gives it, decoded when first asked for."""

    __slots__ = ("_first", "dec", "ids")

    def __init__(self, ids: list[str], dec: tuple[int, list[tuple[int, Any]]] | None = UNSET) -> None:
        self.ids = ids
        self.dec = dec
        self._first: dict[str, int] | None = None

    def index(self, cid: str) -> int | None:
        """The index of the first id `cid`, or None (a few ids are searched; many, looked up)."""
        ids = self.ids
        if len(ids) <= 16:
            try:  # (one scan: `in` then `index` scanned twice)
                return ids.index(cid)
            except ValueError:
                return None
        first = self._first
        if first is None:  # (each id's first index: the later ones are written first)
            first = self._first = {ids[k]: k for k in range(len(ids) - 1, -1, -1)}
        return first.get(cid)


NOTHING = Named([], None)
IDS_KEPT = 4096  # option lists whose ids are kept (a search meets a few hundred a decision)
