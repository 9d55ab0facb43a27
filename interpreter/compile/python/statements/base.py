"""What every family of effect statements shares: the compiler's state, block ids, the dispatch
from a statement to its method, and the small helpers of generated code.

Stage: compile (the Python target). `EffectCompiler` (effects.py) is this class with one mixin per
family of statements: writes.py (`let`, `set`, `gain`, `pay`), moves.py (components and units),
control.py (`if` and the loops), calls.py (`run`, hooks, `emit`) and machines.py (what can wait for a
decision). A statement `ast.X` is compiled by the method `_X` of whichever family has it (`_m_X` for
its resumable form), in `mode` PY (locals are Python locals) or DICT (locals are one dict `L`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.base.types import Scope
from tabula.interpreter.compile.python.cards import HookInfo
from tabula.interpreter.compile.python.expressions.compiler import ExprCompiler
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.compile.suspend import Suspension
from tabula.interpreter.dsl import ast

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


class StatementCompiler:
    """The state and helpers every family of statements uses (see the module docstring)."""

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
        self.untils: list[tuple[str, Span]] = []  # `reveal ... until EVENT`: each event, where
        self.action_index = action_index
        self.suspension = suspension
        self.windows = windows
        self.instrument = instrument
        self.dispatchers: dict[str, str] = {}  # event -> name of its generated dispatcher
        self.hooks: dict[str, HookInfo] = {}  # set by the game compiler (cards.py)
        self.closing: set[str] = set()  # the actions with `closes_window` (set by the game compiler)
        # stores into a var whose type has `any` in it of a value that may be a component: var ->
        # (static type, span, the any-typed vars it is made of or None) (compile/python/game.py
        # checks that views can hide them)
        self.any_stores: dict[str, list[tuple[str, Span, frozenset[str] | None]]] = {}
        # every store into a mark whose type has `any` in it, the same way: mark -> stores
        self.mark_stores: dict[str, list[tuple[str, Span, frozenset[str] | None]]] = {}
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

    def unbounded(self, counter: str | None) -> None:
        """Note a counter this statement may write past its min/max: saves hold the others to theirs."""
        if self.g.counters_set is not None and counter is not None:
            self.g.counters_set.add(counter)

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

    def template(
        self, text: str, scope: Scope, span: Span, secrets: list[str] | None = None
    ) -> tuple[list[Any], list[str]]:
        """Literal parts and `(type,)` markers for `{expr}` parts, with the sources of those parts.
        With `secrets`, each part's secret reads are appended to it (`secret_reads`)."""
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
                if secrets is not None:
                    secrets.append(self.secret_reads(part, scope))
        return parts, values

    def secret_reads(self, node: Any, scope: Scope) -> str:
        """Source of a list of (visibility, owner) pairs: the counters and vars that are not public
        which the expression reads directly (`chips(p)`, `note`), and the secret sizes it counts
        (`count(stash(p))`); a log line showing them is masked
        for the players who may not see them. Reads inside called functions are not followed."""
        found: list[str] = []

        def walk(n: Any) -> None:
            size = self.secret_size(n, scope)
            if size is not None:
                found.append(size)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                layout = self.secret_layout(n.func.id, scope)
                if layout is not None:
                    per = getattr(layout, "per_player", False) and n.args
                    owner = self.ex.code(n.args[0], scope)[0] if per else "None"
                    found.append(f"({layout.visibility!r}, {owner})")
                walk(n.args)  # not the name: `chips` in `chips(p)` is read once, with its player
                return
            if isinstance(n, ast.Name):
                layout = self.secret_layout(n.id, scope)
                if layout is not None:
                    found.append(f"({layout.visibility!r}, None)")
            if isinstance(n, tuple | list):
                for x in n:
                    walk(x)
            elif isinstance(n, ast.Node):
                for f in fields(n):
                    walk(getattr(n, f.name))

        walk(node)
        return f"[{', '.join(found)}]"

    def secret_size(self, node: Any, scope: Scope) -> str | None:
        """`count(Z)` of a zone whose size is secret (`size_visibility`): its (visibility, owner) pair."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "count"):
            return None
        if len(node.args) != 1 or "count" in scope.locals:
            return None
        z = node.args[0]
        name = (
            z.func.id if isinstance(z, ast.Call) and isinstance(z.func, ast.Name) else getattr(z, "id", None)
        )
        layout = self.g.zones.get(name) if isinstance(name, str) and name not in scope.locals else None
        if layout is None or layout.size_visibility == "public":
            return None
        owner = "None"
        if layout.per_player and isinstance(z, ast.Call) and z.args:
            owner = self.ex.code(z.args[0], scope)[0]
        return f"({layout.size_visibility!r}, {owner})"

    def secret_layout(self, name: str, scope: Scope) -> Any:
        """The counter or var `name` names here when it is not public (None for a local's name)."""
        if name in scope.locals or name in scope.py or name in scope.known:
            return None
        layout = self.g.counters.get(name) or self.g.vars.get(name)
        return layout if layout is not None and layout.visibility != "public" else None
