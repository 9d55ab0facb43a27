"""Card faces carry their text (issue 25, item 1): a component's own `text` is on its face whatever the
game's template shows besides, in the board every screen draws (the page, its tooltips, `show` in
the terminal), and a foundation shows the materials laid and needed (Glory to Rome's presentation,
from its data: a badge over its own functions)."""

from __future__ import annotations

import re

from tabula.interpreter.engine import Engine, load_game
from tabula.play.board import Board, build_board, face_text
from tabula.play.faces import Card
from tabula.play.screen import show_lines


def test_a_cards_own_text_comes_first_and_the_template_only_adds() -> None:
    assert face_text("Your clientele limit is 2 higher.", "rubble, laborer") == (
        "Your clientele limit is 2 higher.\nrubble, laborer"
    )
    assert face_text("A wild role card", "A wild role card") == "A wild role card"  # the default look
    assert face_text("short", "the text: short, and more") == "the text: short, and more"
    assert face_text(None, "rubble, laborer") == "rubble, laborer"
    assert face_text("Only words.", "") == "Only words."


def cards(board: Board) -> list[Card]:
    out = []
    for panel in [board.table, board.you, *board.others]:
        for section in panel.sections:
            for line in section.lines:
                out += line.cards + [u for c in line.cards for u in c.under]
                out += [c for _, group in line.groups for c in group]
    return out


def late_glory_to_rome() -> tuple[Engine, Board]:
    game = load_game("glory-to-rome", {"surrender_allowed": False})
    engine = Engine(game)
    st = engine.new_game(2, 4)
    for _ in range(150):
        if engine.is_terminal(st):
            break
        st_ids = engine.legal_ids(st)
        engine.apply_inplace(st, st_ids[(len(st_ids) * 7 + 3) % len(st_ids)])
    return engine, build_board(engine, st, 0)


def test_glory_to_rome_buildings_show_what_they_do_and_their_progress() -> None:
    engine, board = late_glory_to_rome()
    g = engine.game
    by_key = {c.key: c for c in g.components}
    shown = [c for c in cards(board) if not c.hidden and by_key[c.key].text]
    assert shown, "some order card is face up"
    for card in shown:
        own = by_key[card.key].text
        assert card.text.startswith(own), (card.name, card.text)
        assert card.text != own  # the template's line (material, role, value, timing) is added
    foundations = [
        c for c in cards(board) if any(re.fullmatch(r"\d+/\d+ materials", b.text) for b in c.badges)
    ]
    assert foundations, "a late game has foundations in progress"
    for card in foundations:
        laid, needed = map(
            int, re.match(r"(\d+)/(\d+)", next(b.text for b in card.badges if "/" in b.text)).groups()
        )
        assert laid == len(card.under) and 0 <= laid < needed


def test_show_in_the_terminal_prints_a_buildings_text() -> None:
    _, board = late_glory_to_rome()
    card = next(c for c in cards(board) if not c.hidden and c.text and "\n" in c.text)
    lines = show_lines(board, card.name, 200)
    assert lines is not None
    text = " ".join(line.plain for line in lines)
    assert card.text.split("\n")[0] in text and card.text.split("\n")[1] in text
