"""The presentation section and what is built from it: seat states, boards, the terminal screen.

- the section is checked like the rest of a game (located P0xx diagnostics, all at once);
- seat states and boards depend on a seat's view only: swapping hidden components around (a state
  the seat cannot tell apart) changes nothing the seat is shown;
- the final score breakdown adds up to the game's own score on finished random games;
- `tabula play`'s screen fits 80x24 for 2-4 players, prints game text literally, and refuses a
  digit that is not 0-9.
"""

from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from tabula.cli import main as cli
from tabula.interpreter.base import rng
from tabula.interpreter.engine import AuthorError, Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import visible_to
from tabula.interpreter.run.knowledge import hidden_from, seat_state, seat_states
from tabula.play.board import build_board
from tabula.play.screen import HEIGHT, WIDTH, Look, decision_screen, final_lines

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "games" / "mini"
GAMES = {
    "porta-nigra": ({}, [2, 3, 4]),
    "glory-to-rome": ({"surrender_allowed": False}, [2, 3, 4, 5]),
    "high-card": ({}, [2, 3, 4]),
    "coup": ({}, [2, 3, 4, 5, 6]),
}


def random_game(game: str, players: int, seed: int, stop: int | None = None) -> tuple[Engine, list[State]]:
    """The states of one seeded random game (every `stop`-th one kept, and the last)."""
    options, _ = GAMES[game]
    engine = Engine(load_game(game, options or None))
    st = engine.new_game(players, seed)
    gen = rng.seed_state(seed + 17)
    states = [engine.clone(st)]
    n = 0
    while not engine.is_terminal(st) and n < 4000:
        engine.apply_inplace(st, engine.random_choice(st, gen))
        n += 1
        if stop and n % stop == 0:
            states.append(engine.clone(st))
    states.append(engine.clone(st))
    return engine, states


def sample(states: list[State], k: int) -> list[State]:
    """At most `k` of the states, evenly spread (the first and the last included)."""
    if len(states) <= k:
        return states
    step = (len(states) - 1) / (k - 1)
    return [states[round(i * step)] for i in range(k)]


def with_presentation(tmp_path: Path, text: str) -> Path:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    (game / "presentation.yaml").write_text(text)
    return game


# ------------------------------------------------------------------ the section is checked


def test_bad_presentation_gives_located_diagnostics(tmp_path: Path) -> None:
    game = with_presentation(
        tmp_path,
        "presentation:\n"
        "  player:\n"
        "    - title: Mine\n"
        "      show: [score, pile, scroe, {label: twice, value: 'score(p) * '}]\n"
        "  bookkeeping: [nothing]\n"
        "  components: {cards: {}}\n"
        "  zones: {table: {under: hand.nomark}}\n"
        "  seat_colours: [chartreuse-ish]\n"
        "  marks: {unseen: player}\n",
    )
    with pytest.raises(AuthorError) as err:
        load_game(game)
    text = str(err.value)
    file = str(game / "presentation.yaml")
    expected = [
        (f"{file}:4:21: error[P001]: 'pile' is global: it belongs in presentation.table", None),
        (
            f"{file}:4:27: error[P001]: no per-player counter, var or zone named 'scroe'",
            "did you mean 'score'?",
        ),
        (f"{file}:4:67: error[D001]: syntax error: unexpected end of text", None),  # inside its string
        (f"{file}:5:17: error[P002]: bookkeeping names 'nothing'", None),
        (f"{file}:6:16: error[P004]: no component type named 'cards'", "did you mean 'card'?"),
        (f"{file}:7:", "error[P006]"),
        (f"{file}:8:18: error[P008]: 'chartreuse-ish' is not a colour", None),
        (f"{file}:9:11: error[P009]: no mark named 'unseen'", None),
    ]
    for head, more in expected:
        assert head in text, text
        if more:
            assert more in text, text
    assert text.index(":4:21:") < text.index(":5:17:") < text.index(":9:11:")  # in file order
    assert "Traceback" not in text


