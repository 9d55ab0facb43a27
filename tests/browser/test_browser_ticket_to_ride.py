"""Ticket to Ride in a real browser: the USA map drawn from its `boards:` section (36 cities, 100
routes), the opening ticket choice answered on the page, a route claimed by a click on the map, and
nothing of the other seat's hand or tickets on the page. Screenshot: ticket-to-ride-map.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import assert_page_shows_only_its_seat, shot
from test_board import wait_for_decisions

pytestmark = pytest.mark.slow  # a headless Chromium

CHOICES = "#decision button.choice:not([disabled])"


def test_the_map_is_drawn_and_a_route_is_claimed_on_it(page: Any, serve: Any) -> None:
    served = serve("ticket-to-ride", [("Ann", "human"), ("Bob", "random")], seed=5)
    table = served.table
    page.goto(served.link(0))
    page.wait_for_selector(CHOICES)
    assert "return which ticket" in page.inner_text("#decision").lower()
    before = len(table.choices)
    page.locator("#decision button.choice[data-choice='none']").click()  # keep all three
    wait_for_decisions(page, before)
    page.wait_for_selector("#table svg.layout g.place.target")
    places = page.eval_on_selector_all("#table svg.layout g.place", "els => els.map(e => e.dataset.choice)")
    assert len(places) == 36 + 100
    assert {"Seattle", "Miami", "Denver-Omaha", "Los Angeles-El Paso"} <= set(places)
    assert_page_shows_only_its_seat(page, table, 0)
    free = [c for c in table.engine.legal_ids(table.state) if c.startswith("claim:") and "#" not in c]
    assert free, "Ann can claim a route with her four cards"
    route = free[0].removeprefix("claim:")
    before = len(table.choices)
    page.locator(f"#table g.place[data-choice='{route}'] .place-shape").first.click(force=True)
    wait_for_decisions(page, before)
    assert table.choices[before] == f"claim:{route}"
    page.wait_for_selector(CHOICES)
    while table.engine.current_player(table.state) == 0 and not page.locator("#table g.place.target").count():
        before = len(table.choices)  # how to pay: the first colour, the fewest locomotives
        page.locator(CHOICES).first.click()
        wait_for_decisions(page, before)
        page.wait_for_selector(CHOICES)
    assert "Ann" in (page.locator(f"#table g.place[data-choice='{route}']").first.text_content() or "")
    assert_page_shows_only_its_seat(page, table, 0)
    shot(page, "ticket-to-ride-map")
