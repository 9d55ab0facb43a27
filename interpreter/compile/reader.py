"""The validated game data as the compiler reads it: the value at a YAML path, its position, and
its text parsed as DSL at that position.

Stage: check + compile, independent of the target language. Every section of the game compiler
addresses the data by path tuples (`("actions", name, "when")`); a diagnostic about a value points
at the value's own YAML position, one about a name at its key. A definition's parameters
(`params: [p: player, n]`) and declared names are read and checked here, once for every section.
"""

from __future__ import annotations

import keyword
from typing import Any

from tabula.interpreter.base.source import Report, Span, did_you_mean
from tabula.interpreter.base.types import ANY, VAR_TYPES
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import PlainOrigin, TextOrigin, parse_block, parse_expr
from tabula.interpreter.load.positions import GameSource, span_for

Path_ = tuple[str | int, ...]


class GameReader:
    """Reads one game's validated data; `report` receives every problem found while reading (the
    game compiler swaps it for a throw-away one while it reads what it checks again later)."""

    def __init__(self, source: GameSource, report: Report) -> None:
        self.src = source
        self.data: dict[str, Any] = source.data
        self.report = report

    def span(self, path: Path_) -> Span | None:
        """Where the value at `path` is written (else its nearest ancestor)."""
        return span_for(self.src, path)

    def origin(self, path: Path_) -> TextOrigin:
        """Where each position of the scalar text at `path` is in its file (for parse errors)."""
        origin = self.src.value_origin.get(path)
        if origin is not None:
            return origin  # type: ignore[return-value]
        sp = self.span(path)
        return PlainOrigin(sp.file, sp.line, sp.col) if sp else PlainOrigin()

    def text(self, path: Path_) -> str | None:
        """The scalar at `path` as DSL text (YAML booleans as `true`/`false`); None if absent."""
        node: Any = self.data
        for k in path:
            if isinstance(node, dict) and k in node:
                node = node[k]
                continue
            if not (isinstance(node, list) and isinstance(k, int) and k < len(node)):
                return None
            node = node[k]
        if node is None:
            return None
        if isinstance(node, bool):
            return "true" if node else "false"
        return str(node)

    def expr_at(self, path: Path_) -> ast.Expr | None:
        """The expression written at `path`, parsed at its position (None: absent or broken)."""
        text = self.text(path)
        return None if text is None else parse_expr(text, self.origin(path), self.report)

    def block_at(self, path: Path_) -> ast.Block | None:
        """The effect written at `path`, parsed at its position (None: absent or broken)."""
        text = self.text(path)
        return None if text is None else parse_block(text, self.origin(path), self.report)

    def params(self, path: Path_) -> list[tuple[str, str]]:
        """A definition's parameters as (name, static type): `[p: player, n]`."""
        out: list[tuple[str, str]] = []
        node: Any = self.data
        for k in path:
            node = (node or {}).get(k) if isinstance(node, dict) else None
        for i, entry in enumerate((node or {}).get("params") or []):
            if isinstance(entry, dict):
                for pname, tname in entry.items():
                    t = VAR_TYPES.get(str(tname))
                    if t is None:
                        self.report.error(
                            "E123",
                            f"unknown type '{tname}' for parameter '{pname}'",
                            self.span((*path, "params", i, pname)),
                            did_you_mean(str(tname), VAR_TYPES) or f"types: {', '.join(VAR_TYPES)}",
                        )
                        t = ANY
                    if self.identifier(str(pname), (*path, "params", i)):
                        out.append((str(pname), t))
            elif self.identifier(str(entry), (*path, "params", i)):
                out.append((str(entry), ANY))
        return out

    def identifier(self, name: str, path: Path_) -> bool:
        """Declared names must be DSL names (they become identifiers in generated code)."""
        if name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_"):
            return True
        self.report.error(
            "C005",
            f"{name!r} is not a valid name",
            span_for(self.src, path, key=True) or self.span(path),
            f"'{name}' is a reserved word"
            if keyword.iskeyword(name)
            else "use letters, digits and '_', starting with a letter",
        )
        return False

    def functions(self) -> dict[str, tuple[list[tuple[str, str]], ast.Expr | None, Span | None]]:
        """Every DSL function as (typed parameters, body, where it is declared). A function with
        `let:` names (`let: {n: count(hand(p))}`, `expr: n * n`) becomes a chain of functions, each
        taking one more name as a parameter: `f(p)` is `f__n(p, count(hand(p)))`, whose body is
        `n * n`; so each name's expression is evaluated once per call, in the order written. A let name's
        type is LET: its expression's, inferred where the chain calls it."""
        out: dict[str, tuple[list[tuple[str, str]], ast.Expr | None, Span | None]] = {}
        for name in self.data.get("functions") or {}:
            path: Path_ = ("functions", name)
            typed, span = self.params(path), self.span(path)
            lets = (self.data["functions"][name] or {}).get("let") or {}
            fname = str(name)
            for let in lets:
                value = self.expr_at((*path, "let", let))
                nxt = f"{name}__{let}"
                if not self._let_name(str(let), [p for p, _ in typed], nxt, (*path, "let", let)):
                    continue
                sp = self.span((*path, "let", let)) or span or Span("", 0, 0, 0, 0)
                args = (*(ast.Name(sp, p) for p, _ in typed), value) if value is not None else None
                out[fname] = (
                    list(typed),
                    None if args is None else ast.Call(sp, ast.Name(sp, nxt), args),
                    span,
                )
                typed, fname = [*typed, (str(let), LET)], nxt
            out[fname] = (typed, self.expr_at((*path, "expr")), span)
        return out

    def _let_name(self, let: str, taken: list[str], chained: str, path: Path_) -> bool:
        """A `let:` name is a DSL name, not a parameter's nor an earlier let's, and the function it
        chains to is not declared by the game (E126)."""
        if not self.identifier(let, path):
            return False
        clash = (
            f"'{let}' is already a parameter or a let name of this function"
            if let in taken
            else f"'{chained}' is a function of the game: it is this let's own name"
            if chained in (self.data.get("functions") or {})
            else None
        )
        if clash is not None:
            self.report.error("E126", clash, span_for(self.src, path, key=True), "rename the let name")
            return False
        return True


LET = "=let"
"""The type of a `let:` name among a chained function's parameters (`GameReader.functions`): the
type of the value its caller passes, which the compiler infers (FunctionSlot.inferred)."""


def origin_of(span: Span | None) -> PlainOrigin:
    """The origin of DSL text written at `span` (a key or a list entry that has no scalar origin)."""
    if span is None:
        return PlainOrigin("<game>", 1, 1)
    return PlainOrigin(span.file, span.line, span.col)
