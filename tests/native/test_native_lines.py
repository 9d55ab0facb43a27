"""Lines, paths and regions on the native backend (issue 33): `distance`, `in_direction`,
`line_from`, `bounding_box`, `shortest_path` and `region`, played by the fixture game
tests/native/games/compass against the Python backend decision by decision, with hand-counted
scores and the least work budget each decision needs, there and in tests/native/games/spread (the
same on both backends: charged alike, R002 at the same point)."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest
from test_native_equivalence import engines, play_both
from test_native_grow import replays

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import GameRuntimeError

HERE = Path(__file__).resolve().parent
COMPASS = HERE / "games" / "compass"
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))


def test_held_natively() -> None:
    _, walk = lower_game(load_game(COMPASS))
    assert [d.message for d in walk.report.diagnostics] == []


# the first decision of a 2-player game (turn % 3 is 1) and the scores after it, counted by hand
HAND = [
    # a1 = (0, 0): line e 3, line sw 0; se 1 step is the masked (1, 1): none; distance to a1 0;
    # to d4 through free cells 4 (no diagonal through (1, 1)), the way's first step b1 (the lower
    # id of two) +5; box 1x1; a first mark (its box of no cells is none) +1; d1 is 3 away: 17
    ("mark:a1", [3 + 0 + 0 + 0 + 4 + 5 + 1 + 1 + 3, 0]),
    # a2 = (0, 1): lines 0 (e is the masked (1, 1)) and 0; se 1 step is b3, free: +2; 1 from a1;
    # 3 to d4 through b3 and c3, not b1; box 1; first +1; 3 from d1: 11
    ("mark:a2", [0 + 0 + 2 + 1 + 3 + 1 + 1 + 3, 0]),
    # d4 = (3, 3): lines 0 and 0 (sw is off the board); 4 from a1; 0 to itself; box 1; first +1;
    # 3 from d1: 9
    ("mark:d4", [4 + 0 + 1 + 1 + 3, 0]),
    # hex a1 = (0, 0): ne 2 steps is off the board; 4 steps to (2, 2); box [0, 0, 0, 0]: 4
    ("hop:a1", [4, 0]),
    # hex a3 = (0, 2): ne 2 steps is (2, 0), 1 + its line w (b1, a1) 2; 2 to (2, 2); box
    # [0, 2, 0, 2]: 0 + 4 + 0 + 8; 17
    ("hop:a3", [3 + 2 + 12, 0]),
    # the edge P-R (5 long) taken, every edge free: P-T-R is shortest by length (3 against 4 and 5),
    # 3 cells (30) through T (100); Q to T in steps: Q-P-T or Q-R-T, the lower id P first (3
    # cells); P to R through the player's edges: 1 step (1000)
    ("link:P-R", [30 + 100 + 3 + 1000, 0]),
    ("link:P-Q", [30 + 100 + 3, 0]),
    # every cell free: the region from a1 (twice) and d4 is the whole yard, 14 cells, a1 in it once
    # (100); the hex region from b2, 9 cells (9 x 1000); the cells with more than 3 neighbours,
    # b1 c1 a2 c2 d2 a3 b3 c3 d3 b4 (10 x 10000)
    ("flood", [14 + 100 + 9000 + 100000, 0]),
]


@pytest.mark.parametrize(("action", "scores"), HAND)
def test_counted_by_hand(action: str, scores: list[int]) -> None:
    py, nat = engines(load_game(COMPASS))
    a, b = py.new_game(2, 1), nat.new_game(2, 1)
    k = nat.legal_ids(b).index(action)
    py.apply_inplace(a, k)
    nat.apply_inplace(b, k)
    assert nat.scores(b) == py.scores(a) == scores


@pytest.mark.slow  # 2 x GAMES whole games on both backends
def test_random_games() -> None:
    """Every decision compared, every one played natively: a box of no cells compared with none
    (a player's first mark) is b_none's, not a stop; `stray` (the direction n on a hex board) is
    R015 on both backends (not met by random games)."""
    py, nat = engines(load_game(COMPASS))
    codes = replays(nat)
    ends = [play_both(py, nat, players, seed) for seed in range(1, GAMES + 1) for players in (2, 3)]
    assert all(k > 0 for k in ends)
    assert codes == []


def _least(ok: Any, most: int) -> int:
    lo, hi = 0, most
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid + 1, hi)
    return lo


def _least_budgets(py: Engine, nat: Engine, a: Any, b: Any, i: int) -> tuple[int, int]:
    """The least work budget with which decision `i` passes, on Python and on native code."""
    game, lib = py.game, nat.native
    assert lib is not None
    full = game.work_budget

    def python(budget: int) -> bool:
        game.work_budget = budget
        try:
            py.apply_inplace(copy.deepcopy(a), i)
        except GameRuntimeError as err:
            return bool(err.code != "R002")
        finally:
            game.work_budget = full
        return True

    def native(budget: int) -> bool:
        return bool(lib.apply(lib.array.from_buffer_copy(b.words), i, budget, None) != 2)  # E_BUDGET

    return _least(python, full), _least(native, full)


E_SIZE = 3  # runtime/tabula.h


def stops_and_budgets(py: Engine, nat: Engine, seeds: range, players: int = 2) -> tuple[set[str], int, int]:
    """Random games played on both backends, decision by decision (the same games throughout): the
    actions (or answers) whose decision native code stopped with E_SIZE, the decisions native code
    played, each needing Python's least work budget to the unit (a window's decision: an answer to
    a choice replays its segment natively, charged again), and the decisions played in Python (a
    state native words cannot hold)."""
    lib = nat.native
    assert lib is not None
    stopped: set[str] = set()
    played = in_python = 0
    for seed in seeds:
        assert play_both(py, nat, players, seed) > 0
        a, b = py.new_game(players, seed), nat.new_game(players, seed)
        gen = rng.seed_state(seed)
        while not py.is_terminal(a):
            i = py.random_choice(a, gen)
            cid = py.legal_ids(a)[i]
            if b.plain is not None:
                in_python += 1
            elif lib.apply(lib.array.from_buffer_copy(b.words), i, py.game.work_budget, None) == E_SIZE:
                stopped.add(cid.split(":")[0])
            elif not cid.isdigit():
                want, got = _least_budgets(py, nat, a, b, i)
                assert got == want, (seed, cid)
                played += 1
            py.apply_inplace(a, i)
            nat.apply_inplace(b, i)
            assert nat.plain(b) == a
    return stopped, played, in_python


SPREAD = HERE / "games" / "spread"
# what each game's random game must have met: compass's spatial builtins; spread's boards that grow,
# its remembered function `colour_at` (called twice a cell by `regions ... by`), `x in r`, a
# parameter from `range` and one tested (`hive`) only when its condition holds
# (and how many decisions at least)
MET = {
    "compass": ({"hop:a1", "link:P-R", "flood"}, 25),
    "spread": ({"hive:comb1", "look:0", "put:yard1"}, 15),
}


@pytest.mark.slow  # each decision applied about 20 times on each backend
@pytest.mark.parametrize("where", [COMPASS, SPREAD], ids=["compass", "spread"])
def test_work_charged_as_python_charges_it(where: Path) -> None:
    """At every option of the first decision and every decision of a random game that native code
    plays (a first mark too: a box of no cells compared with none), the least budget that lets it pass is
    Python's, to the unit: a DSL function's call charged at each call, remembered or not."""
    py, nat = engines(load_game(where))
    lib = nat.native
    assert lib is not None
    a, b = py.new_game(2, 2), nat.new_game(2, 2)
    seen: list[str] = []
    most = 0
    gen = rng.seed_state(2)
    first = list(range(len(py.legal_ids(a))))
    while not py.is_terminal(a):
        for i in first or [py.random_choice(a, gen)]:
            if lib.apply(lib.array.from_buffer_copy(b.words), i, py.game.work_budget, None) == 0:
                want, got = _least_budgets(py, nat, a, b, i)
                assert got == want > 20, py.legal_ids(a)[i]
                seen.append(py.legal_ids(a)[i])
                most = max(most, want)
        first = []
        py.apply_inplace(a, i)
        nat.apply_inplace(b, i)
    met, decisions = MET[where.name]
    assert met <= set(seen) and len(seen) >= decisions and most > 100
