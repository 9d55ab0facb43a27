"""List conveniences (issue 28): `list(...)` of any list-like value, `sorted(... by key)`; what they
refuse at check time. (An enum as a list, `list` of a zone and `sorted` by a key run in
tests/games/tables/scenarios/t7-lists-enums-sorted.yaml.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tables import errors, mini_with

from tabula.interpreter.engine import Engine, load_game


@pytest.mark.parametrize(
    ("setup", "score"),
    [
        ("gain sum(list(takes)) score(0)", 6),
        ("move card to table\ngain count(list(table)) score(0)", 4),
        # the key orders; equal keys keep their order: 2 (key 0), then 1 and 3 (key 1)
        (
            "let xs = sorted(x for x in [1, 3, 2] by x % 2)\ngain 100 * xs[0] + 10 * xs[1] + xs[2] score(0)",
            213,
        ),
        ("gain first(sorted(c.value for c in card by -c.value)) score(0)", 3),
    ],
    ids=["list-of-list", "list-of-zone", "sorted-stable", "sorted-descending"],
)
def test_list_and_sorted_by(tmp_path: Path, setup: str, score: int) -> None:
    engine = Engine(load_game(mini_with(tmp_path, setup)))
    assert engine.new_game(2, seed=1)["c"][1] == score


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("gain count(list(pile)) score(0)", "error[T001]: expected a list or a zone, found a number"),
        (
            "gain count(x for x in takes by x) score(0)",
            "error[E116]: 'by' only applies to distinct and sorted",
        ),
        ("gain count(list(takes, takes)) score(0)", "error[E105]: 'list' takes 1 argument(s), got 2"),
    ],
)
def test_list_refusals(tmp_path: Path, setup: str, message: str) -> None:
    assert message in errors(mini_with(tmp_path, setup))
