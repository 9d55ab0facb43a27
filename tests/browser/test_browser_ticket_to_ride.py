"""Ticket to Ride in a real browser: the USA map drawn from its `boards:` section (36 cities as
labelled dots whose names do not overlap, 100 routes as rows of their length's segments in their
colour, the halves of a double route side by side), the opening ticket choice answered on the page,
a highlighted route claimed by a click on the map and then drawn in the claimer's seat colour, and
nothing of the other seat's hand or tickets on the page. Screenshot: ticket-to-ride-map.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import assert_page_shows_only_its_seat, shot
from test_board import wait_for_decisions

pytestmark = pytest.mark.slow  # a headless Chromium

CHOICES = "#decision button.choice:not([disabled])"
SEATS = {0: "#c0392b", 1: "#2e86de"}  # presentation.yaml: seat_colours [red, blue]
ROUTES = {  # map.yaml's colour through presentation.yaml's colours (yellow: gold), else the word's
    "Seattle-Helena": ("#d4ac0d", 6),
    "Portland-Salt Lake City": ("#2e86de", 6),
    "Portland-San Francisco#1": ("#27ae60", 5),
    "Portland-San Francisco#2": ("#8e44ad", 5),
    "Vancouver-Calgary": ("#8a8a8a", 3),
}
# each route's segments (by the route's component): their computed stroke colour and width; a
# route's two ends; each city name's box on the page
SEGMENTS = """els => Object.fromEntries(els.map((g) => [g.dataset.ids,
  [...g.querySelectorAll('.edge-seg')].map((s) => getComputedStyle(s))
    .map((style) => [style.stroke, parseFloat(style.strokeWidth)])]))"""
ENDS = """els => Object.fromEntries(els.map((g) => {
  const s = [...g.querySelectorAll('.edge-seg')];
  const at = (seg, keys) => keys.map((k) => +seg.getAttribute(k));
  return [g.dataset.ids, at(s[0], ['x1', 'y1']).concat(at(s[s.length - 1], ['x2', 'y2']))]; }))"""
BOXES = """els => els.map((e) => {
  const r = e.getBoundingClientRect(); return [e.textContent, r.left, r.top, r.right, r.bottom]; })"""


def rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def by_key(table: Any, drawn: dict[str, Any]) -> dict[str, Any]:
    """Routes by their components' keys (`Portland-San Francisco#2`: the halves of a double route
    are one choice word, two components)."""
    return {table.game.components[int(ids)].key: value for ids, value in drawn.items()}


def segments_of(page: Any, table: Any, where: str) -> dict[str, list[tuple[str, float]]]:
    drawn = by_key(table, page.eval_on_selector_all(where, SEGMENTS))
    return {route: [(colour, width) for colour, width in segs] for route, segs in drawn.items()}


def test_the_map_is_drawn_and_a_route_is_claimed_on_it(page: Any, serve: Any) -> None:
    # seed 7: random Bob claims a route right after Ann (seed 5 did before the opening ruling changed)
    served = serve("ticket-to-ride", [("Ann", "human"), ("Bob", "random")], seed=7)
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

    # routes: rows of `length` segments in their colour; the halves of a double route apart
    drawn = segments_of(page, table, "#table g.place.shape-edge")
    for route, (colour, length) in ROUTES.items():
        assert drawn[route] == [(rgb(colour), 6)] * length, route
    ends = by_key(table, page.eval_on_selector_all("#table g.place.shape-edge", ENDS))
    one, two = ends["Portland-San Francisco#1"], ends["Portland-San Francisco#2"]
    assert 8 <= abs(one[0] - two[0]) <= 14 and one[1] == pytest.approx(two[1], abs=0.01)  # side by side
    # cities: dots with names, no two names overlapping at the page's default width
    boxes = page.eval_on_selector_all("#table .space-name", BOXES)
    assert len(boxes) == 36
    for i, (a, *ra) in enumerate(boxes):
        for b, *rb in boxes[i + 1 :]:
            apart = ra[2] <= rb[0] or rb[2] <= ra[0] or ra[3] <= rb[1] or rb[3] <= ra[1]
            assert apart, f"the names {a} and {b} overlap"
    shown = "e => e.getBoundingClientRect().width / e.viewBox.baseVal.width"
    assert page.eval_on_selector("#table svg.map", shown) >= 0.8  # names at 80 % of 12 px or more

    # a highlighted route, clicked, is claimed, and then drawn in Ann's colour
    free = [c for c in table.engine.legal_ids(table.state) if c.startswith("claim:") and "#" not in c]
    assert free, "Ann can claim a route with her four cards"
    route = free[0].removeprefix("claim:")
    assert page.locator(f"#table g.place.target[data-choice='{route}']").count() == 1
    assert page.locator("#table g.place.shape-edge.target").count() == len(
        [c for c in table.engine.legal_ids(table.state) if c.startswith("claim:")]
    )
    before = len(table.choices)
    page.locator(f"#table g.place[data-choice='{route}'] .edge-hit").first.click()
    wait_for_decisions(page, before)
    assert table.choices[before] == f"claim:{route}"
    page.wait_for_selector(CHOICES)
    while table.engine.current_player(table.state) == 0 and not page.locator("#table g.place.target").count():
        before = len(table.choices)  # how to pay: the first colour, the fewest locomotives
        page.locator(CHOICES).first.click()
        wait_for_decisions(page, before)
        page.wait_for_selector(CHOICES)
    claimed = page.locator(f"#table g.place[data-choice='{route}']").first
    assert "Ann" in (claimed.text_content() or "")  # its title: the route and who holds it
    segments = segments_of(page, table, f"#table g.place[data-choice='{route}']")[route]
    assert segments and set(segments) == {(rgb(SEATS[0]), 9)}
    # so is the route Bob claimed in his turn after Ann's, in his colour
    owner = table.engine.view(table.state, 0)["m"]["owner"]
    bobs = [table.game.components[c].key for c, p in enumerate(owner) if p == 1]
    assert bobs, "Bob claimed a route in his turn (seed 7)"
    drawn = segments_of(page, table, "#table g.place.shape-edge")
    assert set(drawn[bobs[0]]) == {(rgb(SEATS[1]), 9)}
    titles = page.locator("#table g.place.held title").all_text_contents()
    assert sorted(t.split(": ")[-1] for t in titles) == sorted(["Ann", *["Bob"] * len(bobs)])
    assert_page_shows_only_its_seat(page, table, 0)
    shot(page, "ticket-to-ride-map")
