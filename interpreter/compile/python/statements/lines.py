"""Lines of generated Python source, each optionally tagged with the DSL statement it carries out.

Stage: compile (the Python target). The effect compiler writes a generated function's body into one
`Lines`, and a resumable effect (machines.py) writes each of its pieces into one; the tags become
the generated module's line table, so a run-time error points at the DSL statement.
"""

from __future__ import annotations

from tabula.interpreter.base.source import Span


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
