"""Determinisations dealt straight into native words, for search bots on the native backend.

Stage: run (native). `determinize` (run/determinize.py) deals a plain state; converting each world
to native words (`NativeGame.from_plain`) would cost more than the native playout on it. A
`NativeDeal` does the plain work once per decision: the deal plan (which hidden components sit in
which places), the state with the dealt components' marks reset and the secrets guessed, converted
once. Each world then draws the same permutation from the same generator words as `determinize`
and writes it into a copy of those words: the zone places, `loc` and `rv` of the dealt components,
the words that name a hidden component (component vars and marks, the pending options) and the
generator. The result converts to exactly the plain state `determinize` deals (tests/native
prove it), so a search reads the same worlds on both backends.
"""

from __future__ import annotations

import ctypes
from typing import Any

from tabula.interpreter.base.types import COMP
from tabula.interpreter.compile.native.bridge import NativeGame, NativeState, NotNative
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import component_marks, secret_sizes
from tabula.interpreter.run.determinize import Fits, apply_mapping, deal_plan, guess_secrets


class NativeDeal:
    """Worlds consistent with `player`'s view of the plain state `st`, as native words.

    NotNative when the state does not convert (a simultaneous step, but inside an effect). At a
    decision inside an effect (`real`: the true state's native words, kind 2) the worlds are for
    native search trees only (`inside`, `segment`: runtime/search.c `t_world` deals them where the
    true segment's replay reaches the decision); their words alone would replay the true segment, so
    they are never handed out. There the true words stand for an open simultaneous step (`t.sim`
    is not converted): the replay reads the others' answers, and the dealt world's words replace
    all it made of them, as `determinize` hides them."""

    def __init__(
        self,
        game: CompiledGame,
        native: NativeGame,
        st: State,
        player: int,
        fits: Fits | None = None,
        real: NativeState | None = None,
    ) -> None:
        self.inside = real is not None and real.plain is None and native.choosing(real)
        if "sim" in st["t"] and not self.inside:  # inside, the true words stand for the open step
            raise NotNative("a simultaneous step")
        if secret_sizes(game):  # each world spreads the hidden components anew: no one plan
            raise NotNative("secret zone sizes")
        if "ru" in st:  # determinize renames the components of the grants' ends: plain worlds
            raise NotNative("grants given until an event")
        self.native = native
        self.fits = fits
        self.plan = deal_plan(game, st, player)
        dealt = [c for occupants, _ in self.plan for c in occupants]
        # the marks of every dealt component reset, the secrets guessed: the same in every world
        base = apply_mapping(game, st, {c: c for c in dealt})
        guess_secrets(game, base, player)
        self.segment: Any = None
        data = {**base, "t": {k: v for k, v in base["t"].items() if k != "sim"}} if self.inside else base
        made = native.from_plain(data, data_only=self.inside)
        self.base, self.names, self.o = made.words, made.names, made.o
        lay = native.lay
        if self.inside:
            assert real is not None
            self.base, self.segment = _inside(native, made.words, real.words)
        self.naming = self._naming(game, base, set(dealt))
        # the plan and the naming as flat words for native code (tb_deal in runtime/flow.c)
        flat: list[int] = []
        for occupants, where in self.plan:
            flat += [len(occupants), *sorted(occupants)]
            flat += [
                x for c, (zi, pos) in zip(occupants, where, strict=True) for x in (c, lay.zone(zi) + pos)
            ]
            flat += _fitting(occupants, where, fits)
        naming = [x for pair in self.naming for x in pair]
        self.c_plan = (ctypes.c_int64 * max(1, len(flat)))(*flat)
        self.c_naming = (ctypes.c_int64 * max(1, len(naming)))(*naming)
        self.tb_deal = native.lib.tb_deal
        self.tb_deal.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64]
        self.tb_deal.restype = None

    def _naming(self, game: CompiledGame, st: State, hidden: set[int]) -> list[tuple[int, int]]:
        """(word, component) for every word outside the zones that names a dealt component."""
        lay, w = self.native.lay, self.base
        out: list[tuple[int, int]] = []
        for name, var in game.vars.items():
            if lay.var_kinds[name] == "list:comp":  # components in a list var: refused (no naming yet)
                raise NotNative(f"var {name!r} holds a list of components")
            if COMP in var.type:
                at, count = lay.var_base[name], int(st["t"]["n"]) if var.per_player else 1
                out += [(at + j, w[at + j]) for j in range(count) if w[at + j] in hidden]
        for name in component_marks(game):
            at = lay.mark_base[name]
            out += [(at + c, w[at + c]) for c in range(len(game.components)) if w[at + c] in hidden]
        dec = st["dec"]
        if dec is not None and dec["k"] == "window":
            for k, (ai, args) in enumerate(dec["v"]):
                params = game.action_list[ai].params
                for j, arg in enumerate(args):
                    if COMP in params[j][2] and arg in hidden:
                        out.append((self.native.dopt + self.native.stride * k + 1 + j, arg))
        return out

    def deal(self, gen: list[int], into: NativeState | None = None) -> NativeState:
        assert not self.inside, "a world inside an effect is dealt by the native tree only"

        """One world, drawn from `gen` (the draws of `determinize`); written over `into` when given
        (a world the caller is done with: a fresh 135 kB array costs more than the deal)."""
        if into is not None and into.plain is None and into.names is self.names:
            ctypes.memmove(into.words, self.base, 8 * self.native.keep)
            words: Any = into.words
        else:
            words = self.native.array.from_buffer_copy(self.base)
        g = (ctypes.c_uint64 * 2)(*gen)  # the whole deal in native code, `fits` included
        self.tb_deal(words, g, self.c_plan, len(self.plan), self.c_naming, len(self.naming))
        gen[0], gen[1] = g[0], g[1]
        return NativeState(words, self.names, self.o)


