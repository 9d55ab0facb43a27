"""The RL adapters' C library of one game and player count: observations, masks, batched steps.

`NativeRL.get(rules, players)` writes a small C file (the game's native layout as `#define`s, the
observation of `tabula.rl.native_obs`, then `batch.c`), builds it with the native backend's
compiler and cache (compile/native/build.py: sealed, keyed by a hash of the file), and loads it.
The game's rules stay in the game's own native library: `rl_step` calls its `tb_apply` through a
pointer. The answer is None, with one line saying why, when the game does not run natively (its
engine runs on Python, or there is no C compiler) or its observation cannot be written in C; the
adapters then encode the Python view (`tabula.rl.encoding`), which gives the same tensor.

The mask table numbers each option of a decision by the stable action index (`tabula.rl.actions`)
for one set of player names: every slot is looked up once here, by the id Python would name (see
batch.c for its format), so the C side never parses an id.
"""

from __future__ import annotations

import ctypes
import hashlib
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from tabula.interpreter.base import rng
from tabula.interpreter.base.types import COMP, PLAYER
from tabula.interpreter.compile.native import build
from tabula.interpreter.compile.native.bridge import NativeGame, NativeState
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import new_state
from tabula.interpreter.run import validate
from tabula.rl.actions import ActionIndex, UnindexedChoice, Universe
from tabula.rl.encoding import Encoder
from tabula.rl.native_obs import NotHeld, obs_source

FORMAT = "tabula rl 1"
_P = ctypes.c_void_p
_I64 = ctypes.c_int64
_PY_TYPES = {"sym": "symbol", "place": "list[comp]"}  # as bridge.py names a choice's value type


def _slot(u: Universe, cid: str, names: list[str]) -> int:
    s = u.slot(cid, names)
    return -1 if s is None else s


def _index(index: ActionIndex, cid: str, names: list[str]) -> int:
    try:
        return index.index(cid, names)
    except UnindexedChoice:
        return -1


class _Tables:
    """The flat int64 table batch.c reads (see its header comment)."""

    def __init__(self, index: ActionIndex, nat: NativeGame, names: list[str]) -> None:
        self.index, self.nat, self.names = index, nat, names
        g = nat.g
        self.ncomp = len(g.components)
        first: dict[str, int] = {}
        self.name_no = [first.setdefault(c.name, c.id) for c in g.components]
        self.words: list[int] = []

    def value_table(self, t: str, kind: str, look: Any) -> int:
        """Append the value table of words of `kind` shown as type `t`, each id's slot by `look`."""
        g, names = self.nat.g, self.names
        at = len(self.words)
        none = look("none")
        if kind == "int" and t == COMP:
            bare = [look(g.component_names[c]) for c in range(self.ncomp)]
            keys = [look(c.key) for c in g.components]
            self.words += [0, none, 0, 2 * self.ncomp, *bare, *keys, *self.name_no]
        elif kind == "int":
            lo, hi = self.index.numbers
            if t == PLAYER:
                lo, hi = min(lo, 0), max(hi, len(names) - 1)
            ids = [names[v] if t == PLAYER and 0 <= v < len(names) else str(v) for v in range(lo, hi + 1)]
            self.words += [1, none, lo, hi - lo + 1, *map(look, ids)]
        elif kind == "sym":
            self.words += [1, none, 0, len(self.nat.lay.symbols), *map(look, self.nat.lay.symbols)]
        elif kind == "bool":
            self.words += [1, none, 0, 2, look("false"), look("true")]
        else:  # lists of seats, placements: Python names them (and says why they have no index)
            self.words += [-1, none, 0, 0]
        return at

    def build(self) -> npt.NDArray[np.int64]:
        g, nat, index, names = self.nat.g, self.nat, self.index, self.names
        nact, nsite = len(g.action_list), len(nat.sites)
        head = 2 + nact + nsite
        self.words = [0] * head
        self.words[0], self.words[1 + nact] = nact, nsite
        for ai, (act, block) in enumerate(zip(g.action_list, index.blocks, strict=True)):
            kinds = nat.arg_kinds.get(ai, [])
            params = []
            for j, ((_, u), (_, _, t)) in enumerate(zip(block.params, act.params, strict=True)):
                kind = kinds[j] if j < len(kinds) else "?"
                params.append((u.size, self.value_table(t, kind, lambda cid, u=u: _slot(u, cid, names))))
            self.words[1 + ai] = self._spec(block.offset, params)
        for s, (ty, kind) in enumerate(nat.sites):
            t = _PY_TYPES.get(ty, ty)
            tab = self.value_table(t, kind, lambda cid: _index(index, cid, names))
            self.words[2 + nact + s] = self._spec(0, [(1, tab)])
        return np.asarray(self.words, np.int64)

    def _spec(self, offset: int, params: list[tuple[int, int]]) -> int:
        at = len(self.words)
        self.words += [offset, len(params)]
        for radix, tab in params:
            self.words += [radix, tab]
        return at


def c_file(enc: Encoder, nat: NativeGame) -> str:
    """The library's C source (NotHeld: the observation cannot be written in C)."""
    head = ["#include <stdint.h>", "#include <string.h>", "typedef int64_t i64;", "#define NONE INT64_MIN"]
    fixed = resources.files("tabula.rl").joinpath("batch.c").read_text(encoding="utf-8")
    return "\n".join([*head, *nat.lay.defines(), obs_source(enc, nat.lay), fixed])


