"""Saved games: a versioned JSON document holding one state, validated against its game when loaded.

A save is `{"format": "tabula-save", "version": 1, "game": ID, "packs": [...], "layout": DIGEST,
"state": STATE}` (`dump`). `load` refuses, with `InvalidSave` listing every problem found, a text
that is not JSON (or holds NaN, an integer of thousands of digits, nesting too deep), another format
or version, a save of another game or of another layout of this game (components, zones, counters,
vars, marks, options, actions), and a state this game could not be in:

- the schema: exactly the engine's keys, each of the right type and length for the game's layout
  (zone instances, components, counters, vars per player, marks per component);
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

import hashlib
import json
import re
from typing import Any

from tabula.interpreter.base import limits
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.run.decisions import recompute_decision
from tabula.interpreter.run.flow import STAGES as FLOW_STAGES
from tabula.interpreter.run.runtime import MAX_DEPTH

FORMAT = "tabula-save"
VERSION = 1
STATE_KEYS = frozenset({"z", "loc", "c", "v", "m", "rv", "rng", "stk", "dec", "t", "names", "o"})
STAGES = frozenset(FLOW_STAGES)
ENDINGS = (None, "immediately", "after_turn", "final_turns")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOCAL = re.compile(r"@?[A-Za-z_][A-Za-z0-9_]*")  # '@it1': a loop's hidden locals
_MAX_PROBLEMS = 20


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


def layout_digest(game: CompiledGame) -> str:
    """A digest of everything a state's shape depends on: a save fits a game iff the digests match."""
    layout = {
        "components": [c.key for c in game.components],
        "zones": [[z.name, owner] for z, owner in game.zone_instances()],
        "counters": sorted([c.name, c.base, c.width, c.per_player] for c in game.counters.values()),
        "vars": sorted([v.name, v.per_player] for v in game.vars.values()),
        "marks": sorted(game.marks),
        "options": sorted(game.options),
        "actions": [[a.name, len(a.params)] for a in game.action_list],
        "players": [game.min_players, game.max_players],
    }
    return hashlib.sha256(json.dumps(layout, sort_keys=True).encode()).hexdigest()[:16]


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
    problems = state_problems(game, st)
    if problems:
        raise InvalidSave(problems)


def state_problems(game: CompiledGame, st: Any) -> list[Problem]:
    """Every problem found; later checks run only when what they read is sound."""
    if not isinstance(st, dict):
        return [("L004", "the state is not a mapping")]
    if set(st) != STATE_KEYS:
        missing, extra = sorted(STATE_KEYS - set(st)), sorted(map(str, set(st) - STATE_KEYS))
        return [("L004", f"the state's keys: missing {missing}, unknown {extra}")]
    out: list[Problem] = []
    n = _players(game, st, out)
    if n is None:
        return out
    _zones(game, st, out)
    _counters(game, st, out)
    _vars(game, st, n, out)
    _marks_and_reveals(game, st, out)
    _options(game, st, out)
    _rng(st, out)
    _flow(game, st, n, out)
    _stack(game, st, out)
    if not out:
        _decision(game, st, n, out)
    if not out:
        out.extend(check_decision_against_stack(game, st))
    return out


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(x: Any, length: int | None = None) -> bool:
    return isinstance(x, list) and all(_is_int(i) for i in x) and (length is None or len(x) == length)


def _players(game: CompiledGame, st: State, out: list[Problem]) -> int | None:
    names, t = st["names"], st["t"]
    if not isinstance(names, list) or not all(isinstance(x, str) and x for x in names):
        out.append(("L004", "'names' must be a list of player names"))
        return None
    if not isinstance(t, dict) or not _is_int(t.get("n")) or t["n"] != len(names):
        out.append(("L004", "'t.n' must be the number of players' names"))
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
        out.append(("L005", f"'z' must be {nzones} lists of component ids, one per zone instance"))
        return
    if not _ints(loc, ncomp) or not all(-1 <= x < nzones for x in loc):
        out.append(("L005", f"'loc' must give a zone instance (or -1) for each of the {ncomp} components"))
        return
    seen: dict[int, int] = {}
    n = len(st["names"]) if isinstance(st["names"], list) else 0
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
    # Not their bounds: `set` (and a scenario's `given`) may write any integer into a counter.
    if not _ints(st["c"], game.counter_count):
        out.append(("L004", f"'c' must be {game.counter_count} integers"))


