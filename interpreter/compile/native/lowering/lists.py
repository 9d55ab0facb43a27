"""Lists as values in the typed form: `list(L)`, `reversed(L)`, `list(e for v in L)`, and a
`none` given where a definition declares its parameter's type.

Stage: compile (native). A list value is an `L` (runtime/values.c: a length and LCAP words);
`list(L)` copies one and `reversed(L)` turns one round (their C: runtime/lists.c), each charging
the work budget one unit per item as Python's builtins do (compile/python builtins.READS_ALL: a list
literal is not charged). A `none` passed for a parameter declared `player`, `component` or `symbol`
takes that type in the callee, so that `t == none`, `[t]` and `alive(t)` are typed there as they
would be for a seat.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.compile.native.lowering import ir, spatial, tiles
from tabula.interpreter.compile.native.lowering.groups import GroupsLowering
from tabula.interpreter.compile.native.lowering.ir import ANY_LIST, COMP, COMPS, FEAT, INT, PLAYER, SYM, ZONE
from tabula.interpreter.compile.native.lowering.lower import MISSING, Scope, Unsupported
from tabula.interpreter.compile.native.slots import NONE
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import CompiledGame

_SPAN = 4096  # the most words a number-keyed mapping's table spans
_DECLARED_ITEMS = {"list[int]": INT, "list[player]": PLAYER, "list[comp]": COMP, "list[str]": SYM}
_DECLARED = {"player": PLAYER, "comp": COMP, "str": SYM}  # base.types names -> typed-form types
# a read of a var of type `any` given a number and a list (`int|list[int]`), its kind not chosen yet:
# the use that wants one (`wanted`) types it, a check of its kind word (emit/cgen.py `two_read`); the
# type's name is what a refusal of another use says (`a 'let' holding ...`)
TWO = "number or list (a var of type any read whole)"


class ListLowering(GroupsLowering):
    """`list`, `reversed` and list comprehensions written `list(... for ...)` (the rest: Lowering);
    `param_types` holds each function's and procedure's declared parameter types (support.py)."""

    param_types: dict[str, list[str]]

    def __init__(self, game: CompiledGame, functions: dict[str, Any]) -> None:
        super().__init__(game, functions)
        self.any_vars: dict[str, str] = {}  # a var of type any: the type its `set`s give it
        self.either: ast.Expr | None = None  # the value of a `set` of a var of type any

    def list_call(self, n: ast.Call, scope: Scope) -> ir.Expr:
        assert isinstance(n.func, ast.Name)
        name = n.func.id
        if name == "abs" and len(n.args) == 1 and name not in self.defs:
            return ir.CallF("ABS", (self.number(n.args[0], scope),), INT)
        if name == "with_item" and len(n.args) == 3 and name not in self.defs:
            return self.with_item(n, scope)
        if name in ("list", "reversed") and len(n.args) == 1 and name not in self.defs:
            src = self.source(n.args[0], scope)
            literal = isinstance(n.args[0], ast.ListLit) and all(_constant(x) for x in n.args[0].items)
            fn = {"list": ("l_list", "l_copy"), "reversed": ("l_reversed", "l_turned")}[name][literal]
            return self.read(ir.CallF(fn, (src,), src.ty), n.span)  # (of a list of lists: groups.py)
        return super()._Call(n, scope)

    def with_item(self, n: ast.Call, scope: Scope) -> ir.Expr:
        """`with_item(L, i, v)`: L with its item at position i replaced (`set xs[i] = v` is
        `set xs = with_item(xs, i, v)`, as on the Python backend); every item charged."""
        src = self.source(n.args[0], scope)
        at, value = self.number(n.args[1], scope), self.expr(n.args[2], scope)
        item = ir.elem(src.ty)
        if value.ty not in (*ir.SCALARS, "none") or not (
            item in ("any", value.ty, "none") or value.ty == "none" or {item, value.ty} <= {INT, PLAYER}
        ):
            raise Unsupported(f"a {value.ty} put in a {src.ty}", n.args[2].span)
        ty = src.ty if src.ty != ANY_LIST or value.ty == "none" else f"list[{value.ty}]"
        return ir.CallF("l_with", (src, at, value), ty)

    def _CallGen(self, n: ast.CallGen, scope: Scope) -> ir.Expr:
        """`list(e for v in L)` as `[e for v in L]`; `first(e for v in L)` of an item of a word."""
        assert isinstance(n.func, ast.Name)
        if n.func.id == "list" and n.gen.by is None and n.gen.default is None:
            return self._ListComp(ast.ListComp(n.span, n.gen), scope)  # the same list, charged alike
        if n.func.id == "region":
            return spatial.region(self, n, scope)
        out: ir.Expr = super()._CallGen(n, scope)
        if n.func.id == "first" and out.ty not in (*ir.WORDS, "none") and not _first_list(out):
            raise Unsupported(f"first of {out.ty}", n.span)
        return out

    def flatten(self, n: ast.ListComp, scope: Scope) -> ir.Expr:
        """`flatten([e for q in L where c])` of lists (their items, list after list), else of zones."""
        gen = n.gen
        src = self.source(gen.iter, scope)
        inner = {**scope, gen.var: ir.elem(src.ty)}
        elt = self.expr(gen.elt, inner)
        if not elt.ty.startswith("list[") or elt.ty == ANY_LIST:
            return super().flatten(n, scope)
        cond = self.boolean(gen.cond, inner) if gen.cond is not None else None
        return ir.Flat(gen.var, src, cond, elt, elt.ty)

    def _Name(self, n: ast.Name, scope: Scope) -> ir.Expr:
        """An enum's name, where nothing else has it, is the list of its symbols (`for k in colour`)."""
        try:
            out: ir.Expr = super()._Name(n, scope)
        except Unsupported:
            if n.id not in self.g.enums or n.id in scope:
                raise
            self.tables["E_" + n.id] = ([self.symbols.index(s) for s in self.g.enums[n.id]], SYM)
            return ir.Source("const", None, "E_" + n.id, "list[sym]")
        return out

    def _Call(self, n: ast.Call, scope: Scope) -> ir.Expr:
        assert isinstance(n.func, ast.Name)
        name = n.func.id
        if name in self.g.zone_families and name not in self.defs and name not in self.g.zones:
            return self.keyed_zone(name, n.args, scope)
        if name == "first" and len(n.args) == 1 and spatial.is_regions(n.args[0]):  # its first group
            return ir.Agg("first", "g_", spatial.walked(self, n.args[0], scope), None, None, None, COMPS)
        return self.list_call(n, scope)

    def keyed_zone(self, name: str, args: tuple[ast.Expr, ...], scope: Scope) -> ir.Expr:
        """`fireworks(k)` or `discard(p, k)`: one zone of a zone keyed by an enum (the key's zone
        from a table over the symbols; a symbol that is not a key stops native code, as Python's
        missing key fails)."""
        keys = self.g.zone_families[name]
        key = self.expr(args[-1], scope)
        if key.ty == COMP and len(args) == 1:
            on_cell = spatial.cell_zone(self, name, key)
            if on_cell is not None:
                return on_cell
        if key.ty != SYM:
            raise Unsupported(f"a key of zone '{name}' given as {key.ty}", args[-1].span)
        bases = {k: self.g.zones[f"{name}({k})"].base for k in keys}
        self.tables["ZF_" + name] = ([bases.get(s, NONE) for s in self.symbols], INT)
        zone: ir.Expr = ir.Table("ZF_" + name, key, INT)
        if len(args) == 2:
            zone = ir.Bin("+", zone, self.player(args[0], scope), INT)
        return ir.Bin("+", zone, ir.Lit(0, INT), ZONE)

    def _Index(self, n: ast.Index, scope: Scope) -> ir.Expr:
        """`Z[i]` of a zone: the component at position i (0 the top); a position out of range
        (negative ones too, which Python reads from the end) stops native code."""
        try:
            out: ir.Expr = super()._Index(n, scope)
        except Unsupported as u:
            if not u.what.startswith("indexing other than"):
                raise
            obj = self.expr(n.obj, scope)
            pair = tiles.index(self, obj, n.key, scope)
            if pair is not None:
                return pair
            if obj.ty != ZONE:
                raise
            return ir.CallF("zone_at", (obj, self.number(n.key, scope)), COMP)
        return out

    def source(self, n: ast.Expr, scope: Scope) -> ir.Source:
        """What a loop walks; a tile feature (lowering/tiles.py), its pairs."""
        try:
            out: ir.Source = super().source(n, scope)
        except Unsupported as u:
            if u.what != f"a loop over {FEAT}":
                raise
            pairs = tiles.pairs(self.expr(n, scope))
            return ir.Source("list", pairs, "", pairs.ty)
        return out

    def _CondExpr(self, n: ast.CondExpr, scope: Scope) -> ir.Expr:
        """`a if t else b` where one side is an item of a list var whose items' type is not known
        yet (read before the `set` that gives it): the other side's type (learned, then lowered
        again with it, as slots' kinds are)."""
        was = self.expr(n.then, scope), self.expr(n.otherwise, scope)
        a, b = self.wanted(was[0], was[1].ty, n.span), self.wanted(was[1], was[0].ty, n.span)
        lists = [x.ty.startswith("list[") and ir.elem(x.ty) in (*ir.SCALARS, "any") for x in (a, b)]
        words = [x.ty in (INT, PLAYER, COMP, SYM, "none") for x in (a, b)]
        if n is self.either and sorted(lists) == [False, True] and sorted(words) == [False, True]:
            word, lst = (b.ty, a.ty) if lists[0] else (a.ty, b.ty)  # set v = [n] if c else n: either kind
            return ir.Cond(self.boolean(n.test, scope), a, b, f"{INT if word == 'none' else word}|{lst}")
        if (a, b) != was and ir.comparable(a.ty, b.ty):  # a var of two kinds read as the other side's kind
            return ir.Cond(self.boolean(n.test, scope), a, b, b.ty if a.ty in ("none", ANY_LIST) else a.ty)
        if "any" in (a.ty, b.ty) and {a.ty, b.ty} - {"any", "none"} <= set(ir.SCALARS):
            ty = next((t for t in (a.ty, b.ty) if t not in ("any", "none")), "any")
            return ir.Cond(self.boolean(n.test, scope), a, b, ty)
        out: ir.Expr = super()._CondExpr(n, scope)
        return out

    def _ListLit(self, n: ast.ListLit, scope: Scope) -> ir.Expr:
        """`[a, none, b]`: a list of one scalar type with none among its items; `[none]` fits any
        list (as `[]` does)."""
        was = tuple(self.expr(x, scope) for x in n.items)
        items = tuple(self.wanted(x, INT, n.span) for x in was)  # (a var of two kinds: its number)
        tys = {x.ty for x in items} - {"none"}
        if items != was and len(tys) == 1 and tys <= set(ir.SCALARS):
            return ir.ListLit(items, f"list[{tys.pop()}]")
        if items and len(tys) <= 1 and tys <= set(ir.SCALARS) and len(tys) < len({x.ty for x in items}):
            return ir.ListLit(items, f"list[{tys.pop()}]" if tys else ANY_LIST)
        out: ir.Expr = super()._ListLit(n, scope)
        return out

    def var_type(self, name: str, span: Span | None) -> str:
        """A var declared with a list type of a scalar (`type: players`, `initial: [0, 0]`): its
        items have that type from the start; a var of type `any` starting as none: the type its
        `set`s give it (numbers, seats, components or symbols, kept as one word), taken for a number
        where it is read before and learned; the rest as Lowering's."""
        if self.g.vars[name].type == "any" and held_start(self.g.vars[name].initial):
            known = self.any_vars.get(name) or self.var_hints.get(name)
            if known is None:
                self._read_early.add(name)
            return TWO if known and "|" in known else known or INT
        item = _DECLARED_ITEMS.get(self.g.vars[name].type)
        if item is None:
            return super().var_type(name, span)
        self.list_vars[name] = item
        return f"list[{item}]"

    def any_var_set(self, target: ir.Slot, value: ir.Expr, span: Span | None) -> ir.Slot:
        """`set v = x` of a var of type `any`: x's type is the var's (one of int, player,
        component or symbol; ints and seats together are ints), or, given a list of them too, the
        var has two kinds (`int|list[int]`: a number word, a list, and a word saying which holds
        the value, slots.py); the target typed as x (the store writes that kind)."""
        name = target.base[4:]
        if isinstance(value, ir.Cond) and "|" in value.ty:  # either kind (_CondExpr): each learned
            self.any_var_set(target, value.then, span)
            self.any_var_set(target, value.otherwise, span)
            return ir.Slot(target.base, target.index, self.any_vars[name])
        mine = self.any_vars
        start = INT if self.g.vars[name].initial is not None else None  # (a none: a number's word)
        had = (mine.get(name) or self.var_hints.get(name) or "").split("|")
        word = next((t for t in had if t and "[" not in t), start)
        lst = next((t for t in had if "[" in t), None)
        if value.ty == "none":
            return ir.Slot(target.base, target.index, word or INT) if lst else target
        if value.ty.startswith("list[") and ir.elem(value.ty) in (*ir.SCALARS, "any"):
            if lst not in (None, ANY_LIST, value.ty) and value.ty != ANY_LIST:
                raise Unsupported(f"var '{name}' of type any given a {value.ty} and a {lst}", span)
            lst = value.ty if lst in (None, ANY_LIST) else lst
            word = word or INT
        elif value.ty not in (INT, PLAYER, COMP, SYM):
            raise Unsupported(f"var '{name}' of type any given a {value.ty}", span)
        else:
            had_word = word or value.ty
            word = had_word if had_word == value.ty else INT if {had_word, value.ty} <= {INT, PLAYER} else ""
            if not word:
                raise Unsupported(f"var '{name}' of type any given a {value.ty} and a {had_word}", span)
        ty = f"{word}|{lst}" if lst else str(word)
        mine[name] = ty
        if lst and self.var_hints.get(name) != ty:
            self.var_learned[name] = ty  # reads typed before it had two kinds: lowered again
        elif name in self._read_early and ty != INT and self.var_hints.get(name) != ty:
            self.var_learned[name] = ty  # read as a number before this set: lowered again
        kind = (lst if lst != ANY_LIST else "list[int]") if value.ty.startswith("list[") else word
        return ir.Slot(target.base, target.index, str(kind))

    def any_var(self, e: ir.Expr) -> bool:
        return isinstance(e, ir.Slot) and e.base.startswith("VAR_") and self.g.vars[e.base[4:]].type == "any"

    def wanted(self, e: ir.Expr, want: str, span: Span) -> ir.Expr:
        """A read of a var of two kinds (TWO) where its use wants a value of type `want`: typed
        so (a list or a word; native code checks the kind word there, E_KIND); as a condition,
        refused (a number's truth or a list's: say which)."""
        if not (isinstance(e, ir.Slot) and e.ty == TWO) or want == TWO:
            return e
        name = e.base[4:]
        word, lst = (self.any_vars.get(name) or self.var_hints[name]).split("|")
        if want == ir.BOOL:
            what = f"var '{name}' of type any, a number or a list, used as a condition"
            raise Unsupported(what, span, "compare it with what it holds: v != 0, count(v) > 0")
        if want.startswith("list["):
            return ir.Slot(e.base, e.index, lst if lst != ANY_LIST else "list[int]")
        return ir.Slot(e.base, e.index, word) if want in (*ir.SCALARS, "none") else e

    def list_var_set(self, name: str, value: ir.Expr, span: Span | None) -> None:
        if self.g.vars[name].type in _DECLARED_ITEMS:  # its items' type is declared: nothing to learn
            if value.ty == ANY_LIST or ir.elem(value.ty) in (
                INT,
                PLAYER,
                _DECLARED_ITEMS[self.g.vars[name].type],
            ):
                return
            raise Unsupported(f"a {value.ty} stored in var '{name}' of {self.g.vars[name].type}", span)
        super().list_var_set(name, value, span)

    def typed_args(self, name: str, args: list[ir.Expr]) -> list[ir.Expr]:
        """`args` with each `none` given the type its parameter declares (if it declares one of a
        word's types); other arguments as they are."""
        declared = getattr(self, "param_types", {}).get(name, [])
        out = list(args)
        for i, (a, t) in enumerate(zip(args, declared, strict=False)):
            if a.ty == "none" and t in _DECLARED:
                out[i] = ir.NoneV(_DECLARED[t])
        return out

    def mapping_table(self, name: str, mapping: dict[Any, Any], key: ir.Expr, span: Span) -> ir.Expr:
        """A constant mapping keyed by numbers (`hand_size[num_players]`), read at a number: a table
        from its least key to its greatest (a key between them it does not have fails, as a key
        missing in Python does); keyed by symbols, Lowering's."""
        keys = list(mapping)
        if not keys or not all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
            return super().mapping_table(name, mapping, key, span)
        if key.ty not in (INT, PLAYER):
            raise Unsupported(f"a mapping keyed by numbers read at a {key.ty}", span)
        lo, hi = min(keys), max(keys)
        if hi - lo >= _SPAN:
            raise Unsupported(f"a mapping keyed by numbers more than {_SPAN} apart", span)
        at = key if lo == 0 else ir.Bin("-", key, ir.Lit(lo, INT), INT)
        domain = range(lo, hi + 1)
        vals = list(mapping.values())
        if all(isinstance(v, int) and not isinstance(v, bool) and -(1 << 62) < v < 1 << 62 for v in vals):
            self.tables["K_" + name] = ([mapping.get(k, NONE) for k in domain], INT)
            return ir.Table("K_" + name, at, INT)
        if all(v is None or (isinstance(v, str) and v in self.symbols) for v in vals):
            words = [self._word(mapping[k], SYM) if k in mapping else MISSING for k in domain]
            self.tables["KN_" + name] = (words, SYM)
            return ir.Table("KN_" + name, at, SYM)
        if all(isinstance(v, list) for v in vals):
            return self.list_table(name, [mapping.get(k) for k in domain], at, span)
        raise Unsupported("a mapping to other than numbers, symbols or lists", span)

    def call_function(self, name: str, args: list[ir.Expr], span: Span) -> ir.Expr:
        return super().call_function(name, self.typed_args(name, args), span)


