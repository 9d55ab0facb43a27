"""Cards that carry their own powers: hooks declared by a type, bodies on instances, an instance's
own modifiers/allow/deny/triggers, type defaults and printed text (interpreter/compile/python/cards.py).

A tiny game written here: each turn the player takes one card from the market and runs its
`on_take` hook; the cards' powers are all on the cards.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.game import CompiledGame

GAME = """
game: {id: bazaar, name: Bazaar, players: {min: 2, max: 2}, seats: [Ann, Bob]}
components:
  card:
    properties: {cost: int, colour: symbol}
    defaults: {cost: 1, colour: grey}
    active: p == holder(self)
    hooks:
      on_take: {params: [p: player]}
    instances:
      - name: Purse
        text: "When taken: gain 2 coins."
        hooks: {on_take: "gain 2 coins(p)"}
      - name: Choice
        cost: 3
        text: "When taken: gain 1 or 3 coins."
        hooks:
          on_take: |
            choose n from [1, 3] by p prompt "How many coins?"
            gain n coins(p)
      - name: Rock
        colour: red
      - name: Crown
        text: "Your hand size is 2 larger. Whenever you take a card, gain 1 coin."
        modifiers: {hand_size: "+2"}
        allow: {may_pass: "true"}
        triggers:
          - {on: taken, where: q == p, do: "gain 1 coins(p)"}
enums:
  colour: [grey, red]
zones:
  market: {visibility: public}
  hand: {per: player, visibility: public}
counters:
  coins: {per: player}
values:
  hand_size: {params: [p], base: "3"}
rules:
  may_pass: {params: [p], base: "false"}
actions:
  take:
    params: {c: market}
    closes_window: true
    do: |
      move c to hand(me)
      run c.on_take(me)
      emit taken(q=me)
  pass_turn:
    closes_window: true
    when: rule(may_pass, me)
    do: pass
flow:
  setup: |
    move card to market
  turn:
    phases:
      - id: act
        do: |
          window p: take, pass_turn
  end_checks:
    - {id: empty, when: count(market) == 0, end: immediately}
scoring:
  score: coins(p) + value(hand_size, p)
