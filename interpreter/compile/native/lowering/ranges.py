"""The numbers native code holds: what a game's data may give it, and the bounds it compares with.

Stage: compile (native). A native number is a 64-bit word whose arithmetic stops native code past
2^62 (SMALL in the C prelude: E_SIZE, and Python runs the decision again, where numbers are
unbounded); NONE (-2^63) and the word above it stand for none and a missing key. A number of the
game's data (a property, a constant, an option, a starting value) outside (-2^62, 2^62) would wrap,
or read as none, in C and give a different game: lowering refuses it (N001 at its use or its
declaration) and Python plays the game. A counter's bound past the range is written as the range's
edge (every native value compares with it as with the bound itself) rather than as a word that wraps.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.compile.native.lowering.ir import Unsupported

SMALL = 1 << 62
HINT = "numbers of the native backend lie within ±2^62: this game runs on the Python backend"


def held(v: Any) -> bool:
    """Whether `v` is a number native code holds as itself (bools and other values: not numbers)."""
    return not isinstance(v, int) or isinstance(v, bool) or -SMALL < v < SMALL


def outside(values: Iterable[Any]) -> Any:
    """The first number of `values` native code cannot hold (None when they all are held)."""
    for v in values:
        if not held(v):
            return v
        if isinstance(v, (list, tuple)):
            inner = outside(v)
            if inner is not None:
                return inner
        elif isinstance(v, dict):
            inner = outside(v.values())
            if inner is not None:
                return inner
    return None


def what(name: str, v: Any) -> str:
    """The N001 message of `name` holding `v`."""
    shown = str(v) if len(str(v)) <= 24 else f"a number of {len(str(abs(v)))} digits"
    return f"{name} holding {shown}, outside the native range of numbers"


def bound(v: int | None) -> int | None:
    """A counter's bound as native code compares with it: past the range, the range's edge (a native
    value lies strictly inside it, so it compares with the edge as with the bound)."""
    return None if v is None else max(-SMALL, min(SMALL, v))


def in_range(values: Any, name: str, span: Span | None) -> None:
    """Unsupported at `span` when `values` hold a number native code cannot hold."""
    bad = outside(values)
    if bad is not None:
        raise Unsupported(what(name, bad), span, HINT)
