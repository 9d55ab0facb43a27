"""Check and compile DSL statements into runtime `Step`s, one small class per statement kind.

Stage: check + compile. Blocks are registered in `game.blocks` and referred to by index, so the
runtime's frames (plain data in the state) can name them.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter import rig, rng
from tabula.interpreter.choices import option_ids, value_id
from tabula.interpreter.compile.exprs import ExprCompiler, _broken, to_list
from tabula.interpreter.compile.scope import ANY, COMP, INT, NONE, PLAYER, ZONE, Scope, a, elem, type_of_value
from tabula.interpreter.dsl import ast
from tabula.interpreter.model import Closure
from tabula.interpreter.runtime import SUSPEND, Frame, GameEnded, GameRuntimeError, Runtime, Step
from tabula.interpreter.source import Span, did_you_mean


def zone_label(rt: Runtime, zone: int) -> str:
    """A zone instance in the game's words: `hand(Ann)` or `market`."""
    if zone < 0:
        return "out of play"
    layout = rt.g.zone_layouts[zone]
    owner = rt.g.zone_owner[zone]
    return f"{layout.name}({rt.st['names'][owner]})" if owner is not None else layout.name


def log_moves(rt: Runtime, cids: list[int], src: list[int], dest: int) -> None:
    """Log lines for moves; a component nobody may see on either side reads as 'a hidden <type>'."""
    from tabula.interpreter.view import visible_to

    comps = rt.g.components
    if len(cids) > 5:
        rt.say(f"{len(cids)} components: {zone_label(rt, src[0])} -> {zone_label(rt, dest)}")
        return
    n = rt.st["t"]["n"]
    for cid, old in zip(cids, src, strict=True):
        after = [q for q in range(n) if visible_to(rt.g, rt.st, cid, q)]
        rt.st["loc"][cid] = old  # look at where it was, to know who saw it there
        before = [q for q in range(n) if visible_to(rt.g, rt.st, cid, q)]
        rt.st["loc"][cid] = dest
        hidden = [q for q in range(n) if q not in after and q not in before]
        route = f"{zone_label(rt, old)} -> {zone_label(rt, dest)}"
        rt.say(f"{comps[cid].name}: {route}", hidden, f"a hidden {comps[cid].type}: {route}")


def move_component(rt: Runtime, cid: int, dest: int, top: bool) -> None:
    """Move one component to zone instance `dest` (front when `top`)."""
    st = rt.st
    loc = st["loc"]
    old = loc[cid]
    if old >= 0:
        st["z"][old].remove(cid)
    if top:
        st["z"][dest].insert(0, cid)
    else:
        st["z"][dest].append(cid)
    loc[cid] = dest
    if st["rv"][cid] and rt.g.zone_layouts[dest].visibility != "public" and old != dest:
        st["rv"][cid] = 0


# ------------------------------------------------------------------ simple steps


class LetStep(Step):
    def __init__(self, span: Span, name: str, f: Closure) -> None:
        self.span, self.name, self.f = span, name, f

    def exec(self, rt: Runtime, fr: Frame) -> None:
        rt.loc[self.name] = self.f(rt)


class CodeStep(Step):
    """A statement compiled to one generated Python function of the runtime."""

    def __init__(self, span: Span, fn: Closure) -> None:
        self.span, self.fn = span, fn

    def exec(self, rt: Runtime, fr: Frame) -> None:
        self.fn(rt)


def _write_failure(what: str, op: str, old: Any, v: Any, lo: int | None, hi: int | None) -> None:
    """Raised by generated writes; the runtime adds the statement's location."""
    if type(v) is not int:
        raise GameRuntimeError(f"the amount must be a number, got {v!r}", None)
    if v < 0 and op in ("gain", "pay"):
        raise GameRuntimeError(f"cannot {op} a negative amount ({v})", None)
    new = old + v if op in ("+=", "gain") else old - v
    if lo is not None and new < lo:
        raise GameRuntimeError(f"{what} would fall to {new} (it holds {old}); below its minimum {lo}", None)
    raise GameRuntimeError(f"{what} would rise to {new}, above its maximum {hi}", None)


class TakeStep(Step):
    def __init__(self, span: Span, n: Closure, src: Closure, dst: Closure) -> None:
        self.span, self.n, self.src, self.dst = span, n, src, dst

    def exec(self, rt: Runtime, fr: Frame) -> None:
        c = rt.st["c"]
        s, d = self.src(rt), self.dst(rt)
        n = min(self.n(rt), c[s])
        if n > 0:
            c[s] -= n
            c[d] += n


