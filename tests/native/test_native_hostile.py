"""The hostile corpus's run-time cases end with the same diagnostic on both backends (issue 23):
each game of tests/hostile whose expected code is a run-time one (R...) plays one random game per
backend (the same seed and choices) and fails with the same code, message and place. The cases the
native backend holds run natively; the others run on Python in both and are not counted."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import GameRuntimeError

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
sys.path.insert(0, str(HOSTILE))
from harness import read_cases  # noqa: E402 - the corpus's own list, beside it

RUNTIME = sorted({c.path for c in read_cases() if c.expect.startswith("R") and c.path.startswith("games/")})


def outcome(engine: Engine, players: int) -> tuple[str | None, str, str]:
    """(code, message, place) of the error a random game (seed 0) ends with."""
    pick = random.Random(0)
    try:
        st = engine.new_game(players, 0)
        for _ in range(5000):
            if engine.is_terminal(st):
                break
            ids = engine.legal_ids(st)
            engine.apply_inplace(st, ids[pick.randrange(len(ids))])
    except GameRuntimeError as err:
        return err.code, err.message, str(err.span)
    return None, "no error", ""


# the cases the native backend holds (it stops in C, and Python says where): a case that moves in
# or out of this list is a change of what the backend holds, to be seen in a diff
NATIVE = {
    "games/board-40x40-placements-loop",
    "games/board-graph-k12-longest",
    "games/work-nested-generators",
    "games/work-repeated-squaring",
    "games/bigint-in-state",
    "games/memory-number-let-plus",
    "games/memory-number-var-plus",
    "games/memory-counter-doubling",
    "games/work-short-generators",
    "games/work-long-loop-body",
    "games/budget-small",
    "games/work-flow-never-asks",
    "games/set-player-99",
    "games/run-counter-below-min",
    "games/run-counter-above-max",
    "games/run-gain-negative",
    "games/run-every-turn-skipped",
    "games/run-rounds-all-skipped",
    "games/work-trigger-fan-out",
    "games/work-trigger-fan-out-components",
    "games/work-trigger-fan-out-waiting",
    # a var of type any given numbers or seats (issue 33)
    "games/memory-number-doubling",
    "games/memory-number-minus",
    "games/run-choose-by-none",
    # `len` of a list, native as `count` is (issue 33)
    "games/work-distinct-nested",
    # boards that grow: past max_cells (issue 37)
    "games/board-grow-past-max",
    "games/board-grow-1500-snake",
    # a comprehension of lists: a list of lists (issue 33, lowering/groups.py)
    "games/memory-lists-of-lists",
    # a var of type any given none or a number and a list: two kinds (issue 33, lowering/lists.py);
    # `a * k` of its list reads its number, which stops native code (E_KIND), as does a list past
    # its room (E_STORE): Python replays and fails there
    "games/memory-list-times",
    "games/memory-state-numbers",
    "games/work-sorted-in-loop",
    # a var of type any starting as a number (was refused: only none was held)
    "games/run-declare-winner-any",
}


def test_the_list_names_cases_of_the_corpus() -> None:
    assert not NATIVE - set(RUNTIME), NATIVE - set(RUNTIME)


@pytest.mark.slow  # a small game built natively (once per cache) and played on both backends
@pytest.mark.parametrize("path", RUNTIME)
def test_a_runtime_case_fails_alike_on_both_backends(path: str) -> None:
    game = load_game(HOSTILE / path)
    nat = Engine(game, backend="native")
    want = outcome(Engine(game), game.min_players)
    assert want[0] is not None and want[0].startswith("R"), want
    assert outcome(nat, game.min_players) == want
    assert (nat.backend == "native") == (path in NATIVE), nat.backend_note
