"""Values and rules with contributions (interpreter/compile/python/sections/modifiers.py): the
generated code groups components by shape, looks only at components whose `active` mark is not
empty, and tests a condition that does not read `self` once per group; every answer stays (base +
adds) x multiplies and (base or an active allow) and not an active deny.

A tiny game written here: cards are active for the players in their `owners` mark; the answers are
checked against a plain reading of the rules over many mark and counter settings.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base.source import Report
from tabula.interpreter.dsl.parser import PlainOrigin
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.run.runtime import Runtime

GAME = """
game: {id: guarded, name: Guarded, players: {min: 2, max: 2}, seats: [Ann, Bob]}
components:
  card:
    properties: {level: int}
    defaults: {level: 1}
    marks:
      owners: []
      lit: false
    active: p in self.owners
    instances:
      - name: Key
        copies: 3
        allow:
          may_open: "coins(p) >= 2 and all(c >= 0 for c in [coins(p), coins(p)])"
          may_win: "any(c == coins(p) for c in [3, 4, 5])"
      - name: Lamp
        copies: 2
        allow: {may_open: "self.lit", may_win: "self.lit and coins(p) > 0", may_shine: "self.lit"}
        deny: {may_close: "coins(p) == 0"}
      - name: Gate
        level: 2
        allow: {may_open: "self.level == 2 and coins(p) == 1"}
        deny: {may_close: "coins(p) == 1", may_win: "coins(p) == 7 and self.lit"}
      - name: Purse
        copies: 2
        modifiers: {hand_size: ["+2", "*2"]}
      - name: Ring
        modifiers: {hand_size: "+coins(p)"}
      - name: Dud
        level: 0
        allow: {may_open: "self.level > 0"}
  token:
    instances:
      - name: Seal
        allow: {may_open: "coins(p) == 5"}
        deny: {may_close: "coins(p) == 7"}
zones:
  market: {visibility: public}
counters:
  coins: {per: player}
values:
  hand_size: {params: [p], base: "1 + coins(p)"}
rules:
  may_open: {params: [p], base: "false"}
  may_close: {params: [p], base: "coins(p) > 3"}
  may_win: {params: [p], base: "coins(p) == 7"}
  may_shine: {params: [p], base: "false"}
actions:
  take:
    params: {c: market}
    closes_window: true
    do: |
      move c to market
flow:
  setup: |
    move card to market
  turn:
    phases:
      - id: act
        do: |
          window p: take
  end_checks:
    - {id: never, when: "false", end: immediately}
