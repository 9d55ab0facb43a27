"""`visible_to:` (who sees a zone, a counter or a var, as an expression over players re-evaluated as
the state changes) and `reveal ... until EVENT` (a grant that ends when the event is emitted or
its moment of the flow passes), on tests/games/secrets: the table's card is seen by `lookers`, a
var that grows as players pay to look and is emptied when the card is renewed; `tip` is seen by its
player and the lookers. The swap test: the table's card and a card of the deck exchanged change
nothing in the view, observation tensor, observation string or log of a player who has not paid,
and do for one who has, until the card is renewed."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import visible_log, visible_to
from tabula.interpreter.run.determinize import determinize, hidden_components
from tabula.interpreter.run.runtime import GameRuntimeError

GAME = Path(__file__).resolve().parents[1] / "games" / "secrets"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game(GAME))


def table_card(engine: Engine, st: State) -> int:
    return int(st["z"][engine.game.zones["table"].index(None)][0])


def exchanged(engine: Engine, st: State) -> State:
    """`st` with the table's card and the deck's bottom card trading places."""
    import copy

    out: State = copy.deepcopy(st)
    table, deck = engine.game.zones["table"].index(None), engine.game.zones["deck"].index(None)
    a, b = st["z"][table][0], st["z"][deck][-1]
    out["z"][table][0], out["z"][deck][-1] = b, a
    out["loc"][a], out["loc"][b] = deck, table
    return out


def play(engine: Engine, st: State, choices: list[str]) -> tuple[State, list[dict[str, Any]]]:
    log: list[dict[str, Any]] = []
    for choice in choices:
        st = engine.apply(st, choice, log)
    return st, log


def test_the_table_card_is_seen_by_whoever_paid_until_it_is_renewed(engine: Engine) -> None:
    g = engine.game
    st = engine.new_game(3, seed=1)
    card = table_card(engine, st)
    assert [visible_to(g, st, card, p) for p in range(3)] == [False, False, False]
    st, _ = play(engine, st, ["pay_to_look", "pay_to_look"])  # Ann, then Bob
    assert st["v"]["lookers"] == [0, 1]
    assert [visible_to(g, st, card, p) for p in range(3)] == [True, True, False]
    assert visible_to(g, st, card, -2) is False  # never a spectator
    st, _ = play(engine, st, ["renew"])  # Cid renews it: a new card nobody has seen
    assert st["v"]["lookers"] == []
    assert not any(visible_to(g, st, table_card(engine, st), p) for p in range(3))


def test_a_var_seen_by_its_player_and_the_lookers(engine: Engine) -> None:
    st, log = play(engine, engine.new_game(3, seed=1), ["pay_to_look"])
    tip = st["v"]["tip"][0]
    views = [engine.view(st, p)["v"]["tip"] for p in range(3)]
    assert views == [[tip, 0, 0], [None, 0, None], [None, None, 0]]
    assert engine.view(st, 1)["vu"] == [["tip", 0], ["tip", 2]]  # what a screen shows as `?`
    assert f"P1 pays a chip to look at the table's card: {tip}" in visible_log(log, 0)
    assert "P1 pays a chip to look at the table's card: ?" in visible_log(log, 1)
    st, _ = play(engine, st, ["pay_to_look"])  # Bob is a looker now: he sees Ann's tip, and she his
    assert engine.view(st, 1)["v"]["tip"][0] == tip and engine.view(st, 0)["v"]["tip"][1] is not None
    assert engine.view(st, 2)["v"]["tip"][:2] == [None, None]


def test_the_swap_of_the_table_card_and_a_hidden_card(engine: Engine) -> None:
    st, _ = play(engine, engine.new_game(3, seed=1), ["pay_to_look"])  # Ann looks; Bob and Cid do not
    other = exchanged(engine, st)
    assert engine.hash(st) != engine.hash(other)
    assert engine.view(st, 1) == engine.view(other, 1) and engine.view(st, 2) == engine.view(other, 2)
    assert engine.view(st, 0) != engine.view(other, 0)
    # the same choices in both worlds: Bob's and Cid's logs read the same; once Bob pays, he tells
    # them apart, and once Cid renews the card nobody does
    logs = [play(engine, world, ["bet:1", "bet:1"])[1] for world in (st, other)]
    assert visible_log(logs[0], 1) == visible_log(logs[1], 1)
    paid = [play(engine, world, ["pay_to_look"])[0] for world in (st, other)]
    assert engine.view(paid[0], 1) != engine.view(paid[1], 1)
    renewed = [play(engine, world, ["bet:1", "renew"])[0] for world in paid]
    drawn = [table_card(engine, world) for world in renewed]
    assert [engine.view(world, 1)["z"] for world in renewed] == [engine.view(renewed[0], 1)["z"]] * 2
    assert not any(visible_to(engine.game, w, c, 0) for w, c in zip(renewed, drawn, strict=True))


@pytest.mark.slow
def test_the_swap_changes_nothing_in_the_observation_of_who_did_not_pay() -> None:
    pytest.importorskip("numpy")
    import sys

    sys.path.insert(0, str(GAME.parents[1] / "gamedefs"))  # the game tests' shared swap comparison
    from places import rl_sees_the_same

    from tabula.rl.match import Ruleset, Setup

    rules = Ruleset.get(Setup(str(GAME)))
    st, _ = play(rules.engine, rules.engine.new_game(3, seed=1), ["pay_to_look"])
    st = rules.engine.plain(st)  # the RL engine is native: exchange in its plain data
    other = exchanged(rules.engine, st)
    assert rl_sees_the_same(rules, st, other, 1) and rl_sees_the_same(rules, st, other, 2)
    assert not rl_sees_the_same(rules, st, other, 0)


def test_determinisation_deals_only_what_the_player_may_not_see(engine: Engine) -> None:
    g = engine.game
    st, _ = play(engine, engine.new_game(3, seed=1), ["pay_to_look"])
    card = table_card(engine, st)
    assert card not in hidden_components(g, st, 0) and card in hidden_components(g, st, 1)
    for s in range(6):
        for p in (0, 1):
            world = determinize(g, engine.clone(st), p, rng.seed_state(s)) if p == 1 else None
            if world is not None:
                assert engine.view(world, p) == engine.view(st, p) or world["v"]["tip"] != st["v"]["tip"]
    # Bob plays on a guess for Ann's tip (its initial value), not on the true one
    world = determinize(g, engine.clone(st), 1, rng.seed_state(0))
    assert world["v"]["tip"][0] == 0 and world["v"]["lookers"] == [0]


def test_reveal_until_an_event_of_the_game(engine: Engine) -> None:
    g = engine.game
    st = engine.new_game(3, seed=1)
    assert "ru" not in st  # a game that has not used `until` keeps its states
    st, _ = play(engine, st, ["glance:P2"])  # Ann glances at a card of Bob's until he mixes his hand
    seen = st["z"][g.zones["hand"].index(1)][0]
    assert visible_to(g, st, seen, 0) and st["ru"] == [["mixed", seen, 2]]
    assert engine.from_json(engine.to_json(st)) == st  # a save keeps the grant's end
    st, _ = play(engine, st, ["bet:1"])  # Bob bets: the glance lasts
    assert visible_to(g, st, seen, 0)
    st, _ = play(engine, st, ["bet:1", "mix"])  # Cid bets; Ann mixes her own hand: `mixed` ends it
    assert not visible_to(g, st, seen, 0) and "ru" not in st


def test_reveal_until_the_end_of_the_turn(engine: Engine) -> None:
    g = engine.game
    st, _ = play(engine, engine.new_game(3, seed=1), ["flash"])
    top = st["z"][g.zones["deck"].index(None)][0]
    assert all(visible_to(g, st, top, p) for p in range(3)) and st["rv"][top] == 1
    st, _ = play(engine, st, ["bet:1"])  # Ann's turn ends
    assert not any(visible_to(g, st, top, p) for p in range(3)) and st["rv"][top] == 0


def test_a_save_with_a_wrong_grant_end_is_refused(engine: Engine) -> None:
    st, _ = play(engine, engine.new_game(3, seed=1), ["glance:P2"])
    st["ru"] = [["mixed", 999, 2]]
    with pytest.raises(Exception, match=r"state\.ru"):
        engine.from_json(engine.to_json(st))


def copy_game(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "secrets"
    shutil.copytree(GAME, folder)
    path = folder / "game.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return folder


def test_visibility_and_visible_to_at_once_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(
            copy_game(
                tmp_path, "table: {visible_to: lookers}", "table: {visibility: public, visible_to: lookers}"
            )
        )
    shown = render_report(err.value.report)
    assert "error[E128]: 'table' says who sees it twice: visibility and visible_to" in shown
    assert "game.yaml:26:43:" in shown and "^" in shown


def test_visible_to_something_that_is_no_player(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(copy_game(tmp_path, "table: {visible_to: lookers}", "table: {visible_to: top(deck)}"))
    assert "error[T008]: visible_to needs a player or a list of players, found a component" in render_report(
        err.value.report
    )


def test_visible_to_a_number_that_is_no_player_is_r008(tmp_path: Path) -> None:
    engine = Engine(
        load_game(copy_game(tmp_path, "table: {visible_to: lookers}", "table: {visible_to: num_players}"))
    )
    with pytest.raises(GameRuntimeError) as err:
        engine.view(engine.new_game(3, seed=1), 0)
    assert err.value.code == "R008" and "visible_to of 'table' needs players of the game, got 3" in str(
        err.value
    )


def test_the_words_are_the_visibility_words(tmp_path: Path) -> None:
    folder = copy_game(
        tmp_path, "hand: {per: player, visibility: owner}", "hand: {per: player, visible_to: owner}"
    )
    game = load_game(folder)
    assert game.zones["hand"].visibility == "owner" and "to:zones:hand" not in game.audiences
    assert game.zones["table"].visibility == "to:zones:table"


def test_until_an_event_nothing_emits(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(copy_game(tmp_path, "until mixed", "until mixd"))
    shown = render_report(err.value.report)
    assert "error[E129]: 'until mixd': the game never emits 'mixd', and it is no moment of the flow" in shown
    assert "did you mean 'mixed'" in shown


def test_native_backend_holds_it() -> None:
    """`visible_to:` expressions and `reveal ... until` are native (issue 33; played against the
    Python backend, views included, by tests/native/test_native_visibility.py)."""
    from tabula.interpreter.compile.native.support import lower_game

    assert lower_game(load_game(GAME))[1].report.diagnostics == []
