"""W007: a simultaneous step whose write of public state runs only for some answers (the players
still to answer would see it). The bundled games with a step keep their answers out of sight."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.engine import load_game

ROOT = Path(__file__).resolve().parents[2]
STEP = """            choose c from mine by q prompt "pick a card"
            move c to picked(q)
"""


def w007(tmp_path: Path, body: str) -> list[int]:
    """The lines W007 points at once the sealed fixture's step reads `body`."""
    folder = tmp_path / "sealed"
    shutil.copytree(ROOT / "tests" / "games" / "sealed", folder)
    path = folder / "game.yaml"
    text = path.read_text().replace(
        "properties: {value: int}", "properties: {value: int}\n    marks: {seen: false}"
    )
    path.write_text(text.replace(STEP, body))
    return [d.span.line for d in load_game(folder).check_warnings if d.code == "W007" and d.span]


@pytest.mark.parametrize(
    "body",
    [
        "            choose c from mine by q\n            if c.value > 2:\n"
        "              move c to shown(q)\n",
        "            choose c from mine by q\n            move c to picked(q)\n            if c.value > 2:\n"
        "              gain 1 score(q)\n",
        "            let n = 0\n            while n < 1:\n              set resolved = true\n"
        "              choose c from mine by q\n              set n = 1\n            move c to picked(q)\n",
    ],
)
def test_a_public_write_that_depends_on_the_answer_is_w007(tmp_path: Path, body: str) -> None:
    assert len(w007(tmp_path, body)) == 1


@pytest.mark.parametrize(
    "body",
    [
        STEP,  # runs whatever the answer: the sizes change alike
        "            choose c from mine by q\n            let k = 0\n            if c.value > 2:\n"
        "              set k = 1\n              set c.seen = true\n            move c to picked(q)\n",
    ],
)
def test_a_step_local_a_mark_or_an_unconditional_move_is_no_warning(tmp_path: Path, body: str) -> None:
    assert w007(tmp_path, body) == []


@pytest.mark.slow  # compiles two bundled games
@pytest.mark.parametrize("game", ["gamedefs/sushi-go", "gamedefs/ticket-to-ride", "tests/games/sealed"])
def test_the_games_with_a_step_get_no_w007(game: str) -> None:
    assert [d for d in load_game(ROOT / game).check_warnings if d.code == "W007"] == []
