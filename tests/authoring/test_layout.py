"""`presentation.layout`: boards drawn from data (docs/presentation.md, "Boards").

- the layout is checked like the rest of the section (located P011-P014 diagnostics, S001 for shape);
- a board's places are filled from the seat's view: a zone's cards (`where` picks some; more than
  `stack` collapse by title with counts), a counter's keys, a var, a value; nothing hidden shows;
- a game without a layout draws no board; the bundled games' city and tableau are filled.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tabula.interpreter.engine import AuthorError, Engine, load_game
from tabula.play.board import build_board
from tabula.play.faces import Card
from tabula.play.layout import stacks

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "games" / "mini"


def with_presentation(tmp_path: Path, text: str) -> Path:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    (game / "presentation.yaml").write_text(text)
    return game


GOOD = """presentation:
  layout:
    table:
      width: 6
      height: 3
      areas:
        - {title: Pile, counter: pile, at: [0, 0], size: [2, 1], shape: circle, colour: gold}
        - {title: Deck, zone: deck, at: [2, 0], size: [2, 1], stack: 1}
        - {title: Table, zone: table, at: [4, 0], size: [2, 2]}
        - {title: Twos, zone: table, where: {value: 2}, at: [0, 1], size: [2, 2]}
        - {title: Last, var: last, at: [2, 1], size: [2, 1]}
        - {title: Middle, at: [2, 2], size: [2, 1], choice: stop}
    player:
      areas:
        - {title: Hand, zone: hand, at: [0, 0], size: [3, 2]}
        - {title: Score, value: "score(p) * 2", at: [3, 0], size: [2, 1]}
