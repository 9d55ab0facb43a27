"""The work budget and the size limits of values (interpreter/compile/budget.py): what is charged,
what is refused before it is built, the codes (R002 the budget, R003 a size), and that the checks
change no value a game computes.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from test_sandbox import hostile, line_of, run_error

from tabula.interpreter.compile import budget
from tabula.interpreter.compile.builtins import _distinct
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.limits import MAX_NUMBER_DIGITS
from tabula.interpreter.runtime import STEP_BUDGET, GameRuntimeError, Runtime
from tabula.interpreter.source import Span


@pytest.fixture(scope="module")
def rt(tmp_path_factory: pytest.TempPathFactory) -> Runtime:
    game = load_game(hostile(tmp_path_factory.mktemp("g"), "pass"))
    return Runtime(game, Engine(game).new_game(2))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (3, 4), (-7, 6), (True, 3), (2**40, 3), (2**100, -(2**90)),
        ([1, 2], 3), (3, [1]), ("ab", 4), ([1], -2), ("x", 0),
    ],
)
def test_times_and_plus_give_what_python_gives(rt: Runtime, a: object, b: object) -> None:
    rt.budget = STEP_BUDGET
    assert budget.times(rt, a, b) == a * b  # type: ignore[operator]
    if type(a) is type(b):
        assert budget.plus(rt, a, b) == a + b  # type: ignore[operator]


def test_a_type_error_stays_a_type_error(rt: Runtime) -> None:
    with pytest.raises(TypeError):
        budget.plus(rt, [1], 2)
    with pytest.raises(TypeError):
        budget.times(rt, "a", "b")


def test_sizes_are_refused_before_anything_is_built(rt: Runtime) -> None:
    rt.budget = STEP_BUDGET
    with pytest.raises(GameRuntimeError) as err:
        budget.times(rt, [0] * 1000, 10**9)  # would be 8 TB
    assert err.value.code == "R003" and "a list of more than 100000 items" in err.value.message
    with pytest.raises(GameRuntimeError) as err:
        budget.times(rt, "x" * 10, 10**12)
    assert err.value.code == "R003" and "a text of more than 100000 characters" in err.value.message
    big = 10 ** (MAX_NUMBER_DIGITS - 10)
    with pytest.raises(GameRuntimeError) as err:
        budget.times(rt, big, big)
    assert err.value.code == "R003" and f"more than {MAX_NUMBER_DIGITS} digits" in err.value.message
    assert budget.times(rt, big, 10) == big * 10  # below the limit: computed


def test_big_operands_and_built_items_are_charged(rt: Runtime) -> None:
    rt.budget = STEP_BUDGET
    budget.times(rt, 3, 4)
    assert rt.budget == STEP_BUDGET  # small numbers cost nothing
    big = 10**1500
    budget.times(rt, big, big)
    assert rt.budget < STEP_BUDGET
    rt.budget = STEP_BUDGET
    budget.plus(rt, list(range(1000)), [1])
    assert rt.budget == STEP_BUDGET - 1001
    rt.budget = 10
    with pytest.raises(GameRuntimeError) as err:
        budget.each(rt, list(range(11)))
    assert err.value.code == "R002" and "work budget" in err.value.message


def test_distinct_keeps_the_first_of_equal_items_in_order(rt: Runtime) -> None:
    rt.budget = STEP_BUDGET
    assert _distinct(rt, [3, 1, 3, 2, 1]) == [3, 1, 2]
    assert _distinct(rt, ["b", "a", "b"]) == ["b", "a"]
    assert _distinct(rt, [[1], [2], [1]]) == [[1], [2]]  # lists: pairwise, as before
    assert _distinct(rt, [1, True, 0, False, None]) == [1, 0, None]  # as `in` would (1 == True)
    rt.budget = STEP_BUDGET
    _distinct(rt, list(range(100_000)))  # linear: far below the budget
    assert rt.budget == STEP_BUDGET


def test_a_runtime_error_pickles_whole() -> None:
    err = GameRuntimeError("too much", Span("g.yaml", 3, 5, 3, 9), "R002")
    again = pickle.loads(pickle.dumps(err))
    assert (again.message, again.span, again.code) == ("too much", Span("g.yaml", 3, 5, 3, 9), "R002")


@pytest.mark.parametrize(
    ("effect", "code"),
    [
        ("let n = sum(count(y for y in range(0, 100000)) for x in range(0, 100000))", "R002"),
        ("let a = range(0, 100000)\nrepeat 100000:\n  let k = 99999 in a", "R002"),
        ("let x = 3\nrepeat 24:\n  let x = x * x", "R003"),
        ("set text = 'ab'\nrepeat 40:\n  set text = text + text", "R003"),
    ],
    ids=["nested-generators", "in-a-big-list", "repeated-squaring", "doubling-text"],
)
def test_one_statement_cannot_run_away(tmp_path: Path, effect: str, code: str) -> None:
    folder = hostile(tmp_path, effect)
    err, _ = run_error(folder)
    assert err.code == code
    assert err.span is not None and err.span.line >= line_of(folder, effect.splitlines()[0])


def test_recursion_is_charged_per_call(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    folder.mkdir()
    text = hostile(tmp_path, "gain twice(40) n").joinpath("game.yaml").read_text()
    twice = "  twice: {params: [k], expr: '1 if k == 0 else twice(k - 1) + twice(k - 1)'}"
    text = text.replace("functions:\n", "functions:\n" + twice + "\n")
    (folder / "game.yaml").write_text(text)
    err, _ = run_error(folder)
    assert err.code == "R002"
