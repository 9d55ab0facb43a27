"""Recording a played game as a scenario file: a playtest's bug becomes a regression test in one step.

`Recorder` is an `Engine` that remembers how the game was started (players, seed, options) and every
choice made, by its id and who made it. `scenario_text` writes the scenario: the game, players, seed,
the options that differ from the game's defaults, the variant and expansions, each choice as
`{by, choose}`, whether the game is over (and who won), and the facts of the final position as
`then`: the flow position, the scores, every zone's contents (names, or a count for a long zone),
and every counter, var and mark that differs from its starting value. Replayed by the scenario
runner, a recording of a finished or abandoned game passes. A recording of a game where a rule
failed ends with the failing choice and no `then`: it fails, with that error, until the rule is fixed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabula.interpreter.base.types import COMP, PLAYER, elem
from tabula.interpreter.engine import BUNDLED, Engine, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice

LONG_ZONE = 12  # longer zones are recorded by their size
LONG_LEGAL = 12


class Recorder(Engine):
    """An engine that records the start of its last game and every choice applied to it."""

    def __init__(self, game: CompiledGame) -> None:
        super().__init__(game)
        self.players: list[str] = []
        self.seed = 0
        self.options: dict[str, Any] = {}
        self.steps: list[tuple[str, str]] = []  # (who decided, choice id)
        self.state: State | None = None

    def new_game(
        self,
        players: int | list[str],
        seed: int = 0,
        options: dict[str, Any] | None = None,
        log: list[dict[str, Any]] | None = None,
        pause: str | None = None,
    ) -> State:
        self.players, self.seed, self.options, self.steps = [], seed, dict(options or {}), []
        st = super().new_game(players, seed, options, log, pause)
        self.players = list(st["names"])
        self.state = st
        return st

    def apply_inplace(self, st: State, choice: str | int, log: list[dict[str, Any]] | None = None) -> None:
        ids = self.legal_ids(st)
        who = st["names"][st["dec"]["p"]] if st["dec"] is not None else ""
        chosen = ids[choice] if isinstance(choice, int) and 0 <= choice < len(ids) else str(choice)
        try:
            super().apply_inplace(st, choice, log)
        except IllegalChoice:
            raise  # not made: the game did not move
        except BaseException:
            self.steps.append((who, chosen))  # the choice whose rules failed
            raise
        self.steps.append((who, chosen))


# ------------------------------------------------------------------ writing


def scenario_text(
    rec: Recorder,
    st: State,
    out: Path,
    variant: str | None = None,
    expansions: list[str] | tuple[str, ...] = (),
    title: str | None = None,
    error: str | None = None,
) -> str:
    """The scenario file (YAML text) for the game `rec` played, ending in `st`, to be written at `out`."""
    game = rec.game
    title = title or f"Recorded game of {game.name}, seed {rec.seed}"
    lines = [f"scenario: {_q(title)}"]
    if error is not None:
        lines.append(f"description: {_q('The last choice failed with: ' + error)}")
    else:
        lines.append(f"description: {_q(f'{len(rec.steps)} choices recorded; then: the final position.')}")
    lines.append(f"game: {_q(game_ref(game, out))}")
    lines.append(f"players: {_flow(rec.players)}")
    lines.append(f"seed: {rec.seed}")
    options = changed_options(game, st, variant, expansions)
    if options:
        lines.append(f"options: {_flow(options)}")
    if variant:
        lines.append(f"variant: {_q(pack_ref(variant, out))}")
    if expansions:
        lines.append(f"with: {_flow([pack_ref(e, out) for e in expansions])}")
    lines.append("when:" if rec.steps else "when: []")
    lines.extend(f"  - {{by: {_q(who)}, choose: {_q(choice)}}}" for who, choice in rec.steps)
    if error is not None:
        return "\n".join(lines) + "\n"
    engine = Engine(game)
    if engine.is_terminal(st):
        lines.append(f"expect_end: {_flow([st['names'][p] for p in engine.winners(st)])}")
    else:
        lines.append("expect_end: false")
    lines.append("then:")
    for section, conditions in facts(engine, st):
        lines.append(f"  # {section}")
        lines.extend(f"  - {_q(fact)}" for fact in conditions)
    return "\n".join(lines) + "\n"


def write_recording(
    out: Path,
    rec: Recorder,
    st: State,
    variant: str | None = None,
    expansions: list[str] | tuple[str, ...] = (),
    title: str | None = None,
    error: str | None = None,
) -> Path:
    """Write the scenario of the game `rec` played (see `scenario_text`) to `out`."""
    out.write_text(scenario_text(rec, st, out, variant, expansions, title, error), encoding="utf-8")
    return out


def record_failed_playout(
    game: CompiledGame,
    play: Callable[[Engine], object],
    variant: str | None = None,
    expansions: list[str] | tuple[str, ...] = (),
    folder: Path = Path(),
) -> str:
    """A failed playout, played again by `play(engine)`, as a scenario file
    `failed-GAME-NNp-seedS.yaml` in `folder`; the line that says so (or why it could not be written)."""
    rec = Recorder(game)
    try:
        play(rec)
    except GameRuntimeError as err:
        return record_failed_game(rec, err.message, variant, expansions, folder)
    return "the failed game did not fail again when replayed: nothing recorded"


def record_failed_game(
    rec: Recorder,
    error: str,
    variant: str | None = None,
    expansions: list[str] | tuple[str, ...] = (),
    folder: Path = Path(),
) -> str:
    """For `tabula simulate`: the game `rec` holds (its players, seed, options and choices, the failing
    one last) as a scenario file `failed-GAME-NNp-seedS.yaml` in `folder`, without playing it again
    (a rule that failed at the work budget would spend it twice); the line that says so."""
    out = folder / f"failed-{rec.game.id}-{len(rec.players)}p-seed{rec.seed}.yaml"
    title = f"{rec.game.name}: a rule failed (seed {rec.seed}, choice {len(rec.steps)})"
    options = {**rec.game.options, **rec.options}
    try:
        write_recording(out, rec, {"o": options}, variant, expansions, title, error)
    except OSError as os_err:
        return f"could not write {out}: {os_err.strerror}"
    return f"the failed game as a scenario: {out} (tabula verify {out} replays it)"


# ------------------------------------------------------------------ the game, its packs and options


def game_ref(game: CompiledGame, out: Path) -> str:
    """`game:` of the scenario: the bundled name, or a path from the scenario's folder."""
    folder = Path(game.folder).resolve()
    if folder.parent == BUNDLED.resolve():
        return folder.name
    return _path_from(folder, out)


