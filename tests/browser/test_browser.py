"""`tabula serve` in a real browser: whole games played by clicks, the designer's tools, no leaks.

Screenshots (artefacts/screenshots/): porta-nigra-start, -middle, -end; glory-to-rome-turn-N and
-after; hot-seat-Ann, hot-seat-Bob; history-past; why-not; reload-diverged, reload-broken;
scenario-start, scenario-error; link-seat-Bob, link-spectator; phone-glory-to-rome and -log (390 px).
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, Served, assert_no_hidden_in_json, assert_page_shows_only_its_seat, shot

from tabula.interpreter.run.knowledge import hidden_from
from tabula.play.board import SPECTATOR
from tabula.serve import app as app_module

# every test drives a headless Chromium through whole turns: seconds each, a minute in all
pytestmark = pytest.mark.slow

CHOICES = "#decision button.choice:not([disabled])"


def open_seat(page: Any, served: Served, seat: int = 0) -> None:
    page.goto(served.link(seat))
    page.wait_for_selector("#you .panel-head h2")


def click_choice(page: Any, served: Served, seat: int, choice: str) -> dict[str, Any]:
    """Click the button of `choice`; wait for the server's answer and the redrawn page; check both."""
    before = page.inner_text("#history-label")
    with page.expect_response(lambda r: "/choose" in r.url) as answer:
        page.click(f'#decision button[data-choice="{choice}"]')
    response = answer.value
    assert response.status == 200, response.text()
    text = response.text()
    assert_no_hidden_in_json(text, served.table, seat)
    if json.loads(text)["decisions"] != int(before.split(" ")[0]):
        page.wait_for_function("b => document.querySelector('#history-label').textContent !== b", arg=before)
    data: dict[str, Any] = json.loads(text)
    return data


def play_by_clicks(
    page: Any, served: Served, seat: int, limit: int, seed: int = 1, check_every: int = 1
) -> int:
    """Click random offered choices until the game ends or `limit` clicks; returns the clicks."""
    rnd = random.Random(seed)
    for n in range(limit):
        buttons = page.locator(CHOICES)
        if buttons.count() == 0:
            return n
        choice = buttons.nth(rnd.randrange(buttons.count())).get_attribute("data-choice")
        click_choice(page, served, seat, choice)
        if n % check_every == 0:
            assert_page_shows_only_its_seat(page, served.table, seat)
    return limit


def test_a_whole_porta_nigra_game_against_a_bot(page: Any, serve: Any) -> None:
    served = serve("porta-nigra", [("Red", "human"), ("Green", "random")], seed=7)
    open_seat(page, served)
    assert page.inner_text("#game-name") == "Porta Nigra"
    assert_page_shows_only_its_seat(page, served.table, 0)
    shot(page, "porta-nigra-start")
    clicks = play_by_clicks(page, served, 0, 40)
    shot(page, "porta-nigra-middle")
    clicks += play_by_clicks(page, served, 0, 1000, seed=2)
    assert served.table.over, "the game should have ended"
    page.wait_for_selector("#final table.scores")
    shot(page, "porta-nigra-end")
    scores = served.table.engine.scores(served.table.state)
    totals = page.eval_on_selector_all("#final tr.total td", "els => els.map(e => e.innerText)")
    assert [int(t) for t in totals] == scores
    rows = page.eval_on_selector_all("#final th.part", "els => els.map(e => e.innerText)")
    assert rows == [
        "Building card sets",
        "Final-scoring honour cards",
        "Leftovers",
        "Majorities",
        "VP during play",
        "Total",
    ]
    assert "Winner" in page.inner_text("#final .winners")
    assert clicks > 50
    assert_page_shows_only_its_seat(page, served.table, 0)


