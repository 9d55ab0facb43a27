"""Tabula games for game-AI and reinforcement learning: OpenSpiel games and PettingZoo environments.

Modules: `actions` (the stable action index: every choice id a compiled game can offer, numbered
from the compiled game alone), `strings` (the strings a game can offer), `encoding` (observation
tensors from a player's view), `text` (the same view as text), `match` (a loaded rule set and a
game in progress, with perfect-recall information states), `openspiel` (the pyspiel game
`tabula`), `pettingzoo` (`TabulaEnv`, an AEC environment). `python -m tabula.rl GAME` prints a
game's action index and observation sizes. The adapters need the `rl` extra
(`pip install -e '.[rl]'`); `actions`, `strings`, `text` and `match` need only Tabula. See
docs/rl.md.
"""
