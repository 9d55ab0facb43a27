"""Patchwork on the page (issue 28 item 7): both quilts drawn as 9x9 boards, a bought patch's
placements highlighted, the patch sewn where the person clicks, the circle and the time board in
the table's panel.

Screenshot (artefacts/screenshots/): board-patchwork.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import shot
from test_board import wait_for_decisions

pytestmark = pytest.mark.slow


def test_both_quilts_are_drawn_and_a_bought_patch_is_sewn_where_clicked(page: Any, serve: Any) -> None:
    served = serve("patchwork", [("Ann", "human"), ("Bob", "random")], seed=3)
    table = served.table
    page.goto(served.link(0))
    page.wait_for_selector("#decision button.choice[data-choice^='buy:']")
    assert page.locator("svg.layout g.place").count() == 2 * 81  # two quilts of 9x9
    before = len(table.choices)
    page.locator("#decision button.choice[data-choice^='buy:']").first.click()
    wait_for_decisions(page, before)
    page.wait_for_selector("svg.layout g.place.target")
    assert page.locator("svg.layout g.place.target").count() >= 4  # the squares the patch may cover
    # on Ann's own quilt only: Bob's squares have the same names (a1..i9) but are other components
    owners = page.evaluate(
        """() => [...document.querySelectorAll('svg.layout g.place.target')].map(
             (g) => g.closest('section').querySelector('h2').textContent)"""
    )
    assert owners and all("Ann" in o for o in owners), set(owners)
    shot(page, "board-patchwork-placing")
    page.locator("#decision .placements-list summary").click()  # the placements, as a list too
    placement = page.locator("#decision button.choice").first.get_attribute("data-choice")
    assert placement is not None and "+" in placement  # the covered squares, a1+b1+...
    page.locator("#decision button.choice").first.click()
    wait_for_decisions(page, before + 1)
    assert table.choices[before + 1] == placement
    page.wait_for_selector("#decision button.choice")
    shot(page, "board-patchwork")
