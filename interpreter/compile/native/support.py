"""What of a game the native backend holds: the whole game lowered to the typed form, or every
construct it cannot hold, located.

Stage: compile (native). The game's data is read again (with its variant and expansions) and each
definition the flow can reach is lowered on its own; a construct the typed form cannot hold yet is
an N001 diagnostic (a warning: the game is valid and runs on Python) at its `file:line:col`
with a hint, and the walk goes on with the next
definition, so `tabula check --native` lists all of them: the list is the measure of what is left.
A game with none runs natively; any other runs on the Python backend.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tabula.interpreter.base.source import Report
from tabula.interpreter.base.types import AUDIENCE_WORDS
from tabula.interpreter.compile.native import abilities, ir, ranges, stackroom, triggers
from tabula.interpreter.compile.native.effects import EffectLowering
from tabula.interpreter.compile.native.ir import INT, PLAYER
from tabula.interpreter.compile.native.lower import Scope, Unsupported
from tabula.interpreter.compile.python.expressions.analysis import and_chain
from tabula.interpreter.compile.reader import GameReader, Path_, origin_of
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import parse_expr
from tabula.interpreter.load.positions import GameSource, span_for
from tabula.interpreter.model.game import CompiledGame

CODE = "N001"
T = TypeVar("T")
# sections (and component keys) the typed form does not hold yet: each use is one diagnostic
_VAR_TYPES = ("int", "player", "bool", "comp", "str")
_LIST_ITEMS = ("any",)  # a var holding a list: its items' type is the one the values `set` give


def read_source(game: CompiledGame) -> GameSource:
    """The game's data as it was compiled: its folder with the same variant and expansions."""
    from tabula.interpreter.load.gamefolder import load_game_folder
    from tabula.interpreter.load.overlay import apply_packs, load_packs

    report = Report()
    folder = Path(game.folder)
    variant, expansions = game.load_refs
    source = load_game_folder(folder, report)
    assert source is not None  # it loaded when the game was compiled
    apply_packs(source, load_packs(folder, variant, list(expansions), report), report)
    return source


