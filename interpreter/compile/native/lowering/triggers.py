"""Triggers in the typed form: `emit event(args)` as a call of the event's dispatcher, and the
dispatchers in C.

Stage: compile (native). The same semantics as the Python backend (sections/triggers.py `X_<event>`,
statements/machines.py `_m_Emit`): at an emit every trigger of the event is tested first, in
declaration order (the game's own, then each component type's and each card's); a component's
trigger is tested for each of its components (`self`) and each seat (`p`) under its type's `active`,
except where its `where` pins `self` or `p` with an equality: then for that one only. The work
budget is charged as Python charges it, after the tests and before any body runs: one unit, one per
game trigger, one per (self, p) a component's trigger tries, and for each firing FIRING and its
`do`'s weight; each body then costs one more unit, as a frame pushed (a body run in plain Python code
does not pay it: native code may stop first, never later). Then the bodies run in declaration order.

A trigger's locals are the emitted arguments, `me` (the emitting effect's, else the active player)
and, for a component's trigger, `self` and `p` (which hide arguments of the same names). The
arguments' types are the emit's: each event gets one dispatcher per argument types, as hooks are
specialised (effects.py); a trigger may emit its own event again (C recursion, at most EMIT_DEPTH
deep and STACK_ROOM of C stack). An argument some other emit of the event passes but this one does
not is absent in Python (reading it fails there): reading it stops native code (E_KIND,
values.c `absent_arg`), and Python replays the decision and reports it at the read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.compile.native.lowering.abilities import instance_ids
from tabula.interpreter.compile.native.lowering.ir import ANY_LIST, BOOL, COMP, INT, PLAYER
from tabula.interpreter.compile.native.lowering.lists import ListLowering
from tabula.interpreter.compile.native.lowering.lower import ABSENT, Scope, Unsupported
from tabula.interpreter.compile.python.cards import instance_holders
from tabula.interpreter.compile.python.expressions.analysis import conjuncts, names_in
from tabula.interpreter.compile.python.sections.triggers import FIRING, emitted_kwargs
from tabula.interpreter.compile.reader import GameReader
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import CompiledGame

EMIT_DEPTH = 64
"""Emits running inside one another (through their triggers) that native code follows; deeper, it
stops (E_DEPTH) and Python runs the decision, whose frames go to 200 (R007 past them)."""
STACK_ROOM = 1 << 21
"""The C stack (bytes) an emit may find used below the entry point's frame (the X it made): a
trigger's list locals are LCAP words each, so a game of 20,000 components would overflow the
stack long before EMIT_DEPTH; past it native code stops (E_DEPTH) as well."""
DEEP = (  # not inlined: its frame lies below the whole frame of the function probing
    "__attribute__((noinline)) static int deep_stack(X *x) {  /* the stack used since the entry point */\n"
    "    char here; uintptr_t a = (uintptr_t)x, b = (uintptr_t)&here;\n"
    f"    return (a > b ? a - b : b - a) > {STACK_ROOM};\n"
    "}"
)


@dataclass(frozen=True)
class TriggerSource:
    """A trigger as written: its id, its component type (None: the game's own), the components it
    is tested for, its `where`, its type's `active` and its `do`."""

    id: str
    ctype: str | None
    members: tuple[int, ...]
    where: ast.Expr | None
    active: ast.Expr | None
    body: ast.Block


def gather(
    read: GameReader, game: CompiledGame
) -> tuple[dict[str, list[TriggerSource]], dict[str, set[str]]]:
    """Event -> its triggers in declaration order (as the Python backend reads them), and event ->
    the names some emit of it passes."""
    data = read.data
    out: dict[str, list[TriggerSource]] = {}

    def add(path: Any, tdef: dict[str, Any], ctype: str | None, members: list[int]) -> None:
        where = read.expr_at((*path, "where")) if tdef.get("where") is not None else None
        active = None
        if ctype is not None and ((data.get("components") or {}).get(ctype) or {}).get("active"):
            active = read.expr_at(("components", ctype, "active"))
        event = str(tdef.get("on"))
        tid = str(tdef.get("id", f"{event}#{path[-1]}"))
        body = read.block_at((*path, "do")) or ()
        out.setdefault(event, []).append(TriggerSource(tid, ctype, tuple(members), where, active, body))

    for i, tdef in enumerate(data.get("triggers") or []):
        add(("triggers", i), tdef, None, [])
    ids = instance_ids(data, game.max_players)
    for tname in data.get("components") or {}:
        for base, holder, mine in instance_holders(data, game.by_type, ids, tname):
            for i, tdef in enumerate(holder.get("triggers") or []):
                members = mine if len(base) > 2 and mine else game.by_type.get(tname, [])
                add((*base, "triggers", i), tdef, tname, members)
    return out, emitted_kwargs(data)


def weight(
    stmts: ast.Block | tuple[()] | None, procs: dict[str, Any], seen: frozenset[str] = frozenset()
) -> int:
    """A `do`'s statements, its branches' and those of the procedures it runs counted in (at least
    1): Python's StatementCompiler.weight, which a firing is charged."""
    return max(1, _statements(stmts or (), procs, seen))


def _statements(stmts: Any, procs: dict[str, Any], seen: frozenset[str]) -> int:
    n = 0
    for s in stmts:
        n += 1
        if isinstance(s, ast.If):
            n += sum(_statements(b, procs, seen) for _, b in s.branches)
            n += _statements(s.otherwise, procs, seen) if s.otherwise is not None else 0
        elif isinstance(s, ast.Run) and s.name in procs and s.name not in seen:
            n += _statements(procs[s.name][1] or (), procs, seen | {s.name})
    return n


def _pins(where: ast.Expr | None) -> tuple[ast.Expr | None, ast.Expr | None]:
    """What `where` pins `self` and `p` to (`self == b`, `q == p`): the first equality of each
    among its conjuncts whose other side names neither (sections/triggers.py)."""
    self_pin = p_pin = None
    for c in conjuncts(where) if where is not None else []:
        if not (isinstance(c, ast.Compare) and c.op == "=="):
            continue
        for mine, other in ((c.left, c.right), (c.right, c.left)):
            if isinstance(mine, ast.Name) and not names_in(other) & {"self", "p"}:
                if mine.id == "self" and self_pin is None:
                    self_pin = other
                elif mine.id == "p" and p_pin is None:
                    p_pin = other
    return self_pin, p_pin


class TriggerLowering(ListLowering):
    """`emit` lowered to a call of its event's dispatcher (mixed into EffectLowering)."""

    triggers: dict[str, list[TriggerSource]]
    event_args: dict[str, set[str]]
    procs: dict[str, Any]
    procedures: dict[str, tuple[list[tuple[str, str]], tuple[ir.Stmt, ...]]]
    dispatchers: dict[str, ir.Dispatch]

    def block(self, stmts: ast.Block | None, scope: Scope) -> tuple[ir.Stmt, ...]:
        raise NotImplementedError  # effects.py

    def _s_Emit(self, s: ast.Emit, scope: Scope) -> ir.Stmt:
        args = []
        for name, v in s.kwargs:
            e = self.expr(v, scope)
            if (
                name == "me"
                or e.ty == ANY_LIST
                or not (e.ty in (*ir.SCALARS, "none") or e.ty.startswith("list["))
            ):
                raise Unsupported(f"an emitted argument '{name}' of {e.ty}", v.span)
            args.append((name, e))
        mine = self.triggers.get(s.event)
        if not mine:  # nothing listens: only a watching tool sees it, and native code runs unwatched
            return ir.Emitted(s.event, ir.Nothing())
        args.sort(key=lambda a: a[0])
        me = ir.CallerMe()
        me_or_active = ir.Cond(
            ir.Bin("!=", me, ir.NoneV(PLAYER), BOOL), me, ir.Slot("T_ACTIVE", None, PLAYER), PLAYER
        )
        tys = "".join(f"_{n}_{e.ty.replace('[', '').replace(']', '')}" for n, e in args)
        key = f"X{list(self.triggers).index(s.event)}_{s.event}{tys}"  # the event's number: unique
        if key not in self.dispatchers and key not in self._making:  # (making: an emit inside its triggers)
            self._making.add(key)
            try:
                self.dispatchers[key] = self.dispatch(s.event, key, [(n, e.ty) for n, e in args])
            finally:
                self._making.discard(key)
        return ir.Emitted(s.event, ir.RunP(key, (me_or_active, *(e for _, e in args))))

    def dispatch(self, event: str, key: str, args: list[tuple[str, str]]) -> ir.Dispatch:
        """The event's triggers lowered for these argument types (the ones no emit of this form
        passes are absent)."""
        base: Scope = {n: ABSENT for n in self.event_args.get(event, ())}
        base.update({"me": PLAYER, **dict(args)})
        listeners = []
        for k, t in enumerate(self.triggers[event]):
            comp = t.ctype is not None
            scope = {**base, "self": COMP, "p": PLAYER} if comp else dict(base)
            tests = [self.boolean(n, dict(scope)) for n in (t.active, t.where) if n is not None]
            test = ir.Bin("&&", tests[0], tests[1], BOOL) if len(tests) == 2 else tests[0] if tests else None
            self_pin = p_pin = None
            if comp:
                pin_s, pin_p = _pins(t.where)
                self_pin = self.expr(pin_s, dict(base)) if pin_s is not None else None
                p_pin = self.expr(pin_p, dict(base)) if pin_p is not None else None
                if self_pin is not None and self_pin.ty not in (COMP, "none"):
                    raise Unsupported(f"'self' pinned to a {self_pin.ty}", pin_s.span if pin_s else None)
                if p_pin is not None and p_pin.ty not in (PLAYER, INT, "none"):
                    raise Unsupported(f"'p' pinned to a {p_pin.ty}", pin_p.span if pin_p else None)
            typed = [("me", PLAYER), *((("self", COMP), ("p", PLAYER)) if comp else ())]
            typed += [(n, ty) for n, ty in args if n not in dict(typed)]
            proc = f"T{k}_{key[1:]}"
            self.procedures[proc] = (typed, self.block(t.body, dict(scope)))
            units = FIRING + weight(t.body, self.procs)
            listeners.append(ir.Listener(proc, comp, t.members, test, self_pin, p_pin, units))
        return ir.Dispatch((("me", PLAYER), *args), tuple(listeners))


def c_dispatchers(gen: Any) -> tuple[list[str], list[str]]:
    """The C prototypes and definitions of the game's dispatchers (`gen` a cgen.CGen)."""
    from tabula.interpreter.compile.native.emit.cgen import ctype

    protos: list[str] = []  # deep_stack (DEEP) is written before every function (units.py)
    defs: list[str] = []
    for name, d in (gen.prog.dispatchers or {}).items():
        env = {p: gen.fresh("v_" + p) for p, _ in d.params}
        sig = ", ".join(["X *x", *(f"{ctype(t)} {env[p]}" for p, t in d.params)])
        protos.append(f"static void {name}({sig});")
        room = sum(_room(t, gen.g.max_players) for t in d.listeners) + 1
        nglobal = sum(1 for t in d.listeners if not t.comp)
        body = [f"static void {name}({sig}) {{", f"    i64 uk_ = {1 + nglobal}, fk_[{3 * room}], nk_ = 0;"]
        body.append(f"    if (++x->depth > {EMIT_DEPTH} || deep_stack(x)) fail(x, E_DEPTH);")
        for k, t in enumerate(d.listeners):
            body += [f"    {line}" for line in _listener(gen, k, t, env)]
        body += [
            "    CHARGE(uk_);",
            "    for (i64 ik_ = 0; ik_ < nk_; ik_++) {",
            "        switch (fk_[3 * ik_]) {",
        ]
        for k, t in enumerate(d.listeners):
            params = gen.prog.procedures[t.proc][0]
            own = {"self": "fk_[3 * ik_ + 1]", "p": "fk_[3 * ik_ + 2]"} if t.comp else {}
            args = ", ".join(["x", *(own.get(p) or env[p] for p, _ in params)])
            body.append(f"        case {k}: {t.proc}({args}); break;")
        defs += [*body, "        }", "    }", "    x->depth--;", "}"]
    return protos, defs


def _room(t: ir.Listener, players: int) -> int:
    """The most firings of one trigger at one emit."""
    if not t.comp:
        return 1
    return (1 if t.self_pin is not None else len(t.members)) * (1 if t.p_pin is not None else players)


def _listener(gen: Any, k: int, t: ir.Listener, env: dict[str, str]) -> list[str]:
    """The C lines that test one trigger and note its firings (k, self, p) in fk_."""

    def fire(s: str, p: str) -> str:
        note = f"fk_[3 * nk_] = {k}; fk_[3 * nk_ + 1] = {s}; fk_[3 * nk_ + 2] = {p}; nk_++;"
        return f"{{ {note} uk_ += {t.units}; }}"

    if not t.comp:
        test = gen.expr(t.test, env) if t.test is not None else "1"
        return [f"if ({test}) " + fire("NONE", "NONE")]
    ids = gen.fresh("ids")
    n = len(t.members)
    lines = ["{", f"    static const i64 {ids}[{max(n, 1)}] = {{{', '.join(map(str, t.members)) or '0'}}};"]
    lines.append(f"    const i64 *ss_ = {ids}; i64 ns_ = {n}, p0_ = 0, np_ = S[T_N];")
    if t.self_pin is not None:  # the pinned component, when it carries the trigger
        pin = gen.fresh("pin")
        lines.append(f"    i64 {pin} = {gen.expr(t.self_pin, env)}; ns_ = 0;")
        if n and list(t.members) == list(range(t.members[0], t.members[0] + n)):  # a type's ids: a range
            lines.append(f"    ns_ = {pin} >= {t.members[0]} && {pin} < {t.members[0] + n};")
        else:
            lines.append(f"    for (i64 ik_ = 0; ik_ < {n}; ik_++) if ({ids}[ik_] == {pin}) ns_ = 1;")
        lines.append(f"    if (ns_) ss_ = &{pin};")
    if t.p_pin is not None:  # the pinned seat, when it is one
        lines.append(f"    i64 pp_ = {gen.expr(t.p_pin, env)};")
        lines.append("    if (pp_ != NONE && pp_ >= 0 && pp_ < S[T_N]) { p0_ = pp_; np_ = 1; } else np_ = 0;")
    s, p = gen.fresh("v_self"), gen.fresh("v_p")
    test = gen.expr(t.test, {**env, "self": s, "p": p}) if t.test is not None else "1"
    lines.append("    uk_ += ns_ * np_;")
    lines.append(f"    for (i64 ik_ = 0; ik_ < ns_; ik_++) for (i64 {p} = p0_; {p} < p0_ + np_; {p}++) {{")
    lines.append(f"        i64 {s} = ss_[ik_];")
    lines.append(f"        if ({test}) " + fire(s, p))
    return [*lines, "    }", "}"]


__all__ = ["INT", "TriggerLowering", "TriggerSource", "c_dispatchers", "gather", "weight"]
