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
On the native backend the whole iteration runs in the game's library where it can (native_search.py:
the tree kept in C, the same draws, UCB and rewards); an iteration it cannot finish, and the rest,
run here.

Tree reuse (Python tree only): when the bot's next decision comes right after its own move (a turn
of several decisions: the game's decision counter, which every view shows, is one more and the seat
the same), nothing it cannot see happened in between, so the search starts from the subtree under
the move it played instead of an empty tree, with the visits already spent there. The moves of other
players are not shown to a bot, so after them the search starts afresh. `reuse=no` turns it off. A
search that runs natively starts from an empty tree (the C tree lives for one decision): at 25x the
playouts, the reused visits (about 200 in Porta Nigra) are not worth a slower Python tree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tabula.bots.base import Budget, Observation, PlayoutFailure
from tabula.bots.evaluation import EvaluatingBot
from tabula.bots.native_search import NativeSearch
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice

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


def grow(rows: list[tuple[int, str, int, int, int, float]]) -> Node:
    """The tree of (parent, id, player, visits, availability, total) rows, parents first (a native
    tree, native_search.py); the root's."""
    made: list[Node] = []
    for parent, cid, player, visits, avail, total in rows:
        node = Node(player=player, visits=visits, total=total, avail=avail)
        if parent >= 0:
            made[parent].children[cid] = node
        made.append(node)
    return made[0]


@dataclass(frozen=True)
class SearchSettings:
    budget: Budget
    depth: int = DEFAULT_DEPTH
    rollout: str = "random"  # random | greedy
    redeterminize: bool = True  # ismcts: a fresh world every iteration
    reuse: bool = True  # keep the subtree of the move played for the seat's next decision


