"""Where an indentation error in DSL text is: lark's indenter tokens borrow the position of the
newline before the line, and its DedentError says no position at all (parser.py reports both)."""

from __future__ import annotations

import re
from typing import Any


def indented_line(tok: Any, text: str, line: int, col: int) -> tuple[int, int, int | None]:
    """The line whose indentation changes, its first character's column and offset: the token
    itself borrows the position of the newline that ends the line before."""
    start = tok.start_pos
    if start is None:
        return line, col, None
    gap = _BLANK.match(text, start)
    at = gap.end() if gap else start
    first = text.count("\n", 0, at) + 1
    return first, at - (text.rfind("\n", 0, at) + 1) + 1, at


_BLANK = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*")


def stray_dedent(text: str) -> tuple[int, int, int]:
    """The first line indented less than the line before it, to no enclosing block's column: its
    line, column and offset (lark's DedentError says neither)."""
    levels, at = [0], 0
    for number, raw in enumerate(text.split("\n"), 1):
        body = raw.lstrip(" ")
        indent = len(raw) - len(body)
        if body and not body.startswith("#"):
            if indent > levels[-1]:
                levels.append(indent)
            while indent < levels[-1]:
                levels.pop()
            if indent != levels[-1]:
                return number, indent + 1, at + indent
        at += len(raw) + 1
    return 1, 1, 0
