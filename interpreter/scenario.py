"""Scenarios: rulebook examples as data (given / when / then), run by `tabula verify` and pytest.

A scenario starts a seeded game, stops before a phase of the first turn (`given.start`), writes only
what matters (counters, vars, zones, marks, the active player), applies choices by their stable ids,
and checks DSL conditions. Player names are usable in every expression of the file. A failure reports
the condition, the values of both sides of a comparison, and the log since `given`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.interpreter import scenario_checks as checks
from tabula.interpreter.choices import value_id
from tabula.interpreter.compile.scope import BOOL, COMP, INT, PLAYER, STR, elem, list_of
from tabula.interpreter.dsl.parser import PlainOrigin, TextOrigin
from tabula.interpreter.engine import BUNDLED, Engine, find_game, load_game
from tabula.interpreter.model import CompiledGame
from tabula.interpreter.runtime import GameRuntimeError, IllegalChoice, Runtime
from tabula.interpreter.schema import validate_scenario
from tabula.interpreter.source import AuthorError, Report, render, render_report
from tabula.interpreter.state import State
from tabula.interpreter.yamlsource import YamlDoc, load_yaml_file, span_for


@dataclass
class ScenarioResult:
    """The outcome of one scenario file."""

    name: str
    file: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    error: str | None = None
    log: list[str] = field(default_factory=list)


def find_scenarios(paths: list[str]) -> list[Path]:
    """Scenario files under the given files, folders or bundled game names (their `scenarios/`)."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists() and (BUNDLED / raw).is_dir():
            p = BUNDLED / raw
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            inside = "scenarios" in p.parts  # the folder given is (inside) a scenarios folder
            out.extend(
                sorted(f for f in p.rglob("*.yaml") if inside or "scenarios" in f.relative_to(p).parts)
            )
    return out


