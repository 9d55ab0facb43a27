"""Determinisation deals only what is hidden, keeps the view, and depends on the view alone."""

from __future__ import annotations

from functools import cache

import pytest

from tabula.bots.base import Observation
from tabula.bots.spec import make_bot
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import visible_to
from tabula.interpreter.run.determinize import apply_mapping, back_of, determinize, hidden_components


@cache
def engine(name: str) -> Engine:
    # Glory to Rome without concessions: random games would mostly end in the first turns
    return Engine(load_game(name, variant="no-surrender" if name == "glory-to-rome" else None))


def advance(e: Engine, seed: int, moves: int) -> State:
    """A game after `moves` random decisions."""
    st = e.new_game(2, seed)
    gen = rng.seed_state(seed + 99)
    for _ in range(moves):
        if e.is_terminal(st):
            break
        e.apply_inplace(st, e.random_choice(st, gen))
    return st


def position(name: str, seed: int, moves: int) -> tuple[Engine, State, int]:
    """A game after some random moves, and the player to decide."""
    e = engine(name)
    st = advance(e, seed, moves)
    me = e.current_player(st)
    assert me is not None
    return e, st, me


def opponent_hand_and_deck_swap(e: Engine, st: State, me: int) -> dict[int, int]:
    """Two components with the same back, one in the opponent's hand, one in the deck."""
    g = e.game
    hand = st["z"][g.zones["hand"].index(1 - me)]
    deck = st["z"][g.zones["deck"].index(None)] if not g.zones["deck"].per_player else []
    for a in hand:
        for b in deck:
            if back_of(g, a) == back_of(g, b):
                return {a: b, b: a}
    raise AssertionError("no swappable pair")


CASES = [("high-card", 3, 2), ("glory-to-rome", 7, 25), ("glory-to-rome", 8, 60)]


@pytest.mark.parametrize(("name", "seed", "moves"), CASES)
def test_view_is_kept_and_only_hidden_places_change(name: str, seed: int, moves: int) -> None:
    e, st, me = position(name, seed, moves)
    det = determinize(e.game, st, me, rng.seed_state(5))
    assert e.view(det, me) == e.view(st, me)
    hidden = set(hidden_components(e.game, st, me))
    moved = [c for c in range(len(e.game.components)) if det["loc"][c] != st["loc"][c]]
    assert moved, "a determinisation that never moves anything deals nothing"
    assert set(moved) <= hidden
    for zi, zone in enumerate(det["z"]):
        assert len(zone) == len(st["z"][zi])
        for pos, c in enumerate(zone):
            assert det["loc"][c] == zi
            assert back_of(e.game, c) == back_of(e.game, st["z"][zi][pos])
    assert det["rng"] != st["rng"]


@pytest.mark.parametrize(("name", "seed", "moves"), CASES)
def test_hidden_swap_changes_neither_the_world_nor_the_decision(name: str, seed: int, moves: int) -> None:
    e, st, me = position(name, seed, moves)
    pi = opponent_hand_and_deck_swap(e, st, me)
    other = apply_mapping(e.game, st, pi)
    assert other["z"] != st["z"]  # a different true state ...
    assert e.view(other, me) == e.view(st, me)  # ... that looks the same to the bot
    assert determinize(e.game, other, me, rng.seed_state(1)) == determinize(e.game, st, me, rng.seed_state(1))
    for spec in ("greedy:2", "ismcts:30", "mcts:30"):
        bot = make_bot(spec, e)
        picks = [bot.choose(Observation(e, s, me), rng.seed_state(4)) for s in (st, other)]
        assert picks[0] == picks[1], spec


@pytest.mark.parametrize(
    "name", ["porta-nigra", "glory-to-rome", "coup", "hanabi", "patchwork", "ticket-to-ride"]
)
def test_determinised_games_play_on_to_the_end(name: str) -> None:
    e = engine(name)
    # a Coup game is over in some 15 to 50 decisions; random Hanabi play burns its fuses as fast
    step = 3 if name in ("coup", "hanabi") else 15 if name == "patchwork" else 40  # patchwork: ~63 in all
    played = 0
    for seed in range(3):
        st = advance(e, seed, step * (seed + 1))
        me = e.current_player(st)
        if me is None:
            continue
        played += 1
        det = determinize(e.game, st, me, rng.seed_state(seed))
        gen = rng.seed_state(seed)
        for _ in range(5000):
            if e.is_terminal(det):
                break
            e.apply_inplace(det, e.random_choice(det, gen))
        assert e.is_terminal(det)
        assert len(e.winners(det)) >= 1
    assert played >= 2


def test_another_players_decision_is_refused() -> None:
    e = engine("high-card")
    st = advance(e, 1, 1)
    me = e.current_player(st)
    assert me is not None
    with pytest.raises(ValueError, match="pending decision"):
        determinize(e.game, st, 1 - me, rng.seed_state(0))


@pytest.mark.parametrize(
    "name",
    [
        "coup",
        "hanabi",
        "sushi-go",
        "tests/games/secrets",
        "tests/games/lost-cities",
        "tests/games/love-letter",
        "tests/games/no-thanks",
    ],
)
def test_hidden_components_are_those_visible_to_denies(name: str) -> None:
    # hidden_components asks once per zone instance; visible_to asks per component: the same ids
    from pathlib import Path

    ref = str(Path(__file__).parents[2] / name) if name.startswith("tests/") else name
    e = Engine(load_game(ref))
    for seed in range(6):
        st = e.new_game(e.game.min_players, seed)
        gen = rng.seed_state(seed)
        for _ in range(40):
            for p in range(st["t"]["n"]):
                per_component = [c for c in range(len(e.game.components)) if not visible_to(e.game, st, c, p)]
                assert hidden_components(e.game, st, p) == per_component
            if e.is_terminal(st):
                break
            e.apply_inplace(st, rng.below(gen, len(st["dec"]["ids"])))