def _typed(value: Any, kind: str, n: int, ncomp: int) -> bool:
    """Whether a var's value can be of its declared type (ids in range); other types: any JSON."""
    if kind in ("players", "components"):
        return isinstance(value, list) and all(_typed(x, kind[:-1], n, ncomp) for x in value)
    if value is None:
        return True
    if kind == "player":
        return _is_int(value) and 0 <= value < n
    if kind == "component":
        return _is_int(value) and 0 <= value < ncomp
    if kind == "int":
        return _is_int(value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind in ("str", "symbol"):
        return isinstance(value, str)
    if kind == "list":
        return isinstance(value, list)
    return True


def _vars(game: CompiledGame, st: State, n: int, out: list[Problem]) -> None:
    v = st["v"]
    if not isinstance(v, dict) or set(v) != set(game.vars):
        out.append(("L004", f"'v' must hold exactly the game's vars: {sorted(game.vars)}"))
        return
    for name, layout in game.vars.items():
        values = v[name] if layout.per_player else [v[name]]
        if layout.per_player and (not isinstance(values, list) or len(values) != n):
            out.append(("L004", f"var {name} must hold one value per player"))
            continue
        kind = layout.type or "any"
        if not all(_typed(x, kind, n, len(game.components)) for x in values):
            out.append(("L004", f"var {name} must hold {kind} values"))


def _marks_and_reveals(game: CompiledGame, st: State, out: list[Problem]) -> None:
    m, ncomp = st["m"], len(game.components)
    if not isinstance(m, dict) or set(m) != set(game.marks):
        out.append(("L004", f"'m' must hold exactly the game's marks: {sorted(game.marks)}"))
    elif any(not isinstance(values, list) or len(values) != ncomp for values in m.values()):
        out.append(("L004", f"every mark must hold one value per component ({ncomp})"))
    if not _ints(st["rv"], ncomp) or any(x not in (0, 1) for x in st["rv"]):
        out.append(("L004", f"'rv' must be 0 or 1 for each of the {ncomp} components"))


def _options(game: CompiledGame, st: State, out: list[Problem]) -> None:
    o = st["o"]
    if not isinstance(o, dict) or set(o) != set(game.options):
        out.append(("L004", f"'o' must hold exactly the game's options: {sorted(game.options)}"))
    elif any(not isinstance(x, bool | int | str) for x in o.values()):
        out.append(("L004", "an option's value must be true/false, a number or text"))


def _rng(st: State, out: list[Problem]) -> None:
    words = st["rng"]
    if not _ints(words, 2) or not all(0 <= w < 1 << 64 for w in words) or words == [0, 0]:
        out.append(("L004", "'rng' must be two 64-bit words, not both 0"))


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
_FLOW_OPTIONAL: dict[str, tuple[type | None, ...]] = {"pause": (str, None), "paused": (bool,)}


def _of_type(value: Any, types: tuple[type | None, ...]) -> bool:
    if value is None:
        return None in types
    if isinstance(value, bool):
        return bool in types
    return any(kind is not None and kind is not bool and isinstance(value, kind) for kind in types)


def _flow(game: CompiledGame, st: State, n: int, out: list[Problem]) -> None:
    t = st["t"]
    if not set(_FLOW_TYPES) <= set(t) <= set(_FLOW_TYPES) | set(_FLOW_OPTIONAL):
        out.append(("L004", f"'t' must hold the flow position: {sorted(_FLOW_TYPES)}"))
        return
    types = {**_FLOW_TYPES, **_FLOW_OPTIONAL}
    wrong = sorted(key for key in t if not _of_type(t[key], types[key]))
    if wrong:
        out.append(("L004", f"flow position entries of the wrong type: {wrong}"))
        return
    if t["stage"] not in STAGES:
        out.append(("L004", f"unknown stage {_short(repr(t['stage']))}"))
    if t["ending"] not in ENDINGS:
        out.append(("L004", f"unknown way of ending {_short(repr(t['ending']))}"))
    checks = {check.id for check in game.end_checks}
    if not all(isinstance(x, str) and x in checks for x in t["fired"]):
        out.append(("L004", "'t.fired' must name end checks of the game"))
    players = [t["active"], t["trigger"], *t["final"], *(t["winners"] or [])]
    if not all(x is None or (_is_int(x) and 0 <= x < n) for x in players) or not 0 <= t["next"] < n:
        out.append(("L004", "the flow position names a player who is not in the game"))
    phases = len(game.flow.phases) if game.flow is not None else 0
    if not all(t[k] >= 0 for k in ("round", "turn", "skips", "decisions")) or not 0 <= t["phase"] <= phases:
        out.append(("L004", "the flow position holds a negative count or an unknown phase"))


def _stack(game: CompiledGame, st: State, out: list[Problem]) -> None:
    """Frames `[block, pc, locals]`: the flow driver at the bottom (pc 0), above it resumable blocks
    of this game (compile/machines.py) at one of their pcs, locals a mapping of local names."""
    stk = st["stk"]
    if not isinstance(stk, list) or len(stk) > MAX_DEPTH:
        out.append(("L005", f"'stk' must be a list of at most {MAX_DEPTH} frames"))
        return
    for i, fr in enumerate(stk):
        if not _frame(game, fr, i == 0):
            out.append(("L005", f"frame {i} of the stack is not [block, pc, locals] of this game"))
            return
    if not stk and st["t"]["stage"] != "done":
        out.append(("L005", "the stack is empty but the game is not over"))


def _frame(game: CompiledGame, fr: Any, bottom: bool) -> bool:
    if not (isinstance(fr, list) and len(fr) == 3 and _is_int(fr[0]) and _is_int(fr[1])):
        return False
    block, pc, local_vars = fr
    if bottom:  # the flow driver keeps its position in t, not in pc
        if block != game.main_block or pc != 0:
            return False
    elif block not in game.block_pcs or not 0 <= pc < game.block_pcs[block]:
        return False
    if not isinstance(local_vars, dict):
        return False
    return all(isinstance(k, str) and _LOCAL.fullmatch(k) for k in local_vars)


def _decision(game: CompiledGame, st: State, n: int, out: list[Problem]) -> None:
    dec = st["dec"]
    if dec is None:
        if st["t"]["stage"] != "done" and not st["t"].get("paused"):
            out.append(("L006", "no decision is pending, yet the game is neither over nor paused"))
        return
    keys = {
        "choose": {"t", "k", "p", "ids", "v", "var", "prompt"},
        "window": {"k", "p", "ids", "v", "prompt"},
    }
    if not isinstance(dec, dict) or dec.get("k") not in keys or set(dec) != keys[dec["k"]]:
        out.append(("L006", "the pending decision must be a 'choose' or a 'window' with its keys"))
        return
    ids, values = dec["ids"], dec["v"]
    if not (_is_int(dec["p"]) and 0 <= dec["p"] < n):
        out.append(("L006", "the pending decision is for a player who is not in the game"))
    if not isinstance(dec["prompt"], str):
        out.append(("L006", "the pending decision's prompt must be text"))
    if (
        not isinstance(ids, list)
        or not ids
        or not all(isinstance(x, str) for x in ids)
        or len(set(ids)) != len(ids)
    ):
        out.append(("L006", "the pending decision's ids must be distinct texts"))
    elif not isinstance(values, list) or len(values) != len(ids):
        out.append(("L006", "the pending decision must hold one value per id"))
    elif dec["k"] == "choose":
        if (
            not isinstance(dec["var"], str)
            or not _NAME.fullmatch(dec["var"])
            or not isinstance(dec["t"], str)
        ):
            out.append(("L006", "a pending choice names the variable it sets and its type"))
    else:
        for value in values:
            if not _window_value(game, value):
                out.append(
                    (
                        "L006",
                        f"the pending window offers {_short(repr(value))}, not an action with its arguments",
                    )
                )
                break


def _window_value(game: CompiledGame, value: Any) -> bool:
    if not (isinstance(value, list) and len(value) == 2 and _is_int(value[0]) and isinstance(value[1], list)):
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