class Walk:
    """Lowers every part of one game, collecting what cannot be lowered."""

    def __init__(self, game: CompiledGame, source: GameSource) -> None:
        self.g = game
        self.report = Report()
        self.read = GameReader(source, Report())  # parse problems were reported when it compiled
        self.data: dict[str, Any] = source.data
        functions = {
            name: ([p for p, _ in typed], e) for name, (typed, e, _) in self.read.functions().items()
        }
        read = self.read
        procs = {
            name: (
                [p for p, _ in read.params(("procedures", name))],
                read.block_at(("procedures", name, "do")),
            )
            for name in self.data.get("procedures") or {}
        }
        numbered = self.numbered_as_declared()
        self.low = EffectLowering(
            game,
            {k: (ps, e, None) for k, (ps, e) in functions.items() if e is not None},
            procs,
            self.hook_bodies() if numbered else {},
            triggers.gather(self.read, game) if numbered else ({}, {}),
        )
        self.low.abilities = abilities.gather(self.read, game.by_type, game.max_players) if numbered else {}

    def numbered_as_declared(self) -> bool:
        """Hooks, values and rules find their components by counting the declared instances; a game
        whose components are numbered otherwise (board cells and spaces, generated instances) is
        refused rather than given the wrong components."""
        comps = self.g.components
        for (tname, _), mine in abilities.instance_ids(self.data, self.g.max_players).items():
            if any(c >= len(comps) or comps[c].type != tname for c in mine):
                self.refuse(f"the components of type '{tname}' numbered otherwise", ("components", tname))
                return False
        return True

    def hook_bodies(self) -> dict[str, tuple[list[str], list[tuple[list[int], Any]]]]:
        """Every hook: its parameter names and, per instance that gives a body, the ids of its
        components (in the order layout.py numbers them) and the body."""
        comps = self.data.get("components") or {}
        out: dict[str, tuple[list[str], list[tuple[list[int], Any]]]] = {}
        for tname, tdef in comps.items():
            for hname in (tdef or {}).get("hooks") or {}:
                if hname not in out:
                    out[hname] = ([p for p, _ in self.read.params(("components", tname, "hooks", hname))], [])
        ids = abilities.instance_ids(self.data, self.g.max_players)
        for tname, tdef in comps.items():
            tdef = tdef or {}
            for i, inst in enumerate(tdef.get("instances") or []):
                mine = ids[(tname, i)]
                assert all(self.g.components[c].type == tname for c in mine)
                for hname in inst.get("hooks") or {}:
                    if hname in out and hname in (tdef.get("hooks") or {}):
                        body = self.read.block_at(("components", tname, "instances", i, "hooks", hname))
                        out[hname][1].append((mine, body or ()))
        return out

    def attempt(self, make: Callable[[], T], where: Path_ | None = None) -> T | None:
        """`make()`, or None after reporting every construct it could not lower. A definition
        that read a local before a `set` gave it its type (`let x = none`) is lowered once more,
        with the types learned the first time. What it made (with the functions and procedures it
        made on the way) must fit the C stack (stackroom.py), else N001 at `where`."""
        low = self.low
        known = (set(low.functions), set(low.procedures))
        for again in (False, True):
            made = (set(low.procedures), set(low.hooks), set(low.dispatchers))
            hints = dict(low.hints)
            try:
                out: T | None = make()
            except Unsupported as err:
                low.missing.append(err)
                out = None
            low.hints.update({k: v for k, v in low.learned.items() if v != "?"})
            if again or not low.missing or low.hints == hints:
                break
            low.missing.clear()  # what the first lowering cached is lowered again
            for name in set(low.procedures) - made[0]:
                del low.procedures[name]
            for name in set(low.hooks) - made[1]:
                del low.hooks[name]
            for name in set(low.dispatchers) - made[2]:
                del low.dispatchers[name]
        for u in low.missing:
            hint = u.hint or "this game runs on the Python backend until the native backend holds it"
            self.report.warning(CODE, f"not in the native backend yet: {u.what}", u.span, hint)
        found = bool(low.missing)
        low.missing.clear()
        if not found and where is not None and not self.fits_the_stack(out, known, where):
            return None
        return None if found else out

    def fits_the_stack(self, out: object, known: tuple[set[str], set[str]], where: Path_) -> bool:
        """Whether `out` and the functions and procedures made since `known` fit a C frame."""
        low = self.low
        bodies = [out, *(low.functions[k][1] for k in set(low.functions) - known[0])]
        bodies += [low.procedures[k][1] for k in set(low.procedures) - known[1]]
        size = stackroom.too_deep(bodies, stackroom.list_cap(self.g, len(low.symbols), low.tables))
        if size is not None:
            self.refuse(stackroom.message(size), where, stackroom.HINT)
        return size is None

    def refuse(self, what: str, path: Path_, hint: str | None = None) -> None:
        hint = hint or "this game runs on the Python backend until the native backend holds it"
        self.report.warning(CODE, f"not in the native backend yet: {what}", self.read.span(path), hint)

    def expr(self, path: Path_, scope: Scope) -> ir.Expr | None:
        n = self.read.expr_at(path)
        return None if n is None else self.attempt(lambda: self.low.expr(n, dict(scope)), path)

    def quiet_expr(self, path: Path_, scope: Scope) -> ir.Expr | None:
        """The expression at `path` lowered, or None without a diagnostic: for what only makes the
        game faster natively (the bots' evaluation), never what it needs to run."""
        n = self.read.expr_at(path)
        if n is None:
            return None
        try:
            return self.low.expr(n, dict(scope))
        except Unsupported:
            return None
        finally:
            self.low.missing.clear()

    def block(self, path: Path_, scope: Scope) -> tuple[ir.Stmt, ...] | None:
        n = self.read.block_at(path)
        return None if n is None else self.attempt(lambda: self.low.block(n, dict(scope)), path)

    # ------------------------------------------------------------ the game
    def program(self) -> ir.Program:
        self.declarations()
        prog = ir.Program()
        self.flow(prog)
        prog.actions = [a for a in (self.action(ai) for ai in range(len(self.g.action_list))) if a]
        scoring = self.data.get("scoring")
        if scoring:
            prog.score = self.expr(("scoring", "score"), {"p": PLAYER})
            prog.tiebreak = [
                e
                for i in range(len(scoring.get("tiebreak") or []))
                if (e := self.expr(("scoring", "tiebreak", i), {"p": PLAYER}))
            ]
        prog.evaluate = self.quiet_expr(("bots", "evaluate"), {"p": PLAYER})
        prog.functions = self.low.functions
        prog.procedures = self.low.procedures
        prog.hooks = self.low.hooks
        prog.sites = self.low.sites
        prog.windows = self.low.windows
        prog.dispatchers = self.low.dispatchers
        return prog

    def declarations(self) -> None:
        for name, v in self.g.vars.items():
            if v.type not in _VAR_TYPES and not (v.type.startswith("list[") and v.type[5:-1] in _LIST_ITEMS):
                self.refuse(
                    f"var '{name}' of type {v.type}",
                    ("vars", name),
                    "declare its type: int, player, bool, comp, str",
                )
        for section in ("zones", "counters", "vars"):  # the C side knows the four words only
            for name, d in (self.data.get(section) or {}).items():
                if isinstance(d, dict) and str(d.get("visible_to", "all")).strip() not in AUDIENCE_WORDS:
                    self.refuse(f"visible_to as an expression ('{name}')", (section, name, "visible_to"))
        capped = {z.family or z.name: z.span for z in self.g.zones.values() if z.max is not None}
        for name, span in capped.items():  # the C moves do not count against a zone's max yet
            self.report.warning(CODE, f"not in the native backend yet: zone '{name}' with a max", span)
        symbols = set(self.low.symbols)
        for name, value in self.g.options.items():
            if not isinstance(value, int) and value not in symbols:
                self.refuse(f"option '{name}' that is not a number or a text", ("options", name))
        self.out_of_range()
        for name, v in self.g.vars.items():
            if v.type == "str" and v.initial is not None and v.initial not in symbols:
                self.refuse(f"var '{name}' starting with a text the rules never name", ("vars", name))
        for key in self.g.marks:
            default = self.g.marks[key]
            if default is not None and not isinstance(default, int) and default != []:
                self.refuse(f"mark '{key}' with a default that is not a number", ("components",))

    def out_of_range(self) -> None:
        """Options, starting values and mark defaults outside the native range of numbers (ranges.py)."""
        g = self.g
        given: list[tuple[str, Any, Path_]] = [
            (f"option '{k}'", v, ("options", k)) for k, v in g.options.items()
        ]
        given += [(f"var '{k}'", v.initial, ("vars", k)) for k, v in g.vars.items()]
        given += [(f"counter '{k}'", c.initial, ("counters", k)) for k, c in g.counters.items()]
        given += [(f"mark '{k}'", v, ("components",)) for k, v in g.marks.items()]
        for name, value, path in given:
            bad = ranges.outside([value])
            if bad is not None:
                self.refuse(ranges.what(name, bad), path, ranges.HINT)

    def flow(self, prog: ir.Program) -> None:
        flow = self.data.get("flow") or {}
        turn = flow.get("turn") or {}
        prog.setup = self.block(("flow", "setup"), {})
        rounds = flow.get("rounds")
        if rounds is not None:
            prog.round_count = self.expr(("flow", "rounds", "count"), {})
            prog.round_first = self.expr(("flow", "rounds", "first"), {})
            prog.ends_when = self.expr(("flow", "rounds", "ends_when"), {})
            prog.round_on_start = self.block(("flow", "rounds", "on_start"), {})
            prog.round_on_end = self.block(("flow", "rounds", "on_end"), {})
        else:
            prog.turn_player = self.expr(("flow", "turn", "player"), {})
        player = {"p": PLAYER, "me": PLAYER}
        if turn.get("skip_if") is not None:
            prog.skip_if = self.expr(("flow", "turn", "skip_if"), player)
        prog.turn_on_end = self.block(("flow", "turn", "on_end"), player)
        prog.finish = self.block(("flow", "finish"), {})
        prog.end_checks = []
        for i, chk in enumerate(flow.get("end_checks") or []):
            path = ("flow", "end_checks", i)
            when = self.expr((*path, "when"), player)
            body = self.block((*path, "do"), player) if chk.get("do") is not None else ()
            if when is not None and body is not None:
                check_id = self.g.end_checks[i].id
                prog.end_checks.append(ir.EndCheck(check_id, when, body, str(chk.get("end", "immediately"))))
        prog.phases = []
        for i, _ in enumerate(turn.get("phases") or []):
            n = self.read.block_at(("flow", "turn", "phases", i, "do"))
            where: Path_ = ("flow", "turn", "phases", i, "do")
            phase = self.attempt(lambda n=n: self.low.phase(n or (), dict(player)), where)  # type: ignore[misc]
            if phase is not None:
                prog.phases.append(phase)
        for e in (prog.round_count, prog.round_first, prog.turn_player):
            if e is not None and e.ty not in (INT, PLAYER):
                self.refuse(f"a flow number given as {e.ty}", ("flow",))

    def action(self, ai: int) -> ir.Action | None:
        act = self.g.action_list[ai]
        path: Path_ = ("actions", act.name)
        spec = self.data["actions"][act.name]
        params = list((spec.get("params") or {}).items())
        if len(params) > 2:
            self.refuse(f"action '{act.name}' with {len(params)} parameters", (*path, "params"))
            return None
        scope: Scope = {"me": PLAYER}
        given: list[tuple[str, ir.Source]] = []
        for key, _ in params:  # each parameter's list may use the ones before it
            pname = str(key)
            n = self.read.expr_at((*path, "params", pname))
            src = None if n is None else self.attempt(lambda n=n: self.low.source(n, dict(scope)))  # type: ignore[misc]
            if src is None:
                return None
            given.append((pname, src))
            scope[pname] = ir.elem(src.ty)
        costs = self.costs(act.name)
        parts: list[ast.Expr] = [ast.Compare(amount.span, ">=", target, amount) for target, amount in costs]
        written = self.read.expr_at((*path, "when"))
        parts += [written] if written is not None else []
        stmts = (
            *(ast.Pay(amount.span, amount, target) for target, amount in costs),
            *(self.read.block_at((*path, "do")) or ()),
        )
        when = self.attempt(lambda: self.low.expr(and_chain(parts), dict(scope)), path) if parts else None
        body = self.attempt(lambda: self.low.block(stmts, dict(scope)), path)
        if body is None or (parts and when is None):
            return None
        first = given[0] if given else None
        second = given[1] if len(given) > 1 else None
        return ir.Action(ai, act.name, first, when, body, act.closes_window, second)

    def costs(self, name: str) -> list[tuple[ast.Expr, ast.Expr]]:
        """An action's `cost:` as (counter, amount), as the Python backend reads it (sections/actions.py):
        each cost is affordable in its condition and paid before its effect."""
        out: list[tuple[ast.Expr, ast.Expr]] = []
        for key in (self.data["actions"].get(name) or {}).get("cost") or {}:
            path: Path_ = ("actions", name, "cost", key)
            target = parse_expr(str(key), origin_of(span_for(self.read.src, path, key=True)), Report())
            amount = self.read.expr_at(path)
            if target is not None and amount is not None:
                out.append((target, amount))
        return out


def lower_game(game: CompiledGame, source: GameSource | None = None) -> tuple[ir.Program, Walk]:
    """The game in the typed form and the walk that made it (`walk.report` lists what is missing)."""
    source = source or read_source(game)
    walk = Walk(game, source)
    prog = walk.program()
    if walk.low.mark_learned or walk.low.var_learned:  # read before a `set` gave the type: again
        learned, items = dict(walk.low.mark_learned), dict(walk.low.var_learned)
        walk = Walk(game, source)
        walk.low.mark_hints, walk.low.var_hints = learned, items
        prog = walk.program()
    return prog, walk
