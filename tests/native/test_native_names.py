"""Choice ids of native words named in C (runtime/names.c, compile/native/naming.py) against the
Python backend's naming of the same decoded options, at every decision of random games of fixture
games holding each kind of column: components (with keys where two share a name), players,
numbers, symbols, flags, and a column C leaves to Python (a place on a board)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.naming import PY_TYPES, choice_ids
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.choices import option_ids

HERE = Path(__file__).resolve().parent


def python_ids(eng: Engine, st: object) -> list[str]:
    """The pending ids as the bridge names them in Python (its fallback)."""
    nat = eng.native
    assert nat is not None
    dec = nat.decision(st)  # type: ignore[arg-type]
    assert dec is not None
    w = st.words  # type: ignore[attr-defined]
    if w[nat.dk] == 2 and w[nat.dsite] >= 0:
        ty = nat.sites[w[nat.dsite]][0]
        return option_ids(nat.g, st.names, [v for _, v in dec[1]], PY_TYPES.get(ty, ty))  # type: ignore[attr-defined]
    return choice_ids(nat.g, dec[1], st.names)  # type: ignore[attr-defined]


@pytest.mark.slow  # (a fixture game's library built when not cached)
@pytest.mark.parametrize(
    ("game", "by_python"),
    [("pick", False), ("clues", False), ("pair", False), ("quilt", True), ("glory-to-rome", False)],
)
def test_ids_named_in_c_are_pythons(game: str, by_python: bool) -> None:
    where = game if "-" in game else HERE / "games" / game
    eng = Engine(load_game(where), backend="native")
    nat = eng.native
    assert nat is not None
    named = {"c": 0, "python": 0, "keys": 0}
    for seed in range(1, 4):
        st = eng.new_game(["Ann", "Bo Ré"], seed)  # (a name of two words, not ASCII)
        gen = rng.seed_state(seed)
        while not eng.is_terminal(st):
            got = nat.namer.ids(st.words, st.names)  # type: ignore[attr-defined]
            want = python_ids(eng, st)
            named["c" if got is not None else "python"] += 1
            named["keys"] += any("#" in i for i in want)
            assert got is None or got == want
            assert eng.legal_ids(st) == want
            eng.apply_inplace(st, want[rng.below(gen, len(want))])
    assert named["c"] > 0
    assert (named["python"] > 0) == by_python


@pytest.mark.slow  # (Glory to Rome's library built when not cached)
def test_step_keeps_the_ids_c_names_across_a_full_table() -> None:
    """A step by id names the next decision in the same call (runtime tb_step, naming.py
    `Namer.step`), keeping each options' ids by their entry in a table that starts again when full:
    the ids kept are those tb_ids names for the words, before and after the table starts again."""
    eng = Engine(load_game("glory-to-rome"), backend="native")
    nat = eng.native
    assert nat is not None
    used, restarted, seed = 0, 0, 0
    while restarted < 2 and seed < 2000:  # (about 200 games fill the table)
        seed += 1
        st = eng.new_game(2, seed)
        gen = rng.seed_state(seed)
        while not eng.is_terminal(st):
            ids = eng.legal_ids(st)
            assert ids == nat.namer.ids(st.words, st.names)  # type: ignore[attr-defined]
            eng.apply_inplace(st, ids[rng.below(gen, len(ids))])
            ctx = nat.namer._for(st.names)  # type: ignore[attr-defined]
            assert ctx is not None
            restarted += ctx.tab[0] < used  # (names.c NT_USED: the entries in the table)
            used = ctx.tab[0]
    assert restarted == 2
