"""Declared boards drawn by default (issue 28 item 5): a grid's cells and a map's spaces and routes
on the page at their positions, a domino laid where the pointer shows it (turned with Rotate), a
click on a route claiming it.

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
    page.wait_for_selector("#decision button.choice", state="attached")
    page.wait_for_selector("#table svg.layout g.place.target")


def test_a_grid_is_drawn_and_a_domino_is_laid_where_pointed(page: Any, serve: Any) -> None:
    served = serve(str(GAMES / "tiles"), [("Ann", "human"), ("Bob", "random")], seed=3)
    table = served.table
    open_board(page, served)
    cells = page.eval_on_selector_all("#table svg.layout g.place", "els => els.map(e => e.dataset.choice)")
    assert cells == [f"{c}{r}" for r in range(1, 6) for c in "abcde"]
    # a placement choice: the domino, lying as it is turned now (first: across), fits with its
    # first square on any cell but the last column's
    assert page.locator("#table svg.layout g.place.target").count() == 20
    # the cells' zones are drawn on the board, not listed again in the table's panel
    assert "on wall(a1)" not in page.locator("#table").inner_text()
    page.locator("#table g.place[data-choice='a1']").hover()
    preview = "els => els.map(e => e.dataset.choice)"
    assert page.eval_on_selector_all("#table g.place.preview", preview) == ["a1", "b1"]
    page.locator(".placing .rotate").click()  # turned a quarter: down
    page.locator("#table g.place[data-choice='e4']").hover()
    assert page.eval_on_selector_all("#table g.place.preview", preview) == ["e4", "e5"]
    page.locator(".placing .rotate").click()
    page.locator("#table g.place[data-choice='a1']").hover()
    before = len(table.choices)
    page.locator("#table g.place[data-choice='a1']").click()
    wait_for_decisions(page, before)
    assert table.choices[before] == "lay:a1+b1"
    page.wait_for_selector("#decision button.choice", state="attached")
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
    page.wait_for_selector("#decision button.choice", state="attached")
    assert "Ann" in (page.locator("#table g.place[data-choice='A-D']").text_content() or "")
    # now in Ann's seat colour (the default seats' first: #c0392b), thicker
    held = "els => els.map(e => [getComputedStyle(e).stroke, getComputedStyle(e).strokeWidth])"
    drawn = page.eval_on_selector_all("#table g.place[data-choice='A-D'] .edge-seg", held)
    assert drawn == [["rgb(192, 57, 43)", "9px"]] * 3
    shot(page, "board-routes-declared")