def pack_ref(ref: str, out: Path) -> str:
    """A pack name as given, or a pack file as a path from the scenario's folder."""
    p = Path(ref)
    return _path_from(p.resolve(), out) if p.is_file() else ref


def _path_from(target: Path, out: Path) -> str:
    """A path to `target` from the folder of `out`: relative if they share a folder, else absolute."""
    here = out.resolve().parent
    if os.path.commonpath([target, here]) == target.anchor:
        return str(target)
    rel = os.path.relpath(target, here)
    return rel if rel.startswith(("../", "./", "/")) or rel == ".." else f"./{rel}"


def changed_options(
    game: CompiledGame, st: State, variant: str | None, expansions: list[str] | tuple[str, ...]
) -> dict[str, Any]:
    """The rules options of `st` that differ from the game's defaults (with the same packs)."""
    try:
        defaults = load_game(game.folder, None, variant, tuple(expansions)).options
    except Exception:
        defaults = {}
    return {k: v for k, v in st["o"].items() if k not in defaults or defaults[k] != v}


# ------------------------------------------------------------------ facts of a position


def facts(engine: Engine, st: State) -> list[tuple[str, list[str]]]:
    """DSL conditions that hold in `st`, by section: flow position and scores, zones, and the
    counters, vars and marks that differ from their starting values."""
    game = engine.game
    flow: list[str] = []
    if game.flow is not None and game.flow.has_rounds:
        flow.append(f"round == {st['t']['round']}")
    flow.append(f"turn == {st['t']['turn']}")
    flow.append(f"scores == {engine.scores(st)}")
    if not engine.is_terminal(st):
        legal = engine.legal_ids(st)
        flow.append(
            f"legal == {_list(legal)}" if len(legal) <= LONG_LEGAL else f"count(legal) == {len(legal)}"
        )
    sections = [
        ("flow position and scores", flow),
        ("zones", zone_facts(game, st)),
        ("counters that moved", counter_facts(game, st)),
        ("vars that changed", var_facts(game, st)),
        ("marks that changed", mark_facts(game, st)),
    ]
    return [(name, conditions) for name, conditions in sections if conditions]


