"""The default bots of `simulate` and `compare`: the strongest whose cost fits the run.

When no `--bot` is given, every seat gets the first bot of the ladder (strongest first) whose
estimated CPU time for the requested games fits BUDGET_SECONDS per worker process, and at least
ANSWER_SECONDS in all (5 CPU-minutes, the price issue 36 sets on an answer). The ladder is
LADDER, or the game's own `bots: ladder:` (its bot specs, strongest first, with `random` added last
when it lacks it): a game where greedy plays better than IS-MCTS at 200 playouts says so there
(Hanabi), and the chooser trusts it rather than a probe of strength, which would cost games. The
estimate comes from one random game of the run's configuration (its seed is the run's): how many
of its decisions offer more than one choice, and what each candidate bot spends on a few of them
(CPU time, measured on positions of that game, at most PROBE_SECONDS per candidate). Random play
costs next to nothing, so it is the last resort; a warning says that random bots measure the rules'
mechanics, not strategy. The choice depends on the machine's speed, so the output names it, and
every replay command carries the bots explicitly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from tabula.balance.match import Config, GameRecord
from tabula.bots.base import Budget, Observation, bot_generator
from tabula.bots.policy import span_of
from tabula.bots.spec import DEFAULT_SEARCH_PLAYOUTS, BotSpecError, greedy_samples, make_bot, parse_bot_spec
from tabula.common import load, runtime_error_text
from tabula.interpreter.base.source import AuthorError, Report
from tabula.interpreter.compile.native.backend import is_built
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError

# the greedy rungs of one world and one ply cost a few times a random game: they are what a large run
# of a slow game can afford (docs/balancing.md measures them against random in every bundled game);
# the last breaks a tie at random rather than playing on (40 % of the one before in Glory to Rome)
LADDER = ("ismcts:200", "greedy", "greedy:1:depth=1", "greedy:1:depth=1:ties=random", "random")
BUDGET_SECONDS = 150.0  # per worker process (--jobs)
ANSWER_SECONDS = 300.0  # at least this in all: the 5 CPU-minutes an answer may cost (issue 36)
FAILED = "default bots: random (a random game of this configuration failed)"
PROBE_SECONDS = 1.0
PROBE_POSITIONS = 8  # the probe keeps between 8 and 16 positions, evenly spread
RANDOM_WARNING = (
    "random bots measure the rules' mechanics (does it end, how long, which seat), not strategy: "
    "give --bot all=greedy or a search bot for what good play does"
)


@dataclass
class Probe:
    """One random game: its CPU seconds, its decisions, and some positions with a real choice."""

    seconds: float
    decisions: int
    searched: int
    positions: list[tuple[State, int]]
    failure: GameRecord | None = None  # a rule failed: this is game 0 of the run with random bots
    chosen: float = 0.0  # of `seconds`, the random bots' choices at the searched decisions
    choices: int = 0  # the legal choices summed over the searched decisions

    @property
    def step_seconds(self) -> float:
        """What one decision of the random game cost, the bots' choices left out: an apply."""
        return max(self.seconds - self.chosen, 0.0) / max(1, self.decisions)


def probe_game(engine: Engine, players: int, seed: int, limit: int) -> Probe:
    """A random game of the run. It is the run's first game as random bots play it (same seed, same
    generator), so when a rule fails its record is kept: the run reports it without playing the game
    again (a rule that fails at the work budget costs seconds each time)."""
    started = time.process_time()
    st = engine.new_game(players, seed)
    gen = bot_generator(seed)
    bot = make_bot("random", engine)  # held to the game's concession policy, as the run's bots are
    probe = Probe(0.0, 0, 0, [])
    made: list[tuple[str, str]] = []
    stride = 1  # positions kept evenly over the game: every `stride`-th real choice
    try:
        while not engine.is_terminal(st) and probe.decisions < limit:
            ids = engine.legal_ids(st)
            if len(ids) > 1:
                probe.searched += 1
                probe.choices += len(ids)
                if probe.searched % stride == 0:
                    probe.positions.append((engine.clone(st), int(engine.current_player(st) or 0)))
                    if len(probe.positions) == 2 * PROBE_POSITIONS:
                        probe.positions, stride = probe.positions[1::2], stride * 2
            seat = int(engine.current_player(st) or 0)
            before = time.process_time()
            choice = bot.choose(Observation(engine, st, seat), gen)
            if len(ids) > 1:
                probe.chosen += time.process_time() - before
            made.append((engine.player_names(st)[seat], choice))
            engine.apply_inplace(st, choice)
            probe.decisions += 1
    except GameRuntimeError as err:
        names = engine.player_names(st)
        probe.failure = GameRecord(0, seed, ["random"] * len(names), names, decisions=probe.decisions)
        probe.failure.error, probe.failure.choices = runtime_error_text(err), made
        probe.failure.ending = "rule error"
    probe.seconds = time.process_time() - started
    return probe


