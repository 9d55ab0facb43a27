"""Views of a state in native words: model/view.py's `view`, without the state made plain first.

Stage: compile (native). `Engine.view` of a native state asks `NativeViews.view` first: what the
view holds of component size (locations, grants, zones, marks) and the vars are masked for the
viewer in C (runtime views.c `tb_view`, which writes them in marshal's format: Python reads them in
a single call); the counters, the flow words and the pending decision are read from the words
here. The result is the same dict as model/view.py's of the plain state (the same keys, values,
types and order: tests/native/test_native_views.py compares them at every decision of random games).

A game whose visibility needs the state in Python takes the plain path for every view
(`why_not`: a `visible_to:` expression, a zone size, counter or var kept secret from someone), and
a game with a simultaneous step for a state at a choice inside an effect (an open step's `t.sim`
is the replayed state's);
at a choice inside an effect the decider's view shows its prompt: a literal one is the lowering's
(`prompts`, per site), a template (`{expr}`, evaluated in the frames) is the replayed state's
(Engine.plain), kept per the words' generation.
"""

from __future__ import annotations

import ctypes
import marshal
import threading
from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.types import COMP, WINDOW_PROMPT
from tabula.interpreter.compile.native.slots import ENDINGS, NONE, unpack_players
from tabula.interpreter.compile.native.states import NativeState
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.view import component_marks, secret_counters, secret_sizes, sees
from tabula.interpreter.run.flow import STAGES

Native = Any  # bridge.py NativeGame (which imports this module: not imported here)

# how views.c writes a value (`mode`): its kind, then whether a list var's items, whether components
VM_INT, VM_BOOL, VM_SYM, VM_PLAYERS, VM_WORD, VM_LIST, VM_COMP = 0, 1, 2, 3, 4, 8, 16
_MODES = {"int": VM_INT, "bool": VM_BOOL, "sym": VM_SYM, "plist": VM_PLAYERS}  # else the word
_COUNTS = ("N", "NEXT", "SKIPS", "DECISIONS")  # flow words a plain `t` keeps after its ending's
_ZONE_WORDS = ("public", "owner", "others", "hidden")
_P = ctypes.c_void_p
PROMPTS_KEPT = 256  # replayed prompts kept (per the words' generation)


class _Tables(ctypes.Structure):  # views.c ViewTables
    _fields_ = [
        ("zseen", _P),
        ("nmarks", ctypes.c_int64),
        ("mode", _P),
        ("nvars", ctypes.c_int64),
        ("vars", _P),
        ("nsym", ctypes.c_int64),
        ("symat", _P),
        ("sym", _P),
    ]


def flow(nat: Native, w: memoryview) -> dict[str, Any]:
    """The flow's words (`w`: NativeState.view) as the plain state's `t` (bridge.py `to_plain`, and
    a view's `t`)."""
    at, off = nat.at, nat.lay.offsets
    active, pid, trigger, winners = w[at["ACTIVE"]], w[at["PHASE_ID"]], w[at["TRIGGER"]], w[at["WINNERS"]]
    t: dict[str, Any] = {  # in the plain state's order (model/state.py), as JSON shows it
        "stage": STAGES[w[at["STAGE"]]],
        "round": w[at["ROUND"]],
        "turn": w[at["TURN"]],
        "active": None if active == NONE else active,
        "phase": w[at["PHASE"]],
        "phase_id": None if pid == NONE else nat.phase_ids[pid],
        "ending": ENDINGS[w[at["ENDING"]]],
        "trigger": None if trigger == NONE else trigger,
        "final": w[off["FINAL"] : off["FINAL"] + w[at["NFINAL"]]].tolist(),
        "final_mode": bool(w[at["FINAL_MODE"]]),
        "fired": [nat.check_ids[k] for k in w[off["FIRED"] : off["FIRED"] + w[at["NFIRED"]]]],
        "winners": None if winners == NONE else unpack_players(winners),
    }
    for k in _COUNTS:
        t[k.lower()] = w[at[k]]
    return t


def why_not(game: CompiledGame) -> str:
    """Why the views of this game's native states need the plain state ("" when they do not)."""
    for z in game.zone_layouts:
        if z.visibility not in _ZONE_WORDS:
            return "a zone seen by a `visible_to:` expression"
    if secret_sizes(game):
        return "a zone whose size is secret"
    if secret_counters(game):
        return "a secret counter"
    if game.audiences or any(v.visibility != "public" for v in game.vars.values()):
        return "a secret var"
    return ""


