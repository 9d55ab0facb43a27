"""Small rewrites of generated code that must change nothing a game computes nor what it is
charged: loops' sources charged with the call (compile/precharge.py), a loop's invariant reads
(builtins.settle_reads), and unused prologue lines dropped (module.GenModule)."""

from __future__ import annotations

from typing import Any

import pytest

from tabula.interpreter.compile.python.expressions.aggregates import settle_reads
from tabula.interpreter.compile.python.expressions.precharge import precharge
from tabula.interpreter.compile.python.module import GenModule
from tabula.interpreter.run import budget
from tabula.interpreter.run.runtime import STEP_BUDGET


class _Rt:
    budget = STEP_BUDGET


ZONES = [[3, 1, 2], [], [5, 5, 0, 7]]


def _run(src: str, reads: list[str], charge: str, v_p: int, v_L: Any) -> tuple[Any, int]:
    """The function body as a memoised function runs it: reads, the call's charge, the body."""
    rt = _Rt()
    rt.budget = STEP_BUDGET
    ns: dict[str, Any] = {"each": budget.each, "rt": rt, "Z": ZONES, "v_p": v_p, "v_L": v_L}
    try:
        for line in reads:
            exec(line, ns)
        rt.budget -= 1 + (eval(charge, ns) if charge else 0)
        value = eval(src, ns)
    except TypeError as err:  # a number where a list is needed: the same error either way
        return type(err), 0
    return value, rt.budget


@pytest.mark.parametrize(
    ("src", "moved"),
    [
        ("[x for x in each(rt, Z[(1 + v_p)]) if x > 1]", 1),
        ("len([0 for x in each(rt, Z[0]) if x]) + sum([x for x in each(rt, Z[2])])", 2),
        ("next((True for x in each(rt, v_L) if x == 2), False)", 1),
        ("[x for x in each(rt, (Z[v_L] if v_L.__class__ is int else v_L))]", 1),
        ("(lambda _k_1: [x for x in each(rt, Z[0]) if x != _k_1])(3)", 1),
        # under a condition, inside another loop, or over a lambda's own parameter: left in place
        ("(len([0 for x in each(rt, Z[0])]) if v_p else 0)", 0),
        ("v_p > 0 and sum([x for x in each(rt, Z[2])])", 0),
        ("[y for x in each(rt, Z[0]) for y in each(rt, Z[2])]", 1),
        ("[[y for y in each(rt, Z[2])] for x in each(rt, Z[0])]", 1),
        ("(lambda _xs_1: each(rt, _xs_1).count(5))(Z[2])", 0),
        ("sum([x for x in each(rt, Z[0][1:])])", 0),
    ],
)
def test_a_source_read_first_gives_the_same_value_for_the_same_charge(src: str, moved: int) -> None:
    reads, body, charge = precharge(src, "each")
    assert len(reads) == moved
    assert (body == src) == (moved == 0)
    for v_p, v_L in ((0, [1, 2, 2]), (1, 2), (1, [])):
        assert _run(body, reads, charge, v_p, v_L) == _run(src, [], "", v_p, v_L)


def test_a_source_read_first_is_charged_before_the_body_runs() -> None:
    reads, _, charge = precharge("[x for x in each(rt, Z[2]) if x > 1]", "each")
    ns: dict[str, Any] = {"Z": ZONES}
    for line in reads:
        exec(line, ns)
    # the call's one unit and the zone's four items, charged in the statement before the body
    assert 1 + eval(charge, ns) == 5


def test_invariant_reads_stay_before_a_loop_over_a_zone_and_go_back_in_place_otherwise() -> None:
    frame = [("_r_1", "C[(3 + v_p)]")]
    kept, texts = settle_reads(frame, "_h_each_1(rt, Z[(4 + v_p)])", ["_r_1 > x", ""])
    assert kept == frame and texts == ["_r_1 > x", ""]
    kept, texts = settle_reads(frame, "_h_each_1(rt, _colours_3)", ["_r_1 > x and _r_10", ""])
    assert kept == [] and texts == ["C[(3 + v_p)] > x and _r_10", ""]
    calls = [("_k_2", "F_f(rt, v_p)"), *frame]
    kept, texts = settle_reads(calls, "_h_each_1(rt, _colours_3)", ["_r_1 > _k_2"])
    assert kept == calls  # a lambda computes the calls anyway: the read goes with them


def test_prologue_lines_a_function_does_not_use_are_dropped() -> None:
    mod = GenModule("test")
    mod.bindings["C"] = "rt.st['c']"
    text = (
        "def f(rt, k):\n    S = rt.st\n    M = rt.memo\n    return C[k] + len(M)\n"
        "def g(rt):\n    M = rt.memo\n    r = M.get(1)\n    if r is None:\n        #bind\n"
        "        S = rt.st\n        r = C[0]\n    return r\n"
    )
    mod.define(text)
    source = mod.source()
    f_src, g_src = source.split("def g")
    assert "S = rt.st" not in f_src and "M = rt.memo" in f_src and "C = rt.st['c']" in f_src
    assert "S = rt.st" not in g_src
    # g binds C only where its remembered result is missing
    assert g_src.index("C = rt.st['c']") > g_src.index("if r is None")

    class Rt:
        st = {"c": [4, 5]}
        memo: dict[int, int] = {}

    assert mod.ns["f"](Rt(), 1) == 5 and mod.ns["g"](Rt()) == 4