def test_glory_to_rome_turns_by_clicks(page: Any, serve: Any) -> None:
    served = serve(
        "glory-to-rome",
        [("P1", "human"), ("P2", "random"), ("P3", "random")],
        seed=4,
        surrender_allowed=False,
    )
    open_seat(page, served)
    turns_seen: list[int] = []
    rnd_seed = 0
    while served.table.state["t"]["turn"] < 7 and not served.table.over and rnd_seed < 60:
        turn = served.table.state["t"]["turn"]
        if turn not in turns_seen:
            turns_seen.append(turn)
            shot(page, f"glory-to-rome-turn-{turn}")
        play_by_clicks(page, served, 0, 1, seed=rnd_seed)
        rnd_seed += 1
    shot(page, "glory-to-rome-after")
    printed = {c.name: c.text for c in served.table.game.components if c.text}
    faces = page.eval_on_selector_all(
        ".card[data-name] > .text", "els => els.map(e => [e.parentElement.dataset.name, e.textContent])"
    )
    with_text = [(name, text) for name, text in faces if name in printed]
    assert with_text, "some building is face up"
    assert all(text.startswith(printed[name]) for name, text in with_text), with_text[:3]
    assert len(turns_seen) >= 4, turns_seen
    buildings = page.locator('#you :is(.row, g.place)[data-name="buildings"] .card')
    assert buildings.count() == len(served.table.state["z"][served.table.game.zones["buildings"].index(0)])
    for seat in (1, 2):  # every other seat's hand is drawn as card backs
        hand = page.locator(
            f"#others .panel:nth-child({seat}) :is(.row, g.place)[data-name='hand'] .card.back"
        )
        assert hand.count() >= (
            1 if served.table.state["z"][served.table.game.zones["hand"].index(seat)] else 0
        )


def test_hot_seat_shows_only_the_chosen_seat(page: Any, serve: Any) -> None:
    served = serve("high-card", [("Ann", "human"), ("Bob", "human")], seed=3)
    open_seat(page, served, 0)
    hand = lambda: page.eval_on_selector_all(  # noqa: E731
        '#you :is(.row, g.place)[data-name="hand"] .card[data-key]', "els => els.map(e => e.dataset.key)"
    )
    ann = hand()
    assert len(ann) == 5
    click_choice(page, served, 0, f"play:{ann[0]}")
    page.wait_for_selector("#banner:not([hidden])")
    assert "It is Bob's decision" in page.inner_text("#banner")
    assert page.locator(CHOICES).count() == 0
    shot(page, "hot-seat-Ann")
    assert_page_shows_only_its_seat(page, served.table, 0)
    page.click("#banner button.switch")
    page.wait_for_selector('#seats .seat.current[data-seat="1"]')
    page.wait_for_selector(CHOICES)
    bob = hand()
    assert len(bob) == 5 and not set(bob) & set(ann)
    assert (
        page.locator('#others :is(.row, g.place)[data-name="hand"] .card.back').count() == 1
    )  # Ann's 4 cards, face down
    assert_page_shows_only_its_seat(page, served.table, 1)
    shot(page, "hot-seat-Bob")
    click_choice(page, served, 1, f"play:{bob[0]}")
    page.click('#seats .seat[data-seat="0"]')
    page.wait_for_selector('#seats .seat.current[data-seat="0"]')
    assert_page_shows_only_its_seat(page, served.table, 0)


def test_undo_history_and_why_not(page: Any, serve: Any) -> None:
    served = serve("porta-nigra", [("Red", "human"), ("Green", "random")], seed=5)
    open_seat(page, served)
    play_by_clicks(page, served, 0, 6)
    decisions = len(served.table.choices)
    page.click("#undo")
    page.wait_for_function(
        "n => !document.querySelector('#history-label').textContent.startsWith(n + ' ')", arg=str(decisions)
    )
    assert len(served.table.choices) < decisions and served.table.decider() == 0
    assert page.locator(CHOICES).count() > 0
    page.fill("#slider", "1")
    page.wait_for_selector("#live:not([hidden])")
    assert "(the past)" in page.inner_text("#history-label")
    assert page.locator("#decision button.choice:not([disabled])").count() == 0
    shot(page, "history-past")
    page.click("#live")
    page.wait_for_selector("#live", state="hidden")
    page.select_option("#why-action", "buy_honour")
    page.click("#why-form button")
    page.wait_for_function("() => document.querySelector('#why-answer').textContent.length > 0")
    answer = page.inner_text("#why-answer")
    assert "buy_honour" in answer and "not" in answer, answer
    shot(page, "why-not", full=False)


