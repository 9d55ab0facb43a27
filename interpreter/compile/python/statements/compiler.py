"""Check and compile DSL statements (effects) into generated Python functions and resumable blocks.

Stage: check + compile. An effect that can never wait for a decision becomes one Python function:
its statements are Python statements, its locals Python locals (`py` mode) or one dict (`dict` mode,
for triggers and for code that shares locals with a suspended frame). An effect that can wait
(suspend.py decides) becomes a resumable block — a generated state machine (machines.py) registered
in `game.blocks`, where every run of statements that cannot wait is again straight Python.

Blocks are registered in `game.blocks` and referred to by index, so the runtime's frames (plain data in
the state) can name them; every `if`/loop body gets a block id too, even inside a generated function,
because rules coverage counts them (in an instrumented compile the function records its entry).

The statements themselves are compiled by one mixin per family (statements.py says which); this
class joins them and adds the entry points and the few statements of no family (the log, the end).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.types import ANY, INT, NONE, PLAYER, Scope, a, list_of
from tabula.interpreter.compile.python.expressions.fragments import literal
from tabula.interpreter.compile.python.statements.base import DICT, PY
from tabula.interpreter.compile.python.statements.control import ControlStatements
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.compile.python.statements.moves import MoveStatements
from tabula.interpreter.compile.python.statements.simultaneous import SimultaneousStatements
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import support


class EffectCompiler(SimultaneousStatements, MoveStatements, ControlStatements):
    """Turns AST blocks into generated functions and resumable state machines (machines.py)."""

    # ------------------------------------------------------------ blocks and functions
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

    # ------------------------------------------------------------ the log and the game's end
    def _Log(self, out: Lines, depth: int, n: ast.Log, scope: Scope, mode: str) -> None:
        secrets: list[str] = []
        parts, values = self.template(n.text, scope, n.text_span or n.span, secrets)
        data = self.ex.inject(parts, "template")
        masked = "" if all(x == "[]" for x in secrets) else f", [{', '.join(secrets)}]"
        say = self.ex.helper(support.say)
        out.add(depth, f"if rt.log is not None: {say}(rt, {data}, [{', '.join(values)}]{masked})", n.span)

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
