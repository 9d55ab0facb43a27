"""Checked DSL effects -> typed statements (ir.py).

Stage: compile (native). Locals get their type at their `let` or loop; a window at the top level of
a phase (`phase()` splits the phase around it) stands for the same two plain-data frames always
(bridge.py rebuilds them); a window inside a block is a decision inside an effect, as a `choose` is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabula.interpreter.compile.native.lowering import ir, ranges, spatial
from tabula.interpreter.compile.native.lowering.ir import (
    ANY_LIST,
    BOOL,
    COMP,
    COMPS,
    INT,
    PLAYER,
    PLAYERS,
    SYM,
    ZONE,
)
from tabula.interpreter.compile.native.lowering.lists import set_item
from tabula.interpreter.compile.native.lowering.lower import Scope, Unsupported, kind_of
from tabula.interpreter.compile.native.lowering.simultaneous import SimultaneousLowering
from tabula.interpreter.compile.native.lowering.spatial import PLACE
from tabula.interpreter.compile.native.lowering.triggers import TriggerLowering
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import CompiledGame


class EffectLowering(TriggerLowering, SimultaneousLowering):
    """Lowers effects (blocks of statements) on top of the expression lowering; `procs` are the
    game's procedures (name -> parameter names, body) and `procedures` their lowered forms."""

    def __init__(
        self,
        game: CompiledGame,
        functions: dict[str, Any],
        procs: dict[str, Any],
        hooks: dict[str, Any] | None = None,
        triggers: tuple[dict[str, Any], dict[str, set[str]]] = ({}, {}),
    ) -> None:
        super().__init__(game, functions)
        self.procs = procs
        self.hook_defs: dict[str, Any] = hooks or {}  # hook -> params, [(component ids, body)]
        self.procedures: dict[str, tuple[list[tuple[str, str]], tuple[ir.Stmt, ...]]] = {}
        self.hooks: dict[str, tuple[list[tuple[str, str]], list[tuple[list[int], str]]]] = {}
        self.sites: list[tuple[str, str]] = []  # per choose site: the value's type, its word kind
        self.prompts: list[str | None] = []  # per choose site: its prompt when literal (views.py)
        self.windows: list[ir.Window] = []  # per window inside a block (its site)
        self.triggers, self.event_args = triggers  # event -> its triggers, the names its emits pass
        self.dispatchers: dict[str, ir.Dispatch] = {}
        self.until_events: list[str] = []  # the events grants are given until (ir.Program)

    def block(self, stmts: ast.Block | None, scope: Scope) -> tuple[ir.Stmt, ...]:
        """A block's statements; one that cannot be lowered is kept in `missing` and the next one
        is tried, so that every such statement of a definition is reported."""
        inner = dict(scope)  # a block's lets are its own (the checker has resolved every name)
        out: list[ir.Stmt] = []
        for s in stmts or ():
            try:
                out.append(self.stmt(s, inner))
            except Unsupported as u:
                self.missing.append(u)
                self.learn(s, inner)
                if isinstance(s, ast.Let):
                    inner[s.name] = "int"  # assumed, to go on with what follows
        return tuple(out)

    def learn(self, s: ast.Stmt, scope: Scope) -> None:
        """The blocks inside a statement that could not be lowered, lowered only for the types
        their `set`s give to locals (`learned`); what they made and missed is dropped."""
        keep, made = len(self.missing), (set(self.procedures), set(self.hooks), set(self.dispatchers))
        try:
            if isinstance(s, ast.If):
                for _, body in s.branches:
                    self.block(body, scope)
                self.block(s.otherwise, scope)
            elif isinstance(s, ast.For):
                src = spatial.walked(self, s.iter, scope)
                self.block(s.body, {**scope, s.var: ir.elem(src.ty)})
            elif isinstance(s, (ast.While, ast.Repeat)):
                self.block(s.body, scope)
        except Unsupported:
            pass
        del self.missing[keep:]
        for name in set(self.procedures) - made[0]:
            del self.procedures[name]
        for name in set(self.hooks) - made[1]:
            del self.hooks[name]
        for name in set(self.dispatchers) - made[2]:
            del self.dispatchers[name]

    def stmt(self, s: ast.Stmt, scope: Scope) -> ir.Stmt:
        out: ir.Stmt = self.visit("_s_", s, scope, f"the '{type(s).__name__.lower()}' statement")
        return out

    def phase(self, stmts: ast.Block, scope: Scope) -> ir.Phase:
        """A phase's effect, split around its one top-level window (if any)."""
        at = [i for i, s in enumerate(stmts) if isinstance(s, ast.Window)]
        before = stmts[: at[0]] if len(at) == 1 else ()
        # two windows or more, or a `let` or a `choose` before the one (its value would stay in the
        # phase's frame at the window): each a window inside the phase's block (a segment's decision)
        if len(at) != 1 or any(isinstance(s, ast.Let) for s in before) or _chooses(before):
            return ir.Phase(self.block(stmts, scope), None, ())
        i = at[0]
        w = stmts[i]
        assert isinstance(w, ast.Window)
        player = self.expr(w.player, scope)
        if player.ty != PLAYER:
            raise Unsupported(f"a window for {player.ty}", w.player.span)
        window = ir.Window(player, tuple(self.g.actions[a].index for a in w.actions))
        return ir.Phase(self.block(before, scope), window, self.block(stmts[i + 1 :], scope))

    def _s_Run(self, s: ast.Run, scope: Scope) -> ir.Stmt:
        """A procedure, lowered once per argument types (a statement of it that cannot be lowered,
        such as a decision, is reported where it is written)."""
        params, body = self.procs[s.name]
        args = self.typed_args(s.name, [self.expr(a, scope) for a in s.args])
        me = ir.CallerMe()  # the caller's `me`, if it has one (Python copies it into the frame)
        key = "P_" + s.name + "".join("_" + a.ty.replace("[", "").replace("]", "") for a in args)
        if key not in self.procedures:
            if key in self._making:
                raise Unsupported(f"procedure '{s.name}' running itself", s.span)
            self._making.add(key)
            inner = {p: a.ty for p, a in zip(params, args, strict=True)}  # `me` is passed, not named
            try:
                lowered = self.block(body, inner)
            finally:
                self._making.discard(key)
            typed = [("me", PLAYER), *((p, a.ty) for p, a in zip(params, args, strict=True))]
            self.procedures[key] = (typed, lowered)
        return ir.RunP(key, (me, *args))

    def _s_RunHook(self, s: ast.RunHook, scope: Scope) -> ir.Stmt:
        """`run c.hook(args)`: each card's body lowered once per argument types as a procedure of
        (me, self, params), and one dispatcher on the component (cards without a body: nothing)."""
        target = self.expr(s.target, scope)
        if target.ty not in (COMP, "none"):
            raise Unsupported(f"a hook of a {target.ty}", s.target.span)
        params, bodies = self.hook_defs[s.hook]
        args = [self.expr(a, scope) for a in s.args]
        me = ir.CallerMe()
        tys = "".join("_" + a.ty.replace("[", "").replace("]", "") for a in args)
        key = "HD_" + s.hook + tys
        if key not in self.hooks:
            if key in self._making:
                raise Unsupported(f"hook '{s.hook}' running itself", s.span)
            self._making.add(key)
            typed = [("me", PLAYER), ("self", COMP), *((p, a.ty) for p, a in zip(params, args, strict=True))]
            made: list[tuple[list[int], str]] = []
            try:
                for k, (ids, body) in enumerate(bodies):
                    inner = {p: t for p, t in typed[1:]}
                    self.procedures[f"H_{s.hook}_{k}{tys}"] = (typed, self.block(body, inner))
                    made.append((ids, f"H_{s.hook}_{k}{tys}"))
            finally:
                self._making.discard(key)
            self.hooks[key] = (typed, made)
        return ir.RunHook(key, target, (me, *args))

    def _s_Choose(self, s: ast.Choose, scope: Scope) -> ir.Stmt:
        src = self.source(s.options, scope)
        et = ir.elem(src.ty)
        if et not in (*ir.SCALARS, PLACE):
            raise Unsupported(f"a choice among {src.ty}", s.options.span)
        if s.by is not None:
            by = self.expr(s.by, scope)
        elif "me" in scope or "p" in scope:
            by = ir.Local("me" if "me" in scope else "p", PLAYER)
        else:
            raise Unsupported("a choice without 'by'", s.span)
        if by.ty not in (PLAYER, INT):
            raise Unsupported(f"a choice by a {by.ty}", s.span)
        site = len(self.sites)
        self.sites.append((et, kind_of(et)))
        self.prompts.append(f"choose {s.var}" if s.prompt is None else None if "{" in s.prompt else s.prompt)
        scope[s.var] = et
        return ir.Choose(s.var, src, by, s.optional, site, et)

    def _s_Window(self, s: ast.Window, scope: Scope) -> ir.Stmt:
        """A window inside a block: a decision inside an effect, as a `choose` is (its options are
        the actions' and their arguments, enumerated as a phase's window enumerates them)."""
        player = self.expr(s.player, scope)
        if player.ty != PLAYER:
            raise Unsupported(f"a window for {player.ty}", s.player.span)
        w = ir.Window(player, tuple(self.g.actions[a].index for a in s.actions), len(self.windows))
        self.windows.append(w)
        return w

    def _s_Let(self, s: ast.Let, scope: Scope) -> ir.Stmt:
        if s.name in scope:  # a frame's locals are one dict in Python: this writes the one in scope
            return self._s_Set(ast.Set(s.span, ast.Name(s.span, s.name), "=", s.value), scope)
        value = self.expr(s.value, scope)
        (self.boxes.add if spatial.is_box(value) else self.boxes.discard)(s.name)
        hint = self.hints.get(s.name, "?")
        if value.ty == "none" and hint in ir.SCALARS:
            value = ir.NoneV(hint)
        elif value.ty == ANY_LIST and hint.startswith("list["):
            value = ir.ListLit((), hint)
        if value.ty in ("none", ANY_LIST):  # typed by the values `set` gives it (Lowering.loose)
            self.loose[s.name] = value.ty
        elif value.ty not in (*ir.SCALARS, ZONE) and not value.ty.startswith("list["):
            raise Unsupported(f"a 'let' holding {value.ty}", s.span)
        scope[s.name] = value.ty
        return ir.Let(s.name, value)

    def _s_Reveal(self, s: ast.Reveal, scope: Scope) -> ir.Stmt:
        shown = self.shown(s.what, scope, 1)
        if s.until is not None:  # its end kept in the state's `ru` words (emit/grants_c.py)
            event = str(s.until)
            if not self.until_events:
                self.until_events += ["turn_end", "round_end"]
            if event not in self.until_events:
                self.until_events.append(event)
            shown = replace(shown, until=event)
        if s.to is None:
            return shown
        return replace(shown, who=self.audience(s.to, scope), how="grant")

    def _s_Hide(self, s: ast.Hide, scope: Scope) -> ir.Stmt:
        return replace(self.shown(s.what, scope, 0), who=self.audience(s.who, scope), how="hide")

    def audience(self, n: ast.Expr, scope: Scope) -> ir.Expr | ir.Source:
        """The players of `reveal ... to P` or `hide ... from P`: a player or a list of them (one
        that is not a seat of the game stops native code; Python reports R008)."""
        who = self.expr(n, scope)
        if who.ty in (PLAYER, INT):
            return who
        src = self.source(n, scope)
        if ir.elem(src.ty) not in (PLAYER, INT):
            raise Unsupported(f"'reveal ... to' a {who.ty}", n.span)
        return src

    def _s_Conceal(self, s: ast.Conceal, scope: Scope) -> ir.Stmt:
        return self.shown(s.what, scope, 0)

    def shown(self, n: ast.Expr, scope: Scope, value: int) -> ir.Reveal:
        """`reveal X` / `conceal X` of a component (none: nothing), a zone's or a list's."""
        what = self.expr(n, scope)
        if what.ty in (COMP, "none"):
            return ir.Reveal("one", what, value)
        if what.ty == ZONE:
            return ir.Reveal("zone", what, value)
        if what.ty == COMPS:
            return ir.Reveal("list", self.source(n, scope), value)
        raise Unsupported(f"'reveal' of {what.ty}", n.span)

    def _s_EndGame(self, s: ast.EndGame, scope: Scope) -> ir.Stmt:
        return ir.End(None)

    def _s_DeclareWinner(self, s: ast.DeclareWinner, scope: Scope) -> ir.Stmt:
        who = self.expr(s.who, scope)
        if who.ty not in (PLAYER, INT, PLAYERS, "list[int]", ANY_LIST):
            raise Unsupported(f"'declare_winner' of a {who.ty}", s.who.span)
        return ir.End(who)

    def _s_Log(self, s: ast.Log, scope: Scope) -> ir.Stmt:
        return ir.Nothing()

    def _s_Pass(self, s: ast.Pass, scope: Scope) -> ir.Stmt:
        return ir.Nothing()

    def _s_Set(self, s: ast.Set, scope: Scope) -> ir.Stmt:
        if isinstance(s.target, ast.Index):  # an item of a list: the list with it replaced
            s = set_item(s)
        target = self.expr(s.target, scope)
        self.either = s.value if s.op == "=" and self.any_var(target) else None  # (lists.py _CondExpr)
        value = self.expr(s.value, scope)
        if isinstance(target, ir.Slot) and target.base.startswith(("CNT_", "CNTK_")):
            if s.op not in ("=", "+=", "-="):
                raise Unsupported(f"'{s.op}' on a counter", s.span)
            return self.counter(target, s.op[0], value, s)
        if isinstance(target, ir.Local):
            if not spatial.is_box(value):  # (a list set in it is never none, but say no more)
                self.boxes.discard(target.name)
            return self.assign(target, value, s)
        if not isinstance(target, ir.Slot) or not target.base.startswith(("VAR_", "MARK_")):
            raise Unsupported("'set' of this target", s.target.span)
        if ir.elem(value.ty) in (ir.PAIR, ir.FEAT):  # a number of this run of native code only
            raise Unsupported(f"a {value.ty} (of tile features) kept in the state", s.value.span)
        if s.op in ("+=", "-="):
            if target.ty != INT or value.ty != INT:
                raise Unsupported(f"'{s.op}' on a {target.ty}", s.span)
            value = ir.Bin(s.op[0], target, value, INT)
        elif s.op != "=":
            raise Unsupported(f"'{s.op}' on a var or mark", s.span)
        if target.base.startswith("MARK_"):
            name = target.base[5:]
            if name in ("x", "y") and self.g.boards.growing:  # boards.c indexes the cells by them
                raise Unsupported(f"'set' of mark '{name}', a coordinate of a board that grows", s.span)
            kind = self.mark_kinds.get(name)
            got = kind_of(value.ty) if value.ty != "none" else kind
            if target.ty == PLAYERS:  # a list of players in one word: no other list fits
                if value.ty not in (PLAYERS, ANY_LIST):
                    raise Unsupported(f"a {value.ty} stored in mark '{name}' (a list of players)", s.span)
                got = "plist"
            if kind not in (None, got) and got is not None:
                if self.g.marks[name] is None and kind == "int" and name not in self.mark_hints:
                    self.mark_learned[name] = got  # read as a number before this set: learned
                raise Unsupported(f"mark '{name}' holding values of two kinds", s.span)
            self.mark_kinds[name] = got or "int"
        elif target.ty.startswith("list["):  # a var holding a list: its own words (slots.Layout)
            if not value.ty.startswith("list[") or not _lists_fit(value.ty, target.ty):
                raise Unsupported(f"a {value.ty} stored in a {target.ty} var", s.span)
            self.list_var_set(target.base[4:], value, s.span)
        elif target.base.startswith("VAR_") and self.g.vars[target.base[4:]].type == "any":
            target = self.any_var_set(target, value, s.span)
        elif not _fits(value.ty, target.ty):
            raise Unsupported(f"a {value.ty} stored in a {target.ty} var", s.span)
        return ir.Store(target, value)

    def assign(self, target: ir.Local, value: ir.Expr, s: ast.Set) -> ir.Stmt:
        """`set x = v` (or `+=`, `-=`) of a local: the value must have the local's type; a local
        that started as none takes the one type of the values set in it."""
        if s.op in ("+=", "-="):
            if target.ty != INT or value.ty != INT:
                raise Unsupported(f"'{s.op}' on a {target.ty}", s.span)
            return ir.Assign(target.name, ir.Bin(s.op[0], target, value, INT))
        if s.op != "=":
            raise Unsupported(f"'{s.op}' on a local", s.span)
        if target.ty in ("none", ANY_LIST):
            start = target.ty
            had = self.loose.setdefault(target.name, value.ty)
            fits = value.ty in (*ir.SCALARS, "none") if start == "none" else value.ty.startswith("list[")
            if not fits or had not in (value.ty, start):
                raise Unsupported(f"a local given a {value.ty} and a {had}", s.span)
            if had == start:
                self.loose[target.name] = value.ty
            if value.ty != start:
                known = self.learned.setdefault(target.name, value.ty)
                self.learned[target.name] = known if known == value.ty else "?"
        elif target.ty.startswith("list["):
            if not (value.ty.startswith("list[") and value.ty in (target.ty, ANY_LIST)):
                raise Unsupported(f"a {value.ty} stored in a {target.ty} local", s.span)
        elif not _fits(value.ty, target.ty):
            raise Unsupported(f"a {value.ty} stored in a {target.ty} local", s.span)
        return ir.Assign(target.name, value)

    def counter(self, target: ir.Slot, op: str, value: ir.Expr, s: ast.Stmt) -> ir.Stmt:
        value = self.wanted(value, INT, s.span)
        if value.ty != INT:
            raise Unsupported(f"a counter given {value.ty}", s.span)
        c = self.g.counters[target.base.split("_", 1)[1]]
        return ir.Counter(target, op, value, ranges.bound(c.min), ranges.bound(c.max))

    def _s_Gain(self, s: ast.Gain, scope: Scope) -> ir.Stmt:
        return self._gain(s.target, s.amount, "+", s, scope)

    def _s_Pay(self, s: ast.Pay, scope: Scope) -> ir.Stmt:
        return self._gain(s.target, s.amount, "-", s, scope)

    def _gain(self, target_n: ast.Expr, amount: ast.Expr, op: str, s: ast.Stmt, scope: Scope) -> ir.Stmt:
        target = self.expr(target_n, scope)
        if not (isinstance(target, ir.Slot) and target.base.startswith(("CNT_", "CNTK_"))):
            raise Unsupported("'gain'/'pay' of other than a counter", target_n.span)
        out = self.counter(target, op, self.expr(amount, scope), s)
        assert isinstance(out, ir.Counter)
        return ir.Counter(out.target, op + "!", out.amount, out.lo, out.hi)  # `!`: a negative amount fails

    def _s_Move(self, s: ast.Move, scope: Scope) -> ir.Stmt:
        what = self.expr(s.what, scope)
        dest = self.zone(s.dest, scope)
        top = s.place == "top"
        if what.ty == COMP or (what.ty == "none"):
            return ir.Move("one", what, dest, top)
        if what.ty == ZONE:
            return ir.Move("zone", what, dest, top)
        if isinstance(what, ir.Source) and what.kind == "type":
            return ir.Move("type", what, dest, top)
        if isinstance(what, ir.Picked) and what.elt is None and what.by is None and what.ty == COMPS:
            return ir.Move("picked", what, dest, top)
        if what.ty == COMPS:
            return ir.Move("list", self.source(s.what, scope), dest, top)
        raise Unsupported(f"'move' of {what.ty}", s.what.span)

    def zone(self, n: ast.Expr, scope: Scope) -> ir.Expr:
        z = self.expr(n, scope)
        if z.ty != ZONE:
            raise Unsupported(f"a zone given as {z.ty}", n.span)
        return z

    def _s_Draw(self, s: ast.Draw, scope: Scope) -> ir.Stmt:
        count = self.number(s.count, scope)
        return ir.Draw(count, self.zone(s.source, scope), self.zone(s.dest, scope))

    def _s_Shuffle(self, s: ast.Shuffle, scope: Scope) -> ir.Stmt:
        return ir.Shuffle(self.zone(s.zone, scope))

    def _s_For(self, s: ast.For, scope: Scope) -> ir.Stmt:
        src = spatial.walked(self, s.iter, scope)
        inner = {**scope, s.var: ir.elem(src.ty)}
        cond = self.boolean(s.cond, inner) if s.cond is not None else None
        return ir.For(s.var, src, cond, self.block(s.body, inner))

    def _s_Repeat(self, s: ast.Repeat, scope: Scope) -> ir.Stmt:
        return ir.Repeat(self.number(s.count, scope), self.block(s.body, scope))

    def _s_While(self, s: ast.While, scope: Scope) -> ir.Stmt:
        return ir.While(self.boolean(s.cond, scope), self.block(s.body, scope))

    def _s_Take(self, s: ast.Take, scope: Scope) -> ir.Stmt:
        ends = [self.expr(n, scope) for n in (s.source, s.dest)]
        for e, n in zip(ends, (s.source, s.dest), strict=True):
            if not (isinstance(e, ir.Slot) and e.base.startswith(("CNT_", "CNTK_"))):
                raise Unsupported("'take' between other than counters", n.span)
        return ir.Take(self.number(s.amount, scope), ends[0], ends[1])  # type: ignore[arg-type]

    def _s_If(self, s: ast.If, scope: Scope) -> ir.Stmt:
        branches = tuple((self.boolean(c, scope), self.block(b, scope)) for c, b in s.branches)
        return ir.If(branches, self.block(s.otherwise, scope))


def _chooses(stmts: Any) -> list[ast.Choose]:
    """The `choose` statements of a block, at any depth (not in the procedures it runs)."""
    out: list[ast.Choose] = []
    for s in stmts:
        if isinstance(s, ast.Choose):
            out.append(s)
        elif isinstance(s, tuple):
            out += _chooses(s)
        elif isinstance(s, ast.Stmt):
            out += _chooses(v for v in vars(s).values() if isinstance(v, tuple))
    return out


def _lists_fit(got: str, want: str) -> bool:
    return ANY_LIST in (got, want) or got == want or {got, want} <= {"list[int]", PLAYERS}


def _fits(got: str, want: str) -> bool:
    if got == "none":
        return want in (PLAYER, COMP, SYM)
    return (
        got == want
        or {got, want} <= {INT, PLAYER}
        or (got == SYM and want == SYM)
        or (got == BOOL and want == BOOL)
    )


__all__ = ["COMPS", "INT", "EffectLowering"]
