"""Diagnostics shared by every stage: positions (`Span`), messages (`Diagnostic`), `Report`, rendering.

Stage: none of its own; every stage (YAML loading, schema validation, DSL parsing, checking, the
runtime) reports author mistakes through these types.

Input: spans and messages built by the stages. Output: text in a gcc-like shape with a gutter
snippet and a caret under the offending source, for example::

    gamedefs/x/actions.yaml:42:17: error[E104]: unknown function 'drawcard'
       |
    42 |     effect: drawcard(2)
       |             ^^^^^^^^
       = hint: did you mean 'draw_card'?

Invariants: positions are 1-based; `end_col` is exclusive; the rendered text contains no ANSI
colour codes (a front end may add colour on top), and no control or bidi character from a message or
a file (`base.terminal.safe` shows them escaped). Rendering never raises: when a file cannot be
read, only the first line and the hint are printed.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tabula.interpreter.base.terminal import safe

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Span:
    """A region of a source file: 1-based lines and columns, `end_col` exclusive.

    A point is written with `end_line == line` and `end_col == col + 1`.
    """

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @classmethod
    def point(cls, file: str, line: int, col: int) -> Span:
        """The one-character span at `line`:`col`."""
        return cls(file, line, col, line, col + 1)


@dataclass(frozen=True)
class Diagnostic:
    """One message for a game author: severity, a stable code (`Y001`, `S002`, ...), where, and a hint."""

    severity: Severity
    code: str
    message: str
    span: Span | None
    hint: str | None = None


class Report:
    """Collects every diagnostic of a stage so that all problems are shown at once."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def add(self, diagnostic: Diagnostic) -> Diagnostic:
        """Record an already built diagnostic and return it."""
        self.diagnostics.append(diagnostic)
        return diagnostic

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> Diagnostic:
        """Record an error: the game cannot be used until it is fixed."""
        return self.add(Diagnostic("error", code, message, span, hint))

    def warning(self, code: str, message: str, span: Span | None, hint: str | None = None) -> Diagnostic:
        """Record a warning: probably a mistake, but the game can still run."""
        return self.add(Diagnostic("warning", code, message, span, hint))

    def extend(self, other: Report) -> None:
        """Append every diagnostic of `other`, keeping their order."""
        self.diagnostics.extend(other.diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity error, in the order they were reported."""
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        """The diagnostics of severity warning, in the order they were reported."""
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def has_errors(self) -> bool:
        """True when at least one error was reported."""
        return any(d.severity == "error" for d in self.diagnostics)

    def raise_if_errors(self) -> None:
        """Stop the pipeline between stages: raise `AuthorError` carrying this report if it has errors."""
        if self.has_errors:
            raise AuthorError(self)


class AuthorError(Exception):
    """A game definition (or scenario) has errors; `str()` is the full rendered report."""

    def __init__(self, report: Report) -> None:
        super().__init__(render_report(report))
        self.report = report


# ---------------------------------------------------------------------------------------------
# Source text cache
# ---------------------------------------------------------------------------------------------

# Rendering many diagnostics for one file must not re-read it each time. Stages that already hold
# the text (the YAML loader) register it so the snippet shows exactly what was parsed. Entries are
# keyed by absolute path and checked against the file's mtime and size, so a relative name reused
# in another directory, or a file edited since, is never shown stale.
_Signature = tuple[int, int] | None
_source_lines: dict[str, tuple[_Signature, list[str] | None]] = {}
# The line breaks YAML parsers count (ruamel also counts NEL, LS and PS), so line numbers agree.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _cache_key(file: str) -> str:
    try:
        return str(Path(file).resolve())
    except (OSError, RuntimeError):
        return file


def _signature(key: str) -> _Signature:
    try:
        stat = os.stat(key)
    except (OSError, ValueError):
        return None
    return (stat.st_mtime_ns, stat.st_size)


def split_lines(text: str) -> list[str]:
    """The lines of `text`, split at the line breaks YAML counts (a final line break ends the last line)."""
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def register_source(file: str, text: str) -> None:
    """Remember the text of `file` (as named in spans) for rendering snippets."""
    key = _cache_key(file)
    _source_lines[key] = (_signature(key), split_lines(text))


def span_text(span: Span) -> str:
    """The source text a span covers (its first line only, with '...' if it goes on)."""
    lines = _lines_of(span.file)
    if not lines or not 1 <= span.line <= len(lines):
        return ""
    line = lines[span.line - 1]
    if span.end_line == span.line:
        return line[span.col - 1 : span.end_col - 1]
    return line[span.col - 1 :].rstrip() + " ..."


def clear_source_cache() -> None:
    """Forget cached file contents."""
    _source_lines.clear()


def _lines_of(file: str) -> list[str] | None:
    key = _cache_key(file)
    signature = _signature(key)
    cached = _source_lines.get(key)
    if cached is not None and (cached[0] == signature or signature is None):
        # Unchanged on disk, or registered text for a name that is not a file (e.g. "<string>").
        return cached[1]
    try:
        lines: list[str] | None = split_lines(Path(key).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        lines = None
    _source_lines[key] = (signature, lines)
    return lines


def _source_line(span: Span) -> str | None:
    lines = _lines_of(span.file)
    if lines is None or span.line < 1:
        return None
    if span.line <= len(lines):
        return lines[span.line - 1]
    # Parsers report "unexpected end of file" one line past the last one; show it as empty.
    if span.line == len(lines) + 1:
        return ""
    return None


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------


def _headline(d: Diagnostic) -> str:
    where = f"{safe(d.span.file)}:{d.span.line}:{d.span.col}: " if d.span is not None else ""
    return f"{where}{d.severity}[{d.code}]: {safe(d.message)}"


def _caret_line(text: str, span: Span) -> str:
    start = max(span.col, 1)
    # A span running onto later lines is underlined to the end of its first line.
    end = span.end_col if span.end_line == span.line else max(len(text) + 1, start + 1)
    # Columns count the source's characters; the line is shown with its control characters escaped,
    # so the caret is as wide as what each character is shown as.
    covered = text[start - 1 : end - 1]
    width = max(len(safe(covered, lines=True)) + end - start - len(covered), 1)
    # Copy tabs from the source so the caret lines up whatever the terminal's tab width.
    prefix = "".join(ch if ch == "\t" else " " * len(safe(ch)) for ch in text[: start - 1])
    prefix += " " * max(start - 1 - len(text), 0)
    return prefix + "^" * width


def render(d: Diagnostic) -> str:
    """Render one diagnostic: headline, gutter snippet with a caret (when the file is readable), hint."""
    out = [_headline(d)]
    text = _source_line(d.span) if d.span is not None else None
    width = len(str(d.span.line)) if d.span is not None else 1
    pad = " " * (width + 1)
    if d.span is not None and text is not None:
        out.append(f"{pad}|")
        shown = safe(text, lines=True)  # a line of the file, written by whoever wrote the game
        out.append(f"{d.span.line:>{width}} | {shown}" if text else f"{d.span.line:>{width}} |")
        out.append(f"{pad}| {_caret_line(text, d.span)}")
    if d.hint:
        out.append(f"{pad}= hint: {safe(d.hint)}")
    return "\n".join(out)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def render_report(report: Report) -> str:
    """Render every diagnostic (errors first, then warnings) and a summary line like `2 errors, 1 warning`."""
    errors, warnings = report.errors, report.warnings
    blocks = [render(d) for d in [*errors, *warnings]]
    blocks.append(f"{_plural(len(errors), 'error')}, {_plural(len(warnings), 'warning')}")
    return "\n\n".join(blocks)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """`"did you mean 'x'?"` for the closest candidate to a misspelt `name`, or None if none is close."""
    matches = difflib.get_close_matches(name, list(candidates), n=1)
    return f"did you mean '{matches[0]}'?" if matches else None
