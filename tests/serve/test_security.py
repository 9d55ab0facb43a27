"""`tabula serve` over a network: who may do what (docs/presentation.md, "Who can do what").

Each seat's secret link reads and plays that seat only; the host's link alone starts, saves, loads,
exports and reloads; a spectator sees what every seat sees. A foreign `Host`, a POST from another
origin or with a body that is not JSON, and bodies too large, too deep or with too long numbers are
refused before any work. No path in a request reaches a file outside the game's folder, and no error
quotes one. A refused load and a reload whose rules fail change nothing. A stale choice is refused.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tabula.interpreter.run.knowledge import hidden_from
from tabula.play.board import SPECTATOR
from tabula.serve import app as app_module
from tabula.serve import table as table_module
from tabula.serve.access import TOKEN_HEADER
from tabula.serve.app import create_app
from tabula.serve.model import GameSpec, SeatSpec
from tabula.serve.table import Table

ROOT = Path(__file__).resolve().parents[2]
HIGH_CARD = ROOT / "gamedefs" / "high-card"
JSON = {"Content-Type": "application/json"}


def served(game: str = "high-card", kinds: tuple[str, ...] = ("human", "human"), **allowed: Any) -> Any:
    """A table, its app's keys and a client factory `c(token)` (the token's link)."""
    names = ["Ann", "Bob", "Cy", "Di"][: len(kinds)]
    table = Table(GameSpec(game), [SeatSpec(n, k) for n, k in zip(names, kinds, strict=True)], 3)
    app = create_app(table, **allowed)
    keys = app.state.keys

    def c(token: str | None, host: str = "127.0.0.1:8765") -> TestClient:
        headers = {**JSON, **({TOKEN_HEADER: token} if token else {})}
        return TestClient(app, base_url=f"http://{host}", headers=headers)

    return table, keys, c


def decisions(c: TestClient, seat: int) -> int:
    n: int = c.get(f"/api/seat/{seat}").json()["decisions"]
    return n


# ------------------------------------------------------------------ tokens


def test_a_seat_reads_and_plays_only_itself() -> None:
    table, keys, c = served()
    nobody, ann, bob, host, spectator = (
        c(None),
        c(keys.seats[0]),
        c(keys.seats[1]),
        c(keys.host),
        c(keys.spectator),
    )
    for path in ("/api/info", "/api/version", "/api/seat/0", "/api/public", "/api/seat/0/why?action=play"):
        assert nobody.get(path).status_code == 401, path
        assert c("not-a-token").get(path).status_code == 401, path
    assert nobody.post("/api/seat/0/choose", json={"choice": "play:S6", "decision": 0}).status_code == 401
    assert ann.get("/api/seat/0").status_code == 200
    assert ann.get("/api/info").json()["you"] == {"role": "seat", "seat": 0}
    for path in ("/api/seat/1", "/api/seat/1/why?action=play"):
        assert ann.get(path).status_code == 403, path
        assert spectator.get(path).status_code == 403, path
    assert bob.post("/api/seat/0/choose", json={"choice": "play:S6", "decision": 0}).status_code == 403
    assert bob.post("/api/seat/0/undo").status_code == 403
    assert table.choices == []
    assert ann.post("/api/seat/0/choose", json={"choice": "play:S6", "decision": 0}).status_code == 200
    assert bob.post("/api/seat/0/undo").status_code == 403 and len(table.choices) == 1
    assert host.get("/api/seat/1").status_code == 200  # the host's link: every seat (a hot seat)


def test_only_the_host_starts_saves_loads_exports_and_reloads() -> None:
    table, keys, c = served()
    host = c(keys.host)
    save = host.get("/api/save").json()
    requests = [
        ("get", "/api/save", None),
        ("get", "/api/export", None),
        ("get", "/api/links", None),
        ("post", "/api/reload", {}),
        ("post", "/api/load", save),
        ("post", "/api/new", {"seats": [{"name": "X"}, {"name": "Y"}], "seed": 1}),
        ("post", "/api/scenario", {"path": "scenarios/tiebreak.yaml"}),
    ]
    for token in (keys.seats[0], keys.seats[1], keys.spectator):
        for method, path, body in requests:
            answer = getattr(c(token), method)(path, **({"json": body} if body is not None else {}))
            assert answer.status_code == 403, (path, answer.text)
            assert "only the host" in answer.json()["error"]
    assert table.start.seed == 3 and table.start.scenario is None
    for method, path, body in requests:
        answer = getattr(host, method)(path, **({"json": body} if body is not None else {}))
        assert answer.status_code == 200, (path, answer.text)
    links = host.get("/api/links").json()
    assert [link["who"] for link in links] == ["host", *table.state["names"], "spectators"]
    assert all(link["url"].startswith("http://127.0.0.1:8765/#token=") for link in links)


def test_a_spectator_sees_only_public_information() -> None:
    table, keys, c = served("glory-to-rome", ("human", "random", "random"))
    answer = c(keys.spectator).get("/api/public")
    assert answer.status_code == 200
    board = answer.json()["board"]
    assert board["you"]["title"] == "Spectator" and board["decision"]["choices"] == []
    secret = hidden_from(table.game, table.state, SPECTATOR)
    assert secret, "glory-to-rome has hands and a deck"
    for cid in secret:
        assert f'"{table.game.components[cid].key}"' not in answer.text
    hands = [r for p in board["others"] for s in p["sections"] for r in s["lines"] if r["name"] == "hand"]
    assert hands and all(card["hidden"] for row in hands for card in row["cards"])
    for entry in table.log:  # a line hidden from any seat reaches a spectator only as its neutral line
        if entry.get("hidden_from"):
            assert entry["text"] not in answer.json()["log"] or entry["text"] == entry.get("redacted")


# ------------------------------------------------------------------ hosts, origins, bodies


def test_foreign_hosts_and_cross_origin_posts_are_refused() -> None:
    table, keys, c = served(allowed_hosts=frozenset({"table.local"}))
    assert c(keys.host, "evil.example:8765").get("/api/info").status_code == 400
    assert c(keys.host, "localhost.evil.example").get("/").status_code == 400
    for host in ("localhost:8765", "127.0.0.1:8765", "[::1]:8765", "192.168.1.20:8765", "table.local:8765"):
        assert c(keys.host, host).get("/api/info").status_code == 200, host
    ann = c(keys.seats[0])
    plain = ann.post(
        "/api/seat/0/choose",
        content=json.dumps({"choice": "play:S6", "decision": 0}),
        headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
    )
    assert plain.status_code in (403, 415)
    assert (
        ann.post(
            "/api/seat/0/choose",
            content=b'{"choice": "play:S6", "decision": 0}',
            headers={"Content-Type": "text/plain"},
        ).status_code
        == 415
    )
    foreign = ann.post(
        "/api/seat/0/choose",
        json={"choice": "play:S6", "decision": 0},
        headers={"Origin": "http://evil.example"},
    )
    assert foreign.status_code == 403 and "another site" in foreign.json()["error"]
    assert table.choices == []
    same = ann.post(
        "/api/seat/0/choose",
        json={"choice": "play:S6", "decision": 0},
        headers={"Origin": "http://127.0.0.1:8765"},
    )
    assert same.status_code == 200 and len(table.choices) >= 1


def test_bodies_are_measured_before_they_are_parsed() -> None:
    table, keys, c = served()
    host = c(keys.host)
    cases = [
        ("/api/load", "[" * 5000 + "]" * 5000, 400, "nested more than"),
        ("/api/seat/0/choose", '{"choice": "play:S6", "decision": ' + "9" * 5000 + "}", 400, "number longer"),
        ("/api/seat/0/choose", '{"choice": "play:S6", "decision": NaN}', 400, "not JSON"),
        ("/api/seat/0/choose", '{"choice": "' + "x" * 20_000 + '", "decision": 0}', 413, "larger than"),
        ("/api/new", "\xff\xfe", 400, "not JSON"),
    ]
    for path, body, status, message in cases:
        answer = host.post(
            path, content=body.encode("utf-8", "surrogateescape") if "\xff" not in body else b"\xff"
        )
        assert answer.status_code == status and message in answer.json()["error"], (path, answer.text)
    deep_yaml = "scenario: x\ngame: high-card\nplayers: [A, B]\nseed: 1\ngiven: " + "[" * 5000 + "]" * 5000
    for text in (deep_yaml, "given:\n  " + "- " * 5000 + "x\n"):
        body = json.dumps({"text": text, "name": "deep.yaml"})
        started = time.process_time()
        answer = host.post("/api/scenario", content=body)
        used = time.process_time() - started
        assert answer.status_code == 400 and "nested more than" in answer.json()["error"], answer.text
        assert used < 0.1, f"a 5,000-deep upload took {used:.3f} s of CPU to refuse"
    assert table.start.scenario is None and list(app_uploads(host).iterdir()) == []


def app_uploads(c: TestClient) -> Path:
    folder: Path = c.app.state.uploads.folder  # type: ignore[attr-defined]
    return folder


def test_uploads_are_kept_by_the_server_under_its_own_names_and_cleaned() -> None:
    table, keys, c = served()
    host = c(keys.host)
    text = (HIGH_CARD / "scenarios" / "tiebreak.yaml").read_text()
    assert host.post("/api/scenario", json={"text": text, "name": "../../etc/cron.d/x"}).status_code == 200
    kept = list(app_uploads(host).iterdir())
    assert len(kept) == 1 and kept[0].name.endswith("-x") and table.start.scenario == str(kept[0])
    assert host.post("/api/scenario", json={"text": text, "name": "second.yaml"}).status_code == 200
    assert [p.name for p in app_uploads(host).iterdir()] == [Path(table.start.scenario).name]
    assert host.post("/api/new", json={"seats": [{"name": "A"}, {"name": "B"}], "seed": 1}).status_code == 200
    assert list(app_uploads(host).iterdir()) == []
    app_uploads(host).rmdir()


# ------------------------------------------------------------------ paths in requests


SECRETS = [Path("/etc/passwd"), Path("/proc/self/environ")]


def secret_lines(path: Path) -> list[str]:
    try:
        raw = path.read_bytes()
    except OSError:
        return []
    parts = raw.replace(b"\0", b"\n").decode("utf-8", "replace").splitlines()
    return [p for p in parts if len(p.strip()) >= 6]


@pytest.mark.parametrize("secret", SECRETS, ids=["etc-passwd", "proc-self-environ"])
def test_a_load_naming_a_file_outside_the_game_never_reads_it(secret: Path) -> None:
    table, keys, c = served()
    host = c(keys.host)
    host.post("/api/seat/0/choose", json={"choice": "play:S6", "decision": 0})
    before = list(table.choices)
    save = host.get("/api/save").json()
    relative = "../" * 12 + str(secret).lstrip("/")
    tamperings = []
    for ref in (str(secret), relative):
        tamperings += [
            {"start": {**save["start"], "scenario": ref}},
            {"game": {**save["game"], "variant": ref}},
            {"game": {**save["game"], "expansions": [ref]}},
            {"game": {**save["game"], "game": ref}},
            {"game": {**save["game"], "game": str(secret.parent)}},
        ]
    lines = secret_lines(secret)
    for tampering in tamperings:
        answer = host.post("/api/load", json={**save, **tampering})
        assert answer.status_code == 400, (tampering, answer.text)
        for line in lines:
            assert line not in answer.text, f"{tampering}: a line of {secret} in the answer"
        assert table.choices == before
    assert host.post("/api/scenario", json={"path": relative}).status_code == 400
    assert host.post("/api/load", json=save).status_code == 200 and table.choices == before


# ------------------------------------------------------------------ nothing changes when it fails


def test_a_refused_load_leaves_the_table_playable_with_every_decision() -> None:
    table, keys, c = served("high-card", ("human", "random"))
    host = c(keys.host)
    for choice in ("play:S6", "play:S4"):
        host.post("/api/seat/0/choose", json={"choice": choice, "decision": decisions(host, 0)})
    before, hashes = list(table.choices), list(table.hashes)
    save = host.get("/api/save").json()
    bad = [
        {**save, "seats": [{"name": "Solo", "kind": "human"}], "start": {**save["start"], "names": ["Solo"]}},
        {**save, "game": {**save["game"], "options": {"no_such_option": 1}}},
        {**save, "seats": [{"name": "A", "kind": "wizard"}, {"name": "B"}]},
        {**save, "choices": "play:S6"},
    ]
    for data in bad:
        answer = host.post("/api/load", json=data)
        assert answer.status_code == 400, answer.text
        assert table.choices == before and table.hashes == hashes
        assert host.get("/api/seat/0").status_code == 200
    assert (
        host.post("/api/seat/0/choose", json={"choice": "play:C1", "decision": len(before)}).status_code
        == 200
    )
    assert host.post("/api/load", json=save).status_code == 200 and table.hashes == hashes


def test_a_reload_whose_rules_fail_keeps_the_old_rules_and_every_decision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "WATCH_EVERY", 0.0)
    game = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, game)
    table = Table(GameSpec(str(game)), [SeatSpec("Ann"), SeatSpec("Bob", "random")], 3)
    app = create_app(table)
    host = TestClient(app, base_url="http://127.0.0.1", headers={**JSON, TOKEN_HEADER: app.state.keys.host})
    for choice in ("play:S6", "play:S4"):
        host.post("/api/seat/0/choose", json={"choice": choice, "decision": decisions(host, 0)})
    before, hashes = list(table.choices), list(table.hashes)
    flow = game / "flow.yaml"
    original = flow.read_text()
    flow.write_text(original.replace("set leader = winner", "set leader = [winner][round]"))
    time.sleep(0.01)
    host.get("/api/version")
    report = host.get("/api/seat/0").json()["report"]
    assert report["kind"] == "broken" and "fail at decision 2 of 5" in report["message"], report
    assert "still playing the old rules" in report["message"]
    assert table.choices == before and table.hashes == hashes  # the playtest is whole
    flow.write_text(original)
    time.sleep(0.01)
    host.get("/api/version")
    report = host.get("/api/seat/0").json()["report"]
    assert report["kind"] == "reloaded" and "all 5 decisions replayed" in report["message"], report
    assert host.post("/api/seat/0/choose", json={"choice": "play:C1", "decision": 5}).status_code == 200


# ------------------------------------------------------------------ stale choices, bots off the loop


def test_a_stale_decision_number_is_refused() -> None:
    table, keys, c = served("high-card", ("human", "random"))
    ann = c(keys.seats[0])
    first = ann.post("/api/seat/0/choose", json={"choice": "play:S6", "decision": 0})
    assert first.status_code == 200
    played = len(table.choices)
    again = ann.post("/api/seat/0/choose", json={"choice": "play:S4", "decision": 0})  # a double click
    assert again.status_code == 409 and "older position" in again.json()["error"]
    assert len(table.choices) == played
    missing = ann.post("/api/seat/0/choose", json={"choice": "play:S4"})
    assert missing.status_code == 400 and '"decision"' in missing.json()["error"]
    assert ann.post("/api/seat/0/choose", json={"choice": "play:S4", "decision": played}).status_code == 200
    now = len(table.choices)
    assert ann.post("/api/seat/0/undo", json={"decision": now}).status_code == 200
    twice = ann.post("/api/seat/0/undo", json={"decision": now})  # the same undo, clicked twice
    assert twice.status_code == 409 and len(table.choices) == played


def test_bots_think_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import urllib.request

    import uvicorn

    thinking, done = threading.Event(), threading.Event()
    real_pick = table_module.pick

    def slow_pick(*args: Any) -> str:
        thinking.set()
        assert done.wait(20), "the test never let the bot finish"
        return real_pick(*args)

    table = Table(GameSpec("high-card"), [SeatSpec("Ann"), SeatSpec("Bob", "random")], 3)
    app = create_app(table)
    keys = app.state.keys
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    monkeypatch.setattr(table_module, "pick", slow_pick)
    url = f"http://127.0.0.1:{port}"

    def call(path: str, token: str, body: dict[str, Any] | None = None) -> int:
        data = json.dumps(body).encode() if body is not None else None
        ask = urllib.request.Request(url + path, data=data, headers={**JSON, TOKEN_HEADER: token})
        with urllib.request.urlopen(ask, timeout=20) as answer:
            return int(answer.status)

    answers: list[int] = []
    try:
        worker = threading.Thread(
            target=lambda: answers.append(
                call("/api/seat/0/choose", keys.seats[0], {"choice": "play:S6", "decision": 0})
            )
        )
        worker.start()
        assert thinking.wait(20)
        assert call("/api/version", keys.spectator) == 200  # answered while the bot thinks
        assert not done.is_set() and not answers
        done.set()
        worker.join(20)
    finally:
        done.set()
        server.should_exit = True
    assert answers == [200] and len(table.choices) >= 2