def least_cost(spec: str, engine: Engine, probe: Probe) -> float:
    """A lower bound of `cost_per_game` without playing a decision, where it holds: on the Python
    backend every apply of a bot costs about what a decision of the random game cost, and a bot
    makes at least so many applies at each decision with a real choice: greedy applies every
    choice on each of its worlds, a search bot makes one apply an iteration at least (with a budget
    in CPU seconds it spends them whatever they buy). Carcassonne's IS-MCTS at 200 playouts needs
    minutes a game by this bound, and probing one decision of it took longer than the whole answer
    may. On the native backend a search runs its iterations in C at a fraction of an apply from
    Python: no bound (0)."""
    if engine.native is not None or spec == "random":
        return 0.0
    bot = parse_bot_spec(spec)
    if bot.kind == "greedy":
        worlds = bot.budget.playouts if bot.budget and bot.budget.playouts else greedy_samples(engine)
        per_decision = worlds * probe.choices / max(1, probe.searched) * probe.step_seconds
    elif bot.budget is not None and bot.budget.seconds is not None:
        per_decision = bot.budget.seconds
    else:
        playouts = bot.budget.playouts if bot.budget and bot.budget.playouts else DEFAULT_SEARCH_PLAYOUTS
        per_decision = playouts * probe.step_seconds
    return max(probe.seconds - probe.chosen, 0.0) + per_decision * probe.searched


def spread_order(n: int) -> list[int]:
    """0..n-1 in an order whose every prefix is spread over the range (bit-reversed: 0, n/2, n/4,
    3n/4 ...), so a probe cut short by its time still samples the whole game."""
    bits = max(1, (n - 1).bit_length())
    order = sorted(range(1 << bits), key=lambda i: int(f"{i:0{bits}b}"[::-1], 2))
    return [i for i in order if i < n]


