"""Sushi Go (issue 27 item 6), the bundled game of simultaneous decisions.

- Random games of every player count finish, with every one of the 108 cards in one place.
- Whether chopsticks were used is hidden until the reveal too.
- The swap test, with an answer pending: two games that differ only in what one player picked (or
  in two cards hidden from another player) look the same to that other player - view, log, RL
  observation tensor and string, and the recall digest - until the picks are revealed together.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import visible_log

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def sushi_go() -> Engine:
    return Engine(load_game(ROOT / "gamedefs" / "sushi-go"))


@pytest.mark.slow  # a random game of each player count
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_finish_with_every_card_in_one_place(players: int) -> None:
    engine = sushi_go()
    st = engine.new_game(players, seed=players)
    gen = rng.seed_state(players)
    decisions = 0
    while not engine.is_terminal(st):
        engine.apply_inplace(st, engine.random_choice(st, gen))
        decisions += 1
        placed = sorted(c for zone in st["z"] for c in zone)
        assert placed == list(range(108))
    hand = {2: 10, 3: 9, 4: 8, 5: 7}[players]
    assert decisions >= 3 * hand * players  # one pick per card dealt, more with chopsticks
    assert len(engine.winners(st)) >= 1


def _pending(seed: int, pick: int) -> tuple[Engine, State, list[dict]]:
    """A 3-player game where P1 has just picked their `pick`-th option (P2 decides now)."""
    engine = sushi_go()
    log: list[dict] = []
    st = engine.new_game(3, seed=seed, log=log)
    engine.apply_inplace(st, pick, log)
    assert engine.waiting(st)[0] == 1
    return engine, st, log


@pytest.mark.slow  # two games played through one step
def test_what_a_player_picked_is_hidden_from_the_others_until_the_reveal() -> None:
    engine, a, log_a = _pending(5, 0)
    _, b, log_b = _pending(5, 1)
    assert engine.game.components[a["z"][engine.game.zones["picked"].index(0)][0]].name != (
        engine.game.components[b["z"][engine.game.zones["picked"].index(0)][0]].name
    )
    for p in (1, 2):
        assert engine.view(a, p) == engine.view(b, p)
        assert visible_log(log_a, p) == visible_log(log_b, p)
    assert engine.view(a, 0) != engine.view(b, 0)
    for st, log in ((a, log_a), (b, log_b)):  # the others answer the same; then all is revealed
        engine.apply_inplace(st, 0, log)
        engine.apply_inplace(st, 0, log)
    assert engine.view(a, 1) != engine.view(b, 1)
    assert [x for x in visible_log(log_a, 1) if x.startswith("revealed together - P1: ")]


@pytest.mark.slow
def test_the_swap_test_with_a_pending_answer_for_rl_observations() -> None:
    np = pytest.importorskip("numpy")
    from tabula.rl.encoding import Encoder
    from tabula.rl.match import Match, Ruleset, Setup
    from tabula.rl.text import observation_string

    rules = Ruleset.get(Setup("sushi-go"))
    encoder = Encoder(rules.game, 3)

    def seen(m: Match, p: int) -> tuple[bytes, str, str]:
        view = m.view(p)
        return encoder.tensor(view).tobytes(), observation_string(rules.game, view), m.recall(p)

    a, b = Match.start(rules, 3, 8), Match.start(rules, 3, 8)
    picks = sorted(a.legal())
    a.apply(picks[0])
    b.apply(picks[1])  # P1 picked another card
    for p in (1, 2):
        assert seen(a, p) == seen(b, p)
    assert seen(a, 0) != seen(b, 0)
    # and two cards of P1's hand exchanged with each other's places in hand and picked
    st = rules.engine.plain(a.st)  # the engine's state may be native words
    picked, hand = (rules.game.zones[z].index(0) for z in ("picked", "hand"))
    c, d = st["z"][picked][0], st["z"][hand][-1]
    swapped = rules.engine.clone(st)
    swapped["z"][picked][0], swapped["z"][hand][-1] = d, c
    swapped["loc"][c], swapped["loc"][d] = hand, picked
    x, y = Match.from_state(rules, st), Match.from_state(rules, swapped)
    for p in (1, 2):
        assert seen(x, p)[:2] == seen(y, p)[:2]
        assert np.array_equal(encoder.tensor(x.view(p)), encoder.tensor(y.view(p)))
    assert seen(x, 0)[0] != seen(y, 0)[0]


@pytest.mark.slow
def test_a_bot_decides_on_worlds_that_do_not_know_the_others_picks() -> None:
    from tabula.bots.base import Observation

    engine, st, _ = _pending(6, 0)
    obs = Observation(engine, st, 1)
    worlds = [obs.determinize(rng.seed_state(s)) for s in range(8)]
    picked = engine.game.zones["picked"].index(0)
    assert len({w["z"][picked][0] for w in worlds}) > 1  # P1's pick is dealt at random
    assert all(w["t"]["sim"]["a"] == [[0, "?"]] for w in worlds)


@pytest.mark.slow  # plays until a player may use chopsticks
def test_using_chopsticks_is_hidden_until_the_reveal() -> None:
    engine = sushi_go()
    seed = 0
    st = engine.new_game(2, seed=seed)
    gen = rng.seed_state(seed)
    while not (
        st["dec"] is not None and st["dec"]["p"] == 0 and st["dec"]["prompt"].startswith("chopsticks")
    ):
        if st["dec"] is None:  # this game never offered it: the next one
            seed += 1
            st, gen = engine.new_game(2, seed=seed), rng.seed_state(seed)
        engine.apply_inplace(st, engine.random_choice(st, gen))
    assert "none" in engine.legal_ids(st) and len(engine.legal_ids(st)) > 1
    seen = []
    for choice in ("none", engine.legal_ids(st)[0]):
        log: list[dict] = []
        after = engine.apply(st, choice, log)
        seen.append((engine.view(after, 1), visible_log(log, 1)))
    assert seen[0] == seen[1]  # P2 cannot tell whether P1 took a second card
