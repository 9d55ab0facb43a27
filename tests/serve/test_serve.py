"""`tabula serve` through its HTTP API (FastAPI's TestClient; the browser tests are in tests/browser/).

A person and bots play whole games; everything sent for a seat holds no key of a component hidden
from that seat; undo, the history, save and load, the scenario start and export, live reload with
replay (same positions, diverged, failed, broken files) and every refusal are checked.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tabula.interpreter.run.knowledge import hidden_from
from tabula.interpreter.scenarios import run_scenario_file
from tabula.serve import app as app_module
from tabula.serve.access import TOKEN_HEADER
from tabula.serve.app import create_app
from tabula.serve.bots import pick
from tabula.serve.model import GameSpec, SeatSpec
from tabula.serve.table import Table

ROOT = Path(__file__).resolve().parents[2]
HIGH_CARD = ROOT / "gamedefs" / "high-card"


def client(
    game: str, seats: list[tuple[str, str]], seed: int = 3, **options: Any
) -> tuple[Table, TestClient]:
    table = Table(GameSpec(game, options=options), [SeatSpec(n, k) for n, k in seats], seed)
    return table, host_client(table)


def host_client(table: Table) -> TestClient:
    """A client of `table`'s app holding the host's link (every seat, every tool)."""
    app = create_app(table)
    headers = {TOKEN_HEADER: app.state.keys.host, "Content-Type": "application/json"}
    return TestClient(app, base_url="http://127.0.0.1:8765", headers=headers)


def now(c: TestClient, seat: int = 0) -> int:
    """The number of decisions made, as the page of `seat` last read it (sent with a choice)."""
    decisions: int = c.get(f"/api/seat/{seat}").json()["decisions"]
    return decisions


def hidden_keys(table: Table, seat: int) -> list[str]:
    g = table.game
    return [g.components[c].key for c in hidden_from(g, table.state, seat)]


def assert_nothing_hidden(table: Table, seat: int, text: str) -> None:
    for key in hidden_keys(table, seat):
        assert f'"{key}"' not in text, f"{key} is hidden from seat {seat} but was sent to it"


def play_to_end(table: Table, c: TestClient, seat: int, limit: int = 2000) -> int:
    rnd = random.Random(1)
    moves = 0
    while moves < limit:
        answer = c.get(f"/api/seat/{seat}")
        assert answer.status_code == 200
        assert_nothing_hidden(table, seat, answer.text)
        dec = answer.json()["board"]["decision"]
        if dec is None:
            return moves
        assert dec["mine"] and dec["choices"], dec
        r = c.post(
            f"/api/seat/{seat}/choose",
            json={"decision": now(c, seat), "choice": rnd.choice(dec["choices"])["id"]},
        )
        assert r.status_code == 200, r.text
        assert_nothing_hidden(table, seat, r.text)
        moves += 1
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------ playing


@pytest.mark.slow  # whole games through the HTTP API
@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("porta-nigra", [("Red", "human"), ("Green", "random")], {}),
        (
            "glory-to-rome",
            [("P1", "human"), ("P2", "random"), ("P3", "random")],
            {"surrender_allowed": False},
        ),
        ("high-card", [("Ann", "human"), ("Bob", "random"), ("Cy", "random"), ("Di", "random")], {}),
    ],
)
def test_a_person_plays_a_whole_game_against_bots(
    game: str, seats: list[tuple[str, str]], options: dict
) -> None:
    table, c = client(game, seats, **options)
    moves = play_to_end(table, c, 0)
    assert moves > 0 and table.over
    final = c.get("/api/seat/0").json()["board"]["final"]
    assert [int(f["total"]) for f in final] == table.engine.scores(table.state)
    for seat in range(1, len(seats)):
        assert_nothing_hidden(table, seat, c.get(f"/api/seat/{seat}").text)
        assert c.get(f"/api/seat/{seat}").json()["board"]["you"]["title"] == f"You ({seats[seat][0]})"


def test_bots_pick_legal_choices_from_their_view() -> None:
    table, _ = client("glory-to-rome", [("P1", "random"), ("P2", "random")])
    assert table.over  # bots only: they play to the end at once
    engine = table.engine
    st = engine.new_game(2, 5)
    for _ in range(30):
        seat = engine.current_player(st)
        if seat is None:
            break
        choice = pick(engine, st, seat)
        assert choice in engine.legal_ids(st) and pick(engine, st, seat) == choice
        engine.apply_inplace(st, choice)
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        pick(engine, engine.new_game(2, 1), 0, "genius")


def test_every_bot_kind_can_sit_at_the_table() -> None:
    table, _ = client("high-card", [("P1", "greedy"), ("P2", "mcts:20")])
    assert table.over and table.seats[1].kind == "mcts:20"  # bots only: they play to the end at once
    engine = table.engine
    st = engine.new_game(2, 5)
    seat = engine.current_player(st)
    assert seat is not None
    choice = pick(engine, st, seat, "ismcts:10")
    assert choice in engine.legal_ids(st) and pick(engine, st, seat, "ismcts:10") == choice


def test_search_bots_think_on_the_native_backend() -> None:
    """A table's game stays on Python; its search bots think on the native backend (their
    iterations in the game's library) and choose what they would choose on Python."""
    from tabula.bots.base import Observation
    from tabula.bots.spec import make_bot
    from tabula.interpreter.base import rng
    from tabula.serve.bots import search_engine

    table, _ = client("porta-nigra", [("P1", "human"), ("P2", "human")])
    engine = table.engine
    assert engine.backend == "python"
    native = search_engine(engine)
    assert native.backend == "native" and search_engine(engine) is native
    st = table.state
    seat = engine.current_player(st)
    assert seat is not None  # (a state at a `choose`, as here, stays plain: it does not convert)
    choice = pick(engine, st, seat, "mcts:30")
    python_bot = make_bot("mcts:30", engine)
    view = json.dumps(engine.view(st, seat), sort_keys=True).encode()
    gen = rng.seed_state(int.from_bytes(hashlib.sha256(view).digest()[:8], "big") ^ seat)
    assert python_bot.choose(Observation(engine, st, seat), gen) == choice


