"""Views read from native words (compile/native/views.py, runtime views.c) are model/view.py's views:
in a random game of every bundled game and of every native fixture, at every decision, every seat's
view of the native state (live, and a packed clone read in scratch words) is the Python backend's
view of the same game, to the key order and the types (compared as repr: True is not 1, and JSON
would show another order). Hidden information must not leak (principle 5): a hidden card, a mark of
one, another player's pending ids. Porta Nigra and Glory to Rome take the fast path at every view;
games whose visibility needs Python say why (`why_not`) and keep the plain path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.views import why_not
from tabula.interpreter.engine import Engine, load_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name for p in (ROOT / "gamedefs").iterdir() if (p / "game.yaml").exists())
FIXTURES = sorted(
    str(p.relative_to(ROOT))
    for folder in ("tests/native/games", "tests/games")
    for p in (ROOT / folder).iterdir()
    if (p / "game.yaml").exists()
)
LIMIT = 150  # decisions compared per game


def engines(name: str) -> tuple[Engine, Engine] | None:
    game = load_game(name if "/" not in name else ROOT / name)
    native = Engine(game, backend="native")
    if native.backend != "native":
        return None
    return Engine(game), native


def compare(name: str, seed: int = 1) -> tuple[int, int]:
    """One random game on both backends, every seat's views compared at every decision (the live
    native state and a packed clone of it); the views compared and those read from the words."""
    made = engines(name)
    if made is None:
        pytest.skip(f"{name} is not native")
    py, nat = made
    assert nat.native is not None
    g = py.game
    n = max(g.min_players, min(3, g.max_players))
    a, b = py.new_game(n, seed), nat.new_game(n, seed)
    gen = rng.seed_state(seed + 7)
    compared = fast = 0
    for k in range(LIMIT):
        twin = nat.clone(b)
        for seat in range(n):
            want = repr(py.view(a, seat))
            for st in (b, twin):
                fast += nat.native.views.view(st, seat, nat.plain) is not None
                assert repr(nat.view(st, seat)) == want, (name, seed, k, seat)
                compared += 1
        if py.is_terminal(a):
            break
        ids = py.legal_ids(a)
        cid = ids[rng.below(gen, len(ids))]
        try:
            py.apply_inplace(a, cid)
        except Exception:  # (a fixture that stops with a rule error: compared so far)
            break
        nat.apply_inplace(b, cid)
    return compared, fast


@pytest.mark.slow  # a random game of each bundled game, every seat's view at every decision
@pytest.mark.parametrize("name", GAMES)
def test_native_views_are_the_python_views_in_every_bundled_game(name: str) -> None:
    compared, fast = compare(name)
    assert compared
    if name in ("porta-nigra", "glory-to-rome"):  # never the plain path (issue 33)
        assert fast == compared
        compared, fast = compare(name, 2)
        assert fast == compared


@pytest.mark.slow
@pytest.mark.parametrize("name", FIXTURES)
def test_native_views_are_the_python_views_in_the_fixtures(name: str) -> None:
    assert compare(name)[0]


def test_games_whose_visibility_needs_python_say_why() -> None:
    assert why_not(load_game(ROOT / "tests/games/secrets")) == "a zone seen by a `visible_to:` expression"
    assert why_not(load_game(ROOT / "tests/games/no-thanks")) == "a secret counter"
    assert why_not(load_game("porta-nigra")) == why_not(load_game("glory-to-rome")) == ""


def _hidden_state(nat: Engine) -> tuple[Any, int, int]:
    """A Glory to Rome state of 2 players, a card in seat 1's hand (hidden from seat 0) and seat 0
    to decide."""
    st = nat.new_game(2, 3)
    gen = rng.seed_state(5)
    while True:
        plain = nat.plain(st)
        dec = plain["dec"]
        hand = [c for z, ids in enumerate(plain["z"]) if nat.game.zone_owner[z] == 1 for c in ids]
        if dec is not None and dec["p"] == 0 and hand:
            return st, hand[0], plain["loc"][hand[0]]
        ids = nat.legal_ids(st)
        nat.apply_inplace(st, ids[rng.below(gen, len(ids))])


def test_a_hidden_card_its_marks_and_the_others_ids_do_not_leak() -> None:
    made = engines("glory-to-rome")
    assert made is not None
    nat = made[1]
    st, card, zone = _hidden_state(nat)
    mine, theirs = nat.view(st, 0), nat.view(st, 1)
    assert theirs["loc"][card] == zone and mine["loc"][card] == -1
    assert card in theirs["z"][zone] and card not in mine["z"][zone] and -1 in mine["z"][zone]
    assert all(col[card] is None for col in mine["m"].values())
    assert "ids" in mine["dec"] and theirs["dec"] == {"p": 0}
