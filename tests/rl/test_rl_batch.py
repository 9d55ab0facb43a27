"""The batched API and the observation in C (tabula.rl.batch, tabula.rl.native): the C tensor equals
tabula.rl.encoding's on the Python view, exactly, for every seat at every decision of random games;
the C mask equals the wrappers' legal actions; a hidden card swapped changes nothing in the tensor
of a player who cannot see it; a batch on the native backend gives the arrays a batch on Python
gives, auto-reset and truncation included."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from tabula.rl.actions import IdMapper  # noqa: E402
from tabula.rl.batch import Batch, BatchEnv  # noqa: E402
from tabula.rl.encoding import Encoder  # noqa: E402
from tabula.rl.match import Ruleset, Setup  # noqa: E402
from tabula.rl.native import NativeRL, observation  # noqa: E402


def _native(game: str, players: int) -> tuple[Ruleset, NativeRL]:
    rules = Ruleset.get(Setup(game))
    if rules.engine.native is None:
        pytest.skip(f"no native backend here: {rules.engine.backend_note}")
    nrl, why = NativeRL.get(rules.engine, rules.index, rules.seat_names(players))
    assert nrl is not None, why
    return rules, nrl


def _check_games(game: str, players: int, seeds: list[int]) -> int:
    """Every seat's C tensor and the C mask against Python at every decision; the decisions checked."""
    rules, nrl = _native(game, players)
    engine, enc = rules.engine, Encoder(rules.game, players)
    ids = IdMapper(rules.index, rules.seat_names(players))
    got = np.zeros(enc.size, np.float32)
    mask = np.zeros(rules.index.size, np.int8)
    checked = 0
    for seed in seeds:
        st = engine.new_game(players, seed)
        gen = random.Random(seed)
        while not engine.is_terminal(st):
            legal = ids.legal(engine.legal_ids(st))
            if nrl.live(st):
                for v in range(players):
                    nrl.observe(st, v, got)
                    want = enc.tensor(engine.view(st, v))
                    assert np.array_equal(got, want), (
                        game,
                        seed,
                        checked,
                        v,
                        np.flatnonzero(got != want)[:8],
                    )
                assert nrl.mask(st, mask)
                assert set(np.flatnonzero(mask)) == set(legal)
                checked += 1
            engine.apply_inplace(st, gen.randrange(len(legal)))
    return checked


@pytest.mark.slow  # the libraries are built (or read from the cache) first
def test_the_c_tensor_and_mask_equal_python_on_a_short_game() -> None:
    assert _check_games("high-card", 3, [1, 2]) > 10


@pytest.mark.slow  # several whole random games, every seat at every decision
@pytest.mark.parametrize(
    ("game", "players", "least"),
    [("porta-nigra", 2, 300), ("porta-nigra", 3, 200), ("glory-to-rome", 2, 60), ("glory-to-rome", 4, 40),
     ("coup", 3, 40), ("coup", 5, 60), ("hanabi", 2, 40), ("hanabi", 4, 20)],
)  # fmt: skip
# (a state whose `choose` was recomputed on Python is encoded from its view, not counted here: since
# the step path keeps native words, Coup 3p checks 45 decisions of its 2 games, Hanabi 4p 20)
def test_the_c_tensor_and_mask_equal_python(game: str, players: int, least: int) -> None:
    assert _check_games(game, players, [1, 2, 3] if players < 3 else [1, 2]) >= least


def _swap(rules: Ruleset, st: Any, a: int, b: int) -> Any:
    """A copy of native state `st` with components a and b trading places (zones and locations)."""
    nat = rules.engine.native
    assert nat is not None
    out = nat.clone(st)
    w, off = out.words, nat.lay.offsets
    za, zb = w[off["LOC"] + a], w[off["LOC"] + b]
    ia = next(nat.lay.zone(za) + i for i in range(w[off["ZLEN"] + za]) if w[nat.lay.zone(za) + i] == a)
    ib = next(nat.lay.zone(zb) + i for i in range(w[off["ZLEN"] + zb]) if w[nat.lay.zone(zb) + i] == b)
    w[ia], w[ib] = b, a
    w[off["LOC"] + a], w[off["LOC"] + b] = zb, za
    return out


def _tensor(nrl: NativeRL, st: Any, viewer: int) -> Any:
    assert nrl.live(st)  # the C tensor, not the Python one
    out = np.zeros(nrl.encoder.size, np.float32)
    nrl.observe(st, viewer, out)
    return out