"""


def write(folder: Path) -> Path:
    folder.mkdir()
    (folder / "game.yaml").write_text(textwrap.dedent(GAME))
    return folder


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> CompiledGame:
    return load_game(write(tmp_path_factory.mktemp("guarded") / "guarded"))


def ask(game: CompiledGame, st: dict[str, Any], text: str) -> Any:
    f = game.snippets.expr(text, PlainOrigin("t"), Report(), {})
    assert f is not None
    return f(Runtime(game, st))


def expected(game: CompiledGame, st: dict[str, Any], p: int) -> tuple[bool, bool, int, bool]:
    """may_open(p), may_close(p), hand_size(p) and may_win(p), read plainly from the rules above."""
    coins = st["c"][game.counters["coins"].base + p]
    owners, lit = st["m"]["owners"], st["m"]["lit"]
    opens, closes, adds, factor = False, coins > 3, 0, 1
    denied = False
    wins, loses = coins == 7, False
    for c in game.components:
        active = c.type != "card" or p in owners[c.id]
        if not active:
            continue
        if c.name == "Key":
            opens = opens or coins >= 2
            wins = wins or coins in (3, 4, 5)
        if c.name == "Lamp":
            opens = opens or bool(lit[c.id])
            denied = denied or coins == 0
            wins = wins or (bool(lit[c.id]) and coins > 0)
        if c.name == "Gate":
            opens = opens or coins == 1
            denied = denied or coins == 1
            loses = loses or (coins == 7 and bool(lit[c.id]))
        if c.name == "Purse":
            adds, factor = adds + 2, factor * 2
        if c.name == "Ring":
            adds += coins
        if c.name == "Seal":
            opens = opens or coins == 5
            denied = denied or coins == 7
    return opens, closes and not denied, (1 + coins + adds) * factor, wins and not loses


def settings(game: CompiledGame, st: dict[str, Any], seed: int) -> None:
    gen = random.Random(seed)
    cards = [c.id for c in game.components if c.type == "card"]
    for cid in cards:
        st["m"]["owners"][cid] = []
        st["m"]["lit"][cid] = False
    share = gen.choice([0.0, 0.1, 0.4, 0.9])
    for cid in cards:
        if gen.random() < share:
            st["m"]["owners"][cid] = gen.choice([[0], [1], [0, 1], [1, 0]])
        st["m"]["lit"][cid] = gen.random() < 0.5
    for p in (0, 1):
        st["c"][game.counters["coins"].base + p] = gen.choice([0, 1, 2, 3, 4, 5, 7])


@pytest.mark.slow  # 400 settings of the game, each asked twice
def test_the_answers_match_a_plain_reading_whatever_is_active(game: CompiledGame) -> None:
    st = Engine(game).new_game(["Ann", "Bob"], seed=1)
    for seed in range(400):
        settings(game, st, seed)
        for p in (0, 1):
            want = expected(game, st, p)
            got = (
                ask(game, st, f"rule(may_open, {p})"),
                ask(game, st, f"rule(may_close, {p})"),
                ask(game, st, f"value(hand_size, {p})"),
                ask(game, st, f"rule(may_win, {p})"),
            )
            assert got == want, (seed, p)


def test_edge_cases_none_active_several_active_shared_condition_false(game: CompiledGame) -> None:
    st = Engine(game).new_game(["Ann", "Bob"], seed=1)
    keys = [c.id for c in game.components if c.name == "Key"]
    settings(game, st, 0)
    for cid in [c.id for c in game.components if c.type == "card"]:
        st["m"]["owners"][cid] = []
        st["m"]["lit"][cid] = False
    coins = game.counters["coins"].base
    st["c"][coins] = 2
    assert ask(game, st, "rule(may_open, 0)") is False  # no card active: only the Seal, false
    for cid in keys:
        st["m"]["owners"][cid] = [1, 0]  # several active, the last one last in its list
    assert ask(game, st, "rule(may_open, 0)") is True
    assert ask(game, st, "rule(may_open, 1)") is True
    st["c"][coins] = 1  # the shared condition false for every Key
    assert ask(game, st, "rule(may_open, 0)") is False
    st["m"]["owners"][keys[-1]] = []
    st["m"]["owners"][keys[0]] = []
    st["c"][coins] = 3
    assert ask(game, st, "rule(may_open, 0)") is True  # one active Key, not the first
    assert ask(game, st, "value(hand_size, 0)") == 4


def source_of(game: CompiledGame, name: str) -> str:
    src = game.module.source()
    text = src[src.index(f"def {name}(") :]
    return text[: text.index("\ndef ")] if "\ndef " in text else text


def test_the_code_is_grouped_guarded_and_tests_a_shared_condition_once(game: CompiledGame) -> None:
    rule = source_of(game, "R_may_open")
    # the three Keys are one group, though their generator variables have different names; the
    # Lamps are another; the Gate is one component, the Seal is not guarded (no `active`)
    assert sum("for v_self in" in line for line in rule.splitlines()) == 2
    assert rule.count("next((True for") == 1  # the Keys' all(...)
    # the cards are skipped when all their owners marks are empty: one test for the lot
    keys_lamps_gate = [c.id for c in game.components if c.name in ("Key", "Lamp", "Gate")]
    assert f"    if {' or '.join(f'm_owners[{c}]' for c in keys_lamps_gate)}:" in rule.splitlines()
    assert "break" in rule  # the Keys' condition does not read self: the first active Key decides
    assert "S = rt.st" not in rule and "ok =" not in rule
    assert "level" not in rule  # the Dud's condition folds to false, the Gate's to its coins test
    close = source_of(game, "R_may_close")
    assert close.index("ok = ") < close.index("for v_self in") < close.index("if ok: return True")


def test_a_rule_whose_cards_read_more_than_its_base_tests_their_marks_first(game: CompiledGame) -> None:
    # may_win's cards read the lit mark, its base does not: with every owners mark empty, only the
    # base runs (a closure in the cards' code, which needs cells on entry, counts the same)
    fast = source_of(game, "R_may_win").splitlines()
    assert len(fast) == 5 and "m_lit" not in "\n".join(fast)
    assert fast[3].startswith("    if m_owners[") and " or m_owners[" in fast[3]
    assert fast[4].strip() == "return bool((C[((v_p))] == 7))"
    whole = source_of(game, fast[3].split("return ")[1].split("(")[0])
    assert whole.index("ok = ") < whole.index("return False") < whole.index("if ok: return True")
    assert "any(" not in whole  # the marks were looked at already


def test_a_cached_game_keeps_the_guards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TABULA_NO_CACHE", raising=False)
    folder = write(tmp_path / "guarded")
    cold = load_game(folder)
    warm = load_game(folder)
    assert warm.module is not cold.module
    st = Engine(warm).new_game(["Ann", "Bob"], seed=1)
    for seed in range(40):
        settings(warm, st, seed)
        for p in (0, 1):
            got = (ask(warm, st, f"rule(may_open, {p})"), ask(warm, st, f"rule(may_win, {p})"))
            want = expected(warm, st, p)
            assert got == (want[0], want[3])


def test_code_compiled_after_a_rule_tests_its_guard_in_place_of_calling_it(game: CompiledGame) -> None:
    # may_shine is false but for an active lit Lamp: a caller compiled after it reads the Lamps'
    # owners marks itself and calls the rule's active part only when one is set
    st = Engine(game).new_game(["Ann", "Bob"], seed=1)
    lamps = [c.id for c in game.components if c.name == "Lamp"]

    def shines(p: int) -> bool:
        return any(p in st["m"]["owners"][c] and st["m"]["lit"][c] for c in lamps)

    for seed in range(200):
        settings(game, st, seed)
        for p in (0, 1):
            assert ask(game, st, f"rule(may_shine, {p})") is shines(p), (seed, p)
        assert ask(game, st, "any(rule(may_shine, q) for q in players)") is (shines(0) or shines(1))
    caller = game.module.source().rsplit("\ndef ", 1)[1]
    guard = " or ".join(f"m_owners[{c}]" for c in lamps)
    assert "R_may_shine(" not in caller and "R_may_shine_active" in caller
    # tested once, before the loop over the players: outside the generator
    assert caller.index(f"if (({guard}) or False) else False") > caller.index("for v_q")
    assert caller.count(guard) == 1