def test_unshown_names_are_warned_about_and_still_shown(tmp_path: Path) -> None:
    game = with_presentation(tmp_path, "presentation:\n  player:\n    - {title: Mine, show: [score]}\n")
    g = load_game(game)
    codes = [(d.code, d.message) for d in g.check_warnings]
    assert ("P010", "not shown in presentation.player and not bookkeeping: hand") in codes
    board = build_board(Engine(g), Engine(g).new_game(2, 1), 0)
    shown = [(s.title, [ln.name for ln in s.lines]) for s in board.you.sections]
    assert shown == [("Mine", ["score"]), ("Other", ["hand"])]


def test_a_game_without_presentation_shows_everything() -> None:
    g = load_game(MINI)
    engine = Engine(g)
    board = build_board(engine, engine.new_game(2, 1), 0)
    assert [ln.name for s in board.you.sections for ln in s.lines] == ["score", "hand"]
    # `last`, none at the start, is left out until it holds something
    assert [ln.name for s in board.table.sections for ln in s.lines] == ["pile", "deck", "table"]
    assert board.seats[1].summary == "score 0 · hand 1"


# ------------------------------------------------------------------ nothing hidden can show


def shuffled_hidden(engine: Engine, st: State, viewer: int, seed: int) -> State:
    """`st` with the components hidden from `viewer` dealt again into the same hidden places."""
    g = engine.game
    out = engine.clone(st)
    hidden = hidden_from(g, st, viewer)
    places = [(zi, pos) for zi, zone in enumerate(st["z"]) for pos, c in enumerate(zone) if c in set(hidden)]
    order = list(hidden)
    random.Random(seed).shuffle(order)
    for (zi, pos), c in zip(places, order, strict=True):
        out["z"][zi][pos] = c
        out["loc"][c] = zi
    return out


@pytest.mark.slow  # every state of random games, seen from every seat
@pytest.mark.parametrize("game", list(GAMES))
def test_seat_states_and_boards_depend_on_the_view_only(game: str) -> None:
    _, counts = GAMES[game]
    for players in counts[:2]:
        engine, states = random_game(game, players, seed=players, stop=9)
        for st in sample(states, 12):
            for viewer in range(players):
                other = shuffled_hidden(engine, st, viewer, seed=len(st["z"]))
                if other["z"] == st["z"]:
                    continue
                assert engine.view(other, viewer) == engine.view(st, viewer)
                for fill in (0, 1):
                    a, b = (
                        seat_state(engine.game, st, viewer, fill),
                        seat_state(engine.game, other, viewer, fill),
                    )
                    assert {k: a[k] for k in ("z", "loc", "m", "v", "c", "t")} == {
                        k: b[k] for k in ("z", "loc", "m", "v", "c", "t")
                    }
                shown = json.dumps(build_board(engine, st, viewer).to_json())
                assert shown == json.dumps(build_board(engine, other, viewer).to_json())


@pytest.mark.slow  # boards of random games
def test_a_board_holds_no_key_of_a_hidden_component() -> None:
    engine, states = random_game("glory-to-rome", 3, seed=4, stop=7)
    g = engine.game
    for st in sample(states, 15):
        for viewer in range(3):
            text = json.dumps(build_board(engine, st, viewer).to_json())
            for c in hidden_from(g, st, viewer):
                assert f'"{g.components[c].key}"' not in text


@pytest.mark.slow  # boards of random games
def test_a_value_that_depends_on_hidden_cards_is_unknown() -> None:
    engine, states = random_game("glory-to-rome", 2, seed=3, stop=5)
    g = engine.game
    shown_vaults = 0
    for st in states[:-1]:
        board = build_board(engine, st, 0)
        for seat in (0, 1):
            vault = st["z"][g.zones["vault"].index(seat)]
            if any(not visible_to(g, st, c, 0) for c in vault) and len(vault) > 1:
                a, b = seat_states(g, st, 0)
                assert a != b
                shown_vaults += 1
        assert all("?" not in s.summary for s in board.seats)  # the summaries use public counts only
    assert shown_vaults > 0


# ------------------------------------------------------------------ the final score