class MoveStep(Step):
    def __init__(self, span: Span, what: Closure, many: bool, dest: Closure, top: bool) -> None:
        self.span, self.what, self.many, self.dest, self.top = span, what, many, dest, top

    def exec(self, rt: Runtime, fr: Frame) -> None:
        v = self.what(rt)
        dest = self.dest(rt)
        if v is None:
            return
        if isinstance(v, int) and not isinstance(v, bool):
            items = [v] if not self.many else list(rt.st["z"][v])
        else:
            items = list(v)
        if self.top:
            items.reverse()
        src = [rt.st["loc"][c] for c in items] if rt.log is not None else []
        for cid in items:
            move_component(rt, cid, dest, self.top)
        if rt.log is not None and items:
            log_moves(rt, items, src, dest)


class DrawStep(Step):
    def __init__(self, span: Span, n: Closure, src: Closure, dst: Closure) -> None:
        self.span, self.n, self.src, self.dst = span, n, src, dst

    def exec(self, rt: Runtime, fr: Frame) -> None:
        src, dst = self.src(rt), self.dst(rt)
        zone = rt.st["z"][src]
        moved: list[int] = []
        for _ in range(max(self.n(rt), 0)):
            if not zone:
                break
            moved.append(zone[0])
            move_component(rt, zone[0], dst, False)
        if rt.log is not None and moved:
            log_moves(rt, moved, [src] * len(moved), dst)


class ShuffleStep(Step):
    def __init__(self, span: Span, zone: Closure) -> None:
        self.span, self.zone = span, zone

    def exec(self, rt: Runtime, fr: Frame) -> None:
        zone = self.zone(rt)
        if "rig" in rt.st:  # a scenario fixed this zone's order after its next shuffle (rig.py)
            rig.shuffle(rt.g, rt.st, zone)
        else:
            rng.shuffle(rt.st["rng"], rt.st["z"][zone])
        if rt.log is not None:
            rt.say(f"shuffle {zone_label(rt, zone)}")


class RevealStep(Step):
    def __init__(self, span: Span, what: Closure, value: int) -> None:
        self.span, self.what, self.value = span, what, value

    def exec(self, rt: Runtime, fr: Frame) -> None:
        v = self.what(rt)
        items = [v] if isinstance(v, int) else list(v or [])
        for cid in items:
            rt.st["rv"][cid] = self.value


class LogStep(Step):
    def __init__(self, span: Span, parts: list[str | Closure]) -> None:
        self.span, self.parts = span, parts

    def exec(self, rt: Runtime, fr: Frame) -> None:
        if rt.log is not None:
            rt.say(render_template(rt, self.parts))


def render_template(rt: Runtime, parts: list[Any]) -> str:
    """A template's text now: players and components by name."""
    out = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        else:
            f, t = p
            out.append(value_id(rt.g, rt.st["names"], f(rt), t).replace("+", ", "))
    return "".join(out)


class EndGameStep(Step):
    def __init__(self, span: Span | None) -> None:
        self.span = span

    def exec(self, rt: Runtime, fr: Frame) -> None:
        raise GameEnded()


class DeclareWinnerStep(Step):
    def __init__(self, span: Span, who: Closure) -> None:
        self.span, self.who = span, who

    def exec(self, rt: Runtime, fr: Frame) -> None:
        v = self.who(rt)
        raise GameEnded(sorted(v) if isinstance(v, list) else [v])


