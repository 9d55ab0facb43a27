"""The step-by-step path on the native backend (issue 33): choices applied by id, legal ids, views,
hashes, recomputed decisions and clones give what the Python backend gives, decision by decision,
in random games of Glory to Rome and Porta Nigra; clones are independent of their original and of
each other (their words are reused once dropped: NativeState.pool)."""

from __future__ import annotations

import gc
import os
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.bridge import NativeState
from tabula.interpreter.compile.native.lowering import stops
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import Engine, load_game

GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "2"))
LIMIT = 120  # decisions compared per game (views of every seat at each: the Python side is slow)
_ENGINES: dict[str, tuple[Engine, Engine]] = {}


def engines(name: str) -> tuple[Engine, Engine]:
    if name not in _ENGINES:
        game = load_game(name)
        native = Engine(game, backend="native")
        assert native.backend == "native", native.backend_note
        _ENGINES[name] = (Engine(game), native)
    return _ENGINES[name]


def step_both(py: Engine, nat: Engine, players: int, seed: int) -> int:
    """One random game, applied by id on both backends; compared at every decision. The windows
    recomputed natively (at a phase's top or inside a block) are counted."""
    a, b = py.new_game(players, seed), nat.new_game(players, seed)
    assert isinstance(b, NativeState)
    gen = rng.seed_state(seed + 0xB07)
    native_windows = 0
    for k in range(LIMIT):
        ids = py.legal_ids(a)
        assert nat.legal_ids(b) == ids, (seed, k)
        assert nat.hash(b) == py.hash(a), (seed, k)
        assert nat.legal_actions(b) == py.legal_actions(a), (seed, k)
        for seat in range(players):
            assert nat.view(b, seat) == py.view(a, seat), (seed, k, seat)
        assert nat.recompute_decision(b) == a["dec"], (seed, k)
        native_windows += nat.native is not None and nat.native.window(b) and b.plain is None
        if py.is_terminal(a):
            assert nat.is_terminal(b)
            break
        cid = ids[py.random_choice(a, gen)]
        before = nat.hash(b)
        twin = nat.clone(b)
        py.apply_inplace(a, cid)
        nat.apply_inplace(b, cid)
        assert nat.hash(twin) == before, (seed, k)  # the clone did not move with its original
        nat.apply_inplace(twin, cid)
        assert nat.hash(twin) == nat.hash(b) == py.hash(a), (seed, k)
    return native_windows


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", ["glory-to-rome", "porta-nigra"])
def test_steps_by_id_match_python(name: str, players: int) -> None:
    py, nat = engines(name)
    windows = sum(step_both(py, nat, players, seed) for seed in range(1, GAMES + 1))
    assert windows > 0  # some decisions were windows recomputed in native code


def test_the_phases_that_may_stop_are_found_through_calls() -> None:
    """lowering/stops.py: the phases whose start is a checkpoint. Every phase of both games that
    stops does so through a procedure or a trigger only (no `choose` in its own statements)."""
    for name, want in (("glory-to-rome", [0, 1, 1, 1, 1]), ("porta-nigra", [0, 1, 0])):
        prog, _ = lower_game(load_game(name))
        assert stops.phase_stops(prog) == want, name


@pytest.mark.parametrize("name", ["glory-to-rome", "porta-nigra"])
def test_segments_without_phase_checkpoints_are_the_same_game(name: str, monkeypatch: Any) -> None:
    """A skipped checkpoint leaves the segment's first state at the checkpoint before, its answers
    queued: built with no phase start kept (PHASE_STOPS all 0), every stop replays from further
    back (recomputed decisions, views at choices and clones stepped replay it) and gives the game
    Python gives, decision by decision."""
    monkeypatch.setattr(stops, "phase_stops", lambda prog: [0] * len(prog.phases or []))
    game = load_game(name)
    nat = Engine(game, backend="native")
    assert nat.backend == "native", nat.backend_note
    for seed in range(1, GAMES + 1):
        step_both(engines(name)[0], nat, 2, seed)


def walk(nat: Engine, players: int, seed: int, n: int) -> list[Any]:
    """The first `n` states of a random game on the native backend, as clones."""
    st, gen, out = nat.new_game(players, seed), rng.seed_state(seed), []
    while len(out) < n and not nat.is_terminal(st):
        out.append(nat.clone(st))
        nat.apply_inplace(st, nat.random_choice(st, gen))
    return out