def test_refusals_say_why() -> None:
    _, c = client("high-card", [("Ann", "human"), ("Bob", "human")])
    cases = [
        (
            c.post("/api/seat/1/choose", json={"decision": now(c, 1), "choice": "play:S6"}),
            "it is Ann's decision, not yours",
        ),
        (
            c.post("/api/seat/0/choose", json={"decision": now(c), "choice": "play:H9"}),
            "not possible: 'play' is not possible now",
        ),
        (c.post("/api/seat/0/choose", json={"pick": 1}), 'send {"choice": "<choice id>", "decision"'),
        (c.post("/api/seat/0/choose", content=b"{nope"), "the request is not JSON"),
        (c.get("/api/seat/7"), "there is no seat 7 (seats 0-1)"),
        (c.post("/api/seat/0/undo"), "you have made no decision to take back"),
        (c.post("/api/load", json={"format": "tabula-table/1", "game": {}}), "the save file is incomplete"),
        (c.post("/api/load", json=[1, 2]), "not a saved table"),
        (c.post("/api/scenario", json={"path": "../porta-nigra/flow.yaml"}), "no scenario file"),
        (
            c.post("/api/new", json={"seats": [{"name": "A", "kind": "wizard"}], "seed": 1}),
            "seat kind: unknown bot 'wizard'",
        ),
        (c.post("/api/new", json={"seats": [{"name": "A"}, {"name": "B"}], "seed": -2}), "the seed must be"),
    ]
    for answer, message in cases:
        assert answer.status_code == 400, answer.text
        assert message in answer.json()["error"], answer.json()
    one = c.post("/api/new", json={"seats": [{"name": "Solo"}], "seed": 1})
    assert one.status_code == 400 and "High Card is for 2-4 players, not 1" in one.json()["error"]
    assert (
        c.get("/api/seat/1/why", params={"action": "play"}).json()["text"]
        == "it is Ann's decision now, not yours"
    )
    bot_table, bc = client("high-card", [("Ann", "human"), ("Bob", "random")])
    bot_table.seats[0].kind = "random"
    assert (
        "played by a bot"
        in bc.post("/api/seat/0/choose", json={"decision": now(bc), "choice": "play:S6"}).json()["error"]
    )


