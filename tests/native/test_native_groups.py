"""Lists of lists on the native backend (issue 33): `regions(...)` kept whole as a value (a `let`,
a function's result and parameter) and lists made of lists, played by the fixture
tests/native/games/heaps against the Python backend, decision by decision; a list of lists past
the room of a list value stops native code (E_SIZE) and Python plays that decision."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_native_equivalence import engines, play_both
from test_native_lines import _least_budgets, stops_and_budgets

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import load_game

HERE = Path(__file__).resolve().parent
HEAPS = HERE / "games" / "heaps"
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))
E_SIZE = 3  # runtime/tabula.h


def test_regions_kept_whole_random_games() -> None:
    """Every form of heaps' `claim` (`count`, `len`, `r[i]`, `first`, `last`, `list`,
    `reversed`, `+`, `==`, `in`, loops, aggregates and comprehensions over a list of lists, a
    comprehension of lists, `flatten`) and its score: held natively, every decision the same,
    and whole native playouts (which stop at nothing) end as the Python ones."""
    loaded = load_game(HEAPS)
    _, walk = lower_game(loaded)
    assert walk.report.diagnostics == []
    py, nat = engines(loaded)
    assert nat.native is not None
    for seed in range(1, GAMES + 1):
        for players in (2, 3):
            assert play_both(py, nat, players, seed) == 12  # a claim a cell
            a, b = py.new_game(players, seed), nat.new_game(players, seed)
            taken, stopped = nat.native.playout(b, rng.seed_state(seed), 10**9, 10**6)
            assert (taken, stopped) == (12, 0)  # native code played every decision
            py.playout(a, rng.seed_state(seed))
            assert nat.plain(b) == a and nat.scores(b) == py.scores(a)


CRAMPED = """
game: {id: cramped, players: {min: 2, max: 3}}
boards:
  field: {kind: square, size: [4, 3], marks: {by: {initial: none, type: player, visibility: public}}}
counters:
  score: {per: player}
actions:
  claim:
    params: {c: "[c for c in cells(field) where c.by == none]"}
    closes_window: true
    do: |
      set c.by = me
      let r = regions(h for h in cells(field) where h.by != none by h.by)
      gain count(r) + 100 * count(r[count(r) - 1]) score(me)
flow:
  turn:
    player: (turn) % num_players
    phases:
      - {id: main, do: "window p: claim"}
  end_checks:
    - {id: full, when: "count([c for c in cells(field) where c.by == none]) == 0", end: immediately}
scoring:
  score: score(p)
"""


def test_a_list_of_lists_past_its_room_goes_on_in_python(tmp_path: Path) -> None:
    """Twelve cells and nothing else: a list value has room for 17 words, and the regions of the
    cells take up to 24 (each group its length, then its cells): native code stops there (E_SIZE),
    Python plays the decision, and the game is the Python one throughout."""
    (tmp_path / "game.yaml").write_text(CRAMPED)
    py, nat = engines(load_game(tmp_path))
    assert nat.native is not None
    stops = 0
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, 3, seed) == 12
        _, stopped = nat.native.playout(nat.new_game(3, seed), rng.seed_state(seed), 10**9, 10**6)
        stops += stopped == E_SIZE
    assert stops > 0


@pytest.mark.slow  # each decision applied about 20 times on each backend
def test_work_charged_as_python_charges_it() -> None:
    """At every decision of a random heaps game, the least work budget that lets it pass is
    Python's to the unit: regions kept (charged once, as Python makes the list once), `list`,
    `reversed`, `in`, the walks and comprehensions over a list of lists."""
    py, nat = engines(load_game(HEAPS))
    lib = nat.native
    assert lib is not None
    a, b = py.new_game(3, 4), nat.new_game(3, 4)
    gen = rng.seed_state(4)
    seen = 0
    while not py.is_terminal(a):
        i = py.random_choice(a, gen)
        want, got = _least_budgets(py, nat, a, b, i)
        assert got == want > 20, (seen, py.legal_ids(a)[i])
        seen += 1
        py.apply_inplace(a, i)
        nat.apply_inplace(b, i)
    assert seen == 12


KEPT = """
game: {id: kept, players: {min: 2, max: 2}}
boards:
  field: {kind: square, size: [3, 2], marks: {by: {initial: none, type: player, visibility: public}}}
