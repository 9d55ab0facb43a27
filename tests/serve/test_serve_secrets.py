"""Secrets at the table (tests/games/secrets): a counter, a var and a zone's size that a seat may not
know are absent from the JSON sent to it (the page reads `?`), and present in their owner's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from test_serve import host_client

from tabula.play.board import SPECTATOR
from tabula.serve.model import GameSpec, SeatSpec
from tabula.serve.table import Table

SECRETS = Path(__file__).resolve().parents[1] / "games" / "secrets"
CHIPS = 4321  # a number that appears nowhere else in the page


def stowed() -> tuple[Table, TestClient]:
    """Ann has stowed a card and holds CHIPS chips; Bob is to play."""
    table = Table(GameSpec(str(SECRETS)), [SeatSpec("Ann"), SeatSpec("Bob"), SeatSpec("Cid")], 3)
    table.choose(0, next(i for i in table.state["dec"]["ids"] if i.startswith("stow:")))
    table.state["c"][table.game.counters["chips"].base] = CHIPS
    return table, host_client(table)


def lines(page: dict[str, Any], player: str) -> dict[str, dict[str, Any]]:
    panels = [page["board"]["you"], *page["board"]["others"]]
    panel = next(p for p in panels if player in p["title"])
    return {line["name"]: line for section in panel["sections"] for line in section["lines"]}


def test_a_secret_count_and_chips_are_absent_from_another_seats_json() -> None:
    _, c = stowed()
    for seat in (1, 2, SPECTATOR):
        text = c.get(f"/api/seat/{seat}").text
        assert str(CHIPS) not in text
        ann = lines(json.loads(text), "Ann")
        assert ann["stash"]["size"] is None and ann["stash"]["text"] == "?" and ann["stash"]["cards"] == []
        assert ann["chips"]["text"] == "?" and ann["last_bet"]["text"] == "?"
        assert "stash ?" in json.loads(text)["board"]["seats"][0]["summary"]
        assert not any("stash(Ann)" in line for line in json.loads(text)["log"])
    own = c.get("/api/seat/0")
    mine = lines(own.json(), "Ann")
    assert str(CHIPS) in own.text and mine["stash"]["size"] == 1 and mine["chips"]["text"] == str(CHIPS)
    assert any("-> stash(Ann)" in line for line in own.json()["log"])


def test_a_var_seen_by_whoever_paid_is_absent_from_the_others_json() -> None:
    """`tip: {visible_to: "[owner] + lookers"}`: once Ann has paid to look, her tip is in her JSON
    and in no other seat's; the table's card is named to her alone."""
    table = Table(GameSpec(str(SECRETS)), [SeatSpec("Ann"), SeatSpec("Bob"), SeatSpec("Cid")], 3)
    table.choose(0, "pay_to_look")
    card = table.state["z"][table.game.zones["table"].index(None)][0]
    name = table.game.component_names[card]
    c = host_client(table)
    mine = c.get("/api/seat/0")
    assert lines(mine.json(), "Ann")["tip"]["text"] != "?" and name in mine.text
    for seat in (1, 2, SPECTATOR):
        page = c.get(f"/api/seat/{seat}").json()
        assert lines(page, "Ann")["tip"]["text"] == "?"
        assert name not in json.dumps(page["board"])
