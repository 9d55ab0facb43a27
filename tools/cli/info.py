"""The commands that tell about a game: `check`, `variants`, `options`, `coverage` and `schema`.

Each prints text for people, or with `--json` the same facts as one JSON document on stdout (an
author error with `--json` is printed by `tabula.cli.main` as `{"ok": false, "errors": [...]}`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tabula.common import diagnostic_json, load, print_json
from tabula.interpreter.base.source import Diagnostic, render
from tabula.interpreter.base.terminal import shorten
from tabula.interpreter.engine import Engine, find_game
from tabula.interpreter.load.options import declared_specs, show_value
from tabula.interpreter.model.game import CompiledGame


def run_check(args: argparse.Namespace) -> int:
    """Load the game, run its setup once for each player count, print `ok: ...` and the warnings."""
    game = load(args.game, args.option, args.variant, args.expansions)
    engine = Engine(game)
    for players in range(game.min_players, game.max_players + 1):
        engine.new_game(players, 0)
    warnings: list[Diagnostic] = list(game.check_warnings)
    missing = native_missing(game) if getattr(args, "native", False) else None
    if args.json:
        print_json(
            {
                "ok": True,
                "game": game.id,
                "name": game.name,
                "packs": game.packs,
                "players": {"min": game.min_players, "max": game.max_players},
                "components": len(game.components),
                "zones": len(game.zones),
                "actions": len(game.actions),
                "errors": [],
                "warnings": [diagnostic_json(d) for d in warnings],
                **({} if missing is None else {"native": [diagnostic_json(d) for d in missing]}),
            }
        )
        return 0
    packs = f" with {', '.join(game.packs)}" if game.packs else ""
    print(
        f"ok: {shorten(game.name)}{packs} ({len(game.components)} components, {len(game.zones)} zones, "
        f"{len(game.actions)} actions)"
    )
    for d in warnings:
        print()
        print(render(d))
    if warnings:
        print(f"\n{len(warnings)} warning{'s' if len(warnings) != 1 else ''}")
    if missing is not None:
        print_native(missing)
    return 0


def native_missing(game: CompiledGame) -> list[Diagnostic]:
    """Every construct of `game` the native backend does not hold yet (N001), in file order."""
    from tabula.interpreter.compile.native.support import lower_game

    _, walk = lower_game(game)
    return walk.report.diagnostics


def print_native(missing: list[Diagnostic]) -> None:
    if not missing:
        print("native: supported")
        return
    for d in missing:
        print()
        print(render(d))
    s = "s" if len(missing) != 1 else ""
    print(f"\nnative: {len(missing)} construct{s} not supported yet (the game runs on the Python backend)")


def run_variants(args: argparse.Namespace) -> int:
    """List the variants and expansions a game ships."""
    from tabula.interpreter.load.overlay import list_packs

    packs = list_packs(find_game(args.game))
    if args.json:
        print_json([{"name": n, "kind": k, "description": d, "file": str(f)} for n, k, d, f in packs])
        return 0
    if not packs:
        print("no variants or expansions")
    for name, kind, description, _ in packs:
        print(f"{name:24} {kind:10} {description}")
    return 0


def run_options(args: argparse.Namespace) -> int:
    """List a game's rules options: name, type, default (after the packs and --option) and description."""
    game = load(args.game, args.option, args.variant, args.expansions)
    specs = game.option_specs or declared_specs(game.options)
    rows = [
        {**spec.as_json(), "default": game.options.get(name, spec.default)} for name, spec in specs.items()
    ]
    if args.json:
        print_json(rows)
        return 0
    if not rows:
        print(f"{shorten(game.name)} has no rules options")
        return 0
    table = [
        (name, spec.type_text(), show_value(row["default"]), spec.description)
        for (name, spec), row in zip(specs.items(), rows, strict=True)
    ]
    widths = [max(len(r[i]) for r in [("name", "type", "default", ""), *table]) for i in range(3)]
    print(f"{'name':{widths[0]}}  {'type':{widths[1]}}  {'default':{widths[2]}}  description")
    for name, type_text, default, description in table:
        print(f"{name:{widths[0]}}  {type_text:{widths[1]}}  {default:{widths[2]}}  {description}".rstrip())
    return 0


def run_coverage(args: argparse.Namespace) -> int:
    """Rules coverage of a game's scenarios (and of random games with --games)."""
    from tabula.interpreter.scenarios.coverage import measure, render

    report = measure(args.game, args.games, args.players, args.seed, args.variant, tuple(args.expansions))
    failed = [r for r in report.scenarios if not r.passed]
    if args.json:
        print_json(coverage_json(report))
    else:
        print(render(report))
        if failed:
            print(f"\n{len(failed)} scenario(s) failed: run `tabula verify` for details", file=sys.stderr)
    return 1 if failed else 0


def coverage_json(report: Any) -> dict[str, Any]:
    """A `CoverageReport` as plain data."""
    from tabula.interpreter.scenarios.coverage import KINDS

    kinds = {}
    for kind in (*KINDS, "branch"):
        hit, miss = len(report.exercised.get(kind, [])), len(report.missed.get(kind, []))
        if hit + miss:
            kinds[kind] = {"exercised": hit, "total": hit + miss, "percent": round(report.percent(kind), 1)}
    missed = [
        {"kind": kind, "name": name, **({"file": s.file, "line": s.line, "col": s.col} if s else {})}
        for kind in (*KINDS, "branch")
        for name, s in report.missed.get(kind, [])
    ]
    return {
        "game": report.game,
        "scenarios": len(report.scenarios),
        "passed": sum(r.passed for r in report.scenarios),
        "failed": [{"name": r.name, "file": r.file} for r in report.scenarios if not r.passed],
        "random_games": report.random_games,
        "kinds": kinds,
        "missed": missed,
    }


def run_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of game files, scenario files or pack files."""
    # imported here: the schema models (pydantic) cost time that other commands need not pay
    from tabula.interpreter.load.packtypes import pack_json_schema
    from tabula.interpreter.load.schema.game import game_json_schema
    from tabula.interpreter.load.schema.scenario import scenario_json_schema

    schemas = {"game": game_json_schema, "scenario": scenario_json_schema, "pack": pack_json_schema}
    print_json(schemas[args.kind]())
    return 0


def run_compile(args: argparse.Namespace) -> int:
    """Compile the game and write its generated module (every function the engine will run)."""
    game = load(args.game, args.option, args.variant, args.expansions)
    out = Path(args.dump)
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{game.id}.py"
    packs = f", packs: {', '.join(game.packs)}" if game.packs else ""
    header = (
        f"# Generated by `tabula compile` from {game.folder}{packs}; options {game.options}.\n"
        "# Read-only: this is the Python the engine runs for this game (see docs/ARCHITECTURE.md).\n\n"
    )
    source = game.module.source()
    target.write_text(header + source, encoding="utf-8")
    functions = source.count("\ndef ") + source.startswith("def ")
    print(f"wrote {target} ({functions} functions, {source.count(chr(10))} lines)")
    return 0
