"""Variants and expansions (packs): applied to a game by name or path, combined, and diagnosed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game

MINI = Path(__file__).resolve().parents[1] / "games" / "mini"

MORE_CARDS = """pack: more-cards
kind: expansion
description: Two more cards.
add:
  components.card.instances:
    - {name: D, value: 4}
    - {name: E, value: 5}
"""
BIG_PILE = """pack: big-pile
kind: variant
options: {target: 20}
replace:
  actions.stop.do: |
    gain 1 score(me)
"""
DOUBLE = """pack: double
kind: expansion
add:
  constants.bonus: 2
  actions.double:
    do: |
      gain bonus score(me)
replace:
  actions.stop.do: pass
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return str(path)


def test_a_variant_sets_options_and_replaces_rules(tmp_path: Path) -> None:
    game = load_game(MINI, variant=write(tmp_path, "big", BIG_PILE))
    assert game.options["target"] == 20
    engine = Engine(game)
    st = engine.new_game(2, seed=1)
    engine.apply_inplace(st, "stop")
    assert engine.scores(st) == [1, 0]


def test_two_expansions_combine(tmp_path: Path) -> None:
    packs = [write(tmp_path, "more", MORE_CARDS), write(tmp_path, "double", DOUBLE)]
    game = load_game(MINI, expansions=packs)
    assert sorted(c.name for c in game.components) == ["A", "B", "B", "C", "D", "E"]
    assert "double" in game.actions and game.constants["bonus"] == 2
    assert game.packs == ["more-cards", "double"]


def test_two_packs_replacing_the_same_rule_conflict(tmp_path: Path) -> None:
    big, double = write(tmp_path, "big", BIG_PILE), write(tmp_path, "double", DOUBLE)
    with pytest.raises(AuthorError) as err:
        load_game(MINI, variant=big, expansions=[double])
    assert render_report(err.value.report) == (
        f"{double}:9:3: error[V020]: two packs change the same entry\n"
        "  |\n"
        "9 |   actions.stop.do: pass\n"
        "  |   ^^^^^^^^^^^^^^^\n"
        f"  = hint: it is also changed at {big}:5:3\n"
        "\n1 error, 0 warnings"
    )


def test_a_reference_to_a_missing_id(tmp_path: Path) -> None:
    pack = write(tmp_path, "bad", "pack: bad\nkind: variant\nremove:\n  - components.card.instances[AA]\n")
    with pytest.raises(AuthorError) as err:
        load_game(MINI, variant=pack)
    assert render_report(err.value.report) == (
        f"{pack}:4:5: error[V013]: no item named 'AA' in components.card.instances\n"
        "  |\n"
        "4 |   - components.card.instances[AA]\n"
        "  |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  = hint: did you mean 'A'?\n"
        "\n1 error, 0 warnings"
    )


def test_dsl_errors_inside_a_pack_point_into_the_pack(tmp_path: Path) -> None:
    text = "pack: typo\nkind: variant\nreplace:\n  actions.stop.do: |\n    gain 1 scor(me)\n"
    pack = write(tmp_path, "typo", text)
    with pytest.raises(AuthorError) as err:
        load_game(MINI, variant=pack)
    text = render_report(err.value.report)
    assert text.startswith(f"{pack}:5:12: error[E112]: 'gain' needs a counter")
    assert "did you mean 'score'?" in text


def test_an_unknown_variant_name_lists_the_shipped_ones() -> None:
    with pytest.raises(AuthorError) as err:
        load_game("porta-nigra", variant="nope")
    text = render_report(err.value.report)
    assert "no variant named 'nope'" in text and "short-game" in text


def test_removing_a_list_item_does_not_claim_the_next_one(tmp_path: Path) -> None:
    text = (
        "pack: p\nkind: variant\nremove:\n  - components.card.instances[A]\n"
        "replace:\n  components.card.instances[C].value: 7\n"
    )
    game = load_game(MINI, variant=write(tmp_path, "p", text))
    assert sorted((c.name, c.props["value"]) for c in game.components) == [("B", 2), ("B", 2), ("C", 7)]
