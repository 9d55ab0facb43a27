"""Counters and vars with `visibility:` (a secret chip count): views read them as unknown to whoever
may not see them, log lines that show them are masked for those players, the RL observation marks
them unknown, seat states give stand-ins that differ, and a bot's determinisation puts its guess
there. The swap test: two values hidden from a player exchanged change nothing in that player's
view, observation or log."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import view, visible_log
from tabula.interpreter.run.determinize import determinize
from tabula.interpreter.run.knowledge import seat_states

GAME = Path(__file__).resolve().parents[1] / "games" / "secrets"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game(GAME))


def chips(engine: Engine, p: int) -> int:
    c = engine.game.counters["chips"]
    return c.base + p * c.width


def exchanged(engine: Engine, st: State, a: int, b: int) -> State:
    """`st` with the chips of seats a and b exchanged (and their last bets)."""
    out: State = copy.deepcopy(st)
    ia, ib = chips(engine, a), chips(engine, b)
    out["c"][ia], out["c"][ib] = st["c"][ib], st["c"][ia]
    bets = out["v"]["last_bet"]
    bets[a], bets[b] = bets[b], bets[a]
    return out


def test_views_show_secret_values_to_those_who_may_see_them(engine: Engine) -> None:
    st = engine.apply(engine.new_game(3, seed=1), "bet:2")
    views = [engine.view(st, p) for p in range(3)]
    assert [v["c"][chips(engine, 0)] for v in views] == [8, None, None]  # owner: Ann alone
    spent = engine.game.counters["spent"].base
    assert [v["c"][spent] for v in views] == [None, 1, 1]  # others: everyone but Ann
    hidden = engine.game.counters["round_bets"].base
    assert [v["c"][hidden] for v in views] == [None, None, None]
    assert [v["v"]["last_bet"] for v in views] == [[2, None, None], [None, 0, None], [None, None, 0]]
    assert all(v["v"]["dealer_note"] is None for v in views)
    assert view(engine.game, st, -2)["c"][chips(engine, 0)] is None  # a spectator sees no owner's secret


def test_the_swap_of_two_hidden_chip_counts_changes_nothing_for_a_third_player(engine: Engine) -> None:
    st = engine.apply(engine.new_game(3, seed=1), "bet:2")  # Ann 8, Bob 10
    other = exchanged(engine, st, 0, 1)
    assert engine.view(st, 2) == engine.view(other, 2)
    assert engine.view(st, 0) != engine.view(other, 0)


def test_log_lines_that_show_a_secret_are_masked(engine: Engine) -> None:
    log: list[dict[str, Any]] = []
    engine.apply(engine.new_game(3, seed=1), "bet:2", log)
    assert visible_log(log, 0)[-1] == "P1 bets 2, keeping 8"
    assert visible_log(log, 1)[-1] == visible_log(log, 2)[-1] == "P1 bets 2, keeping ?"


def test_the_log_of_two_worlds_with_exchanged_secrets_reads_the_same(engine: Engine) -> None:
    st = engine.new_game(3, seed=1)
    logs: list[list[dict[str, Any]]] = [[], []]
    for i, world in enumerate((st, exchanged(engine, st, 0, 1))):
        world = engine.apply(world, "bet:2", logs[i])
        engine.apply(world, "bet:1", logs[i])
    assert visible_log(logs[0], 2) == visible_log(logs[1], 2)


def test_seat_states_give_different_stand_ins(engine: Engine) -> None:
    st = engine.apply(engine.new_game(3, seed=1), "bet:2")
    first, second = seat_states(engine.game, st, 1)
    i = chips(engine, 0)
    assert first["c"][i] != second["c"][i]
    assert first["c"][chips(engine, 1)] == second["c"][chips(engine, 1)] == 10  # Bob's own


def test_determinisation_puts_guesses_where_the_player_cannot_see(engine: Engine) -> None:
    st = engine.apply(engine.new_game(3, seed=1), "bet:2")  # Bob to play
    det = determinize(engine.game, st, 1, rng.seed_state(3))
    assert det["c"][chips(engine, 0)] == 10  # no guess: the initial value
    assert det["c"][chips(engine, 1)] == 10  # Bob's own, true
    spent = engine.game.counters["spent"]
    assert det["c"][spent.base + 1] == 1  # Bob cannot see his own `spent`: its guess, 1
    assert det["c"][spent.base] == 1  # Ann's he sees: true
    assert det["v"]["last_bet"] == [0, 0, 0]
    again = determinize(engine.game, exchanged(engine, st, 0, 2), 1, rng.seed_state(3))
    assert engine.view(det, 1) == engine.view(again, 1)


def test_the_observation_marks_secrets_unknown(engine: Engine) -> None:
    np = pytest.importorskip("numpy")
    from tabula.rl.encoding import Encoder
    from tabula.rl.text import observation_string

    encoder = Encoder(engine.game, 3)
    assert encoder.pieces[-1][0] == "unknown"
    st = engine.apply(engine.new_game(3, seed=1), "bet:2")
    other = exchanged(engine, st, 0, 1)
    seen = [
        (encoder.tensor(engine.view(s, 2)).tobytes(), observation_string(engine.game, engine.view(s, 2)))
        for s in (st, other)
    ]
    assert seen[0] == seen[1]
    assert "chips: P1=?; P2=?; P3=10" in seen[0][1]
    mine = encoder.tensor(engine.view(st, 0))
    assert np.any(encoder.tensor(engine.view(other, 0)) != mine)


def test_check_locates_a_wrong_guess_and_a_wrong_deal(tmp_path: Path) -> None:
    from tabula.interpreter.base.source import AuthorError, render_report

    game = tmp_path / "secrets"
    game.mkdir()
    text = (GAME / "game.yaml").read_text().replace('guess: "1"', 'guess: "onwer + 1"')
    (game / "game.yaml").write_text(text + '\nbots:\n  deal: {hands: "c.value > i"}\n')
    with pytest.raises(AuthorError) as err:
        load_game(game)
    shown = render_report(err.value.report)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "onwer" in x)
    assert (
        f"game.yaml:{line}:52: error[E101]: unknown name 'onwer'" in shown
        and "did you mean 'owner'?" in shown
    )
    assert "error[B002]: bots.deal names 'hands', which is no zone of the game" in shown
    assert "did you mean 'hand'?" in shown
