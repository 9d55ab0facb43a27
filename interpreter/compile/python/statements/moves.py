"""Statements that move components or units: `take`, `move`, `draw`, `shuffle`, `reveal`, `conceal`.

Stage: compile (the Python target). Each is one call of a run-time support function (run/support.py)
on zones or components checked here; `take` moves units between two counters in place.
"""

from __future__ import annotations

from tabula.interpreter.base.source import Span, did_you_mean
from tabula.interpreter.base.types import ANY, COMP, INT, NONE, PLAYER, ZONE, Scope, a, list_of
from tabula.interpreter.compile.python.statements.base import StatementCompiler
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.compile.python.statements.writes import target_name
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import support


class MoveStatements(StatementCompiler):
    """`take`, `move`, `draw`, `shuffle`, `reveal`, `conceal` (mixed into EffectCompiler)."""

    def _Take(self, out: Lines, depth: int, n: ast.Take, scope: Scope, mode: str) -> None:
        amount, _ = self.ex.code(n.amount, scope)
        ends = []
        for node in (n.source, n.dest):
            name = target_name(node)
            if name not in self.g.counters:
                self.report.error(
                    "E112",
                    "'take' moves units between counters",
                    node.span,
                    did_you_mean(name, self.g.counters) if name else None,
                )
                return
            self.ex.used.add(name)  # a counter only `take` touches is used (no W001)
            idx = self.ex.counter_index_code(name, node, scope)  # type: ignore[arg-type]
            if idx is None:
                return
            ends.append(idx)
            self.unbounded(name)  # the source may fall below its min, the destination pass its max
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
        if n.until is not None:
            self.reveal_until(out, depth, n, scope)
            return
        if n.to is None:
            self.reveal(out, depth, n.what, n.span, scope, 1)
            return
        self.grant(out, depth, n, n.what, n.to, scope)

    def _Hide(self, out: Lines, depth: int, n: ast.Hide, scope: Scope, mode: str) -> None:
        self.grant(out, depth, n, n.what, n.who, scope)

    def grant(self, out: Lines, depth: int, n: ast.Stmt, what: ast.Expr, who: ast.Expr, scope: Scope) -> None:
        """`reveal X to P` (a grant to P) or `hide X from P` (P's grant ended, support.hide_from)."""
        f = support.hide_from if isinstance(n, ast.Hide) else support.reveal_to
        words = "'hide ... from'" if isinstance(n, ast.Hide) else "'reveal ... to'"
        out.add(
            depth,
            f"{self.ex.helper(f)}(rt, {self.shown(what, scope)}, {self.players(who, words, scope)})",
            n.span,
        )
        self.written(out, depth)

    def reveal_until(self, out: Lines, depth: int, n: ast.Reveal, scope: Scope) -> None:
        """`reveal X [to P] until EVENT` (support.reveal_until); EVENT is checked once the whole
        game is compiled (`self.untils`: an event the game emits, or `turn_end` / `round_end`)."""
        to = "None" if n.to is None else self.players(n.to, "'reveal ... to'", scope)
        self.untils.append((str(n.until), n.span))
        f = self.ex.helper(support.reveal_until)
        out.add(depth, f"{f}(rt, {self.shown(n.what, scope)}, {to}, {n.until!r})", n.span)
        self.written(out, depth)

    def shown(self, what: ast.Expr, scope: Scope) -> str:
        """Source of the components a `reveal`, `conceal` or `hide` shows or hides (a zone: its list)."""
        src, t = self.ex.code(what, scope)
        return f"{self.ex.bind('Z')}[{src}]" if t == ZONE else src

    def players(self, who: ast.Expr, words: str, scope: Scope) -> str:
        """Source of a player or a list of players (T008 for anything else)."""
        to, tt = self.ex.code(who, scope)
        if tt not in (ANY, PLAYER, INT, list_of(PLAYER), list_of(INT), list_of(ANY)):
            self.report.error("T008", f"{words} needs a player or a list of players, found {a(tt)}", who.span)
        return to

    def _Conceal(self, out: Lines, depth: int, n: ast.Conceal, scope: Scope, mode: str) -> None:
        self.reveal(out, depth, n.what, n.span, scope, 0)

    def reveal(self, out: Lines, depth: int, what: ast.Expr, span: Span, scope: Scope, value: int) -> None:
        out.add(depth, f"{self.ex.helper(support.reveal)}(rt, {self.shown(what, scope)}, {value})", span)
        self.written(out, depth)

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
