"""Checked DSL -> the typed form (ir.py): every expression typed, every name resolved to a state word.

Stage: compile (native). The game has already been checked and compiled for the Python backend, so
names resolve; what this walk finds is what the native form cannot hold yet. Each such construct
raises `Unsupported` at its node, and support.py turns it into a located diagnostic (N001) and
goes on with the next definition, so `tabula check --native` lists them all.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.compile.native.lowering import ir, ranges, spatial, tiles
from tabula.interpreter.compile.native.lowering.ir import ANY_LIST, BOOL, COMP, INT, PLAYER, PLAYERS, SYM
from tabula.interpreter.compile.native.lowering.ir import Unsupported as Unsupported
from tabula.interpreter.compile.native.slots import option_kind, symbol_table
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import CompiledGame

Scope = dict[str, str]  # DSL local -> its type
ABSENT = "absent"  # a trigger's local no emit of this form passes (triggers.py): reading it stops
MISSING = -(1 << 63) + 1  # a key a mapping does not have (NONE is a key holding none)
_ARITH = {"+", "-", "*", "//", "%"}
_ORDER = {"<", "<=", ">", ">="}
_AGGS = {"max", "min", "sum", "count", "first", "any", "all"}
_VAR_KINDS = {"int": INT, "player": PLAYER, "comp": COMP, "bool": BOOL, "str": SYM}  # str: symbols


def kind_of(ty: str) -> str:
    """How a value of static type `ty` is kept in a state word (slots.Layout.encode)."""
    return {BOOL: "bool", SYM: "sym", PLAYERS: "plist", spatial.PLACE: "place"}.get(ty, "int")


class Lowering:
    """Lowers expressions and effects of one game; `functions` gathers the DSL functions used."""

    def __init__(self, game: CompiledGame, functions: dict[str, Any]) -> None:
        self.g = game
        self.defs = functions  # name -> (params, body expr, span), from the game's data
        self.symbols = symbol_table(game)
        self.texts_learned: list[str] = []  # texts of the rules made symbols (after the game's)
        self.functions: dict[str, tuple[list[tuple[str, str]], ir.Expr]] = {}
        self._making: set[str] = set()
        self.mark_kinds: dict[str, str] = {}
        # a mark without a default (none) read before any `set` is taken for a number; the kind a
        # `set` then gives it is learned, and the game lowered again with it (support.lower_game)
        self.mark_hints: dict[str, str] = {}
        self.mark_learned: dict[str, str] = {}
        # a var holding a list: the type of its items, declared (`list[player]`) or, for `list[any]`,
        # the one the values `set` in it give; read before that `set`, it is learned, and the game
        # lowered again with it (`var_hints`), as a mark's kind is
        self.list_vars: dict[str, str] = {}
        self.var_hints: dict[str, str] = {}
        self.var_learned: dict[str, str] = {}
        self._read_early: set[str] = set()
        self.tables: dict[str, tuple[list[int], str]] = {}  # C table name -> values, element type
        self.boxes: set[str] = set()  # locals a `let` gave a bounding_box (spatial.compared)
        self.missing: list[Unsupported] = []  # statements that could not be lowered (effects.py)
        # a `let x = none` (or `[]`) local: the type of the values `set` gives it (one type, else
        # refused); `learned` keeps them by name for a second lowering (support.Walk.attempt), in
        # which such a local is declared with its type (`hints`) and read before it is set
        self.loose: dict[str, str] = {}
        self.learned: dict[str, str] = {}
        self.hints: dict[str, str] = {}

    # ------------------------------------------------------------ expressions
    def expr(self, n: ast.Expr, scope: Scope) -> ir.Expr:
        out: ir.Expr = self.visit("_", n, scope, f"'{type(n).__name__}' expressions")
        return out

    def visit(self, prefix: str, n: ast.Node, scope: Scope, what: str) -> Any:
        """The method `prefix + node class` applied to `n`; Unsupported(`what`) when there is none."""
        method = getattr(self, prefix + type(n).__name__, None)
        if method is None:
            raise Unsupported(what, n.span)
        return method(n, scope)

    def _Number(self, n: ast.Number, scope: Scope) -> ir.Expr:
        if not -(1 << 31) < n.value < 1 << 31:
            raise Unsupported("numbers beyond 32 bits", n.span)
        return ir.Lit(n.value, INT)

    def _String(self, n: ast.String, scope: Scope) -> ir.Expr:
        """A text is a symbol; one no symbol has becomes one, numbered last (support.lower_game)."""
        if n.value not in self.symbols:
            self.symbols.append(n.value)
            self.texts_learned.append(n.value)
        return ir.Lit(self.symbols.index(n.value), SYM)

    def _Bool(self, n: ast.Bool, scope: Scope) -> ir.Expr:
        return ir.Lit(int(n.value), BOOL)

    def _NoneLit(self, n: ast.NoneLit, scope: Scope) -> ir.Expr:
        return ir.NoneV("none")

    def _Name(self, n: ast.Name, scope: Scope) -> ir.Expr:
        name, g = n.id, self.g
        if name in scope:
            if scope[name] == ABSENT:  # fails when read, as in Python (replayed there): any type will do
                return ir.CallF("absent_arg", (), INT)
            return ir.Local(name, scope[name])
        special = {"num_players": ("T_N", INT), "round": ("T_ROUND", INT), "turn": ("T_TURN", INT)}
        if name in special:
            return ir.Slot(special[name][0], None, special[name][1])
        if name == "active":
            return ir.Slot("T_ACTIVE", None, PLAYER)
        if name == "players":
            return ir.Source("players", None, "", PLAYERS)
        if name in g.by_type:
            return ir.Source("type", None, name, ir.COMPS)
        if name in g.constants:
            return self._constant(g.constants[name], n.span, name)
        if any(name in syms for syms in g.enums.values()):
            return ir.Lit(self.symbols.index(name), SYM)
        if name in g.counters:
            return ir.Slot(f"CNT_{name}", None, INT)
        if name in g.vars:
            return ir.Slot(f"VAR_{name}", None, self.var_type(name, n.span))
        if name in g.zones:
            return ir.Lit(g.zones[name].base, ir.ZONE)
        if name in self.defs:
            return self.call_function(name, [], n.span)
        raise Unsupported(f"the name '{name}'", n.span)

    def _constant(self, v: Any, span: Span, name: str = "") -> ir.Expr:
        if isinstance(v, list) and v and all(isinstance(x, str) and x in self.symbols for x in v):
            self.tables["K_" + name] = ([self.symbols.index(x) for x in v], SYM)
            return ir.Source("const", None, "K_" + name, "list[sym]")
        if isinstance(v, list) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            ranges.in_range(v, f"constant '{name}'", span)
            self.tables["K_" + name] = (list(v), INT)
            return ir.Source("const", None, "K_" + name, "list[int]")
        if isinstance(v, bool):
            return ir.Lit(int(v), BOOL)
        if isinstance(v, int) and -(1 << 31) < v < 1 << 31:
            return ir.Lit(v, INT)
        if isinstance(v, str) and v in self.symbols:
            return ir.Lit(self.symbols.index(v), SYM)
        if name and isinstance(v, list) and v and all(isinstance(x, list) for x in v):
            # a nested list (a shape) has no word: its type names it, and a function given it is
            # made for it (`placements(wall, shape)` reads the constant: spatial.constant_shape)
            return ir.Lit(0, spatial.NESTED + name)
        raise Unsupported("a constant that is not a number or a symbol", span, "index a mapping: k[x]")

    def var_type(self, name: str, span: Span | None) -> str:
        declared = self.g.vars[name].type
        if declared == ANY_LIST:
            item = self.list_vars.get(name) or self.var_hints.get(name)
            if item is None:
                self._read_early.add(name)
                return ANY_LIST
            self.list_vars[name] = item
            return f"list[{item}]"
        t = _VAR_KINDS.get(declared)
        if t is None:
            raise Unsupported(
                f"var '{name}' of type {self.g.vars[name].type}", span, "declare int/player/bool/comp/str"
            )
        return t

    def _Call(self, n: ast.Call, scope: Scope) -> ir.Expr:
        assert isinstance(n.func, ast.Name)  # checked
        name, g, args = n.func.id, self.g, n.args
        if name == "option" and len(args) == 1 and isinstance(args[0], (ast.Name, ast.String)):
            opt = args[0].id if isinstance(args[0], ast.Name) else args[0].value
            v = g.options.get(opt)
            if not isinstance(v, int) and v not in self.symbols:
                raise Unsupported(f"option '{opt}' that is not a number or a text", n.span)
            ty = {"bool": BOOL, "sym": SYM}.get(option_kind(v), INT)
            return ir.Slot("OPT", ir.Lit(list(g.options).index(opt), INT), ty)
        if name in self.defs:
            return self.call_function(name, [self.expr(a, scope) for a in args], n.span)
        if name in g.counters:
            return self.counter_slot(name, args, scope)
        if name in g.vars:
            return ir.Slot(f"VAR_{name}", self.player(args[0], scope), self.var_type(name, n.span))
        if name in g.zones:
            return ir.Bin("+", ir.Lit(g.zones[name].base, INT), self.player(args[0], scope), ir.ZONE)
        if name in ("count", "len") and len(args) == 1:  # the same builtin: neither charges its items
            src = self.source(args[0], scope)
            if src.kind == "zone":
                return ir.ZoneLen(src.expr)  # type: ignore[arg-type]
            if src.kind == "type":
                return ir.Lit(len(g.by_type[src.name]), INT)
            if src.kind == "players":
                return ir.Slot("T_N", None, INT)
            return ir.CallF("l_count", (src,), INT)
        if name == "distinct" and len(args) == 1:
            src = self.source(args[0], scope)
            return ir.CallF("l_distinct", (src,), src.ty)
        if name in ("min", "max") and len(args) == 1:
            src = self.source(args[0], scope)
            if ir.elem(src.ty) != INT:
                raise Unsupported(f"{name} of values that are not numbers", n.span)
            return ir.CallF("l_" + name, (src,), INT)
        if name == "flatten" and len(args) == 1 and isinstance(args[0], ast.ListComp):
            return self.flatten(args[0], scope)
        if name in ("first", "last", "sorted") and len(args) == 1:
            src = self.source(args[0], scope)
            et = ir.elem(src.ty)
            if name == "sorted" and et not in (INT, PLAYER, COMP):
                raise Unsupported(f"sorted of {src.ty}", n.span)
            return ir.CallF("l_" + name, (src,), src.ty if name == "sorted" else et)
        if name == "top" and len(args) == 1:
            src = self.source(args[0], scope)
            if src.kind != "zone":
                raise Unsupported("top of other than a zone", n.span)
            return ir.CallF("top_of", (src.expr,), COMP)  # type: ignore[arg-type]
        if name == "player" and len(args) == 1:
            return ir.Bin("%", self.number(args[0], scope), ir.Slot("T_N", None, INT), PLAYER)
        if name in ("clockwise_from", "others_from") and len(args) == 1:
            kind = "clockwise" if name == "clockwise_from" else "others"
            return ir.Source(kind, self.player(args[0], scope), "", PLAYERS)
        if name in ("left_of", "right_of") and len(args) == 1:
            step = ir.Bin("+" if name == "left_of" else "-", self.player(args[0], scope), ir.Lit(1, INT), INT)
            return ir.Bin("%", step, ir.Slot("T_N", None, INT), PLAYER)
        if name == "holder" and len(args) == 1:
            c = self.expr(args[0], scope)
            if c.ty not in (COMP, "none"):
                raise Unsupported(f"holder of a {c.ty}", n.span)
            return ir.CallF("holder_of", (c,), PLAYER)
        if name == "range" and len(args) == 2:
            lo, hi = self.number(args[0], scope), self.number(args[1], scope)
            return ir.Source("range", lo, "", "list[int]", hi)
        if name in ("min", "max") and len(args) >= 2:
            xs = tuple(self.expr(a, scope) for a in args)
            if any(x.ty != INT for x in xs):
                raise Unsupported(f"{name} of values that are not numbers", n.span)
            return ir.MinMax(name, xs, INT)
        try:
            board = spatial.call(self, n, scope) or tiles.call(self, n, scope)
        except spatial.Unheld as u:
            raise Unsupported(u.what, u.span, u.hint) from None
        if board is not None:
            return board
        raise Unsupported(f"the builtin '{name}' with {len(args)} argument(s)", n.span)

    def counter_slot(self, name: str, args: tuple[ast.Expr, ...], scope: Scope) -> ir.Expr:
        """A counter of a player and/or a key: its word's index from the counter's base."""
        c = self.g.counters[name]
        if not c.keys:
            return ir.Slot(f"CNT_{name}", self.player(args[0], scope), INT)
        key = self.expr(args[-1], scope)
        if key.ty != SYM:
            raise Unsupported(f"a key of counter '{name}' given as {key.ty}", args[-1].span)
        self.tables["KEYS_" + name] = (
            [c.keys.index(s) if s in c.keys else -(1 << 63) for s in self.symbols],
            INT,
        )
        index: ir.Expr = ir.Table("KEYS_" + name, key, INT)
        if c.per_player:
            at = ir.Bin("*", self.player(args[0], scope), ir.Lit(c.width, INT), INT)
            index = ir.Bin("+", at, index, INT)
        return ir.Slot(f"CNTK_{name}", index, INT)

    def player(self, n: ast.Expr, scope: Scope) -> ir.Expr:
        e = self.expr(n, scope)
        if e.ty not in (PLAYER, INT):
            raise Unsupported(f"a player given as {e.ty}", n.span)
        return e

    def call_function(self, name: str, args: list[ir.Expr], span: Span) -> ir.Expr:
        params, body, _ = self.defs[name]
        key = "F_" + name + "".join("_" + a.ty.replace("[", "").replace("]", "") for a in args)
        if key not in self.functions:
            if key in self._making:
                raise Unsupported(f"recursive function '{name}'", span)
            self._making.add(key)
            inner = {p: a.ty for p, a in zip(params, args, strict=True)}
            try:
                value = self.expr(body, inner)
            finally:
                self._making.discard(key)
            self.functions[key] = ([(p, a.ty) for p, a in zip(params, args, strict=True)], value)
        return ir.CallF(key, tuple(args), self.functions[key][1].ty)

    def list_var_set(self, name: str, value: ir.Expr, span: Span | None) -> None:
        """A list stored in var `name`: its items give the var its item type (one type, else
        refused); learned for a second lowering when the var was read before. A list whose items'
        type is not known yet (a `let x = []` local) has the type the local's `set`s gave it."""
        value_ty = value.ty
        if isinstance(value, ir.Local) and value_ty == ANY_LIST:
            value_ty = self.loose.get(value.name, ANY_LIST)
        if value_ty == ANY_LIST:
            if not (
                isinstance(value, ir.ListLit) or (isinstance(value, ir.Slot) and value.base == f"VAR_{name}")
            ):
                raise Unsupported(f"a list of items of no known type stored in var '{name}'", span)
            return
        item = ir.elem(value_ty)
        had = self.list_vars.get(name) or self.var_hints.get(name)
        if not self.list_item(item) or had not in (None, item):
            raise Unsupported(f"var '{name}' holding a {value_ty} and a list[{had}]", span)
        self.list_vars[name] = item
        if name in self._read_early and name not in self.var_hints:
            self.var_learned[name] = item

    def list_item(self, item: str) -> bool:  # whether a var's list may hold items of type `item`
        return item in ir.SCALARS

    def _Attr(self, n: ast.Attr, scope: Scope) -> ir.Expr:
        obj = self.expr(n.obj, scope)
        if obj.ty != COMP:
            raise Unsupported(f"'.{n.name}' of {obj.ty}", n.span)
        g = self.g
        if n.name in g.marks:
            ty = self.mark_type(n.name, n.span)
            declared = {"comp": COMP, "player": PLAYER}.get(g.mark_kinds.get(n.name, ""))
            return ir.Slot(f"MARK_{n.name}", obj, declared if declared and ty == INT else ty)
        values = [c.props.get(n.name) for c in g.components]
        present = [v for v in values if v is not None]
        if not present and n.name == "type":  # the builtin attribute: the type's name, a symbol
            values = present = [c.type for c in g.components]
        if not present:
            raise Unsupported(f"the attribute '.{n.name}'", n.span)
        ranges.in_range(present, f"property '{n.name}'", n.span)
        if all(isinstance(v, bool) for v in present):
            ty = BOOL
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            ty = INT
        elif all(isinstance(v, str) for v in present):
            ty = SYM
        elif all(isinstance(v, list) for v in present):
            return self.list_table(n.name, values, obj, n.span)
        else:
            raise Unsupported(f"property '{n.name}' of mixed kinds", n.span)
        table = "P_" + n.name
        words = [self._word(v, ty) for v in values]
        self.tables[table] = (words, ty)
        return ir.Table(table, obj, ty)

    def list_table(self, name: str, values: list[Any], key: ir.Expr, span: Span) -> ir.Expr:
        """A list per key (a component's list property, a mapping's lists): one flat array of
        every key's items, with offsets and lengths (-1: none there)."""
        items = [x for v in values if isinstance(v, list) for x in v]
        ranges.in_range(items, f"'{name}'", span)
        if all(isinstance(x, str) and x in self.symbols for x in items):
            ty = SYM
        elif all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            ty = INT
        else:
            raise Unsupported(f"lists '{name}' of other than symbols or numbers", span)
        data: list[int] = []
        starts: list[int] = []
        lengths: list[int] = []
        for v in values:
            starts.append(len(data))
            lengths.append(len(v) if isinstance(v, list) else -1)
            data += [self._word(x, ty) for x in v] if isinstance(v, list) else []
        self.tables["PLD_" + name] = (data, ty)
        self.tables["PLO_" + name] = (starts, INT)
        self.tables["PLN_" + name] = (lengths, INT)
        return ir.ListTable(name, key, f"list[{ty}]")

    def _word(self, v: Any, ty: str) -> int:
        if v is None:
            return -(1 << 63)
        return self.symbols.index(v) if ty == SYM else int(v)

    def mark_type(self, name: str, span: Span | None) -> str:
        kind = self.mark_kinds.get(name)
        if kind is None:
            default = self.g.marks[name]
            kind = "bool" if isinstance(default, bool) else "sym" if isinstance(default, str) else "int"
            kind = "plist" if default == [] else kind  # a list mark: of players (slots.pack_players)
            kind = self.mark_hints.get(name, kind) if default is None else kind
            self.mark_kinds[name] = kind
        return {"bool": BOOL, "sym": SYM, "plist": PLAYERS}.get(kind, INT)

    def _Index(self, n: ast.Index, scope: Scope) -> ir.Expr:
        column = self.nested(n, scope)
        if column is not None:
            return column
        if isinstance(n.obj, ast.Name) and isinstance(self.g.constants.get(n.obj.id), list):
            src = self._constant(self.g.constants[n.obj.id], n.span, n.obj.id)
            if not isinstance(src, ir.Source):
                raise Unsupported("indexing a list of other than symbols or numbers", n.span)
            return ir.Table(src.name, self.number(n.key, scope), ir.elem(src.ty))
        if not (isinstance(n.obj, ast.Name) and isinstance(self.g.constants.get(n.obj.id), dict)):
            lst = self.wanted(self.expr(n.obj, scope), ANY_LIST, n.span)
            if lst.ty == ir.ZONE:  # the component at that position, 0 the top
                return ir.CallF("zone_at", (lst, self.number(n.key, scope)), COMP)
            if not lst.ty.startswith("list["):
                raise Unsupported("indexing other than a list or a constant mapping", n.span)
            src = self.source(n.obj, scope)
            return ir.CallF("l_at", (src, self.number(n.key, scope)), ir.elem(src.ty))
        mapping: dict[Any, Any] = self.g.constants[n.obj.id]
        return self.mapping_table(n.obj.id, mapping, self.expr(n.key, scope), n.span)

    def nested(self, n: ast.Index, scope: Scope) -> ir.Expr | None:
        """`k[x]['name']` of a constant mapping of mappings: the column `name` as a mapping of its own."""
        inner = n.obj
        if not (isinstance(inner, ast.Index) and isinstance(n.key, ast.String)):
            return None
        if not (isinstance(inner.obj, ast.Name) and isinstance(self.g.constants.get(inner.obj.id), dict)):
            return None
        outer: dict[Any, Any] = self.g.constants[inner.obj.id]
        if not all(isinstance(v, dict) and n.key.value in v for v in outer.values()):
            raise Unsupported(f"a mapping without '{n.key.value}' in every entry", n.span)
        column = {k: v[n.key.value] for k, v in outer.items()}
        return self.mapping_table(
            f"{inner.obj.id}__{n.key.value}", column, self.expr(inner.key, scope), n.span
        )

    def mapping_table(self, name: str, mapping: dict[Any, Any], key: ir.Expr, span: Span) -> ir.Expr:
        """A constant mapping keyed by symbols, read at `key`: numbers, symbols (or none), lists."""
        if key.ty != SYM or not all(isinstance(k, str) for k in mapping):
            raise Unsupported("a mapping keyed by other than symbols", span)
        vals = list(mapping.values())
        ranges.in_range(vals, f"constant '{name}'", span)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            self.tables["K_" + name] = ([mapping.get(s, -(1 << 63)) for s in self.symbols], INT)
            return ir.Table("K_" + name, key, INT)
        if all(v is None or (isinstance(v, str) and v in self.symbols) for v in vals):
            words = [self._word(mapping[s], SYM) if s in mapping else MISSING for s in self.symbols]
            self.tables["KN_" + name] = (words, SYM)
            return ir.Table("KN_" + name, key, SYM)
        if all(isinstance(v, list) for v in vals):
            return self.list_table(name, [mapping.get(s) for s in self.symbols], key, span)
        raise Unsupported("a mapping to other than numbers, symbols or lists", span)

    def _Neg(self, n: ast.Neg, scope: Scope) -> ir.Expr:
        return ir.Unary("-", self.number(n.operand, scope), INT)

    def _Not(self, n: ast.Not, scope: Scope) -> ir.Expr:
        return ir.Unary("!", self.boolean(n.operand, scope), BOOL)

    def _And(self, n: ast.And, scope: Scope) -> ir.Expr:
        return ir.Bin("&&", self.boolean(n.left, scope), self.boolean(n.right, scope), BOOL)

    def _Or(self, n: ast.Or, scope: Scope) -> ir.Expr:
        return ir.Bin("||", self.boolean(n.left, scope), self.boolean(n.right, scope), BOOL)

    def wanted(self, e: ir.Expr, want: str, span: Span) -> ir.Expr:  # lists.py: a var of two kinds
        return e

    def number(self, n: ast.Expr, scope: Scope) -> ir.Expr:
        e = self.wanted(self.expr(n, scope), INT, n.span)
        if e.ty not in (INT, PLAYER):
            raise Unsupported(f"arithmetic on {e.ty}", n.span)
        return e

    def boolean(self, n: ast.Expr, scope: Scope) -> ir.Expr:
        e = self.wanted(self.expr(n, scope), BOOL, n.span)
        if e.ty.startswith("list["):  # a list is true when it has items, as in Python
            length = ir.CallF("l_count", (ir.Source("list", e, "", e.ty),), INT)
            return ir.Bin(">", length, ir.Lit(0, INT), BOOL)
        if e.ty != BOOL:
            raise Unsupported(f"a {e.ty} used as a condition", n.span, "compare it: x != none, n > 0")
        return e

    def _Binary(self, n: ast.Binary, scope: Scope) -> ir.Expr:
        if n.op not in _ARITH:
            raise Unsupported(f"the operator '{n.op}'", n.span)
        # each side lowered once: lowering it again for `number` doubled the work at every level of
        # a chain of sums (60 terms never finished)
        a, b = self.expr(n.left, scope), self.expr(n.right, scope)
        a, b = self.wanted(a, b.ty if n.op == "+" else INT, n.span), self.wanted(b, a.ty, n.span)
        if n.op == "+" and a.ty.startswith("list[") and b.ty.startswith("list["):
            if not ir.comparable(a.ty, b.ty):
                raise Unsupported(f"'+' of {a.ty} and {b.ty}", n.span)
            return ir.CallF("l_cat", (a, b), b.ty if a.ty == ANY_LIST else a.ty)
        for side, e in ((n.left, a), (n.right, b)):
            if e.ty not in (INT, PLAYER):
                raise Unsupported(f"arithmetic on {e.ty}", side.span)
        return ir.Bin(n.op, a, b, INT)

    def _Compare(self, n: ast.Compare, scope: Scope) -> ir.Expr:
        a, b = self.expr(n.left, scope), self.expr(n.right, scope)
        a, b = self.wanted(a, INT if n.op in _ORDER else b.ty, n.span), self.wanted(b, a.ty, n.span)
        if n.op in _ORDER:
            if a.ty not in (INT, PLAYER) or b.ty not in (INT, PLAYER):
                raise Unsupported(f"'{n.op}' between {a.ty} and {b.ty}", n.span)
        elif not ir.comparable(a.ty, b.ty) or not self.loosely(a, b) or not self.loosely(b, a):
            raise Unsupported(f"'{n.op}' between {a.ty} and {b.ty}", n.span)
        return spatial.compared(n.op, a, b, n.span, self.boxes)

    def loosely(self, a: ir.Expr, b: ir.Expr, item: bool = False) -> bool:
        """A `let x = none` (or `[]`) local compared with a value (`item`: searched for one): the
        values set in it have the value's type."""
        start = ANY_LIST if item else "none"
        if not (isinstance(a, ir.Local) and a.ty == start) or b.ty == "none":
            return True
        had = self.loose.get(a.name, "?")
        if a.name not in self.loose:  # a parameter given none or []: always that
            return True
        if item:
            return had == ANY_LIST or ir.comparable(ir.elem(had), b.ty)
        return ir.comparable(had, b.ty) and had != "none"

    def _CondExpr(self, n: ast.CondExpr, scope: Scope) -> ir.Expr:
        a, b = self.expr(n.then, scope), self.expr(n.otherwise, scope)
        if not ir.comparable(a.ty, b.ty):
            raise Unsupported(f"'if ... else' giving {a.ty} or {b.ty}", n.span)
        ty = b.ty if a.ty in ("none", ANY_LIST) else a.ty
        return ir.Cond(self.boolean(n.test, scope), a, b, ty)

    def _In(self, n: ast.In, scope: Scope) -> ir.Expr:
        item, zone = self.expr(n.item, scope), self.source(n.container, scope)
        if zone.kind != "zone":
            if item.ty not in ir.SCALARS or not self.loosely(zone.expr or zone, item, True):
                raise Unsupported(f"'in' of a {item.ty}", n.span)
            test = ir.CallF("l_has", (zone, item), BOOL)
        elif item.ty != COMP:
            raise Unsupported("'in' other than a component in a zone", n.span)
        else:
            test = ir.CallF("in_zone", (item, zone.expr), BOOL)  # type: ignore[arg-type]
        return ir.Unary("!", test, BOOL) if n.negated else test

    def source(self, n: ast.Expr, scope: Scope) -> ir.Source:
        """What a loop or an aggregate walks: a zone, a component type's list, the players."""
        e = self.wanted(self.expr(n, scope), ANY_LIST, n.span)
        if isinstance(e, ir.Source):
            return e
        if e.ty == ir.ZONE:
            return ir.Source("zone", e, "", ir.COMPS)
        if e.ty.startswith("list["):
            return ir.Source("list", e, "", e.ty)
        if e.ty == spatial.PLACE:
            return spatial.place_source(e)
        raise Unsupported(f"a loop over {e.ty}", n.span, "loop over a zone, a component type or players")

    def _CallGen(self, n: ast.CallGen, scope: Scope) -> ir.Expr:
        assert isinstance(n.func, ast.Name)
        kind, gen = n.func.id, n.gen
        if kind in ("distinct", "sorted"):
            return self.ordered(kind, n, scope)
        if kind not in _AGGS:
            raise Unsupported(f"'{kind}(... for ...)'", n.span)  # (regions: groups.py)
        src = spatial.walked(self, gen.iter, scope)  # (first of a list of lists: lists.py refuses it)
        inner = {**scope, gen.var: ir.elem(src.ty)}
        elt = self.expr(gen.elt, inner)
        cond = self.boolean(gen.cond, inner) if gen.cond is not None else None
        default = self.expr(gen.default, scope) if gen.default is not None else None
        if kind in ("max", "min", "sum") and elt.ty != INT:
            raise Unsupported(f"{kind} of {elt.ty}", n.span)
        if kind in ("any", "all") and elt.ty != BOOL:
            raise Unsupported(f"{kind} of {elt.ty}", n.span)
        ty = {"count": INT, "sum": INT, "any": BOOL, "all": BOOL}.get(kind, elt.ty)
        return ir.Agg(kind, gen.var, src, elt, cond, default, ty)

    def flatten(self, n: ast.ListComp, scope: Scope) -> ir.Expr:
        """`flatten([Z(q) for q in L where c])` of zones: their components, zone after zone."""
        gen = n.gen
        src = self.source(gen.iter, scope)
        inner = {**scope, gen.var: ir.elem(src.ty)}
        cond = self.boolean(gen.cond, inner) if gen.cond is not None else None
        zone = self.expr(gen.elt, inner)
        if zone.ty != ir.ZONE:
            raise Unsupported(f"flatten of a list of {zone.ty}", n.span)
        return ir.CallF("l_zones", (ir.Picked(gen.var, src, cond, "list[int]", zone),), ir.COMPS)

    def ordered(self, kind: str, n: ast.CallGen, scope: Scope) -> ir.Expr:
        """`distinct(e for v in L [where c] [by k])` (the first item of each value or key, in order)
        and `sorted(e for v in L [where c])` (increasing numbers, players or components)."""
        gen = n.gen
        src = self.source(gen.iter, scope)
        inner = {**scope, gen.var: ir.elem(src.ty)}
        cond = self.boolean(gen.cond, inner) if gen.cond is not None else None
        elt = self.expr(gen.elt, inner)
        if elt.ty not in ir.WORDS:
            raise Unsupported(f"{kind} of {elt.ty}", n.span)
        own = isinstance(gen.elt, ast.Name) and gen.elt.id == gen.var
        by = self.expr(gen.by, inner) if gen.by is not None else None
        if by is not None and (kind != "distinct" or by.ty not in ir.SCALARS):
            raise Unsupported(f"{kind}(... by ...) of a {by.ty} key", n.span)
        items = ir.Picked(gen.var, src, cond, f"list[{elt.ty}]", None if own else elt, by)
        if kind == "distinct":
            return items if by is not None else ir.CallF("l_distinct", (items,), items.ty)
        if elt.ty not in (INT, PLAYER, COMP):
            raise Unsupported(f"sorted of {elt.ty}", n.span)
        return ir.CallF("l_sorted", (items,), items.ty)

    def _ListComp(self, n: ast.ListComp, scope: Scope) -> ir.Expr:
        """`[elt for v in src where cond]`: a list value of scalars."""
        gen = n.gen
        src = self.source(gen.iter, scope)
        inner = {**scope, gen.var: ir.elem(src.ty)}
        cond = self.boolean(gen.cond, inner) if gen.cond is not None else None
        if isinstance(gen.elt, ast.Name) and gen.elt.id == gen.var:
            return ir.Picked(gen.var, src, cond, src.ty)
        elt = self.expr(gen.elt, inner)
        if elt.ty not in ir.WORDS:
            raise Unsupported(f"a list of {elt.ty}", n.span)
        return ir.Picked(gen.var, src, cond, f"list[{elt.ty}]", elt)

    def _ListLit(self, n: ast.ListLit, scope: Scope) -> ir.Expr:
        items = tuple(self.expr(x, scope) for x in n.items)
        tys = {x.ty for x in items}
        if not items:
            return ir.ListLit((), ANY_LIST)
        if len(tys) != 1 or not tys <= set(ir.SCALARS):
            raise Unsupported("a list literal of mixed or non-scalar items", n.span)
        return ir.ListLit(items, f"list[{items[0].ty}]")
