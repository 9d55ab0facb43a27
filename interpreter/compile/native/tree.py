"""Search trees in native code: a search bot's iterations run whole in the game's library.

Stage: compile (native). A `NativeTree` holds one decision's tree in C (runtime/search.c: nodes in a
flat array with a hash of (parent, key) -> child) and runs iterations in batches: the world dealt
(or copied), the walk down the tree, the random rollout and the rewards, all without returning to
Python. Its nodes are keyed by the choice id each move stands for, written as numbers: `Naming`
interns every id a decision of the game can name (an action's name, `action:value`, a choice's
value) into a table indexed by (prefix, value), numbers aside, so that two options are one node
exactly when the Python tree gives them one id. A game whose ids could not be told apart this way
(a name that reads as a number), or whose values are not held, is NotNative: the bot keeps its
Python tree. `nodes()` gives the tree back as (parent, id, player, visits, total, availability)
for the bot to carry on in Python after an iteration native code could not finish.
"""

from __future__ import annotations

import ctypes
import weakref
from typing import Any

from tabula.interpreter.base.types import ANY, COMP, INT, PLAYER, ZONE
from tabula.interpreter.compile.native.bridge import NativeGame, NotNative
from tabula.interpreter.compile.native.lowering.spatial import decode_place
from tabula.interpreter.compile.native.slots import NONE

_I64 = ctypes.c_int64
_P = ctypes.c_void_p
VC_NOPARAM, VC_COMP, VC_PLAYER, VC_NUM, VC_RAW, VC_BOOL, VC_SYM, VC_PLACE = range(8)
PLACE_KA = -(1 << 40)  # a placement's key: (PLACE_KA - prefix row, its word), runtime/search.c
R_EVAL, R_SCORE = 0, 1
MAX_TIEBREAKS = 32  # TB_MAXTIE in runtime/search.c


class SearchArgs(ctypes.Structure):
    """runtime/search.c's SA, field for field."""

    _fields_ = [
        ("world", _P),
        ("base", _P),
        ("plan", _P),
        ("ngroups", _I64),
        ("naming", _P),
        ("nnaming", _I64),
        ("rootseg", _P),
        ("wroot", _P),
        ("gen", _P),
        ("before", _P),
        ("budget", _I64),
        ("depth", _I64),
        ("max_iter", _I64),
        ("until", ctypes.c_double),
        ("act_cls", _P),
        ("act_cls2", _P),
        ("act_full", _P),
        ("nact", _I64),
        ("site_cls", _P),
        ("nsite", _I64),
        ("full", _P),
        ("nval", _I64),
        ("comp_name", _P),
        ("comp_key", _P),
        ("player_val", _P),
        ("nnamed", _I64),
        ("sym_val", _P),
        ("nsym", _I64),
        ("v_none", _I64),
        ("v_true", _I64),
        ("v_false", _I64),
        ("reward", _I64),
        ("scale", ctypes.c_double),
        ("cooperative", _I64),
        ("lowest", _I64),
        ("ntie", _I64),
        ("nplayers", _I64),
        ("done", _I64),
    ]


def _words(values: list[int]) -> Any:
    return (_I64 * max(1, len(values)))(*values)


def _is_number(text: str) -> bool:
    try:
        return str(int(text)) == text
    except ValueError:
        return False


def _value_class(t: str, kind: str | None) -> int:
    """How the ids of values of static type `t`, kept as words of `kind`, are named (choices.py)."""
    if kind == "sym":
        return VC_SYM
    if kind == "bool":
        return VC_BOOL
    if kind == "place":  # a piece's placement: keyed by its word, named by the cells it covers
        return VC_PLACE
    if kind not in (None, "int") or t not in (COMP, PLAYER, INT, ANY, ZONE, "sym"):
        raise NotNative(f"values of type {t} ({kind}) have no native ids")
    if t == COMP:
        return VC_COMP
    if t == PLAYER:
        return VC_PLAYER
    return VC_RAW if kind is None else VC_NUM


