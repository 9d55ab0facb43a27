"""Log lines name a `choose` decision's choice with the game's label (`presentation.choices`), per seat.

The decider and every seat that sees the chosen component read the label the decision showed; a
seat the line is hidden from keeps its masked line; a label with a part a seat may not know keeps
the id for that seat; spectators get the label only when every seat sees the choice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import visible_log
from tabula.play.board import SPECTATOR
from tabula.play.choicelog import apply_named
from tabula.serve.table import public_log

GAME = """
game: {id: secret, name: Secret, players: {min: 2, max: 2}}
components:
  card:
    properties: {value: int}
    instances:
      - {name: Ace, value: 1}
      - {name: Bee, value: 2}
      - {name: Cat, value: 3}
      - {name: Dog, value: 4}
      - {name: Eel, value: 5}
      - {name: Fox, value: 6}
zones:
  deck: {visibility: hidden, ordered: true}
  hand: {per: player, visibility: owner}
  table: {visibility: public}
  pile: {visibility: hidden}
counters:
  score: {per: player}
flow:
  setup: |
    for c in card:
      move c to deck
    for p in players:
      draw 2 from deck to hand(p)
  turn:
    player: (turn) % num_players
    phases:
      - id: main
        do: |
          choose c from hand(p) by p prompt "Show which card?"
          move c to table
          choose d from hand(p) by p prompt "Hide which card?"
          move d to pile
          gain 1 score(p)
  end_checks:
    - {id: done, when: "count(table) == 2", end: immediately}
scoring:
  score: score(p)
presentation:
  choices:
    - {prompt: Show which, label: "the {choice.name} (value {choice.value})"}
    - {prompt: Hide which, label: "a card beside {hand(p)}"}
"""


def play_secret(tmp_path: Path, game: str = GAME) -> tuple[Engine, list[dict[str, Any]]]:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "game.yaml").write_text(game)
    engine = Engine(load_game(tmp_path / "secret"))
    log: list[dict[str, Any]] = []
    st = engine.new_game(["Ann", "Bob"], 1, None, log)
    while st["dec"] is not None:
        apply_named(engine, st, 0, log)
    return engine, log


def test_a_choice_is_named_with_its_label_to_every_seat_that_sees_it(tmp_path: Path) -> None:
    _, log = play_secret(tmp_path)
    ann, bob, public = visible_log(log, 0), visible_log(log, 1), public_log(log, SPECTATOR)
    shown = [ln for ln in ann if ln.startswith("Ann: the ")]
    assert len(shown) == 1 and shown[0].endswith(")") and "(value " in shown[0]
    assert shown[0] in bob and shown[0] in public  # played face up: named to all
    # the hidden card: Ann reads her label (her own hand is known to her), Bob the masked line
    assert any(ln.startswith("Ann: a card beside ") for ln in ann)
    assert not any("a card beside" in ln for ln in bob + public)
    assert "Ann chooses" in bob


def test_a_label_that_reads_what_a_seat_may_not_know_keeps_the_id(tmp_path: Path) -> None:
    game = GAME.replace(
        '"the {choice.name} (value {choice.value})"',
        '"the {choice.name}, keeping {[c.name for c in hand(p)]}"',
    )
    _, log = play_secret(tmp_path, game)
    ann, bob, public = visible_log(log, 0), visible_log(log, 1), public_log(log, SPECTATOR)
    mine = [ln for ln in ann if ln.startswith("Ann: the ")]
    assert len(mine) == 1 and ", keeping " in mine[0]  # Ann knows her hand
    plain = [ln for ln in bob if ln.startswith("Ann: ") and ln != "Ann chooses"]
    assert len(plain) == 1 and "keeping" not in plain[0] and plain[0] in public


def test_porta_nigra_names_the_quarter_in_the_log() -> None:
    engine = Engine(load_game("porta-nigra"))
    log: list[dict[str, Any]] = []
    st = engine.new_game(["Red", "Green"], 3, None, log)
    who = st["names"][st["dec"]["p"]]
    apply_named(engine, st, "1", log)
    line = f"{who}: Quarter 2: Basilica, yellow shop"
    for seat in (0, 1):
        assert line in visible_log(log, seat)
    assert line in public_log(log, SPECTATOR)


def test_a_prompt_with_a_star_matches_any_text_in_its_place() -> None:
    from tabula.interpreter.authoring.presentation import ChoiceLook, Template

    look = ChoiceLook("Rome demands *: which card", Template([], ""))
    assert look.matches("Rome demands brick: which card do you give?")
    assert not look.matches("Rome demands brick: take one from the pool?")
    assert ChoiceLook("Bar:", Template([], "")).matches("Bar: also hire the top card of the deck?")


def test_glory_to_rome_choices_name_the_card_and_what_the_choice_does() -> None:
    from tabula.interpreter.base import rng
    from tabula.play.board import build_board

    engine = Engine(load_game("glory-to-rome", {"surrender_allowed": False}))
    log: list[dict[str, Any]] = []
    st = engine.new_game(3, 4, None, log)
    gen = rng.seed_state(4)
    labelled: dict[str, list[str]] = {}
    for _ in range(300):
        if engine.is_terminal(st):
            break
        if st["dec"]["k"] == "choose":
            dec = build_board(engine, st, st["dec"]["p"]).decision
            assert dec is not None
            labelled.setdefault(dec.prompt.split(":")[0], []).extend(c.label for c in dec.choices)
        apply_named(engine, st, engine.random_choice(st, gen), log)
    petition = labelled["Petition"]
    assert petition and all(ln.startswith("add ") and ", value " in ln for ln in petition)
    assert not any("none" in ln for lines in labelled.values() for ln in lines)
    mine = visible_log(log, 0)
    assert any(ln.startswith("P1: add ") and ln.endswith("to the petition") for ln in mine)


def test_window_actions_read_with_the_games_labels_for_every_seat() -> None:
    """`Green: use_symbol:buy_blue` reads `Green: use: buy blue` (labels only, no state read)."""
    from tabula.interpreter.base import rng

    engine = Engine(load_game("porta-nigra"))
    log: list[dict[str, Any]] = []
    st = engine.new_game(2, 5, None, log)
    gen = rng.seed_state(5)
    for _ in range(60):
        apply_named(engine, st, engine.random_choice(st, gen), log)
    ends = [e for e in log if str(e.get("text", "")).endswith(": end_turn")]
    assert ends
    for e in ends:
        said = e["text"][: -len("end_turn")] + "end the turn"
        assert e["seen"] == {0: said, 1: said, SPECTATOR: said}
    for seat in (0, 1, SPECTATOR):
        lines = public_log(log, seat)
        assert not any(ln.endswith(": end_turn") for ln in lines)
        assert any(ln.endswith(": end the turn") for ln in lines)
