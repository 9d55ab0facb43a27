"""What a choice says: `presentation.choices` labels, and log lines that name what was chosen.

- a `choose` decision's choices read as the presentation's template says (on the page's board and
  in the terminal), from the seat's own knowledge; a bad template is a located diagnostic;
- a log line names the chosen components for exactly the seats that saw them when the choice was
  made or see them once it has been carried out (a card played face up from a hand is named; one
  put away unseen stays masked).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.base.types import COMP
from tabula.interpreter.engine import AuthorError, Engine, load_game
from tabula.interpreter.model.view import visible_log, visible_to
from tabula.play.board import build_board

ROOT = Path(__file__).resolve().parents[2]


def test_porta_nigra_choices_read_as_its_presentation_says() -> None:
    engine = Engine(load_game("porta-nigra"))
    st = engine.new_game(2, 3)
    dec = build_board(engine, st, st["dec"]["p"]).decision
    assert dec is not None and dec.mine
    assert [(c.id, c.label) for c in dec.choices] == [
        ("0", "Quarter 1: Amphitheatre, red shop"),
        ("1", "Quarter 2: Basilica, yellow shop"),
        ("2", "Quarter 3: Porta Nigra, black shop"),
        ("3", "Quarter 4: City Wall, blue shop"),
    ]
    gen = rng.seed_state(5)
    for _ in range(400):  # on to a build: each site with its building, row, bricks, VP and move cost
        dec = build_board(engine, st, st["dec"]["p"]).decision
        assert dec is not None
        if dec.prompt.startswith("Build on which site"):
            break
        engine.apply_inplace(st, engine.random_choice(st, gen))
    else:
        pytest.fail("no build in 400 decisions")
    first = dec.choices[0]
    site = next(c for c in engine.game.components if c.name == first.id)
    assert first.label.startswith(f"{site.name}: ") and f"row {site.props['row']}" in first.label
    assert "VP, move " in first.label


def test_a_bad_choice_label_is_located(tmp_path: Path) -> None:
    game = tmp_path / "mini"
    shutil.copytree(ROOT / "tests" / "games" / "mini", game)
    (game / "presentation.yaml").write_text(
        "presentation:\n  choices:\n    - {prompt: Which, label: '{choice.value +}'}\n"
    )
    with pytest.raises(AuthorError) as err:
        load_game(game)
    assert f"{game / 'presentation.yaml'}:3:" in str(err.value) and "D001" in str(err.value)


def chosen_components(engine: Engine, dec: dict[str, Any], value: Any) -> list[int]:
    if dec["k"] == "choose":
        return [value] if dec.get("t") == COMP and isinstance(value, int) else []
    act = engine.game.action_list[value[0]]
    return [v for (_, _, t), v in zip(act.params, value[1], strict=True) if t == COMP and isinstance(v, int)]


@pytest.mark.parametrize("game", ["glory-to-rome", "porta-nigra"])
def test_a_log_line_names_what_each_seat_sees_once_the_choice_is_done(game: str) -> None:
    engine = Engine(load_game(game, {"surrender_allowed": False} if game == "glory-to-rome" else None))
    st = engine.new_game(3, 4)
    gen = rng.seed_state(9)
    log: list[dict[str, Any]] = []
    named = masked = 0
    for _ in range(300):
        if engine.is_terminal(st):
            break
        dec = st["dec"]
        choice = engine.random_choice(st, gen)
        idx = dec["ids"].index(choice) if isinstance(choice, str) else int(choice)
        value, who = dec["v"][idx], st["names"][dec["p"]]
        comps = chosen_components(engine, dec, value)
        saw = [all(visible_to(engine.game, st, c, q) for c in comps) for q in range(3)]
        before = len(log)
        engine.apply_inplace(st, choice, log)
        entry = log[before]
        assert entry["text"] == f"{who}: {dec['ids'][idx]}"
        for q in range(3):
            if q == dec["p"]:
                continue
            sees = saw[q] or all(visible_to(engine.game, st, c, q) for c in comps)
            line = visible_log([entry], q)
            if comps and not sees:
                assert line != [entry["text"]], f"{entry['text']} named to seat {q}, who does not see it"
                masked += 1
            else:
                assert line == [entry["text"]], f"{entry['text']} masked for seat {q}, who sees it now"
                named += comps != []
    assert named > 0, "some chosen card was seen"
