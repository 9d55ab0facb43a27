"""Secrets in a real browser (tests/games/secrets): on another seat's link, a secret chip count and
a zone's secret size are absent from the JSON the page reads and from the page, which shows `?`;
on the owner's link both show. Screenshots: secrets-Bob, secrets-Ann."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Served, assert_page_shows_only_its_seat, shot

pytestmark = pytest.mark.slow  # a headless Chromium and two pages

SECRETS = Path(__file__).resolve().parents[1] / "games" / "secrets"
CHIPS = 4321  # a number that appears nowhere else in the page


def open_seat(page: Any, served: Served, seat: int) -> str:
    """Open `seat`'s own link; the JSON its page read."""
    with page.expect_response(lambda r: "/api/seat/" in r.url) as answer:
        page.goto(served.link(token=served.keys.seats[seat]))
    page.wait_for_selector("#you .panel-head h2")
    return str(answer.value.text())


def test_a_secret_count_and_chips_are_absent_from_another_seats_page(page: Any, serve: Any) -> None:
    served = serve(str(SECRETS), [("Ann", "human"), ("Bob", "human"), ("Cid", "human")], seed=3)
    served.table.choose(0, next(i for i in served.table.state["dec"]["ids"] if i.startswith("stow:")))
    served.table.state["c"][served.table.game.counters["chips"].base] = CHIPS
    bob_json = open_seat(page, served, 1)
    assert str(CHIPS) not in bob_json and str(CHIPS) not in page.content()
    assert '"size": null' in bob_json.replace('"size":null', '"size": null')
    body = page.inner_text("body")
    assert "stash ?" in body and "stash(Ann)" not in body  # the summary; no move line in the log
    row = page.locator('[data-ref="0:stash"]')
    assert row.inner_text().strip() == "?"  # not "empty"
    assert page.locator('.row[data-name="stash"] .size').first.inner_text() == "?"
    assert_page_shows_only_its_seat(page, served.table, 1)
    shot(page, "secrets-Bob")
    ann = page.context.new_page()
    ann_json = open_seat(ann, served, 0)
    assert str(CHIPS) in ann_json and str(CHIPS) in ann.inner_text("body")
    assert "stash(Ann)" in ann.inner_text("body")
    shot(ann, "secrets-Ann")
