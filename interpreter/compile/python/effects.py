"""Check and compile DSL statements (effects) into generated Python functions and resumable blocks.

Stage: check + compile. An effect that can never wait for a decision becomes one Python function:
its statements are Python statements, its locals Python locals (`py` mode) or one dict (`dict` mode,
for triggers and for code that shares locals with a suspended frame). An effect that can wait
(suspend.py decides) becomes a resumable block — a short list of steps (steps.py) registered in
`game.blocks`, where every run of statements that cannot wait is again one generated function.

Blocks are registered in `game.blocks` and referred to by index, so the runtime's frames (plain data in
the state) can name them; every `if`/loop body gets a block id too, even inside a generated function,
because rules coverage counts them (in an instrumented compile the function records its entry).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.base import types as static
from tabula.interpreter.base.source import Span, did_you_mean
from tabula.interpreter.base.types import ANY, COMP, INT, NONE, PLAYER, ZONE, Scope, a, elem, list_of
from tabula.interpreter.compile.python.cards import HookInfo
from tabula.interpreter.compile.python.exprs import ExprCompiler
from tabula.interpreter.compile.python.fragments import is_literal, literal
from tabula.interpreter.compile.python.machines import MachineCompiler
from tabula.interpreter.compile.suspend import Suspension
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import budget, support

PY = "py"
DICT = "dict"


@dataclass
class ProcInfo:
    """A procedure: parameters, the block id of its resumable form, whether it can suspend."""

    name: str
    params: list[str]
    types: dict[str, str]
    cell: list[int] = field(default_factory=lambda: [0])
    suspends: bool = False
    body: ast.Block | tuple[()] = ()


class Lines:
    """Lines of generated source, each optionally tagged with the DSL statement it carries out."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: dict[int, Span] = {}

    def add(self, depth: int, text: str, span: Span | None = None) -> None:
        self.lines.append("    " * depth + text)
        if span is not None:
            self.spans[len(self.lines)] = span

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class EffectCompiler(MachineCompiler):
    """Turns AST blocks into generated functions and resumable state machines (machines.py)."""

    def __init__(
        self,
        ex: ExprCompiler,
        procedures: dict[str, ProcInfo],
        action_index: dict[str, int],
        suspension: Suspension,
        windows: Callable[[list[int], Span], Callable[..., Any]],
        instrument: bool = False,
    ) -> None:
        self.ex = ex
        self.g = ex.g
        self.mod = ex.mod
        self.report = ex.report
        self.procedures = procedures
        self.emitted: set[str] = set()  # events some `emit` fires
        self.action_index = action_index
        self.suspension = suspension
        self.windows = windows
        self.instrument = instrument
        self.dispatchers: dict[str, str] = {}  # event -> name of its generated dispatcher
        self.hooks: dict[str, HookInfo] = {}  # set by the game compiler (cards.py)
        self._tmp = 0

    # ------------------------------------------------------------ blocks and functions
    def new_block(self, stmts: ast.Block, scope: Scope) -> int:
        """A block id: for an effect (its function goes in `game.blocks`), or for a branch or loop
        body, which rules coverage counts (its entry stays None)."""
        bid = len(self.g.blocks)
        self.g.blocks.append(None)
        if stmts:
            self.g.block_spans[bid] = stmts[0].span
        return bid

    def block(self, stmts: ast.Block, scope: Scope) -> int:
        """The block id of statements run from a frame, locals in the frame's dict (scenario
        snippets; effects entered from the flow use `entry`)."""
        return self.machine(stmts, scope)

    def plain(
        self,
        name: str,
        stmts: ast.Block,
        scope: Scope,
        params: list[str],
        mode: str,
        cover: int | None,
        tail: list[str] | None = None,
    ) -> Callable[..., Any]:
        """One generated function for a block that cannot suspend: `name(rt, v_me, *params)` in py
        mode (parameters are Python locals), `name(rt, L)` in dict mode."""
        out = Lines()
        if mode == PY:
            out.add(0, f"def {name}(rt, v_me{''.join(', v_' + p for p in params)}):")
        else:
            out.add(0, f"def {name}(rt, L):")
        out.add(1, "S = rt.st")
        out.add(1, "M = rt.memo")
        if cover is not None and self.instrument:
            out.add(1, f"rt.g.coverage.add({cover})")
        self.stmts(out, 1, list(stmts), scope, mode)
        for line in tail or []:
            out.add(1, line)
        return self.mod.function(out.text(), name, out.spans)

    def entry(
        self,
        stmts: ast.Block,
        scope: Scope,
        frame_args: list[str] | None,
        fn_name: str | None = None,
        tail: list[str] | None = None,
    ) -> tuple[int, Callable[..., Any] | None]:
        """The block of an effect entered from a frame (action, phase, procedure, trigger, flow hook):
        (block id, its generated function when it cannot suspend).

        `frame_args` are the frame locals passed as Python parameters (py mode; the first must be
        `me`); None keeps the locals a dict (dict mode). `tail` are lines run after the effect."""
        if self.suspension.block(stmts):
            # a frame's locals are a dict: what were Python parameters become its entries
            scope = Scope({**scope.locals, **scope.py}, scope.where)
            return self.machine(stmts, scope, tail), None
        bid = self.new_block(stmts, scope)
        name = fn_name or self.mod.fresh("entry")
        if frame_args is None:
            fn = self.plain(name, stmts, scope, [], DICT, bid)
            call = f"{name}(rt, fr[2])"
        else:
            assert frame_args[0] == "me"
            fn = self.plain(name, stmts, scope, frame_args[1:], PY, bid)
            call = f"{name}(rt{''.join(f', L.get({a!r})' for a in frame_args)})"
        enter = self.mod.fresh("enter")
        lines = [
            f"def {enter}(rt, fr):",
            "    L = fr[2]",
            f"    {call}",
            *(f"    {t}" for t in tail or []),
            "    return None",
        ]
        self.g.blocks[bid] = self.mod.function("\n".join(lines) + "\n", enter)
        self.g.block_local_types[bid] = {**scope.locals, **scope.py}
        return bid, fn

    # ------------------------------------------------------------ statements (generated code)
    def stmts(self, out: Lines, depth: int, stmts: list[ast.Stmt], scope: Scope, mode: str) -> None:
        before = len(out.lines)
        for s in stmts:
            method = getattr(self, "_" + type(s).__name__)
            method(out, depth, s, scope, mode)
        if len(out.lines) == before:
            out.add(depth, "pass")

    def body(self, out: Lines, depth: int, stmts: ast.Block, scope: Scope, mode: str) -> None:
        """A nested body (if branch, loop): its own block id for coverage."""
        bid = self.new_block(stmts, scope)
        self.g.block_local_types[bid] = {**scope.locals, **scope.py}
        if self.instrument:
            out.add(depth, f"rt.g.coverage.add({bid})")
        self.stmts(out, depth, list(stmts), scope, mode)

    @staticmethod
    def written(out: Lines, depth: int) -> None:
        """After a statement that changes the state: remembered function results may be stale."""
        out.add(depth, "if M: M.clear()")

    def tmp(self) -> str:
        self._tmp += 1
        return f"_t{self._tmp}"

    def me(self, scope: Scope, mode: str) -> str:
        """Source of the deciding player passed on to `run` and `emit` (None when there is none)."""
        return "v_me" if mode == PY else "L.get('me')"

    def weight(self, stmts: ast.Block | tuple[()]) -> int:
        """What one pass of a loop's body is charged: its statements, those of its branches and of
        the procedures it runs counted in (at least 1). A loop inside charges its own iterations;
        a procedure that runs itself is counted once."""
        return max(1, self._statements(stmts, set()))

    def _statements(self, stmts: ast.Block | tuple[()], seen: set[str]) -> int:
        n = 0
        for s in stmts:
            n += 1
            if isinstance(s, ast.If):
                n += sum(self._statements(b, seen) for _, b in s.branches)
                n += self._statements(s.otherwise, seen) if s.otherwise is not None else 0
            elif isinstance(s, ast.Run) and s.name in self.procedures and s.name not in seen:
                n += self._statements(self.procedures[s.name].body, seen | {s.name})
        return n

    def charge(self, out: Lines, depth: int, span: Span, units: str = "1") -> None:
        out.add(depth, f"rt.budget -= {units}")
        out.add(depth, f"if rt.budget < 0: {self.ex.helper(support.over_budget)}(rt)", span)

    # -- simple statements
    def _Let(self, out: Lines, depth: int, n: ast.Let, scope: Scope, mode: str) -> None:
        src, t = self.ex.code(n.value, scope)
        t = t if t != NONE else ANY
        if mode == PY:
            scope.py[n.name] = t
            scope.known.pop(n.name, None)
            out.add(depth, f"v_{n.name} = {src}", n.span)
            self.kept_after(out, depth, n.span, f"v_{n.name}", src, t, saved=False)
        else:
            scope.locals[n.name] = t
            out.add(depth, f"L[{n.name!r}] = {self.kept(src, t, True, 'L', repr(n.name))}", n.span)
            self.kept_after(out, depth, n.span, f"L[{n.name!r}]", src, t, saved=True)

    def _Set(self, out: Lines, depth: int, n: ast.Set, scope: Scope, mode: str) -> None:
        self.write(out, depth, n.span, n.target, n.value, n.op, scope)

    def _Gain(self, out: Lines, depth: int, n: ast.Gain, scope: Scope, mode: str) -> None:
        self.counter_write(out, depth, n, scope, "gain")

    def _Pay(self, out: Lines, depth: int, n: ast.Pay, scope: Scope, mode: str) -> None:
        self.counter_write(out, depth, n, scope, "pay")

    def _Take(self, out: Lines, depth: int, n: ast.Take, scope: Scope, mode: str) -> None:
        amount, _ = self.ex.code(n.amount, scope)
        ends = []
        for node in (n.source, n.dest):
            name = _target_name(node)
            if name not in self.g.counters:
                self.report.error(
                    "E112",
                    "'take' moves units between counters",
                    node.span,
                    did_you_mean(name, self.g.counters) if name else None,
                )
                return
            idx = self.ex.counter_index_code(name, node, scope)  # type: ignore[arg-type]
            if idx is None:
                return
            ends.append(idx)
        s, d, k = self.tmp(), self.tmp(), self.tmp()
        c = self.ex.bind("C")
        out.add(depth, f"{s} = {ends[0]}; {d} = {ends[1]}; {k} = min({amount}, {c}[{s}])", n.span)
        out.add(depth, f"if {k} > 0: {c}[{s}] -= {k}; {c}[{d}] += {k}", n.span)
        self.written(out, depth)

    def _Move(self, out: Lines, depth: int, n: ast.Move, scope: Scope, mode: str) -> None:
        what, t = self.ex.code(n.what, scope)
        if t not in (ANY, COMP, ZONE, NONE) and not t.startswith("list["):
            self.report.error(
                "T007", f"'move' needs a component, a list of components or a zone, found {a(t)}", n.what.span
            )
        dest = self.zone(n.dest, scope)
        top = n.place == "top"
        x = self.tmp()
        out.add(depth, f"{x} = {what}", n.span)
        if t == COMP:
            out.add(depth, f"{self.ex.helper(support.move_one)}(rt, {x}, {dest}, {top})", n.span)
        else:
            out.add(depth, f"{self.ex.helper(support.move)}(rt, {x}, {dest}, {t == ZONE}, {top})", n.span)
        self.written(out, depth)

    def _Draw(self, out: Lines, depth: int, n: ast.Draw, scope: Scope, mode: str) -> None:
        count, t = self.ex.code(n.count, scope)
        self.ex.expect(t, INT, n.count.span)
        s, d = self.tmp(), self.tmp()
        src, dst = self.zone(n.source, scope), self.zone(n.dest, scope)
        out.add(depth, f"{s} = {src}; {d} = {dst}", n.span)
        out.add(depth, f"{self.ex.helper(support.draw)}(rt, {s}, {d}, {count})", n.span)
        self.written(out, depth)

    def _Shuffle(self, out: Lines, depth: int, n: ast.Shuffle, scope: Scope, mode: str) -> None:
        out.add(depth, f"{self.ex.helper(support.shuffle)}(rt, {self.zone(n.zone, scope)})", n.span)
        self.written(out, depth)

    def _Reveal(self, out: Lines, depth: int, n: ast.Reveal, scope: Scope, mode: str) -> None:
        self.reveal(out, depth, n.what, n.span, scope, 1)

    def _Conceal(self, out: Lines, depth: int, n: ast.Conceal, scope: Scope, mode: str) -> None:
        self.reveal(out, depth, n.what, n.span, scope, 0)

    def reveal(self, out: Lines, depth: int, what: ast.Expr, span: Span, scope: Scope, value: int) -> None:
        src, t = self.ex.code(what, scope)
        if t == ZONE:
            src = f"{self.ex.bind('Z')}[{src}]"
        out.add(depth, f"{self.ex.helper(support.reveal)}(rt, {src}, {value})", span)
        self.written(out, depth)

    def _Log(self, out: Lines, depth: int, n: ast.Log, scope: Scope, mode: str) -> None:
        parts, values = self.template(n.text, scope, n.text_span or n.span)
        data = self.ex.inject(parts, "template")
        out.add(
            depth,
            f"if rt.log is not None: {self.ex.helper(support.say)}(rt, {data}, [{', '.join(values)}])",
            n.span,
        )

    def _EndGame(self, out: Lines, depth: int, n: ast.EndGame, scope: Scope, mode: str) -> None:
        out.add(depth, f"{self.ex.helper(support.end_game)}()", n.span)

    def _DeclareWinner(self, out: Lines, depth: int, n: ast.DeclareWinner, scope: Scope, mode: str) -> None:
        src, t = self.ex.code(n.who, scope)
        if t not in (ANY, PLAYER, INT, NONE, list_of(PLAYER), list_of(INT), list_of(ANY)):
            self.report.error(
                "T008",
                f"declare_winner needs a player or a list of players, found {a(t)}",
                n.who.span,
                "e.g. declare_winner p, or declare_winner [p, q] for a shared win",
            )
        elif t == NONE:
            self.report.error(
                "T008", "declare_winner needs a player or a list of players, found none", n.who.span
            )
        elif isinstance(literal(src), int) and not 0 <= literal(src) < self.g.max_players:
            self.report.error(
                "T008",
                f"declare_winner needs a player: {src} is no seat of this game "
                f"(seats 0 to {self.g.max_players - 1})",
                n.who.span,
                "e.g. declare_winner p, or declare_winner [p, q] for a shared win",
            )
        out.add(depth, f"{self.ex.helper(support.declare_winner)}(rt, {src})", n.span)

    def _Pass(self, out: Lines, depth: int, n: ast.Pass, scope: Scope, mode: str) -> None:
        out.add(depth, "pass")

    # -- control flow
    def _If(self, out: Lines, depth: int, n: ast.If, scope: Scope, mode: str) -> None:
        for i, (c, b) in enumerate(n.branches):
            cond = self.ex.cond_code(c, scope)
            out.add(depth, f"{'if' if i == 0 else 'elif'} {cond}:", c.span)
            self.body(out, depth + 1, b, scope, mode)
        if n.otherwise is not None:
            out.add(depth, "else:")
            self.body(out, depth + 1, n.otherwise, scope, mode)

    def _For(self, out: Lines, depth: int, n: ast.For, scope: Scope, mode: str) -> None:
        items, t = self.ex.list_code(n.iter, scope)
        var = self.declare(scope, n.var, elem(t), mode)
        # every element charged at once, before the first: the same work as one unit per iteration
        # (a loop runs over a copy, so its length is known), without a test in each iteration
        players = f"list(range({self.ex.bind('NP')}))"
        if items == players:
            xs, size = f"range({self.ex.bind('NP')})", self.ex.bind("NP")
        elif isinstance(self.mod.data.get(items), list):  # a constant list: never written, not copied
            xs, size = items, str(len(self.mod.data[items]))
        else:
            xs = self.tmp()
            out.add(depth, f"{xs} = list({items})", n.span)
            size = f"len({xs})"
        w = self.weight(n.body)
        self.charge(out, depth, n.span, size if w == 1 else f"{size} * {w}")
        out.add(depth, f"for {var} in {xs}:", n.span)
        if n.cond is not None:
            out.add(depth + 1, f"if not {self.ex.cond_code(n.cond, scope)}: continue", n.cond.span)
        self.body(out, depth + 1, n.body, scope, mode)

    def _Repeat(self, out: Lines, depth: int, n: ast.Repeat, scope: Scope, mode: str) -> None:
        count, t = self.ex.code(n.count, scope)
        self.ex.expect(t, INT, n.count.span)
        k = self.tmp()
        out.add(depth, f"{k} = {self.ex.helper(support.repeat_count)}({count})", n.span)
        w = self.weight(n.body)
        self.charge(out, depth, n.span, f"max({k}, 0) * {w}")  # every iteration charged at once
        out.add(depth, f"for {k} in range({k}):", n.span)
        self.body(out, depth + 1, n.body, scope, mode)

    def _While(self, out: Lines, depth: int, n: ast.While, scope: Scope, mode: str) -> None:
        out.add(depth, f"while {self.ex.cond_code(n.cond, scope)}:", n.span)
        self.charge(out, depth + 1, n.span, str(self.weight(n.body)))
        self.body(out, depth + 1, n.body, scope, mode)

    def declare(self, scope: Scope, name: str, t: str, mode: str) -> str:
        if mode == PY:
            scope.py[name] = t
            scope.known.pop(name, None)
            return f"v_{name}"
        scope.locals[name] = t
        return f"L[{name!r}]"

    # -- calls
    def _Run(self, out: Lines, depth: int, n: ast.Run, scope: Scope, mode: str) -> None:
        info = self.procedure(n)
        if info is None:
            return
        # the arguments become the locals of the procedure's frame: kept in the state
        args = [self.kept(*self.ex.code(x, scope), saved=True) for x in n.args]
        out.add(depth, f"P_{info.name}(rt, {self.me(scope, mode)}{''.join(', ' + x for x in args)})", n.span)

    def procedure(self, n: ast.Run) -> ProcInfo | None:
        self.ex.used.add(n.name)
        if n.name not in self.procedures:
            self.report.error(
                "E115", f"unknown procedure '{n.name}'", n.span, did_you_mean(n.name, self.procedures)
            )
            return None
        info = self.procedures[n.name]
        if len(info.params) != len(n.args):
            self.report.error(
                "E105",
                f"procedure '{n.name}' takes {len(info.params)} argument(s), got {len(n.args)}",
                n.span,
                f"run {n.name}({', '.join(info.params)})",
            )
            return None
        return info

    def _RunHook(self, out: Lines, depth: int, n: ast.RunHook, scope: Scope, mode: str) -> None:
        call = self.hook_call(n, scope)
        if call is None:
            return
        info, target, args = call
        c, h = self.tmp(), self.tmp()
        out.add(depth, f"{c} = {target}; {h} = {info.table}.get({c})", n.span)
        rest = "".join(", " + x for x in args)
        out.add(depth, f"if {h} is not None: {h}(rt, {self.me(scope, mode)}, {c}{rest})")

    def hook_call(self, n: ast.RunHook, scope: Scope) -> tuple[HookInfo, str, list[str]] | None:
        """The hook a `run c.hook(args)` calls, its target's source and its arguments' (checked)."""
        target, tt = self.ex.code(n.target, scope)
        self.ex.expect(tt, COMP, n.target.span)
        if n.hook not in self.hooks:
            self.report.error(
                "E124",
                f"unknown hook '{n.hook}'",
                n.hook_span or n.span,
                did_you_mean(n.hook, self.hooks) or "declare it under a component type's `hooks:`",
            )
            return None
        info = self.hooks[n.hook]
        if len(info.params) != len(n.args):
            self.report.error(
                "E105",
                f"hook '{n.hook}' takes {len(info.params)} argument(s), got {len(n.args)}",
                n.span,
                f"run c.{n.hook}({', '.join(info.params)})",
            )
            return None
        args = []
        for name, x in zip(info.params, n.args, strict=True):
            src, t = self.ex.code(x, scope)
            self.ex.expect(t, info.types.get(name, ANY), x.span)
            args.append(src)
        return info, target, args

    def _Emit(self, out: Lines, depth: int, n: ast.Emit, scope: Scope, mode: str) -> None:
        self.emitted.add(n.event)
        kwargs = [(k, self.ex.code(v, scope)[0]) for k, v in n.kwargs]
        base = "{" + ", ".join(f"{k!r}: {v}" for k, v in kwargs) + "}"
        watched = self.ex.helper(support.watched)
        if not self.suspension.triggers.get(n.event):
            # nothing listens: the arguments are only evaluated for a watching tool (scenarios)
            me = "v_me" if mode == PY else "L.get('me')"
            out.add(depth, f"if rt.watch is not None: {watched}(rt, {n.event!r}, {me}, {base})", n.span)
            return
        me = (
            "(v_me if v_me is not None else S['t']['active'])"
            if mode == PY
            else "L.get('me', S['t']['active'])"
        )
        out.add(depth, f"for _b, _f, _l in X_{n.event}(rt, {me}, {base}): _f(rt, _l)", n.span)

    # -- writes
    def zone(self, node: ast.Expr, scope: Scope) -> str:
        src, t = self.ex.code(node, scope)
        if t not in (ZONE, ANY):
            self.report.error(
                "T006",
                f"expected a zone, found {a(t)}",
                node.span,
                f"zones: {', '.join(sorted(self.g.zones)[:8])}",
            )
        return src

    def template(self, text: str, scope: Scope, span: Span) -> tuple[list[Any], list[str]]:
        """Literal parts and `(type,)` markers for `{expr}` parts, with the sources of those parts."""
        from tabula.interpreter.dsl.parser import PlainOrigin, parse_template

        parts: list[Any] = []
        values: list[str] = []
        origin = PlainOrigin(span.file, span.line, span.col + 1)  # inside the opening quote
        for part in parse_template(text, origin, self.report):
            if isinstance(part, str):
                parts.append(part)
            else:
                src, t = self.ex.code(part, scope)
                parts.append((t,))
                values.append(src)
        return parts, values

    def writer(self, target: ast.Expr, scope: Scope) -> tuple[str, str, str, int | None, int | None] | None:
        """(container source, index source, description, min, max) for a writable target; for a
        Python local, (the local's name, "", description, None, None)."""
        g = self.g
        ex = self.ex
        if isinstance(target, ast.Name) and target.id in scope.py and target.id not in scope.known:
            return f"v_{target.id}", "", f"'{target.id}'", None, None
        if isinstance(target, ast.Name) and target.id in scope.locals:
            return "L", repr(target.id), f"'{target.id}'", None, None
        if isinstance(target, ast.Call) and not isinstance(target.func, ast.Name):
            self.report.error("E110", "this cannot be changed", target.span)
            return None
        name = _target_name(target)
        if name in g.counters and isinstance(target, (ast.Call, ast.Name)):
            idx = ex.counter_index_code(name, target, scope)
            if idx is None:
                return None
            c = g.counters[name]
            return self.ex.bind("C"), idx, f"counter '{name}'", c.min, c.max
        if name in g.vars:
            if not g.vars[name].per_player:
                return "S['v']", repr(name), f"'{name}'", None, None
            if not isinstance(target, ast.Call) or len(target.args) != 1:
                self.report.error("E105", f"'{name}' is kept per player: write {name}(p)", target.span)
                return None
            return ex.bind("pv_" + name), ex.code(target.args[0], scope)[0], f"'{name}'", None, None
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
                ex.bind("m_" + target.name),
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
        hint = did_you_mean(name, [*g.counters, *g.vars, *scope.locals, *scope.py]) if name else None
        self.report.error(
            "E110",
            "this cannot be changed: expected a counter, a var, a mark or a local",
            target.span,
            hint or "declare it under 'counters:' or 'vars:'",
        )
        return None

    def write(
        self, out: Lines, depth: int, span: Span, target: ast.Expr, value: ast.Expr, op: str, scope: Scope
    ) -> None:
        """`set` / `gain` / `pay`: read, check the amount and the bounds, write."""
        w = self.writer(target, scope)
        v, t = self.ex.code(value, scope)
        if op != "=":
            self.ex.expect(t, INT, value.span)
        if w is None:
            return
        box, index, what, lo, hi = w
        if index == "":  # a Python local
            cur = box
            slot = box
        else:
            i = self.tmp()
            if not (is_literal(index) or index.isidentifier()):
                out.add(depth, f"{i} = {index}", span)
                index = i
            cur = f"{box}[{index}]"
            slot = cur
        local = index == "" or box == "L"  # functions cannot see locals: nothing to forget
        if op == "=":
            saved = index != "" and lo is None and hi is None and not what.startswith("counter")
            out.add(depth, f"{slot} = {self.kept(v, t, saved, box, index)}", span)
            self.kept_after(out, depth, span, slot, v, t, saved)
            if not local:
                self.written(out, depth)
            return
        val, new = self.tmp(), self.tmp()
        out.add(depth, f"{val} = {v}", span)
        sign = "+" if op in ("+=", "gain") else "-"
        out.add(depth, f"{new} = {cur} {sign} {val}", span)
        checks = [f"{val}.__class__ is not int"]
        lit = literal(v)
        if isinstance(lit, int) and not isinstance(lit, bool) and lit >= 0:
            checks = []  # a literal amount: its type and sign are known
        elif op in ("gain", "pay"):
            checks.append(f"{val} < 0")
        if checks:  # an amount that may be large: the sum's digits bounded (budget.SMALL)
            checks.append(f"not -{budget.SMALL} < {new} < {budget.SMALL}")
        if lo is not None:
            checks.append(f"{new} < {lo}")
        if hi is not None:
            checks.append(f"{new} > {hi}")
        if checks:
            fail = self.ex.helper(support.write_failure)
            out.add(
                depth, f"if {' or '.join(checks)}: {fail}({what!r}, {op!r}, {cur}, {val}, {lo}, {hi})", span
            )
        out.add(depth, f"{slot} = {new}", span)
        if not local:
            self.written(out, depth)

    def kept(self, src: str, t: str, saved: bool, box: str = "", key: str = "") -> str:
        """The source of a value stored where it stays: in the state (`saved`: a var, a mark, a
        local or an argument its frame keeps) or in a Python local or a counter. Wrapped in
        `budget.stored` when it may be a large list, text or map (stored at `box[key]`, whose value
        it replaces; none: a new frame's local): the state is measured against its totals."""
        if not saved or t in (INT, static.BOOL, NONE, COMP, PLAYER, ZONE) or _light_literal(src):
            return src
        if box and t in _MEASURED_AFTER:  # checked once stored (kept_number), without a call
            return src
        return f"{self.ex.helper(budget.stored)}(rt, {src}{f', {box}, {key}' if box else ''})"

    def kept_after(
        self, out: Lines, depth: int, span: Span, slot: str, src: str, t: str, saved: bool
    ) -> None:
        """After a value (`src`, of static type `t`) is stored into `slot`: a number's digits
        bounded, and the state measured when a number, a text or a list of components or players
        is large (`saved`: the slot is part of the state)."""
        if _light_literal(src):
            return
        if t in _MEASURED_AFTER and saved:  # a text, or a list of components or players
            cls = self.ex.inject(str, "str_class") if t == static.STR else "list"
            check = f"{self.ex.helper(budget.measured)}(rt, {slot})"
            out.add(depth, f"if {slot}.__class__ is {cls} and len({slot}) > {budget.LIGHT}: {check}", span)
        if t != INT or (not saved and src.isidentifier()):
            return
        check = self.ex.helper(budget.number_kept if saved else budget.number_stored)
        check = f"{check}(rt, {slot})"
        out.add(depth, f"if not -{budget.SMALL} < {slot} < {budget.SMALL}: {check}", span)

    def counter_write(self, out: Lines, depth: int, n: ast.Gain | ast.Pay, scope: Scope, op: str) -> None:
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
        name = _target_name(n.target)
        if name not in self.g.counters:
            self.ex.code(n.amount, scope)  # its own mistakes are reported too
            example = next(iter(self.g.counters), "score")
            self.report.error(
                "E112",
                f"'{op}' needs a counter, e.g. {example}",
                n.target.span,
                did_you_mean(name, self.g.counters) if name else None,
            )
            return
        self.write(out, depth, n.span, n.target, n.amount, op, scope)


_MEASURED_AFTER = (static.STR, list_of(COMP), list_of(PLAYER))
"""Static types whose stores are measured after the value is in its slot, by two inline tests (a
list of components or players holds small numbers only: its size is its length)."""


def _light_literal(src: str) -> bool:
    """A literal value too small to measure against the state's totals (budget.stored)."""
    if not is_literal(src):
        return False
    v = literal(src)
    if isinstance(v, int) and not isinstance(v, bool):
        return -budget.SMALL < v < budget.SMALL
    if isinstance(v, list):
        return len(v) <= budget.LIGHT and budget.plain(v)
    return not isinstance(v, (str, dict)) or len(v) <= budget.LIGHT


def _target_name(node: ast.Expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id
    return ""