class _Run:
    """One scenario being run."""

    def __init__(
        self,
        doc: YamlDoc,
        spec: Any,
        path: Path,
        variant: str | None = None,
        expansions: tuple[str, ...] = (),
    ) -> None:
        self.shared_game: CompiledGame | None = None
        self.default_variant = variant
        self.default_expansions = list(expansions)
        self.doc = doc
        self.spec = spec
        self.path = path
        self.failures: list[str] = []
        self.log: list[dict[str, Any]] = []
        self.game: CompiledGame
        self.engine: Engine
        self.st: State

    def origin(self, *path: str | int) -> TextOrigin:
        o = self.doc.value_origin.get(tuple(path))
        if o is not None:
            return o  # type: ignore[return-value]
        sp = span_for(self.doc, list(path))
        return PlainOrigin(sp.file, sp.line, sp.col) if sp else PlainOrigin(str(self.path))

    def local_types(self) -> dict[str, str]:
        types = {name: PLAYER for name in self.st["names"]}
        types.update(game_over=BOOL, winners=list_of(PLAYER), legal=list_of(STR), scores=list_of(INT))
        return types

    def locals(self) -> dict[str, Any]:
        values: dict[str, Any] = {name: i for i, name in enumerate(self.st["names"])}
        values.update(
            game_over=self.engine.is_terminal(self.st),
            legal=self.engine.legal_ids(self.st),
            winners=self.engine.winners(self.st) if self.engine.is_terminal(self.st) else [],
            scores=self.engine.scores(self.st),
        )
        return values

    # ------------------------------------------------------------ stages
    def start(self) -> None:
        spec = self.spec
        game_ref = spec.game
        folder = (
            self.path.parent / game_ref if (self.path.parent / game_ref).is_dir() else find_game(game_ref)
        )
        here = self.path.parent

        def pack_ref(ref: str) -> str:
            return str(here / ref) if (here / ref).is_file() else ref

        def confined(ref: str, *path: str | int) -> str:
            return checks.pack_ref(self.doc, path, ref, here, Path(folder))

        variant = (confined(spec.variant, "variant") if spec.variant else None) or self.default_variant
        expansions = [*self.default_expansions, *(confined(e, "with", i) for i, e in enumerate(spec.with_))]
        shared = self.shared_game
        wanted = [
            Path(r).stem if r.endswith(".yaml") else r for r in ([variant] if variant else []) + expansions
        ]
        if (
            shared is not None
            and wanted == shared.packs
            and Path(shared.folder).resolve() == Path(folder).resolve()
        ):
            self.game = shared  # rules coverage: every scenario of the game runs on one compiled game
        else:
            self.game = load_game(
                folder, None, pack_ref(variant) if variant else None, tuple(pack_ref(e) for e in expansions)
            )
        self.engine = Engine(self.game)
        players = spec.players
        given = spec.given
        start = given.start if given is not None and given.start else "turn"
        self.st = self.engine.new_game(players, spec.seed, dict(spec.options or {}), self.log, pause=start)
        if not self.st["t"].get("paused"):
            raise GameRuntimeError(f"the game never reached '{start}' in its first turn", None)
        if given is not None:
            self.apply_given(given)
        self.engine.resume(self.st, self.log)

    def write(self, text: str, origin: TextOrigin) -> None:
        report = Report()
        block = self.game.snippets.block(text, origin, report, self.local_types())
        if report.has_errors or block is None:
            raise AuthorError(report)
        rt = Runtime(self.game, self.st, self.log)
        rt.loc = self.locals()
        fr = [block, 0, None, None]
        for step in self.game.blocks[block]:
            step.exec(rt, fr)

    def apply_given(self, given: Any) -> None:
        checks.given_values(self.doc, given)
        if getattr(given, "active", None) is not None:
            p = checks.player_index(self.doc, ("given", "active"), self.st["names"], given.active)
            self.st["t"]["active"] = p
            self.st["t"]["next"] = p
        for section in ("vars", "counters"):
            for key, value in (getattr(given, section) or {}).items():
                self.write(f"set {key} = {_dsl_value(value)}", self.origin("given", section, key))
        for zone, names in (given.zones or {}).items():
            self.set_zone(zone, names)
        for comp_name, marks in (given.marks or {}).items():
            cid = self.component(comp_name, None)
            for mark, value in marks.items():
                self._set_mark(cid, mark, value, ("given", "marks", comp_name, mark))

    def _set_mark(self, cid: int, mark: str, value: Any, path: tuple[str | int, ...]) -> None:
        report = Report()
        types = {**self.local_types(), "_c": COMP}
        block = self.game.snippets.block(
            f"set _c.{mark} = {_dsl_value(value)}", self.origin(*path), report, types
        )
        if report.has_errors or block is None:
            raise AuthorError(report)
        rt = Runtime(self.game, self.st, self.log)
        rt.loc = {**self.locals(), "_c": cid}
        for step in self.game.blocks[block]:
            step.exec(rt, [block, 0, None, None])

    def component(self, name: str, owner: int | None, taken: set[int] | None = None) -> int:
        g = self.game
        candidates = [c for c in g.components if c.key == name or c.name == name]
        if not candidates:
            raise GameRuntimeError(f"no component named '{name}'", span_for(self.doc, ["given"]))
        for c in candidates:
            if taken and c.id in taken:
                continue
            if owner is not None and c.props.get("owner") not in (None, owner):
                continue
            return c.id
        raise GameRuntimeError(
            f"no free component named '{name}' for this zone", span_for(self.doc, ["given"])
        )

    def set_zone(self, zone_text: str, names: list[str]) -> None:
        where: tuple[str, ...] = ("given", "zones", zone_text)
        name = checks.zone_ref(self.doc, where, self.game, zone_text)
        report = Report()
        f = self.game.snippets.expr(
            zone_text, self.origin("given", "zones", zone_text), report, self.local_types()
        )
        if report.has_errors or f is None:
            raise AuthorError(report)
        rt = Runtime(self.game, self.st)
        rt.loc = self.locals()
        zone = checks.zone_instance(
            self.doc, where, self.game, self.st, name, rt.evaluate(f, span_for(self.doc, where))
        )
        owner = self.game.zone_owner[zone]
        st = self.st
        taken: set[int] = set()
        wanted: list[int] = []
        for n in names:
            cid = self.component(str(n), owner, taken)
            taken.add(cid)
            wanted.append(cid)
        displaced = [c for c in st["z"][zone] if c not in wanted]
        sources = [st["loc"][c] for c in wanted if st["loc"][c] != zone]
        for cid in wanted:
            old = st["loc"][cid]
            if old >= 0:
                st["z"][old].remove(cid)
        back = sources[0] if sources else -1
        for cid in displaced:
            st["z"][zone].remove(cid)
            st["loc"][cid] = back
            if back >= 0:
                st["z"][back].append(cid)
        st["z"][zone] = list(wanted)
        for cid in wanted:
            st["loc"][cid] = zone

    def steps(self) -> None:
        for i, step in enumerate(self.spec.when or []):
            if isinstance(step, str):
                self.choose(step, None, i)
                continue
            if getattr(step, "check", None):
                if isinstance(step.check, str):
                    self.check([step.check], ("when", i, "check"), single=True)
                else:
                    self.check(list(step.check), ("when", i, "check"))
            if step.expect_illegal and step.expect_illegal in self.engine.legal_ids(self.st):
                self.failures.append(
                    f"step {i + 1}: '{step.expect_illegal}' should be illegal, but it is offered"
                )
            if step.choose:
                self.choose(step.choose, step.by, i)

    def choose(self, choice: str, by: str | None, i: int) -> None:
        dec = self.st["dec"]
        if dec is None:
            raise GameRuntimeError(
                f"step {i + 1} ('{choice}'): the game is over", span_for(self.doc, ["when", i])
            )
        if by is not None and self.st["names"][dec["p"]] != by:
            raise GameRuntimeError(
                f"step {i + 1} ('{choice}'): {self.st['names'][dec['p']]} decides now, not {by} "
                f"({dec['prompt']}: {', '.join(dec['ids'][:10])})",
                span_for(self.doc, ["when", i]),
            )
        try:
            self.engine.apply_inplace(self.st, choice, self.log)
        except IllegalChoice as err:
            raise GameRuntimeError(f"step {i + 1}: {err}", span_for(self.doc, ["when", i])) from None

    def show(self, v: Any, t: str) -> str:
        """A value as an author reads it: players and components by name."""
        if isinstance(v, list):
            return "[" + ", ".join(self.show(x, elem(t)) for x in v) + "]"
        if isinstance(v, str):
            return repr(v)
        return value_id(self.game, self.st["names"], v, t)

    def check(self, conditions: list[str], base: tuple[str | int, ...], single: bool = False) -> None:
        for j, text in enumerate(conditions):
            path = base if single else (*base, j)
            origin = self.origin(*path)
            report = Report()
            f = self.game.snippets.expr(text, origin, report, self.local_types())
            if report.has_errors or f is None:
                raise AuthorError(report)
            rt = Runtime(self.game, self.st)
            rt.loc = self.locals()
            if rt.evaluate(f, span_for(self.doc, list(path))):
                continue
            detail = ""
            parts = self.game.snippets.compare_parts(text, origin, Report(), self.local_types())
            if parts is not None:
                rt.loc = self.locals()
                left, right = (self.show(f(rt), t) for f, t in parts)
                detail = f"  (left side is {left}, right side is {right})"
            sp = span_for(self.doc, list(path))
            where = f"{sp.file}:{sp.line}:{sp.col}: " if sp else ""
            self.failures.append(f"{where}{text}{detail}")