def scaled_down(spec: str, engine: Engine) -> tuple[str, float] | None:
    """A bot that costs at most 1/factor of `spec` a decision, and the factor: a search bot at a
    tenth of its playouts (factor 1: a decision has a fixed part, 8 ms of Glory to Rome's 14 at 200
    playouts, so only "no less" holds), greedy of k worlds as one world and one ply that breaks ties
    at random (factor k). One decision of it bounds what a decision of `spec` costs before `spec`
    plays one: on Carcassonne a decision of IS-MCTS at 200 playouts took half a minute (its worlds
    inside an effect are applied from Python)."""
    bot = parse_bot_spec(spec)
    if bot.kind in ("mcts", "ismcts") and (bot.budget is None or bot.budget.playouts is not None):
        playouts = bot.budget.playouts if bot.budget and bot.budget.playouts else DEFAULT_SEARCH_PLAYOUTS
        if playouts >= 20:
            return replace(bot, budget=Budget(playouts=playouts // 10)).text, 1.0
    cheapest = "greedy:1:depth=1:ties=random"
    if bot.kind == "greedy" and replace(bot, concede=False).text != cheapest:
        worlds = bot.budget.playouts if bot.budget and bot.budget.playouts else greedy_samples(engine)
        return cheapest, float(worlds)
    return None


def scaled_cost(spec: str, engine: Engine, probe: Probe) -> float:
    """About what `spec` costs a game by one decision of `scaled_down(spec)` (at the middle kept
    position) times its factor; 0 when there is nothing smaller to play."""
    smaller = scaled_down(spec, engine)
    if smaller is None or not probe.positions:
        return 0.0
    small, factor = smaller
    bot, gen = make_bot(small, engine), bot_generator(0)
    bot.choose(Observation(engine, *probe.positions[0]), gen)  # what a first decision sets up
    st, seat = probe.positions[len(probe.positions) // 2]
    started = time.process_time()
    bot.choose(Observation(engine, st, seat), gen)
    return max(probe.seconds - probe.chosen, 0.0) + (time.process_time() - started) * factor * probe.searched


def cost_per_game(spec: str, engine: Engine, probe: Probe, most: float = float("inf")) -> float:
    """Estimated CPU seconds of one game with `spec` at every seat: the random game, less what its
    random bots spent on the decisions with a real choice, plus what `spec` spends on as many
    (measured on the kept positions, spread over the game, for at most PROBE_SECONDS; a probe stops
    early once the estimate passes `most`). The random bots' part is not small: held to the
    concession policy, a bot applies its choice to a determinisation (bots/policy.py), most of a
    random Glory to Rome game's time."""
    if spec == "random" or not probe.positions:
        return probe.seconds
    base = max(probe.seconds - probe.chosen, 0.0)
    bot = make_bot(spec, engine)
    gen = bot_generator(0)
    order = spread_order(len(probe.positions))
    if len(order) > 1:  # what a first decision sets up is no part of a decision's cost
        bot.choose(Observation(engine, *probe.positions[order.pop()]), gen)
    started = time.process_time()
    measured = 0
    for i in order:
        st, seat = probe.positions[i]
        bot.choose(Observation(engine, st, seat), gen)
        measured += 1
        spent = time.process_time() - started
        if spent > PROBE_SECONDS or base + spent / measured * probe.searched > most:
            break
    per_decision = (time.process_time() - started) / measured
    return base + per_decision * probe.searched


def ladder(game: CompiledGame) -> tuple[str, ...]:
    """The default bots to try, strongest first: the game's `bots: ladder:`, else LADDER; always
    ending with random. A spec that does not parse is error B002, located in the game file."""
    value, origin = game.bots.get("ladder", (None, None))
    if not value:
        return LADDER
    specs: list[str] = []
    for text in [value] if isinstance(value, str) else list(value):
        try:
            specs.append(parse_bot_spec(str(text)).text)
        except BotSpecError as err:
            report = Report()
            report.error("B002", f"bots.ladder: {err}", span_of(origin), "e.g. ladder: [greedy, ismcts:200]")
            raise AuthorError(report) from None
    return (*specs, "random") if specs[-1] != "random" else tuple(specs)


def allowance_seconds(jobs: int) -> float:
    """The CPU seconds the default bots' run may cost: BUDGET_SECONDS per worker process, and at
    least ANSWER_SECONDS (one process gets the 5 CPU-minutes two get)."""
    return max(ANSWER_SECONDS, BUDGET_SECONDS * max(1, jobs))


def default_bot(config: Config, seed: int, games: int, jobs: int) -> tuple[str, str, GameRecord | None]:
    """(the spec every seat gets, a sentence saying why, the record of the run's first game when a
    rule failed in it) for a run without --bot."""
    game = load(config.game, list(config.options), config.variant, list(config.expansions))
    players = config.players if config.players is not None else game.min_players
    if config.backend == "native" and not is_built(game):
        # A native build costs a second or more of CPU: a run whose first game fails (a hostile or
        # broken rule) reports it from the Python backend, which gives the same record, unbuilt.
        probe = probe_game(Engine(game), players, seed, config.max_decisions)
        if probe.failure is not None:
            return "random", FAILED, probe.failure
    engine = Engine(game, backend=config.backend)  # the probe measures the bots where they will run
    probe = probe_game(engine, players, seed, config.max_decisions)
    if probe.failure is not None:
        return "random", FAILED, probe.failure
    allowance = allowance_seconds(jobs)
    costs: list[str] = []
    rungs = ladder(game)
    for spec in rungs:
        floor = least_cost(spec, engine, probe) * games
        if floor > allowance and spec != rungs[-1]:  # not worth a probe: its applies alone pass
            costs.append(f"{spec} would need at least {floor:.0f} s (its applies alone)")
            continue
        scaled = scaled_cost(spec, engine, probe) * games if spec != rungs[-1] else 0.0
        if scaled > 2 * allowance:  # one decision of a smaller bot says enough
            costs.append(f"{spec} would need more than {scaled:.0f} s (a smaller bot's decision)")
            continue
        need = cost_per_game(spec, engine, probe, 2 * allowance / games) * games
        if need <= allowance or spec == rungs[-1]:
            skipped = f"; {', '.join(costs)}" if costs else ""
            order = " of the game's bots.ladder" if rungs != LADDER else ""
            return (
                spec,
                f"default bots: {spec}, the strongest{order} whose cost fits: about {need:.0f} CPU s for "
                f"{games} games (allowance {allowance:.0f} s){skipped}",
                None,
            )
        costs.append(f"{spec} would need about {need:.0f} s")
    raise AssertionError("unreachable: the ladder ends with random")
