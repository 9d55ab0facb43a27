"""Boards drawn from `presentation.layout` in a real browser, and play on them by clicks.

Screenshots (artefacts/screenshots/): board-porta-nigra-start, board-porta-nigra-built,
board-glory-to-rome-late, board-phone-porta-nigra (390 px).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import Served, assert_page_shows_only_its_seat, shot

pytestmark = pytest.mark.slow

TARGETS = ".target"


def open_seat(page: Any, served: Served, seat: int = 0) -> None:
    page.goto(served.link(seat))
    page.wait_for_selector("#decision")
    page.wait_for_selector("#table svg.layout")


def wait_for_decisions(page: Any, before: int) -> None:
    page.wait_for_function(
        "n => !document.querySelector('#history-label').textContent.startsWith(n + ' ')", arg=str(before)
    )


def click_random_button(page: Any, served: Served, rnd: random.Random) -> bool:
    buttons = page.locator("#decision button.choice:not([disabled])")
    if buttons.count() == 0:
        return False
    before = len(served.table.choices)
    buttons.nth(rnd.randrange(buttons.count())).click()
    wait_for_decisions(page, before)
    return True


def glory_to_rome(serve: Any) -> Served:
    """Glory to Rome, seed 4, P1 a person against two random bots, no concessions."""
    seats = [("P1", "human"), ("P2", "random"), ("P3", "random")]
    served: Served = serve("glory-to-rome", seats, seed=4, surrender_allowed=False)
    return served


def test_porta_nigra_city_and_building_by_clicks(page: Any, serve: Any) -> None:
    served = serve("porta-nigra", [("Red", "human"), ("Green", "random")], seed=7)
    table = served.table
    open_seat(page, served)
    places = page.eval_on_selector_all("#table svg.layout g.place", "els => els.map(e => e.dataset.place)")
    assert "Quarter 2 · Basilica" in places and "White shop (every quarter)" in places, places
    # the 44 sites are on the board, each in its building's quarter
    sites = page.locator("#table svg.layout .card[data-name^='BAS-']")
    assert sites.count() == sum(1 for c in table.game.components if c.name.startswith("BAS-"))
    # the first decision: each quarter is a highlighted place; clicking one places the builder there
    quarters = page.locator("#table g.place.target")
    assert quarters.count() == 4
    shot(page, "board-porta-nigra-start")
    page.locator("#table g.place[data-choice='1'] .place-shape").click(position={"x": 30, "y": 30})
    wait_for_decisions(page, 0)
    assert table.choices[0] == "1"
    builders = page.eval_on_selector_all(
        "#table g.place[data-place='Master builder']", "els => els.map(e => e.textContent)"
    )
    assert "Red" in builders[1] and "Red" not in builders[0] + builders[2] + builders[3], builders
    # play on until a site may be built; click the highlighted site and check the game built there
    rnd = random.Random(3)
    for _ in range(200):
        dec = table.engine.view(table.state, 0)["dec"]
        ids = list(dec.get("ids", [])) if dec and dec["p"] == 0 else []
        site_ids = [i for i in ids if any(c.name == i and c.type == "site" for c in table.game.components)]
        if site_ids:
            break
        assert click_random_button(page, served, rnd)
    else:
        pytest.fail("no site to build on came up in 200 decisions")
    chosen = site_ids[0]
    target = page.locator(f"#table svg.layout .card.target[data-name='{chosen}']")
    assert target.count() == 1
    before = len(table.choices)
    target.click()
    wait_for_decisions(page, before)
    assert table.choices[before] == chosen
    site = next(i for i, c in enumerate(table.game.components) if c.name == chosen)
    owner = table.engine.view(table.state, 0)["m"]["owned_by"][site]
    assert owner == 0, f"{chosen} should be Red's now, not {owner}"
    page.wait_for_selector(f"#table .card[data-name='{chosen}'] .badge.tinted")
    shot(page, "board-porta-nigra-built")
    assert_page_shows_only_its_seat(page, table, 0)


def test_a_late_glory_to_rome_tableau(page: Any, serve: Any) -> None:
    served = glory_to_rome(serve)
    table = served.table
    open_seat(page, served)
    rnd = random.Random(5)
    buildings = table.game.zones["buildings"]
    for _ in range(400):
        if len(table.state["z"][buildings.index(0)]) >= 3 or table.over:
            break
        if not click_random_button(page, served, rnd):
            break
    laid = table.state["z"][buildings.index(0)]
    assert laid, "P1 has laid a foundation"
    shot(page, "board-glory-to-rome-late")
    printed = {c.name: c.text for c in table.game.components if c.text}
    place = "#you svg.layout g.place[data-place='Buildings']"
    faces = page.eval_on_selector_all(
        f"{place} .card[data-name] > .text",
        "els => els.map(e => [e.parentElement.dataset.name, e.textContent])",
    )
    names = [table.game.components[c].name for c in laid]
    assert sorted(n for n, _ in faces) == sorted(names)
    assert all(text.startswith(printed[n]) for n, text in faces if n in printed), faces
    pool = page.eval_on_selector_all(
        "#table svg.layout g.place[data-place='Pool'] .card", "els => els.length"
    )
    assert pool <= len(table.state["z"][table.game.zones["pool"].index(None)]) or pool == 1
    assert_page_shows_only_its_seat(page, table, 0)


def test_a_phone_shows_the_decision_above_the_board(browser: Any, serve: Any) -> None:
    served = serve("porta-nigra", [("Red", "human"), ("Green", "random")], seed=7)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    try:
        phone.goto(served.link(0))
        phone.wait_for_selector("#decision button.choice")
        box = phone.locator("#decision").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, box  # whole, without scrolling
        shot(phone, "board-phone-porta-nigra", full=False)
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 400, f"the page is {width} px wide on a 390 px phone"
    finally:
        context.close()
