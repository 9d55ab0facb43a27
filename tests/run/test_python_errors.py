"""Python's exceptions from rules, in the DSL's words with a code (run/pyerrors.py, issue 26 item 6)."""

from __future__ import annotations

import pytest

from tabula.interpreter.run.pyerrors import describe


@pytest.mark.parametrize(
    ("err", "message", "kind"),
    [
        (
            TypeError("'>=' not supported between instances of 'str' and 'int'"),
            "'>=' cannot compare a text with a number",
            "wrong kind",
        ),
        (
            TypeError("list indices must be integers or slices, not str"),
            "a list's position must be a number, not a text",
            "wrong kind",
        ),
        (
            TypeError("object of type 'int' has no len()"),
            "a number has no length: count and len need a list or a zone",
            "wrong kind",
        ),
        (
            ValueError("invalid literal for int() with base 10: 'twenty'"),
            "'twenty' is not a number",
            "wrong kind",
        ),
        (KeyError("zz"), "no entry 'zz' in the mapping", "no entry"),
        (RecursionError(), "functions call each other too deeply", "too deep"),
        (ZeroDivisionError(), "division by zero", "division"),
    ],
)
def test_python_errors_speak_the_dsl(err: Exception, message: str, kind: str) -> None:
    assert describe(err) == (message, kind)