@pytest.mark.parametrize("name", ["glory-to-rome", "porta-nigra"])
def test_clones_reuse_dropped_words_and_stay_independent(name: str) -> None:
    py, nat = engines(name)
    assert nat.native is not None
    states = walk(nat, 3, 7, 40)
    hashes = [nat.hash(s) for s in states]
    plain = [py.from_json(nat.to_json(s)) for s in states]
    # without dropped words to copy into, a clone is kept packed; a clone of it shares its bytes
    nat.native.pool.clear()
    packed = nat.clone(states[-1])
    assert isinstance(packed, NativeState) and packed.packed is not None
    twin = nat.clone(packed)
    assert isinstance(twin, NativeState) and twin.packed is packed.packed
    assert nat.hash(twin) == hashes[-1] and twin.packed is None  # its words made when read
    # clones of clones, their words made, dropped at once: the words go back to the pool and are
    # written over
    for _ in range(3):
        for s in states:
            made = nat.clone(nat.clone(s))
            assert isinstance(made, NativeState) and made.words is not None
            del made
    gc.collect()
    assert nat.native.pool  # the dropped clones' words are kept for the next ones
    again = [nat.clone(s) for s in states]
    assert [nat.hash(s) for s in again] == hashes
    assert [nat.hash(s) for s in states] == hashes
    assert [py.hash(s) for s in plain] == hashes
    # a clone that goes on is a game of its own (and so is its original)
    gen = rng.seed_state(3)
    for s in again:
        if not nat.is_terminal(s):
            nat.apply_inplace(s, nat.random_choice(s, gen))
    assert [nat.hash(s) for s in states] == hashes


def test_words_held_elsewhere_are_not_reused() -> None:
    """A dropped state whose words something else still holds does not give them to the pool."""
    _, nat = engines("porta-nigra")
    assert nat.native is not None
    st = nat.new_game(2, 1)
    twin = nat.clone(st)
    assert isinstance(twin, NativeState)
    held = twin.words
    nat.native.pool.clear()
    del twin
    gc.collect()
    assert all(w is not held for w in nat.native.pool)


def test_a_stepped_state_gives_its_words_back() -> None:
    """A state stepped by id (its words read through its int64 view, applied by address) gives
    its words to the pool when dropped: the view it keeps is released first."""
    _, nat = engines("porta-nigra")
    assert nat.native is not None
    st = nat.clone(nat.new_game(2, 1))
    assert isinstance(st, NativeState)
    for _ in range(3):
        nat.apply_inplace(st, nat.legal_ids(st)[0])
    assert not nat.is_terminal(st) and st.view is not None and st.addr
    words = id(st.words)  # (not the words: held here, they would not be given back)
    nat.native.pool.clear()
    del st
    gc.collect()
    assert [id(w) for w in nat.native.pool] == [words]


def test_legal_ids_are_the_callers_to_change() -> None:
    """The ids of a decision named in the step's call are kept for the next apply by id: the list
    `legal_ids` returns is the caller's own (changing it changes neither the next answer nor the
    ids asked for again)."""
    py, nat = engines("porta-nigra")
    a, b = py.new_game(2, 3), nat.new_game(2, 3)
    for _ in range(6):
        ids = nat.legal_ids(b)
        first = ids[0]
        ids.reverse()
        ids.append("scribbled")
        assert nat.legal_ids(b) == py.legal_ids(a)
        py.apply_inplace(a, first)
        nat.apply_inplace(b, first)
        assert nat.hash(b) == py.hash(a)


