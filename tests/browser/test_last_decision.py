"""The page names choices, marks what the last decision changed, highlights exactly the chosen
components and shows the bots' thinking time (issue 25 items 1, 5, 6; issue 24 item 5).

Screenshots (artefacts/screenshots/): last-decision-porta-nigra, targets-glory-to-rome,
thinking-ismcts, board-phone-porta-nigra-player (390 px).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import Served, assert_page_shows_only_its_seat, shot
from test_board import click_random_button, glory_to_rome, open_seat, wait_for_decisions

from tabula.play.changes import changes

pytestmark = pytest.mark.slow
# the component ids of the cards found
IDS = "els => els.flatMap(e => e.dataset.ids.split(',').filter(Boolean).map(Number))"


def marked(page: Any) -> tuple[list[int], list[str]]:
    moved = page.eval_on_selector_all(".card.moved", IDS)
    changed = page.eval_on_selector_all("[data-ref].changed", "els => els.map(e => e.dataset.ref)")
    return sorted(set(moved)), sorted(set(changed))


def test_the_log_names_the_quarter_and_the_page_marks_the_last_decision(page: Any, serve: Any) -> None:
    served: Served = serve("porta-nigra", [("Red", "human"), ("Green", "random")], seed=7)
    table = served.table
    open_seat(page, served)
    page.locator("#table g.place[data-choice='1'] .place-shape").click(position={"x": 30, "y": 30})
    wait_for_decisions(page, 0)
    log = page.eval_on_selector_all("#log-lines li", "els => els.map(e => e.textContent)")
    assert "Red: Quarter 2: Basilica, yellow shop" in log, log[-5:]
    # play on by buttons; after each click the page marks exactly what the server says the last
    # decision (Red's, or the bot's after it) changed, as Red sees it
    rnd = random.Random(2)
    for _ in range(12):
        if table.over:
            break
        before = len(table.choices)
        assert click_random_button(page, served, rnd)
        n = len(table.choices)
        want = changes(table.game, table.seat_view(table.states[n - 1], 0), table.seat_view(table.state, 0))
        moved, changed = marked(page)
        drawn = page.eval_on_selector_all("[data-ref]", "els => els.map(e => e.dataset.ref)")
        assert changed == sorted(set(want["changed"]) & set(drawn)), (table.choices[before:], want)
        shown = page.eval_on_selector_all(".card[data-ids]", IDS)
        assert moved == sorted(set(want["moved"]) & set(shown))
    assert any(marked(page)), "the last decision changed something on the page"
    shot(page, "last-decision-porta-nigra")
    assert_page_shows_only_its_seat(page, table, 0)


def test_only_the_components_a_choice_names_are_highlighted(page: Any, serve: Any) -> None:
    served = glory_to_rome(serve)
    table = served.table
    open_seat(page, served)
    rnd = random.Random(8)
    checked = 0
    for _ in range(60):
        if table.over or table.decider() != 0:
            break
        board = table.board(0)["board"]
        dec = board["decision"]
        named = {c for choice in dec["choices"] for c in choice["targets"]}
        lit = page.eval_on_selector_all(".card.target", IDS)
        stacks = page.eval_on_selector_all(
            ".card.target", "els => els.map(e => e.dataset.ids.split(',').length)"
        )
        # a lit card is one a choice names (a stack: one of its cards is)
        assert all(n >= 1 for n in stacks)
        singles = page.eval_on_selector_all(
            ".card.target",
            "els => els.filter(e => !e.dataset.ids.includes(',')).map(e => Number(e.dataset.ids))",
        )
        assert set(singles) <= named, (set(singles) - named, dec["prompt"])
        assert named <= set(lit) | {c for c in named if not page.locator(f".card[data-ids='{c}']").count()}
        checked += bool(singles)
        if checked == 1:
            shot(page, "targets-glory-to-rome")
        if not click_random_button(page, served, rnd):
            break
    assert checked > 0, "some decision named a card on the page"


def test_a_person_plays_against_ismcts_and_sees_its_thinking_time(page: Any, serve: Any) -> None:
    served = serve("porta-nigra", [("Red", "human"), ("Green", "ismcts")], seed=7)
    table = served.table
    open_seat(page, served)
    rnd = random.Random(4)
    seen_thinking = False
    for _ in range(40):
        if table.over or any(t is not None for t in table.thoughts):
            break
        buttons = page.locator("#decision button.choice:not([disabled])")
        if buttons.count() == 0:
            page.wait_for_selector("#decision button.choice:not([disabled])", timeout=30000)
            continue
        before = len(table.choices)
        buttons.nth(rnd.randrange(buttons.count())).click()
        try:  # while the bot thinks, the page counts
            page.wait_for_selector("#thinking:not([hidden])", timeout=1500)
            text = page.locator("#thinking").text_content() or ""
            assert "Green (ismcts bot) is thinking" in text, text
            seen_thinking = True
            shot(page, "thinking-ismcts", full=False)
        except Exception as err:  # a quick answer may finish between two polls
            if "Timeout" not in type(err).__name__:
                raise
        wait_for_decisions(page, before)
    bots = [t for t, p in zip(table.thoughts, table.deciders, strict=True) if p == 1]
    # every bot decision is timed; one with a single legal choice is answered without a search
    assert bots and all(t is not None for t in bots) and max(t or 0 for t in bots) > 0.05, bots
    page.wait_for_selector("#thought:not([hidden])")
    items = page.eval_on_selector_all("#thought .thought-item", "els => els.map(e => e.textContent)")
    assert items and all(i.startswith("Green ") and " s (decision " in i for i in items), items
    assert seen_thinking, "the page showed the bot thinking"
    assert_page_shows_only_its_seat(page, table, 0)


def test_porta_nigra_draws_each_players_area(browser: Any, page: Any, serve: Any) -> None:
    served = serve("porta-nigra", [("Red", "human"), ("Green", "random")], seed=7)
    table = served.table
    open_seat(page, served)
    places = page.eval_on_selector_all("#you svg.layout g.place", "els => els.map(e => e.dataset.place)")
    for title in ("VP", "Money", "Influence", "Torches", "Bricks", "Hand", "Played", "Deck", "Honour cards"):
        assert title in places, places
    view = table.engine.view(table.state, 0)
    money = view["c"][table.game.counters["money"].base]
    shown = page.locator("#you g.place[data-place='Money'] .place-text").text_content()
    assert shown == str(money)
    chips = page.eval_on_selector_all(
        "#you g.place[data-place='Bricks'] .chip", "els => els.map(e => e.dataset.key)"
    )
    assert sorted(chips) == sorted(table.game.counters["bricks"].keys)
    hand = [table.game.components[c].name for c in view["z"][table.game.zones["hand"].index(0)]]
    mine = page.eval_on_selector_all(
        "#you g.place[data-place='Hand'] .card", "els => els.map(e => e.dataset.name)"
    )
    assert sorted(mine) == sorted(hand)
    backs = page.locator(".panel.other g.place[data-place='Hand'] .card.back")
    assert backs.count() == 1  # the other hand: backs with a count, no names
    # the purse is drawn, so its rows are not listed again below the board
    assert page.locator("#you .row[data-name='money']").count() == 0
    shot(page, "board-porta-nigra-player")
    assert_page_shows_only_its_seat(page, table, 0)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    try:
        phone.goto(served.link(0))
        phone.wait_for_selector("#you svg.layout")
        box = phone.locator("#decision").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, box
        phone.locator("#you svg.layout").scroll_into_view_if_needed()
        shot(phone, "board-phone-porta-nigra-player", full=False)
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 400, width
    finally:
        context.close()
