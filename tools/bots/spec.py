"""Bots by name: `random`, `greedy`, `mcts`, `ismcts`, made from a spec `KIND[:BUDGET][:KEY=VALUE...]`.

BUDGET is a number of playouts (`ismcts:300`), CPU seconds (`ismcts:0.25s`), or for `greedy` the
number of determinisations averaged (`greedy:3`). Search bots also take `depth=N` (rollout length
before the evaluation is read) and `rollout=random|greedy`: `mcts:0.2s:depth=10:rollout=greedy`,
and `reuse=no` (start every decision from an empty tree, see `tabula.bots.search`);
greedy takes `depth=N` too, how many of its own decisions in a row it looks ahead (`greedy:depth=1`:
one ply), `ties=random`: where every choice ties, pick at random rather than play on past the
others' decisions (`tabula.bots.simple`; cheaper, weaker where ties are common), and `follow=N`:
where its lookahead stops with the seat still to decide, play up to N more of its decisions
greedily before evaluating (default 0).
A playout budget makes games reproducible from their seed; a seconds budget does not (it depends on
the machine's speed). Any bot may end in `:concede` (`random:concede`): only then does it offer or
accept a concession in a game that declares one (`tabula.bots.policy`). `parse_seat` reads what may
sit at a seat of `tabula play` or `tabula serve`: `human` or a bot spec.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabula.bots.base import Bot, Budget
from tabula.bots.policy import with_policy
from tabula.bots.search import DEFAULT_DEPTH, SearchBot, SearchSettings
from tabula.bots.simple import GREEDY_DEPTH, GREEDY_FOLLOW, GREEDY_SAMPLES, GreedyBot, RandomBot
from tabula.interpreter.engine import Engine

BOT_KINDS = {
    "random": "uniform over the legal choices",
    "greedy": "lookahead over its own next decisions on the evaluation, over a few determinisations",
    "mcts": "UCT on one determinisation per decision (random or greedy rollouts)",
    "ismcts": "information-set MCTS: a fresh determinisation every iteration",
}
DEFAULT_SEARCH_PLAYOUTS = 200
HUMAN = "human"


class BotSpecError(ValueError):
    """A bot spec that does not parse (the message says what is wrong)."""


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec; `text` is its canonical form (used in headers and replay commands)."""

    kind: str
    budget: Budget | None = None
    depth: int | None = None  # None: the kind's default (DEFAULT_DEPTH; GREEDY_DEPTH for greedy)
    rollout: str = "random"
    reuse: bool = True
    concede: bool = False
    ties: str = "play"  # greedy: "random" breaks a tie at random without playing on
    follow: int = GREEDY_FOLLOW  # greedy: its own follow-up decisions played greedily past the depth

    @property
    def text(self) -> str:
        parts = [self.kind]
        if self.budget is not None:
            parts.append(str(self.budget))
        if self.depth is not None and self.depth != self.default_depth:
            parts.append(f"depth={self.depth}")
        if self.kind in ("mcts", "ismcts") and self.rollout != "random":
            parts.append(f"rollout={self.rollout}")
        if self.kind in ("mcts", "ismcts") and not self.reuse:
            parts.append("reuse=no")
        if self.kind == "greedy" and self.ties != "play":
            parts.append(f"ties={self.ties}")
        if self.kind == "greedy" and self.follow != GREEDY_FOLLOW:
            parts.append(f"follow={self.follow}")
        if self.concede:
            parts.append("concede")
        return ":".join(parts)

    @property
    def default_depth(self) -> int:
        return GREEDY_DEPTH if self.kind == "greedy" else DEFAULT_DEPTH

    @property
    def effective_depth(self) -> int:
        return self.depth if self.depth is not None else self.default_depth


def _budget(text: str) -> Budget:
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if seconds <= 0:
                raise ValueError
            return Budget(seconds=seconds)
        playouts = int(text)
        if playouts < 1:
            raise ValueError
        return Budget(playouts=playouts)
    except ValueError:
        raise BotSpecError(
            f"budget {text!r} is neither a number of playouts (300) nor CPU seconds (0.25s)"
        ) from None


