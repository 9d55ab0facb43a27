"""What screens leave out and draw together (docs/presentation.md, "No engine bookkeeping on
screen"): none and not-yet values, the setup's log lines, a simultaneous step's status, identical
cards grouped with counts, clues written on hidden cards (`notes:`), a map's routes in words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import Engine
from tabula.interpreter.loading import load_game
from tabula.play.board import Board, build_board
from tabula.play.faces import Card
from tabula.play.screen import Look, board_lines, choice_lines, decision_screen
from tabula.play.tidy import fold_setup, group_alike

ROOT = Path(__file__).resolve().parents[2]


def rows(board: Board) -> dict[str, str]:
    panels = [board.table, board.you, *board.others]
    return {ln.name: ln.text for p in panels for s in p.sections for ln in s.lines}


@pytest.mark.slow  # loads a bundled game
def test_none_and_not_yet_values_are_left_out() -> None:
    coup = Engine(load_game(ROOT / "gamedefs/coup"))
    shown = rows(build_board(coup, coup.new_game(2, 3), 0))
    assert "claim" not in shown and "claimant" not in shown and "coins" in shown  # no claim made yet
    hanabi = Engine(load_game(ROOT / "gamedefs/hanabi"))
    shown = rows(build_board(hanabi, hanabi.new_game(2, 3), 0))
    assert "turns_left" not in shown and "clues" in shown  # -1: the end has not begun


@pytest.mark.slow  # loads a bundled game
def test_hanabi_clues_are_written_on_each_hidden_card() -> None:
    engine = Engine(load_game(ROOT / "gamedefs/hanabi"))
    st = engine.new_game(2, 3)
    st = engine.apply(st, "tell_colour:Bob,green")  # Ann tells Bob: Bob's own cards now say so
    board = build_board(engine, st, 1)
    hand = next(ln for s in board.you.sections for ln in s.lines if ln.name == "hand")
    assert len(hand.cards) == 5 and all(c.hidden and c.count == 1 for c in hand.cards)
    told = [[b.text for b in c.badges] for c in hand.cards]
    assert ["told colour green"] in told, told
    assert "told_colour" not in rows(board)  # written on the cards, not listed again


@pytest.mark.slow  # loads a bundled game
def test_notes_must_name_the_owners_vars(tmp_path: Path) -> None:
    game = tmp_path / "hanabi"
    shutil.copytree(ROOT / "gamedefs/hanabi", game)
    text = (
        (game / "presentation.yaml")
        .read_text()
        .replace("notes: [told_colour, told_rank]", "notes: [turns_left]")
    )
    (game / "presentation.yaml").write_text(text)
    with pytest.raises(AuthorError) as err:
        load_game(game)
    assert "error[P007]: 'notes' names vars of the zone's owner, and 'turns_left' is not one" in str(
        err.value
    )


def test_identical_cards_are_one_entry_with_a_count_grouped_by_colour() -> None:
    cards = [
        Card(n, n, n, c, ids=[i]) for i, (n, c) in enumerate([("b", "#00f"), ("r", "#f00"), ("b", "#00f")])
    ]
    cards.append(Card("a", "a", "a", "#00f", ids=[3]))
    grouped = group_alike(cards)
    assert [(c.title, c.count, c.ids) for c in grouped] == [("a", 1, [3]), ("b", 2, [0, 2]), ("r", 1, [1])]


@pytest.mark.slow  # loads a bundled game
def test_the_setup_is_one_log_line_and_a_simultaneous_step_names_who_answers() -> None:
    assert fold_setup(["shuffle deck", "deal"]) == ["setup: 2 moves before the first decision"]
    assert fold_setup(["one"]) == ["one"]
    engine = Engine(load_game(ROOT / "gamedefs/sushi-go"))
    board = build_board(engine, engine.new_game(["Ann", "Bob"], 3), 0)
    assert "waiting for Ann (you), Bob" in board.status and "active" not in board.status


@pytest.mark.slow  # loads a bundled game
def test_the_terminal_lists_a_maps_routes_by_name_and_tickets_by_name() -> None:
    engine = Engine(load_game(ROOT / "gamedefs/ticket-to-ride"))
    board = build_board(engine, engine.new_game(2, 3), 0)
    text = "\n".join(t.plain for t in board_lines(board, 80))
    assert "Seattle-Helena 6 yellow" in text and "Vancouver-Calgary 3 grey" in text
    screen = "\n".join(t.plain for t in decision_screen(board, [], "Ticket to Ride", Look()))
    assert "Map: 100 routes, 0 claimed" in screen and " Cal " not in screen
    choices = [t.plain for t in choice_lines(board.decision.choices, 80)]
    assert choices[0].startswith(" 1) return ") and "(return" not in choices[0], choices
