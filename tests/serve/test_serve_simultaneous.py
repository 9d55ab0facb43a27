"""Simultaneous steps at the table (Sushi Go's pick): every seat answers on its own link as soon as
the step is open; an early answer is hidden from the other seats and spectators until all are in;
either order gives the same game; undo, the decision numbers and saves stay right."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_serve import host_client

from tabula.play.board import SPECTATOR
from tabula.serve.model import GameSpec, SeatSpec
from tabula.serve.table import Table


def sushi(seed: int = 4) -> tuple[Table, TestClient]:
    table = Table(GameSpec("sushi-go"), [SeatSpec("Ann"), SeatSpec("Bob")], seed)
    return table, host_client(table)


def page(c: TestClient, seat: int) -> dict[str, Any]:
    data: dict[str, Any] = c.get(f"/api/seat/{seat}").json()
    return data


def first_choice(c: TestClient, seat: int) -> str:
    dec = page(c, seat)["board"]["decision"]
    assert dec["mine"] and dec["choices"], dec
    return str(dec["choices"][0]["id"])


def answer(c: TestClient, seat: int, choice: str, decision: int | None = None) -> Any:
    at = page(c, seat)["decisions"] if decision is None else decision
    return c.post(f"/api/seat/{seat}/choose", json={"decision": at, "choice": choice})


@pytest.mark.slow  # two games through the HTTP API
def test_either_order_gives_the_same_game() -> None:
    games = []
    for order in ((0, 1), (1, 0)):
        table, c = sushi()
        picks = {seat: first_choice(c, seat) for seat in (0, 1)}
        for seat in order:
            assert answer(c, seat, picks[seat]).status_code == 200
        assert "sim" in table.state["t"] and len(table.state["t"]["sim"]["a"]) == 0  # the next pick
        games.append((table.hashes[-1], page(c, 0)["board"], page(c, 1)["board"], table.log[-8:]))
    assert games[0] == games[1]


def test_an_early_answer_is_hidden_from_the_others() -> None:
    table, c = sushi()
    pick = first_choice(c, 1)
    before = {seat: page(c, seat) for seat in (0, SPECTATOR)}
    assert answer(c, 1, pick).status_code == 200
    assert table.choices == [f"@1:{pick}"] and table.decider() == 0
    mine = page(c, 1)["board"]["decision"]
    assert not mine["mine"] and mine["answered"] and mine["waiting"] == ["Ann", "Bob"]
    for seat in (0, SPECTATOR):
        after = page(c, seat)
        assert after["log"] == before[seat]["log"] and after["board"] == before[seat]["board"]
        assert after["changes"] == {"moved": [], "changed": []}
    assert c.post("/api/seat/1/choose", json={"decision": 1, "choice": pick}).status_code == 400


def test_undo_takes_an_early_answer_back_and_stale_clicks_are_refused() -> None:
    table, c = sushi()
    start = page(c, 1)
    bob, ann = first_choice(c, 1), first_choice(c, 0)
    assert answer(c, 1, bob, decision=0).status_code == 200
    assert answer(c, 0, ann, decision=0).status_code == 200  # the same open step: not stale
    assert table.deciders == [1, 0] and table.choices[0] == f"@1:{bob}"
    assert answer(c, 0, ann, decision=0).status_code == 409  # a double click
    back = c.post("/api/seat/1/undo").json()
    assert back["decisions"] == 0 and back["board"] == start["board"] and table.decider() == 0
    assert page(c, 1)["board"]["decision"]["mine"]  # Bob may answer again


@pytest.mark.slow  # two games through the HTTP API
def test_a_save_with_early_answers_loads_the_same_game() -> None:
    table, c = sushi()
    for seat in (1, 0):
        answer(c, seat, first_choice(c, seat))
    answer(c, 1, first_choice(c, 1))  # ahead again, still hidden in the save's last position
    other, oc = sushi(seed=9)
    assert oc.post("/api/load", json=c.get("/api/save").json()).status_code == 200
    assert other.hashes == table.hashes and other.choices == table.choices
