"""The current position of a table as a scenario file (docs/language.md §6), to turn into a test.

The scenario starts the same game (rules, players, seed) at the start of the current phase with the
same active player, and its `given` writes every zone (components in order, by name, or by key where
several share a name), every counter, every var and every mark that differs from its default. What a
scenario cannot say is named in the file's comments: the round and turn number, and a decision
taken in the middle of a phase (the scenario starts at the phase's beginning). `when` and `then` are
left for the designer to write.
"""

from __future__ import annotations

import io
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedSeq

from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.base.types import COMP, PLAYER, elem
from tabula.interpreter.engine import BUNDLED
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError
from tabula.serve.model import GameSpec, TableError
from tabula.serve.start import _scenario


@dataclass(frozen=True)
class Position:
    """What an export reads of a table: its rules and game, the position, the seed it began with and
    the number of decisions made since."""

    spec: GameSpec
    game: CompiledGame
    state: State
    seed: int
    decisions: int


def scenario_yaml(pos: Position) -> str:
    """The position as the text of a scenario file, starting at the latest phase of the turn that a
    scenario can reach (one whose start needs no decision before it)."""
    phases = [pid for pid, _ in pos.game.flow.phases] if pos.game.flow is not None else []
    current = pos.state["t"].get("phase_id")
    candidates = phases[: phases.index(current) + 1][::-1] if current in phases else []
    text = ""
    for phase in [*candidates, None]:
        text = _scenario_text(pos, phase)
        if phase is None or _starts(text, pos.game):
            return text
    return text


