"""A state's canonical text (and so every hash: traces, replays, soak) is json's text byte for byte,
whichever library writes it: orjson where the two agree, json elsewhere."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import canonical, semantic_hash, state_hash


def reference(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(
    "doc",
    [
        {"names": ["Zoë", "Ann"], "v": {"b": 1, "a": [1, 2]}},  # non-ASCII: json escapes it
        {"say": 'a "quoted" word\\ and a tab\t and \x01'},  # escapes
        {"m": {1: "a", 2: "b"}},  # number keys: json writes them as text
        {"big": 2**70, "neg": -(2**63), "edge": 2**63 - 1},
        {"z": [[3, 1], []], "dec": None, "ok": True, "no": False, "é": 1},
        {"b": 1, "B": 2, "a_": 3, "a": 4, "": 5},  # key order by code point
    ],
)
def test_the_canonical_text_is_json_s(doc: Any) -> None:
    assert canonical(doc) == reference(doc)


def test_every_state_of_a_game_has_json_s_text() -> None:
    engine = Engine(load_game("glory-to-rome"))
    st = engine.new_game(3, seed=11)
    seen = 0
    while st["dec"] is not None and seen < 150:
        assert canonical(st) == reference(st)
        engine.apply_inplace(st, st["dec"]["ids"][seen % len(st["dec"]["ids"])])
        seen += 1
    assert seen > 100  # a whole game or its first 150 decisions
    assert len(state_hash(st)) == 64 and len(semantic_hash(st)) == 10