@pytest.mark.slow  # plays whole games
@pytest.mark.parametrize("game", list(GAMES))
def test_the_final_breakdown_adds_up_to_the_score(game: str) -> None:
    _, counts = GAMES[game]
    checked = 0
    for players in counts:
        for seed in (1,) if game == "glory-to-rome" else (1, 2):  # its games are long
            engine, states = random_game(game, players, seed)
            final_state = states[-1]
            if not engine.is_terminal(final_state):
                continue
            scores = engine.scores(final_state)
            board = build_board(engine, final_state, 0)
            assert board.final is not None
            labels = [label for label, _ in board.final[0].parts]
            assert all([label for label, _ in f.parts] == labels for f in board.final)
            for f in board.final:
                parts = [int(v) for _, v in f.parts]
                assert sum(parts) == scores[f.player] == int(f.total), (game, players, seed, f)
            assert {f.player for f in board.final if f.winner} == set(engine.winners(final_state))
            checked += 1
    assert checked >= len(counts)


def test_porta_nigra_points_scored_during_play_are_the_vp_before_the_final_scoring() -> None:
    for players, seed in [(2, 1), (3, 2), (4, 3)]:
        engine = Engine(load_game("porta-nigra"))
        st = engine.new_game(players, seed)
        gen = rng.seed_state(seed)
        before = st
        while not engine.is_terminal(st):
            before = engine.clone(st)
            engine.apply_inplace(st, engine.random_choice(st, gen))
        last = engine.legal_ids(before)
        vp = engine.game.counters["vp"]
        during = [before["c"][vp.base + p] for p in range(players)]
        final = build_board(engine, st, 0).final
        assert final is not None
        assert [dict(f.parts)["VP during play"] for f in final] == [str(v) for v in during], last
        assert [label for label, _ in final[0].parts] == [
            "Building card sets",
            "Final-scoring honour cards",
            "Leftovers",
            "Majorities",
            "VP during play",
        ]


# ------------------------------------------------------------------ the terminal screen


@pytest.mark.slow  # renders every screen of random games
@pytest.mark.parametrize("game", ["porta-nigra", "glory-to-rome", "coup"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_screen_fits_80_by_24(game: str, players: int) -> None:
    engine, states = random_game(game, players, seed=players + 10, stop=5)
    look = Look(False, WIDTH, HEIGHT)
    for st in [s for s in states if not engine.is_terminal(s)]:
        seat = engine.current_player(st)
        assert seat is not None
        lines = decision_screen(build_board(engine, st, seat), ["a log line"] * 30, "Title (seed 1)", look)
        assert len(lines) <= HEIGHT - 1  # the last line is the input
        assert all(line.cell_len <= WIDTH for line in lines), [
            ln.plain for ln in lines if ln.cell_len > WIDTH
        ]
        text = "\n".join(ln.plain for ln in lines)
        dec = engine.legal_ids(st)
        assert dec[0] in text  # the choice ids can be read (and the first is always on screen)
        assert board_title(engine, st, seat) in text
    final = final_lines(build_board(engine, states[-1], 0), WIDTH)
    assert all(line.cell_len <= WIDTH for line in final)


def board_title(engine: Engine, st: State, seat: int) -> str:
    return f"You ({st['names'][seat]})"


def test_game_text_is_printed_literally_on_a_terminal(tmp_path: Path) -> None:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    path = game / "game.yaml"
    path.write_text(path.read_text().replace("- {name: A, value: 1}", "- {name: '[blink]C2', value: 1}"))
    engine = Engine(load_game(game))
    st = engine.new_game(["[/]", "[bold red]Bob"], 1)
    board = build_board(engine, st, 0)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, color_system="truecolor")
    for line in decision_screen(board, ["[/] plays [blink]C2"], "Mini", Look(True)):
        console.print(line)
    text = out.getvalue()
    assert "[/]" in text and "[bold red]Bob" in text and "[blink]C2" in text
    assert "\x1b[5m" not in text  # nothing blinks


@pytest.mark.slow  # compiles a game and plays it at the terminal
def test_play_with_markup_names_does_not_crash() -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "tabula.cli.main", "play", str(MINI), "--seed", "1", "--names", "[/],Bob"],
        input="play_card:A\nq\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "You ([/]): score 0" in run.stdout and "[/]: play_card:A" in run.stdout


def test_a_unicode_digit_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("²\n٣\n1\nq\n"))
    assert cli.main(["play", str(MINI), "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "'²' is not a number this game reads: type 1-5 with the digits 0-9" in out
    assert "'٣' is not a number this game reads" in out
    assert "P1: take:1" in out
