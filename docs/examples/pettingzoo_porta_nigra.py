"""Play Porta Nigra in PettingZoo with random legal actions (from the action mask)."""

import numpy as np

from tabula.rl.pettingzoo import TabulaEnv

env = TabulaEnv("porta-nigra", players=3)
env.reset(seed=42)
rng = np.random.default_rng(42)
for agent in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        print(agent, "reward", reward)
        action = None
    else:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
    env.step(action)