class Naming:
    """The id of every option of the game's decisions, for the player names `names`, as numbers."""

    def __init__(self, native: NativeGame, names: list[str]) -> None:
        g = native.g
        self.game, self.comp_names = g, [c.name for c in g.components]
        values: dict[str, int] = {}

        def val(text: str) -> int:
            return values.setdefault(text, len(values))

        self.comp_name = _words([val(c.name) for c in g.components])
        self.comp_key = _words([val(c.key) for c in g.components])
        self.player_val = _words([val(n) for n in names])
        self.sym_val = _words([val(s) for s in native.lay.symbols])
        self.v_none, self.v_true, self.v_false = val("none"), val("true"), val("false")
        acts = g.action_list
        self.prefixes = ["", *(a.name + ":" for a in acts)]  # row 0: a choice's value alone
        named = {c.name for c in g.components} | {c.key for c in g.components} | set(names)
        symbols = set(native.lay.symbols) - named  # symbols alone: checked below, by where they stand
        if any(_is_number(v) or _is_number(v.partition(":")[2]) for v in set(values) - symbols):
            raise NotNative("a name that reads as a number: its id and a number's could be one")
        numeric_symbols = any(_is_number(v) for v in symbols)
        self.ids: list[str] = []
        interned: dict[str, int] = {}

        def intern(text: str) -> int:
            if text not in interned:
                interned[text] = len(self.ids)
                self.ids.append(text)
            return interned[text]

        texts = list(values)
        self.full = _words([intern(p + v) for p in self.prefixes for v in texts])
        self.act_full = _words([intern(a.name) if not a.params else -1 for a in acts])
        classes, second = [], []
        self.num2: set[int] = set()  # first words of keys whose second word is a number (or NONE)
        for ai, a in enumerate(acts):
            kinds = native.arg_kinds.get(ai) or []  # one kind per parameter
            if not a.params:
                classes.append(VC_NOPARAM)
            elif len(a.params) > 2:
                raise NotNative(f"action {a.name} takes {len(a.params)} parameters")
            else:
                classes.append(_value_class(a.params[0][2], kinds[0] if kinds else None))
            if len(a.params) == 2:  # a key (the first value's id, the second value + 1 or a number)
                second.append(_value_class(a.params[1][2], kinds[1] if len(kinds) > 1 else None))
                if classes[-1] in (VC_NUM, VC_RAW, VC_PLACE) or second[-1] in (VC_RAW, VC_PLACE):
                    raise NotNative(f"action {a.name}: two parameters, the first a number or one untyped")
                if second[-1] == VC_NUM:  # the key's second word is the number: its first tells it
                    self.num2.update(self.full[(1 + ai) * len(texts) + s] for s in range(len(texts)))
            else:
                second.append(-1)
        if self.num2 & {self.full[s] for s in range(len(texts))}:  # a choice's value reads as such a key
            raise NotNative("a value's id reads as an action's first value")
        self.act_cls = _words(classes)
        self.act_cls2 = _words(second)
        self.texts = texts
        site_classes = [_value_class(t, kind) for t, kind in native.sites]
        if numeric_symbols and VC_RAW in {*classes, *second, *site_classes}:
            # a symbol such as '3' is named by its text: only where values are typed (a column or a
            # choice of symbols, another of numbers) can its id not be a number's
            raise NotNative("a symbol that reads as a number beside untyped values")
        self.site_cls = _words(site_classes)
        self.nact, self.nsite, self.nval = len(acts), len(native.sites), len(values)
        self.nnamed, self.nsym = len(names), len(native.lay.symbols)

    def id_of(self, ka: int, kb: int) -> str:
        """The choice id of a node's key."""
        if ka <= PLACE_KA:
            cells = (
                "none" if kb == NONE else "+".join(self.comp_names[c] for c in decode_place(self.game, kb))
            )
            return self.prefixes[PLACE_KA - ka] + cells
        if ka < 0:
            return self.prefixes[-1 - ka] + str(kb)
        if ka in self.num2:
            return self.ids[ka] + "," + ("none" if kb == NONE else str(kb))
        return self.ids[ka] + ("," + self.texts[kb - 1] if kb > 0 else "")


_NAMINGS: dict[tuple[int, tuple[str, ...]], tuple[NativeGame, Naming]] = {}


def naming(native: NativeGame, names: list[str]) -> Naming:
    """The game's `Naming` for these player names (made once per game and names)."""
    key = (id(native), tuple(names))
    known = _NAMINGS.get(key)
    if known is None or known[0] is not native:
        if len(_NAMINGS) > 64:
            _NAMINGS.clear()
        known = _NAMINGS[key] = (native, Naming(native, names))
    return known[1]


