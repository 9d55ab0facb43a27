"""A var of type `any` given a number and a list on the native backend (issue 33): its kind word,
its number and its list (slots.py), each read checked where its use wants one kind (lowering/lists.py
`wanted`, emit/cgen.py `two_read`), played by the fixture tests/native/games/twokinds against the
Python backend, decision by decision; a read of the other kind stops native code (E_KIND) and
Python replays the decision (failing as it fails, or going on); a read whose use does not say
which kind is refused (N001)."""

from __future__ import annotations

import os
from pathlib import Path

from test_native_equivalence import engines, play_both

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.backend import c_source
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import load_game

HERE = Path(__file__).resolve().parent
TWOKINDS = HERE / "games" / "twokinds"
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))
E_KIND = 4  # runtime/tabula.h
NOT_YET = "not in the native backend yet: "


def test_a_number_then_a_list_then_a_number_random_games() -> None:
    """`seen` a number, a list past 4, a number again; `last` (per player) none, a number or a
    list: read in conditions, effects and the scoring, every decision the same on both backends,
    the plain state (a number or a list) Python's and read back from it (saves), and whole native
    playouts (which stop at nothing: every read is of the kind held) end as the Python ones."""
    loaded = load_game(TWOKINDS)
    _, walk = lower_game(loaded)
    assert walk.report.diagnostics == []
    py, nat = engines(loaded)
    lib = nat.native
    assert lib is not None
    kinds: set[str] = set()
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, 2, seed) == 24
        a, b = py.new_game(2, seed), nat.new_game(2, seed)
        gen = rng.seed_state(seed)
        while not py.is_terminal(a):  # the plain state read back into native words, as saves are
            assert nat.plain(lib.from_plain(a)) == a
            kinds.add(type(a["v"]["seen"]).__name__)
            i = py.random_choice(a, gen)
            py.apply_inplace(a, i)
        a, b = py.new_game(2, seed), nat.new_game(2, seed)
        taken, stopped = lib.playout(b, rng.seed_state(seed), 10**9, 10**6)
        assert (taken, stopped) == (24, 0)  # native code played every decision
        py.playout(a, rng.seed_state(seed))
        assert nat.plain(b) == a and nat.scores(b) == py.scores(a)
        loaded = nat.from_json(nat.to_json(b))  # a save written from native words loads back into them
        assert type(loaded).__name__ == "NativeState" and nat.plain(loaded) == a
    assert kinds == {"int", "list"}


def small(name: str, params: str, do: str, last: int, score: str = "score(p)") -> str:
    """A game of one action `bump` (`params`, `do`) of a var `seen` of type any starting as 0,
    played until turn `last`."""
    body = "".join(f"      {line}\n" for line in do.strip().splitlines())
    return f"""
game: {{id: {name}, players: {{min: 2, max: 2}}}}
counters:
  score: {{per: player}}
vars:
  seen: {{initial: 0, type: any}}
actions:
  bump:
    params: {params}
    closes_window: true
    do: |
{body}flow:
  turn:
    player: (turn) % num_players
    phases:
      - {{id: main, do: "window p: bump"}}
  end_checks:
    - {{id: long, when: "turn >= {last}", end: immediately}}
scoring:
  score: "{score}"
"""


MISREAD = small(
    "misread",
    '{x: "[1, 2]"}',
    """
if turn == 3:
  set seen = [x]
if turn == 5 and x == 2:
  set seen = x
if seen == 1:
  gain 1 score(me)
if turn == 6:
  gain seen score(me)
""",
    8,
)


def test_a_read_of_the_other_kind_goes_on_in_python(tmp_path: Path) -> None:
    """`seen == 1` while `seen` holds a list is false in Python: native code stops there (E_KIND)
    and Python plays the decision; `gain seen` of a list fails in Python, and the native engine
    reports the same error, located."""
    (tmp_path / "game.yaml").write_text(MISREAD)
    py, nat = engines(load_game(tmp_path))
    lib = nat.native
    assert lib is not None
    stops, failed = 0, 0
    for seed in range(1, GAMES + 1):
        failed += play_both(py, nat, 2, seed) < 8
        _, stopped = lib.playout(nat.new_game(2, seed), rng.seed_state(seed), 10**9, 10**6)
        stops += stopped == E_KIND
    assert stops > 0 and failed > 0


UNCHOSEN = small(
    "unchosen",
    "{}",
    """
set seen = [1]
let kept = seen
set seen = 2
""",
    4,
    "score(p) + (1 if seen == seen else 0)",
)


def test_a_read_whose_use_does_not_say_which_kind_is_refused(tmp_path: Path) -> None:
    """`let kept = seen` keeps the value whole and `seen == seen` compares two such values: native
    code cannot tell which word to read, N001 says so (at the `let`, at the var) and what to do;
    the game runs on the Python backend."""
    (tmp_path / "game.yaml").write_text(UNCHOSEN)
    _, walk = lower_game(load_game(tmp_path))
    found = sorted((d.code, d.span.line if d.span else 0, d.message) for d in walk.report.diagnostics)
    whole = "var 'seen' of type any, a number or a list, read where its use does not say which"
    assert found == [
        ("N001", 6, NOT_YET + whole),
        ("N001", 13, f"{NOT_YET}a 'let' holding number or list (a var of type any read whole)"),
    ]
    assert all(d.hint and d.hint.startswith("use it where its kind shows") for d in walk.report.diagnostics)
    source, _ = c_source(load_game(tmp_path))
    assert source is None