def _inside(native: NativeGame, data: Any, true: Any) -> tuple[Any, Any]:
    """The base words of worlds dealt at a decision inside an effect: the state's data (zones,
    marks, vars, counters, the flow) from `data`, the phase frame's pc, the decision, the queue and
    the segment's first state from the true words, with the world dealt where the replay of the
    queue reaches the decision (Q_DEAL: 1 + the answers before it); and that first state apart."""
    lay, at = native.lay, native.at
    off = lay.offsets
    words = native.array.from_buffer_copy(true)
    kept = [at[k] for k in ("FR_PC", "BUDGET", "DK", "DP", "DN", "DSITE")]
    saved = [words[k] for k in kept]
    ctypes.memmove(words, data, 8 * off["DOPT"])  # words[:DOPT] = data[:DOPT], without Python ints
    for k, v in zip(kept, saved, strict=True):
        words[k] = v
    words[off["Q_DEAL"]] = words[off["Q_LEN"]] + 1
    segment = (ctypes.c_int64 * lay.main).from_buffer_copy(true, 8 * off["SNAP"])
    return words, segment


def _fitting(occupants: list[int], where: list[tuple[int, int]], fits: Fits | None) -> list[int]:
    """How runtime tb_deal deals a group as determinize's `_deal_fitting` does: [0] where no
    condition covers any of its places, else 1, the places in the order they are dealt (the fewest
    fitting components first, stable), then per place whether a condition covers it and, per
    component in sorted order, whether it fits there. `fits` answers None for a place whatever the
    component (a `bots: deal:` condition covers a zone or not: bots/deal.py DealFilter)."""
    if fits is None:
        return [0]
    comps = sorted(occupants)
    rows: list[list[int]] = []
    for zi, pos in where:
        if fits(comps[0], zi, pos) is None:
            rows.append([0] * (1 + len(comps)))
        else:
            rows.append([1, *(1 if fits(c, zi, pos) else 0 for c in comps)])
    if not any(row[0] for row in rows):
        return [0]
    size = [sum(row[1:]) if row[0] else len(comps) + 1 for row in rows]
    order = sorted(range(len(occupants)), key=lambda k: size[k])
    return [1, *order, *(w for row in rows for w in row)]
