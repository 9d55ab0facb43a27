"""Saved games: a versioned JSON document holding one state, validated against its game when loaded.

A save is `{"format": "tabula-save", "version": 1, "game": ID, "packs": [...], "layout": DIGEST,
"state": STATE}` (`dump`). `load` refuses, with `InvalidSave` listing every problem found, a text
that is not JSON (or holds NaN, an integer of thousands of digits, nesting too deep), another format
or version, a save of another game or of another layout of this game (components, zones, counters,
vars, marks, options, actions), and a state this game could not be in:

- the schema: exactly the engine's keys, each of the right JSON type at every depth and the right
  length for the game's layout (zone instances, components, counters, vars per player, marks per
  component); each problem names its path (`state.dec.k: expected a text ..., got a list`);
- the game's types (savetypes.py): counters integers a rule can keep, within their min/max unless a
  rule may write past them (`CompiledGame.counters_set`); options of their declared types; vars,
  marks (the types their component types declare, their default's, or component when the rules
  give them only components: `CompiledGame.mark_kinds`) and the frames' locals of the static types
  the compiler gives them;
- known ids: component ids, zone instances, players, action indices, the frame stack's blocks and
  pcs (the flow driver at the bottom, resumable blocks of the game at one of their pcs above it);
- every component in at most one zone, and `loc` saying where each one is;
- the pending decision well-formed (its kind, a player in the game, ids and values aligned, window
  values naming real actions with the right number of arguments) and consistent with the frame
  stack it belongs to (`check_decision_against_stack`).

Why so thorough: a state is data an engine trusts. An edited pending decision let `apply` play a card
from the opponent's hand; other edits raised KeyError or IndexError far from the cause.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tabula.interpreter.base import limits
from tabula.interpreter.base.types import ANY
from tabula.interpreter.load.options import declared_specs, type_of
from tabula.interpreter.model.game import CompiledGame, CounterLayout
from tabula.interpreter.model.state import State
from tabula.interpreter.run.decisions import recompute_decision
from tabula.interpreter.run.flow import STAGES as FLOW_STAGES
from tabula.interpreter.run.runtime import MAX_DEPTH
from tabula.interpreter.run.savetypes import (
    Sizes,
    expected,
    first_misfit,
    grant_ends_fit,
    is_int,
    is_number_kept,
    layout_digest,
    mark_type,
    misfit,
    type_words,
)
from tabula.interpreter.run.simultaneous import valid_open_step

FORMAT = "tabula-save"
VERSION = 1
STATE_KEYS = frozenset({"z", "loc", "c", "v", "m", "rv", "rng", "stk", "dec", "t", "names", "o"})
STAGES = frozenset(FLOW_STAGES)
ENDINGS = (None, "immediately", "after_turn", "final_turns")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOCAL = re.compile(r"@?[A-Za-z_][A-Za-z0-9_]*")  # '@it1': a loop's hidden locals
_MAX_PROBLEMS = 20
UNCHECKED = "state: a value of a shape the checks did not foresee"


Problem = tuple[str, str]  # (code, message)


class InvalidSave(ValueError):
    """A save that cannot be loaded; `problems` holds every (code, reason) found, the message the first ones.

    Codes: L001 not JSON or too large, L002 not a save or another format version, L003 a save of
    another game (or of another layout of it), L004 a value of the wrong type, length or range,
    L005 unknown ids or a component not in exactly one place, L006 a malformed pending decision,
    L007 a pending decision the state does not ask for.
    """

    def __init__(self, problems: list[Problem]) -> None:
        shown = [f"error[{code}]: {message}" for code, message in problems[:_MAX_PROBLEMS]]
        more = f"\n  ... and {len(problems) - len(shown)} more" if len(problems) > len(shown) else ""
        super().__init__("not a valid save of this game:\n  " + "\n  ".join(shown) + more)
        self.problems = problems

    @property
    def codes(self) -> list[str]:
        return [code for code, _ in self.problems]


# ---------------------------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------------------------


def dump(game: CompiledGame, st: State) -> str:
    """The save of `st`: canonical JSON (equal states give equal text)."""
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.id,
        "packs": list(game.packs),
        "layout": layout_digest(game),
        "state": st,
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a game holds")


def load(game: CompiledGame, text: str | bytes) -> State:
    """The state in a save of `game`, once validated; raises `InvalidSave` saying why not."""
    if len(text) > limits.MAX_SAVE_BYTES:
        raise InvalidSave([("L001", f"the save is larger than {limits.MAX_SAVE_BYTES} bytes")])
    try:
        doc = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as err:  # JSONDecodeError, 4,300+ digit ints, NaN, nesting
        raise InvalidSave([("L001", f"the save is not valid JSON ({_short(str(err))})")]) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InvalidSave([("L002", "this is not a Tabula save (no 'format': 'tabula-save')")])
    if doc.get("version") != VERSION:
        version = _short(repr(doc.get("version")))
        raise InvalidSave([("L002", f"save format version {version}: this Tabula reads version {VERSION}")])
    problems: list[Problem] = []
    if set(doc) != {"format", "version", "game", "packs", "layout", "state"}:
        problems.append(("L002", f"the save's keys are {sorted(map(str, doc))}"))
    what = f"'{game.id}'" + (f" with {', '.join(game.packs)}" if game.packs else "")
    if doc.get("game") != game.id or doc.get("packs") != list(game.packs):
        packs = doc.get("packs")
        theirs = f"{_short(repr(doc.get('game')))}" + (f" with {_short(repr(packs))}" if packs else "")
        problems.append(("L003", f"this is a save of {theirs}, not of {what}"))
    elif doc.get("layout") != layout_digest(game):
        changed = "its components, zones, counters, vars, marks, options or actions differ"
        problems.append(("L003", f"this save is of another version of {what} ({changed})"))
    if problems:
        raise InvalidSave(problems)
    st = doc["state"]
    validate_state(game, st)
    return st  # type: ignore[no-any-return]


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------


def validate_state(game: CompiledGame, st: Any) -> None:
    """Raise `InvalidSave` unless `st` is a state `game` could be in (see the module docstring)."""
    try:
        problems = state_problems(game, st)
    except (TypeError, ValueError, LookupError, AttributeError, RecursionError):
        # every check reads only what an earlier one found sound (the property test in
        # tests/run/test_save_types.py mutates every field): this is a last guard, never the answer
        problems = [("L004", UNCHECKED)]
    if problems:
        raise InvalidSave(problems)


def state_problems(game: CompiledGame, st: Any) -> list[Problem]:
    """Every problem found; later checks run only when what they read is sound."""
    if not isinstance(st, dict):
        return [("L004", expected("state", "an object", st))]
    if set(st) - {"ru"} != STATE_KEYS:
        missing, extra = sorted(STATE_KEYS - set(st)), sorted(map(str, set(st) - STATE_KEYS - {"ru"}))
        return [("L004", f"state: the state's keys: missing {missing}, unknown {extra}")]
    out: list[Problem] = []
    n = _players(game, st, out)
    if n is None:
        return out
    sizes = _sizes(game, st)
    _zones(game, st, out)
    _counters(game, st, out)
    _vars(game, st, sizes, out)
    _marks_and_reveals(game, st, sizes, out)
    _options(game, st, out)
    _rng(st, out)
    _flow(game, st, n, out)
    _stack(game, st, sizes, out)
    if not out:
        _decision(game, st, n, out)
    if not out:
        out.extend(check_decision_against_stack(game, st))
    return out


def _ints(x: Any, length: int | None = None) -> bool:
    return isinstance(x, list) and all(is_int(i) for i in x) and (length is None or len(x) == length)


def _sizes(game: CompiledGame, st: State) -> Sizes:
    return Sizes(len(st["names"]), len(game.components), len(game.zone_layouts))


def _players(game: CompiledGame, st: State, out: list[Problem]) -> int | None:
    names, t = st["names"], st["t"]
    if not isinstance(names, list):
        out.append(("L004", expected("state.names", "a list of player names", names)))
        return None
    bad = next((i for i, x in enumerate(names) if not isinstance(x, str) or not x), None)
    if bad is not None:
        out.append(("L004", expected(f"state.names.{bad}", "a player's name", names[bad])))
        return None
    if not isinstance(t, dict):
        out.append(("L004", expected("state.t", "an object (the flow position)", t)))
        return None
    if not is_int(t.get("n")) or t["n"] != len(names):
        out.append(("L004", "state.t.n: must be the number of players' names"))
        return None
    if not game.min_players <= len(names) <= game.max_players:
        out.append(
            ("L004", f"{len(names)} players: {game.name} is for {game.min_players}-{game.max_players}")
        )
        return None
    if len(set(names)) != len(names):
        out.append(("L004", "two players have the same name"))
    return len(names)


def _zones(game: CompiledGame, st: State, out: list[Problem]) -> None:
    z, loc, ncomp, nzones = st["z"], st["loc"], len(game.components), len(game.zone_layouts)
    if not isinstance(z, list) or len(z) != nzones or not all(_ints(zone) for zone in z):
        out.append(("L005", f"state.z: must be {nzones} lists of component ids, one per zone instance"))
        return
    if not _ints(loc, ncomp) or not all(-1 <= x < nzones for x in loc):
        out.append(
            ("L005", f"state.loc: must give a zone instance (or -1) for each of the {ncomp} components")
        )
        return
    seen: dict[int, int] = {}
    n = len(st["names"])
    for i, zone in enumerate(z):
        owner = game.zone_owner[i] if i < len(game.zone_owner) else None
        if zone and owner is not None and owner >= n:
            out.append(
                ("L005", f"zone instance {i} ({game.zone_layouts[i].name} of seat {owner}) holds components")
            )
        for cid in zone:
            if not 0 <= cid < ncomp:
                out.append(("L005", f"zone instance {i} holds {cid}, which is not a component id"))
            elif cid in seen:
                out.append(
                    ("L005", f"component {game.components[cid].key} is in zone instances {seen[cid]} and {i}")
                )
            else:
                seen[cid] = i
    for cid, where in enumerate(loc):
        if seen.get(cid, -1) != where:
            key = game.components[cid].key
            out.append(("L005", f"component {key}: 'loc' says {where}, the zones say {seen.get(cid, -1)}"))


def _counters(game: CompiledGame, st: State, out: list[Problem]) -> None:
    """Integers a rule can keep; within its min/max unless a rule may write past them (`set C = e`
    and `take` may, as may a counter's initial value out of its bounds: docs/language.md)."""
    c = st["c"]
    if not isinstance(c, list) or len(c) != game.counter_count:
        out.append(("L004", f"state.c: must be {game.counter_count} integers"))
        return
    bad = next((i for i, x in enumerate(c) if not is_number_kept(x)), None)
    if bad is not None:
        path = f"state.c.{bad} (counter '{_counter_at(game, bad).name}')"
        if is_int(c[bad]):
            out.append(("L004", f"{path}: a number of more than {limits.MAX_NUMBER_DIGITS} digits"))
        else:
            out.append(("L004", expected(path, "a number", c[bad])))
        return
    for layout in _bounded(game):
        lo, hi = layout.min, layout.max
        end = layout.base + layout.width * (game.max_players if layout.per_player else 1)
        found = next(
            (
                i
                for i in range(layout.base, end)
                if (lo is not None and c[i] < lo) or (hi is not None and c[i] > hi)
            ),
            None,
        )
        if found is not None:
            bounds = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
            out.append(
                (
                    "L004",
                    f"state.c.{found} (counter '{layout.name}'): {c[found]} is out of its bounds {bounds}",
                )
            )


def _counter_at(game: CompiledGame, index: int) -> CounterLayout:
    """The counter whose instances hold state.c[index]."""
    return next(
        layout
        for layout in game.counters.values()
        if layout.base <= index < layout.base + layout.width * (game.max_players if layout.per_player else 1)
    )


def _bounded(game: CompiledGame) -> list[CounterLayout]:
    """The counters no rule can move past their min/max: none when the compile did not say which."""
    if game.counters_set is None:
        return []
    out = []
    for layout in game.counters.values():
        initial = layout.initial.values() if isinstance(layout.initial, dict) else [layout.initial]
        inside = all(
            is_int(x) and (layout.min is None or x >= layout.min) and (layout.max is None or x <= layout.max)
            for x in initial
        )
        if (
            (layout.min is not None or layout.max is not None)
            and layout.name not in game.counters_set
            and inside
        ):
            out.append(layout)
    return out


def _vars(game: CompiledGame, st: State, sizes: Sizes, out: list[Problem]) -> None:
    v = st["v"]
    if not isinstance(v, dict) or set(v) != set(game.vars):
        out.append(("L004", f"state.v: must hold exactly the game's vars: {sorted(game.vars)}"))
        return
    for name, layout in game.vars.items():
        values, path = v[name], f"state.v.{name}"
        if layout.per_player:
            if not isinstance(values, list) or len(values) != sizes.players:
                out.append(("L004", f"{path}: var {name} must hold one value per player ({sizes.players})"))
                continue
            found = first_misfit(path, values, layout.type, sizes)
        else:
            found = misfit(path, values, layout.type or ANY, sizes)
        if found:
            out.append(("L004", f"{found} (var {name} holds {type_words(layout.type)} values)"))


def _marks_and_reveals(game: CompiledGame, st: State, sizes: Sizes, out: list[Problem]) -> None:
    m, ncomp = st["m"], len(game.components)
    if not isinstance(m, dict) or set(m) != set(game.marks):
        out.append(("L004", f"state.m: must hold exactly the game's marks: {sorted(game.marks)}"))
    else:
        for name, values in m.items():
            if not isinstance(values, list):
                out.append(("L004", expected(f"state.m.{name}", f"a list of {ncomp} values", values)))
                continue
            if len(values) != ncomp:
                out.append(
                    ("L004", f"state.m.{name}: every mark must hold one value per component ({ncomp})")
                )
                continue
            kind = game.mark_kinds.get(name) or mark_type(game.marks[name])
            found = first_misfit(f"state.m.{name}", values, kind, sizes)
            if found:
                out.append(("L004", f"{found} (mark {name} holds {type_words(kind)} values)"))
    grants = 1 << (game.max_players + 1)  # 1 (everyone) or bit p + 1 for seat p (reveal ... to)
    if not _ints(st["rv"], ncomp) or any(x != 1 and (x % 2 or not 0 <= x < grants) for x in st["rv"]):
        out.append(
            (
                "L004",
                f"state.rv: must be 0, 1 (everyone) or 2 x the seats shown it, one per component ({ncomp})",
            )
        )
    if "ru" in st and not grant_ends_fit(st["ru"], ncomp, grants):
        out.append(("L004", "state.ru: when present, a list of [event, component, grant bits]"))


def _options(game: CompiledGame, st: State, out: list[Problem]) -> None:
    o = st["o"]
    if not isinstance(o, dict) or set(o) != set(game.options):
        out.append(("L004", f"state.o: must hold exactly the game's options: {sorted(game.options)}"))
        return
    specs = game.option_specs or declared_specs(game.options)
    for name, value in o.items():
        spec = specs.get(name)
        if spec is None:  # an option the game declares without a type: a value options can hold
            if type_of(value) is None:
                out.append(("L004", expected(f"state.o.{name}", "true/false, a number or a text", value)))
            continue
        problem = spec.problem(value)
        if problem:
            out.append(("L004", f"state.o.{name}: {problem}"))


def _rng(st: State, out: list[Problem]) -> None:
    words = st["rng"]
    if not _ints(words, 2) or not all(0 <= w < 1 << 64 for w in words) or words == [0, 0]:
        out.append(("L004", "state.rng: must be two 64-bit words, not both 0"))


_FLOW_TYPES: dict[str, tuple[type | None, ...]] = {
    "stage": (str,),
    "round": (int,),
    "turn": (int,),
    "active": (int, None),
    "phase": (int,),
    "phase_id": (str, None),
    "ending": (str, None),
    "trigger": (int, None),
    "final": (list,),
    "final_mode": (bool,),
    "fired": (list,),
    "winners": (list, None),
    "n": (int,),
    "next": (int,),
    "skips": (int,),
    "decisions": (int,),
}
# `sim`: an open simultaneous step (run/simultaneous.py)
_FLOW_OPTIONAL: dict[str, tuple[type | None, ...]] = {"pause": (str, None), "paused": (bool,), "sim": (dict,)}
_TYPE_WORDS: dict[type | None, str] = {
    str: "a text",
    int: "a number",
    list: "a list",
    bool: "true/false",
    dict: "a mapping",
    None: "null",
}


def _of_type(value: Any, types: tuple[type | None, ...]) -> bool:
    if value is None:
        return None in types
    if isinstance(value, bool):
        return bool in types
    if isinstance(value, int) and value.bit_length() > limits.MAX_NUMBER_BITS:
        return False
    return any(kind is not None and kind is not bool and isinstance(value, kind) for kind in types)


def _flow(game: CompiledGame, st: State, n: int, out: list[Problem]) -> None:
    t = st["t"]
    if not set(_FLOW_TYPES) <= set(t) <= set(_FLOW_TYPES) | set(_FLOW_OPTIONAL):
        out.append(("L004", f"state.t: must hold the flow position: {sorted(_FLOW_TYPES)}"))
        return
    types = {**_FLOW_TYPES, **_FLOW_OPTIONAL}
    wrong = [key for key in sorted(t) if not _of_type(t[key], types[key])]
    if wrong:
        for key in wrong:
            what = " or ".join(_TYPE_WORDS[kind] for kind in types[key])
            out.append(("L004", expected(f"state.t.{key}", what, t[key])))
        return
    if t["stage"] not in STAGES:
        out.append(("L004", f"state.t.stage: unknown stage {_short(repr(t['stage']))}"))
    if t["ending"] not in ENDINGS:
        out.append(("L004", f"state.t.ending: unknown way of ending {_short(repr(t['ending']))}"))
    checks = {check.id for check in game.end_checks}
    if not all(isinstance(x, str) and x in checks for x in t["fired"]):
        out.append(("L004", "state.t.fired: must name end checks of the game"))
    players = [t["active"], t["trigger"], *t["final"], *(t["winners"] or [])]
    if not all(x is None or (is_int(x) and 0 <= x < n) for x in players) or not 0 <= t["next"] < n:
        out.append(("L004", "state.t: the flow position names a player who is not in the game"))
    if "sim" in t and not valid_open_step(t["sim"], n):
        what = "the players still to answer (w) and [player, id] answers (a)"
        out.append(("L004", f"state.t.sim: must hold {what}"))
    phases = len(game.flow.phases) if game.flow is not None else 0
    if not all(t[k] >= 0 for k in ("round", "turn", "skips", "decisions")) or not 0 <= t["phase"] <= phases:
        out.append(("L004", "state.t: the flow position holds a negative count or an unknown phase"))


def _stack(game: CompiledGame, st: State, sizes: Sizes, out: list[Problem]) -> None:
    """Frames `[block, pc, locals]`: the flow driver at the bottom (pc 0), above it resumable blocks
    of this game (compile/machines.py) at one of their pcs, locals a mapping of local names, each
    holding a value of the type the block's code gives it."""
    stk = st["stk"]
    if not isinstance(stk, list) or len(stk) > MAX_DEPTH:
        out.append(("L005", f"state.stk: must be a list of at most {MAX_DEPTH} frames"))
        return
    for i, fr in enumerate(stk):
        found = _frame(game, fr, f"state.stk.{i}", i == 0, sizes)
        if found:
            out.append(("L005", found))
            return
    if not stk and st["t"]["stage"] != "done":
        out.append(("L005", "state.stk: the stack is empty but the game is not over"))


def _frame(game: CompiledGame, fr: Any, path: str, bottom: bool, sizes: Sizes) -> str | None:
    """Why `fr` is not a frame of this game, or None."""
    if not (isinstance(fr, list) and len(fr) == 3 and is_int(fr[0]) and is_int(fr[1])):
        return f"{path}: a frame is [block, pc, locals] (two numbers and an object)"
    block, pc, local_vars = fr
    if bottom:  # the flow driver keeps its position in t, not in pc
        if block != game.main_block or pc != 0:
            return f"{path}: the bottom frame must be the flow driver's ([{game.main_block}, 0, ...])"
    elif block not in game.block_pcs or not 0 <= pc < game.block_pcs[block]:
        return f"{path}: block {block} at pc {pc} is not a resumable point of this game"
    if not isinstance(local_vars, dict):
        return expected(f"{path}.2", "an object (the frame's locals)", local_vars)
    bad = next((k for k in local_vars if not isinstance(k, str) or not _LOCAL.fullmatch(k)), None)
    if bad is not None:
        return f"{path}.2: {_short(repr(bad))} is not the name of a local"
    types = game.block_local_types.get(block, {})
    for name, value in local_vars.items():
        found = misfit(f"{path}.2.{name}", value, types.get(name, ANY), sizes)
        if found:
            return found
    return None


_DECISION_KEYS = {
    "choose": {"t", "k", "p", "ids", "v", "var", "prompt"},
    "window": {"k", "p", "ids", "v", "prompt"},
}


def _decision(game: CompiledGame, st: State, n: int, out: list[Problem]) -> None:
    dec = st["dec"]
    if dec is None:
        if st["t"]["stage"] != "done" and not st["t"].get("paused"):
            out.append(("L006", "state.dec: no decision is pending, yet the game is neither over nor paused"))
        return
    if not isinstance(dec, dict):
        out.append(("L006", expected("state.dec", "an object (the pending decision) or null", dec)))
        return
    kind = dec.get("k")
    if not isinstance(kind, str):
        out.append(("L006", expected("state.dec.k", "a text ('choose' or 'window')", kind)))
        return
    if kind not in _DECISION_KEYS or set(dec) != _DECISION_KEYS[kind]:
        out.append(("L006", "state.dec: the pending decision must be a 'choose' or a 'window' with its keys"))
        return
    ids, values = dec["ids"], dec["v"]
    if not (is_int(dec["p"]) and 0 <= dec["p"] < n):
        out.append(("L006", "state.dec.p: the pending decision is for a player who is not in the game"))
    if not isinstance(dec["prompt"], str):
        out.append(("L006", expected("state.dec.prompt", "a text", dec["prompt"])))
    if not isinstance(ids, list):
        out.append(("L006", expected("state.dec.ids", "a list of texts", ids)))
    elif not ids or not all(isinstance(x, str) for x in ids) or len(set(ids)) != len(ids):
        out.append(("L006", "state.dec.ids: the pending decision's ids must be distinct texts"))
    elif not isinstance(values, list) or len(values) != len(ids):
        out.append(("L006", "state.dec.v: the pending decision must hold one value per id"))
    elif kind == "choose":
        _choice(dec, out)
    else:
        bad = next((i for i, value in enumerate(values) if not _window_value(game, value)), None)
        if bad is not None:
            offer = _short(repr(values[bad]))
            out.append(
                (
                    "L006",
                    f"state.dec.v.{bad}: the pending window offers {offer}, not an action with its arguments",
                )
            )


def _choice(dec: dict[str, Any], out: list[Problem]) -> None:
    if not isinstance(dec["var"], str) or not _NAME.fullmatch(dec["var"]):
        out.append(("L006", "state.dec.var: a pending choice names the variable it sets"))
    if not isinstance(dec["t"], str):
        out.append(("L006", expected("state.dec.t", "a text (the type of the choice)", dec["t"])))


def _window_value(game: CompiledGame, value: Any) -> bool:
    if not (isinstance(value, list) and len(value) == 2 and is_int(value[0]) and isinstance(value[1], list)):
        return False
    return 0 <= value[0] < len(game.action_list) and len(value[1]) == len(game.action_list[value[0]].params)


def check_decision_against_stack(game: CompiledGame, st: State) -> list[Problem]:
    """Whether the pending decision is the one the state's frame stack asks for.

    The top frame must wait at one of the game's decision points (`game.decision_points`), and
    `recompute_decision` (decisions.py: it runs that point again on a copy) must pose the saved decision
    exactly: an edited pending decision (a card from another player's hand, another player deciding)
    is refused.
    """
    dec = st["dec"]
    if dec is None:
        return []
    fr = st["stk"][-1] if st["stk"] else None
    if fr is None or (fr[0], fr[1]) not in game.decision_points:
        return [("L007", "the pending decision does not match the frame stack (no decision is asked there)")]
    try:
        again = recompute_decision(game, st)
    except Exception as err:  # a tampered state can break the rules' code in any way
        return [("L007", f"the pending decision cannot be recomputed from the state ({_short(str(err))})")]
    if again != dec:
        return [("L007", "the pending decision is not the one the state asks for (edited?)")]
    return []
