"""Boards that grow on the native backend (issues 33 and 37): tests/games/sprawl and the fixture game
tests/native/games/spread played on both backends decision by decision (the same cells added, the
same ids and state hashes), whole native playouts against Python's, R003 past `max_cells` and R015
for a cell not added yet on both backends, and a state's index of cells built again after the
state went through plain data."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from test_native_equivalence import engines, play_both

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import semantic_hash
from tabula.interpreter.run.runtime import GameRuntimeError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SPRAWL = ROOT / "tests" / "games" / "sprawl"
SPREAD = HERE / "games" / "spread"
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))


def replays(nat: Engine) -> list[int]:
    """The error numbers of the decisions native code stopped on (replayed on Python), as they come."""
    codes: list[int] = []
    real = nat._native_failed

    def spy(ns: Any, idx: int, code: int) -> None:
        codes.append(code)
        real(ns, idx, code)

    nat._native_failed = spy  # type: ignore[method-assign]
    return codes


@pytest.mark.parametrize("where", [SPRAWL, SPREAD], ids=["sprawl", "spread"])
def test_held_natively(where: Path) -> None:
    """`check --native` says supported: nothing left to Python."""
    _, walk = lower_game(load_game(where))
    assert [d.message for d in walk.report.diagnostics] == []


@pytest.mark.slow  # GAMES whole games on both backends, and their playouts
def test_sprawl_random_games() -> None:
    """Every decision compared, and none of them replayed on Python: native code grew the board."""
    py, nat = engines(load_game(SPRAWL))
    codes = replays(nat)
    decisions = 0
    for seed in range(1, GAMES + 1):
        decisions += play_both(py, nat, 2, seed)
        a, b = py.new_game(2, seed), nat.new_game(2, seed)
        ga, gb = rng.seed_state(seed), rng.seed_state(seed)
        assert py.playout(a, ga) == nat.playout(b, gb)
        assert ga == gb and nat.plain(b) == a
    assert codes == [] and decisions >= 5 * GAMES


def test_sprawl_cells_named_as_added() -> None:
    """The first tile goes on table1 at [0, 0] and adds table2..table5 round it, n e s w."""
    py, nat = engines(load_game(SPRAWL))
    a, b = py.new_game(2, 1), nat.new_game(2, 1)
    assert nat.legal_ids(b) == py.legal_ids(a) == ["lay:table1"]
    py.apply_inplace(a, 0)
    nat.apply_inplace(b, 0)
    st = nat.plain(b)
    assert semantic_hash(st) == semantic_hash(a)
    cells = [c.id for c in nat.game.components if c.type == "table"]
    assert [(st["m"]["x"][c], st["m"]["y"][c]) for c in cells[:6]] == [
        (0, 0),
        (0, -1),
        (1, 0),
        (0, 1),
        (-1, 0),
        (None, None),
    ]
    assert nat.legal_ids(b) == py.legal_ids(a) == ["lay:table2", "lay:table5", "lay:table3", "lay:table4"]


@pytest.mark.slow  # 2 x 3 GAMES whole games on both backends
@pytest.mark.parametrize("players", [2, 3])
def test_spread_random_games(players: int) -> None:
    """Two boards that grow: the same decisions, ids and states on both backends; the games that
    fail (R003 on the hex board, R015 onto a cell not added) fail alike (play_both checks it), and
    native code stops only there."""
    py, nat = engines(load_game(SPREAD))
    codes = replays(nat)
    failed: Counter[str] = Counter()
    for seed in range(1, 3 * GAMES + 1):
        play_both(py, nat, players, seed)
        a = py.new_game(players, seed)
        gen = rng.seed_state(seed + 0xB07)
        try:
            while not py.is_terminal(a):  # the same game again, to learn how it ended
                py.apply_inplace(a, py.random_choice(a, gen))
        except GameRuntimeError as err:
            failed[err.code or ""] += 1
    assert set(failed) == {"R003", "R015"}
    assert len(codes) == sum(failed.values())  # the failing decisions alone were replayed


def _hive_until_full(e: Engine) -> GameRuntimeError:
    """Stones on the hex board (12 cells) whenever `hive` may be played, else on the yard: the
    third on the hex board needs more cells than it has."""
    st = e.new_game(2, 4)
    for _ in range(40):
        ids = e.legal_ids(st)
        pick = next((i for i, x in enumerate(ids) if x.startswith("hive:")), None)
        if pick is None:
            pick = next(i for i, x in enumerate(ids) if x.startswith("put:"))
        try:
            e.apply_inplace(st, pick)
        except GameRuntimeError as err:
            return err
    raise AssertionError("the hex board never filled")


def test_past_max_cells_is_r003_on_both() -> None:
    py, nat = engines(load_game(SPREAD))
    codes = replays(nat)
    a, b = _hive_until_full(py), _hive_until_full(nat)
    assert a.code == b.code == "R003" and "comb" in a.message
    assert (b.message, b.span) == (a.message, a.span)
    assert codes == [9]  # native code stopped (E_WRITE) and Python said why


def test_index_built_again_from_plain_data() -> None:
    """A native state made from plain data holds no index of its cells: the first lookup builds it."""
    py, nat = engines(load_game(SPREAD))
    a, b = py.new_game(2, 3), nat.new_game(2, 3)
    gen = rng.seed_state(99)
    for _ in range(6):
        i = py.random_choice(a, gen)
        py.apply_inplace(a, i)
        nat.apply_inplace(b, i)
    assert nat.native is not None
    again = nat.native.from_plain(nat.plain(b))
    assert list(again.words) != list(b.words)  # the index is not in plain data
    assert nat.legal_ids(again) == nat.legal_ids(b) == py.legal_ids(a)
    for k in range(len(py.legal_ids(a))):
        x, y, z = py.clone(a), nat.clone(again), nat.clone(b)
        py.apply_inplace(x, k)
        nat.apply_inplace(y, k)
        nat.apply_inplace(z, k)
        assert semantic_hash(nat.plain(y)) == semantic_hash(nat.plain(z)) == semantic_hash(x)


@pytest.mark.slow  # the variant built, GAMES games on both backends
def test_tiles_on_a_board_that_grows() -> None:
    """tests/native/games/tilt with `--variant open` (its table grows): `fits` and `side` read the
    cell across each side from the cells added so far; only `peek`'s R015 is replayed."""
    game = load_game(HERE / "games" / "tilt", variant="open")
    _, walk = lower_game(game)
    assert walk.report.diagnostics == []
    py, nat = engines(game)
    codes = replays(nat)
    played = [play_both(py, nat, 2, seed) for seed in range(1, GAMES + 1)]
    assert max(played) == 9  # every tile laid
    assert set(codes) <= {4} and len(codes) == played.count(2)  # `peek` on the third turn: R015


