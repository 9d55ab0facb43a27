"""Visibility on the native backend (issue 33): tests/games/secrets (`visible_to:` expressions on a
zone and a per-player var, `reveal ... to`, `hide ... from`, `reveal ... until` an emitted event and
`turn_end`, secret counters and sizes) and tests/games/lost-cities (a var of type `any` holding a
symbol, compared with one; `len`) play exactly as on the Python backend, every seat's view included,
and the grants' ends (`ru`) convert to plain data and back."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_native_equivalence import engines, play_both, playouts_agree

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.bridge import NativeState, NotNative
from tabula.interpreter.compile.native.deal import NativeDeal
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import semantic_hash

GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))
HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "games"
GAMES_AT = {"secrets": FIXTURES, "lost-cities": FIXTURES, "glimpse": HERE / "games"}
NAMES = list(GAMES_AT)


@pytest.mark.slow  # each game loaded and lowered
@pytest.mark.parametrize("name", NAMES)
def test_nothing_left(name: str) -> None:
    _, walk = lower_game(load_game(GAMES_AT[name] / name))
    assert [d.message for d in walk.report.diagnostics] == []


def views_agree(py: Engine, nat: Engine, players: int, seed: int, pick: Any = None) -> dict[str, int]:
    """One game on both backends (random choices where `pick(ids)` gives None), the plain states and every
    seat's view equal at every decision; what was seen on the way."""
    a, b = py.new_game(players, seed), nat.new_game(players, seed)
    gen = rng.seed_state(seed + 0x51)
    seen = {"decisions": 0, "ends": 0, "grants": 0, "on_python": 0}
    while not py.is_terminal(a):
        assert nat.plain(b) == a, (seed, seen)
        for q in range(players):
            assert nat.view(b, q) == py.view(a, q), (seed, seen, q)
        seen["decisions"] += 1
        seen["ends"] += "ru" in a
        seen["grants"] += any(x > 1 for x in a["rv"])  # shown to some seats only
        ids = py.legal_ids(a)
        choice = pick(ids) if pick is not None else None
        choice = choice if choice is not None else ids[py.random_choice(a, gen)]
        py.apply_inplace(a, choice)
        nat.apply_inplace(b, choice)
        seen["on_python"] += isinstance(b, NativeState) and b.plain is not None
    assert nat.is_terminal(b) and nat.plain(b) == a
    assert nat.scores(b) == py.scores(a) and nat.winners(b) == py.winners(a)
    return seen


@pytest.mark.slow  # whole games on both backends, every view compared at every decision
@pytest.mark.parametrize("name", NAMES)
def test_random_games_and_views(name: str) -> None:
    game = load_game(GAMES_AT[name] / name)
    py, nat = engines(game)
    total: dict[str, int] = {}
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(1, GAMES + 1):
            assert play_both(py, nat, players, seed) > 0
            for k, v in views_agree(py, nat, players, seed).items():
                total[k] = total.get(k, 0) + v
            playouts_agree(py, nat, players, seed, 1 << 40)
            playouts_agree(py, nat, players, seed, 7)
    if name != "glimpse":  # glimpse's `flood` is more ends than the words hold (below)
        assert total["on_python"] == 0  # every decision stayed native
    if name != "lost-cities":  # the grants and their ends were there to compare
        assert total["ends"] > 0 and total["grants"] > 0


@pytest.mark.slow  # five games on both backends
def test_more_ends_than_room_play_on_python() -> None:
    """glimpse's `flood` gives forty ends at once (a reveal of a list holding each card five times),
    more than the `RU` words hold: that decision runs on Python, the state stays plain (NotNative)
    until the ends fit again, and the game goes on the same; a reveal of nothing `until` an event
    makes an empty `ru` key, kept as it is."""
    game = load_game(HERE / "games" / "glimpse")
    py, nat = engines(game)
    assert nat.native is not None and 5 * len(game.components) > nat.native.lay.ends
    flooded = 0

    def flood(ids: list[str]) -> str | None:  # `flood` whenever it is offered, else random
        return "flood" if "flood" in ids else None

    for seed in range(1, 6):
        seen = views_agree(py, nat, 2 + seed % 3, seed, flood)
        flooded += seen["on_python"]
    st = nat.new_game(2, 1)
    nat.apply_inplace(st, "spread")
    assert nat.plain(st)["ru"] == [] and st.plain is None  # type: ignore[attr-defined]
    assert flooded > 0


@pytest.mark.slow  # two games loaded and built
def test_grant_ends_convert_both_ways() -> None:
    game = load_game(FIXTURES / "secrets")
    py, nat = engines(game)
    native = nat.native
    assert native is not None
    st = py.new_game(3, 5)
    assert "ru" not in nat.plain(native.from_plain(st))
    for ends in ([], [["turn_end", 2, 1], ["mixed", 4, 2 | 8], ["mixed", 4, 2]]):
        st["ru"] = ends
        back = nat.plain(native.from_plain(st))
        assert back == st and semantic_hash(back) == semantic_hash(st)
    st["ru"] = [["mixed", 1, 2]] * (native.lay.ends + 1)
    with pytest.raises(NotNative):
        native.from_plain(st)

    # a search bot's worlds stay plain while the state holds ends (determinize renames them)
    glimpse = load_game(HERE / "games" / "glimpse")
    py, nat = engines(glimpse)
    assert nat.native is not None
    st = py.new_game(2, 1)
    assert NativeDeal(glimpse, nat.native, st, 0).deal(rng.seed_state(1)) is not None
    st["ru"] = [["stirred", 1, 2]]
    with pytest.raises(NotNative, match="until"):
        NativeDeal(glimpse, nat.native, st, 0)
