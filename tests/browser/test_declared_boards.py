"""Declared boards drawn by default (issue 28 item 5): a grid's cells and a map's spaces and routes
on the page at their positions, legal placements highlighted, a click on a cell offering the
placements that cover it, a click on a route claiming it.

Screenshots (artefacts/screenshots/): board-tiles-declared, board-routes-declared.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Served, shot
from test_board import wait_for_decisions

pytestmark = pytest.mark.slow

GAMES = Path(__file__).resolve().parents[1] / "games"


def open_board(page: Any, served: Served) -> None:
    page.goto(served.link(0))
    page.wait_for_selector("#decision button.choice")
    page.wait_for_selector("#table svg.layout g.place.target")


def test_a_grid_is_drawn_and_a_cell_offers_the_placements_covering_it(page: Any, serve: Any) -> None:
    served = serve(str(GAMES / "tiles"), [("Ann", "human"), ("Bob", "random")], seed=3)
    table = served.table
    open_board(page, served)
    cells = page.eval_on_selector_all("#table svg.layout g.place", "els => els.map(e => e.dataset.choice)")
    assert cells == [f"{c}{r}" for r in range(1, 6) for c in "abcde"]
    # every cell lies in some free placement of a domino: all 25 are highlighted
    assert page.locator("#table svg.layout g.place.target").count() == 25
    # the cells' zones are drawn on the board, not listed again in the table's panel
    assert "on wall(a1)" not in page.locator("#table").inner_text()
    page.locator("#table g.place[data-choice='a1'] .place-shape").click(force=True)
    offered = page.eval_on_selector_all(
        "#decision button.choice.offered", "els => els.map(e => e.dataset.choice)"
    )
    assert sorted(offered) == ["lay:a1+a2", "lay:a1+b1"]
    before = len(table.choices)
    page.locator("#decision button.choice[data-choice='lay:a1+b1']").click()
    wait_for_decisions(page, before)
    assert table.choices[before] == "lay:a1+b1"
    page.wait_for_selector("#decision button.choice")
    held = page.eval_on_selector_all(
        "#table g.place[data-choice='a1'] .card[data-name], "
        "#table g.place[data-choice='b1'] .card[data-name]",
        "els => els.map(e => e.dataset.name)",
    )
    assert held == ["S", "S"]
    assert page.locator("#table g.place[data-choice='a1'].target").count() == 0  # no longer free
    shot(page, "board-tiles-declared")


def test_a_map_is_drawn_and_a_click_on_a_route_claims_it(page: Any, serve: Any) -> None:
    served = serve(str(GAMES / "routes"), [("Ann", "human"), ("Bob", "random")], seed=3)
    table = served.table
    open_board(page, served)
    choices = "els => els.map(e => e.dataset.choice)"
    spaces = page.eval_on_selector_all("#table svg.layout g.place.shape-dot", choices)
    routes = page.eval_on_selector_all("#table svg.layout g.place.shape-edge", choices)
    assert spaces == ["A", "B", "C", "D", "E"]
    assert sorted(routes) == sorted(["A-B", "B-C", "B-D", "C-E", "D-E", "A-D"])
    # a route is a row of its length's segments in its colour (red, blue, grey: the colour words)
    segments = page.eval_on_selector_all(
        "#table g.place[data-choice='A-D'] .edge-seg, #table g.place[data-choice='B-C'] .edge-seg",
        "els => els.map(e => [e.closest('g.place').dataset.choice, getComputedStyle(e).stroke])",
    )
    assert segments == [["B-C", "rgb(46, 134, 222)"]] + [["A-D", "rgb(138, 138, 138)"]] * 3
    assert page.locator("#table svg.layout g.place.target").count() == 6  # every route is free
    before = len(table.choices)
    page.locator("#table g.place[data-choice='A-D'] .edge-hit").click()
    wait_for_decisions(page, before)
    assert table.choices[before] == "claim:A-D"
    page.wait_for_selector("#decision button.choice")
    assert "Ann" in (page.locator("#table g.place[data-choice='A-D']").text_content() or "")
    # now in Ann's seat colour (the default seats' first: #c0392b), thicker
    held = "els => els.map(e => [getComputedStyle(e).stroke, getComputedStyle(e).strokeWidth])"
    drawn = page.eval_on_selector_all("#table g.place[data-choice='A-D'] .edge-seg", held)
    assert drawn == [["rgb(192, 57, 43)", "9px"]] * 3
    shot(page, "board-routes-declared")
