"""`scoring.ranking: lowest`: the winners, the bots' default evaluation, simulate's margins and the
final screen all read the score as lower-is-better (tests/games/tables)."""

from __future__ import annotations

from pathlib import Path

from tabula.balance.match import Config, GameRecord
from tabula.balance.report import summary_lines
from tabula.balance.summary import header, summarize
from tabula.bots.evaluation import Evaluation
from tabula.interpreter.engine import Engine, load_game
from tabula.play.board import build_board
from tabula.play.screen import final_lines

TABLES = Path(__file__).resolve().parents[1] / "games" / "tables"


def played(engine: Engine, players: int, seed: int) -> dict:
    st = engine.new_game(players, seed=seed)
    while not engine.is_terminal(st):
        engine.apply_inplace(st, st["dec"]["ids"][0])
    return st


def test_the_fewest_points_win_and_the_evaluation_turns_the_score() -> None:
    engine = Engine(load_game(TABLES))
    assert engine.game.lowest_wins
    for seed in range(6):
        st = played(engine, 3, seed)
        scores = engine.scores(st)
        assert engine.winners(st) == [p for p, s in enumerate(scores) if s == min(scores)]
        assert Evaluation(engine).values(st) == [-float(s) for s in scores]


def test_the_final_screen_says_the_lowest_score_wins() -> None:
    engine = Engine(load_game(TABLES))
    st = played(engine, 2, 0)
    board = build_board(engine, st, 0)
    winners = ", ".join(st["names"][p] for p in engine.winners(st))
    assert board.ranking == "lowest" and board.to_json()["ranking"] == "lowest"
    assert final_lines(board, 80)[-1].plain.endswith(f"(the lowest score wins): {winners}")


def test_a_margin_is_how_far_the_winner_is_ahead_either_way() -> None:
    records = [GameRecord(0, 1, ["random"] * 3, ["A", "B", "C"], scores=[4, 1, 2], winners=[1], turns=3)]
    low = summarize(records, header(Config("t", 3, lowest_wins=True), "T", 3, 1), 1.0)
    high = summarize(records, header(Config("t", 3), "T", 3, 1), 1.0)
    assert (low["ranking"], low["margin"]["mean"]) == ("lowest", 1.0)  # B's 1 against C's 2
    assert high["margin"]["mean"] == -3.0  # the same record read higher-is-better: B is 3 behind A
    assert any("lowest wins" in line for line in summary_lines(low, ["A", "B", "C"]))
