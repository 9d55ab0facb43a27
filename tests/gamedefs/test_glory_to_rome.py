"""Glory to Rome invariants on seeded random games.

- Every Republic Order (144), every Jack (6) and every site (36) is in exactly one place after every
  choice; the Imperium-only Orders stay out of play.
- No player's view contains another player's hand, a vault card that is not public (its owner
  included), or a log line naming a component that moved between zones the viewer cannot see.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import places
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import HIDDEN, visible_log, visible_to

ROOT = Path(__file__).resolve().parents[2]
MOVE = re.compile(r"^(?P<what>.+): (?P<src>\S+) -> (?P<dst>\S+)$")


@functools.cache
def glory_to_rome() -> Engine:
    """The game, compiled on first use (not at collection: a test tier that runs none of these tests
    does not pay for it)."""
    return Engine(load_game(ROOT / "gamedefs" / "glory-to-rome"))


@functools.cache
def card_ids() -> tuple[list[int], list[int], list[int]]:
    """(Republic Orders, Imperium-only Orders, Jacks and sites)."""
    comps = glory_to_rome().game.components
    republic = [c.id for c in comps if c.type == "order" and c.props.get("card_set") != "imperium"]
    imperium = [c.id for c in comps if c.type == "order" and c.props.get("card_set") == "imperium"]
    return republic, imperium, [c.id for c in comps if c.type in ("jack", "site")]


def check_places(st: dict[str, Any]) -> None:
    """Every Republic Order, Jack and site in one place; the Imperium-only Orders out of play."""
    republic, imperium, others = card_ids()
    places.check_places(glory_to_rome().game, st, republic + others)
    assert all(st["loc"][cid] == -1 for cid in imperium)


def zone_visible(label: str, viewer: int, names: list[str]) -> bool:
    """Could `viewer` see inside the zone a log line names (`hand(Ann)`, `deck`)?"""
    name, _, owner = label.partition("(")
    layout = glory_to_rome().game.zones.get(name)
    if layout is None:
        return True
    if layout.visibility == "public":
        return True
    return layout.visibility == "owner" and owner.rstrip(")") == names[viewer]


def check_views(st: dict[str, Any], log: list[dict[str, Any]]) -> None:
    names = st["names"]
    engine = glory_to_rome()
    game = engine.game
    for p in range(st["t"]["n"]):
        view = engine.view(st, p)
        for zi, zone in enumerate(st["z"]):
            layout, owner = game.zone_layouts[zi], game.zone_owner[zi]
            for pos, cid in enumerate(zone):
                shown = view["z"][zi][pos]
                if layout.name == "hand" and owner != p and not st["rv"][cid]:
                    # a card revealed for a Legionary demand is public (RULES §6.1); no other
                    assert shown == HIDDEN, "another player's hand leaks"
                if layout.name == "vault" and not st["rv"][cid]:
                    assert shown == HIDDEN, "a hidden vault card leaks (to its owner too)"
                assert shown == (cid if visible_to(game, st, cid, p) else HIDDEN)
        assert "stk" not in view and "rng" not in view
        for line in visible_log(log, p):
            m = MOVE.match(line)
            # masked lines ("a hidden order: ...") and counts ("12 components: ...") name nothing
            if m and not m.group("what").startswith("a hidden") and not m.group("what")[0].isdigit():
                seen_side = zone_visible(m.group("src"), p, names) or zone_visible(m.group("dst"), p, names)
                assert seen_side, f"the log shows {names[p]} a move they cannot see: {line}"


def play(players: int, seed: int, every: int = 1, surrender: bool = False) -> int:
    """A random game; surrender is off by default (random players concede so often that games end
    after a few turns, and long games test more)."""
    log: list[dict[str, Any]] = []
    engine = glory_to_rome()
    st = engine.new_game(players, seed=seed, log=log, options={"surrender_allowed": surrender})
    bot = rng.seed_state(seed + 101)
    steps = 0
    turn = st["t"]["turn"]
    vaults = [zi for zi, layout in enumerate(engine.game.zone_layouts) if layout.name == "vault"]
    while not engine.is_terminal(st):
        if st["t"]["turn"] != turn:
            # a new turn: every vault card that went in last turn has been hidden again (RULES §11.3)
            turn = st["t"]["turn"]
            assert not any(st["rv"][cid] for zi in vaults for cid in st["z"][zi]), "a vault card stays public"
        check_places(st)
        if steps % every == 0:
            check_views(st, log)
        engine.apply_inplace(st, rng.below(bot, len(st["dec"]["ids"])), log)
        steps += 1
        assert steps < 20_000
    check_places(st)
    check_views(st, log)
    return steps


@pytest.mark.slow  # eight random games, every state checked
def test_every_card_is_in_one_place_in_random_games() -> None:
    for players in (2, 3, 4, 5):
        assert play(players, 1, every=50) > 100
        assert play(players, 2, every=50, surrender=True) > 0


@pytest.mark.slow  # eight whole games, every view checked after every choice
@settings(max_examples=8, deadline=None)
@given(players=hs.integers(min_value=2, max_value=5), seed=hs.integers(min_value=0, max_value=10_000))
def test_no_view_leaks_a_hand_or_a_hidden_vault_card(players: int, seed: int) -> None:
    play(players, seed)
