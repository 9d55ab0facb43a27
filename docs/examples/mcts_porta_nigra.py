"""Evaluate OpenSpiel's MCTS against a uniform random player on Porta Nigra, one game in each seat."""

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import tabula.rl.openspiel  # noqa: F401 (registers the OpenSpiel game "tabula")

game = pyspiel.load_game("tabula(game=porta-nigra,players=2)")
rng = np.random.RandomState(0)
for seat in (0, 1):
    bots = [pyspiel.make_uniform_random_bot(p, seat) for p in range(2)]
    bots[seat] = mcts.MCTSBot(game, 2.0, 2, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    print(f"MCTS in seat {seat + 1}: MCTS {returns[seat]}, random {returns[1 - seat]}")
