"""The native library of a game, loaded with ctypes, and its states: to plain data and back, exactly.

Stage: compile (native). `prepare(game)` gives the game's `NativeGame` (built or taken from the
cache) or None and one line saying why (the game uses what the typed form cannot hold yet, or there
is no C compiler). A `NativeState` is the flat word array (slots.py) plus the player names and the
rules options; `to_plain` writes the state of model/state.py, frames included (a native state at a
decision always stands for the same two frames: the flow's and its phase's, at the window), and
`from_plain` reads one back, refusing (NotNative) what the native state cannot hold.
"""

from __future__ import annotations

import ctypes
import mmap
from array import array
from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.types import WINDOW_PROMPT
from tabula.interpreter.compile.native.naming import (
    IDS_KEPT,
    NOTHING,
    PY_TYPES,
    UNSET,
    Named,
    Namer,
    choice_ids,
)
from tabula.interpreter.compile.native.recompute import Recompute
from tabula.interpreter.compile.native.slots import (
    DEC_WORDS,
    ENDINGS,
    FLOW_WORDS,
    NONE,
    Layout,
    option_kind,
    pack_players,
    unpack_players,
)
from tabula.interpreter.compile.native.states import POOL_KEPT, Release
from tabula.interpreter.compile.native.states import NativeState as NativeState  # re-exported
from tabula.interpreter.compile.native.states import NotNative as NotNative  # re-exported
from tabula.interpreter.compile.native.views import NativeViews, flow
from tabula.interpreter.model.choices import option_ids
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State, clone, no_ending
from tabula.interpreter.run.flow import STAGES

_MASK = (1 << 64) - 1
_I64 = ctypes.c_int64
_DEFAULT_T = no_ending()
_T_KEYS = {"stage", "round", "turn", "active", "phase", "phase_id", "n", "next", "skips", "decisions"}