def _who(st: State, player: int | None) -> str:
    return "" if player is None else st["names"][player]


def _ref(name: str, *args: str) -> str:
    args_ = [a for a in args if a]
    return f"{name}({', '.join(args_)})" if args_ else name


def zone_facts(game: CompiledGame, st: State) -> list[str]:
    out = []
    n = st["t"]["n"]
    for layout, owner in game.zone_instances():
        if owner is not None and owner >= n:
            continue
        ids = st["z"][layout.index(owner)]
        ref = layout.ref(_who(st, owner) or None)
        if len(ids) <= LONG_ZONE:
            out.append(f"[c.name for c in {ref}] == {_list([game.components[c].name for c in ids])}")
        else:
            out.append(f"count({ref}) == {len(ids)}")
    return out


def counter_facts(game: CompiledGame, st: State) -> list[str]:
    out = []
    n = st["t"]["n"]
    for c in game.counters.values():
        for p in range(n) if c.per_player else [None]:
            for k in range(c.width):
                key = c.keys[k] if c.keys else ""
                value = st["c"][c.base + (p or 0) * c.width + k]
                start = c.initial.get(key, 0) if isinstance(c.initial, dict) else c.initial
                if value != start:
                    out.append(f"{_ref(c.name, _who(st, p), key)} == {value}")
    return out


def var_facts(game: CompiledGame, st: State) -> list[str]:
    out = []
    for name, layout in game.vars.items():
        values = st["v"][name]
        for p in range(st["t"]["n"]) if layout.per_player else [None]:
            value = values[p] if p is not None else values
            if value == layout.initial:
                continue
            fact = _value_fact(game, st, _ref(name, _who(st, p)), value, layout.type)
            if fact is not None:
                out.append(fact)
    return out


def mark_facts(game: CompiledGame, st: State) -> list[str]:
    out = []
    for mark, default in game.marks.items():
        for cid, value in enumerate(st["m"][mark]):
            if value == default:
                continue
            comp = game.components[cid]
            target = f"first(x for x in {comp.type} where x.key == {_q1(comp.key)}).{mark}"
            literal = _literal(value)
            if literal is not None and "'" not in comp.key:
                out.append(f"{target} == {literal}")
    return out


def _value_fact(game: CompiledGame, st: State, ref: str, value: Any, t: str) -> str | None:
    """`ref == value` in the DSL, by the var's type (players by name, components by key)."""
    if t == COMP:
        return f"is_none({ref})" if value is None else f"{ref}.key == {_q1(game.components[value].key)}"
    if t.startswith("list[") and elem(t) == COMP and isinstance(value, list):
        return f"[c.key for c in {ref}] == {_list([game.components[c].key for c in value])}"
    if t == PLAYER and isinstance(value, int):
        return f"{ref} == {st['names'][value]}"
    if t.startswith("list[") and elem(t) == PLAYER and isinstance(value, list):
        return f"{ref} == [{', '.join(st['names'][p] for p in value)}]"
    literal = _literal(value)
    return None if literal is None else f"{ref} == {literal}"


def _literal(v: Any) -> str | None:
    """A JSON value as a DSL literal, or None when the DSL cannot write it."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _q1(v) if "'" not in v and "\n" not in v else None
    if isinstance(v, list):
        items = [_literal(x) for x in v]
        return None if None in items else "[" + ", ".join(i or "" for i in items) + "]"
    return None


def _q1(text: str) -> str:
    return f"'{text}'"


def _list(items: list[str]) -> str:
    return "[" + ", ".join(_q1(i) for i in items) + "]"


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _flow(value: Any) -> str:
    """A YAML flow value (JSON is valid YAML)."""
    return json.dumps(value, ensure_ascii=False)
