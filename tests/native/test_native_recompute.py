"""A native state's window computed again (issue 33: runtime/recompute.c `tb_recompute`, the
bridge's recompute.py): on the state's own words, which it leaves as they were, even when native
code stops; named from the step path's table, as the state's own decision; the plain decision it
gives is the caller's to change."""

from __future__ import annotations

import ctypes
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.bridge import NativeGame, NativeState
from tabula.interpreter.compile.native.recompute import AGAIN
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.loading import BUNDLED

DECISIONS = 60  # compared per game


def native(name: str) -> tuple[Engine, NativeGame]:
    eng = Engine(load_game(name), backend="native")
    if eng.native is None:
        pytest.skip(eng.backend_note)
    return eng, eng.native


def packed(nat: NativeGame, st: NativeState) -> bytes:
    """Every word of `st` that is read (runtime tb_pack: the words before the zones, the zones' items,
    the options, the queue and the segment's first state at a choice)."""
    buf = nat.zeroed()
    return ctypes.string_at(buf, 8 * nat.lib.tb_pack(buf, st.words))


@pytest.mark.parametrize("name", sorted(p.name for p in BUNDLED.iterdir() if (p / "game.yaml").exists()))
def test_a_window_is_recomputed_on_the_words_and_leaves_them_as_they_were(name: str) -> None:
    """At every decision of a random game (a phase's window, a window inside a block, a choice,
    the end), the decision recomputed natively is the state's own and the words that are read are
    as before (those the window writes are put back: its options, the decision's words, the work
    left and the words' generation), as are the ids the last step named."""
    eng, nat = native(name)
    st, gen, windows = eng.new_game(2, 3), rng.seed_state(5), 0
    for _ in range(DECISIONS):
        assert isinstance(st, NativeState) and st.plain is None
        before, named = packed(nat, st), st.named
        dec = nat.recompute(st)
        assert packed(nat, st) == before and st.named is named
        if dec is not AGAIN:
            assert dec == nat.plain_decision(st)
            windows += dec is not None
        if eng.is_terminal(st):
            break
        eng.apply_inplace(st, eng.random_choice(st, gen))
    assert windows > 0 or name == "sushi-go"  # (whose every decision is a choice inside an effect)


def test_words_native_code_stops_on_are_put_back() -> None:
    """A window whose options native code stops on (here a player out of range: E_KIND) is the
    Python replay's to recompute, and the words the window wrote before it stopped are put back."""
    eng, nat = native("porta-nigra")
    st, gen = eng.new_game(2, 1), rng.seed_state(1)
    while not nat.window(st):  # type: ignore[arg-type]
        eng.apply_inplace(st, eng.random_choice(st, gen))
    assert isinstance(st, NativeState) and nat.recompute(st) == nat.plain_decision(st)
    st.words[nat.dp] = 7
    before = packed(nat, st)
    assert nat.recompute(st) is AGAIN
    assert packed(nat, st) == before


def scribble(dec: dict[str, Any]) -> None:
    dec["ids"].append("scribbled")
    dec["v"][0][1].append("scribbled")
    dec["v"].append([0, []])
    dec["p"] = 99


def test_a_recomputed_decision_is_the_callers_to_change() -> None:
    """The decision is made of the values kept with its options' ids: each call's lists are new, so
    a caller changing one changes neither the next decision recomputed nor the state's own."""
    py = Engine(load_game("porta-nigra"))
    eng, _ = native("porta-nigra")
    a, b, gen, seen = py.new_game(2, 2), eng.new_game(2, 2), rng.seed_state(2), 0
    for _ in range(30):
        first = eng.recompute_decision(b)
        if first is not None and first["k"] == "window" and first["v"][0][1]:  # (with arguments)
            scribble(first)
            seen += 1
        assert eng.recompute_decision(b) == a["dec"] == eng.plain(b)["dec"]
        cid = py.legal_ids(a)[py.random_choice(a, gen)]
        py.apply_inplace(a, cid)
        eng.apply_inplace(b, cid)
    assert seen > 3


def test_a_loaded_states_ids_are_named_once_and_kept() -> None:
    """A loaded save's words get a generation of their own (runtime tb_ticket): its ids, named
    when first asked for, are kept with it as a step's are (words of generation 0 were named again
    at every ask), and answering by one of them plays the game Python plays."""
    py = Engine(load_game("porta-nigra"))
    eng, _ = native("porta-nigra")
    a, b, gen, checked = py.new_game(2, 6), eng.new_game(2, 6), rng.seed_state(6), 0
    for _ in range(40):
        cid = py.legal_ids(a)[py.random_choice(a, gen)]
        py.apply_inplace(a, cid)
        eng.apply_inplace(b, cid)
        loaded = eng.from_json(eng.to_json(b))
        if not isinstance(loaded, NativeState) or py.is_terminal(a):  # (a choice loads plain)
            continue
        assert loaded.named is None
        assert eng.legal_ids(loaded) == py.legal_ids(a) and loaded.named is not None
        nxt = py.legal_ids(a)[-1]
        eng.apply_inplace(loaded, nxt)
        assert eng.hash(loaded) == py.hash(py.apply(a, nxt))
        checked += 1
    assert checked > 5
