"""The presentation's `choices` by action, `pieces` and a component's `at` (docs/presentation.md),
on tests/games/turned (tiles laid turned on a 3x3 table, a pawn put on a road side):

- each choice of an action reads as its label says, its parameters bound (`lay:b1,1` reads
  `on b1, turned 90°`), and its log line says the same to every seat;
- the piece an action lays is sent with the decision, with the degrees each choice turns it, only
  when the seat sees the piece (a tile drawn face down is not sent, and the choices are plain);
- a pawn lying on a tile is drawn where its `at` says, in its owner's colour;
- a tile's picture drawn from its sides (Carcassonne's: caps, regions, roads, the dot where roads
  end or cross), another picture over it;
- a label or a piece naming no action is P017, a `sides` look of a type without sides P018.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.engine import AuthorError, Engine, load_game
from tabula.interpreter.model.view import visible_log
from tabula.play.board import build_board, presentation_of
from tabula.play.choicelog import apply_named
from tabula.play.sides import sides_picture

GAME = Path(__file__).resolve().parents[1] / "games" / "turned"


def start(shown: bool = True) -> tuple[Engine, dict[str, Any]]:
    engine = Engine(load_game(GAME, {"shown": shown}))
    return engine, engine.new_game(2, 3)


def test_choices_of_an_action_read_as_labelled_with_the_piece_and_its_turns() -> None:
    engine, st = start()
    dec = build_board(engine, st, 0).decision
    assert dec is not None and dec.mine
    top = engine.game.components[st["z"][engine.game.zones["pile"].index(None)][0]]
    for choice in dec.choices:
        cell, turn = choice.id.removeprefix("lay:").split(",")
        assert choice.label == f"on {cell}, turned {int(turn) * 90}°" and choice.given, choice
        assert choice.rotation == int(turn) * 90
    assert set(dec.pieces) == {"lay"}
    piece = dec.pieces["lay"]
    assert piece.name == top.name and (piece.image or "").startswith("data:image/svg+xml")
    # the other seat is not deciding: no choices, no piece
    other = build_board(engine, st, 1).decision
    assert other is not None and not other.choices and not other.pieces


def test_a_piece_the_seat_may_not_see_is_not_sent() -> None:
    engine, st = start(shown=False)
    dec = build_board(engine, st, 0).decision
    assert dec is not None and dec.choices
    assert dec.pieces == {} and all(c.rotation is None for c in dec.choices)
    assert all(c.label.startswith("on ") for c in dec.choices)  # the label reads nothing hidden


def test_log_lines_and_a_pawn_drawn_where_it_stands() -> None:
    engine, st = start()
    log: list[dict[str, Any]] = []
    lay = next(i for i in st["dec"]["ids"] if i.startswith("lay:"))
    apply_named(engine, st, lay, log)
    post = next(i for i in st["dec"]["ids"] if i.startswith("post:"))
    apply_named(engine, st, post, log)
    cell, turn = lay.removeprefix("lay:").split(",")
    way = {"n": "north", "e": "east", "s": "south", "w": "west"}[post.removeprefix("post:")]
    for seat in (0, 1):
        lines = visible_log(log, seat)
        assert f"P1: on {cell}, turned {int(turn) * 90}°" in lines, lines
        assert f"P1: a pawn on the road to the {way}" in lines, lines
    board = build_board(engine, st, 1).table.board
    assert board is not None
    place = next(p for p in board.places if p.title == cell)
    assert place.rotation == int(turn) * 90 and place.image
    pawn = place.cards[1]
    assert pawn.at == post.removeprefix("post:") and pawn.colour == "#c0392b"


@pytest.mark.parametrize("key", ["pieces", "choices"])
def test_a_look_naming_no_action_is_located(tmp_path: Path, key: str) -> None:
    game = tmp_path / "turned"
    shutil.copytree(GAME, game)
    text = (game / "game.yaml").read_text()
    wrong = {"pieces": "    lay: {piece:", "choices": "    - {action: lay,"}[key]
    (game / "game.yaml").write_text(text.replace(wrong, wrong.replace("lay", "lie")))
    with pytest.raises(AuthorError) as err:
        load_game(game)
    assert "P017" in str(err.value) and "no action named 'lie'" in str(err.value)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(wrong))
    assert f"{game / 'game.yaml'}:{line}:" in str(err.value), str(err.value)


def drawn(url: str | None) -> str:
    assert url is not None and url.startswith("data:image/svg+xml;base64,")
    return base64.b64decode(url.split(",", 1)[1]).decode()


@pytest.mark.parametrize(
    ("name", "caps", "regions", "lines", "dot"),
    [
        ("U", 0, 0, 2, False),  # a straight road: one line through the middle
        ("V", 0, 0, 2, False),  # a bend
        ("X", 0, 0, 4, True),  # a crossing: four roads ending in the middle
        ("L", 1, 0, 3, True),  # a city on one side, three roads apart (joins [[n], [e], [s], [w]])
        ("H", 2, 0, 0, False),  # two cities apart (joins [[e], [w]]): two caps
        ("F", 0, 1, 0, False),  # one city across the tile: one region
        ("C", 0, 0, 0, False),  # a city on every side: the whole tile
    ],
)
def test_a_tile_drawn_from_its_sides(name: str, caps: int, regions: int, lines: int, dot: bool) -> None:
    game = load_game("carcassonne")
    look = presentation_of(game).looks["tile"]
    cid = next(i for i, c in enumerate(game.components) if c.name == name)
    svg = drawn(sides_picture(game, look.sides, cid, None))
    assert svg.count("Q20") + svg.count("Q24") + svg.count("Q16") == caps, svg
    assert svg.count("<polygon") == regions and svg.count('<path d="M') - caps == lines, svg
    assert ("<circle" in svg) == dot, svg
    city = look.sides["city"][0]
    assert (f'fill="{city}"' in svg) == (name in "LHFC"), svg
    # a cloister's picture is drawn over the tile, inside the same picture
    assert '<image href="data:x"' in drawn(sides_picture(game, look.sides, cid, "data:x"))


def test_a_sides_look_on_a_type_without_sides_is_located(tmp_path: Path) -> None:
    game = tmp_path / "turned"
    shutil.copytree(GAME, game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(
        text.replace("    pawn: {colour:", "    pawn: {sides: {road: {colour: red}}, colour:")
    )
    with pytest.raises(AuthorError) as err:
        load_game(game)
    assert "P018" in str(err.value) and "'pawn' has no four sides to draw" in str(err.value)
