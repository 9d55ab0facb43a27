"""Sushi Go's simultaneous pick in a real browser: two seat links answer in either order, the
early answer shows on its own page only, and each screen shows hands, tableaus, puddings and card
text. Screenshots: sushi-go-ahead-Bob, sushi-go-Ann."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Served, assert_page_shows_only_its_seat, shot

pytestmark = pytest.mark.slow  # a headless Chromium and two pages

CHOICES = "#decision button.choice:not([disabled])"


def open_seat(page: Any, served: Served, seat: int) -> None:
    page.goto(served.link(token=served.keys.seats[seat]))  # the seat's own link
    page.wait_for_selector("#you .panel-head h2")


def test_sushi_go_seats_pick_at_once(page: Any, serve: Any) -> None:
    served = serve("sushi-go", [("Ann", "human"), ("Bob", "human")], seed=4)
    bob = page
    ann = page.context.new_page()
    open_seat(bob, served, 1)
    open_seat(ann, served, 0)
    text = bob.inner_text("#you").lower()  # (headings are upper case by CSS)
    assert "hand" in text and "played this round" in text and "puddings" in text and "score" in text
    assert "picked" not in text and "passing" not in text
    cards = bob.eval_on_selector_all("#you .card", "els => els.map(e => e.innerText)")
    counts = [int(m.group(1)) if (m := re.search(r"\u00d7 (\d+)", c)) else 1 for c in cards]
    assert sum(counts) == 10 and len(cards) < 10  # identical cards are one entry with a count
    assert all(len(c.strip().splitlines()) >= 2 for c in cards)  # name and text
    with bob.expect_response(lambda r: "/choose" in r.url) as answer:
        bob.locator(CHOICES).first.click()
    assert answer.value.status == 200
    bob.wait_for_selector("#decision .answered")
    assert "waiting for 2 players" in bob.inner_text("#decision")
    assert "waiting for Ann, Bob (you)" in bob.inner_text("#status")  # who still has to answer
    shot(bob, "sushi-go-ahead-Bob")
    ann.reload()
    ann.wait_for_selector(CHOICES)
    assert "Your answer" not in ann.inner_text("body")
    assert_page_shows_only_its_seat(ann, served.table, 0)
    shot(ann, "sushi-go-Ann")
    with ann.expect_response(lambda r: "/choose" in r.url) as answer:
        ann.locator(CHOICES).first.click()
    assert answer.value.status == 200
    assert "revealed together" in " ".join(e["text"] for e in served.table.log[-8:])
    bob.wait_for_selector(CHOICES)  # the next pick, on Bob's page after its poll
