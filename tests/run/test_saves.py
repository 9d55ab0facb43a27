"""Saves: every state of real games survives a save and a validated load exactly; a save of another game
is refused; the error names every problem with its code (the tampered saves are in tests/hostile/saves)."""

from __future__ import annotations

import json

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import saves
from tabula.interpreter.run.saves import FORMAT, VERSION, InvalidSave, state_problems

GAMES = [("high-card", 4), ("porta-nigra", 3), ("glory-to-rome", 2)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_state_of_a_random_game_saves_and_loads_exactly(name: str, players: int) -> None:
    engine = Engine(load_game(name))
    st = engine.new_game(players, seed=12)
    gen = [12, 34]
    for _ in range(400):
        assert state_problems(engine.game, st) == []
        loaded = engine.from_json(engine.to_json(st))
        assert loaded == st and engine.hash(loaded) == engine.hash(st)
        assert engine.to_json(loaded) == engine.to_json(st)
        if engine.is_terminal(st):
            break
        choice = engine.random_choice(st, gen)
        after = engine.apply(loaded, choice)
        engine.apply_inplace(st, choice)
        assert engine.hash(after) == engine.hash(st)


def test_a_save_names_its_format_version_and_game() -> None:
    engine = Engine(load_game("high-card"))
    doc = json.loads(engine.to_json(engine.new_game(2, seed=1)))
    assert (doc["format"], doc["version"], doc["game"], doc["packs"]) == (FORMAT, VERSION, "high-card", [])
    assert set(doc) == {"format", "version", "game", "packs", "layout", "state"}


def test_a_save_of_another_game_or_variant_is_refused() -> None:
    porta = Engine(load_game("porta-nigra"))
    text = porta.to_json(porta.new_game(2, seed=1))
    with pytest.raises(InvalidSave) as err:
        Engine(load_game("glory-to-rome")).from_json(text)
    assert err.value.codes == ["L003"]
    assert "this is a save of 'porta-nigra', not of 'glory-to-rome'" in str(err.value)
    with pytest.raises(InvalidSave) as err:
        Engine(load_game("porta-nigra", variant="family")).from_json(text)
    assert err.value.codes == ["L003"]


def test_every_problem_is_listed_with_its_code() -> None:
    engine = Engine(load_game("high-card"))
    doc = json.loads(engine.to_json(engine.new_game(2, seed=1)))
    doc["state"]["rv"][0] = 5
    doc["state"]["rng"] = [0, 0]
    doc["state"]["z"][0].append(0)
    with pytest.raises(InvalidSave) as err:
        engine.from_json(json.dumps(doc))
    assert sorted(set(err.value.codes)) == ["L004", "L005"]
    assert len(err.value.problems) >= 3
    assert str(err.value).startswith("not a valid save of this game:\n  error[L")


def test_an_edited_pending_decision_cannot_play_another_players_card() -> None:
    engine = Engine(load_game("high-card"))
    st = engine.new_game(["Ann", "Bob"], seed=3)
    doc = json.loads(engine.to_json(st))
    dec = doc["state"]["dec"]
    other = 1 - dec["p"]
    hand = engine.game.zones["hand"].index(other)
    theirs = doc["state"]["z"][hand][0]
    first = dec["v"][0]
    dec["v"][0] = [first[0], [theirs]] if dec["k"] == "window" else theirs
    with pytest.raises(InvalidSave) as err:
        engine.from_json(json.dumps(doc))
    assert err.value.codes == ["L007"]


def test_the_layout_digest_is_worked_out_once_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving (every move of the web table) no longer re-digests the game's layout each time."""
    from tabula.interpreter.run import savetypes as savelayout

    calls: list[str] = []
    digest = savelayout._layout_digest
    monkeypatch.setattr(savelayout, "_layout_digest", lambda g: calls.append(g.id) or digest(g))
    a, b = load_game("high-card"), load_game("high-card", {"tricks": 5})
    eng = Engine(a)
    st = eng.new_game(2, 1)
    assert saves.dump(a, st) == saves.dump(a, st) and saves.load(a, saves.dump(a, st)) == st
    assert savelayout.layout_digest(b) == savelayout.layout_digest(a)  # options do not shape a state
    assert calls == ["high-card", "high-card"]  # once for a, once for b
