"""Lowering a function's result expression into statements (compile/lowering.py): the same value,
the same work charged, the same calls in the same order, for every input."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tabula.interpreter.compile.python.expressions.lowering import lower


class _Rt:
    budget = 1000


def _each(rt: _Rt, xs: list[Any]) -> list[Any]:
    rt.budget -= len(xs)
    return xs


def _run(body: str, env: dict[str, Any]) -> tuple[Any, int, list[Any]]:
    """The value of a function with this body, the budget left and the calls of `seen` made."""
    rt = _Rt()
    calls: list[Any] = []

    def seen(x: Any) -> Any:
        calls.append(x)
        return x

    ns: dict[str, Any] = {"each": _each, "seen": seen, **env}
    exec(f"def f(rt, a, b, xs):\n{body}", ns)
    return ns["f"](rt, env["a"], env["b"], env["xs"]), rt.budget, calls


CASES = [
    "next((True for x in each(rt, xs) if seen(x) > a), False)",
    "(not next((True for x in each(rt, xs) if seen(x) > a), False))",
    "next((True for x in each(rt, xs)), False)",
    "a and next((True for x in each(rt, xs) if x == b), False)",
    "(a > 1) and (not b) and next((True for x in xs if seen(x)), False)",
    "seen(a) and seen(b) and next((True for x in xs if x > b), False)",
    "(lambda _r_1, _r_2: next((True for x in xs if x + _r_1 > _r_2), False))(seen(a), b)",
    "(lambda _r_1: [x for x in xs if x > _r_1])(seen(b))",
    "next((True for x in xs if x > a), False) if b else seen(a)",
    "a + b",  # nothing to lower
    "next((True for x in xs for y in xs if x == y), False)",  # two loops: left as it is
]


@pytest.mark.parametrize("src", CASES)
def test_a_lowered_body_computes_what_the_expression_does(src: str) -> None:
    lines = lower(src, lambda v: [f"return {v}"])
    if src in ("a + b", CASES[-1]):
        assert lines is None
        return
    assert lines is not None and not any(line.lstrip().startswith("return next") for line in lines)
    body = "".join(f"    {line}\n" for line in lines)
    for a, b, xs in itertools.product([0, 1, 2, [], [0]], [0, 3, None, ""], [[], [1], [3, 0, 2], [2, 2]]):
        env = {"a": a, "b": b, "xs": xs}
        try:
            want = _run(f"    return {src}\n", env)
        except TypeError as err:  # a list compared with a number: the same error lowered
            with pytest.raises(TypeError) as lowered:
                _run(body, env)
            assert str(lowered.value) == str(err)
            continue
        assert _run(body, env) == want, (src, env)


def test_a_remembered_function_stores_the_value_on_every_path() -> None:
    src = "a and next((True for x in each(rt, xs) if x > 1), False)"
    lines = lower(src, lambda v: [f"r = M[K] = {v}", "return r"])
    assert lines is not None
    body = "    M = {}\n    K = 1\n" + "".join(f"    {line}\n" for line in lines)
    for a, xs in itertools.product([0, [], 1], [[], [0], [0, 5]]):
        ns: dict[str, Any] = {"each": _each}
        exec(f"def f(rt, a, xs):\n{body}\n", ns)
        assert ns["f"](_Rt(), a, xs) == (a and any(x > 1 for x in xs))
    stores = [line for line in lines if line.lstrip().startswith("r = M[K] = ")]
    assert len(stores) == sum(1 for line in lines if line.lstrip() == "return r") == 3
