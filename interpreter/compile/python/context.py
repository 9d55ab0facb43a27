"""What the sections of the game compiler share: the game's data, the game being built, the
expression and effect compilers and the generated module.

Stage: check + compile (the Python target). The driver (game.py) makes one `GameContext` once the
layouts are built and the expression compiler exists, and sets its effect compiler once the
procedures, hooks and windows are known; each section (abilities.py, actions.py, triggers.py,
flow.py, ending.py, cards.py) compiles its part of the data through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tabula.interpreter.base.source import Report
from tabula.interpreter.base.types import Scope
from tabula.interpreter.compile.layout import InstanceIds
from tabula.interpreter.compile.python.expressions.compiler import ExprCompiler
from tabula.interpreter.compile.python.module import GenModule
from tabula.interpreter.compile.python.statements.compiler import EffectCompiler
from tabula.interpreter.compile.reader import GameReader, Path_
from tabula.interpreter.dsl import ast
from tabula.interpreter.load.positions import span_for
from tabula.interpreter.model.game import Closure, CompiledGame


class GameContext:
    """One game's compilation state, shared by the sections of the game compiler."""

    sc: EffectCompiler
    """The effect compiler: set by the driver before the first effect is compiled."""

    def __init__(
        self, read: GameReader, g: CompiledGame, instance_ids: InstanceIds, ex: ExprCompiler, mod: GenModule
    ) -> None:
        self.read = read
        self.g = g
        self.instance_ids = instance_ids
        self.ex = ex
        self.mod = mod

    @contextmanager
    def muted(self, reading: bool = False) -> Iterator[None]:
        """Compile again what was checked (and reported) already: the expression compiler's
        diagnostics, and with `reading` the parser's too, go to a report that is thrown away."""
        saved_ex, saved_read, saved_loud = self.ex.report, self.read.report, self.ex.loud
        quiet = Report()
        self.ex.report = quiet
        self.ex.loud = saved_loud or saved_ex  # a function is compiled once: its diagnostics count
        if reading:
            self.read.report = quiet
        try:
            yield
        finally:
            self.ex.report = saved_ex
            self.read.report = saved_read
            self.ex.loud = saved_loud

    def compile_expr(self, path: Path_, scope: Scope) -> Closure | None:
        """The closure of the expression at `path` (None: absent, or broken and reported)."""
        node = self.read.expr_at(path)
        return None if node is None else self.ex.expr(node, scope)[0]

    def compile_cond(self, path: Path_, scope: Scope) -> Closure | None:
        """The closure of the condition at `path` (None: absent, or broken and reported)."""
        node = self.read.expr_at(path)
        return None if node is None else self.ex.cond(node, scope)

    def name_block(self, block: int | None, kind: str, name: str, path: Path_) -> None:
        """Remember what a block is, for rules coverage."""
        if block is None:
            return
        self.g.block_names[block] = (kind, name)
        span = span_for(self.read.src, path, key=True) or self.read.span(path)
        if span is not None:
            self.g.block_spans[block] = span

    def compile_entry(
        self,
        path: Path_,
        types: dict[str, str],
        where: str,
        args: list[str] | None,
        tail: list[Any] | None = None,
        fn_name: str | None = None,
        stmts: ast.Block | None = None,
    ) -> int | None:
        """The block of an effect at `path` (see EffectCompiler.entry): `types` are its locals, `args`
        the frame locals given as Python parameters (None: locals stay a dict)."""
        if stmts is None:
            stmts = self.read.block_at(path)
        if stmts is None and tail is None:
            return None
        scope = Scope(dict(types), where) if args is None else Scope({}, where, dict(types))
        bid, _ = self.sc.entry(stmts or (), scope, args, fn_name, tail)
        return bid
