"""`simultaneous q in L:` - every player of L answers the body's questions in secret.

Stage: check + compile (the Python target). The step is a resumable loop over the players (the
resumable `for` of machines.py) between `sim_open` and `sim_close` (run/simultaneous.py), each
iteration opened by `sim_turn`: the players are asked in the order of L, each answer stays hidden
from the others, and the answers are revealed together when the last player is done. For that to
be faithful the body is checked here (E127, located): it asks at least one question, every
question is `choose ... by q` (no window, no procedure or event that may ask someone), and it
writes no local from outside the step, which would carry one player's answer into the next
player's question. A write of public state that runs only for some answers is warned about
(W007, compile/answer_writes.py): the players still to answer would see it.
"""

from __future__ import annotations

from collections.abc import Iterator

from tabula.interpreter.base.types import PLAYER, Scope, elem
from tabula.interpreter.compile.answer_writes import answer_writes
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.compile.python.statements.machines import Machine, MachineCompiler
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import simultaneous

_HINT = "write: simultaneous q in players:\n    choose c from hand(q) by q\n    move c to picked(q)"


def _walk(stmts: ast.Block | list[ast.Stmt] | None) -> Iterator[ast.Stmt]:
    """Every statement of a block, nested bodies included."""
    for s in stmts or ():
        yield s
        if isinstance(s, ast.If):
            for _, b in s.branches:
                yield from _walk(b)
            yield from _walk(s.otherwise)
        elif isinstance(s, (ast.For, ast.Repeat, ast.While, ast.Simultaneous)):
            yield from _walk(s.body)


class SimultaneousStatements(MachineCompiler):
    """`simultaneous`: the resumable statements and this one (EffectCompiler mixes it in)."""

    def _Simultaneous(self, out: Lines, depth: int, n: ast.Simultaneous, scope: Scope, mode: str) -> None:
        # reached only when the body cannot wait: it asks nobody anything
        self.report.error(
            "E127",
            "a simultaneous step asks each player a question: its body has no 'choose'",
            n.span,
            _HINT,
        )

    def _m_Simultaneous(self, m: Machine, n: ast.Simultaneous, scope: Scope, bid: int) -> None:
        self.sim_check(n, scope)

        def opened(items: str, t: str) -> str:
            self.ex.expect(elem(t), PLAYER, n.iter.span)  # T002: a list of players
            return f"{self.ex.helper(simultaneous.sim_open)}(rt, {items})"

        turn = f"{self.ex.helper(simultaneous.sim_turn)}(rt, L[{n.var!r}])"
        self._m_For(m, ast.For(n.span, n.var, n.iter, None, n.body), scope, bid, opened, turn)
        m.add(f"{self.ex.helper(simultaneous.sim_close)}(rt)", n.span)

    def sim_check(self, n: ast.Simultaneous, scope: Scope) -> None:
        """E127: what the body may do; W007: what it should not show (module docstring)."""
        self.sim_leaks(n)
        outer = set(scope.locals)
        for s in _walk(n.body):
            if isinstance(s, ast.Choose):
                if not (isinstance(s.by, ast.Name) and s.by.id == n.var):
                    self.report.error(
                        "E127",
                        f"in a simultaneous step each player answers their own questions: "
                        f"'choose ... by {n.var}'",
                        (s.by or s).span,
                        _HINT,
                    )
            elif isinstance(s, ast.Simultaneous):
                self.report.error("E127", "a simultaneous step cannot hold another one", s.span, _HINT)
            elif self.suspension.stmt(s) and not isinstance(s, (ast.If, ast.For, ast.Repeat, ast.While)):
                self.report.error(
                    "E127",
                    "in a simultaneous step every question is a 'choose ... by "
                    f"{n.var}': a window, or a procedure or event that may ask someone, is not one",
                    s.span,
                    "ask it after the step, or write the question as a choose in the step",
                )
            elif isinstance(s, ast.Set) and isinstance(s.target, ast.Name) and s.target.id in outer:
                self.report.error(
                    "E127",
                    f"'{s.target.id}' is a local from outside the simultaneous step: writing it would "
                    "show one player's answer to the players asked after them",
                    s.target.span,
                    "keep each answer with its player (a zone only they see), and read the answers "
                    "after the step",
                )

    def sim_leaks(self, n: ast.Simultaneous) -> None:
        """W007 at the first write of public state that depends on an answer, in the step."""
        writes = answer_writes(n.body, n.var)
        if writes:
            self.report.warning(
                "W007",
                "in a simultaneous step this write runs only for some answers: the players still to "
                "answer see it (a zone's size, a counter, a var) before the answers are revealed",
                writes[0].span,
                "mark the component (set c.chosen = true) or keep the answer in a local, and make "
                "the change after the step",
            )
