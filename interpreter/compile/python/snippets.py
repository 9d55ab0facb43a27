"""Extra DSL text compiled against a compiled game's names: scenario assertions and writes, tools.

Stage: compile, on demand, after the game itself was compiled (also for a game loaded from the compile
cache: the compilers are kept with it). The parser is imported only when a snippet is compiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabula.interpreter.base.source import Report
from tabula.interpreter.base.types import Scope
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import Closure

if TYPE_CHECKING:
    from tabula.interpreter.compile.python.expressions.compiler import ExprCompiler
    from tabula.interpreter.compile.python.statements.compiler import EffectCompiler
    from tabula.interpreter.dsl.parser import TextOrigin


class Snippets:
    """Compiles extra DSL text (scenario assertions, `given` writes) against a compiled game's names."""

    def __init__(self, ex: ExprCompiler, sc: EffectCompiler) -> None:
        self.ex = ex
        self.sc = sc

    def expr(
        self, text: str, origin: TextOrigin, report: Report, local_types: dict[str, str]
    ) -> Closure | None:
        typed = self.expr_typed(text, origin, report, local_types)
        return None if typed is None else typed[0]

    def expr_typed(
        self, text: str, origin: TextOrigin, report: Report, local_types: dict[str, str]
    ) -> tuple[Closure, str] | None:
        """`expr`, with the expression's static type."""
        from tabula.interpreter.dsl.parser import parse_expr

        node = parse_expr(text, origin, report)
        if node is None:
            return None
        self.ex.report = report
        self.sc.report = report
        return self.ex.expr(node, Scope(dict(local_types)))

    def compare_parts(
        self, text: str, origin: TextOrigin, report: Report, local_types: dict[str, str]
    ) -> tuple[tuple[Closure, str], tuple[Closure, str]] | None:
        """For `a OP b`, typed closures for both sides (to show both values when an assertion fails)."""
        from tabula.interpreter.dsl.parser import parse_expr

        node = parse_expr(text, origin, report)
        if not isinstance(node, ast.Compare):
            return None
        self.ex.report = report
        scope = Scope(dict(local_types))
        return self.ex.expr(node.left, scope), self.ex.expr(node.right, scope)

    def block(self, text: str, origin: TextOrigin, report: Report, local_types: dict[str, str]) -> int | None:
        from tabula.interpreter.dsl.parser import parse_block

        stmts = parse_block(text, origin, report)
        if stmts is None:
            return None
        self.ex.report = report
        self.sc.report = report
        return self.sc.block(stmts, Scope(dict(local_types)))