counters:
  score: {per: player}
procedures:
  tally:
    params: [p, r]
    do: gain count(r) score(p)
actions:
  claim:  # a local of a block that stops at a choice: its frame keeps it
    params: {c: "[c for c in cells(field) where c.by == none]"}
    closes_window: true
    do: |
      set c.by = me
      let r = regions(h for h in cells(field) where h.by != none by h.by)
      choose k from [1, 2] by me
      gain count(r) + k score(me)
  sweep:  # a procedure's argument: its frame's local
    closes_window: true
    do: |
      run tally(me, regions(h for h in cells(field) where h.by == me))
      gain 1 score(me)
flow:
  turn:
    player: (turn) % num_players
    phases:
      - {id: main, do: "window p: claim, sweep"}
  end_checks:
    - {id: full, when: "count([c for c in cells(field) where c.by == none]) == 0", end: immediately}
    - {id: late, when: "turn > 12", end: immediately}
scoring:
  score: score(p)
"""


@pytest.mark.slow  # each decision native code plays applied about 20 times on each backend
def test_a_list_of_lists_kept_in_the_state_is_python_s(tmp_path: Path) -> None:
    """A list of lists stored where Python keeps it in the state (a local of a block that stops
    at a choice, a procedure's argument) has Python measure the whole state (run/budget.py
    `stored`), which native code does not: it stops there (E_SIZE) and Python plays the decision;
    every decision it does play needs Python's least work budget, and the games are the same."""
    (tmp_path / "game.yaml").write_text(KEPT)
    py, nat = engines(load_game(tmp_path))
    stopped, _, in_python = stops_and_budgets(py, nat, range(1, 4))
    assert stopped == {"claim", "sweep"} and in_python > 0  # (Python answers claim's choice)


def test_a_list_of_lists_as_options_is_refused(tmp_path: Path) -> None:
    """An option is one word: an action's parameter among lists of lists is N001."""
    split = (
        "  split:\n    params: {g: regions(c for c in cells(field))}\n    do: gain count(g) score(me)\nflow:"
    )
    held = CRAMPED.replace("flow:", split, 1).replace("window p: claim", "window p: claim, split")
    (tmp_path / "game.yaml").write_text(held)
    _, walk = lower_game(load_game(tmp_path))
    assert [d.message for d in walk.report.diagnostics] == [
        "not in the native backend yet: an action's parameter among list[list[comp]]",
    ]


STASHED = (
    KEPT.replace(
        "counters:\n  score: {per: player}",
        "counters:\n  score: {per: player}\nvars:\n  kept: {initial: [], visibility: public}",
    )
    .replace(
        "      let r = regions(h for h in cells(field) where h.by != none by h.by)\n"
        "      choose k from [1, 2] by me\n",
        "      let r = 2\n      let k = count(kept)\n",
    )
    .replace("gain count(r) + k score(me)", "gain r + k score(me)")
    .replace(
        "      run tally(me, regions(h for h in cells(field) where h.by == me))\n",
        "      if count(kept) > 0:\n        set kept = []\n      else:\n"
        "        set kept = regions(h for h in cells(field) where h.by == me)\n",
    )
)


@pytest.mark.slow  # each decision native code plays applied about 20 times on each backend
def test_a_list_of_lists_in_a_var_is_python_s(tmp_path: Path) -> None:
    """A var holding a list of lists (`set kept = regions(...)`): Python measures the whole state
    at each such store (run/budget.py `stored`), native code stops there (E_SIZE) and Python plays
    the decision; a state whose var holds one stays in Python (the var's words have no room for
    it) until the var is emptied. Every decision native code plays needs Python's least work
    budget, and the games are the same."""
    assert "set kept = regions" in STASHED and "let k = count(kept)" in STASHED
    (tmp_path / "game.yaml").write_text(STASHED)
    loaded = load_game(tmp_path)
    _, walk = lower_game(loaded)
    assert walk.report.diagnostics == []
    py, nat = engines(loaded)
    stopped, played, in_python = stops_and_budgets(py, nat, range(1, 4))
    assert stopped == {"sweep"} and played > 10 and in_python > 0, (stopped, played, in_python)
