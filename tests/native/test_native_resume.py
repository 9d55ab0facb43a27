"""A decision inside an effect resumed, not replayed (runtime/segments.c, issue 33): a state stepped
once goes on from its suspended C frames, and its words are those the replay of its segment from
SNAP gives (the fallback of a clone, a state from plain data, past CO_MAX suspended segments);
a dropped state frees its segment. Native-only runs, compared word by word: cheap."""

from __future__ import annotations

import ctypes
import gc
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.bridge import NativeGame, NativeState
from tabula.interpreter.engine import Engine, load_game

_ENGINES: dict[str, Engine] = {}


def engine(name: str) -> Engine:
    if name not in _ENGINES:
        eng = Engine(load_game(name), backend="native")
        assert eng.backend == "native", eng.backend_note
        _ENGINES[name] = eng
    return _ENGINES[name]


def suspended(nat: NativeGame, words: Any) -> int:
    """1 when a segment is suspended on `words` (None: how many are, in this thread)."""
    nat.lib.tb_suspended.argtypes = [ctypes.c_void_p]
    return int(nat.lib.tb_suspended(words))


def before_zones(nat: NativeGame, w: Any, at: int) -> list[int]:
    """The words before the zones from `at` (0, or SNAP's), a list var's room past its length as
    0: never read, so runtime copy_read does not copy it."""
    out = list(w[at : at + nat.lay.offsets["ZONE"]])
    cap = nat.lay.list_cap
    for lv in nat.lay.list_var_words():
        n = out[lv]
        out[lv + 1 + n : lv + 1 + cap] = [0] * (cap - n)
    return out


def read_words(nat: NativeGame, ns: NativeState) -> list[int]:
    """The words of a state that are read (runtime copy_keep, SNAP's at a choice), but the
    coroutine's ticket and the generation: what must be the same whether the state resumed or
    replayed."""
    off, w = nat.lay.offsets, ns.words
    out = before_zones(nat, w, 0)
    out[off["T_CO"]] = out[off["T_GEN"]] = 0  # unique per coroutine, per run that wrote the words
    for z, z0 in enumerate(nat.zone_at):
        out += w[z0 : z0 + w[off["ZLEN"] + z]]
    out += w[nat.dopt : nat.dopt + nat.stride * w[nat.dn]]
    out += w[off["Q_LEN"] : off["QUEUE"] + w[off["Q_LEN"]]]
    if w[nat.dk] == 2:
        snap = before_zones(nat, w, off["SNAP"])
        # the budget left when the segment's first state was kept: never read (a run from SNAP
        # starts with the whole budget), and a replay keeps it again where it starts
        snap[off["T_CO"]] = snap[off["T_GEN"]] = snap[off["T_BUDGET"]] = 0
        out += snap
    return out


@pytest.mark.slow  # two games a configuration, a clone replayed beside every step
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", ["glory-to-rome", "porta-nigra"])
def test_a_resumed_segment_leaves_the_words_of_its_replay(name: str, players: int) -> None:
    eng = engine(name)
    nat = eng.native
    assert nat is not None
    resumed = 0
    for seed in (1, 2):
        st, gen = eng.new_game(players, seed), rng.seed_state(seed)
        assert isinstance(st, NativeState)
        while not eng.is_terminal(st):
            k = eng.random_choice(st, gen)
            twin = eng.clone(st)  # its words are a copy: no segment suspended on them, it replays
            assert not suspended(nat, twin.words)
            resumed += suspended(nat, st.words)
            eng.apply_inplace(st, k)
            eng.apply_inplace(twin, k)
            assert st.plain is None and twin.plain is None
            assert read_words(nat, st) == read_words(nat, twin), (seed, eng.hash(st))
            if nat.choosing(st):
                assert suspended(nat, st.words) and suspended(nat, twin.words)
    assert resumed > 20  # the steps at choices inside effects went on from their C frames


def test_past_the_suspended_segments_kept_states_replay() -> None:
    """More games stepped side by side than segments are kept suspended (CO_MAX, 64): the oldest
    are dropped and their states replay, to the same games as each stepped alone."""
    eng = engine("glory-to-rome")
    nat = eng.native
    assert nat is not None
    games = [eng.new_game(2, seed) for seed in range(1, 71)]
    gens = [rng.seed_state(seed) for seed in range(1, 71)]
    for _ in range(12):
        for st, gen in zip(games, gens, strict=True):
            if not eng.is_terminal(st):
                eng.apply_inplace(st, eng.random_choice(st, gen))
    assert suspended(nat, None) <= 64
    for seed in (1, 35, 70):
        alone, gen = eng.new_game(2, seed), rng.seed_state(seed)
        for _ in range(12):
            if not eng.is_terminal(alone):
                eng.apply_inplace(alone, eng.random_choice(alone, gen))
        assert read_words(nat, alone) == read_words(nat, games[seed - 1])
        assert eng.hash(alone) == eng.hash(games[seed - 1])


