"""The work budget and the size limits of values (interpreter/run/budget.py): what is charged,
what is refused before it is built, the codes (R002 the budget, R003 a size), and that the checks
change no value a game computes.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from test_sandbox import hostile, line_of, run_error

from tabula.interpreter.base.limits import MAX_NUMBER_DIGITS, MAX_WORK_BUDGET, WORK_BUDGET
from tabula.interpreter.base.source import AuthorError, Span
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import budget
from tabula.interpreter.run.builtins import _distinct, _flatten
from tabula.interpreter.run.runtime import STEP_BUDGET, GameRuntimeError, Runtime


@pytest.fixture(scope="module")
def rt(tmp_path_factory: pytest.TempPathFactory) -> Runtime:
    game = load_game(hostile(tmp_path_factory.mktemp("g"), "pass"))
    return Runtime(game, Engine(game).new_game(2))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (3, 4),
        (-7, 6),
        (True, 3),
        (2**40, 3),
        (2**100, -(2**90)),
        ([1, 2], 3),
        (3, [1]),
        ("ab", 4),
        ([1], -2),
        ("x", 0),
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
    _distinct(rt, list(range(100_000)))  # linear: each item charged once, far below the budget
    assert rt.budget == STEP_BUDGET - 100_000


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


# ------------------------------------------------------------------ the game's own budget (limits:)


def sub(tmp_path: Path, name: str) -> Path:
    (tmp_path / name).mkdir()
    return tmp_path / name


def with_budget(tmp_path: Path, effect: str, work_budget: object) -> Path:
    folder = hostile(tmp_path, effect)
    text = (folder / "game.yaml").read_text()
    limits = f"limits:\n  work_budget: {work_budget}\n"
    (folder / "game.yaml").write_text(text.replace("counters:\n", limits + "counters:\n", 1))
    return folder


def test_a_small_budget_of_the_game_stops_what_the_default_allows(tmp_path: Path) -> None:
    effect = "repeat 5000:\n  gain 1 n"
    engine = Engine(load_game(hostile(sub(tmp_path, "default"), effect)))
    st = engine.new_game(2)
    assert st["c"][0] == 5000 and engine.legal_ids(st) == ["1", "2"]
    folder = with_budget(sub(tmp_path, "small"), effect, 1000)
    assert load_game(folder).work_budget == 1000
    err, st = run_error(folder)
    assert err.code == "R002" and "more than 1000 steps" in err.message
    assert err.span is not None and err.span.line == line_of(folder, "repeat 5000:")
    # the loop's 5000 iterations are charged before its first runs: the game's budget refuses them,
    # so none ran (under the default budget all of them do)
    assert st["c"][0] == 0


def test_a_large_budget_of_the_game_allows_more_than_the_default(tmp_path: Path) -> None:
    effect = f"repeat {STEP_BUDGET + 1000}:\n  pass"
    err, _ = run_error(hostile(sub(tmp_path, "default"), effect))
    assert err.code == "R002" and f"more than {STEP_BUDGET} steps" in err.message
    engine = Engine(load_game(with_budget(sub(tmp_path, "large"), effect, 2 * STEP_BUDGET)))
    assert engine.legal_ids(engine.new_game(2)) == ["1", "2"]


@pytest.mark.parametrize("value", [MAX_WORK_BUDGET + 1, 0, -3])
def test_a_budget_above_the_ceiling_or_not_positive_is_refused_where_it_is_written(
    tmp_path: Path, value: int
) -> None:
    folder = with_budget(tmp_path, "pass", value)
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    (found,) = [d for d in err.value.report.diagnostics if d.severity == "error"]
    assert found.code == "S007" and f"from 1 to {MAX_WORK_BUDGET}" in found.message
    assert found.span is not None and found.span.line == line_of(folder, "work_budget:")
    assert found.hint


def test_the_ceiling_itself_is_accepted(tmp_path: Path) -> None:
    assert load_game(with_budget(tmp_path, "pass", MAX_WORK_BUDGET)).work_budget == MAX_WORK_BUDGET
    assert load_game(hostile(sub(tmp_path, "plain"), "pass")).work_budget == STEP_BUDGET == WORK_BUDGET


# ------------------------------------------------------------------ numbers, totals, comparisons


@pytest.mark.parametrize(
    "effect",
    [
        "let x = 2\nrepeat 20000:\n  let x = x + x",
        "let x = 2\nrepeat 20000:\n  let x = x - (0 - x)",
        "gain 2 n\nrepeat 20000:\n  gain n n",
        "let x = 2\nrepeat 20000:\n  set x = x + x\n  gain 1 n",
    ],
    ids=["let-plus", "let-minus", "counter-gains-itself", "set-local"],
)
def test_sums_of_known_numbers_are_bounded_where_they_are_kept(tmp_path: Path, effect: str) -> None:
    folder = hostile(tmp_path, effect)
    err, st = run_error(folder)
    assert err.code == "R003" and f"more than {MAX_NUMBER_DIGITS} digits" in err.message
    assert err.span is not None and err.span.line > line_of(folder, effect.splitlines()[0])
    assert all(abs(c).bit_length() <= budget.MAX_NUMBER_BITS + 1 for c in st["c"])


def test_texts_and_lists_of_known_types_are_kept_as_they_are(tmp_path: Path) -> None:
    long = "x" * 100
    effect = f"let t = '{long}'\nlet u = t\nset text = u\nlet ps = [p, p]\nset text = [text, ps]"
    engine = Engine(load_game(hostile(tmp_path, effect)))
    st = engine.new_game(2)
    assert st["v"]["text"] == [long, [0, 0]] and engine.legal_ids(st) == ["1", "2"]


def test_a_large_number_below_the_limit_is_kept(tmp_path: Path) -> None:
    engine = Engine(load_game(hostile(tmp_path, "let x = 1\nrepeat 3000:\n  let x = x + x\nset text = x")))
    st = engine.new_game(2)
    assert st["v"]["text"] == 2**3000
    assert engine.from_json(engine.to_json(st))["v"]["text"] == 2**3000


@pytest.mark.parametrize(
    ("effect", "code", "limit"),
    [
        ("let a = range(0, 100000)\nset text = [a for i in range(0, 100)]", "R003", "list items"),
        (
            "set text = 'x'\nset text = text * 100000\nset text = [text, text, text, text, text, text, "
            "text, text, text, text, text]",
            "R003",
            "characters",
        ),
        # each large value stored has the whole state measured, and charged: a loop nesting one
        # list in the next runs out of budget before it reaches the total
        ("let a = range(0, 90000)\nrepeat 20:\n  set text = [a] + [text]", "R002", "work budget"),
    ],
    ids=["shared-list", "shared-text", "nested-in-a-loop"],
)
def test_the_state_holds_at_most_its_totals(tmp_path: Path, effect: str, code: str, limit: str) -> None:
    err, st = run_error(hostile(tmp_path, effect))
    assert err.code == code and limit in err.message
    assert len(str(st["v"]["text"])) < 10_000_000  # the value that would pass the total was not kept


def test_a_state_that_grows_across_decisions_stops_at_its_total(tmp_path: Path) -> None:
    effect = "set text = [range(0, 60000)] + ([] if text == none else text)"
    engine = Engine(load_game(hostile(tmp_path, effect)))
    st = engine.new_game(2)
    with pytest.raises(GameRuntimeError) as err:
        for _ in range(40):
            engine.apply_inplace(st, 0)
    assert err.value.code == "R003" and "list items" in err.value.message
    assert 10 <= len(st["v"]["text"]) <= 17  # 1,000,000 items at most: 16 lists of 60,000
    assert len(engine.to_json(st)) < 16 << 20  # and the state can still be saved


def test_measuring_the_state_is_charged_and_sees_every_copy(rt: Runtime) -> None:
    rt.budget = STEP_BUDGET
    a = list(range(1000))
    budget.state_totals(rt, [a, a, a])
    assert rt.budget <= STEP_BUDGET - 3000
    with pytest.raises(GameRuntimeError) as err:
        budget.state_totals(rt, [a] * 2000)
    assert err.value.code == "R003" and "list items" in err.value.message
    rt.budget = STEP_BUDGET
    assert budget.stored(rt, [1, 2, "x", None]) == [1, 2, "x", None]
    assert rt.budget == STEP_BUDGET  # a small plain value is not measured


def test_comparing_lists_is_charged_per_item_and_numbers_are_not(rt: Runtime) -> None:
    a, b = list(range(50_000)), list(range(50_000))
    rt.budget = STEP_BUDGET
    assert budget.eq(rt, a, b) and not budget.ne(rt, a, b) and budget.le(rt, a, b)
    assert rt.budget == STEP_BUDGET - 3 * 50_000
    rt.budget = STEP_BUDGET
    assert budget.eq(rt, 3, 3) and budget.lt(rt, 2, 3) and not budget.gt(rt, [1], [2])
    assert rt.budget == STEP_BUDGET - 1
    rt.budget = STEP_BUDGET
    assert budget.eq(rt, [a] * 10, [b] * 10)
    assert rt.budget <= STEP_BUDGET - 10 * 50_000  # the nested items are charged too


def test_copies_of_a_list_of_lists_are_charged_their_items(rt: Runtime) -> None:
    rt.budget = STEP_BUDGET
    assert budget.times(rt, [1, 2], 3) == [1, 2] * 3
    assert rt.budget == STEP_BUDGET - 6
    a = list(range(1000))
    assert budget.times(rt, [a], 100) == [a] * 100
    assert rt.budget <= STEP_BUDGET - 100 * 1000
    with pytest.raises(GameRuntimeError) as err:
        budget.times(rt, [list(range(100_000))], 100)  # 100 copies: 10,000,000 items in a save
    assert err.value.code == "R002"


def test_a_loop_comparing_long_lists_ends_on_the_budget(tmp_path: Path) -> None:
    effect = "set text = range(0, 100000)\nlet b = range(0, 100000)\n"
    effect += "repeat 100000:\n  if text == b:\n    gain 1 n"
    folder = hostile(tmp_path, effect)
    err, st = run_error(folder)
    assert err.code == "R002" and err.span is not None
    assert err.span.line == line_of(folder, "if text == b:")
    assert st["c"][0] < 100


def test_comparisons_of_numbers_and_texts_stay_plain_python(tmp_path: Path) -> None:
    game = load_game(hostile(tmp_path, "let k = n == 3\nlet t = text == 'x'"))
    source = game.module.source()
    assert "_eq" not in source and "COMPARE" not in source


def test_flatten_charges_its_lists_and_items_and_refuses_a_list_too_long(rt: Runtime) -> None:
    rt.budget = STEP_BUDGET
    assert _flatten(rt, [[1, 2], [], [3]]) == [1, 2, 3]
    assert rt.budget == STEP_BUDGET - 6  # three lists, three items
    rt.budget = STEP_BUDGET
    half = list(range(60_000))
    with pytest.raises(GameRuntimeError) as err:
        _flatten(rt, [half, half])
    assert err.value.code == "R003" and "a list of more than 100000 items" in err.value.message
    assert rt.budget == STEP_BUDGET  # refused before anything was charged or built
    with pytest.raises(GameRuntimeError) as err:
        _flatten(rt, [[1], "ab"])
    assert err.value.code == "R004"
    assert err.value.message == "flatten needs a list of lists or zones, and 'ab' (a text) in it is neither"


# ------------------------------------------------------------------ triggers and the flow (issue 26)
HOSTILE = Path(__file__).resolve().parents[1] / "hostile" / "games"


@pytest.mark.parametrize(
    ("game", "line"),
    [
        ("work-trigger-fan-out", "      emit e(k=k + 1)"),
        ("work-trigger-fan-out-components", "          emit e(k=k + 1)"),
        ("work-trigger-fan-out-waiting", "      emit e(k=k + 1)"),
    ],
)
def test_a_fan_out_of_triggers_ends_at_the_emit(game: str, line: str) -> None:
    folder = HOSTILE / game
    with pytest.raises(GameRuntimeError) as err:
        Engine(load_game(folder)).new_game(2)  # the setup emits: 2^41 firings if nothing charged them
    span = err.value.span
    assert err.value.code == "R002" and span is not None
    assert (folder / "game.yaml").read_text().splitlines()[span.line - 1] == line


def fan_out(folder: Path, depth: int, work_budget: int | None) -> Path:
    """work-trigger-fan-out at a small depth (2^(depth+1) - 2 firings), with a budget of its own."""
    text = (HOSTILE / "work-trigger-fan-out" / "game.yaml").read_text().replace("k < 40", f"k < {depth}")
    if work_budget is not None:
        text = text.replace("counters:", f"limits:\n  work_budget: {work_budget}\ncounters:")
    folder.mkdir()
    (folder / "game.yaml").write_text(text)
    return folder


def test_each_firing_is_charged(tmp_path: Path) -> None:
    # depth 8: 510 firings, charged 17 units each (FIRING and the one statement of `do`) besides
    # their emits: 9,000 units do not pay for them, 20,000 do (and the game then runs as before)
    with pytest.raises(GameRuntimeError) as err:
        Engine(load_game(fan_out(tmp_path / "small", 8, 9000))).new_game(2)
    assert err.value.code == "R002" and "9000" in err.value.message
    st = Engine(load_game(fan_out(tmp_path / "enough", 8, 20000))).new_game(2)
    assert st["dec"] is not None


def test_a_flow_that_never_asks_ends_with_r002_at_its_phase() -> None:
    folder = HOSTILE / "work-flow-never-asks"
    with pytest.raises(GameRuntimeError) as err:
        Engine(load_game(folder)).new_game(2)
    span = err.value.span
    assert err.value.code == "R002" and span is not None
    assert (folder / "game.yaml").read_text().splitlines()[span.line - 1].strip() == "- id: main"