class NativeRL:
    """One game's RL library for a player count and player names (see the module docstring)."""

    _made: dict[tuple[int, tuple[str, ...]], tuple[Any, NativeRL | None, str]] = {}

    def __init__(self, engine: Engine, nat: NativeGame, lib: ctypes.CDLL, enc: Encoder, table: Any) -> None:
        self.engine = engine
        self.nat = nat
        self.lib = lib
        self.encoder = enc
        self.table = table  # kept alive: C reads it
        self.table_p = table.ctypes.data
        self._template: tuple[Any, NativeState] | None = None  # restart's state before setup
        self.apply_p = ctypes.cast(nat.lib.tb_apply, _P).value
        nocopy = getattr(nat.lib, "tb_apply_nocopy", None)  # a library built before it: tb_apply alone
        self.nocopy_p = None if nocopy is None else ctypes.cast(nocopy, _P).value
        lib.rl_observe_one.argtypes = [_P, _I64, _P]
        lib.rl_observe_one.restype = None
        lib.rl_mask_one.argtypes = [_P, _P, _P, _I64]
        lib.rl_mask_one.restype = ctypes.c_int
        lib.rl_observe.argtypes = [_P, _I64, _P, _P, _P, _I64, _P, _P]
        lib.rl_observe.restype = None
        lib.rl_step.argtypes = [_P, _I64, _I64, _P, _P, _P, _P, _P, _I64, _P, _P, _P, _I64, _P, _P, _P]
        lib.rl_step.restype = _I64

    @classmethod
    def get(cls, engine: Engine, index: ActionIndex, names: list[str]) -> tuple[NativeRL | None, str]:
        """The library for `engine`'s game with these player names, or None and why (one line)."""
        key = (id(engine), tuple(names))
        found = cls._made.get(key)
        if found is not None and found[0] is engine:
            return found[1], found[2]
        made, why = cls._make(engine, index, names)
        cls._made[key] = (engine, made, why)
        return made, why

    @classmethod
    def _make(cls, engine: Engine, index: ActionIndex, names: list[str]) -> tuple[NativeRL | None, str]:
        nat = engine.native
        if nat is None:
            return None, engine.backend_note or "the game runs on the Python backend"
        enc = Encoder(engine.game, len(names))
        try:
            source = c_file(enc, nat)
        except NotHeld as err:
            return None, f"the observation is encoded on Python: {err}"
        compiler, why = build.find_compiler()
        if compiler is None:
            return None, why
        key = hashlib.sha256(
            "\n".join([FORMAT, source, compiler.identity(), *build.FLAGS]).encode()
        ).hexdigest()[:40]
        data = build.cached(key)
        if data is None:
            try:
                data = build.build(source, compiler, key).data
            except build.BuildError as err:
                return None, " ".join(str(err).split())[:300]
        table = _Tables(index, nat, list(names)).build()
        return cls(engine, nat, build.load(data), enc, table), ""

    # ------------------------------------------------------------ one state
    def restart(self, st: NativeState, seed: int) -> bool:
        """`st`'s own words started again as a new game with engine seed `seed`, as Engine.new_game
        starts one (the state before setup for its names and options, the generator, setup run
        natively), without allocating; False when native code stopped (Engine.new_game then)."""
        seed = validate.seed(seed)
        nat = self.nat
        key = (tuple(st.names), repr(sorted(st.o.items())))
        if self._template is None or self._template[0] != key:
            g, names, opts = nat.g, list(st.names), dict(st.o)
            made = nat.initial(names, opts, [0, 0], lambda: new_state(g, names, seed, opts))
            self._template = (key, made)
        ctypes.memmove(st.words, self._template[1].words, 8 * nat.keep)
        at = nat.lay.offsets["RNG"]
        for k, word in enumerate(rng.seed_state(seed)):
            st.words[at + k] = word - (1 << 64) if word >> 63 else word
        return bool(nat.start(st.words, nat.g.work_budget) == 0)

    def live(self, st: Any) -> bool:
        """Is `st` a state in native words (else it is encoded from its Python view)?"""
        return st.__class__ is NativeState and st.plain is None

    def observe(self, st: NativeState, viewer: int, out: npt.NDArray[np.float32]) -> None:
        """`viewer`'s observation tensor of a live native state, into `out` (C-contiguous float32)."""
        self.lib.rl_observe_one(ctypes.addressof(st.words), viewer, out.ctypes.data)

    def mask(self, st: NativeState, out: npt.NDArray[np.int8]) -> bool:
        """The legal-action mask of a live native state into `out`; False when an option has no
        index (Python names the ids then, and says why)."""
        return not self.lib.rl_mask_one(ctypes.addressof(st.words), self.table_p, out.ctypes.data, out.size)


def observation(
    engine: Engine,
    native: NativeRL | None,
    encoder: Encoder,
    st: Any,
    viewer: int,
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """`viewer`'s observation tensor of `st`: in C when `st` is live native words, else from the view."""
    if out is None:
        out = np.zeros(encoder.size, np.float32)
    if native is not None and native.live(st):
        native.observe(st, viewer, out)
        return out
    return encoder.tensor(engine.view(st, viewer), out)
