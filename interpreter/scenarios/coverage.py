"""Rules coverage: which actions, procedures, triggers, phases, end checks and branches of a game were
exercised by its scenarios (and optionally by random games), with the never-exercised ones located.

Every compiled block is an item: named blocks (an action's effect, a procedure, a trigger, a phase,
an end check) and the branches inside them (the bodies of `if`/`elif`/`else`, loops), which is where
a card's own effect usually lives. A block counts as exercised when the runtime entered it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import Span
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.scenarios.files import find_scenarios
from tabula.interpreter.scenarios.runner import ScenarioResult, run_scenario_file

KINDS = ("action", "procedure", "trigger", "phase", "end check")


@dataclass
class CoverageReport:
    """Exercised and missed items per kind, with the scenario results that produced them."""

    game: str
    scenarios: list[ScenarioResult] = field(default_factory=list)
    random_games: int = 0
    exercised: dict[str, list[tuple[str, Span | None]]] = field(default_factory=dict)
    missed: dict[str, list[tuple[str, Span | None]]] = field(default_factory=dict)

    def percent(self, kind: str) -> float:
        hit, miss = len(self.exercised.get(kind, [])), len(self.missed.get(kind, []))
        return 100.0 * hit / (hit + miss) if hit + miss else 100.0


def _item(game: CompiledGame, block: int) -> tuple[str, str] | None:
    if block in game.block_names:
        return game.block_names[block]
    if block in game.block_spans and block != game.main_block:
        span = game.block_spans[block]
        return "branch", f"{Path(span.file).name}:{span.line}"
    return None


def measure(
    game_ref: str | Path,
    games: int = 0,
    players: int | None = None,
    seed: int = 1,
    variant: str | None = None,
    expansions: tuple[str, ...] = (),
) -> CoverageReport:
    """Run the game's scenarios (and `games` random games) on one compiled game, recording blocks."""
    game = load_game(game_ref, None, variant, expansions, instrument=True)
    game.coverage = set()
    report = CoverageReport(game.name)
    for path in find_scenarios([str(Path(game.folder) / "scenarios")]):
        # scenarios written for other packs run on their own game and add nothing to this one
        # (the variant and expansions measured apply to the scenarios that name none of their own)
        report.scenarios.append(run_scenario_file(path, variant, expansions, game=game))
    engine = Engine(game)
    for i in range(games):
        st = engine.new_game(players or game.min_players, seed=seed + i)
        bot = rng.seed_state(seed + i)
        while st["dec"] is not None:
            engine.apply_inplace(st, rng.below(bot, len(st["dec"]["ids"])))
        report.random_games += 1
    seen = game.coverage
    for block in range(game.rule_blocks):
        item = _item(game, block)
        if item is None:
            continue
        kind, name = item
        target = report.exercised if block in seen else report.missed
        target.setdefault(kind, []).append((name, game.block_spans.get(block)))
    game.coverage = None
    return report


def _relative(file: str) -> str:
    path = Path(file)
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return file


def render(report: CoverageReport) -> str:
    """The coverage summary as text: one line per kind, then every item never exercised."""
    lines = [
        f"rules coverage of {report.game}: {len(report.scenarios)} scenarios "
        f"({sum(r.passed for r in report.scenarios)} passed), {report.random_games} random games"
    ]
    total_hit = total = 0
    for kind in (*KINDS, "branch"):
        hit, miss = len(report.exercised.get(kind, [])), len(report.missed.get(kind, []))
        if hit + miss == 0:
            continue
        total_hit, total = total_hit + hit, total + hit + miss
        label = "branches" if kind == "branch" else kind + "s"
        lines.append(f"  {label:12} {hit:4}/{hit + miss:<4} {report.percent(kind):5.1f}%")
    if total:
        lines.append(f"  {'all':12} {total_hit:4}/{total:<4} {100.0 * total_hit / total:5.1f}%")
    missed = [(kind, name, span) for kind in (*KINDS, "branch") for name, span in report.missed.get(kind, [])]
    if missed:
        lines.append("never exercised:")
        for kind, name, span in missed:
            where = f"{_relative(span.file)}:{span.line}:{span.col}" if span else "?"
            lines.append(f"  {where}  {kind} {name if kind != 'branch' else ''}".rstrip())
    return "\n".join(lines)
