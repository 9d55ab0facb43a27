"""The log line of a move of many components names every zone they came from (issue 27, item 5)."""

from __future__ import annotations

from pathlib import Path

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import Runtime
from tabula.interpreter.run.support import move

RELAY = Path(__file__).resolve().parents[1] / "games" / "relay"


def test_a_move_of_many_components_from_several_zones_names_them_all() -> None:
    engine = Engine(load_game(RELAY))
    log: list[dict] = []
    engine.new_game(2, seed=1, log=log)
    texts = [str(e["text"]) for e in log]
    assert "9 components: out of play -> deck" in texts  # setup: `move card to deck`, one source
    game = engine.game
    st = engine.new_game(2, seed=1)
    rt = Runtime(game, st, log)
    hands = [game.zones["hand"].index(p) for p in (0, 1)]
    deck = game.zones["deck"].index(None)
    discard = game.zones["discard"].index(None)
    cards = [*st["z"][hands[0]], *st["z"][deck][:3], *st["z"][hands[1]]]
    move(rt, cards, discard, False, False)
    assert str(log[-1]["text"]) == f"{len(cards)} components: hand(Ann), deck, hand(Bob) -> discard"
