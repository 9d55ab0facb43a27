"""The statements of the typed form (ir.py) as C lines: stores, moves, decisions, loops (each charged
as Python charges it), reveals, the end of a game.

Stage: compile (native). `Statements` is mixed into cgen.py's CGen, which writes the expressions;
the methods below each name what they take from it.
"""

from __future__ import annotations

from tabula.interpreter.compile.native.emit import grants_c
from tabula.interpreter.compile.native.lowering import ir, stops
from tabula.interpreter.compile.native.lowering.ir import COMP, PLAYER
from tabula.interpreter.compile.native.slots import NONE, TWO_LIST, Layout
from tabula.interpreter.model.game import CompiledGame

Env = dict[str, str]  # DSL local -> C variable


def c_int(v: int) -> str:
    return "NONE" if v == NONE else f"{v}LL"


def ctype(ty: str) -> str:
    """The C type of a value of static type `ty`: a list is an `L` (runtime/values.c), the rest a word."""
    return "L" if ty.startswith("list[") else "i64"


class Statements:
    """`block` and the `_s_*` writers of CGen (cgen.py), with the loops' weights."""

    g: CompiledGame
    prog: ir.Program
    lay: Layout
    measured: set[int]
    weighed: set[int]

    def fresh(self, stem: str) -> str:
        raise NotImplementedError  # cgen.py

    def expr(self, e: ir.Expr, env: Env) -> str:
        raise NotImplementedError  # cgen.py

    def num(self, e: ir.Expr, env: Env) -> str:
        raise NotImplementedError  # cgen.py

    def lval(self, e: ir.Expr, env: Env) -> str:
        raise NotImplementedError  # cgen.py

    def slot(self, e: ir.Slot, env: Env) -> str:
        raise NotImplementedError  # cgen.py

    def loop(self, src: ir.Source, env: Env, copy: bool) -> tuple[list[str], str, str]:
        raise NotImplementedError  # cgen.py

    def block(self, stmts: tuple[ir.Stmt, ...], env: Env, depth: int) -> list[str]:
        inner = dict(env)
        out: list[str] = []
        for s in stmts:
            out += self.stmt(s, inner, depth)
        return out

    def stmt(self, s: ir.Stmt, env: Env, depth: int) -> list[str]:
        pad = "    " * depth
        if id(s) in self.weighed:  # a list past LIGHT items kept in the state: Python plays
            s = stops.weighed(s)
        lines: list[str] = getattr(self, "_s_" + type(s).__name__)(s, env, depth)
        if id(s) in self.weighed and isinstance(s, (ir.Let, ir.Assign)):  # weighed where it lies
            lines.append(f"l_weigh(x, &{env[s.name]});")
        if id(s) in self.measured:  # a list of lists kept in the state: Python plays (stops.py)
            lines = ["fail(x, E_SIZE);", *lines]
        return [pad + line if not line.startswith(" ") else line for line in lines]

    def _s_Nothing(self, s: ir.Nothing, env: Env, depth: int) -> list[str]:
        return []

    def _s_Let(self, s: ir.Let, env: Env, depth: int) -> list[str]:
        v = self.fresh("v_" + s.name)
        value = self.expr(s.value, env)
        env[s.name] = v
        return [f"{ctype(s.value.ty)} {v} = {value};"]

    def _s_Assign(self, s: ir.Assign, env: Env, depth: int) -> list[str]:
        value = self.lval(s.value, env) if s.value.ty.startswith("list[") else self.expr(s.value, env)
        return [f"{env[s.name]} = {value};"]

    def _s_Store(self, s: ir.Store, env: Env, depth: int) -> list[str]:
        t = s.target
        two = t.base.startswith("VAR_") and self.lay.var_kinds[t.base[4:]][:4] == "two:"
        if two and isinstance(s.value, ir.Cond) and "|" in s.value.ty:  # `[n] if c else n`: either kind
            c = s.value
            each = (ir.Store(ir.Slot(t.base, t.index, x.ty), x) for x in (c.then, c.otherwise))
            kept = [self._s_Store(x, env, 0) for x in each]
            return [f"if ({self.expr(c.test, env)}) {{", *kept[0], "} else {", *kept[1], "}"]
        if two and t.ty.startswith("list["):  # a var of two kinds: its kind word, its number cleared
            k, v = self.fresh("k"), self.lval(s.value, env)
            sets = f"lv_set(x, {k} + {TWO_LIST}, {v}); S[{k}] = 1; S[{k} + 1] = 0;"
            return [f"{{ i64 {k} = {self.slot(t, env)}; {sets} }}"]
        if t.base.startswith("VAR_") and t.ty.startswith("list["):
            return [f"lv_set(x, {self.slot(t, env)}, {self.lval(s.value, env)});"]
        if t.ty.startswith("list["):  # a list of players into one word
            return [f"S[{self.slot(t, env)}] = pl_pack(x, {self.lval(s.value, env)});"]
        value = self.expr(s.value, env)
        if t.base.startswith("VAR_") and t.ty == PLAYER:
            value = f"STORE_P(x, {value})"
        elif t.base.startswith("VAR_") and t.ty == COMP:
            value = f"STORE_C(x, {value})"
        if two:  # its kind word, its list emptied (slots.py encode_var: the words of a plain value)
            k, v = self.fresh("k"), self.fresh("v")
            sets = f"S[{k}] = 0; S[{k} + 1] = {v}; S[{k} + {TWO_LIST}] = 0;"
            return [f"{{ i64 {v} = {value}, {k} = {self.slot(t, env)}; {sets} }}"]
        return [f"S[{self.slot(t, env)}] = {value};"]

    def _s_Counter(self, s: ir.Counter, env: Env, depth: int) -> list[str]:
        op = {"+": "'+'", "-": "'-'", "=": "'='", "+!": "'+' + 1", "-!": "'-' + 1"}[s.op]
        lo, hi = s.lo, s.hi
        args = f"{c_int(lo or 0)}, {int(lo is not None)}, {c_int(hi or 0)}, {int(hi is not None)}"
        return [f"counter_write(x, {self.slot(s.target, env)}, {op}, {self.num(s.amount, env)}, {args});"]

    def _s_Move(self, s: ir.Move, env: Env, depth: int) -> list[str]:
        dest, top = self.num(s.dest, env), int(s.top)
        if s.kind == "one":
            c = self.fresh("c")
            what = self.expr(s.what, env)
            return [f"{{ i64 {c} = {what}; if ({c} != NONE) move_comp(x, {c}, {dest}, {top}); }}"]
        if s.kind == "zone":
            return [f"move_zone(x, {self.num(s.what, env)}, {dest}, {top});"]
        if isinstance(s.what, ir.Picked):
            return self.picked(s.what, dest, top, env)
        if s.kind == "list":
            t = self.fresh("l")
            return [f"{{ L {t} = {self.lval(s.what, env)}; move_list(x, {t}.v, {t}.n, {dest}, {top}); }}"]
        assert isinstance(s.what, ir.Source)
        name = s.what.name
        return [f"move_list(x, TYPE_{name}, {len(self.g.by_type[name])}, {dest}, {top});"]

    def _s_Choose(self, s: ir.Choose, env: Env, depth: int) -> list[str]:
        """End checks first (as the Python backend fires them before it asks), then the options,
        each value once in order of first appearance, and the answer (runtime/segments.c `pick`)."""
        setup, item, n = self.loop(s.src, env, False)
        o, i, by = self.fresh("o"), self.fresh("i"), self.fresh("by")
        v = self.fresh("v_" + s.var)
        lines = ["while (g_fire(x)) {}", f"i64 {v};", "{", f"i64 {by} = {self.expr(s.by, env)};"]
        lines.append(f"if ({by} == NONE || {by} < 0 || {by} >= S[T_N]) fail(x, E_ENTRY);")
        # a list value was charged as it was made (Python charges no more at its choose)
        charge = "" if s.src.kind == "list" else f" CHARGE({n});"
        lines += [*setup, f"L {o}; {o}.n = 0;{charge}"]
        lines.append(f"for (i64 {i} = 0; {i} < {n}; {i}++) l_add(x, &{o}, {item.format(i=i)});")
        if s.optional:
            lines.append(f"l_add(x, &{o}, NONE);")
        lines += [f"{v} = pick(x, {s.site}, {by}, &{o});", "}"]
        env[s.var] = v
        return lines

    def _s_Window(self, s: ir.Window, env: Env, depth: int) -> list[str]:
        """A window inside a block, as the Python machine runs it: end checks first, the options
        (`iw_<site>`), the answer (runtime/segments.c `pick_action`), the action run (its frame pushed:
        one unit), and the window offered again until a closing action or no option is left."""
        who, k, ai = self.fresh("p"), self.fresh("k"), self.fresh("ai")
        return [
            "for (;;) {",
            "    while (g_fire(x)) {}",
            f"    i64 {who} = PK(x, {self.expr(s.player, env)});",
            f"    if (!iw_{s.site}(x, {who})) break;",
            f"    i64 {k} = DOPT + DSTRIDE * pick_action(x, {s.site}, {who}), {ai} = S[{k}];",
            "    CHARGE(1);",  # the options are read before the action, whose windows reuse DOPT
            f"    for (i64 j_ = 3; j_ < DSTRIDE; j_++) x->more[j_ - 3] = S[{k} + j_];",
            f"    g_action(x, {ai}, {who}, S[{k} + 1], DSTRIDE > 2 ? S[{k} + 2] : NONE);",
            f"    if (ACTION_CLOSES[{ai}]) break;",
            "}",
        ]

    def _s_End(self, s: ir.End, env: Env, depth: int) -> list[str]:
        """The game ends now (runtime/flow.c `run` unwinds to the flow); declared winners are sorted and
        must be seats (Python's R008 otherwise, replayed there)."""
        if s.winners is None:
            return ["longjmp(x->endjb, 1);"]
        w = s.winners
        value = (
            self.lval(w, env)
            if w.ty.startswith("list[")
            else f"({{ L l_; l_.n = 1; l_.v[0] = {self.expr(w, env)}; l_; }})"
        )
        return [f"declare(x, {value});"]

    def _s_RunHook(self, s: ir.RunHook, env: Env, depth: int) -> list[str]:
        args = "".join(", " + self.expr(a, env) for a in s.args[1:])
        return [f"{s.name}(x, {self.expr(s.args[0], env)}, {self.expr(s.target, env)}{args});"]

    def _s_RunP(self, s: ir.RunP, env: Env, depth: int) -> list[str]:
        return [f"{s.name}(x{''.join(', ' + self.expr(a, env) for a in s.args)});"]

    def picked(self, p: ir.Picked, dest: str, top: int, env: Env) -> list[str]:
        setup, item, n = self.loop(p.src, env, False)
        buf, k, i, v = self.fresh("b"), self.fresh("k"), self.fresh("i"), self.fresh("v_" + p.var)
        cond = self.expr(p.cond, {**env, p.var: v}) if p.cond is not None else "1"
        lines = ["{", *setup, f"i64 {buf}[NCOMP + 1], {k} = 0;", f"CHARGE({n});"]
        lines.append(f"for (i64 {i} = 0; {i} < {n}; {i}++) {{ i64 {v} = {item.format(i=i)};")
        lines.append(f"    if ({cond}) {buf}[{k}++] = {v}; }}")
        return [*lines, f"move_list(x, {buf}, {k}, {dest}, {top});", "}"]

    def _s_Draw(self, s: ir.Draw, env: Env, depth: int) -> list[str]:
        return [f"draw(x, {self.num(s.src, env)}, {self.num(s.dest, env)}, {self.num(s.count, env)});"]

    def _s_Reveal(self, s: ir.Reveal, env: Env, depth: int) -> list[str]:
        c = self.fresh("c")
        b = self.fresh("b")
        bits, write = self.grant_bits(s, env, b)
        keep, after, add = grants_c.ends(s, self.prog.until_events or [], b if s.who is not None else "1")
        write = "{ " + write + keep + " }"
        if s.kind == "one":
            what = self.expr(s.what, env)
            each = [f"if ({c} != NONE) " + x.replace("@", f"CK(x, {c})") for x in (write, add) if x]
            return ["{", f"i64 {c} = {what};", *bits, each[0], *after, *each[1:], "}"]
        assert isinstance(s.what, ir.Source) or s.kind == "zone"
        src = ir.Source("zone", s.what, "", "list[comp]") if s.kind == "zone" else s.what
        setup, item, n = self.loop(src, env, False)  # type: ignore[arg-type]
        i = self.fresh("i")
        loop = f"for (i64 {i} = 0; {i} < {n}; {i}++) "
        each = [loop + x.replace("@", f"CK(x, {item.format(i=i)})") for x in (write, add) if x]
        return ["{", *setup, *bits, each[0], *after, *each[1:], "}"]

    def _s_Emitted(self, s: ir.Emitted, env: Env, depth: int) -> list[str]:
        """An emit: the grants given until its event end first (run/support.py end_grants)."""
        until = self.prog.until_events or []
        ends = [f"ru_end(x, {until.index(s.event)});"] if s.event in until else []
        return [*ends, *self.stmt(s.then, env, 0)]

    def grant_bits(self, s: ir.Reveal, env: Env, b: str) -> tuple[list[str], str]:
        """C lines that gather the `rv` bits `b` of `reveal ... to P` / `hide ... from P` (bit p + 1
        a player; one that is not a seat stops native code, Python reports R008) and the statement
        that writes the word of component `@` (run/support.py reveal_to, hide_from)."""
        if s.who is None:
            return [], f"S[RV + @] = {s.value};"
        if isinstance(s.who, ir.Source):
            setup, item, n = self.loop(s.who, env, False)
            i = self.fresh("i")
            each = f"for (i64 {i} = 0; {i} < {n}; {i}++) {b} |= seat_bit(x, {item.format(i=i)});"
            lines = [*setup, f"i64 {b} = 0;", each]
        else:
            lines = [f"i64 {b} = seat_bit(x, {self.expr(s.who, env)});"]
        if s.how == "grant":  # revealed to everyone (1) already: nothing to add
            return lines, f"{{ i64 *r = &S[RV + @]; if (*r != 1) *r |= {b}; }}"
        every = "(((1LL << S[T_N]) - 1) << 1)"
        return lines, f"{{ i64 *r = &S[RV + @]; *r = ((*r == 1 ? {every} : *r) | {b}) ^ {b}; }}"

    def _s_Shuffle(self, s: ir.Shuffle, env: Env, depth: int) -> list[str]:
        return [f"shuffle(x, {self.num(s.zone, env)});"]

    def _s_For(self, s: ir.For, env: Env, depth: int) -> list[str]:
        setup, a, n = self.loop(s.src, env, True)
        i, v = self.fresh("i"), self.fresh("v_" + s.var)
        inner = {**env, s.var: v}
        lines = [
            "{",
            *setup,
            self.charge(n, self.weight(s.body)),
            f"for (i64 {i} = 0; {i} < {n}; {i}++) {{",
            f"    {ctype(ir.elem(s.src.ty))} {v} = {a.format(i=i)};",
        ]
        if s.cond is not None:
            lines.append(f"    if (!({self.expr(s.cond, inner)})) continue;")
        lines += self.block(s.body, inner, 1)
        return [*lines, "}", "}"]

    def _s_Repeat(self, s: ir.Repeat, env: Env, depth: int) -> list[str]:
        k, i = self.fresh("k"), self.fresh("i")
        lines = ["{", f"i64 {k} = {self.num(s.count, env)}; if ({k} < 0) {k} = 0;"]
        lines.append(self.charge(k, self.weight(s.body)))
        lines.append(f"for (i64 {i} = 0; {i} < {k}; {i}++) {{")
        return [*lines, *self.block(s.body, env, 1), "}", "}"]

    def _s_While(self, s: ir.While, env: Env, depth: int) -> list[str]:
        w = self.weight(s.body)
        return [f"while ({self.expr(s.cond, env)}) {{", f"    CHARGE({w});", *self.block(s.body, env, 1), "}"]

    def charge(self, n: str, w: int) -> str:
        """A loop's iterations charged at once, each its body's weight (past the budget without
        overflowing the product)."""
        if w == 1:
            return f"CHARGE({n});"
        return f"CHARGE({n} > S[T_BUDGET] / {w} ? S[T_BUDGET] + 1 : {n} * {w});"

    def weight(self, stmts: tuple[ir.Stmt, ...], seen: frozenset[str] = frozenset()) -> int:
        """What Python charges one pass of a loop's body (StatementCompiler.weight): its statements,
        those of its branches and of the procedures it runs (each statement lowers to one)."""
        return max(1, self._statements(stmts, seen))

    def _statements(self, stmts: tuple[ir.Stmt, ...], seen: frozenset[str]) -> int:
        procs = self.prog.procedures or {}
        n = 0
        for s in stmts:
            n += 1
            if isinstance(s, ir.If):
                n += sum(self._statements(b, seen) for _, b in s.branches) + self._statements(
                    s.otherwise, seen
                )
            elif isinstance(s, ir.RunP) and s.name in procs and s.name not in seen:
                n += self._statements(procs[s.name][1], seen | {s.name})
        return n

    def _s_Take(self, s: ir.Take, env: Env, depth: int) -> list[str]:
        a, b, k = self.fresh("s"), self.fresh("d"), self.fresh("k")
        lines = [f"{{ i64 {a} = {self.slot(s.source, env)}, {b} = {self.slot(s.dest, env)};"]
        lines.append(f"  i64 {k} = MIN2({self.num(s.amount, env)}, S[{a}]);")
        return [*lines, f"  if ({k} > 0) {{ S[{a}] -= {k}; S[{b}] = ADD(x, S[{b}], {k}); }} }}"]

    def _s_If(self, s: ir.If, env: Env, depth: int) -> list[str]:
        lines: list[str] = []
        for j, (test, body) in enumerate(s.branches):
            lines.append(f"{'if' if j == 0 else '} else if'} ({self.expr(test, env)}) {{")
            lines += self.block(body, env, 1)
        if s.otherwise:
            lines.append("} else {")
            lines += self.block(s.otherwise, env, 1)
        return [*lines, "}"]