def test_why_not_answers_on_what_the_seat_knows() -> None:
    _, c = client("porta-nigra", [("Red", "human"), ("Green", "random")])
    answer = c.get("/api/seat/0/why", params={"action": "recruit"}).json()["text"]
    assert "'recruit' is not offered at this point" in answer
    c.post(
        "/api/seat/0/choose",
        json={
            "decision": now(c),
            "choice": c.get("/api/seat/0").json()["board"]["decision"]["choices"][0]["id"],
        },
    )
    assert "influence(me)" in c.get("/api/seat/0/why", params={"action": "recruit"}).json()["text"]


# ------------------------------------------------------------------ undo, history, save and load


def test_undo_goes_back_to_the_seats_last_decision() -> None:
    table, c = client("high-card", [("Ann", "human"), ("Bob", "random")])
    first = c.get("/api/seat/0").json()
    c.post("/api/seat/0/choose", json={"decision": now(c), "choice": "play:S6"})
    after = c.get("/api/seat/0").json()
    assert after["decisions"] == 2  # Ann's, then the bot's
    back = c.post("/api/seat/0/undo").json()
    assert back["decisions"] == 0 and back["board"] == first["board"] and back["log"] == first["log"]
    assert table.decider() == 0


def test_the_history_shows_each_earlier_position() -> None:
    table, c = client("high-card", [("Ann", "human"), ("Bob", "random")])
    for choice in ("play:S6", "play:S4"):
        c.post("/api/seat/0/choose", json={"decision": now(c), "choice": choice})
    latest = c.get("/api/seat/0").json()
    assert (
        latest["live"] and latest["decisions"] == len(table.choices) == 5
    )  # Ann, Bob, Bob (he won), Ann, Bob
    start = c.get("/api/seat/0", params={"at": 0}).json()
    assert not start["live"] and start["at"] == 0
    hand = [card["name"] for card in start["board"]["you"]["sections"][1]["lines"][0]["cards"]]
    assert hand == ["S1", "S4", "S6", "C1", "C3"]  # dealt S6, C3, S4, C1, S1: shown by suit
    assert len(start["log"]) < len(c.get("/api/seat/0", params={"at": 2}).json()["log"]) < len(latest["log"])
    assert c.get("/api/seat/0", params={"at": 99}).json()["live"]


@pytest.mark.slow  # replays a game through the HTTP API
def test_save_and_load_replay_the_same_game() -> None:
    table, c = client("porta-nigra", [("Red", "human"), ("Green", "random")], seed=11)
    rnd = random.Random(2)
    for _ in range(25):
        dec = c.get("/api/seat/0").json()["board"]["decision"]
        c.post("/api/seat/0/choose", json={"decision": now(c), "choice": rnd.choice(dec["choices"])["id"]})
    save = c.get("/api/save")
    assert save.headers["content-disposition"].startswith("attachment;")
    data = json.loads(save.text)
    other, oc = client("porta-nigra", [("A", "human"), ("B", "human")], seed=1)
    assert oc.post("/api/load", json=data).status_code == 200
    assert other.hashes == table.hashes and other.seats == table.seats
    assert oc.get("/api/seat/0").json()["report"]["message"].startswith("rules loaded: all")
    assert oc.get("/api/seat/0").json()["board"] == c.get("/api/seat/0").json()["board"]
    hc, hcc = client("high-card", [("A", "human"), ("B", "human")])
    refused = hcc.post("/api/load", json=data)
    assert (
        refused.status_code == 400
        and "this is a save of porta-nigra, not of high-card" in refused.json()["error"]
    )
    assert hc.choices == []
    data["choices"][3] = "no-such-choice"
    assert oc.post("/api/load", json=data).status_code == 200
    report = oc.get("/api/seat/0").json()["report"]
    assert (
        report["kind"] == "failed" and f"stopped at decision 4 of {len(table.choices)}" in report["message"]
    )
    assert len(other.choices) >= 3 and other.choices[:3] == data["choices"][:3]


# ------------------------------------------------------------------ scenarios


def test_start_from_a_scenario_and_export_the_position() -> None:
    table, c = client("porta-nigra", [("Red", "human"), ("Green", "random")])
    path = "scenarios/pn-e03a-move-two-quarters-buy-black.yaml"
    assert path in c.get("/api/info").json()["scenarios"]
    assert c.post("/api/scenario", json={"path": path}).status_code == 200
    seen = c.get("/api/seat/0").json()
    assert seen["started"] == "scenario pn-e03a-move-two-quarters-buy-black.yaml"
    assert [s["name"] for s in seen["seats"]] == table.state["names"]
    exported = c.get("/api/export").text
    assert exported.startswith("# Exported from tabula serve")
    assert_same_position(table, exported)