def test_a_dropped_state_frees_its_segment() -> None:
    eng = engine("glory-to-rome")
    nat = eng.native
    assert nat is not None
    gc.collect()
    held = suspended(nat, None)
    st, gen = eng.new_game(2, 3), rng.seed_state(3)
    eng.apply_inplace(st, eng.random_choice(st, gen))
    assert nat.choosing(st) and suspended(nat, st.words)
    assert suspended(nat, None) == held + 1
    # words written by another entry point (a copy into them) can never resume: freed too
    other = eng.clone(st)
    nat.copy(other.words, st.words, 1)
    del st
    gc.collect()
    assert suspended(nat, None) == held


def test_clones_share_packed_words_until_the_state_changes() -> None:
    """Clones are kept packed; clones of words that did not change since share one packed copy
    (their generation, T_GEN, is new at every native run that writes them)."""
    eng = engine("glory-to-rome")
    st, gen = eng.new_game(2, 5), rng.seed_state(5)
    eng.apply_inplace(st, eng.random_choice(st, gen))
    a, b = eng.clone(st), eng.clone(st)
    assert isinstance(a, NativeState) and isinstance(b, NativeState)
    assert a.packed is not None and a.packed is b.packed
    was = eng.hash(st)
    eng.apply_inplace(st, eng.random_choice(st, gen))
    c = eng.clone(st)
    assert isinstance(c, NativeState) and c.packed is not None and c.packed is not b.packed
    assert eng.hash(a) == eng.hash(b) == was != eng.hash(c) == eng.hash(st)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", ["glory-to-rome", "porta-nigra"])
def test_a_packed_clone_unpacks_to_the_words_read(name: str, players: int) -> None:
    """tb_pack's run-length code (runtime flow.c) gives back every word read, into words holding
    anything: at every decision of a game, and with runs of every length up to past PK_RUN, values
    that are NONE, 0 or large, written into the words of every component's RV (plain numbers)."""
    eng = engine(name)
    nat = eng.native
    assert nat is not None
    st, gen = eng.new_game(players, 3), rng.seed_state(3)
    rv, ncomp = nat.lay.offsets["RV"], len(nat.g.components)
    junk = rng.seed_state(11)
    values = [0, 1, -(1 << 63), (1 << 62) + 5, -1]
    steps = 0
    while not eng.is_terminal(st):
        w = st.words
        was = w[rv : rv + ncomp]
        if steps % 10 == 5:  # runs of 1 to 5 equal words, literal blocks between them
            i = rv
            while i < rv + ncomp:
                n = 1 + rng.below(junk, 5)
                w[i : min(i + n, rv + ncomp)] = [values[rng.below(junk, 5)]] * min(n, rv + ncomp - i)
                i += n
        clone = eng.clone(st)
        assert isinstance(clone, NativeState) and clone.packed is not None
        assert len(clone.packed) < 8 * nat.lay.size // 4  # coded, not copied: a fraction of the words
        into = nat.fresh()
        ctypes.memset(into, 0x5A, 8 * nat.lay.size)  # words that held anything
        nat.lib.tb_unpack(into, clone.packed)
        assert read_words(nat, NativeState(into, st.names, st.o)) == read_words(nat, st)
        w[rv : rv + ncomp] = was  # the game goes on from its own words
        eng.apply_inplace(st, eng.random_choice(st, gen))
        steps += 1
    assert steps > 30


@pytest.mark.slow  # a third game loaded
def test_a_copy_keeps_each_list_var_up_to_its_length() -> None:
    """tb_copy (runtime copy_read) copies a list var's items up to its length, not its room past
    it: into words holding anything, a copy reads as its original at every decision of games
    whose list vars (Hanabi's) hold items."""
    eng = engine("hanabi")
    nat = eng.native
    assert nat is not None
    into = nat.fresh()
    held = 0
    for seed in (1, 2, 3):
        st, gen = eng.new_game(2, seed), rng.seed_state(seed)
        while not eng.is_terminal(st):
            ctypes.memset(into, 0x5A, 8 * nat.lay.size)  # words that held anything
            nat.copy(into, st.words, 1)
            assert read_words(nat, NativeState(into, st.names, st.o)) == read_words(nat, st)
            held += any(st.words[lv] > 0 for lv in nat.lay.list_var_words())
            eng.apply_inplace(st, eng.random_choice(st, gen))
    assert held > 10
