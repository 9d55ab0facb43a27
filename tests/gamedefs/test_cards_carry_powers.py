"""Issue 11: a card's power lives on the card. Shared procedures and functions of both games do not
dispatch on card names, and the expansions that add cards with new powers only add cards."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "gamedefs"
NAME_TEST = re.compile(r"name == '|has\(\w+, '|'[A-Z][A-Za-z ]+' in ")
# the only ones left, each a rule that names a card (see the comment beside it in the file)
ALLOWED = {
    "glory-to-rome/procedures.yaml": ["let gate = 'Gate' in seen", "let road = 'Road' in seen"],
}


def shared_text(path: Path) -> list[str]:
    """The DSL lines of a file's procedures, functions, actions and flow (cards excluded)."""
    data: Any = YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}
    sections = ("procedures", "functions", "actions", "flow", "values", "rules")
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str):
            out.extend(line.strip() for line in node.splitlines())

    for key in sections:
        walk(data.get(key))
        for section in ("add", "replace"):  # a pack's additions to these sections
            for dotted, value in (data.get(section) or {}).items():
                if str(dotted).split(".")[0] == key:
                    walk(value)
    return out


@pytest.mark.slow  # parses every expression of two games
def test_no_card_names_are_tested_in_shared_procedures_and_functions() -> None:
    found: dict[str, list[str]] = {}
    for game in ("glory-to-rome", "porta-nigra"):
        for path in sorted((GAMES / game).rglob("*.yaml")):
            if "scenarios" in path.parts:
                continue
            hits = [line for line in shared_text(path) if NAME_TEST.search(line)]
            if hits:
                found[str(path.relative_to(GAMES))] = hits
    assert found == ALLOWED
    assert sum(len(v) for v in found.values()) <= 3


def pack_paths(path: Path) -> set[str]:
    data: Any = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    return {str(k) for section in ("add", "replace") for k in (data.get(section) or {})} | {
        str(k) for k in data.get("remove") or []
    }


def test_expansions_with_new_powers_only_add_cards() -> None:
    assert pack_paths(GAMES / "porta-nigra/expansions/honour-plus.yaml") == {
        "components.honour_card.instances"
    }
    assert pack_paths(GAMES / "glory-to-rome/expansions/forum-builders.yaml") == {
        "components.order.instances"
    }
