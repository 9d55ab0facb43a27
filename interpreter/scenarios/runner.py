"""The scenario runner shared by `tabula verify`, the pytest plugin and rules coverage: it runs one
case of a scenario file and returns a `ScenarioResult`; it never raises for author or rule errors.

A case starts a seeded game, stops it before a phase of the first turn (`given.start`), writes the
`given` state there (or runs final scoring on it: `start: game_end`), then carries out the `when`
steps in order and checks `expect_end` and `then`. Compiled games are cached per process, one per
(game folder, variant, expansions): every case of a game runs on the same compiled game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tabula.interpreter.scenarios.checks as checks
from tabula.interpreter.base.source import (
    AuthorError,
    Diagnostic,
    Report,
    did_you_mean,
    render,
    render_report,
)
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.load.positions import YamlPath
from tabula.interpreter.load.schema.scenario import WhenStep
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice
from tabula.interpreter.scenarios.context import Context
from tabula.interpreter.scenarios.files import Case, game_folder, load_cases
from tabula.interpreter.scenarios.given import (
    GAME_END,
    START_TURN,
    check_start,
    has_rounds,
    phase_ids,
    write_given,
)

LOG_LINES = 25


@dataclass
class ScenarioResult:
    """The outcome of one scenario case."""

    name: str
    file: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    error: str | None = None
    log: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    line: int = 1


# ------------------------------------------------------------------ compiled games, shared


class GameCache:
    """Compiled games by (folder, variant, expansions): one compile per configuration per process.
    A game that fails to load is remembered too (its error is raised again)."""

    def __init__(self) -> None:
        self.games: dict[tuple[str, str | None, tuple[str, ...]], CompiledGame | AuthorError] = {}

    def get(self, folder: Path, variant: str | None, expansions: tuple[str, ...]) -> CompiledGame:
        key = (str(folder), variant, expansions)
        hit = self.games.get(key)
        if hit is None:
            try:
                hit = load_game(folder, None, variant, expansions)
            except AuthorError as err:
                hit = err
            self.games[key] = hit
        if isinstance(hit, AuthorError):
            raise hit
        return hit


GAMES = GameCache()


# ------------------------------------------------------------------ `check ... at`

FLOW_POINTS = ("round_start", "round_end", "game_end")
"""Moments of the flow a check may wait for: a round's start (before `rounds.on_start`), a round's
end (after `rounds.on_end`, before the next round starts: the round's final state) and the game's
end (before `flow.finish`)."""


@dataclass
class Waiting:
    """A `{check, at}` step waiting for its event or phase."""

    step: int
    at: str
    conditions: list[str]
    path: YamlPath  # of the check
    single: bool
    keys: set[str]  # watch names that fire it: an event name, or "phase:ID"
    where: str | None


class Run(Context):
    """One case being run."""

    def __init__(
        self,
        case: Case,
        variant: str | None,
        expansions: tuple[str, ...],
        shared: CompiledGame | None,
        backend: str = "python",
    ) -> None:
        super().__init__(case.doc, case.path)
        self.backend = backend
        self.case = case
        self.spec = case.spec
        self.default_variant = variant
        self.default_expansions = list(expansions)
        self.shared = shared
        self.waiting: list[Waiting] = []
        self.armed: set[int] = set()  # the `at` steps already waiting (or done)
        self.seen: list[str] = []  # what fired while a check waited (for the hint when it never came)
        self.deferred: Exception | None = None  # an error inside a watch, raised after the run

    # ------------------------------------------------------------ the game
    def load(self) -> None:
        spec = self.spec
        folder = game_folder(self.doc, spec.game, self.path)
        # the file's own packs are confined to its folder and the game's (S006); --variant/--with
        # come from the command line and are looked up as before
        own = [self.confined(e, ("with", i), folder) for i, e in enumerate(spec.with_)]
        refs = [*(self.pack_ref(e) for e in self.default_expansions), *own]
        if spec.variant:
            vref: str | None = self.confined(spec.variant, ("variant",), folder)
        else:
            vref = self.pack_ref(self.default_variant) if self.default_variant else None
        shared = self.shared
        wanted = [Path(r).stem if r.endswith(".yaml") else r for r in ([vref] if vref else []) + refs]
        if shared is not None and wanted == shared.packs and Path(shared.folder).resolve() == folder:
            self.game = shared  # rules coverage: every scenario of the game runs on its one game
        else:
            self.game = GAMES.get(folder, vref, tuple(refs))
        self.engine = Engine(self.game, backend=self.backend)

    def pack_ref(self, ref: str) -> str:
        """A pack file beside the scenario (by its resolved path), else a pack name of the game."""
        here = self.path.parent / ref
        return str(here.resolve()) if here.is_file() else ref

    def confined(self, ref: str, path: YamlPath, folder: Path) -> str:
        """A pack the scenario file names: a pack name, or a file in its folder or the game's (S006)."""
        return checks.pack_ref(self.doc, path, ref, self.path.parent, folder)

    def start(self) -> None:
        spec = self.spec
        given = spec.given
        self.load()
        check_start(self, given)
        start = given.start or START_TURN
        pause = START_TURN if start == GAME_END else start
        self.st = self.engine.new_game(spec.players, spec.seed, dict(spec.options), self.log, pause=pause)
        if not self.st["t"].get("paused"):
            raise GameRuntimeError(
                f"the game never reached '{start}' in its first turn (it ended, or the phase was skipped)",
                self.span(("given", "start")),
                "R111",
            )
        for i, step in enumerate(spec.when):  # checks at an event that may come before the first choice
            if isinstance(step, str) or step.choose is not None or step.probe is not None:
                break
            if step.at is not None:
                self.wait(step, i)
        write_given(self, given, ("given",))
        if start == GAME_END:
            self.st["t"]["stage"] = "finish"  # the flow runs flow.finish next, then scoring
        self.engine.resume(self.st, self.log)
        self.settle()

    # ------------------------------------------------------------ steps
    def steps(self) -> None:
        for i, step in enumerate(self.spec.when):
            if isinstance(step, str):
                self.choose(step, None, i)
            elif step.given is not None:
                write_given(self, step.given, ("when", i, "given"))
                self.engine.reoffer(self.st, self.log)
                self.settle()
            elif step.at is not None:
                if i not in self.armed:
                    self.wait(step, i)
            elif step.probe is not None:
                self.probe(step, i)
            else:
                self.expectations(step, i)
                if step.choose is not None:
                    self.choose(step.choose, step.by, i)
        for w in self.waiting:
            fired = ", ".join(dict.fromkeys(self.seen)) or "nothing"
            self.failures.append(
                f"{self.where(w.path)}the check at '{w.at}' never happened "
                f"(waited from step {w.step + 1}; what happened since: {fired})"
            )

    def expectations(self, step: WhenStep, i: int) -> None:
        """`check`, `expect_legal`, `expect_illegal` of a step, on the current state."""
        if isinstance(step.check, str):
            self.check([step.check], ("when", i, "check"), single=True)
        elif step.check is not None:
            self.check(list(step.check), ("when", i, "check"))
        legal = self.engine.legal_ids(self.st)
        for cid in _ids(step.expect_legal):
            if not _offered(cid, legal):
                shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
                self.failures.append(
                    f"{self.where(('when', i))}step {i + 1}: '{cid}' should be legal, "
                    f"but it is not (legal now: {shown or 'nothing'})"
                )
        for cid in _ids(step.expect_illegal):
            if _offered(cid, legal):
                self.failures.append(
                    f"{self.where(('when', i))}step {i + 1}: '{cid}' should be illegal, but it is offered"
                )

    def probe(self, step: WhenStep, i: int) -> None:
        """Apply the probed choices to a copy, look at it with the step's expectations, roll back."""
        saved, log, watch = self.st, self.log, self.engine.watch
        self.st, self.log, self.engine.watch = self.engine.clone(self.st), list(self.log), None
        try:
            for k, choice in enumerate(_ids(step.probe)):
                self.choose(choice, step.by if k == 0 else None, i)
            self.expectations(step, i)
        finally:
            self.st, self.log, self.engine.watch = saved, log, watch

    def choose(self, choice: str, by: str | None, i: int) -> None:
        dec = self.st["dec"]
        if dec is None:
            raise self.error(f"step {i + 1} ('{choice}'): the game is over", ("when", i))
        names: list[str] = self.st["names"]
        if by is not None and by not in names:
            raise self.error(
                f"step {i + 1}: '{by}' is not a player of this scenario (players: {', '.join(names)})",
                ("when", i, "by"),
            )
        if by is not None and names[dec["p"]] != by:
            raise self.error(
                f"step {i + 1} ('{choice}'): {names[dec['p']]} decides now, not {by} "
                f"({dec['prompt']}: {', '.join(dec['ids'][:10])})",
                ("when", i),
            )
        try:
            self.engine.apply_inplace(self.st, choice, self.log)
        except IllegalChoice as err:
            raise self.error(f"step {i + 1}: {err}", ("when", i)) from None
        self.settle()

    # ------------------------------------------------------------ checks at an event or a phase
    def wait(self, step: WhenStep, i: int) -> None:
        key = self.moment(step.at or "", i)
        single = isinstance(step.check, str)
        conditions = [step.check] if isinstance(step.check, str) else list(step.check or [])
        self.waiting.append(
            Waiting(i, step.at or "", conditions, ("when", i, "check"), single, {key}, step.where)
        )
        self.armed.add(i)
        self.engine.watch = self.watch

    def moment(self, at: str, i: int) -> str:
        """The watch name of `at`: "phase:ID", "flow:round_end" (a boundary of the flow) or an event.

        A bare name is a phase, else a boundary of the flow, else an event; `phase:`, `flow:` and
        `event:` say which (R104 for a phase or boundary the game does not have)."""
        phases = phase_ids(self)
        points = [*(FLOW_POINTS if has_rounds(self) else ()), "game_end"]
        kind, _, name = at.partition(":") if ":" in at else ("", "", at)
        if kind == "phase" or (kind == "" and name in phases):
            known, key = name in phases, f"phase:{name}"
        elif kind == "flow" or (kind == "" and name in FLOW_POINTS):
            known, key = name in points, f"flow:{name}"
        else:
            known, key = kind in ("", "event"), name
        if not known:
            report = Report()
            rounds = "" if has_rounds(self) else f" ({self.game.name} has no rounds)"
            report.error(
                "R104",
                f"'{at}' is neither an event, a phase nor a moment of the flow of {self.game.name}{rounds}",
                self.span(("when", i, "at")),
                did_you_mean(name, [*phases, *points])
                or f"phases: {', '.join(phases)}; the flow: {', '.join(points)}; events by name",
            )
            raise AuthorError(report)
        return key

    def watch(self, name: str, args: dict[str, Any]) -> None:
        """Called by the runtime at each event and before each phase while a check waits."""
        self.seen.append(name)
        for w in [w for w in self.waiting if name in w.keys]:
            try:
                if w.where is not None and self.holds(
                    w.where, ("when", w.step, "where"), self.st, args, True
                ):
                    continue  # not this firing
                self.waiting.remove(w)
                self.check(w.conditions, w.path, w.single, self.st, args, True, note=f"(at {name}) ")
            except (AuthorError, GameRuntimeError) as err:
                if w in self.waiting:
                    self.waiting.remove(w)
                self.deferred = self.deferred or err
        if not self.waiting:
            self.engine.watch = None

    def settle(self) -> None:
        """Raise an error met inside a watch, now that the engine's run is over."""
        if self.deferred is not None:
            err, self.deferred = self.deferred, None
            raise err

    # ------------------------------------------------------------ the end
    def finish(self) -> None:
        spec = self.spec
        if spec.expect_end is not None:
            over = self.engine.is_terminal(self.st)
            if over != bool(spec.expect_end):
                self.failures.append(f"the game {'should' if spec.expect_end else 'should not'} be over")
            elif isinstance(spec.expect_end, list):
                names = self.st["names"]
                won = sorted(names[p] for p in self.engine.winners(self.st))
                if won != sorted(spec.expect_end):
                    self.failures.append(f"winners should be {sorted(spec.expect_end)}, not {won}")
        self.check(list(spec.then), ("then",))

    def result(self, error: str | None = None) -> ScenarioResult:
        lines = [str(e["text"]) for e in self.log][-LOG_LINES:]
        passed = error is None and not self.failures
        return ScenarioResult(
            self.case.title,
            str(self.path),
            passed,
            self.failures,
            error,
            lines,
            list(self.case.tags),
            self.case.line,
        )


def _ids(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _offered(choice: str, legal: list[str]) -> bool:
    """Is `choice` among the legal ids (a copy number `#n` may be left out)?"""
    return choice in legal or any(x.split("#")[0] == choice or x.replace("#", "") == choice for x in legal)


# ------------------------------------------------------------------ running


def run_case(
    case: Case,
    variant: str | None = None,
    expansions: tuple[str, ...] = (),
    game: CompiledGame | None = None,
    backend: str = "python",
) -> ScenarioResult:
    """Run one case; author and rule errors become the result's error, never an exception."""
    run = Run(case, variant, expansions, game, backend)
    try:
        run.start()
        run.steps()
        run.finish()
    except AuthorError as err:
        return run.result(render_report(err.report))
    except GameRuntimeError as err:
        if err.span is None:
            return run.result(f"error[{err.code}]: {err.message}" if err.code else f"error: {err.message}")
        return run.result(render(Diagnostic("error", err.code or "R001", err.message, err.span)))
    return run.result()


def run_scenario_cases(
    path: Path,
    variant: str | None = None,
    expansions: tuple[str, ...] = (),
    game: CompiledGame | None = None,
    backend: str = "python",
) -> list[ScenarioResult]:
    """Run every case of one scenario file (one result each; one failed result if the file is broken).

    `variant` and `expansions` apply to the cases that name none of their own (`tabula verify
    --variant`); `game`, when given, is the compiled game to use for cases of that game (coverage);
    `backend` is the engine's (`tabula verify --backend`)."""
    loaded = load_cases(path)
    if loaded.error is not None:
        return [ScenarioResult(loaded.title, str(path), False, error=loaded.error)]
    return [run_case(case, variant, expansions, game, backend) for case in loaded.cases]


def run_scenario_file(
    path: Path, variant: str | None = None, expansions: tuple[str, ...] = (), game: CompiledGame | None = None
) -> ScenarioResult:
    """Run one scenario file as one result: passed when every case passed."""
    results = run_scenario_cases(path, variant, expansions, game)
    if len(results) == 1:
        return results[0]
    failed = [r for r in results if not r.passed]
    failures = [f"{r.name}: {f}" for r in failed for f in r.failures]
    errors = [f"{r.name}:\n{r.error}" for r in failed if r.error]
    title = load_cases(path).title
    return ScenarioResult(
        title,
        str(path),
        not failed,
        failures,
        "\n".join(errors) or None,
        failed[-1].log if failed else [],
        sorted({t for r in results for t in r.tags}),
    )
