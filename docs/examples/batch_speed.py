"""Step 64 games of a Tabula game at once with random legal actions; print the steps a CPU-second.

Usage: python docs/examples/batch_speed.py GAME PLAYERS [STEPS]. Only `BatchEnv.step` is timed
(observations and masks included; choosing the random actions is not), in CPU time.
"""

import sys
import time

import numpy as np

from tabula.rl.batch import BatchEnv

game, players = sys.argv[1], int(sys.argv[2])
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 200
env = BatchEnv(game, players, num_envs=64)
batch = env.reset(seeds=range(64))
rng = np.random.default_rng(0)
cpu = 0.0
games = 0
for _ in range(steps):
    actions = [rng.choice(np.flatnonzero(row)) for row in batch.action_mask]
    start = time.process_time()
    batch = env.step(actions)
    cpu += time.process_time() - start
    games += int(batch.terminated.sum() + batch.truncated.sum())
print(f"{env.rules.game.name}, {players} players, 64 games at once")
print(f"observation {batch.observation.shape}, mask {batch.action_mask.shape}, {games} games ended")
print(f"on the {env.engine.backend} backend: {64 * steps / cpu:,.0f} steps a CPU-second")
