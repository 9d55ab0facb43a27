"""Zones whose size is secret (`size_visibility:`, tests/games/secrets' `stash`): views give no count
to those who may not know it, move lines into or out of such a zone are not theirs to read, a `log`
line counting one is masked, seat states never know the count, determinisation draws the split,
the RL observation marks it unknown. The swap test: a hidden card moved from one secret-size zone to
another changes nothing in a third player's view, observation or log."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import view, visible_log, zone_members
from tabula.interpreter.run.determinize import determinize
from tabula.interpreter.run.knowledge import seat_states

GAME = Path(__file__).resolve().parents[1] / "games" / "secrets"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game(GAME))


def stash(engine: Engine, p: int) -> int:
    return engine.game.zones["stash"].index(p)


def stowed(engine: Engine) -> State:
    """Three players; Ann has stowed both her cards, Bob is to play."""
    st = engine.new_game(3, seed=1)
    for bet in ("bet:1", None):
        st = engine.apply(st, next(i for i in st["dec"]["ids"] if i.startswith("stow:")))
        if bet is not None:  # Bob and Cid bet, so that Ann plays again
            st = engine.apply(engine.apply(st, bet), bet)
    assert st["dec"]["p"] == 1
    return st


def moved(engine: Engine, st: State, src: int, dest: int) -> State:
    """`st` with the first card of stash(src) moved to stash(dest)."""
    out: State = copy.deepcopy(st)
    cid = out["z"][stash(engine, src)].pop(0)
    out["z"][stash(engine, dest)].append(cid)
    out["loc"][cid] = stash(engine, dest)
    return out


def test_a_view_gives_no_count_to_those_who_may_not_know_it(engine: Engine) -> None:
    st = stowed(engine)
    assert len(st["z"][stash(engine, 0)]) == 2
    views = [engine.view(st, p) for p in range(3)]
    assert views[0]["z"][stash(engine, 0)] == st["z"][stash(engine, 0)]  # the owner
    assert views[1]["z"][stash(engine, 0)] is None and views[2]["z"][stash(engine, 0)] is None
    assert views[1]["z"][stash(engine, 1)] == []  # Bob knows his own is empty
    assert view(engine.game, st, -2)["z"][stash(engine, 0)] is None  # a spectator neither
    assert zone_members(views[1], stash(engine, 0)) == ([], None)
    assert views[1]["z"][engine.game.zones["hand"].index(0)] == []  # a public size stays public


def test_the_swap_of_a_hidden_card_between_secret_sizes_changes_nothing_for_a_third(engine: Engine) -> None:
    np = pytest.importorskip("numpy")
    from tabula.rl.encoding import Encoder
    from tabula.rl.text import observation_string

    st = stowed(engine)
    other = moved(engine, st, 0, 1)  # Ann 1, Bob 1 instead of Ann 2, Bob 0
    assert engine.view(st, 2) == engine.view(other, 2)
    assert engine.view(st, 0) != engine.view(other, 0)
    encoder = Encoder(engine.game, 3)
    tensors = [encoder.tensor(engine.view(s, 2)) for s in (st, other)]
    assert np.array_equal(tensors[0], tensors[1])
    texts = [observation_string(engine.game, engine.view(s, 2)) for s in (st, other)]
    assert texts[0] == texts[1] and "zone stash(P1): - (how many: ?)" in texts[0]
    assert not np.array_equal(encoder.tensor(engine.view(st, 0)), encoder.tensor(engine.view(other, 0)))


def test_the_observation_marks_a_secret_size_unknown(engine: Engine) -> None:
    pytest.importorskip("numpy")
    from tabula.rl.encoding import Encoder

    encoder = Encoder(engine.game, 3)
    name, width = encoder.pieces[-1]
    assert (
        name == "unknown" and width == 3 + 1 + 3 + 3 + 1 + 3 + 3
    )  # chips, round_bets, spent, last_bet, dealer_note, tip, stash
    st = stowed(engine)
    tensor = encoder.tensor(engine.view(st, 1))
    assert list(tensor[-3:]) == [0.0, 1.0, 1.0]  # relative seats: Bob's own, Cid's, Ann's


def test_move_lines_and_counts_of_a_secret_size_are_not_read_by_others(engine: Engine) -> None:
    log: list[dict[str, Any]] = []
    st = engine.new_game(3, seed=1)
    stow = next(i for i in st["dec"]["ids"] if i.startswith("stow:"))
    engine.apply(st, stow, log)
    card = stow.split(":")[1]
    assert visible_log(log, 0)[-2:] == [f"{card}: hand(P1) -> stash(P1)", "P1 stows a card away, 1 there now"]
    assert visible_log(log, 1) == visible_log(log, 2) == ["P1: stow:?", "P1 stows a card away, ? there now"]


def test_the_log_of_two_worlds_with_different_secret_sizes_reads_the_same(engine: Engine) -> None:
    st = stowed(engine)  # Bob to play
    logs: list[list[dict[str, Any]]] = [[], []]
    for i, world in enumerate((st, moved(engine, st, 0, 1))):
        world = engine.apply(world, next(x for x in world["dec"]["ids"] if x.startswith("stow:")), logs[i])
    assert visible_log(logs[0], 2) == visible_log(logs[1], 2)
    assert visible_log(logs[0], 1) != visible_log(logs[1], 1)  # Bob counts his own: 1, or 2


def test_seat_states_never_know_a_secret_count(engine: Engine) -> None:
    st = stowed(engine)
    first, second = seat_states(engine.game, st, 1)
    assert len(first["z"][stash(engine, 0)]) != len(second["z"][stash(engine, 0)])
    assert first["z"][stash(engine, 1)] == second["z"][stash(engine, 1)] == []  # Bob's own


def test_determinisation_draws_the_split_of_secret_sizes(engine: Engine) -> None:
    st = stowed(engine)  # Bob to play: Ann's 2 stowed cards may be anywhere among the stashes he cannot count
    sizes = set()
    for seed in range(12):
        det = determinize(engine.game, st, 1, rng.seed_state(seed))
        again = determinize(engine.game, moved(engine, st, 0, 2), 1, rng.seed_state(seed))
        assert det == again  # a function of Bob's view
        assert det["z"][stash(engine, 1)] == []  # his own is known
        shown = (len(det["z"][stash(engine, 0)]), len(det["z"][stash(engine, 2)]))
        assert sum(shown) == 2 and all(det["loc"][c] == z for z, cs in enumerate(det["z"]) for c in cs)
        sizes.add(shown)
    assert len(sizes) > 1


def test_check_refuses_a_count_hidden_from_who_sees_the_contents(tmp_path: Path) -> None:
    game = tmp_path / "secrets"
    game.mkdir()
    text = (
        (GAME / "game.yaml")
        .read_text()
        .replace("visibility: owner, size_visibility", "visibility: public, size_visibility")
    )
    (game / "game.yaml").write_text(text)
    with pytest.raises(AuthorError) as err:
        load_game(game)
    shown = render_report(err.value.report)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.startswith("  stash:"))
    assert (
        f"game.yaml:{line}:10: error[S003]: 'zones.stash': size_visibility 'owner' with visibility 'public'"
        in shown
    )
    assert "make it public, the same word, or the contents hidden" in shown
