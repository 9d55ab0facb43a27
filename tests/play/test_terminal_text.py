"""Text that reads right (issue 25, item 4): counts and articles in display text, prompts with one
punctuation mark, the terminal's choices numbered stably and labelled at any length, and a status
line that keeps the seed at 80 columns."""

from __future__ import annotations

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.english import counted, plural_of, with_article
from tabula.play.board import Choice, build_board
from tabula.play.screen import Look, Numbering, choice_lines, decision_screen, prompt_text, status_top


def test_counts_and_articles() -> None:
    assert [counted(1, "torch"), counted(0, "torch"), counted(2, "trick")] == [
        "1 torch",
        "0 torches",
        "2 tricks",
    ]
    assert [plural_of(w) for w in ("city", "day", "box", "brush", "brick")] == [
        "cities",
        "days",
        "boxes",
        "brushes",
        "bricks",
    ]
    assert counted(3, "die", "dice") == "3 dice" and counted(1, "die", "dice") == "1 die"
    assert [
        with_article(w) for w in ("Archway", "Basilica", "Insula", "hour", "unit", "Uranium", "Urban")
    ] == [
        "an Archway",
        "a Basilica",
        "an Insula",
        "an hour",
        "a unit",
        "a Uranium",
        "an Urban",
    ]


def test_the_helpers_in_a_game_summary_and_log() -> None:
    engine = Engine(load_game("high-card"))
    log: list[dict[str, object]] = []
    st = engine.new_game(2, 3, None, log)
    while engine.current_player(st) is not None and st["c"][engine.game.counters["tricks"].base] == 0:
        engine.apply_inplace(st, engine.legal_ids(st)[0], log)
    seats = build_board(engine, st, 0).seats
    assert any(s.summary.startswith("1 trick ·") for s in seats), [s.summary for s in seats]
    assert all("1 tricks" not in s.summary for s in seats)


def test_prompts_end_in_one_mark() -> None:
    assert prompt_text("Buy from which shop?") == "Buy from which shop?"
    assert prompt_text("choose an action") == "choose an action:"
    assert prompt_text("Pick one:") == "Pick one:" and prompt_text("") == "choose:"


def test_a_choice_keeps_its_number_while_it_is_offered() -> None:
    numbering = Numbering()
    assert numbering.number(["a", "b", "c", "d"]) == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert numbering.number(["b", "c", "d", "e"]) == {"b": 2, "c": 3, "d": 4, "e": 1}  # e takes the free 1
    assert numbering.choice(4) == "d" and numbering.choice(9) is None
    assert numbering.number(["x", "y"]) == {"x": 1, "y": 2}  # nothing offered again: from 1


def test_labels_stay_at_any_menu_length() -> None:
    choices = [Choice(f"use:opt_{i}", f"use option number {i} of the window", "use", True) for i in range(30)]
    for rows in (None, 8, 4):
        lines = choice_lines(choices, 80, rows)
        shown = [ln.plain for ln in lines if ")" in ln.plain]
        assert shown and all("(use option" in line for line in shown), shown
        assert all(len(ln.plain) <= 80 for ln in lines)
    numbers = {c.id: 40 + i for i, c in enumerate(choices)}
    assert choice_lines(choices[:2], 80, None, numbers)[0].plain.startswith("40) use:opt_0")


def test_the_status_line_keeps_the_seed_at_80_columns() -> None:
    status = "round 3 | turn 17 | active: Somebody With A Long Name (you) | phase the_action_phase_name"
    for width in (80, 60):
        top = status_top("Glory to Rome (Republic)", status, 123456789, width).plain
        assert top.endswith("| seed 123456789") and len(top) <= width, top
    engine = Engine(load_game("glory-to-rome"))
    st = engine.new_game(4, 987654321)
    lines = decision_screen(
        build_board(engine, st, 0), [], "Glory to Rome (Republic)", Look(False), 987654321
    )
    assert lines[0].plain.endswith("seed 987654321") and len(lines[0].plain) <= 80
