"""Boards on the native backend (issue 33): `cells`, `named`, a zone indexed and `placements`, each
played by the fixture game tests/native/games/quilt against the Python backend, decision by
decision, with hand-counted placements; and Patchwork, which needs them all."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from test_native_equivalence import engines, play_both

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import load_game
from tabula.interpreter.model.state import semantic_hash

HERE = Path(__file__).resolve().parent
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))


@pytest.mark.slow  # 2 x GAMES whole games on both backends
@pytest.mark.parametrize("players", [2, 3])
def test_quilt_random_games(players: int) -> None:
    """Every decision, id and state compared; whole native playouts end as the Python ones."""
    py, nat = engines(load_game(HERE / "games" / "quilt"))
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, players, seed) > 0
        a, b = py.new_game(players, seed), nat.new_game(players, seed)
        ga, gb = rng.seed_state(seed), rng.seed_state(seed)
        assert py.playout(a, ga) == nat.playout(b, gb)
        assert ga == gb and nat.plain(b) == a


# the first decision's options, counted by hand: the action taken, then how many placements
# (and the first, in board order) native code offers at the choice that follows
HAND = [
    # a domino on an empty 3x3 pad: 6 across + 6 down
    ("lay:domino", 12, "a1+b1"),
    # a domino on the 3x3 hex board: 6 along each of its two straight axes, 4 along the third
    ("comb:domino", 16, "a1+b1"),
    # an L of three turned and mirrored: 4 distinct ways (a mirror is a turn) x 4 corners
    ("comb:ell", 16, "a1+b1+b2"),
]


@pytest.mark.parametrize(("action", "count", "first"), HAND)
def test_placements_counted_by_hand(action: str, count: int, first: str) -> None:
    py, nat = engines(load_game(HERE / "games" / "quilt"))
    a, b = py.new_game(2, 1), nat.new_game(2, 1)
    # `named(piece, 'single')` went to the offer's top at setup; `offer[i]` gives the front two
    assert nat.legal_ids(b)[0] == "lay:single" and nat.legal_ids(b) == py.legal_ids(a)
    if action not in nat.legal_ids(b):
        pytest.skip("the shuffle did not put it in front")  # seed 1 does (checked below)
    k = nat.legal_ids(b).index(action)
    py.apply_inplace(a, k)
    nat.apply_inplace(b, k)
    assert nat.native is not None and nat.native.choosing(b)  # posed by native code
    ids = nat.legal_ids(b)
    assert len(ids) == count and ids[0] == first and ids == py.legal_ids(a)
    py.apply_inplace(a, len(ids) - 1)
    nat.apply_inplace(b, len(ids) - 1)
    assert semantic_hash(nat.plain(b)) == semantic_hash(a)


def test_seed_one_offers_the_domino() -> None:
    _, nat = engines(load_game(HERE / "games" / "quilt"))
    assert nat.legal_ids(nat.new_game(2, 1))[:2] == ["lay:single", "lay:domino"]


def test_unturned_constant_shape_scores() -> None:
    """`placements(pad(p), [[0, 0], [1, 0]], false)` on an empty pad: 6 (across only)."""
    _, nat = engines(load_game(HERE / "games" / "quilt"))
    assert nat.scores(nat.new_game(3, 2)) == [6, 6, 6]


@pytest.mark.slow  # Patchwork loaded and lowered
def test_patchwork_constructs_left() -> None:
    _, walk = lower_game(load_game("patchwork"))
    assert Counter(d.message for d in walk.report.diagnostics) == Counter()


@pytest.mark.slow  # whole games on both backends, compared at every decision
def test_patchwork_random_games() -> None:
    py, nat = engines(load_game("patchwork"))
    for seed in range(1, max(2, GAMES // 3) + 1):
        assert play_both(py, nat, 2, seed) > 30


@pytest.mark.slow  # playouts on both backends
@pytest.mark.parametrize("limit", [1 << 40, 37])
def test_patchwork_playouts_draw_the_python_choices(limit: int) -> None:
    """Engine.playout in native code against the Python loop: the same decisions, generator words
    and state; stopped by a limit (perhaps at a placement), it goes on as Python's does."""
    py, nat = engines(load_game("patchwork"))
    for seed in range(1, 8):
        a, b = py.new_game(2, seed), nat.new_game(2, seed)
        ga, gb = rng.seed_state(seed), rng.seed_state(seed)
        assert py.playout(a, ga, limit) == nat.playout(b, gb, limit)
        assert ga == gb and semantic_hash(a) == semantic_hash(nat.plain(b)), seed
        if limit < 1000:
            assert nat.playout(b, gb) == py.playout(a, ga)