def _dsl_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_dsl_value(x) for x in v) + "]"
    return str(v)


def run_scenario_file(
    path: Path, variant: str | None = None, expansions: tuple[str, ...] = (), game: CompiledGame | None = None
) -> ScenarioResult:
    """Run one scenario file; never raises for author or rule errors (they become the result's error).

    `variant` and `expansions` apply when the scenario names none of its own (`tabula verify --variant`);
    `game`, when given, is the compiled game to reuse for scenarios of that game (rules coverage)."""
    report = Report()
    doc = load_yaml_file(path, report)
    spec = validate_scenario(doc, report) if doc is not None and not report.has_errors else None
    if spec is None or doc is None:
        return ScenarioResult(path.stem, str(path), False, error=render_report(report))
    run = _Run(doc, spec, path, variant, expansions)
    run.shared_game = game
    try:
        run.start()
        run.steps()
        if spec.expect_end is not None:
            over = run.engine.is_terminal(run.st)
            if over != bool(spec.expect_end):
                run.failures.append(f"the game {'should' if spec.expect_end else 'should not'} be over")
            elif isinstance(spec.expect_end, list):
                names = run.st["names"]
                won = sorted(names[p] for p in run.engine.winners(run.st))
                if won != sorted(spec.expect_end):
                    run.failures.append(f"winners should be {sorted(spec.expect_end)}, not {won}")
        run.check(list(spec.then or []), ("then",))
    except AuthorError as err:
        return _result(run, spec, path, error=render_report(err.report))
    except GameRuntimeError as err:
        where = f"{err.span.file}:{err.span.line}:{err.span.col}: " if err.span else ""
        text = f"{where}error: {err.message}"
        if err.span:
            from tabula.interpreter.source import Diagnostic

            text = render(Diagnostic("error", "R001", err.message, err.span))
        return _result(run, spec, path, error=text)
    return _result(run, spec, path)


def _result(run: _Run, spec: Any, path: Path, error: str | None = None) -> ScenarioResult:
    lines = [str(e["text"]) for e in run.log][-25:]
    passed = error is None and not run.failures
    return ScenarioResult(str(spec.scenario), str(path), passed, run.failures, error, lines)
