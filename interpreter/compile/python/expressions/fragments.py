"""Facts about fragments of generated Python source: literal values, cost, conjuncts, names read.

Stage: compile. The expression compiler (exprs.py and its parts) produces a fragment of Python
source and its static type for each DSL expression (`Code`); composing fragments, it asks these
questions of them: is it a literal (constant folding), can it be evaluated twice (inlining,
hoisting), what are its `and`-operands, does it read a loop's variable. Each answer is read off the
text itself (`ast.literal_eval`, `ast.parse`), so these helpers depend on nothing but the standard
library.
"""

from __future__ import annotations

import ast as pyast
from typing import Any

Code = tuple[str, str]  # (python source, static type)
NO_VALUE = object()  # what `literal` gives for a fragment that is not a literal


def literal(src: str) -> Any:
    """The value of a Python literal source fragment, or NO_VALUE."""
    if not src or src[0] not in "-0123456789'\"TFN([":
        return NO_VALUE
    try:
        return pyast.literal_eval(src)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return NO_VALUE


def is_literal(src: str) -> bool:
    return literal(src) is not NO_VALUE


def is_simple(src: str) -> bool:
    """A fragment cheap and safe to evaluate more than once (a name, a local, a literal)."""
    return src.isidentifier() or is_literal(src) or (src.startswith("L[") and src.count("[") == 1)


_CHEAP_NODES = (
    pyast.Name,
    pyast.Constant,
    pyast.Subscript,
    pyast.Load,
    pyast.BinOp,
    pyast.Add,
    pyast.Sub,
    pyast.UnaryOp,
    pyast.USub,
    pyast.Expression,
)
_cheap: dict[str, bool] = {}


def is_cheap(src: str) -> bool:
    """A fragment cheap enough to evaluate twice: names, literals, subscripts and sums of them."""
    if is_simple(src):
        return True
    if src not in _cheap:
        try:
            nodes = list(pyast.walk(pyast.parse(src, mode="eval")))
            _cheap[src] = len(nodes) <= 14 and all(isinstance(x, _CHEAP_NODES) for x in nodes)
        except SyntaxError:
            _cheap[src] = False
    return _cheap[src]


def split_and(src: str) -> list[str]:
    """The top-level `and` operands of a generated condition (itself when it is not an `and`)."""
    try:
        tree = pyast.parse(src, mode="eval").body
    except SyntaxError:
        return [src]
    if not (isinstance(tree, pyast.BoolOp) and isinstance(tree.op, pyast.And)):
        return [src]
    out: list[str] = []
    for v in tree.values:
        out.extend(split_and(f"({pyast.unparse(v)})"))  # parenthesised: operands are joined again
    return out


def mentions(src: str, names: set[str]) -> bool:
    """Does a generated fragment read any of these Python names?"""
    try:
        return any(
            isinstance(x, pyast.Name) and x.id in names for x in pyast.walk(pyast.parse(src, mode="eval"))
        )
    except SyntaxError:
        return True
