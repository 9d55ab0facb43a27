"""Python's exceptions from generated code, in the DSL's words, with a code.

Stage: run. A rule that fails on data its static types could not rule out (an `any` value, a
mapping constant without the key) raises a Python exception in the generated module; the runtime
catches it (the slow path: nothing is checked in advance) and calls `describe` for the message and
its kind (runtime.py gives each kind its code). Python's own text never reaches the author: its
type names become the DSL's (`str` is a text, `int` a number).
"""

from __future__ import annotations

import re
from typing import Any

WRONG_KIND = "wrong kind"
"""A value of the wrong kind for an operation (a text compared with a number, the length of a number)."""
NO_ENTRY = "no entry"
"""A list position or a mapping key that is not there."""
DIVISION = "division"
"""Division by zero."""
TOO_DEEP = "too deep"
"""Functions or effects calling each other past the depth limit."""

_KINDS = {
    "str": "a text",
    "int": "a number",
    "bool": "true/false",
    "NoneType": "none",
    "list": "a list",
    "tuple": "a list",
    "dict": "a mapping",
    "float": "a number",
    "generator": "a list",
    "function": "a function",
}


def kind(python_type: str) -> str:
    """The DSL's name for a Python type name ('str' -> 'a text')."""
    return _KINDS.get(python_type, "a value")


def dsl_text(v: Any, room: int = 60) -> str:
    """A value as the DSL writes it (none, true, 'text', [1, 2]), cut to about `room` characters."""
    if v is None:
        text = "none"
    elif v.__class__ is bool:
        text = "true" if v else "false"
    elif v.__class__ is str:
        text = "'" + v[:room] + "'"
    elif v.__class__ is list:
        text = "[" + ", ".join(dsl_text(x, 12) for x in v[:8]) + (", ...]" if len(v) > 8 else "]")
    elif v.__class__ is int:
        text = str(v) if -(10**room) < v < 10**room else "a large number"
    else:
        text = "a mapping" if v.__class__ is dict else "a value"
    return text if len(text) <= room + 8 else text[:room] + "..."


def typed(v: Any) -> str:
    """A value and its DSL type, for messages: `7 (a number)`, `'three' (a text)`, `none`."""
    if v is None:
        return "none"
    return f"{dsl_text(v)} ({kind(v.__class__.__name__)})"


_Q = r"'(\w+)'"
_TYPE_ERRORS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(rf"'(\S+)' not supported between instances of {_Q} and {_Q}"),
        "'{0}' cannot compare {1} with {2}",
    ),
    (
        re.compile(rf"unsupported operand type\(s\) for (\S+): {_Q} and {_Q}"),
        "'{0}' cannot combine {1} with {2}",
    ),
    (
        re.compile(r"list indices must be integers or slices, not (\w+)"),
        "a list's position must be a number, not {0}",
    ),
    (
        re.compile(rf"object of type {_Q} has no len\(\)"),
        "{0} has no length: count and len need a list or a zone",
    ),
    (re.compile(r"can only concatenate (\w+) \(not \"(\w+)\"\) to \w+"), "'+' cannot join {0} and {1}"),
    (re.compile(rf"can't multiply sequence by non-int of type {_Q}"), "'*' cannot repeat a list by {0}"),
    (re.compile(rf"bad operand type for unary (\S+): {_Q}"), "'{0}' needs a number, not {1}"),
    (re.compile(rf"argument of type {_Q} is not iterable"), "'in' needs a list, not {0}"),
    (re.compile(rf"{_Q} object is not iterable"), "{0} is not a list: it cannot be gone through"),
    (re.compile(rf"{_Q} object is not subscriptable"), "{0} cannot be indexed with [...]"),
    (re.compile(rf"unhashable type: {_Q}"), "{0} cannot be a key of a mapping"),
]
"""Python's TypeError messages and their DSL wording: {n} is the n-th group, a type name as the DSL
says it (an operator as it is)."""


def _type_error(text: str) -> str:
    """A TypeError's message in the DSL's words (the operator and the kinds of the values)."""
    for pattern, template in _TYPE_ERRORS:
        m = pattern.search(text)
        if m is not None:
            return template.format(
                *(g if g in _OPERATORS or not g.isidentifier() else kind(g) for g in m.groups())
            )
    if "NoneType" in text:
        return "a value was none where something else was needed"
    return "a value of the wrong kind for this operation"


_OPERATORS = frozenset(("in", "not", "and", "or"))


def describe(err: Exception) -> tuple[str, str]:
    """The message and the kind of error (WRONG_KIND, ...) for a Python exception raised by a rule."""
    if isinstance(err, RecursionError):
        return "functions call each other too deeply", TOO_DEEP
    if isinstance(err, TypeError):
        return _type_error(str(err)), WRONG_KIND
    if isinstance(err, IndexError):
        return "no such position in the list", NO_ENTRY
    if isinstance(err, KeyError):
        key = err.args[0] if err.args else None
        return f"no entry {dsl_text(key)} in the mapping", NO_ENTRY
    if isinstance(err, ZeroDivisionError):
        return "division by zero", DIVISION
    if isinstance(err, ValueError):
        m = re.search(r"invalid literal for int\(\) with base \d+: (.*)", str(err))
        if m is not None:
            return f"{m[1]} is not a number", WRONG_KIND
        return "a value of the wrong kind for this operation", WRONG_KIND
    if isinstance(err, AttributeError):
        return "a value of the wrong kind for this operation", WRONG_KIND
    return f"the rule failed ({type(err).__name__})", WRONG_KIND
