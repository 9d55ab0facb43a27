"""Monte Carlo tree search bots: `mcts` (UCT on one determinisation) and `ismcts` (information-set MCTS).

Both grow a tree of choice ids from the bot's decision. Each iteration selects down the tree with
UCB1, adds one child, plays a rollout (random, or greedy on the evaluation) for at most `depth`
decisions, scores the end position with `Evaluation.rewards` (exact when the game ended) and backs
each player's reward up the path, every node keeping the reward of the player who chose its move.

`mcts` determinises once per decision (exact for games without hidden information); `ismcts`
(single-observer ISMCTS, Cowling et al. 2012) deals a fresh determinisation every iteration, so the
tree's statistics average over every world consistent with the view; a child's exploration term
counts the iterations in which it was legal (its availability) instead of its parent's visits.
The budget is a number of playouts or CPU seconds per decision; the move played is the most visited.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from tabula.bots.base import Budget, Observation, PlayoutFailure
from tabula.bots.evaluation import EvaluatingBot
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError

EXPLORATION = 0.7
DEFAULT_DEPTH = 20


@dataclass
class Node:
    """A tree node: the move into it and who made it, visit/reward totals and availability."""

    player: int = -1
    visits: int = 0
    total: float = 0.0
    avail: int = 0
    children: dict[str, Node] = field(default_factory=dict)

    def ucb(self, parent_visits: int) -> float:
        return self.total / self.visits + EXPLORATION * math.sqrt(math.log(parent_visits) / self.visits)


@dataclass(frozen=True)
class SearchSettings:
    budget: Budget
    depth: int = DEFAULT_DEPTH
    rollout: str = "random"  # random | greedy
    redeterminize: bool = True  # ismcts: a fresh world every iteration


class SearchBot(EvaluatingBot):
    """UCT / ISMCTS over choice ids; see the module docstring."""

    def __init__(self, engine: Engine, spec: str, settings: SearchSettings) -> None:
        super().__init__(engine, spec)
        self.settings = settings

    def choose(self, obs: Observation, gen: list[int]) -> str:
        ids = obs.legal_ids
        self.stats.decisions += 1
        if len(ids) == 1:
            return ids[0]
        budget = self.settings.budget
        started = budget.start()
        root = Node()
        dealt_with = list(gen)
        world = obs.determinize(gen)
        playouts = 0
        while playouts == 0 or not budget.spent(started, playouts):
            if self.settings.redeterminize and playouts > 0:
                dealt_with = list(gen)
                world = obs.determinize(gen)
            moves: list[str] = []
            try:
                self._iterate(root, self.engine.clone(world), gen, moves)
            except GameRuntimeError as err:
                raise PlayoutFailure(self.spec, obs.seat, dealt_with, moves, err) from err
            playouts += 1
        self.stats.searched += 1
        self.stats.playouts += playouts
        self.stats.seconds += time.process_time() - started
        best = max(root.children[i].visits for i in ids if i in root.children)
        top = [i for i in ids if i in root.children and root.children[i].visits == best]
        return top[rng.below(gen, len(top))]

    def _iterate(self, root: Node, st: State, gen: list[int], moves: list[str]) -> None:
        """One selection, expansion, rollout and backup, playing on `st` in place (the choices made
        are appended to `moves`)."""
        engine = self.engine
        path = [root]
        node = root
        while not engine.is_terminal(st):
            ids = engine.legal_ids(st)
            player = engine.current_player(st)
            untried = [i for i in ids if i not in node.children]
            for i in ids:
                child = node.children.get(i)
                if child is not None:
                    child.avail += 1
            if untried:
                move = untried[rng.below(gen, len(untried))]
                child = node.children[move] = Node(player=-1 if player is None else player, avail=1)
                moves.append(move)
                engine.apply_inplace(st, move)
                path.append(child)
                break
            move = max(ids, key=lambda i: node.children[i].ucb(max(node.children[i].avail, 1)))
            node = node.children[move]
            moves.append(move)
            engine.apply_inplace(st, move)
            path.append(node)
        rewards = self._rollout(st, gen, moves)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.total += rewards[n.player]

    def _rollout(self, st: State, gen: list[int], moves: list[str]) -> list[float]:
        engine = self.engine
        for _ in range(self.settings.depth):
            if engine.is_terminal(st):
                break
            if self.settings.rollout == "greedy":
                move = self._greedy_step(st, gen)
                moves.append(move)
                engine.apply_inplace(st, move)
            else:
                pick = engine.random_choice(st, gen)
                moves.append(engine.legal_ids(st)[pick])
                engine.apply_inplace(st, pick)
        return self.evaluation.rewards(st)

    def _greedy_step(self, st: State, gen: list[int]) -> str:
        ids = self.engine.legal_ids(st)
        player = self.engine.current_player(st)
        if len(ids) == 1 or player is None:
            return ids[0]
        scores = [self.evaluation.utility(self.engine.apply(st, i), player) for i in ids]
        best = max(scores)
        top = [i for i, s in zip(ids, scores, strict=True) if s == best]
        return top[rng.below(gen, len(top))]