BIG = """
game: {id: big, name: Big, players: {min: 2, max: 2}}
boards:
  land: {kind: square, grows: true, max_cells: 3000, holds: {}}
components:
  stone: {instances: [{name: S, copies: 10}]}
zones:
  pool: {visibility: public}
actions:
  lay:
    params: {c: frontier(land)}
    closes_window: true
    do: move top(pool) to on_land(c)
flow:
  setup: |
    for s in stone:
      move s to pool
  turn:
    phases:
      - {id: main, do: "window p: lay"}
  end_checks:
    - {id: done, when: turn >= 5, end: immediately}
"""


@pytest.mark.slow  # a board of 3,000 cells loaded and lowered
def test_a_state_of_gigabytes_is_refused(tmp_path: Path) -> None:
    """3,001 zones of room for 3,010 components: 9M words (72 MB) a state, past MAX_ZONE_WORDS."""
    (tmp_path / "game.yaml").write_text(BIG)
    _, walk = lower_game(load_game(tmp_path))
    assert [d.message for d in walk.report.diagnostics] == [
        "past the native state's room (8,388,608 zone words, 64 MB): 3001 zones of room for 3010"
        " components each: 9,033,010 words, 68 MB"
    ]
    assert "fewer zones" in (walk.report.diagnostics[0].hint or "")
    assert walk.report.diagnostics[0].span.line == 4