class EndingStep(Step):
    """Appended to an end check's effect: records how the game will end."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def exec(self, rt: Runtime, fr: Frame) -> None:
        if self.mode == "immediately":
            raise GameEnded()
        t = rt.st["t"]
        if t["ending"] is None:
            t["ending"] = self.mode
            t["trigger"] = t["active"]


class PassStep(Step):
    def __init__(self, span: Span) -> None:
        self.span = span

    def exec(self, rt: Runtime, fr: Frame) -> None:
        return None


# ------------------------------------------------------------------ control flow


class IfStep(Step):
    def __init__(self, span: Span, branches: list[tuple[Closure, int]], otherwise: int | None) -> None:
        self.span, self.branches, self.otherwise = span, branches, otherwise

    def exec(self, rt: Runtime, fr: Frame) -> None:
        for cond, block in self.branches:
            if cond(rt):
                rt.st["stk"].append([block, 0, None, None])
                return
        if self.otherwise is not None:
            rt.st["stk"].append([self.otherwise, 0, None, None])


class ForStep(Step):
    def __init__(self, span: Span, var: str, items: Closure, cond: Closure | None, body: int) -> None:
        self.span, self.var, self.items, self.cond, self.body = span, var, items, cond, body

    def _next(self, rt: Runtime, items: list[Any], i: int) -> int:
        while i < len(items):
            rt.loc[self.var] = items[i]
            if self.cond is None or self.cond(rt):
                return i
            i += 1
        return -1

    def exec(self, rt: Runtime, fr: Frame) -> None:
        items = list(self.items(rt))
        i = self._next(rt, items, 0)
        if i >= 0:
            rt.st["stk"].append([self.body, 0, None, [items, i]])

    def again(self, rt: Runtime, body: Frame) -> bool:
        items, i = body[3]
        i = self._next(rt, items, i + 1)
        if i < 0:
            return False
        body[3][1] = i
        return True


class RepeatStep(Step):
    def __init__(self, span: Span, n: Closure, body: int) -> None:
        self.span, self.n, self.body = span, n, body

    def exec(self, rt: Runtime, fr: Frame) -> None:
        n = self.n(rt)
        if not isinstance(n, int):
            raise GameRuntimeError(f"repeat needs a number, got {n!r}", self.span)
        if n > 0:
            rt.st["stk"].append([self.body, 0, None, [n - 1]])

    def again(self, rt: Runtime, body: Frame) -> bool:
        if body[3][0] > 0:
            body[3][0] -= 1
            return True
        return False


class WhileStep(Step):
    def __init__(self, span: Span, cond: Closure, body: int) -> None:
        self.span, self.cond, self.body = span, cond, body

    def exec(self, rt: Runtime, fr: Frame) -> None:
        if self.cond(rt):
            rt.st["stk"].append([self.body, 0, None, [0]])

    def again(self, rt: Runtime, body: Frame) -> bool:
        return bool(self.cond(rt))


class RunStep(Step):
    def __init__(
        self, span: Span, name: str, params: list[str], args: list[Closure], cell: list[int]
    ) -> None:
        self.span, self.name, self.params, self.args, self.cell = span, name, params, args, cell

    def exec(self, rt: Runtime, fr: Frame) -> None:
        new = {p: a(rt) for p, a in zip(self.params, self.args, strict=True)}
        if "me" not in new and "me" in rt.loc:
            new["me"] = rt.loc["me"]
        rt.push(self.cell[0], new)


class EmitStep(Step):
    def __init__(self, span: Span, event: str, kwargs: list[tuple[str, Closure]]) -> None:
        self.span, self.event, self.kwargs = span, event, kwargs

    def exec(self, rt: Runtime, fr: Frame) -> None:
        triggers = rt.g.triggers.get(self.event)
        watch = rt.watch
        if not triggers and watch is None:
            return
        base = {k: f(rt) for k, f in self.kwargs}
        if "me" not in base:
            base["me"] = rt.loc.get("me", rt.st["t"]["active"])
        if watch is not None:
            watch(self.event, base)
        if not triggers:
            return
        to_run: list[tuple[int, dict[str, Any]]] = []
        saved = rt.loc
        for trig in triggers:
            if trig.component_type is None:
                rt.loc = dict(base)
                if trig.where is None or trig.where(rt):
                    to_run.append((trig.block, rt.loc))
                continue
            for cid in rt.g.by_type[trig.component_type]:
                for p in range(rt.st["t"]["n"]):
                    rt.loc = {**base, "self": cid, "p": p}
                    if trig.active is not None and not trig.active(rt):
                        continue
                    if trig.where is None or trig.where(rt):
                        to_run.append((trig.block, rt.loc))
        rt.loc = saved
        for block, loc in reversed(to_run):
            rt.push(block, loc)


# ------------------------------------------------------------------ decisions


class ChooseStep(Step):
    def __init__(
        self,
        span: Span,
        var: str,
        options: Closure,
        t: str,
        by: Closure,
        prompt: list[str | Closure],
        optional: bool,
    ) -> None:
        self.span, self.var, self.options, self.t, self.by = span, var, options, t, by
        self.prompt, self.optional = prompt, optional

    def exec(self, rt: Runtime, fr: Frame) -> object | None:
        if rt.fire_end_checks():
            fr[1] -= 1
            return None
        values = list(self.options(rt))
        if self.optional:
            values.append(None)
        if not values:
            raise GameRuntimeError(
                "this choice has no options (guard the action or effect with a condition)", self.span
            )
        ids = option_ids(rt.g, rt.st["names"], values, self.t)
        seen: dict[str, int] = {}
        for i, x in enumerate(ids):
            seen.setdefault(x, i)
        if len(seen) != len(ids):
            keep = sorted(seen.values())
            values = [values[i] for i in keep]
            ids = [ids[i] for i in keep]
        prompt = render_template(rt, self.prompt)
        rt.st["dec"] = {
            "t": self.t,
            "k": "choose",
            "p": self.by(rt),
            "ids": ids,
            "v": values,
            "var": self.var,
            "prompt": prompt,
        }
        return SUSPEND


class WindowStep(Step):
    """Offers every legal (action, arguments) to a player until a closing action is chosen."""

    def __init__(self, span: Span, player: Closure, actions: list[int]) -> None:
        self.span, self.player, self.actions = span, player, actions

    def exec(self, rt: Runtime, fr: Frame) -> object | None:
        if rt.fire_end_checks():
            fr[1] -= 1
            return None
        p = self.player(rt)
        ids, values = legal_window_options(rt, p, self.actions)
        if not ids:
            return None
        fr[1] -= 1
        rt.st["dec"] = {"k": "window", "p": p, "ids": ids, "v": values, "prompt": "choose an action"}
        return SUSPEND


def legal_window_options(rt: Runtime, p: int, actions: list[int]) -> tuple[list[str], list[Any]]:
    """Every legal (action, arguments) for player p, with stable ids."""
    ids: list[str] = []
    values: list[Any] = []
    saved = rt.loc
    loc: dict[str, Any] = {"me": p}
    rt.loc = loc
    try:
        for ai in actions:
            act = rt.g.action_list[ai]
            when = act.when
            if not act.params:
                if when is None or when(rt):
                    ids.append(act.name)
                    values.append([ai, []])
                continue
            if act.options is not None:
                legal = act.options(rt)
            else:
                if act.guard is not None and not act.guard(rt):
                    continue
                legal = []
                names = [name for name, _, _ in act.params]
                for combo in _param_combos(rt, loc, act.params):
                    for name, v in zip(names, combo, strict=True):
                        loc[name] = v
                    if when is None or when(rt):
                        legal.append(combo)
                for name in names:
                    loc.pop(name, None)
            if not legal:
                continue
            # ids per parameter column, so that repeated names get unique keys (Road#2)
            columns = [
                option_ids(rt.g, rt.st["names"], [combo[k] for combo in legal], t)
                for k, (_, _, t) in enumerate(act.params)
            ]
            for row, combo in enumerate(legal):
                ids.append(act.name + ":" + ",".join(col[row] for col in columns))
                values.append([ai, combo])
    finally:
        rt.loc = saved
    return ids, values


def _param_combos(
    rt: Runtime, loc: dict[str, Any], params: list[tuple[str, Closure, str]]
) -> list[list[Any]]:
    if len(params) == 1:
        return [[v] for v in params[0][1](rt)]
    combos: list[list[Any]] = [[]]
    for i, (_, enum, _) in enumerate(params):
        nxt: list[list[Any]] = []
        for combo in combos:
            for j in range(i):
                loc[params[j][0]] = combo[j]
            for v in enum(rt):
                nxt.append([*combo, v])
        combos = nxt
    return combos


# ------------------------------------------------------------------ the compiler


class StmtCompiler:
    """Turns AST blocks into registered step lists."""

    def __init__(
        self,
        ex: ExprCompiler,
        procedures: dict[str, tuple[list[str], list[int]]],
        action_index: dict[str, int],
    ) -> None:
        self.ex = ex
        self.g = ex.g
        self.report = ex.report
        self.procedures = procedures  # name -> (params, cell holding the block id)
        self.emitted: set[str] = set()  # events some `emit` fires
        self.action_index = action_index

    def block(self, stmts: ast.Block, scope: Scope) -> int:
        bid = len(self.g.blocks)
        self.g.blocks.append([])
        steps = [s for s in (self.stmt(x, scope) for x in stmts) if s is not None]
        self.g.blocks[bid] = steps
        self.g.block_local_types[bid] = dict(scope.locals)
        if stmts:
            self.g.block_spans[bid] = stmts[0].span
        return bid

    def stmt(self, n: ast.Stmt, scope: Scope) -> Step | None:
        method = getattr(self, "_" + type(n).__name__)
        step: Step | None = method(n, scope)
        return step

    # -- helpers
    def zone(self, node: ast.Expr, scope: Scope) -> Closure:
        f, t = self.ex.expr(node, scope)
        if t not in (ZONE, ANY):
            self.report.error(
                "T006",
                f"expected a zone, found {a(t)}",
                node.span,
                f"zones: {', '.join(sorted(self.g.zones)[:8])}",
            )
        return f

    def template(self, text: str, scope: Scope, span: Span) -> list[Any]:
        """Literal text and typed closures for `{expr}` parts (shown by name: players, components)."""
        from tabula.interpreter.dsl.parser import PlainOrigin, parse_template

        parts: list[Any] = []
        origin = PlainOrigin(span.file, span.line, span.col + 1)  # inside the opening quote
        for part in parse_template(text, origin, self.report):
            parts.append(part if isinstance(part, str) else self.ex.expr(part, scope))
        return parts

    def writer(self, target: ast.Expr, scope: Scope) -> tuple[str, str, str, int | None, int | None] | None:
        """(container source, index source, description, min, max) for a writable target."""
        g = self.g
        ex = self.ex
        if isinstance(target, ast.Name) and target.id in scope.locals:
            return "L", repr(target.id), f"'{target.id}'", None, None
        if isinstance(target, ast.Call) and not isinstance(target.func, ast.Name):
            self.report.error("E110", "this cannot be changed", target.span)
            return None
        name = (
            target.id
            if isinstance(target, ast.Name)
            else (
                target.func.id if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) else ""
            )
        )
        if name in g.counters and isinstance(target, (ast.Call, ast.Name)):
            idx = ex.counter_index_code(name, target, scope)
            if idx is None:
                return None
            c = g.counters[name]
            return "S['c']", idx, f"counter '{name}'", c.min, c.max
        if name in g.vars:
            if not g.vars[name].per_player:
                return "S['v']", repr(name), f"'{name}'", None, None
            if not isinstance(target, ast.Call) or len(target.args) != 1:
                self.report.error("E105", f"'{name}' is kept per player: write {name}(p)", target.span)
                return None
            return f"S['v'][{name!r}]", ex.code(target.args[0], scope)[0], f"'{name}'", None, None
        if isinstance(target, ast.Attr):
            if target.name not in g.marks:
                self.report.error(
                    "E111",
                    f"'{target.name}' is not a mark: only marks can be changed",
                    target.span,
                    did_you_mean(target.name, g.marks) or "declare it under the type's 'marks:'",
                )
                return None
            return (
                f"S['m'][{target.name!r}]",
                ex.code(target.obj, scope)[0],
                f"mark '{target.name}'",
                None,
                None,
            )
        if name in ("players", "num_players", "active", "round", "turn"):
            self.report.error(
                "E110",
                f"'{name}' is kept by the engine: it can be read, not set",
                target.span,
                "keep your own count in a var or a counter",
            )
            return None
        hint = did_you_mean(name, [*g.counters, *g.vars, *scope.locals]) if name else None
        self.report.error(
            "E110",
            "this cannot be changed: expected a counter, a var, a mark or a local",
            target.span,
            hint or "declare it under 'counters:' or 'vars:'",
        )
        return None

    def write_step(self, span: Span, target: ast.Expr, value: ast.Expr, op: str, scope: Scope) -> Step | None:
        """One generated function per `set` / `gain` / `pay`: read, check bounds, write."""
        w = self.writer(target, scope)
        v, t = self.ex.code(value, scope)
        if op != "=":
            self.ex.expect(t, INT, value.span)
        if w is None:
            return None
        box, index, what, lo, hi = w
        fail = self.ex.inject(_write_failure, "write_failure")
        lines = [f"    _b = {box}", f"    _i = {index}", f"    _v = {v}"]
        if op != "=":
            sign = "+" if op in ("+=", "gain") else "-"
            checks = [f"_v.__class__ is not {self.ex.inject(int, 'int')}"]
            if op in ("gain", "pay"):
                checks.append("_v < 0")
            lines.append(f"    _n = _b[_i] {sign} _v")
            if lo is not None:
                checks.append(f"_n < {lo}")
            if hi is not None:
                checks.append(f"_n > {hi}")
            lines.append(f"    if {' or '.join(checks)}: {fail}({what!r}, {op!r}, _b[_i], _v, {lo}, {hi})")
            lines.append("    _b[_i] = _n")
        else:
            lines.append("    _b[_i] = _v")
        text = "def _s(rt):\n    L = rt.loc\n    S = rt.st\n" + "\n".join(lines) + "\n"
        local: dict[str, Any] = {}
        exec(compile(text, "<tabula-dsl>", "exec"), self.ex.ns, local)  # generated from a checked AST
        return CodeStep(span, local["_s"])

    # -- statements
    def _Let(self, n: ast.Let, scope: Scope) -> Step:
        f, t = self.ex.expr(n.value, scope)
        scope.locals[n.name] = t if t != NONE else ANY
        return LetStep(n.span, n.name, f)

    def _Set(self, n: ast.Set, scope: Scope) -> Step | None:
        return self.write_step(n.span, n.target, n.value, n.op, scope)

    def _counter_write(self, n: ast.Gain | ast.Pay, scope: Scope, op: str) -> Step | None:
        if (
            isinstance(n.amount, ast.Neg)
            and isinstance(n.amount.operand, ast.Number)
            and n.amount.operand.value
        ):
            self.report.error(
                "E117",
                f"cannot {op} a negative amount",
                n.amount.span,
                f"write '{'pay' if op == 'gain' else 'gain'} {n.amount.operand.value} ...' instead",
            )
        name = (
            n.target.id
            if isinstance(n.target, ast.Name)
            else (
                n.target.func.id
                if isinstance(n.target, ast.Call) and isinstance(n.target.func, ast.Name)
                else ""
            )
        )
        if name not in self.g.counters:
            self.ex.code(n.amount, scope)  # its own mistakes are reported too
            example = next(iter(self.g.counters), "score")
            self.report.error(
                "E112",
                f"'{op}' needs a counter, e.g. {example}",
                n.target.span,
                did_you_mean(name, self.g.counters) if name else None,
            )
            return None
        return self.write_step(n.span, n.target, n.amount, op, scope)

    def _Gain(self, n: ast.Gain, scope: Scope) -> Step | None:
        return self._counter_write(n, scope, "gain")

    def _Pay(self, n: ast.Pay, scope: Scope) -> Step | None:
        return self._counter_write(n, scope, "pay")

    def _Take(self, n: ast.Take, scope: Scope) -> Step | None:
        f, _ = self.ex.expr(n.amount, scope)
        ends = []
        for node in (n.source, n.dest):
            name = (
                node.id
                if isinstance(node, ast.Name)
                else (node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else "")
            )
            if name not in self.g.counters:
                self.report.error(
                    "E112",
                    "'take' moves units between counters",
                    node.span,
                    did_you_mean(name, self.g.counters) if name else None,
                )
                return None
            idx = self.ex.counter_index(name, node, scope)  # type: ignore[arg-type]
            if idx is None:
                return None
            ends.append(idx)
        return TakeStep(n.span, f, ends[0], ends[1])

    def _Move(self, n: ast.Move, scope: Scope) -> Step:
        f, t = self.ex.expr(n.what, scope)
        if t not in (ANY, COMP, ZONE, NONE) and not t.startswith("list["):
            self.report.error(
                "T007", f"'move' needs a component, a list of components or a zone, found {a(t)}", n.what.span
            )
        return MoveStep(n.span, f, t == ZONE, self.zone(n.dest, scope), n.place == "top")

    def _Draw(self, n: ast.Draw, scope: Scope) -> Step:
        f, t = self.ex.expr(n.count, scope)
        self.ex.expect(t, INT, n.count.span)
        return DrawStep(n.span, f, self.zone(n.source, scope), self.zone(n.dest, scope))

    def _Shuffle(self, n: ast.Shuffle, scope: Scope) -> Step:
        return ShuffleStep(n.span, self.zone(n.zone, scope))

    def _Reveal(self, n: ast.Reveal, scope: Scope) -> Step:
        return RevealStep(
            n.span,
            to_list(*self.ex.expr(n.what, scope))
            if self.ex.expr(n.what, scope)[1] == ZONE
            else self.ex.expr(n.what, scope)[0],
            1,
        )

    def _Conceal(self, n: ast.Conceal, scope: Scope) -> Step:
        f, t = self.ex.expr(n.what, scope)
        return RevealStep(n.span, to_list(f, t) if t == ZONE else f, 0)

    def _Choose(self, n: ast.Choose, scope: Scope) -> Step:
        f, t = self.ex.listy(n.options, scope)
        by = self.ex.expr(n.by, scope)[0] if n.by is not None else self._me(scope, n.span)
        et = elem(t)
        scope.locals[n.var] = et
        prompt: list[str | Closure] = (
            self.template(n.prompt, scope, n.prompt_span or n.span) if n.prompt else [f"choose {n.var}"]
        )
        return ChooseStep(n.span, n.var, f, et, by, prompt, n.optional)

    def _me(self, scope: Scope, span: Span) -> Closure:
        if "me" in scope.locals:
            return lambda rt: rt.loc["me"]
        if "p" in scope.locals:
            return lambda rt: rt.loc["p"]
        self.report.error(
            "E113",
            "who decides? add 'by <player>'",
            span,
            "'me' is only known inside actions; elsewhere write 'by p'",
        )
        return _broken

    def _Window(self, n: ast.Window, scope: Scope) -> Step:
        self.ex.used.update(n.actions)
        pf, pt = self.ex.expr(n.player, scope)
        self.ex.expect(pt, PLAYER, n.player.span)
        idx: list[int] = []
        for name, span in zip(n.actions, n.action_spans, strict=True):
            if name not in self.action_index:
                self.report.error(
                    "E114", f"unknown action '{name}'", span, did_you_mean(name, self.action_index)
                )
            else:
                idx.append(self.action_index[name])
        return WindowStep(n.span, pf, idx)

    def _Run(self, n: ast.Run, scope: Scope) -> Step | None:
        self.ex.used.add(n.name)
        if n.name not in self.procedures:
            self.report.error(
                "E115", f"unknown procedure '{n.name}'", n.span, did_you_mean(n.name, self.procedures)
            )
            return None
        params, cell = self.procedures[n.name]
        if len(params) != len(n.args):
            self.report.error(
                "E105",
                f"procedure '{n.name}' takes {len(params)} argument(s), got {len(n.args)}",
                n.span,
                f"run {n.name}({', '.join(params)})",
            )
            return None
        return RunStep(n.span, n.name, params, [self.ex.expr(a, scope)[0] for a in n.args], cell)

    def _Emit(self, n: ast.Emit, scope: Scope) -> Step:
        self.emitted.add(n.event)
        return EmitStep(n.span, n.event, [(k, self.ex.expr(v, scope)[0]) for k, v in n.kwargs])

    def _Log(self, n: ast.Log, scope: Scope) -> Step:
        return LogStep(n.span, self.template(n.text, scope, n.text_span or n.span))

    def _EndGame(self, n: ast.EndGame, scope: Scope) -> Step:
        return EndGameStep(n.span)

    def _DeclareWinner(self, n: ast.DeclareWinner, scope: Scope) -> Step:
        return DeclareWinnerStep(n.span, self.ex.expr(n.who, scope)[0])

    def _Pass(self, n: ast.Pass, scope: Scope) -> Step:
        return PassStep(n.span)

    def _If(self, n: ast.If, scope: Scope) -> Step:
        branches = [(self.ex.cond(c, scope), self.block(b, scope)) for c, b in n.branches]
        other = self.block(n.otherwise, scope) if n.otherwise is not None else None
        return IfStep(n.span, branches, other)

    def _For(self, n: ast.For, scope: Scope) -> Step:
        f, t = self.ex.listy(n.iter, scope)
        scope.locals[n.var] = elem(t)
        cond = self.ex.cond(n.cond, scope) if n.cond is not None else None
        return ForStep(n.span, n.var, f, cond, self.block(n.body, scope))

    def _Repeat(self, n: ast.Repeat, scope: Scope) -> Step:
        f, t = self.ex.expr(n.count, scope)
        self.ex.expect(t, INT, n.count.span)
        return RepeatStep(n.span, f, self.block(n.body, scope))

    def _While(self, n: ast.While, scope: Scope) -> Step:
        return WhileStep(n.span, self.ex.cond(n.cond, scope), self.block(n.body, scope))


_ = (type_of_value, _broken)
