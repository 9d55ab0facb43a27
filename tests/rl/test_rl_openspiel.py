"""Tabula games in OpenSpiel: OpenSpiel's own random-simulation test (with serialisation) and its MCTS
bot on every bundled game and player count, plus what the adapter promises beyond them."""

from __future__ import annotations

import pickle

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

from tabula.rl.openspiel import TabulaGame, game_string, load  # noqa: E402

PLAYERS = {"high-card": [2, 3, 4], "porta-nigra": [2, 3, 4], "glory-to-rome": [2, 3, 4, 5], "coup": [2, 6]}
CASES = [(g, n) for g, counts in PLAYERS.items() for n in counts]


def _play_mcts(game: object, seed: int, simulations: int, rollout_length: int | None) -> object:
    """A full game between MCTS bots; returns the final state."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=rollout_length)
    bots = [
        mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng) for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(game.max_chance_outcomes())))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_sim_test_with_serialisation(name: str, players: int) -> None:
    game = load(name, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_sim_test_whole_games(name: str, players: int) -> None:
    """Glory to Rome without surrender: random games that run to the end of the deck or the sites."""
    options = {"surrender_allowed": False} if name == "glory-to-rome" else None
    game = load(name, players, options=options)
    pyspiel.random_sim_test(game, num_sims=1 if options else 3, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("name", "players"), [("high-card", 2), ("high-card", 4), ("porta-nigra", 2), ("glory-to-rome", 2)]
)
def test_mcts_plays_full_games(name: str, players: int) -> None:
    game = load(name, players)
    state = _play_mcts(game, 1, simulations=3, rollout_length=8)
    assert state.is_terminal()
    assert sum(state.returns()) >= 1.0  # somebody won


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_mcts_plays_full_games_everywhere(name: str, players: int) -> None:
    rollout = None if name == "high-card" else 20  # whole random games are long: a few CPU-seconds each
    state = _play_mcts(load(name, players), players, simulations=3, rollout_length=rollout)
    assert state.is_terminal()
    assert sum(state.returns()) >= 1.0


def test_game_type_is_declared_honestly() -> None:
    game = load("porta-nigra", 3)
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 1808
    assert game.observation_tensor_shape() == [6334]  # 6730 before honour cards carried their effects


def test_the_chance_node_draws_the_seed() -> None:
    game = load("high-card", 2, seeds=16)
    root = game.new_initial_state()
    assert root.is_chance_node()
    outcomes = root.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(16))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert root.observation_string(0) == root.observation_string(1)  # nothing dealt yet
    state = root.child(5)
    same = game.state_with_seed(5)
    assert str(state) == str(same)
    assert state.observation_string(0) == same.observation_string(0)
    assert str(root.child(6)) != str(state)


def test_serialisation_keeps_everything() -> None:
    game = load("glory-to-rome", 3, options={"surrender_allowed": False})
    state = game.new_initial_state()
    state.apply_action(3)
    rng = np.random.RandomState(0)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    copies = [
        game.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
        state.clone(),
    ]
    for copy in copies:
        assert copy.history() == state.history()
    copies.append(game.state_of(pickle.loads(pickle.dumps(state.match))))  # the match alone
    for copy in copies:
        assert str(copy) == str(state)
        assert copy.legal_actions() == state.legal_actions()
        for p in range(3):
            assert copy.information_state_string(p) == state.information_state_string(p)
            assert copy.observation_tensor(p) == state.observation_tensor(p)


def test_information_state_has_perfect_recall() -> None:
    game = load("porta-nigra", 2)
    state = game.state_with_seed(2)
    seen = []
    rng = np.random.RandomState(2)
    while not state.is_terminal() and len(seen) < 30:
        seen.append(state.information_state_string(0))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(set(seen)) == len(seen)  # every decision adds to what player 0 remembers
    # computed step by step or all at once after a reload: the same digest
    fresh = game.deserialize_state(state.serialize())
    assert fresh.information_state_string(0) == state.information_state_string(0)
    assert fresh.information_state_string(0).startswith(fresh.observation_string(0))


def test_game_strings_quote_what_they_must() -> None:
    text = game_string("glory-to-rome", 2, options={"petition_sizes": "2,3", "surrender_allowed": False})
    game = pyspiel.load_game(text)
    assert game.rules.options == {"petition_sizes": "2,3", "surrender_allowed": False}
    assert pyspiel.load_game(str(game)).rules is game.rules  # the game string reloads the same rules
    assert load("porta-nigra", 2, expansions=["honour-plus"]).num_distinct_actions() == 1856  # 1889 before
    assert load("glory-to-rome", 2, variant="imperium").rules.game.name == "Glory to Rome (Imperium)"
    named = load("high-card", 3, player_names=["Ann", "Bob", "Cy"])
    state = named.state_with_seed(0)
    assert "seen by Ann" in state.observation_string(0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 9}, "for 2-4 players"),
        ({"options": {"nope": 1}}, "not key:value of a rules option"),
        ({"options": {"tricks": "many"}}, "whole number"),
        ({"player_names": ["A", "A"]}, "different names"),
        ({"seeds": 0}, "at least one deal"),
    ],
)
def test_bad_parameters_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(Exception, match=message):
        load("high-card", **kwargs)  # type: ignore[arg-type]


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(Exception, match="no game folder or bundled game named 'nope'"):
        load("nope")


def test_illegal_actions_are_refused() -> None:
    state = load("high-card", 2).state_with_seed(0)
    illegal = next(a for a in range(300) if a not in state.legal_actions())
    with pytest.raises(Exception, match="is not legal now"):
        state.apply_action(illegal)


def test_a_long_game_is_truncated() -> None:
    game = load("porta-nigra", 2, max_game_length=6)
    state = game.state_with_seed(0)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert isinstance(game, TabulaGame)
