"""Statements that call: `run` a procedure, `run c.hook(...)`, `emit` an event.

Stage: compile (the Python target). Here the callee cannot wait for a decision: a procedure's
function, a hook's table entry or an event's dispatcher is called in place (machines.py pushes
frames for those that can). A procedure's arguments become its frame's locals, so they are kept in
the state like any stored value (writes.py).
"""

from __future__ import annotations

from tabula.interpreter.base.source import did_you_mean
from tabula.interpreter.base.types import ANY, COMP, Scope
from tabula.interpreter.compile.python.cards import HookInfo
from tabula.interpreter.compile.python.statements.base import PY, ProcInfo
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.compile.python.statements.writes import WriteStatements
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import support


class CallStatements(WriteStatements):
    """`run`, `run c.hook(...)`, `emit` (mixed into EffectCompiler); a call's arguments are stored
    like writes, hence the base class."""

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

    def emit_passes(self, n: ast.Emit) -> None:
        """E105 where a game-wide trigger's `where` reads, at every emit, an argument this emit does
        not pass: the emit could never run (the trigger reads a local it lacks)."""
        given = {k for k, _ in n.kwargs}
        for trig, reads in self.suspension.reads.get(n.event, ()):
            for name in sorted(reads - given):
                self.report.error(
                    "E105",
                    f"trigger '{trig}' reads '{name}' whenever '{n.event}' is emitted, and this emit "
                    "does not pass it",
                    n.span,
                    f"pass it: emit {n.event}(..., {name}=...)",
                )

    def _Emit(self, out: Lines, depth: int, n: ast.Emit, scope: Scope, mode: str) -> None:
        self.emit_passes(n)
        self.emitted.add(n.event)
        kwargs = [(k, self.ex.code(v, scope)[0]) for k, v in n.kwargs]
        base = "{" + ", ".join(f"{k!r}: {v}" for k, v in kwargs) + "}"
        watched = self.ex.helper(support.watched)
        out.add(depth, f"if 'ru' in S: {self.ex.helper(support.end_grants)}(rt, {n.event!r})", n.span)
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