@pytest.mark.slow  # three games of each, a swap at a dozen decisions
@pytest.mark.parametrize(
    ("game", "players", "hidden", "seer"),
    [
        # another player's hand swapped with their deck: hidden from seat 0, seen by its owner
        ("porta-nigra", 2, lambda g, n: (g.zones["hand"].index(1), g.zones["deck"].index(1)), 1),
        # Coup: a character in another player's hand swapped with one in the Court deck
        ("coup", 3, lambda g, n: (g.zones["hand"].index(1), g.zones["court"].index(None)), 1),
        # Hanabi: seat 0's own hand (which everyone else sees) swapped with the deck
        ("hanabi", 3, lambda g, n: (g.zones["hand"].index(0), g.zones["deck"].index(None)), 1),
    ],
)
def test_a_hidden_card_swapped_leaves_the_c_tensor_as_it_was(
    game: str, players: int, hidden: Any, seer: int
) -> None:
    rules, nrl = _native(game, players)
    engine, g = rules.engine, rules.game
    za, zb = hidden(g, players)
    swaps = 0
    for seed in (1, 2, 3):
        st = engine.new_game(players, seed)
        gen = random.Random(seed)
        for _ in range(12):
            plain = engine.plain(st)
            names = [c.name for c in g.components]
            pair = next(
                ((a, b) for a in plain["z"][za] for b in plain["z"][zb] if names[a] != names[b]),
                None,
            )
            if pair is not None and nrl.live(st):
                changed = _swap(rules, st, *pair)
                assert np.array_equal(_tensor(nrl, st, 0), _tensor(nrl, changed, 0))
                # the Python view says the same, and the test can fail: the player who sees those
                # cards sees the change
                want = Encoder(g, players).tensor(engine.view(changed, 0))
                assert np.array_equal(_tensor(nrl, changed, 0), want)
                assert not np.array_equal(_tensor(nrl, st, seer), _tensor(nrl, changed, seer))
                swaps += 1
            if engine.is_terminal(st):
                break
            engine.apply_inplace(st, gen.randrange(len(engine.legal_ids(st))))
    assert swaps >= 6


def _play(env: BatchEnv, seeds: list[int], steps: int, gen: random.Random) -> list[tuple[Any, ...]]:
    """Random legal actions (drawn from the mask) for `steps` steps: a copy of every batch."""
    out = []
    b = env.reset(seeds)
    out.append(tuple(np.copy(x) for x in b))
    for _ in range(steps):
        acts = [gen.choice(list(np.flatnonzero(row))) for row in b.action_mask]
        b = env.step(acts)
        out.append(tuple(np.copy(x) for x in b))
    return out


@pytest.mark.slow  # two batches of three games each (the first builds the libraries)
@pytest.mark.parametrize(
    ("game", "players", "steps", "length"), [("high-card", 3, 40, 10_000), ("coup", 2, 30, 12)]
)
def test_a_native_batch_gives_the_arrays_of_a_python_batch(
    game: str, players: int, steps: int, length: int
) -> None:
    """Native rows (C step, C tensor, C mask) against rows stepped and encoded on Python, with the
    same seeds and actions: every array equal, games ending (terminated, and truncated at
    `length` decisions) and starting again on the way."""
    native = BatchEnv(game, players, 3, max_game_length=length)
    if native.native is None:
        pytest.skip(native.note)
    python = BatchEnv(game, players, 3, max_game_length=length, backend="python")
    assert python.native is None and python.engine.backend == "python"
    a = _play(native, [5, 6, 7], steps, random.Random(1))
    b = _play(python, [5, 6, 7], steps, random.Random(1))
    ended = 0
    for x, y in zip(a, b, strict=True):
        for field, u, v in zip(Batch._fields, x, y, strict=True):
            assert np.array_equal(u, v), field
        ended += int(x[4].sum() + x[5].sum())
    assert ended >= 2  # the test can fail: games ended and started again


@pytest.mark.slow  # compiles Coup (once)
def test_a_batch_row_is_the_players_view() -> None:
    env = BatchEnv("coup", 3, 2)
    b = env.reset([3, 4])
    for i in range(2):
        p = int(b.current_player[i])
        want = env.encoder.tensor(env.engine.view(env.states[i], p))
        assert np.array_equal(b.observation[i], want)
        got = observation(env.engine, env.native, env.encoder, env.states[i], p)
        assert np.array_equal(got, want)


def test_step_refuses_an_illegal_action_and_changes_nothing() -> None:
    env = BatchEnv("high-card", 2, 2)
    b = env.reset([1, 2])
    legal = [int(np.flatnonzero(row)[0]) for row in b.action_mask]
    illegal = int(np.flatnonzero(b.action_mask[1] == 0)[0])
    before = [env.engine.hash(st) for st in env.states]
    with pytest.raises(ValueError, match=f"row 1: action {illegal} .* is not legal now"):
        env.step([legal[0], illegal])
    assert [env.engine.hash(st) for st in env.states] == before
    with pytest.raises(ValueError, match="2 actions are needed"):
        env.step([legal[0]])


def test_without_auto_reset_a_finished_game_waits() -> None:
    env = BatchEnv("high-card", 2, 1, auto_reset=False)
    b = env.reset([1])
    gen = random.Random(0)
    while not b.terminated[0]:
        b = env.step([gen.choice(list(np.flatnonzero(b.action_mask[0])))])
    assert b.current_player[0] == -1 and not b.action_mask.any() and b.reward[0].sum() >= 1
    with pytest.raises(ValueError, match="the game is over"):
        env.step([0])
    assert env.reset([2]).current_player[0] >= 0


@pytest.mark.slow  # builds the fixture game's library (once)
def test_a_visible_to_expression_leaves_the_tensor_to_python() -> None:
    """tests/games/secrets shows a zone to the players an expression names: the C observation does
    not compute it, so the rows are the Python view's tensor (the rules still run natively)."""
    env = BatchEnv("tests/games/secrets", 2, 2)
    assert env.native is None and "visible_to" in env.note
    b = env.reset([1, 2])
    b = env.step([int(np.flatnonzero(row)[0]) for row in b.action_mask])
    for i in range(2):
        p = int(b.current_player[i])
        assert np.array_equal(b.observation[i], env.encoder.tensor(env.engine.view(env.states[i], p)))
