"""Saves held to the game's types: every field of a real save, replaced by values of other JSON types,
is refused with `InvalidSave` (its path in the message) or loads into a state the engine can play;
no other exception ever comes out of `from_json`. Saves written today load back (round trips)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.engine import BUNDLED, Engine, load_game
from tabula.interpreter.run.saves import UNCHECKED, InvalidSave

BASE = Path(__file__).resolve().parents[1] / "hostile" / "base"
OTHERS: list[Any] = [None, True, 0, -1, 2**70, 2**14000, 1.5, "x", "", [], [1], {}, {"k": 1}]


def _paths(node: Any, path: tuple[Any, ...] = (), every: bool = True) -> Iterator[tuple[Any, ...]]:
    """Every path inside a JSON value, containers included; unless `every`, a list's first two
    items and its last only (its items are alike: the fields of the state are all reached)."""
    yield path
    if isinstance(node, dict):
        for key in node:
            yield from _paths(node[key], (*path, key), every)
    elif isinstance(node, list):
        items = range(len(node)) if every or len(node) <= 3 else (0, 1, len(node) - 1)
        for i in items:
            yield from _paths(node[i], (*path, i), every)


def _replaced(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    node = out["state"]
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return out


def _other_types(value: Any) -> list[Any]:
    return [x for x in OTHERS if type(x) is not type(value) or x != value]


def _saved(engine: Engine, seed: int, choices: int) -> tuple[dict[str, Any], int]:
    st = engine.new_game(2, seed=seed)
    gen = [seed, 7]
    for _ in range(choices):
        engine.apply_inplace(st, engine.random_choice(st, gen))
    return json.loads(engine.to_json(st)), seed


def _load_or_refuse(engine: Engine, doc: dict[str, Any], where: str) -> None:
    """`from_json` either refuses with InvalidSave (not the last guard) or gives a playable state."""
    text = json.dumps(doc)
    try:
        st = engine.from_json(text)
    except InvalidSave as err:
        assert UNCHECKED not in str(err), where
        assert all(message.startswith("state") or code != "L004" for code, message in err.problems), (
            where,
            err.problems,
        )
        return
    engine.legal_ids(st)  # a state that loads is one the engine reads without failing
    engine.view(st, 0)


def test_every_field_of_a_small_save_of_another_type_is_refused_or_played() -> None:
    engine = Engine(load_game(BASE))
    doc, _ = _saved(engine, 4, 2)
    for path in list(_paths(doc["state"]))[1:]:
        node: Any = doc["state"]
        for part in path:
            node = node[part]
        for value in _other_types(node):
            _load_or_refuse(engine, _replaced(doc, path, value), f"{path} = {value!r}"[:80])


@pytest.mark.parametrize("name", ["high-card", "porta-nigra", "glory-to-rome", "coup", "hanabi", "patchwork"])
def test_every_field_of_a_bundled_save_of_another_type_is_refused_or_played(name: str) -> None:
    engine = Engine(load_game(name))
    doc, _ = _saved(engine, 5, 6)
    for k, path in enumerate(list(_paths(doc["state"], every=False))[1:]):
        node: Any = doc["state"]
        for part in path:
            node = node[part]
        others = _other_types(node)
        # two values of other types for each field (rotating over them): each field of every kind
        for value in (others[k % len(others)], others[(k + 5) % len(others)]):
            _load_or_refuse(engine, _replaced(doc, path, value), f"{path} = {value!r}"[:80])


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("dec", "k"), ["window"], "state.dec.k: expected a text ('choose' or 'window'), got a list"),
        (("dec", "k"), {"k": 1}, "state.dec.k: expected a text ('choose' or 'window'), got an object"),
        (("c", 0), 2**14000, "state.c.0 (counter 'pile'): a number of more than 4000 digits"),
        (("c", 0), True, "state.c.0 (counter 'pile'): expected a number, got true/false"),
        (("c", 2), -1, "state.c.2 (counter 'score'): -1 is out of its bounds 0.."),
        (("m", "seen", 1), 7, "state.m.seen.1: expected true/false, got a number"),
        (("o", "target"), "ten", "state.o.target: option 'target' must be an integer"),
        (("names", 0), 5, "state.names.0: expected a player's name, got a number"),
        (("t", "round"), [], "state.t.round: expected a number, got a list"),
        (("stk", 1, 2), [], "state.stk.1.2: expected an object (the frame's locals), got a list"),
        (("m", "seen"), True, "state.m.seen: expected a list of 4 values, got true/false"),
    ],
)
def test_a_refused_field_is_named_by_its_path(path: tuple[Any, ...], value: Any, message: str) -> None:
    engine = Engine(load_game(BASE))
    doc, _ = _saved(engine, 4, 2)
    with pytest.raises(InvalidSave) as err:
        engine.from_json(json.dumps(_replaced(doc, path, value)))
    assert any(m.startswith(message) for _, m in err.value.problems), err.value.problems


@pytest.mark.parametrize("name", sorted(d.name for d in BUNDLED.iterdir() if d.is_dir()))
def test_saves_of_random_games_load_back(name: str) -> None:
    engine = Engine(load_game(name))
    for seed, players in ((21, engine.game.min_players), (22, engine.game.max_players), (23, 3)):
        players = max(engine.game.min_players, min(players, engine.game.max_players))
        st = engine.new_game(players, seed=seed)
        gen = [seed, 1]
        for _ in range(300):
            assert engine.from_json(engine.to_json(st)) == st
            if engine.is_terminal(st):
                break
            engine.apply_inplace(st, engine.random_choice(st, gen))


@pytest.mark.parametrize(
    ("effect", "loads"),
    [
        ("gain c.value score(me)", False),  # gain and pay keep score within 0..: -1 is no state of it
        ("set score(me) = -7", True),  # `set =` may write past a counter's bounds (docs/language.md)
        ("take 1 from pile to score(me)", True),  # so may `take`
    ],
)
def test_a_counter_is_held_to_its_bounds_unless_a_rule_writes_past_them(
    tmp_path: Path, effect: str, loads: bool
) -> None:
    text = (BASE / "game.yaml").read_text().replace("      gain c.value score(me)\n", f"      {effect}\n")
    (tmp_path / "game.yaml").write_text(text)
    engine = Engine(load_game(tmp_path))
    doc, _ = _saved(engine, 4, 2)
    doc["state"]["c"][2] = -1
    if loads:
        assert engine.from_json(json.dumps(doc))["c"][2] == -1
    else:
        with pytest.raises(InvalidSave, match="out of its bounds"):
            engine.from_json(json.dumps(doc))
