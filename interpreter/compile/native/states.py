"""A game state in native words (`NativeState`) and what frees the segment suspended on them.

Stage: compile (native). The words are the flat array of slots.py; bridge.py's `NativeGame` makes
them, converts them to plain data and back, and steps them. A dropped state gives its words back
to its game's pool (clones reuse them) and frees the segment suspended on them (runtime
segments.c: a state stopped at a decision inside an effect keeps its C frames until answered);
a clone may be kept packed (bridge.py `NativeGame.clone`) until its words are asked for.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from sys import getrefcount
from typing import Any

from tabula.interpreter.compile.native.naming import Named
from tabula.interpreter.model.state import State

POOL_KEPT = 32  # word arrays kept for clones, per game


class NotNative(Exception):
    """A plain state the native state cannot hold (a scenario's rig, a pause, an ending under way)."""


class NativeState:
    """A game state in native words; `plain` holds the state instead once it left the native form.

    `pool`: where its words go back when the state is dropped (clones reuse them: a fresh array of
    a large game's words costs more than the copy of the words a state reads), or None;
    `co`: the game's `Release`, which frees the segment suspended on the words when they are
    dropped (runtime/segments.c: a state stopped inside an effect keeps its C frames), or None.
    A clone is kept packed (`NativeGame.clone`: the words it reads, end to end, in an immutable
    bytes object its own clones share) until its words are first asked for; `kept` is the packed
    form last made of this state's words, with their generation then (T_GEN), or None; `named`
    likewise the pending decision's ids (bridge.py `NativeGame._named`)."""

    __slots__ = ("_a", "_w", "co", "kept", "mv", "named", "names", "o", "packed", "plain", "pool")

    def __init__(
        self,
        words: Any,
        names: list[str],
        o: dict[str, Any],
        pool: list[Any] | None = None,
        co: Release | None = None,
        packed: bytes | None = None,
    ) -> None:
        self._w = words
        self.mv: memoryview | None = None  # the words as int64 (view), made when first asked for
        self._a = 0  # the words' address (addr), 0 until asked for
        self.packed = packed
        self.kept: tuple[int, bytes] | None = None
        self.named: tuple[int, Named] | None = None  # the pending ids named, with the words' T_GEN
        self.names = names
        self.o = o
        self.plain: State | None = None
        self.pool = pool
        self.co = co

    @property
    def words(self) -> Any:
        """The state's word array (a packed clone's made now, in words of a dropped state)."""
        w = self._w
        if w is None:
            co = self.co
            assert co is not None and self.packed is not None
            w = self._w = co.unpack(self.packed)
            self.packed = None
        return w

    @words.setter
    def words(self, w: Any) -> None:
        self._w, self.packed, self.mv, self._a = w, None, None, 0

    @property
    def view(self) -> memoryview:
        """The words as a memoryview of int64, kept while the words are: a step reads a few words
        and the options' bytes, and a view's index and slice cost less than the ctypes array's
        (whose buffer export alone is about 0.5 us)."""
        v = self.mv
        if v is None:
            v = self.mv = memoryview(self.words).cast("B").cast("q")
        return v

    @property
    def addr(self) -> int:
        """The words' address (a native call converts an int quicker than the array)."""
        a = self._a
        if not a:
            a = self._a = ctypes.addressof(self.words)
        return a

    def of(self, other: NativeState) -> NativeState:
        """These words as a state of `other`'s players and options, their decision named anew (the
        bridge's scratch words, where a decision is recomputed)."""
        self.names, self.o, self.named = other.names, other.o, None
        return self

    def __del__(self) -> None:
        self.mv = None  # (the view holds the words: released first, so the count below is theirs)
        w = self._w
        # only words nothing else holds (the slot, `w` and the call's argument: 3 references)
        if w is None or getrefcount(w) != 3:
            return
        co = self.co
        if co is not None and w[co.at]:
            co.free(w)
        pool = self.pool
        if pool is not None and len(pool) < POOL_KEPT:
            pool.append(w)


class Release:
    """Frees the segment suspended on a state's words (runtime tb_release), if any: `at` is the
    word of its ticket (T_CO, 0 when none), `free` the library's tb_release; `unpack` makes a
    packed clone's words (NativeGame.unpack)."""

    __slots__ = ("at", "free", "unpack")

    def __init__(self, lib: ctypes.CDLL, at: int, unpack: Callable[[bytes], Any]) -> None:
        lib.tb_release.argtypes = [ctypes.c_void_p]
        lib.tb_release.restype = None
        self.free = lib.tb_release
        self.at = at
        self.unpack = unpack