class NativeTree:
    """One decision's search tree in native code (see the module docstring).

    `rewards`: how a rollout's end is scored, as evaluation.py's Evaluation does: "evaluate" (the
    game's `bots: evaluate:` in native code) or "score" (the score if the game ended now)."""

    def __init__(
        self,
        native: NativeGame,
        names: list[str],
        *,
        depth: int,
        budget: int,
        rewards: str,
        scale: float,
        cooperative: bool,
        lowest_wins: bool,
    ) -> None:
        if native.ntie > MAX_TIEBREAKS:
            raise NotNative("too many tiebreaks")
        lib = native.lib
        self.native = native
        self.naming = naming(native, names)
        lib.tb_tree_new.restype = _P
        lib.tb_tree_new.argtypes = [_I64]
        lib.tb_tree_free.argtypes = [_P]
        lib.tb_tree_size.restype = _I64
        lib.tb_tree_size.argtypes = [_P]
        lib.tb_tree_export.argtypes = [_P, _P, _P]
        lib.tb_search.argtypes = [_P, ctypes.POINTER(SearchArgs)]
        lib.tb_search.restype = ctypes.c_int
        lib.tb_greedy_world.argtypes = [_P, ctypes.POINTER(SearchArgs)]
        lib.tb_greedy_child.argtypes = [_P, ctypes.POINTER(SearchArgs), _I64, _I64, _I64, _P, _P]
        tree = lib.tb_tree_new(self.naming.nval)
        if not tree:
            raise MemoryError("no memory for a search tree")
        self.tree = tree
        weakref.finalize(self, lib.tb_tree_free, tree)
        self.world = native.array()
        self.gen = (ctypes.c_uint64 * 2)()
        nm = self.naming
        a = self.args = SearchArgs()
        a.world, a.before, a.gen = (
            ctypes.addressof(self.world),
            ctypes.addressof(native.before),
            ctypes.addressof(self.gen),
        )
        a.budget, a.depth = native.g.work_budget, depth
        for field in (
            "act_cls",
            "act_cls2",
            "act_full",
            "site_cls",
            "full",
            "comp_name",
            "comp_key",
            "player_val",
            "sym_val",
        ):
            setattr(a, field, ctypes.addressof(getattr(nm, field)))
        a.nact, a.nsite, a.nval, a.nnamed, a.nsym = nm.nact, nm.nsite, nm.nval, nm.nnamed, nm.nsym
        a.v_none, a.v_true, a.v_false = nm.v_none, nm.v_true, nm.v_false
        a.reward = R_EVAL if rewards == "evaluate" else R_SCORE
        a.scale, a.cooperative, a.lowest = scale, int(cooperative), int(lowest_wins)
        a.ntie, a.nplayers = native.ntie, len(names)
        self._keep: list[Any] = []  # the words the arguments point into
        self._wroot: Any = None  # the dealt world at a decision inside an effect (deal_from)

    def deal_from(
        self,
        base: Any,
        plan: Any = None,
        ngroups: int = 0,
        naming: Any = None,
        nnaming: int = 0,
        segment: Any = None,
    ) -> None:
        """Each iteration's world: `base` (native words) dealt with the plan of compile/native/deal.py
        (`tb_deal`), or without a plan `base` itself. At a decision inside an effect `segment` is
        the true segment's first state: each step replays it up to the decision, where the dealt
        words replace the true ones (runtime/search.c `t_world`)."""
        a = self.args
        self._keep = [base, plan, naming, segment]
        a.rootseg = ctypes.addressof(segment) if segment is not None else None
        if segment is not None and self._wroot is None:
            self._wroot = self.native.array()
            a.wroot = ctypes.addressof(self._wroot)
        a.base = ctypes.addressof(base)
        a.plan = ctypes.addressof(plan) if plan is not None else None
        a.naming = ctypes.addressof(naming) if naming is not None else None
        a.ngroups, a.nnaming = ngroups, nnaming

    def run(self, gen: list[int], max_iter: int, until: float) -> tuple[int, int]:
        """Iterations until `max_iter` or, after one, `time.perf_counter()` passes `until` (0:
        never): (how many ran, 0 or the code of the error that stopped the next one, undone, with
        `gen` as it was before that iteration)."""
        a, g = self.args, self.gen
        g[0], g[1] = gen
        a.max_iter, a.until = max_iter, until
        code = self.native.lib.tb_search(self.tree, ctypes.byref(a))
        gen[0], gen[1] = g[0], g[1]
        return int(a.done), int(code)

    def greedy_world(self, gen: list[int]) -> int:
        """One-ply greedy's world for `greedy_child`, dealt from `gen` as an iteration's (`gen` moves
        on as `determinize` moves it); nonzero: no memory."""
        lib, g = self.native.lib, self.gen
        g[0], g[1] = gen
        code = int(lib.tb_greedy_world(self.tree, ctypes.byref(self.args)))
        gen[0], gen[1] = g[0], g[1]
        return code

    def greedy_child(
        self, k: int, seat: int = -1, limit: int = 0, draws: list[int] | None = None
    ) -> tuple[int, int]:
        """The world of `greedy_world` with option `k` applied, in `self.world`; with `seat`, random
        decisions from `draws` after it (runtime/search.c `tb_greedy_child`). (0 or the code of the
        error that stopped it, the decisions taken.)"""
        lib = self.native.lib
        d, made = (ctypes.c_uint64 * 2)(*(draws or (0, 0))), _I64()
        code = int(
            lib.tb_greedy_child(self.tree, ctypes.byref(self.args), k, seat, limit, d, ctypes.byref(made))
        )
        if draws is not None:
            draws[0], draws[1] = d[0], d[1]
        return code, int(made.value)

    def root_visits(self) -> dict[str, int]:
        """The visits of the root's children, by choice id."""
        return {
            self.naming.id_of(ka, kb): visits
            for parent, ka, kb, _, visits, _, _ in self.nodes()
            if parent == 0
        }

    def nodes(self) -> list[tuple[int, int, int, int, int, int, float]]:
        """Every node, parents first: (parent, key, key, player, visits, availability, total)."""
        lib = self.native.lib
        n = int(lib.tb_tree_size(self.tree))
        out, totals = (_I64 * (6 * n))(), (ctypes.c_double * n)()
        lib.tb_tree_export(self.tree, out, totals)
        return [(*out[6 * k : 6 * k + 6], totals[k]) for k in range(n)]  # type: ignore[misc]

    def id_of(self, ka: int, kb: int) -> str:
        return self.naming.id_of(ka, kb)
