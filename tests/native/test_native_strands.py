"""Flat lists charged as Python charges them on the native backend (issue 33): `a + b` charges both
lists' items (run/budget.py `bounded`), `a == b` the shorter list's (`COMPARE`; a literal list of
at most LIGHT items is not charged), and a list of more than LIGHT items stored where Python measures
the whole state (a var, a local of a block that stops at a choice, a procedure's argument:
run/budget.py `stored`) stops native code (E_SIZE), Python playing that decision. Played by the
fixture tests/native/games/strands, decision by decision, against the Python backend."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_native_equivalence import engines
from test_native_lines import stops_and_budgets

from tabula.interpreter.engine import load_game

HERE = Path(__file__).resolve().parent
STRANDS = HERE / "games" / "strands"


@pytest.mark.slow  # each decision native code plays applied about 20 times on each backend
def test_work_charged_as_python_charges_it() -> None:
    """Every window's decision native code plays needs Python's least work budget to the unit,
    and the stores of a list past LIGHT items into the state stop it (each kind of store met);
    the games are the same throughout."""
    py, nat = engines(load_game(STRANDS))
    stopped, played, in_python = stops_and_budgets(py, nat, range(1, 4))
    assert played > 20 and in_python > 0  # (Python answers the choice of a keep it played)
    assert stopped == {"claim", "keep", "sweep"}, stopped