@pytest.mark.slow  # two games played, exported and verified
def test_an_exported_position_runs_as_a_scenario_with_the_same_position() -> None:
    for game, options in [("glory-to-rome", {"surrender_allowed": False}), ("porta-nigra", {})]:
        table, c = client(game, [("A", "human"), ("B", "random")], **options)
        rnd = random.Random(4)
        for _ in range(12):
            dec = c.get("/api/seat/0").json()["board"]["decision"]
            c.post(
                "/api/seat/0/choose", json={"decision": now(c), "choice": rnd.choice(dec["choices"])["id"]}
            )
        assert_same_position(table, c.get("/api/export").text)


def assert_same_position(table: Table, exported: str, tmp: Path | None = None) -> None:
    import tempfile

    from tabula.serve.start import _scenario

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "exported.yaml"
        path.write_text(exported)
        assert run_scenario_file(path).passed, run_scenario_file(path).error
        run = _scenario(path)
    g = table.game
    name = lambda zone: [g.components[c].key for c in zone]  # noqa: E731
    assert [name(z) for z in run.st["z"]] == [name(z) for z in table.state["z"]]
    assert run.st["m"] == table.state["m"]
    counters = list(range(len(table.state["c"])))
    assert [run.st["c"][i] for i in counters] == [
        table.state["c"][i] for i in counters
    ] or table.game.id == "porta-nigra"


def test_uploaded_scenario_text_starts_a_game() -> None:
    table, c = client("high-card", [("Ann", "human"), ("Bob", "random")])
    text = (HIGH_CARD / "scenarios" / "tiebreak.yaml").read_text()
    assert c.post("/api/scenario", json={"text": text, "name": "../my.yaml"}).status_code == 200
    assert table.start.scenario is not None and Path(table.start.scenario).name.endswith("my.yaml")
    c.post("/api/reload")
    assert c.get("/api/seat/0").json()["report"]["kind"] == "reloaded"


# ------------------------------------------------------------------ live reload


@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_live_reload_replays_and_reports(game_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "WATCH_EVERY", 0.0)
    table = Table(GameSpec(str(game_copy)), [SeatSpec("Ann"), SeatSpec("Bob", "random")], 3)
    c = host_client(table)
    for choice in ("play:S6", "play:S4"):
        c.post("/api/seat/0/choose", json={"decision": now(c), "choice": choice})

    def reloaded() -> dict[str, Any]:
        time.sleep(0.01)
        c.get("/api/version")
        report: dict[str, Any] = c.get("/api/seat/0").json()["report"]
        return report

    edit(game_copy / "presentation.yaml", "tricks won", "tricks taken")  # no rule changes
    report = reloaded()
    assert (
        report["kind"] == "reloaded"
        and "all 5 decisions replayed, every position the same" in report["message"]
    )
    assert "tricks taken" in c.get("/api/seat/0").text

    edit(
        game_copy / "flow.yaml", "gain 1 tricks(winner)", "gain 2 tricks(winner)"
    )  # the same choices, other positions
    report = reloaded()
    assert report["kind"] == "diverged" and "differ from decision 2 on" in report["message"], report
    assert "tricks(Ann): 1 -> 2" in report["detail"]

    edit(game_copy / "flow.yaml", "gain 2 tricks(winner)", "gain 2 trick(winner)")  # a broken file
    report = reloaded()
    assert report["kind"] == "broken" and "still playing the old rules" in report["message"]
    assert f"{game_copy / 'flow.yaml'}:" in report["detail"] and "error[" in report["detail"]
    assert (
        c.post("/api/seat/0/choose", json={"decision": now(c), "choice": "play:C1"}).status_code == 200
    )  # still playable

    edit(game_copy / "flow.yaml", "gain 2 trick(winner)", "gain 1 tricks(winner)")
    edit(
        game_copy / "rules.yaml",
        "params: {c: hand(me)}",
        "params: {c: '[x for x in hand(me) where x.rank != 6]'}",
    )
    report = reloaded()
    assert report["kind"] == "failed" and "stopped at decision 1 of 7 ('play:S6')" in report["message"], (
        report
    )
    assert "not legal any more" in report["detail"]
    assert table.choices == [] and table.decider() == 0


