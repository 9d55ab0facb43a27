"""The typed form (ir.py) -> one C translation unit for the game.

Stage: compile (native). Every value is a 64-bit word; every read that can fail in Python (a none in
arithmetic, an index out of range, a missing key, a division by zero, a sum past the native range)
is a check that stops the run with an error number (runtime/values.c). The native code may stop where
Python would go on (it is never looser): the bridge then replays that decision on Python, which
either reports the located error or carries on with the game in Python.
"""

from __future__ import annotations

import re
from itertools import count

from tabula.interpreter.compile.native.emit import boards_c, groups_c, prelude
from tabula.interpreter.compile.native.emit.statements import Env, Statements, c_int, ctype
from tabula.interpreter.compile.native.lowering import ir, stops
from tabula.interpreter.compile.native.lowering.ir import BOOL, INT
from tabula.interpreter.compile.native.lowering.lower import kind_of
from tabula.interpreter.compile.native.slots import TWO_LIST, Layout
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.run.budget import LIGHT

_WHICH = (
    "W_SETUP",
    "W_ON_START",
    "W_ON_END",
    "W_TURN_END",
    "W_FINISH",
    "W_COUNT",
    "W_FIRST",
    "W_ENDS",
    "W_PLAYER",
)
_CMP = {"==", "!=", "<", "<=", ">", ">="}
_NAME = re.compile(r"[A-Za-z_]\w*")  # a C variable (a list passed by address needs no copy)


def _light_literal(e: ir.Expr) -> bool:
    """A list of at most LIGHT constants: Python does not charge a comparison with it
    (compile/python operators.py `_may_be_long_list`)."""
    if not isinstance(e, ir.ListLit) or len(e.items) > LIGHT:
        return False
    return all(isinstance(i, (ir.Lit, ir.NoneV)) for i in e.items)


def _flat(ty: str) -> bool:
    return ty.startswith("list[") and not groups_c.nested(ty)