def _starts(text: str, game: CompiledGame) -> bool:
    """Whether a scenario's setup and `given` run (its start phase is reachable)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "position.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            _scenario(path, game)
        except (AuthorError, GameRuntimeError, TableError):
            return False
    return True


def _scenario_text(pos: Position, phase: str | None) -> str:
    g, st = pos.game, pos.state
    names: list[str] = st["names"]
    t = st["t"]
    folder = Path(g.folder).resolve()
    bundled = folder.parent == BUNDLED.resolve()
    data: dict[str, Any] = {
        "scenario": f"Position at {_when(pos)} (exported by tabula serve)",
        "game": folder.name if bundled else str(folder),
        "players": list(names),
        "seed": pos.seed,
    }
    if pos.spec.options:
        data["options"] = dict(pos.spec.options)
    if pos.spec.variant:
        data["variant"] = pos.spec.variant
    if pos.spec.expansions:
        data["with"] = list(pos.spec.expansions)
    given: dict[str, Any] = {}
    if phase:
        given["start"] = phase
    if t.get("active") is not None:
        given["active"] = names[t["active"]]
    given["counters"] = counters(g, st)
    skipped: list[str] = []
    given["vars"] = variables(g, st, skipped)
    given["zones"] = zones(g, st)
    marks_ = marks(g, st)
    if marks_:
        given["marks"] = marks_
    data["given"] = given
    data["when"] = []
    data["then"] = []
    out = io.StringIO()
    yaml = YAML()
    yaml.default_flow_style = False
    yaml.width = 100
    yaml.dump(_flow_lists(data), out)
    return header(pos, skipped, phase, bundled) + out.getvalue()


def _when(pos: Position) -> str:
    t = pos.state["t"]
    has_rounds = pos.game.flow is not None and pos.game.flow.has_rounds
    return f"round {t['round']}, turn {t['turn']}" if has_rounds else f"turn {t['turn']}"


def header(pos: Position, skipped: list[str], phase: str | None, bundled: bool) -> str:
    st = pos.state
    current = st["t"].get("phase_id")
    lines = [
        f"# Exported from tabula serve at {_when(pos)}, after {pos.decisions} decisions.",
        "# A scenario starts at the beginning of a phase of the first turn: the round and turn numbers",
        "# are not kept, and neither is a decision in the middle of the phase.",
    ]
    if phase != current:
        start = f"phase '{phase}'" if phase else "the turn's beginning"
        lines.append(
            f"# It starts at {start}: the game was in phase '{current}', which a scenario cannot reach."
        )
    dec = st["dec"]
    if dec is not None:
        lines.append(f"# The decision pending when exported: {st['names'][dec['p']]}: {dec['prompt']}")
    if skipped:
        lines.append(
            f"# Vars holding components are not written (set them in 'given' if needed): {', '.join(skipped)}"
        )
    if not bundled:
        lines.append("# 'game' is the game's folder: write it relative to where you keep this file.")
    return "\n".join(lines) + "\n"


def counter_refs(g: CompiledGame, names: list[str]) -> list[tuple[str, int]]:
    """Every counter instance as a scenario writes it (`money(Ann)`, `market(black)`), with its index."""
    out: list[tuple[str, int]] = []
    for c in g.counters.values():
        for p in range(len(names)) if c.per_player else [None]:
            start = c.base + (p or 0) * c.width
            for k in range(c.width):
                args = ([names[p]] if p is not None else []) + ([c.keys[k]] if c.keys else [])
                out.append((f"{c.name}({', '.join(args)})" if args else c.name, start + k))
    return out


def counters(g: CompiledGame, st: State) -> dict[str, int]:
    return {ref: st["c"][i] for ref, i in counter_refs(g, st["names"])}


def variables(g: CompiledGame, st: State, skipped: list[str]) -> dict[str, Any]:
    names: list[str] = st["names"]
    symbols = {s for values in g.enums.values() for s in values}
    out: dict[str, Any] = {}
    for name, layout in g.vars.items():
        value = st["v"][name]
        rows = (
            [(f"{name}({names[p]})", v) for p, v in enumerate(value)]
            if layout.per_player
            else [(name, value)]
        )
        for key, v in rows:
            if COMP in layout.type and _has_value(v):
                skipped.append(key)
                continue
            out[key] = dsl_value(v, layout.type, names, symbols)
    return out


def zones(g: CompiledGame, st: State) -> dict[str, list[str]]:
    names: list[str] = st["names"]
    counts = Counter(c.name for c in g.components)
    out: dict[str, list[str]] = {}
    for index, (layout, owner) in enumerate(g.zone_instances()):
        if owner is not None and owner >= len(names):
            continue
        key = f"{layout.name}({names[owner]})" if owner is not None else layout.name
        out[key] = [_component_ref(g, c, counts) for c in st["z"][index]]
    return out


def marks(g: CompiledGame, st: State) -> dict[str, dict[str, Any]]:
    """Marks that differ from their default; players by name where the presentation says so."""
    names: list[str] = st["names"]
    symbols = {s for values in g.enums.values() for s in values}
    counts = Counter(c.name for c in g.components)
    types: dict[str, str] = getattr(g.presentation, "mark_types", {}) or {}
    out: dict[str, dict[str, Any]] = {}
    for mark, values in st["m"].items():
        default = g.marks[mark]
        for cid, value in enumerate(values):
            if value != default:
                ref = _component_ref(g, cid, counts)
                vtype = PLAYER if types.get(mark) == PLAYER else "any"
                out.setdefault(ref, {})[mark] = dsl_value(value, vtype, names, symbols)
    return out


def dsl_value(value: Any, vtype: str, names: list[str], symbols: set[str]) -> Any:
    """A value as the DSL text a scenario's `given` writes: players by name, text quoted."""
    if value is None:
        return "none"
    if isinstance(value, bool) or (isinstance(value, int) and vtype != PLAYER):
        return value
    if isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, str):
        return value if value in symbols else "'" + value.replace("'", "") + "'"
    if isinstance(value, list):
        parts = [dsl_value(v, elem(vtype), names, symbols) for v in value]
        return "[" + ", ".join(_text(x) for x in parts) + "]"
    return str(value)


def _flow_lists(value: Any) -> Any:
    """Lists written on one line (`[C1, C4]`), mappings one key a line."""
    if isinstance(value, dict):
        return {k: _flow_lists(v) for k, v in value.items()}
    if isinstance(value, list):
        seq = CommentedSeq(value)
        seq.fa.set_flow_style()
        return seq
    return value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _has_value(value: Any) -> bool:
    if isinstance(value, list):
        return any(_has_value(v) for v in value)
    return value is not None


def _component_ref(g: CompiledGame, cid: int, counts: Counter[str]) -> str:
    comp = g.components[cid]
    return comp.key if counts[comp.name] > 1 else comp.name