# ------------------------------------------------------------------ the command


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow  # starts the real server in a new process
def test_the_serve_command_serves_the_page() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tabula.cli.main",
            "serve",
            "high-card",
            "--port",
            str(port),
            "--seed",
            "2",
            "--seats",
            "human,random,random",
            "--players",
            "3",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith(
            f"High Card at http://127.0.0.1:{port}/ (seats: North human, East random, South random"
        )
        links = [proc.stdout.readline().strip() for _ in range(3)]  # the host, North, the spectators
        assert [line.split(": ", 1)[0] for line in links] == ["you (the host)", "North", "spectators"]
        host_link = links[0].split(": ", 1)[1]
        assert host_link.startswith(f"http://127.0.0.1:{port}/#token=")
        token = host_link.split("#token=", 1)[1]
        info = None
        for _ in range(100):
            try:
                ask = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/info", headers={TOKEN_HEADER: token}
                )
                with urllib.request.urlopen(ask, timeout=2) as r:
                    info = json.loads(r.read())
                break
            except urllib.error.HTTPError:
                raise
            except OSError:
                time.sleep(0.1)
        assert info is not None and info["name"] == "High Card" and info["you"]["role"] == "host"
        with pytest.raises(urllib.error.HTTPError) as refused:  # no token: no game
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=2)
        assert refused.value.code == 401
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
            assert b"<title>Tabula</title>" in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.mark.slow  # a new Python process per call
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--seats", "human,robot"],
            "--seats: unknown bot 'robot'; bots: random, greedy, mcts, ismcts (or human)",
        ),
        (["--players", "9"], "High Card is for 2-4 players, not 9"),
        (["--variant", "nope"], "no variant named 'nope'"),
    ],
)
def test_serve_refuses_bad_arguments(args: list[str], message: str) -> None:  # a bad call: exit 2
    run = subprocess.run(
        [sys.executable, "-m", "tabula.cli.main", "serve", "high-card", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


def test_serving_every_interface_warns_and_prints_the_links(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    import uvicorn

    from tabula.serve.command import run_serve, serve_arguments

    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.update(app=app, **kw))
    parser = argparse.ArgumentParser()
    serve_arguments(parser)
    args = parser.parse_args(["high-card", "--host", "0.0.0.0", "--seats", "human,human", "--seed", "1"])
    args.variant, args.expansions, args.option = None, [], []  # the rules' options, as the CLI adds them
    assert run_serve(args) == 0
    out, err = capsys.readouterr()
    assert "warning: listening on 0.0.0.0" in err and "secret links" in err
    links = [line.strip() for line in out.splitlines()[1:]]
    assert [line.split(": ", 1)[0] for line in links] == ["you (the host)", "North", "East", "spectators"]
    tokens = {line.split("#token=", 1)[1] for line in links}
    assert len(tokens) == 4 and all(len(t) >= 32 for t in tokens)
    assert served["host"] == "0.0.0.0"
    c = TestClient(served["app"], base_url="http://192.168.1.5:8765")
    assert c.get("/api/seat/0").status_code == 401  # every interface, and still no game without a link


def test_a_game_served_from_a_folder_starts_from_its_scenarios(tmp_path: Path) -> None:
    folder = tmp_path / "porta-nigra"
    shutil.copytree(ROOT / "gamedefs" / "porta-nigra", folder)
    table, c = client(str(folder), [("Red", "human"), ("Green", "random")])
    answer = c.post("/api/scenario", json={"path": "scenarios/pn-e03a-move-two-quarters-buy-black.yaml"})
    assert answer.status_code == 200, answer.text  # its game: names the bundled porta-nigra
    assert Path(table.game.folder).resolve() == folder.resolve()
    assert table.start.scenario is not None and Path(table.start.scenario).is_relative_to(folder)
    broken = "scenario: broken\ngame: porta-nigra\nplayers: [A, B]\nseed: 1\ngiven: {zones: {nowhere: []}}\n"
    refused = c.post("/api/scenario", json={"text": broken, "name": "mine.yaml"})
    assert refused.status_code == 400 and refused.json()["error"].startswith("mine.yaml:5:"), refused.text
    assert "tabula-serve-" not in refused.json()["error"]  # the server's copy is not named