class CGen(Statements):
    """Writes the C of one game's expressions (its statements: statements.py), from its program and
    layout (units.py writes the unit)."""

    def __init__(
        self, game: CompiledGame, prog: ir.Program, layout: Layout, tables: dict[str, tuple[list[int], str]]
    ) -> None:
        self.g = game
        self.prog = prog
        self.lay = layout
        self.tables = tables
        self._ids = count()
        self.measured = stops.kept_stores(prog, groups_c.nested)  # (Python measures the state there)
        self.weighed = stops.kept_stores(prog, _flat)  # (... when the list is not light: stops.py)

    def fresh(self, stem: str) -> str:
        return f"{stem}_{next(self._ids)}"

    # ------------------------------------------------------------ expressions
    def expr(self, e: ir.Expr, env: Env) -> str:
        out: str = getattr(self, "_" + type(e).__name__)(e, env)
        return out

    def num(self, e: ir.Expr, env: Env) -> str:
        """A value that must not be none (arithmetic, an ordered comparison, an index)."""
        return self.expr(e, env) if isinstance(e, ir.Lit) else f"N(x, {self.expr(e, env)})"

    def _Lit(self, e: ir.Lit, env: Env) -> str:
        return c_int(e.value)

    def _NoneV(self, e: ir.NoneV, env: Env) -> str:
        return "NONE"

    def _Local(self, e: ir.Local, env: Env) -> str:
        return env[e.name]

    def _CallerMe(self, e: ir.CallerMe, env: Env) -> str:
        return env.get("me", "NONE")

    def _Slot(self, e: ir.Slot, env: Env) -> str:
        if e.base.startswith("VAR_") and self.lay.var_kinds[e.base[4:]][:4] == "two:":
            return self.two_read(e, env)
        if e.base.startswith("VAR_") and e.ty.startswith("list["):  # a var's list: its length, items
            return f"lv_get(x, {self.slot(e, env)})"
        if e.ty.startswith("list["):  # a list of players kept in one word (a mark)
            return f"pl_unpack(x, S[{self.slot(e, env)}])"
        return f"S[{self.slot(e, env)}]"

    def two_read(self, e: ir.Slot, env: Env) -> str:
        """A var of two kinds read as `e.ty` (lowering/lists.py `wanted`): its kind word checked (the
        other kind: E_KIND, Python replays the decision and fails or goes on as it does), then its
        number or its list (slots.py TWO_LIST)."""
        k, lst = self.fresh("k"), e.ty.startswith("list[")
        value = f"lv_get(x, {k} + {TWO_LIST})" if lst else f"S[{k} + 1]"
        return f"({{ i64 {k} = {self.slot(e, env)}; if (S[{k}] != {int(lst)}) fail(x, E_KIND); {value}; }})"

    def slot(self, e: ir.Slot, env: Env) -> str:
        """The word index of a slot (checked: a player in range, a component id)."""
        base = e.base
        idx = e.index
        if base.startswith("CNTK_"):
            c = self.g.counters[base[5:]]
            assert idx is not None
            size = c.width * (self.g.max_players if c.per_player else 1)
            return f"CNT + {c.base} + KEYK(x, {self.num(idx, env)}, {size})"
        if base.startswith("CNT_"):
            c = self.g.counters[base[4:]]
            return f"CNT + {c.base}" + (f" + PK(x, {self.num(idx, env)})" if idx is not None else "")
        if base.startswith("VAR_"):
            at, width = self.lay.var_base[base[4:]], self.lay.var_width(base[4:])
            if idx is None:
                return f"{at}"
            return f"{at} + PK(x, {self.num(idx, env)})" + (f" * {width}" if width > 1 else "")
        if base.startswith("MARK_"):
            assert idx is not None
            return f"{self.lay.mark_base[base[5:]]} + CK(x, {self.num(idx, env)})"
        if base == "OPT":
            assert isinstance(idx, ir.Lit)
            return f"OPT + {idx.value}"
        return base

    def _Table(self, e: ir.Table, env: Env) -> str:
        words, _ = self.tables[e.name]
        if e.name.startswith("P_"):
            return f"{e.name}[CK(x, {self.num(e.key, env)})]"
        if e.name.startswith("KN_"):
            return f"KLN(x, {e.name}, {len(words)}, {self.num(e.key, env)})"
        return f"KL(x, {e.name}, {len(words)}, {self.num(e.key, env)})"

    def _ZoneLen(self, e: ir.ZoneLen, env: Env) -> str:
        return f"S[ZLEN + ZK(x, {self.num(e.zone, env)})]"

    def _Unary(self, e: ir.Unary, env: Env) -> str:
        if e.op == "-":
            return f"SUB(x, 0, {self.num(e.operand, env)})"
        return f"(!{self.expr(e.operand, env)})"

    def _Bin(self, e: ir.Bin, env: Env) -> str:
        op = e.op
        if op in ("&&", "||"):
            return f"({self.expr(e.left, env)} {op} {self.expr(e.right, env)})"
        if op in ("==", "!=") and isinstance(e.left, ir.ListTable) and isinstance(e.right, ir.ListTable):
            return f"({'' if op == '==' else '!'}{self.spans_equal(e.left, e.right, env)})"
        if op in ("==", "!=") and e.left.ty.startswith("list[") and e.right.ty.startswith("list["):
            fn = "l_same" if _light_literal(e.left) or _light_literal(e.right) else "l_eq"  # (charged)
            not_ = "" if op == "==" else "!"
            return f"({not_}{fn}(x, {self.lval(e.left, env)}, {self.lval(e.right, env)}))"
        if op in ("==", "!="):
            return f"({self.expr(e.left, env)} {op} {self.expr(e.right, env)})"
        a, b = self.num(e.left, env), self.num(e.right, env)
        if op in _CMP:
            return f"({a} {op} {b})"
        fn = {"+": "ADD", "-": "SUB", "*": "MUL", "//": "FDIV", "%": "FMOD"}[op]
        return f"{fn}(x, {a}, {b})"

    def _Cond(self, e: ir.Cond, env: Env) -> str:
        return f"({self.expr(e.test, env)} ? {self.expr(e.then, env)} : {self.expr(e.otherwise, env)})"

    def _CallF(self, e: ir.CallF, env: Env) -> str:
        if e.name == "l_cat":  # the second list by address: one copy less
            t = self.fresh("l")
            a, b = (self.lval(x, env) for x in e.args)
            return f"({{ L {t} = {b}; l_cat(x, {a}, &{t}); }})"
        if e.name == "l_has":  # the list by address: a named one is not copied
            lst, item = self.lval(e.args[0], env), self.expr(e.args[1], env)
            held = e.args[0]
            if isinstance(held, ir.Slot) and not held.base.startswith("VAR_"):  # players in a word
                return f"pl_has(x, S[{self.slot(held, env)}], {item})"
            if _NAME.fullmatch(lst):
                return f"l_has(x, &{lst}, {item})"
            t = self.fresh("l")
            return f"({{ L {t} = {lst}; l_has(x, &{t}, {item}); }})"
        if e.name in ("l_at", "l_count") and _NAME.fullmatch(lst := self.lval(e.args[0], env)):
            # a named list read in place: by value, its LCAP words were copied at each read (in
            # a loop over Ticket to Ride's routes, two thirds of the decision's time)
            return f"l_atp(x, &{lst}, {self.expr(e.args[1], env)})" if e.name == "l_at" else f"{lst}.n"
        args = ", ".join(self.lval(a, env) if a.ty.startswith("list[") else self.expr(a, env) for a in e.args)
        return f"{e.name}(x, {args})" if args else f"{e.name}(x)"

    def _MinMax(self, e: ir.MinMax, env: Env) -> str:
        out = self.num(e.args[0], env)
        for a in e.args[1:]:
            fn = "MIN2" if e.op == "min" else "MAX2"
            out = f"{fn}({out}, {self.num(a, env)})"
        return out

    # ------------------------------------------------------------ list values
    def spans_equal(self, a: ir.ListTable, b: ir.ListTable, env: Env) -> str:
        """Two constant lists (`x.ends == e.ends`) compared where they lie: an `L` copied for each
        side was two of LCAP words per comparison (a third of Ticket to Ride's claim)."""
        parts = []
        for side in (a, b):
            t, size, k = side.name, len(self.tables["PLO_" + side.name][0]), self.num(side.key, env)
            ptr, n = self.fresh("s"), self.fresh("n")
            span = f"l_span(x, PLD_{t}, PLO_{t}, PLN_{t}, {size}, {n})"
            parts.append((ptr, n, f"i64 {n} = {k}; const i64 *{ptr} = {span}; {n} = PLN_{t}[{n}];"))
        (pa, na, sa), (pb, nb, sb) = parts
        charge = f"CHARGE(MIN2({na}, {nb}));"  # the shorter list's items, as Python compares lists
        return f"({{ {sa} {sb} {charge} l_span_eq({pa}, {na}, {pb}, {nb}); }})"

    def lval(self, e: ir.Expr, env: Env) -> str:
        """A list-typed expression as an `L` value (a source walked into one)."""
        if isinstance(e, ir.Source) and e.kind == "list":
            assert e.expr is not None
            return self.lval(e.expr, env)
        if isinstance(e, ir.Source) and e.kind == "regions":  # kept whole: charged as walked once
            return groups_c.packed(self, e, env)
        if isinstance(e, ir.Source):
            return self._Picked(ir.Picked("_", e, None, e.ty), env)
        return self.expr(e, env)

    def _Source(self, e: ir.Source, env: Env) -> str:
        return self.lval(e, env)

    def _Flat(self, e: ir.Flat, env: Env) -> str:
        """flatten of a comprehension of lists: its source and then every item and list charged."""
        setup, item, n = self.loop(e.src, env, False)
        out, part, i, j, v = (self.fresh(k) for k in ("l", "l", "i", "j", "v_" + e.var))
        inner = {**env, e.var: v}
        cond = self.expr(e.cond, inner) if e.cond is not None else "1"
        lines = [*setup, f"L {out}; {out}.n = 0; CHARGE({n});"]
        lines.append(f"for (i64 {i} = 0; {i} < {n}; {i}++) {{ {self.item(e.src, v, item, i)}")
        lines.append(f"if ({cond}) {{ L {part} = {self.lval(e.elt, inner)}; CHARGE(1 + {part}.n);")
        lines.append(f"for (i64 {j} = 0; {j} < {part}.n; {j}++) l_push(x, &{out}, {part}.v[{j}]); }} }}")
        return "({ " + " ".join(lines) + f" {out}; }})"

    def _Picked(self, e: ir.Picked, env: Env) -> str:
        setup, item, n = self.loop(e.src, env, False)
        out, i, v = self.fresh("l"), self.fresh("i"), self.fresh("v_" + e.var)
        inner = {**env, e.var: v}
        cond = self.expr(e.cond, inner) if e.cond is not None else "1"
        elt = self.expr(e.elt, inner) if e.elt is not None else v
        lines = [*setup, f"L {out}; {out}.n = 0; CHARGE({n});"]
        lines.append(f"for (i64 {i} = 0; {i} < {n}; {i}++) {{ {self.item(e.src, v, item, i)}")
        if e.by is None and groups_c.nested(e.ty):  # a list of lists: each list its length, its items
            group = self.lval(e.elt, inner) if e.elt else v
            lines.append(f"if ({cond}) {{ L g_ = {group}; gr_push(x, &{out}, &g_); }} }}")
            return "({ " + " ".join(lines) + f" {out}; }})"
        if e.by is None:
            lines.append(f"if ({cond}) l_push(x, &{out}, {elt}); }}")
            return "({ " + " ".join(lines) + f" {out}; }})"
        keys, k = self.fresh("keys"), self.fresh("k")
        lines.insert(len(setup), f"L {keys}; {keys}.n = 0;")
        lines.append(f"if ({cond}) {{ i64 {k} = {self.expr(e.by, inner)};")
        lines.append(
            f"if (!l_has(x, &{keys}, {k})) {{ l_push(x, &{keys}, {k}); l_push(x, &{out}, {elt}); }} }} }}"
        )
        return "({ " + " ".join(lines) + f" {out}; }})"

    def item(self, src: ir.Source, v: str, item: str, i: str) -> str:
        """A walk's item `v` declared (a list of a list of lists is an `L`)."""
        return f"{ctype(ir.elem(src.ty))} {v} = {item.format(i=i)}; (void){v};"

    def _Region(self, e: ir.Region, env: Env) -> str:
        return boards_c.flood(self, e, env)

    def _ListLit(self, e: ir.ListLit, env: Env) -> str:
        out = self.fresh("l")
        pushes = " ".join(f"l_push(x, &{out}, {self.expr(a, env)});" for a in e.items)
        return f"({{ L {out}; {out}.n = 0; {pushes} {out}; }})"

    def _ListTable(self, e: ir.ListTable, env: Env) -> str:
        t = e.name
        size = len(self.tables["PLO_" + t][0])
        return f"l_slice(x, PLD_{t}, PLO_{t}, PLN_{t}, {size}, {self.num(e.key, env)})"

    def loop(self, src: ir.Source, env: Env, copy: bool) -> tuple[list[str], str, str]:
        """C lines that set up a walk over `src`, the C expression of its item `{i}` (a format
        string) and the name of its count; `copy`: a zone is walked as it was before the loop."""
        a, n = self.fresh("a"), self.fresh("n")
        item = a + "[{i}]"
        if src.kind == "players":
            return [f"i64 {n} = S[T_N];"], "{i}", n
        if src.kind == "type":
            return [f"const i64 *{a} = TYPE_{src.name}; i64 {n} = {len(self.g.by_type[src.name])};"], item, n
        if src.kind == "const":
            size = len(self.tables[src.name][0])
            return [f"const i64 *{a} = {src.name}; i64 {n} = {size};"], item, n
        assert src.expr is not None
        if src.kind == "regions":
            return self.groups(src, env, a, n)
        if src.kind == "list" and groups_c.nested(src.ty):
            return groups_c.walk(self, src, env, a, n)
        if src.kind == "list":
            value = self.lval(src.expr, env)
            if _NAME.fullmatch(value):  # a named list: its items copied, not its LCAP words
                lines = [f"i64 {n} = {value}.n, {a}[LCAP];", f"memcpy({a}, {value}.v, (size_t){n} * 8);"]
                return lines, item, n
            return [f"L {a} = {value}; i64 {n} = {a}.n;"], a + ".v[{i}]", n
        start = self.fresh("s")
        if src.kind == "clockwise":
            return (
                [f"i64 {start} = N(x, {self.expr(src.expr, env)}), {n} = S[T_N];"],
                (f"FMOD(x, {start} + {{i}}, S[T_N])"),
                n,
            )
        if src.kind == "others":
            return (
                [f"i64 {start} = N(x, {self.expr(src.expr, env)}), {n} = S[T_N] - 1;"],
                (f"FMOD(x, {start} + 1 + {{i}}, S[T_N])"),
                n,
            )
        if src.kind == "range":
            assert src.upper is not None
            hi = self.num(src.upper, env)
            lines = [f"i64 {start} = {self.num(src.expr, env)}, {n} = {hi} > {start} ? {hi} - {start} : 0;"]
            # walked in place, but charged as the list Python builds (run/builtins.py range: bounded)
            lines.append(f"if ({n} > MAX_LIST) fail(x, E_SIZE); CHARGE({n});")
            return lines, f"({start} + {{i}})", n
        z = self.fresh("z")
        lines = [f"i64 {z} = ZK(x, {self.num(src.expr, env)});", f"i64 {n} = S[ZLEN + {z}];"]
        if copy:
            lines.append(f"i64 {a}[NCOMP + 1]; memcpy({a}, ZP(x, {z}), (size_t){n} * 8);")
        else:
            lines.append(f"const i64 *{a} = ZP(x, {z});")
        return lines, item, n

    def groups(self, src: ir.Source, env: Env, a: str, n: str) -> tuple[list[str], str, str]:
        """`regions(v for v in L where C by K)` walked: the cells passing C and their keys (L
        charged, as run/boards.py regions charges it), grouped by boards_c.py's `b_regions` into
        the cells `a` (group after group) and each group's end; an item is a group's list."""
        pk = src.expr
        assert isinstance(pk, ir.Picked)
        setup, item, m = self.loop(pk.src, env, False)
        cs, ks, e, i, v = (
            self.fresh("cs"),
            self.fresh("ks"),
            self.fresh("e"),
            self.fresh("i"),
            self.fresh("v"),
        )
        inner = {**env, pk.var: v}
        cond = self.expr(pk.cond, inner) if pk.cond is not None else "1"
        key = self.expr(pk.by, inner) if pk.by is not None else "0"
        lines = [*setup, f"L {cs}, {ks}; {cs}.n = 0; {ks}.n = 0; CHARGE({m});"]
        lines.append(
            f"for (i64 {i} = 0; {i} < {m}; {i}++) {{ i64 {v} = {item.format(i=i)}; (void){v};"
            f" if ({cond}) {{ l_push(x, &{cs}, {v}); l_push(x, &{ks}, {key}); }} }}"
        )
        lines.append(f"L {a}, {e}; b_regions(x, &{cs}, &{ks}, &{a}, &{e}); i64 {n} = {e}.n;")
        return lines, f"rg_item(&{a}, &{e}, {{i}})", n

    def _Agg(self, e: ir.Agg, env: Env) -> str:
        setup, a, n = self.loop(e.src, env, False)  # type: ignore[arg-type]
        r, i, v = self.fresh("r"), self.fresh("i"), self.fresh("v_" + e.var)
        inner = {**env, e.var: v}
        cond = self.expr(e.cond, inner) if e.cond is not None else "1"
        elt = self.expr(e.elt, inner) if e.elt is not None else v
        init = {
            "max": "NONE",
            "min": "NONE",
            "sum": "0",
            "count": "0",
            "first": "NONE",
            "any": "0",
            "all": "1",
            "prod": "1",
        }
        body = {
            "max": f"{{ i64 e_ = N(x, {elt}); if ({r} == NONE || e_ > {r}) {r} = e_; }}",
            "min": f"{{ i64 e_ = N(x, {elt}); if ({r} == NONE || e_ < {r}) {r} = e_; }}",
            "sum": f"{r} = ADD(x, {r}, N(x, {elt}));",
            "count": f"{r} += 1;",
            "first": f"{{ {r} = {elt}; f_ = 1; break; }}",
            "any": f"if ({elt}) {{ {r} = 1; break; }}",
            "all": f"if (!({elt})) {{ {r} = 0; break; }}",
            "prod": f"{r} = MUL(x, {r}, N(x, {elt}));",
        }[e.kind]
        lst = e.ty.startswith("list[")  # first of lists (a region's group): a list value, or a stop
        start = f"L {r}; {r}.n = 0;" if lst else f"i64 {r} = {init[e.kind]};"
        lines = [*setup, f"{start} int f_ = 0; (void)f_;", f"CHARGE({n});"]
        lines.append(
            f"for (i64 {i} = 0; {i} < {n}; {i}++) {{ {ctype(ir.elem(e.src.ty))} {v} = {a.format(i=i)};"
            f" if ({cond}) {body} }}"
        )
        if lst:  # no item: none in Python, which no list value holds (E_KIND: Python replays)
            lines.append(
                f"if (!f_) {r} = {self.expr(e.default, env)};" if e.default else "if (!f_) fail(x, E_KIND);"
            )
        elif e.default is not None and e.kind in ("max", "min", "first"):
            lines.append(f"if ({r} == NONE && !f_) {r} = {self.expr(e.default, env)};")
        return "({ " + " ".join(lines) + f" {r}; }})"

    # ------------------------------------------------------------ the unit
    def meta(self) -> dict[str, object]:
        """What the bridge needs of the library on a warm load: its size and how marks are kept."""
        args = {
            str(a.index): [kind_of(ir.elem(p[1].ty)) for p in a.params]
            for a in self.prog.actions or []
            if a.param is not None
        }
        sites = [list(x) for x in self.prog.sites or []]
        lists = {k: v[5:] for k, v in self.lay.var_kinds.items() if v.startswith("list:")}
        anys = {
            k: v
            for k, v in self.lay.var_kinds.items()
            if self.g.vars[k].type == "any" and (v == "sym" or v[:4] == "two:")
        }
        return {
            "anys": anys,
            "views": self.prog.views or {},
            "until": self.lay.until,
            "room": self.lay.room,
            "symbols": self.lay.symbols,
            "words": self.lay.size,
            "marks": self.lay.mark_kinds,
            "lists": lists,
            "args": args,
            "sites": sites,
        }


__all__ = ["BOOL", "INT", "CGen", "Env", "c_int", "ctype", "prelude"]