def set_item(s: ast.Set) -> ast.Set:
    """`set xs[i] = v` (`+=`, `-=`) as the Python backend writes it: `set xs = with_item(xs, i, v)`."""
    target = s.target
    assert isinstance(target, ast.Index)
    value = s.value if s.op == "=" else ast.Binary(s.value.span, s.op[0], target, s.value)
    call = ast.Call(s.span, ast.Name(target.span, "with_item"), (target.obj, target.key, value))
    return ast.Set(s.span, target.obj, "=", call)


def _constant(n: ast.Expr) -> bool:
    """A literal Python folds (no item read at run time): numbers, texts, booleans, none."""
    return isinstance(n, (ast.Number, ast.String, ast.Bool, ast.NoneLit))


__all__ = ["ListLowering", "Unsupported"]


def _first_list(e: ir.Expr) -> bool:
    """`first(e for v in L)` of lists (a region's group): a list value (emit/cgen.py `_Agg`; none,
    no item and no default, stops native code), with a default only of the same type."""
    if not (isinstance(e, ir.Agg) and e.ty.startswith("list[") and e.ty != ANY_LIST):
        return False
    return e.default is None or e.default.ty == e.ty


def held_start(initial: Any) -> bool:
    """A var of type `any` native code holds starts as none or a number (a word)."""
    return initial is None or (isinstance(initial, int) and not isinstance(initial, bool))
