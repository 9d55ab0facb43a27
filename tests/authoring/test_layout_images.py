"""Images on a board's places (`image:` in presentation.layout): read at load from the game's folder
only, sent as `data:` addresses, a missing one drawn with its shape and colour."""

from __future__ import annotations

import base64
import os
import shutil
from pathlib import Path

import pytest

from tabula.interpreter.engine import AuthorError, Engine, load_game
from tabula.play.board import build_board

ROOT = Path(__file__).resolve().parents[2]
SECRET = "root:x:0:0:a line no page may show"
GATE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="6"/></svg>'


def game_with_image(tmp_path: Path, image: str) -> Path:
    game = tmp_path / "mini"
    shutil.copytree(ROOT / "tests" / "games" / "mini", game)
    (game / "images").mkdir()
    (game / "images" / "gate.svg").write_text(GATE)
    (tmp_path / "secret.svg").write_text(SECRET)
    (game / "presentation.yaml").write_text(
        "presentation:\n  layout:\n    table:\n      width: 4\n      height: 3\n      areas:\n"
        f"        - {{title: Pile, counter: pile, at: [0, 0], size: [2, 2], image: '{image}'}}\n"
    )
    return game


def table_place(game: Path) -> dict[str, object]:
    engine = Engine(load_game(game))
    board = build_board(engine, engine.new_game(2, 1), 0).to_json()
    place: dict[str, object] = board["table"]["board"]["places"][0]
    return place


def test_an_image_of_the_games_folder_is_sent_as_data(tmp_path: Path) -> None:
    place = table_place(game_with_image(tmp_path, "images/gate.svg"))
    assert place["image"] == "data:image/svg+xml;base64," + base64.b64encode(GATE.encode()).decode()


@pytest.mark.parametrize("name", ["../secret.svg", "/etc/passwd", "images/../../secret.svg", "link.svg"])
def test_an_image_outside_the_folder_is_refused_and_never_read(tmp_path: Path, name: str) -> None:
    game = game_with_image(tmp_path, name)
    os.symlink(tmp_path / "secret.svg", game / "link.svg")  # inside by name, outside in truth
    with pytest.raises(AuthorError) as err:
        load_game(game)
    text = str(err.value)
    assert "P015" in text and f"{game / 'presentation.yaml'}:7:" in text, text
    assert SECRET not in text and "root:" not in text


def test_a_missing_image_is_a_warning_and_the_place_keeps_its_shape(tmp_path: Path) -> None:
    game = game_with_image(tmp_path, "images/none.svg")
    place = table_place(game)
    assert place["image"] is None and place["shape"] == "round"


def test_porta_nigra_draws_its_gate_above_the_third_quarter_covering_nothing() -> None:
    engine = Engine(load_game("porta-nigra"))
    board = build_board(engine, engine.new_game(2, 1), 0).to_json()
    places = board["table"]["board"]["places"]
    gates = [p for p in places if p["image"] is not None]
    assert len(gates) == 1 and str(gates[0]["image"]).startswith("data:image/svg+xml;base64,")
    gate = gates[0]
    quarter = next(p for p in places if p["title"] == "Quarter 3 · Porta Nigra")
    assert quarter["x"] <= gate["x"] and gate["x"] + gate["w"] <= quarter["x"] + quarter["w"]
    assert gate["y"] + gate["h"] <= quarter["y"]  # above its quarter, on none of its sites or shops
    for p in places:
        if p is not gate:
            apart = (
                p["x"] + p["w"] <= gate["x"]
                or gate["x"] + gate["w"] <= p["x"]
                or p["y"] + p["h"] <= gate["y"]
                or gate["y"] + gate["h"] <= p["y"]
            )
            assert apart, f"the gate covers {p['title']}"
