"""Scalar origins: positions inside a YAML scalar's text (as the DSL parser sees it) -> positions in
its file (stage: load).

`yamlsource` records a `ScalarOrigin` for every scalar it reads; the compiled game keeps those of
its DSL text, so that an error found while it runs points into the file. This module needs no YAML
library: a game from the compile cache unpickles its origins without importing ruamel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tabula.interpreter.base.source import Span

ScalarStyle = Literal["plain", "single", "double", "literal", "folded"]
# Double-quoted escapes that produce whitespace (or nothing: a backslash before a line break), so
# the alignment skips them like blanks.
_BLANK_ESCAPES = frozenset(" \tnrvfN_LP\n")


@dataclass(frozen=True)
class ScalarOrigin:
    """Where a scalar's content starts in its file, to map DSL positions back to the file.

    `line`/`col` (1-based) are the file position of the first character of the value text:
    after the opening quote for quoted scalars, and on the first line after the `|`/`>` indicator
    at the content indentation for block scalars. `indent` is the block content indentation (in
    spaces) for block scalars, and the 0-based column where the scalar starts for the others.
    `raw` (the file text from column 1 of `line` to the end of the scalar) and `text` (the value
    as the DSL sees it) let `locate` align folded and multi-line scalars; both are optional.
    """

    file: str
    line: int
    col: int
    style: ScalarStyle
    indent: int
    raw: str = field(default="", repr=False, compare=False)
    text: str = field(default="", repr=False, compare=False)

    def locate(self, line: int, col: int) -> tuple[int, int]:
        """Map a 1-based (line, col) inside the value text to a 1-based (line, col) in the file."""
        if self.style == "literal":
            # Literal blocks keep every line verbatim minus the content indentation.
            return self.line + line - 1, self.indent + col
        if self._is_verbatim():
            return self.line + line - 1, (self.col if line == 1 else self.indent + 1) + col - 1
        return self._align(line, col)

    def span(self, line: int, col: int, end_line: int, end_col: int) -> Span:
        """The file span of a region given in value-text coordinates (end exclusive)."""
        start = self.locate(line, col)
        end = self.locate(end_line, end_col)
        if end <= start:
            end = (start[0], start[1] + 1)
        return Span(self.file, start[0], start[1], end[0], end[1])

    def _is_verbatim(self) -> bool:
        """True when the value text is a verbatim copy of one file line (no folding, no escapes)."""
        if not self.raw or not self.text:
            return True  # nothing to align with: fall back to the simple rule
        if self.style == "folded":
            return False
        content = self.raw[self.col - 1 :]
        if self.style in ("single", "double"):
            content = content[:-1]
        return content == self.text

    def _align(self, line: int, col: int) -> tuple[int, int]:
        # Best effort for folded and multi-line scalars: the value and the file hold the same
        # non-blank characters in the same order, only the blanks between them differ.
        offset = _offset_in(self.text, line, col)
        start = 0 if self.style in ("literal", "folded") else self.col - 1
        j = start
        last_value_char, last_raw_end = -1, start
        for i, ch in enumerate(self.text[:offset]):
            if ch.isspace():
                continue
            j = _consume_raw_char(self.raw, _skip_raw_blanks(self.raw, j, self.style), self.style)
            last_value_char, last_raw_end = i, j
        if offset < len(self.text) and not self.text[offset].isspace():
            target = _skip_raw_blanks(self.raw, j, self.style)
        else:
            target = last_raw_end + (offset - last_value_char - 1)
            newline = self.raw.find("\n", last_raw_end, target)
            target = newline if newline >= 0 else target
        target = min(target, len(self.raw))
        line_no = self.line + self.raw.count("\n", 0, target)
        return line_no, target - (self.raw.rfind("\n", 0, target) + 1) + 1


def _offset_in(text: str, line: int, col: int) -> int:
    lines = text.split("\n")
    offset = sum(len(text_line) + 1 for text_line in lines[: max(line - 1, 0)]) + col - 1
    return min(max(offset, 0), len(text))


def _skip_raw_blanks(raw: str, j: int, style: ScalarStyle) -> int:
    while j < len(raw):
        if raw[j] in " \t\r\n":
            j += 1
        elif style == "double" and raw.startswith("\\", j) and raw[j + 1 : j + 2] in _BLANK_ESCAPES:
            j += 2
        else:
            break
    return j


def _consume_raw_char(raw: str, j: int, style: ScalarStyle) -> int:
    if style == "single" and raw.startswith("''", j):
        return j + 2
    if style == "double" and raw.startswith("\\", j) and j + 1 < len(raw):
        return j + {"x": 4, "u": 6, "U": 10}.get(raw[j + 1], 2)
    return j + 1