class NativeGame:
    """One game's loaded library and layout."""

    def __init__(
        self,
        game: CompiledGame,
        lib: ctypes.CDLL,
        layout: Layout,
        build_cpu: float,
        arg_kinds: dict[int, list[str]] | None = None,
        sites: list[list[str]] | None = None,
    ) -> None:
        self.g = game
        self.sites = [(t, kind) for t, kind in sites or []]  # per choose site: value type, word kind
        self.arg_kinds = arg_kinds or {}  # action index -> how its arguments are kept (int, bool, sym)
        self.lib = lib
        self.lay = layout
        self.build_cpu = build_cpu
        self.array = _I64 * layout.size
        off = layout.offsets
        self.at = {w: off["T_" + w] for w in FLOW_WORDS} | {w: off["D_" + w[1:]] for w in DEC_WORDS}
        self.dopt = off["DOPT"]
        self.stride = layout.dstride  # words per option
        self.ntie = len(game.tiebreak)
        flow = game.flow
        self.phase_blocks = [b for _, b in flow.phases] if flow is not None else []
        self.phase_ids = [i for i, _ in flow.phases] if flow is not None else []
        self.check_ids = [c.id for c in game.end_checks]
        self.window_pc = {b: pc for (b, pc) in game.decision_points}
        for fn, args in (
            ("tb_start", [_I64]),
            ("tb_apply", [_I64, _I64, ctypes.c_void_p]),
            ("tb_reoffer", []),
            ("tb_reoffer_inner", []),
        ):
            getattr(lib, fn).argtypes = [ctypes.c_void_p, *args]
            getattr(lib, fn).restype = ctypes.c_int
        lib.tb_score.argtypes = [ctypes.c_void_p, _I64, ctypes.c_void_p]
        lib.tb_copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, _I64]
        lib.tb_copy.restype = None
        self.copy = lib.tb_copy
        self.pool: list[Any] = []  # word arrays of dropped clones, reused (NativeState.pool)
        self.co = Release(lib, off["T_CO"], self.unpack)  # frees a dropped state's suspended segment
        lib.tb_pack.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.tb_pack.restype = _I64
        lib.tb_unpack.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.tb_unpack.restype = None
        self._packbuf: Any = None  # the words a clone is packed in before it is kept as bytes
        self.gen_at = off["T_GEN"]
        lib.tb_ticket.restype = _I64
        lib.tb_eval.argtypes = [ctypes.c_void_p, _I64, ctypes.c_void_p]
        self.has_evaluation = bool(lib.tb_has_eval())
        lib.tb_playout.argtypes = [
            ctypes.c_void_p,
            ctypes.c_void_p,
            _I64,
            _I64,
            ctypes.c_void_p,
            ctypes.c_void_p,
        ]
        vp = ctypes.c_void_p
        lib.tb_playouts.argtypes = [vp, vp, _I64, vp, vp, _I64, _I64, vp, vp]
        lib.tb_playouts.restype = None
        self.apply = lib.tb_apply
        self.start = lib.tb_start
        self.before = self.array()  # the state before the last native apply (replayed on Python)
        self.before_at = ctypes.addressof(self.before)
        self._starts: dict[str, NativeState] = {}
        self.dk, self.dn, self.dp, self.dsite = self.at["DK"], self.at["DN"], self.at["DP"], self.at["DSITE"]
        self.keep = layout.keep
        # the words a window's options are computed again in, a state kept (its view made once)
        self.scratch = self.array()
        self.scratch_state = NativeState(self.scratch, [], {})
        # the pending options' words -> their ids and each id's index, per the players' names
        self._by_names: dict[tuple[str, ...], dict[tuple[Any, ...], Named]] = {}
        self._ids: dict[tuple[Any, ...], Named] = {}
        self._names: list[str] | None = None  # the names `_ids` is for
        self.zone_at = [layout.zone(z) for z in range(len(game.zone_layouts))]
        self.namer = Namer(
            game, lib, layout.symbols, self.stride, self.arg_kinds, self.sites, self.before_at, self.gen_at
        )
        # answer index k on a state's words (0, or tb_apply's error code), the next decision's ids
        # named in the same call where they are named in C (runtime tb_step: the step path's one
        # call); the Namer's own method, not a wrapper (a Python frame is a tenth of a step's Python)
        self.advance: Callable[[NativeState, int | str, int], int | None] = self.namer.step
        self.views = NativeViews(self)  # Engine.view of its states (views.py)
        # the pending window computed again as plain data, or recompute.AGAIN (the Python replay)
        self.recompute: Callable[[NativeState], dict[str, Any] | None] = Recompute(
            lib, self.namer, self.scratch_state, self.plain_decision, self.decision
        ).run

    def initial(
        self, names: list[str], options: dict[str, Any], rng: list[int], make: Callable[[], State]
    ) -> NativeState:
        """The native form of a new game's state before setup: `make()`'s state (model/state.py
        new_state), converted once per players and options, with the generator words `rng`."""
        made = self.start_state(names, options, make)
        ns = NativeState(self.fresh(), made.names, made.o, self.pool, self.co)
        self.copy(ns.words, made.words, 1)
        at = self.lay.offsets["RNG"]
        ns.words[at] = rng[0] - (1 << 64) if rng[0] >> 63 else rng[0]
        ns.words[at + 1] = rng[1] - (1 << 64) if rng[1] >> 63 else rng[1]
        return ns

    def start_state(
        self, names: list[str], options: dict[str, Any], make: Callable[[], State]
    ) -> NativeState:
        """A new game's state before setup (its generator words those `make()` gave), converted once
        per players and options (NotNative: it does not convert)."""
        try:  # (the values' types too: True == 1; a repr of many options took tens of us a game)
            key: Any = (*names, None, *options.items(), *map(type, options.values()))
            made = self._starts.get(key)
        except TypeError:  # an unhashable value (a list)
            key = repr((names, sorted(options.items())))
            made = self._starts.get(key)
        if made is None:
            made = self._starts[key] = self.from_plain(make())
        return made

    # ------------------------------------------------------------ reading
    def is_terminal(self, ns: NativeState) -> bool:
        return bool(ns.view[self.dk] == 0)

    def current_player(self, ns: NativeState) -> int | None:
        w = ns.words
        return None if w[self.at["DK"]] == 0 else int(w[self.at["DP"]])

    def options(self, ns: NativeState) -> int:
        """How many legal choices are pending (0: the game is over)."""
        w = ns.words
        return 0 if w[self.dk] == 0 else int(w[self.dn])

    def locations(self, ns: NativeState) -> list[int]:
        at = self.lay.offsets["LOC"]
        return list(ns.words[at : at + len(self.g.components)])

    def clone(self, ns: NativeState, packed: bool = True) -> NativeState:
        """A copy of `ns`: the words that are read (runtime tb_copy: a few kB where the whole
        array is hundreds). `packed`: kept packed (runtime tb_pack: the words end to end, in
        bytes) until its words are asked for, since a fresh array costs its pages; the bytes are
        shared with the original's other clones while the original's words do not change (their
        generation, T_GEN, is new at every native run that writes them). Else (a clone stepped
        at once) copied into an array of a dropped clone when there is one."""
        if ns.plain is not None:
            out = NativeState(ns.words, ns.names, ns.o)
            out.plain = clone(ns.plain)
            return out
        if packed:
            data = ns.packed
            if data is None:  # the packed form made of these words, while they have not changed
                v = ns.mv  # (the words' int64 view: an index costs less than the ctypes array's)
                gen, kept = (ns.view if v is None else v)[self.gen_at], ns.kept
                if kept is not None and gen and kept[0] == gen:
                    data = kept[1]
                else:
                    w = ns.words
                    buf = self._packbuf
                    if buf is None:  # (a mapping: tb_pack writes a few of its pages)
                        buf = self._packbuf = self.zeroed()
                    data = ctypes.string_at(buf, 8 * self.lib.tb_pack(buf, w))
                    ns.kept = (gen, data) if gen else None
            return NativeState(None, ns.names, ns.o, self.pool, self.co, data)
        words = self.fresh()
        self.copy(words, ns.words, 1)
        return NativeState(words, ns.names, ns.o, self.pool, self.co)

    def unpack(self, data: bytes) -> Any:
        """A packed clone's words (runtime tb_unpack), in an array of a dropped clone if any."""
        words = self.fresh()
        self.lib.tb_unpack(words, data)
        return words

    def fresh(self) -> Any:
        """Words for a new state, their contents undefined: a dropped state's, else an anonymous
        mapping (pages are zeroed by the system as they are first written, and only those: an
        allocator's zeroed array writes all of them, hundreds of kB in a large game)."""
        if self.pool:
            return self.pool.pop()
        return self.zeroed()

    def zeroed(self) -> Any:
        """Zeroed words in an anonymous mapping: the system zeroes a page when it is first
        written, where a ctypes array is written whole (549 kB in the largest bundled card game,
        about 0.4 ms)."""
        try:
            return self.array.from_buffer(mmap.mmap(-1, 8 * self.lay.size))
        except OSError:  # no mapping left (a process holding tens of thousands of states)
            return self.array()

    def window(self, ns: NativeState) -> bool:
        """The pending decision is a window (at a phase's top or inside a block): its plain form is
        the same as Python's, named from the options' words."""
        return bool((dk := ns.words[self.dk]) == 1 or (dk == 2 and ns.words[self.dsite] < 0))

    def ranking_keys(self, ns: NativeState) -> list[tuple[Any, ...]] | None:
        """Score and tiebreaks per player, or None when native code stops (Python then says why)."""
        try:
            return [tuple(self.scores(ns, p)) for p in range(len(ns.names))]
        except NativeFailure:
            return None

    def declared(self, ns: NativeState) -> list[int] | None:
        """The winners `declare_winner` gave (None: none declared)."""
        w = ns.words[self.at["WINNERS"]]
        return None if w == NONE else unpack_players(w)

    def choosing(self, ns: NativeState) -> bool:
        """A choice inside an effect is pending (its plain state is the segment replayed)."""
        return bool(ns.words[self.dk] == 2)

    def segment(self, ns: NativeState) -> tuple[NativeState, list[int], bool]:
        """The segment under way at a pending choice: its first state, the answers given since,
        and whether it starts by running (before setup, or at a phase's start: prelude.py
        `checkpoint`), else at a window, answered first."""
        off, w = self.lay.offsets, ns.words
        snap = self.array()
        ctypes.memmove(snap, ctypes.addressof(w) + 8 * off["SNAP"], 8 * self.lay.main)
        answers = list(w[off["QUEUE"] : off["QUEUE"] + w[off["Q_LEN"]]])
        return NativeState(snap, ns.names, ns.o), answers, bool(w[off["Q_START"]])

    def restore(self, ns: NativeState) -> None:
        """`ns` back to the state before the last native apply (all but the segment's first state,
        which that apply did not change)."""
        ctypes.memmove(ns.words, self.before, 8 * self.keep)

    def decision(self, ns: NativeState) -> tuple[int, list[tuple[int, Any]]] | None:
        """The pending decision: its player and (action, arguments as a tuple) options (a choice:
        (site, value)), else None."""
        w = ns.words
        if w[self.at["DK"]] == 0:
            return None
        n, base = w[self.at["DN"]], self.dopt
        flat = w[base : base + self.stride * n]
        kinds, decode = self.arg_kinds, self.lay.decode
        if w[self.dk] == 2 and w[self.at["DSITE"]] >= 0:  # a choice (a window inside a block: < 0)
            kind = self.sites[w[self.at["DSITE"]]][1]
            return w[self.at["DP"]], [
                (site, decode(v, kind))
                for site, v in zip(flat[0 :: self.stride], flat[1 :: self.stride], strict=True)
            ]
        options: list[tuple[int, Any]] = []
        for k in range(0, self.stride * n, self.stride):
            ai = flat[k]
            options.append((ai, tuple(decode(flat[k + 1 + j], kd) for j, kd in enumerate(kinds.get(ai, ())))))
        return w[self.at["DP"]], options

    def ids(self, ns: NativeState) -> list[str]:
        """The pending decision's choice ids (named only when asked; the names of the same options
        are kept: a search asks for them at every node it walks through)."""
        kept = ns.named  # (the step path: the ids named by the last step, read without a call)
        if kept is not None and kept[0] == ns.view[self.gen_at]:
            return kept[1].ids.copy()  # (a copy: the caller may change its list)
        return self._named(ns).ids.copy()

    def index(self, ns: NativeState, cid: str) -> int | None:
        """The index of choice id `cid` among the pending decision's (the first one so named), or
        None when no legal choice has that id."""
        kept = ns.named
        if kept is not None and kept[0] == ns.view[self.gen_at]:
            return kept[1].index(cid)
        return self._named(ns).index(cid)

    def _named(self, ns: NativeState) -> Named:
        """The pending options' ids and values, kept per options' words: the key is the options'
        bytes (one C copy), the decision's kind, site and player, per the players' names."""
        w = ns.view
        gen, kept = w[self.gen_at], ns.named
        if kept is not None and gen and kept[0] == gen:  # named since its words last changed
            return kept[1]
        dk = w[self.dk]
        if dk == 0:
            return NOTHING
        names = ns.names
        if names is not self._names:  # (the states of a game share their names' list)
            if len(self._by_names) >= IDS_KEPT:
                self._by_names.clear()
            self._ids = self._by_names.setdefault(tuple(names), {})
            self._names = names
        raw = w[self.dopt : self.dopt + self.stride * w[self.dn]].tobytes()  # (a C copy)
        key = (raw, dk, w[self.dsite] if dk == 2 else -1, w[self.dp])
        known = self._ids.get(key)
        if known is None:
            if len(self._ids) >= IDS_KEPT:
                self._ids.clear()
            known = self._ids[key] = Named(self._name_ids(ns))
        if gen:
            ns.named = (gen, known)
        return known

    def _name_ids(self, ns: NativeState) -> list[str]:
        named = self.namer.ids(ns.words, ns.names)  # in C, where it names every column
        if named is not None:
            return named
        dec = self.decision(ns)
        if dec is None:
            return []
        if ns.words[self.dk] == 2 and ns.words[self.at["DSITE"]] >= 0:
            ty = self.sites[ns.words[self.at["DSITE"]]][0]
            return option_ids(self.g, ns.names, [v for _, v in dec[1]], PY_TYPES.get(ty, ty))
        return choice_ids(self.g, dec[1], ns.names)

    def playout(self, ns: NativeState, gen: list[int], budget: int, limit: int) -> tuple[int, int]:
        """Random choices in native code (as Engine.random_choice draws them) until the end or
        `limit` decisions: (decisions taken, 0 or the error that stopped it before a choice)."""
        words = (ctypes.c_uint64 * 2)(*gen)
        done = _I64(0)
        code = self.lib.tb_playout(ns.words, words, budget, limit, self.before, ctypes.byref(done))
        gen[0], gen[1] = words[0], words[1]
        return done.value, code

    def playouts(
        self, start: NativeState, seeds: list[int], gens: list[list[int]], budget: int, limit: int
    ) -> list[int | None]:
        """Whole random games in one native call (runtime tb_playouts): each seed's new game from
        `start` (start_state), played as `playout` plays it with its generator in `gens` (updated);
        the decisions each took, None for a game native code stopped (its generator untouched: the
        caller plays it again on its own)."""
        n = len(seeds)
        # plain arrays, not ctypes ones: a ctypes array type of a new length costs tens of us
        flat = array("Q", [w for g in gens for w in g])
        done, codes, seed_words = array("q", bytes(8 * n)), array("q", bytes(8 * n)), array("Q", seeds)
        words = self.fresh()
        self.lib.tb_playouts(
            words,
            start.words,
            n,
            seed_words.buffer_info()[0],
            flat.buffer_info()[0],
            budget,
            limit,
            done.buffer_info()[0],
            codes.buffer_info()[0],
        )
        if len(self.pool) < POOL_KEPT:
            self.pool.append(words)
        out: list[int | None] = []
        for i, g in enumerate(gens):
            if codes[i]:
                out.append(None)
                continue
            g[0], g[1] = flat[2 * i], flat[2 * i + 1]
            out.append(done[i])
        return out

    def evaluation(self, ns: NativeState) -> list[int] | None:
        """The game's `bots: evaluate:` of every player in native code; None where native code
        does not hold it or stops (the bot then evaluates the plain state: Python says why)."""
        if not self.has_evaluation:
            return None
        n = len(ns.names)
        out = (_I64 * n)()
        if self.lib.tb_eval(ns.words, n, out):
            return None
        return list(out)

    def scores(self, ns: NativeState, p: int) -> list[int]:
        out = (_I64 * (1 + self.ntie))()
        code = self.lib.tb_score(ns.words, p, out)
        if code:
            raise NativeFailure(code)
        return list(out)

    # ------------------------------------------------------------ conversion
    def to_plain(self, ns: NativeState) -> State:
        if ns.plain is not None:
            return ns.plain
        g, lay, w = self.g, self.lay, ns.words
        off, ncomp, at = lay.offsets, len(g.components), self.at
        n = w[at["N"]]
        zlen = off["ZLEN"]
        zones = [w[z0 : z0 + w[zlen + z]] for z, z0 in enumerate(self.zone_at)]
        t = flow(self, ns.view)
        plain_dec = self.plain_decision(ns)
        out: State = {
            "z": zones,
            "loc": w[off["LOC"] : off["LOC"] + ncomp],
            "c": w[off["CNT"] : off["CNT"] + g.counter_count],
            "v": {name: self._var(w, name, n) for name in g.vars},
            "m": {name: self._marks(w[b : b + ncomp], name) for name, b in lay.mark_base.items()},
            "rv": w[off["RV"] : off["RV"] + ncomp],
            "rng": [w[off["RNG"]] & _MASK, w[off["RNG"] + 1] & _MASK],
            "stk": self._frames(w),
            "dec": plain_dec,
            "t": t,
            "names": list(ns.names),
            "o": dict(ns.o),
        }
        if lay.ends and w[off["RU"]]:  # the ends of grants given `until` an event (grants_c.py)
            ru = w[off["RU"] + 1 : off["RU"] + 3 * w[off["RU"]] - 2]
            out["ru"] = [[lay.until[ru[i]], ru[i + 1], ru[i + 2]] for i in range(0, len(ru), 3)]
        return out

    def plain_decision(self, ns: NativeState) -> dict[str, Any] | None:
        """The pending decision as `state["dec"]` (ids named, values as [action, [arguments]])."""
        named = self._named(ns)
        dec = named.dec
        if dec is UNSET:  # decoded when first asked for (the ids are named without it)
            dec = named.dec = self.decision(ns)
        if dec is None:
            return None
        values = [[ai, list(args)] for ai, args in dec[1]]
        return {
            "k": "window",
            "p": dec[0],
            "ids": list(named.ids),
            "v": values,
            "prompt": WINDOW_PROMPT,
        }

    def _marks(self, words: list[int], name: str) -> list[Any]:
        """A mark's words as its plain values (numbers and flags without a call per component)."""
        kind = self.lay.mark_kinds.get(name, "int")
        if kind == "int":
            return [None if x == NONE else x for x in words] if NONE in words else words
        if kind == "bool":
            return [None if x == NONE else x != 0 for x in words]
        return [self.lay.decode(x, kind) for x in words]

    def _var(self, w: Any, name: str, n: int) -> Any:
        v = self.g.vars[name]
        kind, base, width = self.lay.var_kinds[name], self.lay.var_base[name], self.lay.var_width(name)
        if v.per_player:
            return [self.lay.decode_var(w, base + j * width, kind) for j in range(n)]
        return self.lay.decode_var(w, base, kind)

    def _frames(self, w: Any) -> list[Any]:
        if STAGES[w[self.at["STAGE"]]] == "done":
            return []
        frames: list[Any] = [[self.g.main_block, 0, {}]]
        pc = w[self.at["FR_PC"]]
        if pc >= 0:
            block = self.phase_blocks[w[self.at["PHASE"]] - 1]
            p = w[self.at["ACTIVE"]]
            at = self.window_pc.get(block, 0) + pc - 1 if pc > 0 else 0  # 0: the phase starts
            frames.append([block, at, {"p": p, "me": p}])
        return frames

    def from_plain(self, st: State, data_only: bool = False) -> NativeState:
        """The native form of a plain state; NotNative when it holds what native words cannot.
        `data_only`: the frames and the pending decision are not read (left as in a new state)."""
        try:
            return self._from_plain(st, data_only)
        except (ValueError, KeyError, IndexError, TypeError) as err:
            raise NotNative(str(err)) from err

    def loaded(self, st: State) -> NativeState:
        """`from_plain` of a state the engine takes in (a save, a world), its words given a generation
        of their own (runtime tb_ticket): its ids, named when first asked for, are kept as a step's."""
        ns = self.from_plain(st)
        ns.words[self.gen_at] = self.lib.tb_ticket()
        return ns

    def _from_plain(self, st: State, data_only: bool = False) -> NativeState:
        g, lay = self.g, self.lay
        t = st["t"]
        if "rig" in st or set(t) - _T_KEYS - set(_DEFAULT_T):
            raise NotNative("the state holds what the native form does not (a rig, a pause)")
        words = self.zeroed()  # (the words not written below are zero: a new state's)
        off, ncomp, at = lay.offsets, len(g.components), self.at
        words[off["RNG"]], words[off["RNG"] + 1] = (ctypes.c_int64(x).value for x in st["rng"])
        for k in ("ROUND", "TURN", "PHASE", "N", "NEXT", "SKIPS", "DECISIONS"):
            words[at[k]] = int(t[k.lower()])
        words[at["STAGE"]] = STAGES.index(t["stage"])
        words[at["ACTIVE"]] = NONE if t["active"] is None else int(t["active"])
        words[at["PHASE_ID"]] = NONE if t["phase_id"] is None else self.phase_ids.index(t["phase_id"])
        words[at["FR_PC"]] = -1 if data_only else self._pc(st)
        words[at["ENDING"]] = ENDINGS.index(t["ending"])
        words[at["TRIGGER"]] = NONE if t["trigger"] is None else int(t["trigger"])
        words[at["FINAL_MODE"]] = int(bool(t["final_mode"]))
        words[at["NFINAL"]], words[at["NFIRED"]] = len(t["final"]), len(t["fired"])
        words[at["WINNERS"]] = NONE if t["winners"] is None else pack_players(t["winners"])
        words[off["FINAL"] : off["FINAL"] + len(t["final"])] = [int(p) for p in t["final"]]
        words[off["FIRED"] : off["FIRED"] + len(t["fired"])] = [self.check_ids.index(c) for c in t["fired"]]
        for i, name in enumerate(g.options):
            words[off["OPT"] + i] = lay.encode(st["o"][name], option_kind(g.options[name]))
        words[off["CNT"] : off["CNT"] + g.counter_count] = lay.encode_list(st["c"], "int")
        for name, var in g.vars.items():
            kind, at_, width = lay.var_kinds[name], lay.var_base[name], lay.var_width(name)
            value = st["v"][name]
            for j, x in enumerate(value if var.per_player else [value]):
                encoded = lay.encode_var(x, kind)
                for i, word in enumerate(encoded):
                    words[at_ + j * width + i] = word
        for name, b in lay.mark_base.items():
            words[b : b + ncomp] = lay.encode_list(st["m"][name], lay.mark_kinds.get(name, "int"))
        words[off["RV"] : off["RV"] + ncomp] = list(st["rv"])
        if "ru" in st:
            ends = st["ru"]
            if len(ends) > lay.ends:
                raise NotNative(f"{len(ends)} grants given until an event (room for {lay.ends})")
            flat = [x for ev, cid, bits in ends for x in (lay.until.index(ev), int(cid), int(bits))]
            words[off["RU"] : off["RU"] + 1 + len(flat)] = [1 + len(ends), *flat]
        words[off["LOC"] : off["LOC"] + ncomp] = list(st["loc"])
        for z, items in enumerate(st["z"]):
            words[off["ZLEN"] + z] = len(items)
            words[lay.zone(z) : lay.zone(z) + len(items)] = list(items)
        if not data_only:
            self._read_decision(st["dec"], words)
        return NativeState(words, list(st["names"]), dict(st["o"]), co=self.co)

    def _pc(self, st: State) -> int:
        stk = st["stk"]
        if len(stk) <= 1:
            return -1
        if len(stk) != 2 or stk[1][0] not in self.phase_blocks or set(stk[1][2]) != {"p", "me"}:
            raise NotNative("effects under way that the native form does not hold")
        return 1 + stk[1][1] - self.window_pc[stk[1][0]] if stk[1][1] else 0

    def _read_decision(self, dec: dict[str, Any] | None, words: Any) -> None:
        if dec is None:
            return
        if dec["k"] != "window":
            raise NotNative("a decision other than a window")
        if len(dec["v"]) > self.lay.dec_cap:  # (more than a window of native code poses: E_SIZE)
            raise NotNative(f"a window of {len(dec['v'])} options (room for {self.lay.dec_cap})")
        words[self.at["DK"]], words[self.at["DP"]], words[self.at["DN"]] = 1, dec["p"], len(dec["v"])
        for k, (ai, args) in enumerate(dec["v"]):
            at = self.dopt + self.stride * k
            words[at] = ai
            for j in range(1, self.stride):
                words[at + j] = NONE
            for j, kind in enumerate(self.arg_kinds.get(ai, ())):
                words[at + 1 + j] = self.lay.encode(args[j], kind)


class NativeFailure(Exception):
    """Native code stopped with an error number (prelude.py); the engine replays on Python."""

    def __init__(self, code: int) -> None:
        super().__init__(f"native code stopped with error {code}")
        self.code = code
