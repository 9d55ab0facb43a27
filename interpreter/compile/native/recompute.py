"""A native state's pending window computed again, as plain data (`Engine.recompute_decision`).

Stage: compile (native). One call of the library (runtime/recompute.c `tb_recompute`) computes
the window's options again on the state's own words (left as they were), writes them into the
bridge's scratch words and looks them up in the table of options the step path named (names.c,
naming.py `Namer`): the same options, decision kind, site, player and players' names have the same
ids, and their decoded values are kept with them (`Named.dec`). The plain decision is then made of
those kept values, its lists new (a caller may change them). Options the table does not name (a
column named in Python, players' names holding a NUL) are named from the scratch words, as before
(bridge.py `NativeGame.plain_decision`). A choice inside an effect, or a window native code stops
on, is recomputed by the Python replay (`AGAIN`).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.types import WINDOW_PROMPT
from tabula.interpreter.compile.native.naming import UNSET, Context, Namer
from tabula.interpreter.compile.native.states import NativeState

AGAIN: Any = object()  # not recomputed natively: the Python replay recomputes it
_NM_INTO = 17  # runtime recompute.c NM_INTO (after names.c's NM_S = 13)


class Recompute:
    """`run(ns)`: the window pending on `ns` computed again natively as its plain decision (None:
    the game is over), or AGAIN."""

    def __init__(
        self,
        lib: ctypes.CDLL,
        namer: Namer,
        scratch: NativeState,
        plain: Callable[[NativeState], dict[str, Any] | None],
        decode: Callable[[NativeState], tuple[int, list[tuple[int, Any]]] | None],
    ) -> None:
        """`scratch`: the bridge's scratch words, a state kept (its view made once); `plain` names
        and decodes a state's pending decision (bridge.py plain_decision), `decode` decodes it."""
        self.namer, self.scratch, self.plain, self.decode = namer, scratch, plain, decode
        self.at = ctypes.addressof(scratch.words)
        call = ctypes.PyDLL(lib._name).tb_recompute  # (the GIL kept: a call is a microsecond)
        call.restype = ctypes.c_int64
        self.call = call
        # the call's `ctx` for players' names the Namer does not name: nothing looked up (NM_TAB 0)
        self.bare = (ctypes.c_int64 * (_NM_INTO + 1))()
        self.last: tuple[Any, Context | None] = (None, None)  # the players' names asked last, their ctx

    def run(self, ns: NativeState) -> dict[str, Any] | None:
        names, c = self.last
        if names is not ns.names:  # (the states of a game share their names' list)
            c = self.namer.context(ns.names)
            self.last = (ns.names, c)
        a: Any
        if c is None:
            a = arg = self.bare
        else:
            a, arg = c.ctx, c.arg
        # NM_S, NM_INTO (literals: a global costs a lookup); the words' address read from its slot
        # when known (the property is a call)
        a[13], a[17] = ns._a or ns.addr, self.at
        r = self.call(arg)
        if r <= 0 or c is None:  # -code: Python replays; 0: no decision, or options named in Python
            return AGAIN if r < 0 else self.plain(self.scratch.of(ns))
        named = c.entries[r >> 1] if r & 1 else self.namer.entry(c, r)
        dec = named.dec
        if dec is UNSET:  # decoded when first asked for, from the scratch words' options
            dec = named.dec = self.decode(self.scratch)
        assert dec is not None  # (options were named)
        return {
            "k": "window",
            "p": dec[0],
            "ids": named.ids.copy(),
            "v": [[ai, [*args]] for ai, args in dec[1]],
            "prompt": WINDOW_PROMPT,
        }
