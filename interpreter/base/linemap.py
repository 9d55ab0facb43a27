"""Where a failure inside generated code happened, in the game's own files.

Stage: base (stdlib only). Every generated module of a game (compile/python/module.py) has a file
name of its own and a line table: the DSL statement that each of its generated lines carries out.
It registers here when it is made; when a rule fails while running, the runtime (run/runtime.py)
walks the traceback to the innermost line that some live module maps to a statement
(`span_of_traceback`). The registry sits below both, so the runtime finds the statement without
importing the compiler, and nothing is kept while the game runs.
"""

from __future__ import annotations

import weakref
from types import TracebackType
from typing import Protocol

from tabula.interpreter.base.source import Span


class LineTable(Protocol):
    """A generated module as the traceback walk sees it: its file name and its line table."""

    filename: str
    lines: dict[int, Span]


# live modules by filename: a game loaded twice from one cache entry is two modules of one name
# (equal line tables but for snippets compiled into one of them later), and either may be running
_MODULES: dict[str, weakref.WeakSet[LineTable]] = {}


def register(module: LineTable) -> None:
    """Make a generated module's lines findable from tracebacks (for as long as it lives)."""
    _MODULES.setdefault(module.filename, weakref.WeakSet()).add(module)


def span_of_traceback(tb: TracebackType | None) -> Span | None:
    """The innermost generated line of a traceback that carries out a DSL statement."""
    found: Span | None = None
    while tb is not None:
        for module in list(_MODULES.get(tb.tb_frame.f_code.co_filename, ())):
            span = module.lines.get(tb.tb_lineno)
            if span is not None:
                found = span
                break
        tb = tb.tb_next
    return found
