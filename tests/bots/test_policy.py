"""Issue 24, item 3: bots concede only when their seat's policy says so; the default evaluation reads
the game's own score at any moment; every bot kind sits at a seat of play and serve (item 5)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.balance.match import Config, play_game
from tabula.bots.base import Observation
from tabula.bots.evaluation import Evaluation
from tabula.bots.policy import ConcessionPolicy
from tabula.bots.spec import BotSpecError, make_bot, parse_bot_spec, parse_seat
from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]


def test_concede_is_part_of_every_spec_and_seats_take_every_bot() -> None:
    assert parse_bot_spec("random:concede").text == "random:concede"
    assert parse_bot_spec("ismcts:0.2s:concede").concede
    assert not parse_bot_spec("greedy:2").concede
    assert parse_seat("human") == "human"
    assert parse_seat("ismcts:0.2s") == "ismcts:0.2s"
    assert parse_seat(" greedy ") == "greedy"
    with pytest.raises(BotSpecError, match=r"unknown bot 'robot'.*or human"):
        parse_seat("robot")


@pytest.fixture(scope="module")
def gtr() -> Engine:
    return Engine(load_game(ROOT / "gamedefs" / "glory-to-rome"))


def offer_to(engine: Engine, winner: int) -> dict:  # type: ignore[type-arg]
    """Seat 0 offers that everyone concedes to `winner`; seat 1 is asked to agree (2 players)."""
    st = engine.new_game(2, 1)
    engine.apply_inplace(st, "propose_concession")
    engine.apply_inplace(st, engine.legal_ids(st)[winner])
    return st


def test_bots_never_offer_a_concession_unless_their_policy_says_so(gtr: Engine) -> None:
    st = gtr.new_game(2, 1)
    assert "propose_concession" in gtr.legal_ids(st)
    held, free = make_bot("random", gtr), make_bot("random:concede", gtr)
    assert isinstance(held, ConcessionPolicy) and not isinstance(free, ConcessionPolicy)
    picks = {held.choose(Observation(gtr, st, 0), rng.seed_state(s)) for s in range(60)}
    assert "propose_concession" not in picks and len(picks) > 3
    free_picks = {free.choose(Observation(gtr, st, 0), rng.seed_state(s)) for s in range(60)}
    assert "propose_concession" in free_picks


def test_bots_never_accept_a_concession_unless_their_policy_says_so(gtr: Engine) -> None:
    st = offer_to(gtr, 0)
    assert st["dec"]["p"] == 1 and gtr.legal_ids(st) == ["true", "false"]
    for spec in ("random", "greedy", "ismcts:20"):
        bot = make_bot(spec, gtr)
        assert {bot.choose(Observation(gtr, st, 1), rng.seed_state(s)) for s in range(8)} == {"false"}, spec
    free = make_bot("random:concede", gtr)
    assert "true" in {free.choose(Observation(gtr, st, 1), rng.seed_state(s)) for s in range(20)}
    # conceding to the other seat (here: seat 0 offering the game to seat 1) ends the game at once
    own = gtr.new_game(2, 1)
    gtr.apply_inplace(own, "propose_concession")
    bot = make_bot("random", gtr)
    assert {bot.choose(Observation(gtr, own, 0), rng.seed_state(s)) for s in range(8)} == {"P1"}


def test_glory_to_rome_random_bots_end_no_game_by_concession() -> None:
    """Measured once by hand: 200 games with the default bots (greedy), 0 concession endings."""
    for players in (2, 3):
        held = Config("glory-to-rome", players, bots=("random",) * players)
        records = [play_game(held, i, 40 + i) for i in range(8)]
        assert not any(r.error for r in records)
        assert [r.ending for r in records] == ["normal"] * 8, [r.ending for r in records]
    free = Config("glory-to-rome", 3, bots=("random:concede",) * 3)
    endings = [play_game(free, i, 40 + i).ending for i in range(8)]
    assert sum(e.startswith("declared winner (after propose_concession)") for e in endings) >= 4, endings


def test_a_concession_naming_no_action_is_an_author_error(tmp_path: Path) -> None:
    game = tmp_path / "gtr"
    shutil.copytree(ROOT / "gamedefs" / "glory-to-rome", game)
    path = game / "bots.yaml"
    path.write_text(path.read_text().replace("[propose_concession]", "[propose_surrender]"))
    with pytest.raises(AuthorError) as err:
        make_bot("random", Engine(load_game(game)))
    text = str(err.value)
    assert "B001" in text and "propose_surrender" in text and "propose_concession" in text


def test_default_evaluation_adds_the_final_score_parts_while_the_game_goes_on(tmp_path: Path) -> None:
    """Porta Nigra without its bots.yaml: its score (the VP track) plus the parts its final scoring
    will add (presentation.score with score_rest), as if the game ended now."""
    game = tmp_path / "pn"
    shutil.copytree(ROOT / "gamedefs" / "porta-nigra", game)
    (game / "bots.yaml").unlink()
    engine = Engine(load_game(game))
    st = engine.new_game(2, 3)
    gen = rng.seed_state(5)
    for _ in range(120):
        engine.apply_inplace(st, engine.legal_ids(st)[engine.random_choice(st, gen)])
    rt = Runtime(engine.game, st)
    values = Evaluation(engine).values(st)
    for p in range(2):
        rt.loc = {"p": p}
        parts = sum(rt.evaluate(part.value[0], None) for part in engine.game.presentation.score)
        assert parts > 0 and values[p] == engine.scores(st)[p] + parts


def test_a_game_sets_its_search_bots_rollout_length(gtr: Engine, tmp_path: Path) -> None:
    """`bots: rollout_depth:` is a search bot's rollout length unless its spec says `depth=N`;
    a value that is not a count is a located author error."""
    search = make_bot("ismcts:50", gtr)
    assert getattr(search, "bot", search).settings.depth == 4  # type: ignore[attr-defined]
    told = make_bot("ismcts:50:depth=9", gtr)
    assert getattr(told, "bot", told).settings.depth == 9  # type: ignore[attr-defined]
    plain = make_bot("mcts:50", Engine(load_game("porta-nigra")))
    assert getattr(plain, "bot", plain).settings.depth == 20  # type: ignore[attr-defined]
    game = tmp_path / "gtr"
    shutil.copytree(ROOT / "gamedefs" / "glory-to-rome", game)
    bots = game / "bots.yaml"
    bots.write_text(bots.read_text().replace("rollout_depth: 4", "rollout_depth: -3"))
    with pytest.raises(AuthorError) as err:
        load_game(game)
    assert "bots.yaml:" in str(err.value) and "rollout_depth" in str(err.value)
