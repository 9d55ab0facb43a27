"""A declared board's cells drawn as the presentation draws components (issue 35): the cell's own
look (its colour), then the look of the tile lying on it (its picture from `images`, turned by its
`rotation`); a component's `shape` as squares on its card; `images` read at load like a layout's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.engine import AuthorError, Engine, load_game
from tabula.play.board import build_board

GAMES = Path(__file__).resolve().parents[1] / "games"
SEATS = ["#c0392b", "#2e86de"]  # mosaic's seat_colours: red, blue


def laid(game: str | Path, moves: int) -> tuple[Engine, Any]:
    engine = Engine(load_game(game))
    st = engine.new_game(2, 1)
    for _ in range(moves):
        st = engine.apply(st, engine.legal_ids(st)[0])
    return engine, st


@pytest.mark.slow  # 625 cells drawn
def test_a_cell_takes_its_owners_colour_and_its_tiles_picture_turned() -> None:
    engine, st = laid(GAMES / "mosaic", 4)
    places = build_board(engine, st, 1).to_json()["table"]["board"]["places"]
    owner = engine.view(st, 0)["m"]["owner"]
    g = engine.game
    owners = {g.components[c].name: p for c, p in enumerate(owner) if p is not None}
    drawn = {p["title"]: p for p in places if p["colour"] is not None}
    assert {n: p["colour"] for n, p in drawn.items()} == {n: SEATS[p] for n, p in owners.items()}
    assert sorted(p["rotation"] for p in drawn.values()) == [0, 90, 180, 270]  # a quarter more each
    for p in drawn.values():
        kind = g.components[p["cards"][0]["ids"][0]].props["kind"]
        assert p["image"] == engine.game.presentation.images[kind], p["title"]
    free = [p for p in places if p["colour"] is None]
    assert len(free) == 625 - 4 and all(p["image"] is None and p["rotation"] == 0 for p in free)


def test_a_patch_card_has_its_shape_and_its_squares_its_colour() -> None:
    engine, st = laid("patchwork", 2)  # Ann buys the first patch she may, and sews it
    board = build_board(engine, st, 0)
    pieces = next(ln for s in board.you.sections for ln in s.lines if ln.name == "pieces").cards
    patch = engine.game.components[pieces[0].ids[0]]
    assert pieces[0].shape == patch.props["shape"]
    assert board.you.board is not None
    sewn = [p for p in board.you.board.places if p.colour is not None]
    assert len(sewn) == patch.props["size"] and {p.colour for p in sewn} == {pieces[0].colour}


@pytest.mark.slow  # the 25x25 board compiled afresh
def test_an_images_file_outside_the_folder_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "mosaic"
    shutil.copytree(GAMES / "mosaic", game)
    text = (game / "game.yaml").read_text().replace("images/town.svg", "../town.svg")
    (game / "game.yaml").write_text(text)
    with pytest.raises(AuthorError) as err:
        load_game(game)
    assert "P015" in str(err.value) and "../town.svg" in str(err.value)


def test_a_boards_cell_zones_are_not_warned_about_as_unshown() -> None:
    warned = [d.message for d in load_game(GAMES / "mosaic").check_warnings if d.code == "P010"]
    assert not warned, warned
