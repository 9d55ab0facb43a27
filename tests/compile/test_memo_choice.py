"""Which DSL functions are remembered (`FM_` functions): those that loop in Python, or call such
functions more than once; not those whose only loop runs in C, nor those calling one once."""

from __future__ import annotations

from tabula.interpreter.base.source import Report
from tabula.interpreter.compile.python.expressions.analysis import FunctionSlot, mark_expensive
from tabula.interpreter.dsl.parser import PlainOrigin, parse_expr


def _marked(**bodies: str) -> dict[str, bool]:
    report = Report()
    slots = {}
    for name, text in bodies.items():
        body = parse_expr(text, PlainOrigin("functions.yaml"), report)
        assert body is not None, text
        slots[name] = FunctionSlot(name, ["p"], body, None)
    mark_expensive(slots)
    return {name: slot.expensive for name, slot in slots.items()}


def test_a_function_that_loops_is_remembered_and_one_counting_equal_items_is_not() -> None:
    marked = _marked(
        loops="count(c for c in hand(p) where c.cost > 2)",
        equal_items="count(x for x in symbols(p) where x == 3)",
        contains="any(x == p for x in owners)",
        plain="p + 1",
    )
    assert marked == {"loops": True, "equal_items": False, "contains": False, "plain": False}


def test_a_loop_over_a_loop_is_still_a_loop() -> None:
    marked = _marked(nested="count(x for x in [c.cost for c in hand(p)] where x == 3)")
    assert marked == {"nested": True}


def test_calling_a_looping_function_twice_or_in_a_generator_is_remembered_once_is_not() -> None:
    marked = _marked(
        loops="count(c for c in hand(p) where c.cost > 2)",
        once="loops(p) > 0 or p == 1",
        twice="loops(p) > 0 and loops(p + 1) > 0",
        in_generator="any(loops(q) > 0 for q in players)",
        via_twice="twice(p)",
    )
    assert marked == {
        "loops": True,
        "once": False,
        "twice": True,
        "in_generator": True,
        "via_twice": False,
    }