def parse_bot_spec(text: str) -> BotSpec:
    """`KIND[:BUDGET][:KEY=VALUE...]` -> BotSpec; BotSpecError says what is wrong."""
    kind, *rest = text.strip().split(":")
    if kind not in BOT_KINDS:
        raise BotSpecError(f"unknown bot {kind!r}; bots: {', '.join(BOT_KINDS)}")
    budget: Budget | None = None
    depth: int | None = None
    rollout, concede, reuse, ties, follow = "random", False, True, "play", GREEDY_FOLLOW
    for part in rest:
        key, sep, value = part.partition("=")
        if part == "concede":
            concede = True
        elif not sep:
            if kind == "random":
                raise BotSpecError("the random bot takes no budget")
            budget = _budget(part)
            if kind == "greedy" and budget.playouts is None:
                raise BotSpecError("greedy's budget is a number of determinisations (greedy:3)")
        elif kind != "random" and key == "depth" and value.isdigit() and int(value) >= (kind == "greedy"):
            depth = int(value)
        elif kind in ("mcts", "ismcts") and key == "rollout" and value in ("random", "greedy"):
            rollout = value
        elif kind in ("mcts", "ismcts") and key == "reuse" and value in ("yes", "no"):
            reuse = value == "yes"
        elif kind == "greedy" and key == "ties" and value in ("play", "random"):
            ties = value
        elif kind == "greedy" and key == "follow" and value.isdigit():
            follow = int(value)
        else:
            raise BotSpecError(
                f"{kind} does not take {part!r} (search bots take depth=N, rollout=random|greedy, "
                "reuse=yes|no; "
                "greedy takes depth=N, ties=play|random, follow=N)"
            )
    return BotSpec(kind, budget, depth, rollout, reuse, concede, ties, follow)


def parse_seat(text: str) -> str:
    """What sits at a seat: `human`, or a bot spec in canonical form; BotSpecError otherwise."""
    kind = text.strip()
    if kind == HUMAN:
        return kind
    try:
        return parse_bot_spec(kind).text
    except BotSpecError as err:
        raise BotSpecError(f"{err} (or {HUMAN})") from None


def rollout_depth(engine: Engine) -> int:
    """A search bot's rollout length when its spec gives none: the game's `bots: rollout_depth:`,
    else DEFAULT_DEPTH."""
    value = engine.game.bots.get("rollout_depth", (None, None))[0]
    return DEFAULT_DEPTH if value is None else int(value)


def greedy_samples(engine: Engine) -> int:
    """Greedy's determinisations when its spec gives none: the game's `bots: determinisations:`,
    else GREEDY_SAMPLES."""
    value = engine.game.bots.get("determinisations", (None, None))[0]
    return GREEDY_SAMPLES if value is None else int(value)


def make_bot(spec: BotSpec | str, engine: Engine) -> Bot:
    """A bot for one engine (it compiles the game's evaluation now: an AuthorError if it is wrong),
    held to the concession policy of its spec when the game declares concessions."""
    if isinstance(spec, str):
        spec = parse_bot_spec(spec)
    return with_policy(_make(spec, engine), engine, spec.concede)


def _make(spec: BotSpec, engine: Engine) -> Bot:
    if spec.kind == "random":
        return RandomBot(engine, spec.text)
    if spec.kind == "greedy":
        samples = spec.budget.playouts if spec.budget and spec.budget.playouts else greedy_samples(engine)
        return GreedyBot(engine, spec.text, samples, spec.effective_depth, spec.ties == "play", spec.follow)
    budget = spec.budget or Budget(playouts=DEFAULT_SEARCH_PLAYOUTS)
    depth = spec.depth if spec.depth is not None else rollout_depth(engine)
    settings = SearchSettings(
        budget, depth, spec.rollout, redeterminize=spec.kind == "ismcts", reuse=spec.reuse
    )
    return SearchBot(engine, spec.text, settings)
