"""Tile features on the native backend (issues 33/37): `feature`, `features`, `open_ends`, sides
split into parts, the side names as texts. tests/games/edges, tests/games/turned and Carcassonne
(base, and with farmers) are played on both backends, decision by decision (ids, state hashes,
every seat's view), and Carcassonne's and Edges' scenarios pass with `--backend native`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_native_equivalence import engines, play_both
from test_native_visibility import views_agree

from tabula.cli.main import main
from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.bridge import NativeState
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import Engine, load_game

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))
EDGES, TURNED = ROOT / "tests" / "games" / "edges", ROOT / "tests" / "games" / "turned"
CARCASSONNE = ROOT / "gamedefs" / "carcassonne"


HELD = [
    (EDGES, {}),
    (TURNED, {}),
    (TURNED, {"shown": False}),
    (CARCASSONNE, {}),
    (CARCASSONNE, {"farmers": True}),
]


@pytest.mark.slow  # each game loaded and lowered
@pytest.mark.parametrize(("folder", "options"), HELD)
def test_nothing_left(folder: Path, options: dict[str, Any]) -> None:
    _, walk = lower_game(load_game(folder, options=options or None))
    assert [d.message for d in walk.report.diagnostics] == []


@pytest.mark.slow  # random games on both backends
@pytest.mark.parametrize(("folder", "options"), [(EDGES, {}), (TURNED, {}), (TURNED, {"shown": False})])
def test_small_tile_games_random(folder: Path, options: dict[str, Any]) -> None:
    """Edges (features of roads, closed ones scored) and Turned (two windows in its phase, a side
    named by a text): every decision as Python's, every view equal, nothing replayed on Python."""
    py, nat = engines(load_game(folder, options=options or None))
    ends = [play_both(py, nat, 2, seed) for seed in range(1, GAMES + 1)]
    assert all(k > 0 for k in ends)
    for seed in range(1, 4):
        seen = views_agree(py, nat, 2, seed)
        assert seen["decisions"] > 0 and seen["on_python"] == 0


def _native_scores(nat: Engine, players: int, seed: int) -> list[int]:
    """A random game played through the API; no decision may be replayed on Python."""
    st = nat.new_game(players, seed)
    gen = rng.seed_state(seed)
    while not nat.is_terminal(st):
        nat.apply_inplace(st, nat.random_choice(st, gen))
    return nat.scores(st)


@pytest.fixture
def no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    def replayed(self: Engine, ns: NativeState, idx: int, code: int) -> None:
        raise AssertionError(f"native code stopped with error {code}: the decision replayed on Python")

    monkeypatch.setattr(Engine, "_native_failed", replayed)


@pytest.mark.slow  # random games
def test_edges_scores_some_closed_roads(no_replay: None) -> None:
    """Roads closed at both ends score in some of the games (a feature walked, open ends
    counted, `distinct` of features): not only zeros."""
    _, nat = engines(load_game(EDGES))
    assert any(sum(_native_scores(nat, 2, seed)) > 0 for seed in range(1, 11))


@pytest.mark.slow  # whole Carcassonne games on both backends (about 10 s of CPU each)
@pytest.mark.parametrize("farmers", [False, True])
def test_carcassonne_random(farmers: bool) -> None:
    """Carcassonne, base game and farmers: every decision as Python's (ids, hashes, frames, scores)."""
    py, nat = engines(load_game(CARCASSONNE, options={"farmers": True} if farmers else None))
    for seed in range(1, max(2, GAMES // 5) + 1):
        assert play_both(py, nat, 2 + seed % 2, seed) > 100


@pytest.mark.slow  # whole games in native code
@pytest.mark.parametrize("farmers", [False, True])
def test_carcassonne_playouts_stay_native(farmers: bool, no_replay: None) -> None:
    """Random Carcassonne games played through the API: no decision replayed on Python (no
    feature list too long, the interned features never full), and some points scored."""
    _, nat = engines(load_game(CARCASSONNE, options={"farmers": True} if farmers else None))
    for seed in range(1, 11):
        assert sum(_native_scores(nat, 2 + seed % 4, seed)) > 0


@pytest.mark.slow  # the scenarios run on the native backend
@pytest.mark.parametrize("folder", [EDGES, CARCASSONNE])
def test_scenarios_pass_native(folder: Path) -> None:
    assert main(["verify", str(folder), "--backend", "native"]) == 0


REFUSED = """
game: {id: kept, name: Kept, players: {min: 2, max: 2}}
boards:
  table: {kind: square, size: [2, 2], holds: {}}
components:
  tile:
    sides: {}
    properties: {sides: list}
    instances:
      - {name: Plain, sides: [road, road, field, field], copies: 4}
zones:
  stack: {ordered: true, visibility: public}
vars:
  last: {initial: none, type: any, visibility: public}
actions:
  lay:
    params: {at: cells(table)}
    when: tile_on(at) == none
    closes_window: true
    do: |
      move top(stack) to on_table(at)
      set last = feature(at, 'n')
flow:
  setup: |
    for t in tile:
      move t to stack
  turn:
    player: (turn) % num_players
    phases:
      - id: main
        do: |
          window p: lay
  end_checks:
    - {id: done, when: count(stack) == 0, end: immediately}
scoring:
  score: 0
"""


def test_a_feature_kept_in_the_state_is_refused(tmp_path: Path) -> None:
    """A feature is a number of one run of native code: kept in a var, N001 says so."""
    (tmp_path / "game.yaml").write_text(REFUSED)
    _, walk = lower_game(load_game(tmp_path))
    assert [d.message for d in walk.report.diagnostics] == [
        "not in the native backend yet: a feat (of tile features) kept in the state"
    ]


def test_texts_of_the_rules_become_symbols_after_the_game_s() -> None:
    """Turned's side names and Carcassonne's 'c' are symbols numbered after every symbol the game
    declares (the numbers of those do not move), and the tiles' part names are symbols."""
    game = load_game(CARCASSONNE)
    _, walk = lower_game(game)
    symbols = walk.low.symbols
    assert "c" in symbols and symbols.index("c") > symbols.index("road")
    assert {"n1", "n", "n2", "w2"} <= set(symbols)


@pytest.mark.slow  # Carcassonne loaded and lowered
def test_parts_tabled_as_counted_by_hand() -> None:
    """Carcassonne's tile D (city, road, field, road; a road side is field|road|field) turned once:
    the parts facing n1 n n2 e1 ... w2 are the west side's, then the north's (its city), and so on;
    its groups (joins) are the city, the road e-w, the field north of it and the field south."""
    game = load_game(CARCASSONNE)
    _, walk = lower_game(game)
    low = walk.low
    (width, room), _ = low.tables["TL_W"]
    d = next(c for c in game.components if c.name == "D")
    row = low.tables["TL_S"][0][(d.id * room + 1) * width :][:12]
    assert [low.symbols[s] for s in row] == ["field", "road", "field", *["city"] * 3, "field", "road"] + [
        "field"
    ] * 4
    groups = low.tables["TL_G"][0][d.id * room * width :][:12]  # not turned: n1 n n2 e1 e e2 ... w2
    city, road, north, south = groups[0], groups[4], groups[3], groups[5]
    assert groups == [city] * 3 + [north, road, south] + [south] * 3 + [south, road, north]
    assert len({city, road, north, south}) == 4