class _Own:
    """One thread's buffers: the bytes tb_view writes, its symbols' references, the scratch words
    a packed clone is read in (`scratch`, holding `unpacked`, kept alive so that it is not another)."""

    def __init__(self, room: int, nsym: int) -> None:
        self.out = ctypes.create_string_buffer(room)
        self.bytes = memoryview(self.out).cast("B")
        self.refs = (ctypes.c_int64 * max(1, nsym))()
        self.at, self.refs_at = ctypes.addressof(self.out), ctypes.addressof(self.refs)
        self.scratch: NativeState | None = None
        self.unpacked: bytes | None = None


def _text(symbol: str) -> bytes:
    """A symbol as marshal writes a text (TYPE_UNICODE: its UTF-8 bytes and their length)."""
    data = symbol.encode("utf-8", "surrogatepass")
    return b"u" + len(data).to_bytes(4, "little") + data


def _array(kind: Any, values: list[int]) -> Any:
    return (kind * max(1, len(values)))(*values)


class NativeViews:
    """One game's views of its native states: the tables views.c reads, made once."""

    def __init__(self, nat: Native) -> None:
        g, lay = nat.g, nat.lay
        self.nat, self.g = nat, g
        self.why = why_not(g)
        self.prompts: list[str | None] = []  # per choice site: its prompt when literal (`learn`)
        self.simultaneous = True  # the game may have a simultaneous step open at a choice
        self.replayed: dict[tuple[Any, ...], str] = {}  # (T_GEN, names) -> a template's prompt
        comp_marks = set(component_marks(g))
        self.marks = list(lay.mark_base)  # (in the state's order: the plain state's `m`)
        kinds = [lay.mark_kinds.get(name, "int") for name in self.marks]
        for name, kind in zip(self.marks, kinds, strict=True):
            if name in comp_marks and kind != "int":
                self.why = self.why or f"mark {name} holds components as {kind} words"
        modes = [
            _MODES.get(k, VM_WORD) | (VM_COMP if m in comp_marks else 0)
            for m, k in zip(self.marks, kinds, strict=True)
        ]
        self.decode = [(k, kind) for k, kind in enumerate(kinds) if kind not in _MODES]
        self.var_names = list(g.vars)
        var_words: list[int] = []
        for name, v in g.vars.items():
            kind = lay.var_kinds[name]
            mode = (
                _MODES.get(kind[5:], VM_INT) | VM_LIST
                if kind.startswith("list:")
                else _MODES.get(kind, VM_WORD)
            )
            if mode == VM_WORD:
                self.why = self.why or f"var {name} kept as {kind} words"
            var_words += [lay.var_base[name], int(v.per_player), lay.var_width(name)]
            var_words.append(mode | (VM_COMP if COMP in v.type else 0))
        texts = [_text(s) for s in lay.symbols]
        symat = [0]
        for t in texts:
            symat.append(symat[-1] + len(t))
        nz, maxp = len(g.zone_layouts), g.max_players
        seen = [
            int(sees(z.visibility, g.zone_owner[i], p))
            for p in range(maxp)
            for i, z in enumerate(g.zone_layouts)
        ]
        self.kept = [  # the tables views.c reads, alive while the library is
            _array(ctypes.c_ubyte, seen),
            _array(ctypes.c_int64, modes),
            _array(ctypes.c_int64, var_words),
            _array(ctypes.c_int64, symat),
            ctypes.create_string_buffer(b"".join(texts) or b"\0"),
        ]
        addr = [ctypes.addressof(a) for a in self.kept]
        tables = _Tables(addr[0], len(modes), addr[1], len(g.vars), addr[2], len(texts), addr[3], addr[4])
        lib = nat.lib
        lib.tb_view_setup.argtypes, lib.tb_view_setup.restype = [ctypes.c_void_p], None
        lib.tb_view_setup(ctypes.byref(tables))
        lib.tb_view.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
        lib.tb_view.restype = ctypes.c_int64
        ncomp = len(g.components)
        values = sum((maxp if v.per_player else 1) * lay.var_width(n) for n, v in g.vars.items())
        per = max(80, *(len(t) for t in texts)) if texts else 80  # a value's bytes at most
        room = 64 + 5 * (nz + len(modes) + len(g.vars) * (1 + maxp)) + 15 * ncomp * (2 + nz)
        self.room, self.nsym = room + per * (ncomp * len(modes) + values), len(texts)
        self.call = lib.tb_view
        self.local = threading.local()  # each thread's buffers (`_Own`): views in threads at once
        off = lay.offsets
        self.cnt = (off["CNT"], off["CNT"] + g.counter_count)

    def learn(self, meta: dict[str, Any]) -> None:
        """What the lowering says of the game's choices (the library's meta, `views`): each site's
        prompt when it is literal text, and whether a simultaneous step may be open at one."""
        self.prompts = list(meta.get("prompts", []))
        self.simultaneous = bool(meta.get("simultaneous", True))

    def _replayed_prompt(self, ns: NativeState, gen: int, plain: Callable[[Any], Any]) -> str:
        """The prompt of the choice `ns` waits at, from its replay (Engine.plain), kept per the
        words' generation (T_GEN: new at every native run that writes them, shared by their clones;
        0: not kept)."""
        key = (gen, *ns.names)  # (a template may name a player)
        kept = self.replayed.get(key) if gen else None
        if kept is None:
            kept = str(plain(ns)["dec"]["prompt"])
            if gen:
                if len(self.replayed) >= PROMPTS_KEPT:
                    self.replayed.clear()
                self.replayed[key] = kept
        return kept

    def _words(self, ns: NativeState) -> NativeState:
        """`ns`, or a packed clone's words unpacked in scratch words (a clone viewed is not given
        words of its own: a fresh array's pages cost more than the view)."""
        if ns.packed is None:
            return ns
        own = self._own()
        if own.scratch is None:
            own.scratch = NativeState(self.nat.zeroed(), [], {})
        if ns.packed is not own.unpacked:  # (every seat's view of a state: unpacked once)
            self.nat.lib.tb_unpack(own.scratch.words, ns.packed)
            own.unpacked = ns.packed
        return own.scratch.of(ns)

    def _own(self) -> _Own:
        own: _Own | None = getattr(self.local, "own", None)
        if own is None:
            own = self.local.own = _Own(self.room, self.nsym)
        return own

    def view(self, ns: NativeState, player: Any, plain: Callable[[Any], Any]) -> dict[str, Any] | None:
        """`player`'s view of `ns`, or None where the plain path gives it (a seat that is not one
        of the game's: its error; see the module's docstring). `plain`: Engine.plain, the replay
        that gives a choice's prompt when it is a template."""
        nat, names = self.nat, ns.names
        if self.why or player.__class__ is not int or not 0 <= player < len(names):
            return None
        own, ns = ns, self._words(ns)
        w = ns.view
        dk, decider = w[nat.dk], w[nat.dp]
        if dk == 2 and self.simultaneous:  # `t.sim`, the answers kept: the replay's
            return None
        prompt: str | None = WINDOW_PROMPT  # a window's
        if dk == 2 and decider == player and (site := w[nat.dsite]) >= 0:  # a choice inside an effect
            prompt = self.prompts[site] if site < len(self.prompts) else None
            if prompt is None:  # a template's text (`{expr}`): the replay's, kept for these words
                prompt = self._replayed_prompt(own, w[nat.gen_at], plain)
        buf = self._own()
        loc, rv, zones, values, *marks = marshal.loads(
            buf.bytes[: self.call(ns.addr, player, buf.at, buf.refs_at)]
        )
        for k, kind in self.decode:
            decode = nat.lay.decode
            marks[k] = [None if x is None else decode(x, kind) for x in marks[k]]
        if dk == 0:
            decision: dict[str, Any] | None = None
        elif decider == player:
            decision = {"p": decider, "ids": nat.ids(ns), "prompt": prompt}
        else:
            decision = {"p": decider}
        return {
            "viewer": player,
            "z": zones,
            "loc": loc,
            "c": w[self.cnt[0] : self.cnt[1]].tolist(),
            "v": dict(zip(self.var_names, values, strict=True)),
            "m": dict(zip(self.marks, marks, strict=True)),
            "rv": rv,
            "dec": decision,
            "t": flow(nat, w),
            "names": list(names),
            "o": dict(ns.o),
        }