# claims and squares taken in turn (player 0, then 1), and the scores counted by hand: claimed
# lengths + longest trail by length + 100 x longest trail in edges + tickets joined + 6 for a
# crossing of the grid (each square action also scores 1: A and F are joined on the whole map)
RAILS = [
    # p0: a loop A-B-C-D-A (B-C the double route's second, 3) and C-E: the trail E-C-B-A-D-C uses
    # all five, 12 long; tickets AC and BE; p1: a1 b1 c1 c2 c3 crosses the grid
    (["A-B", "a1", "B-C#2", "b1", "C-D", "c1", "D-A", "c2", "C-E", "c3"], [12 + 12 + 500 + 12, 5 + 6]),
    # p0: the loop (8 long, 4 edges) and E-F apart; ticket AC only; p1: c3 is not reached
    (["A-B", "a1", "B-C#2", "b1", "C-D", "c1", "D-A", "b2", "E-F", "c3"], [9 + 8 + 400 + 5, 5]),
]


@pytest.mark.parametrize(("moves", "scores"), RAILS)
def test_paths_counted_by_hand(moves: list[str], scores: list[int]) -> None:
    py, nat = engines(load_game(HERE / "games" / "rails"))
    a, b = py.new_game(2, 1), nat.new_game(2, 1)
    for m in moves:
        k = nat.legal_ids(b).index(("claim:" if "-" in m else "square:") + m)
        py.apply_inplace(a, k)
        nat.apply_inplace(b, k)
    assert nat.is_terminal(b) and nat.scores(b) == py.scores(a) == scores


@pytest.mark.slow  # 2 x GAMES whole games of each on both backends
@pytest.mark.parametrize("game", [HERE / "games" / "rails", HERE.parent / "games" / "routes"])
@pytest.mark.parametrize("players", [2, 3])
def test_path_games_random(game: Path, players: int) -> None:
    py, nat = engines(load_game(game))
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, players, seed) > 0


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize(
    "game", [*(HERE.parent / "games" / g for g in ("grids", "mosaic", "tiles")), HERE / "games" / "brim"]
)
def test_cell_zones_and_neighbours_random(game: Path) -> None:
    """tests/games/grids (the zone on a cell given as a component, with a max), mosaic
    (`neighbours` and `cell` on a 25x25 board), tiles (a nested constant given to a function that
    makes its placements, the largest of `regions(...)`) and the fixture brim (a move past a cell
    zone's max is R016, a component that is no cell R015, on both backends; `neighbours` on a
    masked board with diagonals and on a hex board; `cell` off the board is none; `regions(... by
    ...)` in a loop and in the score): held natively, and every decision the same."""
    loaded = load_game(game)
    _, walk = lower_game(loaded)
    assert walk.report.diagnostics == []  # held natively: not Python against itself
    py, nat = engines(loaded)
    errors = 0
    for seed in range(1, GAMES + 1):
        for players in (2, 3) if loaded.max_players >= 3 else (2,):
            k = play_both(py, nat, players, seed)
            assert k > 0
            errors += int(game.name == "brim" and k < 11)
    if game.name == "brim":  # some games end on R016 or R015, others play to the end
        assert 0 < errors < 2 * GAMES