class SearchBot(EvaluatingBot):
    """UCT / ISMCTS over choice ids; see the module docstring."""

    def __init__(self, engine: Engine, spec: str, settings: SearchSettings) -> None:
        super().__init__(engine, spec)
        self.settings = settings
        self.visits: dict[str, int] = {}  # the root's children's visits at the last decision searched
        self._kept: tuple[int, int, Node] | None = None  # seat, decision number, subtree

    def choose(self, obs: Observation, gen: list[int]) -> str:
        ids = obs.legal_ids
        self.stats.decisions += 1
        root = self._reused(obs)
        if len(ids) == 1:
            self._keep(obs, root, ids[0])
            return ids[0]
        budget = self.settings.budget
        timer = budget.start()
        s = self.settings
        native = NativeSearch.make(self.engine, obs, self.evaluation, s.depth, s.rollout, s.redeterminize)
        if root is None or native is not None:
            root = Node()
        else:  # counted for the searched decisions only
            extra = self.stats.extra
            extra["reused"] = extra.get("reused", 0) + 1
            extra["reused_visits"] = extra.get("reused_visits", 0) + root.visits
        playouts = 0
        world: State | None = None
        while playouts == 0 or not timer.spent(playouts):
            if native is not None:  # whole iterations in native code, the tree kept there
                playouts += native.run(gen, timer, playouts)
                if native.failed is None:
                    continue
                # an iteration native code could not finish: it runs again here, and the rest
                rows, world, dealt_with = native.failed
                root, native = grow(rows), None
            if world is None or self.settings.redeterminize:
                dealt_with = list(gen)
                world = obs.world(gen, world if self.settings.redeterminize else None)
            # ismcts plays on its fresh world; mcts on a copy of its one world
            st = world if self.settings.redeterminize else self.engine.clone(world)
            moves: list[str] = []
            rolled: list[list[int]] = []  # the rollout's generator words when it starts
            try:
                self._iterate(root, st, gen, moves, rolled)
            except GameRuntimeError as err:
                raise self._failure(obs, dealt_with, moves, rolled, err) from err
            playouts += 1
        self.stats.searched += 1
        self.stats.playouts += playouts
        self.stats.seconds += timer.elapsed()
        if native is not None:
            visits = self.visits = native.root_visits()
        else:
            visits = self.visits = {i: child.visits for i, child in root.children.items()}
        best = max(visits[i] for i in ids if i in visits)
        top = [i for i in ids if i in visits and visits[i] == best]
        move = top[rng.below(gen, len(top))]
        self._keep(obs, None if native is not None else root, move)
        return move

    def _reused(self, obs: Observation) -> Node | None:
        """The subtree kept from this seat's previous decision when it was the one just before."""
        kept, self._kept = self._kept, None
        if kept is None or not self.settings.reuse:
            return None
        seat, number, node = kept
        if seat != obs.seat or number != obs.view["t"]["decisions"]:
            return None
        return node

    def _keep(self, obs: Observation, root: Node | None, move: str) -> None:
        child = root.children.get(move) if root is not None else None
        if child is not None and self.settings.reuse:
            self._kept = (obs.seat, obs.view["t"]["decisions"] + 1, child)

    def _iterate(
        self, root: Node, st: State, gen: list[int], moves: list[str], rolled: list[list[int]]
    ) -> None:
        """One selection, expansion, rollout and backup, playing on `st` in place (the tree's choices
        are appended to `moves`, the rollout's first generator words to `rolled`)."""
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
                engine.apply_inplace(st, ids.index(move))
                path.append(child)
                break
            move = max(ids, key=lambda i: node.children[i].ucb(max(node.children[i].avail, 1)))
            node = node.children[move]
            moves.append(move)
            engine.apply_inplace(st, ids.index(move))
            path.append(node)
        rewards = self._rollout(st, gen, moves, rolled)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.total += rewards[n.player]

    def _rollout(self, st: State, gen: list[int], moves: list[str], rolled: list[list[int]]) -> list[float]:
        """Up to `depth` decisions, then the evaluation. Random rollouts run as `Engine.playout`
        (whole, in native code on the native backend); their choices are not recorded, only the
        generator words they start from (`_failure` replays them)."""
        engine = self.engine
        if self.settings.rollout == "greedy":
            for _ in range(self.settings.depth):
                if engine.is_terminal(st):
                    break
                move = self._greedy_step(st, gen)
                moves.append(move)
                engine.apply_inplace(st, move)
        else:
            rolled.append(list(gen))
            engine.playout(st, gen, self.settings.depth)
        return self.evaluation.rewards(st)

    def _failure(
        self,
        obs: Observation,
        world_gen: list[int],
        moves: list[str],
        rolled: list[list[int]],
        err: Exception,
    ) -> PlayoutFailure:
        """The iteration in which a rule failed, replayed on the Python backend for its choices: the
        world dealt again from `world_gen` (as plain data), the tree's moves, then the rollout's
        random choices drawn again from its first generator words, until the rule fails again."""
        engine = self.engine
        st = obs.determinize(list(world_gen))
        choices = list(moves)
        try:
            for move in moves:
                engine.apply_inplace(st, move)
            if rolled:
                g = list(rolled[0])
                for _ in range(self.settings.depth):
                    if engine.is_terminal(st):
                        break
                    pick = engine.random_choice(st, g)
                    choices.append(engine.legal_ids(st)[pick])
                    engine.apply_inplace(st, pick)
        except GameRuntimeError as again:
            err = again  # Python's own diagnostic (native code's is the same)
        except IllegalChoice:
            pass  # a replay that cannot follow (a bot's rollout changed by a test): the choices known
        return PlayoutFailure(self.spec, obs.seat, world_gen, choices, err)

    def _greedy_step(self, st: State, gen: list[int]) -> str:
        ids = self.engine.legal_ids(st)
        player = self.engine.current_player(st)
        if len(ids) == 1 or player is None:
            return ids[0]
        scores = [self.evaluation.utility(self.engine.apply(st, i), player) for i in ids]
        best = max(scores)
        top = [i for i, s in zip(ids, scores, strict=True) if s == best]
        return top[rng.below(gen, len(top))]