"""


def write(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "bazaar"
    folder.mkdir()
    (folder / "game.yaml").write_text(textwrap.dedent(text))
    return folder


@pytest.fixture
def game(tmp_path: Path) -> CompiledGame:
    return load_game(write(tmp_path, GAME))


def counter(game: CompiledGame, st: dict[str, Any], name: str, player: int) -> int:
    value: int = st["c"][game.counters[name].base + player]
    return value


def test_defaults_fill_what_an_instance_does_not_give(game: CompiledGame) -> None:
    props = {c.name: c.props for c in game.components}
    assert props["Purse"]["cost"] == 1 and props["Purse"]["colour"] == "grey"
    assert props["Choice"]["cost"] == 3
    assert props["Rock"]["colour"] == "red"
    # text, hook bodies and abilities are not properties
    assert "text" not in props["Purse"] and "hooks" not in props["Purse"]
    assert "modifiers" not in props["Crown"]


def test_a_hook_runs_the_takers_card_and_is_a_no_op_without_a_body(game: CompiledGame) -> None:
    eng = Engine(game)
    st = eng.new_game(["Ann", "Bob"], seed=1)
    eng.apply_inplace(st, "take:Purse")
    assert counter(game, st, "coins", 0) == 2
    eng.apply_inplace(st, "take:Rock")  # Rock gives no body: nothing happens
    assert counter(game, st, "coins", 1) == 0


def test_a_hook_body_that_asks_a_question_suspends_and_resumes(game: CompiledGame) -> None:
    eng = Engine(game)
    st = eng.new_game(["Ann", "Bob"], seed=1)
    eng.apply_inplace(st, "take:Choice")
    assert st["dec"]["ids"] == ["1", "3"]
    eng.apply_inplace(st, "3")
    assert counter(game, st, "coins", 0) == 3
    assert st["dec"]["p"] == 1  # Bob's turn now


def test_an_instances_own_abilities_count_for_its_components_only(game: CompiledGame) -> None:
    eng = Engine(game)
    st = eng.new_game(["Ann", "Bob"], seed=1)
    assert "pass_turn" not in st["dec"]["ids"]
    eng.apply_inplace(st, "take:Crown")  # the Crown's trigger: +1 on its own take, too
    assert counter(game, st, "coins", 0) == 1
    eng.apply_inplace(st, "take:Rock")
    assert counter(game, st, "coins", 1) == 0  # Bob has no Crown: its trigger is not his
    assert "pass_turn" in st["dec"]["ids"]  # Ann holds the Crown: its allow works for her
    eng.apply_inplace(st, "take:Purse")
    assert counter(game, st, "coins", 0) == 1 + 2 + 1


def errors(tmp_path: Path, text: str) -> str:
    with pytest.raises(AuthorError) as info:
        load_game(write(tmp_path, text))
    return render_report(info.value.report)


def test_an_unknown_hook_is_located_with_a_did_you_mean(tmp_path: Path) -> None:
    bad = GAME.replace("run c.on_take(me)", "run c.on_tak(me)")
    out = errors(tmp_path, bad)
    assert "E124" in out and "unknown hook 'on_tak'" in out and "on_take" in out
    assert "game.yaml:" in out


def test_an_instance_body_for_a_hook_its_type_does_not_declare(tmp_path: Path) -> None:
    bad = GAME.replace('hooks: {on_take: "gain 2 coins(p)"}', 'hooks: {on_tke: "gain 2 coins(p)"}')
    out = errors(tmp_path, bad)
    assert "C006" in out and "'card' declares no hook 'on_tke'" in out and "on_take" in out


def test_hook_arguments_are_counted_and_typed_and_every_error_is_reported(tmp_path: Path) -> None:
    bad = GAME.replace("run c.on_take(me)", "run c.on_take(me, 2)\n      run c.on_take(market)")
    bad = bad.replace('text: "When taken: gain 2 coins."', 'txt: "When taken: gain 2 coins."')
    out = errors(tmp_path, bad)
    assert "hook 'on_take' takes 1 argument(s), got 2" in out
    assert "T002" in out  # a zone where a player is expected
    assert "C008" in out and "'txt'" in out  # a misspelt instance key


def test_a_default_of_the_wrong_type_is_reported_at_the_default(tmp_path: Path) -> None:
    out = errors(tmp_path, GAME.replace("defaults: {cost: 1,", "defaults: {cost: one,"))
    assert "S004" in out and "cost" in out


def test_a_cached_game_keeps_its_hook_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TABULA_NO_CACHE", raising=False)
    folder = write(tmp_path, GAME)
    cold = load_game(folder)
    assert len(list((tmp_path / "cache").glob("*.game"))) == 1
    warm = load_game(folder)
    assert warm.module is not cold.module
    for g in (cold, warm):
        eng = Engine(g)
        st = eng.new_game(["Ann", "Bob"], seed=1)
        eng.apply_inplace(st, "take:Choice")  # a suspending body: its block, through the table
        eng.apply_inplace(st, "1")
        eng.apply_inplace(st, "take:Purse")  # a plain body: its function, through the table
        assert (counter(g, st, "coins", 0), counter(g, st, "coins", 1)) == (1, 2)


def test_two_types_share_a_hook_only_with_the_same_parameters(tmp_path: Path) -> None:
    token = """
  token:
    hooks:
      on_take: {params: [p: player, n: int]}
    instances:
      - {name: Bead}
"""
    out = errors(tmp_path, GAME.replace("enums:\n", token + "enums:\n"))
    assert "E125" in out and "hook 'on_take' is declared by 'card' and 'token' with other parameters" in out
