"""`tabula rules`: the card reference rendered from both games' data (tools/cli/rules.py)."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from tabula.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]


def tabula(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = os.getcwd()
    os.chdir(ROOT)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = cli.main(list(args))
    finally:
        os.chdir(saved)
    return code, out.getvalue() + err.getvalue()


def section(text: str, heading: str) -> str:
    """The lines of one card's section of the Markdown reference."""
    start = text.index(heading)
    end = text.find("\n### ", start + 1)
    return text[start : end if end >= 0 else len(text)]


@pytest.mark.slow  # renders the card reference of a big game
def test_glory_to_rome_shows_each_buildings_numbers_text_and_function_with_its_place() -> None:
    code, out = tabula("rules", "glory-to-rome", "--type", "order")
    assert code == 0, out
    assert out.startswith("# Glory to Rome (Republic): card reference")
    assert "Hook: `on_completion(p: player)` — cards.yaml:" in out
    insula = section(out, "### Insula x6 — cards.yaml:")
    assert "material rubble · role laborer · value 1" in insula
    assert "> Your clientele limit is 2 higher." in insula
    assert "- modifier `clientele_base`: `+2` — cards.yaml:" in insula
    foundry = section(out, "### Foundry x3")
    assert "- hook `on_completion`: `run burst(p, laborer, influence(p))`" in foundry
    # defaults are filled in: most cards print card_set both
    assert "card_set both" in foundry
    assert "card_set republic" in section(out, "### Crane x6")


@pytest.mark.slow  # compiles a variant and an expansion of a big game
def test_a_variant_and_an_expansion_point_into_the_pack_that_adds_the_power() -> None:
    code, out = tabula("rules", "glory-to-rome", "--variant", "imperium", "--type", "order")
    assert code == 0, out
    colosseum = section(out, "### Colosseum x3")
    assert "trigger `colosseum: on demand_made where p == d`" in colosseum
    assert "variants/imperium.yaml:" in colosseum
    # the variant removed the Forum Romanum's win (IMPERIUM D4)
    assert "instant_win" not in section(out, "### Forum Romanum x3")


def test_porta_nigra_honour_cards_with_defaults_text_and_the_expansions_cards() -> None:
    code, out = tabula("rules", "porta-nigra", "--with", "honour-plus", "--type", "honour_card")
    assert code == 0, out
    money = section(out, "### HC-MONEY5 x2 — components.yaml:")
    assert "cost 1 · amount 5" in money and "timing immediate" in money
    assert "source provisional" in money  # the tag comes from the type's defaults
    assert "> take 5 money" in money
    assert "- hook `on_buy`: `gain self.amount money(p)`" in money
    purse = section(out, "### HC-PLUS-PURSE x2 — expansions/honour-plus.yaml:")
    assert "source expansion" in purse and "> take 3 money and 1 torch token" in purse
    assert "gain 1 torches(p)" in purse


@pytest.mark.slow  # renders a card reference three ways
def test_json_and_html() -> None:
    code, out = tabula("rules", "porta-nigra", "--json")
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    cards = {c["name"]: c for t in data["types"] for c in t["cards"]}
    assert cards["HC-VP8"]["numbers"]["amount"] == 8
    assert cards["HC-VP8"]["abilities"][0]["kind"] == "hook"
    assert cards["HC-VP8"]["abilities"][0]["at"].startswith("components.yaml:")
    code, page = tabula("rules", "glory-to-rome", "--format", "html", "--type", "order")
    assert code == 0
    assert page.startswith("<!doctype html>")
    assert "<blockquote>Your vault limit is 2 higher.</blockquote>" in page


def test_a_broken_game_is_reported_like_any_load(tmp_path: Path) -> None:
    game = tmp_path / "g"
    game.mkdir()
    (game / "game.yaml").write_text("game: {id: g, name: G}\ncomponents: {card: {instances: [{name: A}]}}\n")
    code, out = tabula("rules", str(game))
    assert code == 1 and "error" in out


def test_generated_cards_are_listed_one_by_one_at_their_template() -> None:
    code, out = tabula("rules", "tests/games/tables")
    assert code == 0, out
    assert "## card (9 cards, 9 components) — game.yaml:17" in out
    assert "colour blue · value 2\n\n> a blue card worth 2" in section(out, "### blue-2 — game.yaml:20")
