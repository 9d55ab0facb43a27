"""Hidden information stays hidden: changing what a player cannot see changes nothing in that player's
observation tensor, observation string or information-state string (OpenSpiel and PettingZoo alike),
while changing what they can see does."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from tabula.interpreter.model.state import State  # noqa: E402
from tabula.rl.encoding import Encoder  # noqa: E402
from tabula.rl.match import Match, Ruleset, Setup  # noqa: E402
from tabula.rl.text import observation_string  # noqa: E402


def _swap(st: State, a: int, b: int) -> State:
    """A copy of `st` with components a and b trading places (zones and locations)."""
    out: State = copy.deepcopy(st)
    za, zb = st["loc"][a], st["loc"][b]
    ia, ib = st["z"][za].index(a), st["z"][zb].index(b)
    out["z"][za][ia], out["z"][zb][ib] = b, a
    out["loc"][a], out["loc"][b] = zb, za
    return out


def _zone(rules: Ruleset, name: str, owner: int | None = None) -> int:
    return rules.game.zones[name].index(owner)


def _seen(rules: Ruleset, m: Match, p: int, encoder: Encoder) -> tuple[Any, str, str]:
    view = m.view(p)
    return encoder.tensor(view).tobytes(), observation_string(rules.game, view), m.recall(p)


def test_a_swap_between_an_opponents_hand_and_deck_is_invisible() -> None:
    rules = Ruleset.get(Setup("porta-nigra"))
    encoder = Encoder(rules.game, 3)
    st = rules.engine.plain(Match.start(rules, 3, 7).st)
    hand, deck = st["z"][_zone(rules, "hand", 1)], st["z"][_zone(rules, "deck", 1)]
    changed = _swap(st, hand[0], deck[-1])
    a, b = Match.from_state(rules, st), Match.from_state(rules, changed)
    assert rules.engine.hash(a.st) != rules.engine.hash(b.st)
    for p in (0, 2):  # the other players see nothing of it
        assert _seen(rules, a, p, encoder) == _seen(rules, b, p, encoder)
    seen_a, seen_b = _seen(rules, a, 1, encoder), _seen(rules, b, 1, encoder)  # the owner sees the hand
    assert seen_a[0] != seen_b[0] and seen_a[1] != seen_b[1] and seen_a[2] != seen_b[2]


def test_a_swap_with_my_own_hand_is_visible() -> None:
    rules = Ruleset.get(Setup("high-card"))
    encoder = Encoder(rules.game, 2)
    st = rules.engine.plain(Match.start(rules, 2, 3).st)
    mine, deck = st["z"][_zone(rules, "hand", 0)], st["z"][_zone(rules, "deck")]
    a, b = Match.from_state(rules, st), Match.from_state(rules, _swap(st, mine[0], deck[0]))
    assert _seen(rules, a, 0, encoder)[0] != _seen(rules, b, 0, encoder)[0]
    assert _seen(rules, a, 1, encoder) == _seen(rules, b, 1, encoder)


def test_games_differing_only_in_the_deck_look_the_same_to_everyone() -> None:
    """Two Glory to Rome games whose decks differ in their last two cards: played with the same
    choices, every player's information state is the same at every step until one is drawn."""
    pytest.importorskip("pyspiel")
    from tabula.rl.openspiel import load

    game = load("glory-to-rome", 3, options={"surrender_allowed": False})
    rules = game.rules
    st = rules.engine.plain(game.state_with_seed(11).match.st)
    deck = st["z"][_zone(rules, "deck")]
    a = game.state_of(Match.from_state(rules, st))
    b = game.state_of(Match.from_state(rules, _swap(st, deck[-1], deck[-2])))
    gen = random.Random(11)
    for _ in range(40):
        assert str(a) != str(b)  # the true states differ all along
        for p in range(3):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_string(p) == b.observation_string(p)
            assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.legal_actions() == b.legal_actions()
        action = gen.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)


def test_pettingzoo_observations_hide_the_same() -> None:
    pytest.importorskip("pettingzoo")
    from tabula.rl.pettingzoo import TabulaEnv

    env = TabulaEnv("porta-nigra", 2)
    env.reset(seed=4)
    m = env.match
    assert m is not None
    before = {a: env.observe(a)["observation"].copy() for a in env.agents}
    st = env.rules.engine.plain(m.st)  # the engine's state may be native words
    hand, deck = st["z"][_zone(env.rules, "hand", 1)], st["z"][_zone(env.rules, "deck", 1)]
    env.match = Match.from_state(env.rules, _swap(st, hand[0], deck[0]))
    assert (env.observe("player_0")["observation"] == before["player_0"]).all()
    assert not (env.observe("player_1")["observation"] == before["player_1"]).all()


def _coup_hidden_pairs(rules: Ruleset, st: State, p: int) -> list[tuple[int, int]]:
    """Pairs of differently named Coup characters hidden from p: two of another player's hand, and
    one of another player's hand with one of the Court deck."""
    name = [c.name for c in rules.game.components]
    court = st["z"][_zone(rules, "court")]
    pairs = []
    for q in range(st["t"]["n"]):
        hand = st["z"][_zone(rules, "hand", q)]
        if q == p or not hand:
            continue
        if len(hand) > 1 and name[hand[0]] != name[hand[1]]:
            pairs.append((hand[0], hand[1]))
        other = next((c for c in court if name[c] != name[hand[0]]), None)
        if other is not None:
            pairs.append((hand[0], other))
    return pairs


@pytest.mark.slow  # every third position of random Coup games, from every seat
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_coup_a_swap_of_characters_a_player_cannot_see_is_invisible_to_them(players: int) -> None:
    """Issue 27's swap test for a bluffing game: two cards of another player's hand exchanged, or
    one of them with a Court card, change nothing in the view, tensor, observation string or
    information state of a player who cannot see them; the holder sees the change."""
    rules = Ruleset.get(Setup("coup"))
    encoder = Encoder(rules.game, players)
    swaps, holders_saw = 0, 0
    for seed in (1, 2):
        m = Match.start(rules, players, seed)
        gen = random.Random(seed)
        while not m.is_over():
            if m.depth % 3 == 0:
                st = rules.engine.plain(m.st)  # the engine's state may be native words
                for p in range(players):
                    for a, b in _coup_hidden_pairs(rules, st, p):
                        other = Match.from_state(rules, _swap(st, a, b))
                        here = Match.from_state(rules, st)
                        assert _seen(rules, other, p, encoder) == _seen(rules, here, p, encoder)
                        holder = st["loc"][a]
                        owner = next(q for q in range(players) if _zone(rules, "hand", q) == holder)
                        holders_saw += other.view(owner) != here.view(owner)
                        swaps += 1
            m.apply(gen.choice(sorted(m.legal())))
    assert swaps > 20
    assert holders_saw == swaps  # the test can fail: each swap moves a card of its holder's hand