def test_an_id_is_found_among_the_ids_of_the_words_as_they_stand() -> None:
    """An answer by id is looked up in the ids named last only while the words are those they were
    named for (their generation): words put in place otherwise (as a logged answer, stepped on
    Python, puts them back) have their ids named again, though the stale ids hold the same id at
    another index."""
    _, nat = engines("porta-nigra")
    st, gen, seen = nat.new_game(2, 4), rng.seed_state(11), []
    while not nat.is_terminal(st) and len(seen) < 80:
        seen.append((nat.clone(st), nat.legal_ids(st)))
        nat.apply_inplace(st, nat.random_choice(st, gen))
    pairs = [
        (first, later, cid)
        for first, (_, ids) in enumerate(seen)
        for later, (_, now) in enumerate(seen[first + 1 :], first + 1)
        for k, cid in enumerate(now)
        if cid in ids and ids.index(cid) != k
    ]
    assert len(pairs) >= 5
    for first, later, cid in pairs[:: len(pairs) // 5]:
        b, want = nat.clone(seen[first][0]), nat.clone(seen[later][0])
        assert isinstance(b, NativeState) and nat.legal_ids(b) == seen[first][1] and b.named is not None
        b.words = nat.clone(want).words  # type: ignore[attr-defined]  # (the ids named for `first` kept)
        nat.apply_inplace(want, cid)
        nat.apply_inplace(b, cid)
        assert nat.hash(b) == nat.hash(want), (first, later, cid)


def test_an_id_named_twice_answers_its_first_option() -> None:
    """An id that names two options answers the first (Named.index, and the scan Namer.step writes
    out for a few ids): the ids the step named are given a duplicate, and the answer by that id is
    the first option's, not the later one's."""
    from tabula.interpreter.compile.native.naming import Named

    _, nat = engines("porta-nigra")
    st, gen, checked = nat.new_game(2, 5), rng.seed_state(12), 0
    while not nat.is_terminal(st) and checked < 4:
        ids = nat.legal_ids(st)
        assert isinstance(st, NativeState) and st.named is not None
        if 3 <= len(ids) <= 16:  # (a few ids: the scan; more are looked up by Named.index)
            outcomes = [nat.apply(st, k) for k in (0, len(ids) - 1)]
            if nat.hash(outcomes[0]) != nat.hash(outcomes[1]):  # the two options differ
                b = nat.clone(st)
                assert nat.legal_ids(b) == ids and b.named is not None  # type: ignore[attr-defined]
                b.named = (b.named[0], Named([*ids[:-1], ids[0]]))  # type: ignore[attr-defined]
                nat.apply_inplace(b, ids[0])
                assert nat.hash(b) == nat.hash(outcomes[0])
                checked += 1
        nat.apply_inplace(st, nat.random_choice(st, gen))
    assert checked == 4


def test_windows_recomputed_in_the_scratch_words_are_named_for_their_own_players() -> None:
    """A window recomputed natively is named in the bridge's scratch words, a state kept between
    calls: with the players' names of the state asked about, not of the one asked before it."""
    game = load_game(os.path.join(os.path.dirname(__file__), "games", "clues"))
    py, nat = Engine(game), Engine(game, backend="native")
    pairs = [(py.new_game(names, 2), nat.new_game(names, 2)) for names in (["Ann", "Bo"], ["Cy", "Di"])]
    gen, named = rng.seed_state(3), 0
    for _ in range(12):
        for a, b in pairs:
            if py.is_terminal(a):
                continue
            assert nat.recompute_decision(b) == a["dec"]
            named += any(n in cid for cid in a["dec"]["ids"] for n in a["names"])
            cid = py.legal_ids(a)[py.random_choice(a, gen)]
            py.apply_inplace(a, cid)
            nat.apply_inplace(b, cid)
    assert named > 4


def test_names_named_in_python_step_by_tb_apply() -> None:
    """Players' names tb_ids cannot write (a NUL in one) are stepped by tb_apply alone, their ids
    named by Python when asked: the same game as on Python."""
    py, nat = engines("porta-nigra")
    names = ["a\0b", "c"]
    a, b = py.new_game(names, 5), nat.new_game(names, 5)
    assert isinstance(b, NativeState) and b.plain is None
    for _ in range(8):
        ids = py.legal_ids(a)
        assert nat.legal_ids(b) == ids
        py.apply_inplace(a, ids[-1])
        nat.apply_inplace(b, ids[-1])
        assert nat.hash(b) == py.hash(a)
    assert b.plain is None


def test_an_unknown_id_is_refused_with_the_legal_ones() -> None:
    from tabula.interpreter.engine import IllegalChoice

    _, nat = engines("porta-nigra")
    st = nat.new_game(2, 1)
    with pytest.raises(IllegalChoice, match="legal now"):
        nat.apply_inplace(st, "no-such-action")


@pytest.mark.parametrize("players", [2, 4])
def test_a_window_inside_a_block_is_recomputed_from_the_words(players: int) -> None:
    """Glory to Rome poses most of its windows inside a block: their options computed again from
    the state's words (runtime tb_reoffer_inner, no replay of the segment) are the decision the
    Python backend poses there, for the state stepped (suspended) and for its clone."""
    py, eng = engines("glory-to-rome")
    nat = eng.native
    assert nat is not None
    a, b = py.new_game(players, 7), eng.new_game(players, 7)
    assert isinstance(b, NativeState)
    gen, inner = rng.seed_state(7), 0
    while not py.is_terminal(a):
        if nat.choosing(b) and nat.window(b):
            assert nat.recompute(b) == a["dec"]  # (not AGAIN: recomputed natively)
            twin = eng.clone(b)
            assert isinstance(twin, NativeState) and nat.recompute(twin) == a["dec"]
            inner += 1
        k = py.random_choice(a, gen)
        py.apply_inplace(a, k)
        eng.apply_inplace(b, k)
    assert inner > 10
