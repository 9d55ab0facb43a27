"""`let:` names in DSL functions (issue 28): each bound once to its expression, in order, for `expr`."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tables import errors, mini_with

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import GameRuntimeError

BIG = "sum(v for v in range(0, 1500))"


def with_functions(tmp_path: Path, functions: str, setup: str, budget: int | None = None) -> Path:
    folder = mini_with(tmp_path, setup)
    text = (folder / "game.yaml").read_text()
    limits = f"limits: {{work_budget: {budget}}}\n" if budget else ""
    (folder / "game.yaml").write_text(text.replace("flow:\n", f"{limits}functions:\n{functions}flow:\n", 1))
    return folder


def test_let_names_are_bound_in_order_for_the_expression(tmp_path: Path) -> None:
    functions = "  f:\n    params: [n]\n    let: {m: n + 1, k: m * m}\n    expr: k + m\n"
    engine = Engine(load_game(with_functions(tmp_path, functions, "gain f(2) + f(0) score(0)")))
    assert engine.new_game(2, seed=1)["c"][1] == (9 + 3) + (1 + 1)


@pytest.mark.parametrize(("expr", "fits"), [("s + s + s", True), (f"{BIG} + {BIG} + {BIG}", False)])
def test_a_let_name_is_evaluated_once(tmp_path: Path, expr: str, fits: bool) -> None:
    # a budget of 8,000 units holds one sum over 1,500 numbers (about 3,000 units), not three
    functions = f"  f:\n    let: {{s: '{BIG}'}}\n    expr: {expr}\n"
    engine = Engine(load_game(with_functions(tmp_path, functions, "gain f % 7 score(0)", budget=8000)))
    if fits:
        assert engine.new_game(2, seed=1)["c"][1] == (3 * 1499 * 1500 // 2) % 7
    else:
        with pytest.raises(GameRuntimeError, match="steps without a decision"):
            engine.new_game(2, seed=1)


@pytest.mark.parametrize(
    ("functions", "message"),
    [
        ("  f:\n    params: [n]\n    let: {n: 1}\n    expr: n\n", "error[E126]: 'n' is already a parameter"),
        (
            "  f:\n    let: {m: 1}\n    expr: m\n  f__m: {expr: 2}\n",
            "error[E126]: 'f__m' is a function of the game",
        ),
        ("  f:\n    let: {m: '1 +'}\n    expr: m\n", "game.yaml:"),
        ("  f:\n    let: {m: 1}\n    expr: k\n", "error[E101]: unknown name 'k'"),
    ],
    ids=["a-parameter", "a-function", "broken", "unknown"],
)
def test_let_refusals(tmp_path: Path, functions: str, message: str) -> None:
    assert message in errors(with_functions(tmp_path, functions, "gain f score(0)"))