"""


def test_a_board_is_filled_from_the_seats_view(tmp_path: Path) -> None:
    g = load_game(with_presentation(tmp_path, GOOD))
    engine = Engine(g)
    st = engine.new_game(2, 1)
    fresh = build_board(engine, st, 0)
    fresh_other = list(st["z"][g.zones["hand"].index(1)])
    deck = next(p for p in fresh.table.board.places if p.title == "Deck")  # type: ignore[union-attr]
    assert deck.kind == "cards" and deck.stacked and len(deck.cards) == 1 and deck.cards[0].hidden
    assert deck.cards[0].count == deck.size == len(st["z"][g.zones["deck"].index(None)]) == 2
    played = []
    while len(played) < 2:  # each player plays its card face up to the table
        ids = engine.legal_ids(st)
        choice = next((i for i in ids if i.startswith("play_card:")), "stop")
        if choice != "stop":
            played.append(g.components[st["z"][g.zones["hand"].index(st["t"]["active"])][0]])
        engine.apply_inplace(st, choice)
    st["c"][g.counters["pile"].base] = 7
    board = build_board(engine, st, 0)
    assert board.table.board is not None
    places = {p.title: p for p in board.table.board.places}
    assert [(e.key, e.value) for e in places["Pile"].entries] == [] and places["Pile"].text == "7"
    assert places["Pile"].shape == "circle" and places["Pile"].colour == "#d4ac0d"
    assert sorted(c.name for c in places["Table"].cards) == sorted(c.name for c in played)
    twos = sorted(c.name for c in played if c.props["value"] == 2)
    assert sorted(c.name for c in places["Twos"].cards) == twos  # `where` picks by property
    assert places["Middle"].kind == "empty" and places["Middle"].choice == "stop"
    mine = fresh.you.board
    assert mine is not None and [p.title for p in mine.places] == ["Hand", "Score"]
    assert [c.hidden for c in mine.places[0].cards] == [False]  # the seat's own hand, face up
    other = fresh.others[0].board
    assert other is not None and other.places[0].cards[0].hidden  # the other's hand, a back
    assert [p.text for p in board.you.board.places[1:]] == [str(2 * st["c"][g.counters["score"].base])]  # type: ignore[union-attr]
    other_card = g.components[fresh_other[0]].key
    assert f'"{other_card}"' not in json.dumps(fresh.to_json())  # nothing hidden on the board


def test_long_zones_collapse_into_stacks_with_counts() -> None:
    cards = [
        Card("B", "B1", "Bee"),
        Card("A", "A1", "Ay"),
        Card("B", "B2", "Bee"),
        Card("?", None, "?", hidden=True),
    ]
    out = stacks(cards)
    assert [(c.title, c.count, c.hidden) for c in out] == [
        ("Bee", 2, False),
        ("Ay", 1, False),
        ("?", 1, True),
    ]


def test_a_game_without_a_layout_draws_no_board() -> None:
    engine = Engine(load_game(MINI))
    board = build_board(engine, engine.new_game(2, 1), 0)
    assert board.table.board is None and board.you.board is None


def test_bad_layouts_give_located_diagnostics(tmp_path: Path) -> None:
    game = with_presentation(
        tmp_path,
        "presentation:\n"
        "  layout:\n"
        "    table:\n"
        "      width: 4\n"
        "      areas:\n"
        "        - {zone: hand, at: [0, 0]}\n"
        "        - {zone: decks, at: [1, 0]}\n"
        "        - {zone: deck, counter: pile, at: [2, 0]}\n"
        "        - {zone: table, where: {valu: 2}, at: [0, 1]}\n"
        "        - {counter: pile, keys: [red], at: [1, 1]}\n"
        "        - {var: last, at: [3.5, 1], colour: chartreuse-ish}\n"
        "        - {value: 'pile +', at: [0, 2]}\n",
    )
    with pytest.raises(AuthorError) as err:
        load_game(game)
    text = str(err.value)
    file = str(game / "presentation.yaml")
    expected = [
        f"{file}:6:18: error[P011]: 'hand' is for each player: it belongs on layout.player",
        f"{file}:7:18: error[P011]: no zone named 'decks'",
        f"{file}:8:24: error[P012]: a place holds one thing, not zone and counter",
        f"{file}:9:33: error[P013]: no component has a property or mark named 'valu'",
        f"{file}:10:34: error[P013]: 'red' is no key of counter 'pile'",
        f"{file}:11:45: error[P008]: 'chartreuse-ish' is not a colour",
        f"{file}:11:27: warning[P014]: this place (3.5, 1, 1x1) goes past the board (4x6 cells)",
        f"{file}:12:25: error[D001]: syntax error: unexpected end of text",
    ]
    for head in expected:
        assert head in text, text
    assert "did you mean 'deck'?" in text and "did you mean 'value'?" in text
    assert "Traceback" not in text


def test_a_layout_of_the_wrong_shape_is_a_schema_error(tmp_path: Path) -> None:
    game = with_presentation(
        tmp_path,
        "presentation:\n  layout:\n    table:\n      areas:\n        - {zone: deck, at: [0], shape: star}\n",
    )
    with pytest.raises(AuthorError) as err:
        load_game(game)
    text = str(err.value)
    assert f"{game / 'presentation.yaml'}:5:" in text and "S00" in text, text


def test_porta_nigras_city_and_glory_to_romes_tableau() -> None:
    engine = Engine(load_game("porta-nigra"))
    board = build_board(engine, engine.new_game(2, 3), 0)
    assert board.table.board is not None
    places = board.table.board.places
    sites = [p for p in places if p.name == "sites"]
    assert [p.title for p in sites] == [
        "Amphitheatre sites",
        "Basilica sites",
        "Porta Nigra sites",
        "City Wall sites",
    ]
    assert sum(len(p.cards) for p in sites) == len(engine.game.by_type["site"])
    shops = [e.key for p in places if p.name == "market" for e in p.entries]
    assert sorted(shops) == ["black", "blue", "red", "white", "yellow"]
    assert [p.choice for p in places if p.title.startswith("Quarter")] == ["0", "1", "2", "3"]
    engine = Engine(load_game("glory-to-rome", {"surrender_allowed": False}))
    board = build_board(engine, engine.new_game(3, 4), 0)
    assert board.you.board is not None
    titles = [p.title for p in board.you.board.places]
    # the hand and the camp are listed under the board, each card with its printed power
    assert titles == ["Clientele", "Vault", "Stockpile", "Influence", "Buildings"]