def test_first_of_regions_at_every_option() -> None:
    """brim's `mark`: `first(count(r) for r in regions(...) where ...)`, none when no region
    passes; at every decision of random games each `mark` option is applied on both backends (the
    first region, by its lowest cell, is seldom the largest: a random game alone rarely tells)."""
    py, nat = engines(load_game(HERE / "games" / "brim"))
    tried = 0
    for seed in range(1, GAMES + 1):
        for players in (2, 3):
            a, b = py.new_game(players, seed), nat.new_game(players, seed)
            gen = rng.seed_state(seed + 0xB07)
            while not py.is_terminal(a):
                for k, cid in enumerate(py.legal_ids(a)):
                    if cid.startswith("mark"):
                        want = semantic_hash(py.apply(a, k))
                        assert semantic_hash(nat.plain(nat.apply(b, k))) == want, cid
                        tried += 1
                i = py.random_choice(a, gen)
                if py.legal_ids(a)[i].startswith(("drop", "stray")):  # (R016, R015: not this test's)
                    i = next(j for j, c in enumerate(py.legal_ids(a)) if c.startswith("hop"))
                py.apply_inplace(a, i)
                nat.apply_inplace(b, i)
    assert tried > 50


REFUSED = """
game: {id: refused, players: {min: 2, max: 2}}
boards:
  wall: {kind: square, size: [3, 3], marks: {owner: {initial: none, type: player, visibility: public}}}
constants:
  domino: [[0, 0], [1, 0]]
counters:
  n: {}
functions:
  offsets:
    expr: "sum(count(p) for p in domino)"
flow:
  turn:
    phases:
      - id: main
        do: |
          choose x from [1, 2] by p
          gain x n
  end_checks:
    - {id: end, when: "n > 5", end: immediately}
    - {id: c, when: "offsets() > 9", end: immediately}
scoring:
  score: n
"""


def test_nested_constants_refused_elsewhere(tmp_path: Path) -> None:
    """A nested constant is read only where a shape is: N001 says where (`regions(...)` kept
    whole is held: test_native_groups.py)."""
    (tmp_path / "game.yaml").write_text(REFUSED)
    _, walk = lower_game(load_game(tmp_path))
    assert sorted(d.message for d in walk.report.diagnostics) == [
        "not in the native backend yet: a loop over nested_domino",
    ]


FILLED = """
game: {id: filled, players: {min: 2, max: 2}}
boards:
  wall: {kind: square, size: [3, 2], marks: {owner: {initial: none, type: player, visibility: public}}}
counters:
  n: {per: player}
actions:
  claim:
    params: {c: "[x for x in cells(wall) where x.owner == none]"}
    closes_window: true
    do: |
      set c.owner = me
      let free = first(regions(x for x in cells(wall) where x.owner == none))
      gain 10 * count(free) + count([x for x in free where x.y == 0]) n(me)
flow:
  turn:
    phases:
      - {id: main, do: "window p: claim"}
  end_checks:
    - {id: end, when: "turn > 9", end: immediately}
scoring:
  score: n(p)
"""


def test_a_kept_group_of_no_region_fails_alike(tmp_path: Path) -> None:
    """`first(regions(...))` kept: a list of cells while a region is left, then none (the board
    full): native code stops there (E_KIND), and Python replays the decision and reports count of
    none at its rule; every decision before is native and the same."""
    (tmp_path / "game.yaml").write_text(FILLED)
    game = load_game(tmp_path)
    assert lower_game(game)[1].report.diagnostics == []
    py, nat = engines(game)
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, 2, seed) == 5  # the sixth claim fills the board: an error


def test_tile_rotations_counted_by_hand() -> None:
    """The rotations that differ, tabled for native code: a cross whose four road ends are apart
    looks the same every way (1), a straight road two ways, a curve and a dead end four."""
    game = load_game(HERE / "games" / "tilt")
    _, walk = lower_game(game)
    counts, _ = walk.low.tables["TL_RN"]
    got = {c.name: counts[c.id] for c in game.components if c.type == "tile"}
    assert got == {"Cross": 1, "Straight": 2, "Curve": 4, "End": 4}


@pytest.mark.slow  # random games on both backends
def test_tiles_with_sides_random() -> None:
    """tests/native/games/tilt: `rotations`, `fits`, `turned` (a tile's own rotation and one
    given), `side`, `tile_on`, `frontier` and `abs` natively, every decision as Python's; a
    rotation out of range (the `peek` action) is R015 on both backends."""
    game = load_game(HERE / "games" / "tilt")
    _, walk = lower_game(game)
    assert walk.report.diagnostics == []
    py, nat = engines(game)
    ends = [play_both(py, nat, 2, seed) for seed in range(1, 2 * GAMES + 1)]
    assert all(k > 0 for k in ends) and any(k >= 6 for k in ends)
