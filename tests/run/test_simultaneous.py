"""`simultaneous q in L:` (issue 27 item 2): each player answers in secret, the answers are revealed
together; views, logs, saves and determinisations keep the others' answers hidden; answers may come
ahead of their turn (`Engine.answer`); the body's form is checked (E127, located)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import visible_log
from tabula.interpreter.run.determinize import determinize
from tabula.interpreter.run.runtime import IllegalChoice
from tabula.interpreter.run.saves import InvalidSave

SEALED = Path(__file__).resolve().parents[1] / "games" / "sealed"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game(SEALED))


def test_answers_are_hidden_until_all_are_in_then_revealed_together(engine: Engine) -> None:
    log: list[dict] = []
    st = engine.new_game(3, seed=1, log=log)
    assert engine.waiting(st) == [0, 1, 2] and engine.current_player(st) == 0
    first = engine.legal_ids(st)[0]
    engine.apply_inplace(st, first, log)
    assert engine.waiting(st) == [1, 2]
    assert engine.view(st, 0)["t"]["sim"] == {"w": [1, 2], "a": [[0, first]]}
    assert engine.view(st, 1)["t"]["sim"] == {"w": [1, 2], "a": []}  # not P1's answer
    assert visible_log(log, 1)[-2:] == ["P1 chooses", "a hidden card: hand(P1) -> picked(P1)"]
    assert visible_log(log, 0)[-2][:4] == "P1: "
    engine.apply_inplace(st, 0, log)
    engine.apply_inplace(st, 0, log)
    assert "sim" not in engine.view(st, 1)["t"] or engine.view(st, 1)["t"]["sim"]["a"] == []  # a new step
    reveal = [line for line in visible_log(log, 1) if line.startswith("revealed together")]
    assert len(reveal) == 1 and reveal[0].startswith(f"revealed together - P1: {first.split('#')[0]}, P2: ")


def test_a_player_may_answer_ahead_of_their_turn(engine: Engine) -> None:
    st = engine.new_game(3, seed=1)
    offered = engine.ahead(st, 2)["ids"]
    engine.answer(st, 2, offered[-1])
    assert engine.waiting(st) == [0, 1, 2]  # still waited for: the answer is applied when asked
    assert "e" not in engine.view(st, 0)["t"]["sim"] and engine.view(st, 2)["t"]["sim"]["e"] == [
        [2, offered[-1]]
    ]
    with pytest.raises(IllegalChoice, match="legal now"):
        engine.answer(st, 1, "Z")
    engine.answer(st, 0, 0)
    engine.answer(st, 1, 0)  # P3's early answer follows at once: the step is over
    assert engine.view(st, 0)["t"]["sim"] == {"w": [0, 1, 2], "a": []}  # the next round's step
    assert engine.game.components[st["z"][engine.game.zones["deck"].index(None)][-1]].name == offered[-1][0]


def test_answering_out_of_a_step_is_refused_with_the_reason(engine: Engine) -> None:
    st = engine.new_game(2, seed=2)
    engine.apply_inplace(st, 0)
    with pytest.raises(IllegalChoice, match="P1 has no question now: waiting for P2"):
        engine.answer(st, 0, 0)


def test_saves_keep_an_open_step_and_refuse_a_broken_one(engine: Engine) -> None:
    st = engine.new_game(3, seed=3)
    engine.apply_inplace(st, 0)
    again = engine.from_json(engine.to_json(st))
    assert engine.hash(again) == engine.hash(st)
    broken = engine.to_json(st).replace('"w":[1,2]', '"w":[1,1]')
    with pytest.raises(InvalidSave, match=r"state\.t\.sim"):
        engine.from_json(broken)


def test_determinisation_forgets_the_others_answers(engine: Engine) -> None:
    st = engine.new_game(3, seed=4)
    engine.apply_inplace(st, 0)  # P1 answers; P2 decides now
    world = determinize(engine.game, st, 1, rng.seed_state(9))
    assert [q for q, c in world["t"]["sim"]["a"]] == [0] and world["t"]["sim"]["a"][0][1] == "?"
    assert engine.view(world, 1)["t"] == engine.view(st, 1)["t"]


def test_a_game_without_the_statement_has_no_step_in_its_state() -> None:
    engine = Engine(load_game("high-card"))
    st = engine.new_game(2, seed=1)
    assert "sim" not in st["t"] and engine.waiting(st) == [engine.current_player(st)]


def _broken(tmp_path: Path, body: str) -> str:
    folder = tmp_path / "sealed"
    shutil.copytree(SEALED, folder)
    path = folder / "game.yaml"
    text = path.read_text()
    start = text.index("          simultaneous q in players:")
    end = text.index("          for q in players:\n            move picked(q)")
    path.write_text(text[:start] + body + text[end:])
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return render_report(err.value.report)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "          simultaneous q in players:\n            choose c from hand(q) by players[0]\n",
            "error[E127]: in a simultaneous step each player answers their own questions: 'choose ... by q'",
        ),
        (
            "          let seen = 0\n          simultaneous q in players:\n"
            "            choose c from hand(q) by q\n            set seen = c.value\n",
            "error[E127]: 'seen' is a local from outside the simultaneous step",
        ),
        (
            "          simultaneous q in players:\n            move hand(q) to picked(q)\n",
            "error[E127]: a simultaneous step asks each player a question: its body has no 'choose'",
        ),
        (
            "          simultaneous q in players:\n            choose c from hand(q) by q\n"
            "            simultaneous r in players:\n              choose d from hand(r) by r\n",
            "error[E127]: a simultaneous step cannot hold another one",
        ),
    ],
    ids=["by-another", "outer-local", "no-question", "nested"],
)
def test_the_form_of_the_body_is_checked_where_it_is_written(
    tmp_path: Path, body: str, expected: str
) -> None:
    text = _broken(tmp_path, body)
    assert expected in text
    assert "game.yaml:" in text and "^" in text  # file:line:col and a caret