def test_save_and_load_through_the_page(page: Any, serve: Any, tmp_path: Path) -> None:
    served = serve("high-card", [("Ann", "human"), ("Bob", "random")], seed=3)
    open_seat(page, served)
    play_by_clicks(page, served, 0, 2)
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["choices"] == served.table.choices
    hashes = list(served.table.hashes)
    play_by_clicks(page, served, 0, 1)
    page.set_input_files("#load-file", str(saved))
    page.wait_for_selector("#report:not([hidden])")
    assert "rules loaded: all" in page.inner_text("#report")
    assert served.table.hashes == hashes


def served_copy(serve: Any, tmp_path: Path, monkeypatch: Any) -> tuple[Served, Path]:
    """High Card served from a copy of its folder (Ann against a bot), its files watched at every poll."""
    monkeypatch.setattr(app_module, "WATCH_EVERY", 0.0)
    game = tmp_path / "high-card"
    shutil.copytree(ROOT / "gamedefs" / "high-card", game)
    return serve(str(game), [("Ann", "human"), ("Bob", "random")], seed=3), game


def test_live_reload_shows_divergence_and_broken_files(
    page: Any, serve: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    served, game = served_copy(serve, tmp_path, monkeypatch)
    open_seat(page, served)
    play_by_clicks(page, served, 0, 2)
    flow = game / "flow.yaml"
    flow.write_text(flow.read_text().replace("gain 1 tricks(winner)", "gain 2 tricks(winner)"))
    page.wait_for_selector("#report.diverged", timeout=10_000)
    report = page.inner_text("#report")
    assert "positions differ from decision" in report and re.search(r"tricks\((Ann|Bob)\): 1 -> 2", report), (
        report
    )
    shot(page, "reload-diverged")
    flow.write_text(flow.read_text().replace("gain 2 tricks(winner)", "gain 2 trick(winner)"))
    page.wait_for_selector("#report.broken", timeout=10_000)
    report = page.inner_text("#report")
    assert "still playing the old rules" in report and f"{flow}:" in report, report
    shot(page, "reload-broken")


def test_start_from_a_scenario_and_export_it(page: Any, serve: Any, tmp_path: Path) -> None:
    served = serve("porta-nigra", [("Red", "human"), ("Green", "random")], seed=1)
    open_seat(page, served)
    page.click("#open-scenario")
    page.click("#scenario-list button:has-text('pn-e03a-move-two-quarters-buy-black.yaml')")
    page.wait_for_function(
        "() => document.querySelector('#history-label').textContent.includes('scenario pn-e03a')"
    )
    names = page.eval_on_selector_all("#seats .seat-name", "els => els.map(e => e.innerText)")
    assert names == served.table.state["names"]
    assert_page_shows_only_its_seat(page, served.table, 0)
    shot(page, "scenario-start")
    with page.expect_download() as download:
        page.click("#export")
    path = tmp_path / "position.yaml"
    download.value.save_as(path)
    from tabula.interpreter.scenarios import run_scenario_file

    assert run_scenario_file(path).passed


def test_new_game_dialog_with_bots_only(page: Any, serve: Any) -> None:
    served = serve("high-card", [("Ann", "human"), ("Bob", "random")], seed=3)
    open_seat(page, served)
    page.click("#open-new")
    page.select_option("#new-seats .seat-row:nth-child(1) select", "random")
    page.click("#add-seat")
    page.fill("#new-seed", "12")
    page.click("#new-start")
    page.wait_for_selector("#final table.scores")
    assert served.table.over and len(served.table.seats) == 3 and served.table.start.seed == 12
    assert page.locator("#seats .seat").count() == 3


def test_a_seats_link_shows_that_seat_only_and_a_spectators_link_no_hand(page: Any, serve: Any) -> None:
    served = serve("high-card", [("Ann", "human"), ("Bob", "human")], seed=3)
    page.goto(served.link(token=served.keys.seats[1]))
    page.wait_for_selector("#you .panel-head h2")
    assert page.inner_text("#you .panel-head h2") == "You (Bob)"
    assert page.locator('#seats .seat[data-seat="0"]').is_disabled()
    for tool in ("#save", "#load", "#open-scenario", "#export", "#open-new", "#open-links"):
        assert page.locator(tool).is_hidden(), tool
    assert page.locator(CHOICES).count() == 0  # Ann decides first
    assert_page_shows_only_its_seat(page, served.table, 1)
    shot(page, "link-seat-Bob", full=False)
    page.goto("about:blank")
    page.goto(served.link(token=served.keys.spectator))
    page.wait_for_selector("#others .panel-head h2")
    assert page.locator("#you").is_hidden() and "spectator" in page.title()
    g = served.table.game
    secret = {g.components[c].key for c in hidden_from(g, served.table.state, SPECTATOR)}
    shown = page.eval_on_selector_all(".card[data-key]", "els => els.map(e => e.dataset.key)")
    assert secret and not secret & set(shown) and not any(k in page.content() for k in secret if len(k) > 2)
    assert page.locator('#others :is(.row, g.place)[data-name="hand"] .card.back').count() == 2
    assert page.locator("#why").is_hidden() and page.locator("#undo").is_hidden()
    shot(page, "link-spectator", full=False)
    page.goto("about:blank")
    page.goto(served.url)
    page.wait_for_selector("#message:not([hidden])")
    assert "secret link" in page.inner_text("#message")


def test_a_phone_reaches_the_decision_log_and_why_not_first(browser: Any, serve: Any) -> None:
    served = serve(
        "glory-to-rome",
        [("P1", "human"), ("P2", "random"), ("P3", "random")],
        seed=4,
        surrender_allowed=False,
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    try:
        phone.goto(served.link(0))
        phone.wait_for_selector(CHOICES)
        for n in range(12):  # a few turns in: a longer board, a longer log
            buttons = phone.locator(CHOICES)
            if buttons.count() == 0:
                break
            before = len(served.table.choices)
            buttons.nth(n % buttons.count()).click()
            phone.wait_for_function(
                "n => !document.querySelector('#history-label').textContent.startsWith(n + ' ')",
                arg=str(before),
            )
            phone.wait_for_selector(CHOICES)
        box = phone.locator("#decision").bounding_box()
        assert box is not None and box["y"] < 844 * 0.6, box  # the decision on the first screen
        log, why, board = (phone.locator(s).bounding_box() for s in ("#log", "#why", "#you"))
        assert log and why and board and log["y"] < board["y"] and why["y"] < board["y"]
        shot(phone, "phone-glory-to-rome", full=False)
        phone.click("#jump a[href='#log']")
        phone.wait_for_function("() => document.querySelector('#log').getBoundingClientRect().top < 200")
        shot(phone, "phone-glory-to-rome-log", full=False)
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 400, f"the page is {width} px wide on a 390 px phone"
    finally:
        context.close()


def test_stale_answers_and_reports_clear_when_the_position_moves(
    page: Any, serve: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    served, game = served_copy(serve, tmp_path, monkeypatch)
    open_seat(page, served)
    page.select_option("#why-action", "play")
    page.click("#why-form button")
    page.wait_for_function("() => document.querySelector('#why-answer').textContent.length > 0")
    presentation = game / "presentation.yaml"
    presentation.write_text(presentation.read_text().replace("tricks won", "tricks taken"))
    page.wait_for_selector("#report:not([hidden])", timeout=10_000)
    click_choice(page, served, 0, page.locator(CHOICES).first.get_attribute("data-choice"))
    page.wait_for_selector("#report", state="hidden")
    assert page.inner_text("#why-answer") == ""


def test_scenarios_of_a_game_served_from_a_folder_and_their_errors_in_the_dialog(
    page: Any, serve: Any, tmp_path: Path
) -> None:
    game = tmp_path / "porta-nigra"
    shutil.copytree(ROOT / "gamedefs" / "porta-nigra", game)
    served = serve(str(game), [("Red", "human"), ("Green", "random")], seed=1)
    open_seat(page, served)
    page.click("#open-scenario")
    page.click("#scenario-list button:has-text('pn-e03a-move-two-quarters-buy-black.yaml')")
    page.wait_for_function(
        "() => document.querySelector('#history-label').textContent.includes('scenario pn-e03a')"
    )
    assert Path(served.table.game.folder).resolve() == game.resolve()
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        "scenario: broken\ngame: porta-nigra\nplayers: [A, B]\nseed: 1\ngiven: {zones: {nowhere: []}}\n"
    )
    page.click("#open-scenario")
    page.set_input_files("#scenario-file", str(broken))
    page.wait_for_selector("#scenario-error:not([hidden])")
    assert page.locator("#scenario-dialog").is_visible() and "nowhere" in page.inner_text("#scenario-error")
    shot(page, "scenario-error", full=False)
