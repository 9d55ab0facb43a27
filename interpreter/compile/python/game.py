"""Stage check + compile for a whole game: validated YAML data -> CompiledGame.

Input: a `GameSource` whose data has passed schema validation (so its shape is known) and the rules
options chosen. Output: a `CompiledGame`, or diagnostics in the Report. Each DSL string is parsed
with its YAML position, resolved and compiled; all problems of the stage are reported at once.
"""

from __future__ import annotations

import keyword
from typing import Any

from tabula.interpreter.base.limits import WORK_BUDGET
from tabula.interpreter.base.source import Report, Span, did_you_mean
from tabula.interpreter.base.types import (
    ANY,
    COMP,
    INT,
    PLAYER,
    STR,
    ZONE,
    Scope,
    elem,
    list_of,
    type_of_value,
)
from tabula.interpreter.base.types import a as article
from tabula.interpreter.compile.python.cards import (
    INSTANCE_KEYS,
    compile_hooks,
    declare_hooks,
    instance_holders,
)
from tabula.interpreter.compile.python.effects import EffectCompiler
from tabula.interpreter.compile.python.exprs import ExprCompiler, FunctionSlot, and_chain, conjuncts, names_in
from tabula.interpreter.compile.python.modifiers import Contribution, rule_source, value_source
from tabula.interpreter.compile.python.module import GenModule
from tabula.interpreter.compile.python.snippets import Snippets
from tabula.interpreter.compile.python.statements import ProcInfo
from tabula.interpreter.compile.python.windows import ActionSource, WindowCompiler
from tabula.interpreter.compile.suspend import Suspension
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import PlainOrigin, TextOrigin, parse_block, parse_expr, parse_template
from tabula.interpreter.load.yamlsource import GameSource, span_for
from tabula.interpreter.model.game import (
    ActionDef,
    Closure,
    CompiledGame,
    Component,
    CounterLayout,
    EndCheckDef,
    FlowDef,
    RuleDef,
    TriggerDef,
    ValueDef,
    VarLayout,
    ZoneLayout,
)
from tabula.interpreter.run import support
from tabula.interpreter.run.flow import FlowDriver

Path_ = tuple[str | int, ...]
_VAR_TYPES = {
    "int": INT,
    "player": PLAYER,
    "component": COMP,
    "str": STR,
    "symbol": STR,
    "bool": "bool",
    "any": ANY,
    "list": list_of(ANY),
    "players": list_of(PLAYER),
    "components": list_of(COMP),
}


class GameCompiler:
    """Compiles one game; see the module docstring."""

    def __init__(
        self,
        source: GameSource,
        report: Report,
        options: dict[str, Any] | None = None,
        instrument: bool = False,
        unique: str | None = None,
    ) -> None:
        self.instrument = instrument
        self.unique = unique
        self._whens: dict[str, ast.Expr | None] = {}
        self._costs: dict[str, list[tuple[ast.Expr, ast.Expr]]] = {}
        self.src = source
        self.data: dict[str, Any] = source.data
        self.report = report
        self.chosen_options = options or {}

    # ------------------------------------------------------------ positions and parsing
    def span(self, path: Path_) -> Span | None:
        return span_for(self.src, path)

    def origin(self, path: Path_) -> TextOrigin:
        origin = self.src.value_origin.get(path)
        if origin is not None:
            return origin  # type: ignore[return-value]
        sp = self.span(path)
        return PlainOrigin(sp.file, sp.line, sp.col) if sp else PlainOrigin()

    def text(self, path: Path_) -> str | None:
        node: Any = self.data
        for k in path:
            if isinstance(node, dict) and k in node:
                node = node[k]
                continue
            if not (isinstance(node, list) and isinstance(k, int) and k < len(node)):
                return None
            node = node[k]
        if node is None:
            return None
        if isinstance(node, bool):
            return "true" if node else "false"
        return str(node)

    def expr_at(self, path: Path_) -> ast.Expr | None:
        text = self.text(path)
        return None if text is None else parse_expr(text, self.origin(path), self.report)

    def block_at(self, path: Path_) -> ast.Block | None:
        text = self.text(path)
        return None if text is None else parse_block(text, self.origin(path), self.report)

    def compile_expr(self, path: Path_, scope: Scope) -> Closure | None:
        node = self.expr_at(path)
        return None if node is None else self.ex.expr(node, scope)[0]

    def compile_typed(self, path: Path_, scope: Scope) -> tuple[Closure, str] | None:
        node = self.expr_at(path)
        return None if node is None else self.ex.expr(node, scope)

    def compile_cond(self, path: Path_, scope: Scope) -> Closure | None:
        node = self.expr_at(path)
        return None if node is None else self.ex.cond(node, scope)

    def name_block(self, block: int | None, kind: str, name: str, path: Path_) -> None:
        """Remember what a block is, for rules coverage."""
        if block is None:
            return
        self.g.block_names[block] = (kind, name)
        span = span_for(self.src, path, key=True) or self.span(path)
        if span is not None:
            self.g.block_spans[block] = span

    def compile_entry(
        self,
        path: Path_,
        types: dict[str, str],
        where: str,
        args: list[str] | None,
        tail: list[Any] | None = None,
        fn_name: str | None = None,
        stmts: ast.Block | None = None,
    ) -> int | None:
        """The block of an effect at `path` (see EffectCompiler.entry): `types` are its locals, `args`
        the frame locals given as Python parameters (None: locals stay a dict)."""
        if stmts is None:
            stmts = self.block_at(path)
        if stmts is None and tail is None:
            return None
        scope = Scope(dict(types), where) if args is None else Scope({}, where, dict(types))
        bid, _ = self.sc.entry(stmts or (), scope, args, fn_name, tail)
        return bid

    # ------------------------------------------------------------ layout
    def build(self) -> CompiledGame | None:
        d = self.data
        info = d.get("game", {})
        players = info.get("players", {})
        max_players = int(players.get("max", 4))
        options = {
            k: (v.get("default") if isinstance(v, dict) else v) for k, v in (d.get("options") or {}).items()
        }
        for k, v in self.chosen_options.items():
            if k not in options:
                self.report.error(
                    "O001", f"unknown rules option '{k}'", self.span(("options",)), did_you_mean(k, options)
                )
            else:
                options[k] = v
        enums = {k: [str(x) for x in v] for k, v in (d.get("enums") or {}).items()}
        self.g = g = CompiledGame(
            id=str(info.get("id", self.src.folder.name)),
            name=str(info.get("name", self.src.folder.name)),
            folder=str(self.src.folder),
            min_players=int(players.get("min", 2)),
            max_players=max_players,
            work_budget=int((d.get("limits") or {}).get("work_budget") or WORK_BUDGET),
            seats=[str(s) for s in info.get("seats", [])] or [f"P{i + 1}" for i in range(max_players)],
            options=options,
            option_descriptions={
                k: str(v.get("description", ""))
                for k, v in (d.get("options") or {}).items()
                if isinstance(v, dict)
            },
            constants=dict(d.get("constants") or {}),
            enums=enums,
            components=[],
            by_type={},
            zones={},
            counters={},
            vars={},
            marks={},
            mark_types={},
        )
        self._reserved_names()
        self._components(max_players)
        self._zones(max_players)
        self._counters(max_players)
        self._vars()
        return g

    def _components(self, max_players: int) -> None:
        g = self.g
        names: dict[str, int] = {}
        raw: list[tuple[str, dict[str, Any], int | None]] = []
        self.instance_ids: dict[tuple[str, int], list[int]] = {}  # (type, instance index) -> ids
        for tname, tdef in (self.data.get("components") or {}).items():
            g.by_type[tname] = []
            for mark, default in ((tdef or {}).get("marks") or {}).items():
                if mark in g.marks and g.marks[mark] != default:
                    self.report.warning(
                        "C002",
                        f"mark '{mark}' has different defaults in different types",
                        self.span(("components", tname, "marks", mark)),
                    )
                g.marks.setdefault(mark, _none(default))
                g.mark_types.setdefault(mark, []).append(tname)
            defaults = (tdef or {}).get("defaults") or {}
            for i, inst in enumerate((tdef or {}).get("instances") or []):
                # an instance lists only what differs from its type's defaults; its abilities, hook
                # bodies and text are not properties
                props = {**defaults, **{k: v for k, v in inst.items() if k not in INSTANCE_KEYS}}
                owners: list[int | None] = list(range(max_players)) if tdef.get("per_player") else [None]
                self.instance_ids[(tname, i)] = []
                for owner in owners:
                    for _ in range(int(inst.get("copies", 1))):
                        p = dict(props)
                        if owner is not None:
                            p["owner"] = owner
                        self.instance_ids[(tname, i)].append(len(raw))
                        raw.append((tname, p, owner))
                        names[str(inst["name"])] = names.get(str(inst["name"]), 0) + 1
        seen: dict[str, int] = {}
        for tname, props, _ in raw:
            nm = str(props["name"])
            seen[nm] = seen.get(nm, 0) + 1
            key = nm if names[nm] == 1 else f"{nm}#{seen[nm]}"
            cid = len(g.components)
            g.components.append(Component(cid, nm, key, tname, props))
            g.by_type[tname].append(cid)
        for mark in g.marks:
            for c in g.components:
                if mark in c.props:
                    self.report.error(
                        "C003",
                        f"'{mark}' is both a property and a mark of '{c.type}'",
                        span_for(self.src, ("components", c.type, "marks", mark), key=True),
                        "rename the mark or the property",
                    )
                    break

    def _zones(self, max_players: int) -> None:
        g = self.g
        base = 0
        for name, zdef in (self.data.get("zones") or {}).items():
            zdef = zdef or {}
            per = zdef.get("per") == "player"
            z = ZoneLayout(
                name,
                per,
                str(zdef.get("visibility", "public")),
                bool(zdef.get("ordered", False)),
                base,
                self.span(("zones", name)),
            )
            g.zones[name] = z
            for i in range(max_players if per else 1):
                g.zone_layouts.append(z)
                g.zone_owner.append(i if per else None)
            base += max_players if per else 1

    def _counters(self, max_players: int) -> None:
        g = self.g
        base = 0
        for name, cdef in (self.data.get("counters") or {}).items():
            cdef = cdef or {}
            keys: list[str] = []
            if cdef.get("keys") is not None:
                kname = str(cdef["keys"])
                if kname not in g.enums:
                    self.report.error(
                        "E120",
                        f"unknown enum '{kname}' for the keys of counter '{name}'",
                        self.span(("counters", name, "keys")),
                        did_you_mean(kname, g.enums),
                    )
                keys = g.enums.get(kname, [])
            per = cdef.get("per") == "player"
            initial = cdef.get("initial", 0)
            if isinstance(initial, dict):
                for key in initial:
                    if key not in keys:
                        self.report.error(
                            "E109",
                            f"counter '{name}' has no key '{key}'",
                            span_for(self.src, ("counters", name, "initial", key), key=True),
                            did_you_mean(str(key), keys) or f"keys: {', '.join(keys)}",
                        )
            c = CounterLayout(name, per, keys, base, initial, cdef.get("min", 0), cdef.get("max"))
            g.counters[name] = c
            base += c.width * (max_players if per else 1)
        g.counter_count = base

    def _vars(self) -> None:
        for name, vdef in (self.data.get("vars") or {}).items():
            vdef = vdef or {}
            initial = _none(vdef.get("initial"))
            declared = vdef.get("type")
            t = _VAR_TYPES.get(str(declared), ANY) if declared else type_of_value(initial)
            if t == "none":
                t = ANY
            self.g.vars[name] = VarLayout(name, vdef.get("per") == "player", initial, t)

    # ------------------------------------------------------------ code
    def compile(self) -> CompiledGame | None:
        g = self.build()
        if g is None:
            return None
        d = self.data
        functions = {}
        for name in d.get("functions") or {}:
            typed = self._params(("functions", name))
            slot = FunctionSlot(
                name,
                [p for p, _ in typed],
                self.expr_at(("functions", name, "expr")),
                self.span(("functions", name)),
            )
            slot.param_types = dict(typed)
            functions[name] = slot
        self.mod = GenModule(g.id, self.unique)
        g.module = self.mod
        self.ex = ExprCompiler(g, self.report, functions, self.mod)
        self._declare_values_and_rules()
        proc_types = {name: self._params(("procedures", name)) for name in d.get("procedures") or {}}
        proc_bodies = {name: self.block_at(("procedures", name, "do")) for name in proc_types}
        self.trigger_sources = self._trigger_sources()
        self.hooks = declare_hooks(self)
        suspension = Suspension({name: body or () for name, body in proc_bodies.items()}, {})
        for _, _, event, _, body in self.trigger_sources:
            suspension.triggers.setdefault(event, []).append(body or ())
        for hname, hinfo in self.hooks.items():
            suspension.hooks[hname] = [b.stmts or () for b in hinfo.bodies]
        suspension.solve()
        for hname, hinfo in self.hooks.items():
            hinfo.suspends = hname in suspension.hook_suspending
        procedures = {
            name: ProcInfo(
                name,
                [p for p, _ in typed],
                dict(typed),
                suspends=name in suspension.suspending,
                body=proc_bodies.get(name) or (),
            )
            for name, typed in proc_types.items()
        }
        action_index = {name: i for i, name in enumerate(d.get("actions") or {})}
        self.windows = WindowCompiler(self.ex, self._action_sources())
        self.sc = EffectCompiler(self.ex, procedures, action_index, suspension, self.windows, self.instrument)
        self.sc.hooks = self.hooks
        # rules and values first: code compiled after a rule tests its guard in place of a call
        self._component_abilities()
        self._values_and_rules()
        for slot in functions.values():
            if slot.state == "new":
                self.ex.compile_function(slot)
        for name, info in procedures.items():
            info.cell[0] = (
                self.compile_entry(
                    ("procedures", name, "do"),
                    info.types,
                    f"procedure '{name}'",
                    ["me", *info.params],
                    tail=[],
                    fn_name=f"P_{name}",
                    stmts=proc_bodies[name] or (),
                )
                or 0
            )
            self.name_block(info.cell[0], "procedure", name, ("procedures", name))
        compile_hooks(self, self.hooks)
        self._actions()
        self._triggers()
        self._dispatchers()
        self._flow()
        self._scoring()
        self._unused()
        g.rule_blocks = len(g.blocks)
        g.snippets = Snippets(self.ex, self.sc)
        return g

    def _unused(self) -> None:
        """Warnings for definitions nothing uses, and triggers on events nothing emits."""
        if self.report.has_errors:
            return  # names used only in code that failed to compile would look unused
        mentioned = self.ex.used | _scenario_words(self.src.folder)
        # constants are not checked: games keep provenance and reference data there on purpose
        for section in ("functions", "procedures", "actions", "counters", "vars", "zones", "values", "rules"):
            for name in self.data.get(section) or {}:
                if name not in mentioned:
                    self.report.warning(
                        "W001",
                        f"{section[:-1]} '{name}' is never used",
                        span_for(self.src, (section, name), key=True),
                        "remove it, or use it in the rules or a scenario",
                    )
        for event, triggers in self.g.triggers.items():
            if event not in self.sc.emitted:
                for trig in triggers:
                    self.report.warning(
                        "W002",
                        f"trigger '{trig.id}' waits for '{event}', which nothing emits",
                        trig.span,
                        did_you_mean(event, self.sc.emitted) or f"emit it with `emit {event}(...)`",
                    )

    def _params(self, path: Path_) -> list[tuple[str, str]]:
        """A definition's parameters as (name, static type): `[p: player, n]`."""
        out: list[tuple[str, str]] = []
        node: Any = self.data
        for k in path:
            node = (node or {}).get(k) if isinstance(node, dict) else None
        for i, entry in enumerate((node or {}).get("params") or []):
            if isinstance(entry, dict):
                for pname, tname in entry.items():
                    t = _VAR_TYPES.get(str(tname))
                    if t is None:
                        self.report.error(
                            "E123",
                            f"unknown type '{tname}' for parameter '{pname}'",
                            self.span((*path, "params", i, pname)),
                            did_you_mean(str(tname), _VAR_TYPES) or f"types: {', '.join(_VAR_TYPES)}",
                        )
                        t = ANY
                    if self._identifier(str(pname), (*path, "params", i)):
                        out.append((str(pname), t))
            elif self._identifier(str(entry), (*path, "params", i)):
                out.append((str(entry), ANY))
        return out

    def _declare_values_and_rules(self) -> None:
        """Names and parameters first, so functions may use value() and rule() whatever the order."""
        g = self.g
        self.value_params = {name: self._params(("values", name)) for name in self.data.get("values") or {}}
        self.rule_params = {name: self._params(("rules", name)) for name in self.data.get("rules") or {}}
        for name, typed in self.value_params.items():
            g.values[name] = ValueDef(name, [p for p, _ in typed])
        for name, typed in self.rule_params.items():
            g.rules[name] = RuleDef(name, [p for p, _ in typed])
        self.contributions: dict[tuple[str, str], list[Contribution]] = {}

    def _values_and_rules(self) -> None:
        """`V_<name>` and `R_<name>`: the base and every component's contribution (modifiers.py)."""
        for kind, params in (("values", self.value_params), ("rules", self.rule_params)):
            for name, typed in params.items():
                base = self.expr_at((kind, name, "base"))
                contributions = self.contributions.get((kind, name), [])
                make = value_source if kind == "values" else rule_source
                self.mod.define(make(self.ex, name, typed, base, contributions))

    def _action_sources(self) -> list[ActionSource]:
        """Every action's parameters and whole condition, for the windows' enumeration functions."""
        out = []
        saved = self.report
        self.report = Report()  # reported when the actions themselves are compiled
        self.ex.report = self.report
        try:
            for name, adef in (self.data.get("actions") or {}).items():
                params = []
                scope = Scope({"me": PLAYER})
                for pname in (adef or {}).get("params") or {}:
                    node = self.expr_at(("actions", name, "params", pname))
                    if node is None or not str(pname).isidentifier():
                        continue
                    t = self.ex.code(node, scope)[1]
                    scope.locals[str(pname)] = elem(t)
                    params.append((str(pname), node, elem(t)))
                out.append(ActionSource(str(name), params, self.action_when(name)))
        finally:
            self.report = saved
            self.ex.report = saved
            self._whens.clear()  # parsed again, so that their diagnostics reach the real report
            self._costs.clear()
        return out

    def _actions(self) -> None:
        g = self.g
        for i, (name, adef) in enumerate((self.data.get("actions") or {}).items()):
            adef = adef or {}
            scope = Scope({"me": PLAYER}, f"action '{name}'")
            params: list[tuple[str, Closure, str]] = []
            for pname in adef.get("params") or {}:
                if not self._identifier(str(pname), ("actions", name, "params", pname)):
                    continue
                node = self.expr_at(("actions", name, "params", pname))
                if node is None:
                    continue
                src, t = self.ex.code(node, scope)
                if t != ANY and t != ZONE and not t.startswith("list["):
                    self.report.error(
                        "T001",
                        f"a parameter lists its choices: expected a list or a zone, found {article(t)}",
                        self.span(("actions", name, "params", pname)),
                        f"write e.g. [{pname} for {pname} in ...] or range(1, 4)",
                    )
                listed = (
                    f"{self.ex.bind('Z')}[{src}]"
                    if t == ZONE
                    else (f"_as_list(rt, {src})" if t == ANY else src)
                )
                params.append((str(pname), self.ex.closure(listed), elem(t)))
                scope.locals[str(pname)] = elem(t)
            when, guard = self._action_condition(name, [p for p, _, _ in params], scope)
            label = None
            if adef.get("label"):
                parts = parse_template(
                    str(adef["label"]), self.origin(("actions", name, "label")), self.report
                )
                label = tuple(p if isinstance(p, str) else self.ex.expr(p, scope) for p in parts)
            stmts = (*self._cost_payments(name), *(self.block_at(("actions", name, "do")) or ()))
            block = (
                self.compile_entry(
                    ("actions", name, "do"),
                    dict(scope.locals),
                    f"action '{name}'",
                    ["me", *(p for p, _, _ in params)],
                    stmts=stmts,
                )
                or 0
            )
            self.name_block(block, "action", name, ("actions", name))
            act = ActionDef(
                i,
                name,
                params,
                when,
                self.span(("actions", name, "when")),
                block,
                label,
                bool(adef.get("closes_window", False)),
                self.span(("actions", name)),
                guard,
            )
            act.conditions = self._conditions(name, scope)
            act.param_spans = [self.span(("actions", name, "params", p)) for p, _, _ in params]
            g.actions[name] = act
            g.action_list.append(act)

    def _cost_items(self, name: str) -> list[tuple[ast.Expr, ast.Expr]]:
        """An action's `cost:` as (counter, amount) nodes, each parsed (once) at its own YAML position."""
        if name in self._costs:
            return self._costs[name]
        items: list[tuple[ast.Expr, ast.Expr]] = []
        self._costs[name] = items
        for key in (self.data["actions"].get(name) or {}).get("cost") or {}:
            path = ("actions", name, "cost", key)
            key_span = span_for(self.src, path, key=True)
            target = parse_expr(str(key), PlainOrigin(*_loc(key_span)), self.report)
            amount = self.expr_at(path)
            if target is not None and amount is not None:
                items.append((target, amount))
        return items

    def _cost_payments(self, name: str) -> list[ast.Stmt]:
        """`pay` statements for the cost, run before the action's effect."""
        return [ast.Pay(amount.span, amount, target) for target, amount in self._cost_items(name)]

    def action_when(self, name: str) -> ast.Expr | None:
        """The action's condition: every cost affordable, and its `when` (parsed once)."""
        if name in self._whens:
            return self._whens[name]
        parts: list[ast.Expr] = [
            ast.Compare(amount.span, ">=", target, amount) for target, amount in self._cost_items(name)
        ]
        when = self.expr_at(("actions", name, "when"))
        if when is not None:
            parts.append(when)
        result = and_chain(parts) if parts else None
        self._whens[name] = result
        return result

    def _conditions(
        self, name: str, scope: Scope
    ) -> list[tuple[Span | None, Closure, tuple[Any, Any] | None]]:
        """Each conjunct of an action's `when`, compiled on its own (for "why not?")."""
        node = self.action_when(name)
        if node is None:
            return []
        saved = self.ex.report
        self.ex.report = Report()  # already reported when the whole condition was compiled
        try:
            out: list[tuple[Span | None, Closure, tuple[Any, Any] | None]] = []
            costs = len(self._cost_items(name))
            for i, c in enumerate(conjuncts(node)):
                sides = (
                    (self.ex.expr(c.left, scope), self.ex.expr(c.right, scope))
                    if isinstance(c, ast.Compare)
                    else None
                )
                span = c.span
                if i < costs and isinstance(c, ast.Compare):
                    # a cost: point at "counter: amount" in the action's cost mapping
                    left = c.left.span
                    span = Span(left.file, left.line, left.col, c.span.end_line, c.span.end_col)
                out.append((span, self.ex.cond(c, scope), sides))
            return out
        finally:
            self.ex.report = saved

    def _action_condition(
        self, name: str, params: list[str], scope: Scope
    ) -> tuple[Closure | None, Closure | None]:
        """(condition, guard): the `and`-conjuncts that use no parameter become a guard, tested once
        per window instead of once per parameter value."""
        node = self.action_when(name)
        if node is None:
            return None, None
        parts = conjuncts(node)
        guards = [c for c in parts if not params or not set(params) & names_in(c)]
        rest = [c for c in parts if c not in guards]
        if not params or not guards:
            return self.ex.cond(node, scope), None
        when = self.ex.cond(and_chain(rest), scope) if rest else None
        return when, self.ex.cond(and_chain(guards), scope)

    def _trigger_sources(self) -> list[tuple[Path_, dict[str, Any], str, str | None, ast.Block | None]]:
        """(path, definition, event, component type, body) of every trigger, parsed once."""
        out: list[tuple[Path_, dict[str, Any], str, str | None, ast.Block | None]] = []
        for i, tdef in enumerate(self.data.get("triggers") or []):
            path: Path_ = ("triggers", i)
            out.append((path, tdef, str(tdef.get("on")), None, self.block_at((*path, "do"))))
        self.trigger_members: dict[Path_, list[int]] = {}  # a card's own trigger: its components only
        for tname in self.data.get("components") or {}:
            for base, holder, ids in instance_holders(self, tname):
                for i, tdef2 in enumerate(holder.get("triggers") or []):
                    path = (*base, "triggers", i)
                    if len(base) > 2:
                        self.trigger_members[path] = ids
                    out.append((path, tdef2, str(tdef2.get("on")), tname, self.block_at((*path, "do"))))
        return out

    def _trigger_types(self, event: str, ctype: str | None) -> dict[str, str]:
        """A trigger's locals: the emitted arguments, `me`, and for a component type's `self` and `p`."""
        types: dict[str, str] = {"me": PLAYER}
        if ctype is not None:
            types.update({"self": COMP, "p": PLAYER})
        for key in _emitted_kwargs(self.data, event):
            types.setdefault(key, ANY)
        return types

    def _triggers(self) -> None:
        """Every trigger's effect, with its locals in a dict."""
        self.trigger_code: dict[
            str, list[tuple[TriggerDef, str | None, ast.Expr | None, ast.Expr | None]]
        ] = {}
        self.members_of_block: dict[int, list[int]] = {}
        for path, tdef, event, ctype, body in self.trigger_sources:
            types = self._trigger_types(event, ctype)
            label = f"trigger '{tdef.get('id', path[-1])}'"
            where = self.expr_at((*path, "where")) if tdef.get("where") is not None else None
            if where is not None:
                self.ex.cond_code(where, Scope(dict(types), label))  # checked here, generated below
            fn_name = self.mod.fresh("trigger")
            block = (
                self.compile_entry(
                    (*path, "do"), types, label, None, tail=[], fn_name=fn_name, stmts=body or ()
                )
                or 0
            )
            self.name_block(block, "trigger", str(tdef.get("id", event)), path)
            trig = TriggerDef(
                str(tdef.get("id", f"{event}#{path[-1]}")), event, block, ctype, self.span((*path, "on"))
            )
            self.g.triggers.setdefault(event, []).append(trig)
            plain = fn_name if fn_name in self.mod.ns else None
            active = None
            if ctype is not None:
                tdata = (self.data.get("components") or {}).get(ctype) or {}
                active = self.expr_at(("components", ctype, "active")) if tdata.get("active") else None
            self.trigger_code.setdefault(event, []).append((trig, plain, where, active))
            if path in self.trigger_members:
                self.members_of_block[block] = self.trigger_members[path]

    def _dispatchers(self) -> None:
        """`X_<event>(rt, me, base)`: the triggers that fire, as (block, function or None, locals).

        Every condition is tested before any trigger runs, in declaration order; a component type's
        trigger is tried for each of its components and each player, except where its `where` pins
        `self` or `p` down with an equality (`self == b`): then only that one is tried."""
        ex = self.ex
        saved = ex.report
        ex.report = Report()  # every condition was checked in _triggers
        try:
            for event, entries in self.trigger_code.items():
                lines = [
                    f"def X_{event}(rt, v_me, base):",
                    "    S = rt.st",
                    "    if 'me' not in base: base['me'] = v_me",
                    f"    if rt.watch is not None: rt.watch({event!r}, base)",
                    "    out = []",
                ]
                for trig, fn, where, active in entries:
                    if trig.component_type is None:
                        scope = Scope(self._trigger_types(event, None))
                        test = ex.cond_code(where, scope) if where is not None else "True"
                        lines.append("    L = {**base}")
                        lines.append(f"    if {test}: out.append(({trig.block}, {fn or 'None'}, L))")
                        continue
                    lines += self._component_trigger(trig, fn or "None", where, active, event)
                lines.append("    return out")
                self.mod.define("\n".join(lines) + "\n")
        finally:
            ex.report = saved

    def _component_trigger(
        self, trig: TriggerDef, fn: str, where: ast.Expr | None, active: ast.Expr | None, event: str
    ) -> list[str]:
        ex = self.ex
        ctype = trig.component_type
        assert ctype is not None
        types = self._trigger_types(event, None)
        scope = Scope(dict(types), "", {}, {"self": ("v_self", COMP), "p": ("v_p", PLAYER)})
        parts = conjuncts(where) if where is not None else []
        members = self.members_of_block.get(trig.block) or self.g.by_type.get(ctype, [])
        ids = ex.inject(members, f"ids_{ctype}")
        self_pin = p_pin = None
        for c in parts:
            if not (isinstance(c, ast.Compare) and c.op == "=="):
                continue
            for mine, other in ((c.left, c.right), (c.right, c.left)):
                if isinstance(mine, ast.Name) and not names_in(other) & {"self", "p"}:
                    if mine.id == "self" and self_pin is None:
                        self_pin = ex.code(other, Scope(dict(types)))[0]
                    elif mine.id == "p" and p_pin is None:
                        p_pin = ex.code(other, Scope(dict(types)))[0]
        tests = []
        if active is not None:
            tests.append(ex.cond_code(active, scope))
        if where is not None:
            tests.append(ex.cond_code(where, scope))
        test = " and ".join(tests) or "True"
        lines = ["    L = base"]
        if self_pin is not None:
            member = ex.inject(frozenset(members), f"members_{ctype}")
            lines.append(f"    _pin = {self_pin}")
            selves = f"((_pin,) if _pin in {member} else ())"
        else:
            selves = ids
        if p_pin is not None:
            lines.append(f"    _pinp = {p_pin}")
            players = f"((_pinp,) if type(_pinp) is int and 0 <= _pinp < {ex.bind('NP')} else ())"
        else:
            players = f"range({ex.bind('NP')})"
        return [
            *lines,
            f"    for v_self in {selves}:",
            f"        for v_p in {players}:",
            f"            if {test}: out.append(({trig.block}, {fn}, {{**base, 'self': v_self, 'p': v_p}}))",
        ]

    def _ability_params(self, params: list[str], types: dict[str, str]) -> list[tuple[str, str]]:
        """`self` and `p` first, then the value's or rule's other parameters (see modifiers.py)."""
        return [
            ("self", COMP),
            ("p", PLAYER),
            *((q, types.get(q, ANY)) for q in params if q not in ("self", "p")),
        ]

    def _component_abilities(self) -> None:
        """Each component type's and each card's own modifiers, allows and denies: checked, and kept
        as contributions (a card's own count for its components only, under its type's `active`)."""
        for tname, tdef in (self.data.get("components") or {}).items():
            tdef = tdef or {}
            active_node = self.expr_at(("components", tname, "active")) if tdef.get("active") else None
            if active_node is not None:
                self.ex.cond_code(active_node, Scope({}, "", {"self": COMP, "p": PLAYER}))
            for base, holder, ids in instance_holders(self, tname):
                self._abilities(base, holder, ids, active_node)

    def _abilities(
        self, base: Path_, holder: dict[str, Any], ids: list[int], active: ast.Expr | None
    ) -> None:
        g = self.g
        for vname, mod in (holder.get("modifiers") or {}).items():
            path = (*base, "modifiers", vname)
            if vname not in g.values:
                self.report.error(
                    "E121",
                    f"unknown value '{vname}'",
                    span_for(self.src, path, key=True),
                    did_you_mean(vname, g.values),
                )
                continue
            entries = mod if isinstance(mod, list) else [mod]
            params = self._ability_params(g.values[vname].params, dict(self.value_params.get(vname, [])))
            for k, entry in enumerate(entries):
                epath = (*path, k) if isinstance(mod, list) else path
                text = str(entry).strip()
                op = "*" if text.startswith("*") else "+"
                body = text[1:] if text[:1] in "+*" else text
                node = parse_expr(body, PlainOrigin(*_loc(self.span(epath))), self.report)
                if node is not None:
                    self.ex.code(node, Scope({}, "", dict(params)))  # checked once, generally
                    self.contributions.setdefault(("values", vname), []).append(
                        Contribution(ids, op, node, active, self.span(epath))
                    )
        for kind in ("allow", "deny"):
            for rname in holder.get(kind) or {}:
                path = (*base, kind, rname)
                if rname not in g.rules:
                    self.report.error(
                        "E122",
                        f"unknown rule '{rname}'",
                        span_for(self.src, path, key=True),
                        did_you_mean(rname, g.rules),
                    )
                    continue
                node = self.expr_at(path)
                if node is not None:
                    typed = dict(self.rule_params.get(rname, []))
                    params = self._ability_params(g.rules[rname].params, typed)
                    self.ex.cond_code(node, Scope({}, "", dict(params)))
                    self.contributions.setdefault(("rules", rname), []).append(
                        Contribution(ids, kind, node, active, self.span(path))
                    )

    def _flow(self) -> None:
        g = self.g
        flow = self.data.get("flow") or {}
        empty = Scope({})
        pscope = Scope({"p": PLAYER, "me": PLAYER})
        rounds = flow.get("rounds")
        rp: Path_ = ("flow", "rounds")
        none: dict[str, str] = {}
        player = {"p": PLAYER, "me": PLAYER}
        fdef = FlowDef(
            setup=self.compile_entry(("flow", "setup"), none, "the setup", ["me"]),
            has_rounds=rounds is not None,
            round_count=self.compile_expr((*rp, "count"), empty)
            if rounds and rounds.get("count") is not None
            else None,
            round_first=self.compile_expr((*rp, "first"), empty)
            if rounds and rounds.get("first") is not None
            else None,
            round_ends_when=self.compile_cond((*rp, "ends_when"), empty)
            if rounds and rounds.get("ends_when")
            else None,
            round_on_start=self.compile_entry((*rp, "on_start"), none, "the round's start", ["me"])
            if rounds
            else None,
            round_on_end=self.compile_entry((*rp, "on_end"), none, "the round's end", ["me"])
            if rounds
            else None,
            turn_player=self.compile_expr(("flow", "turn", "player"), empty)
            if (flow.get("turn") or {}).get("player") is not None
            else None,
            turn_skip_if=self.compile_cond(("flow", "turn", "skip_if"), pscope)
            if (flow.get("turn") or {}).get("skip_if") is not None
            else None,
            phases=[],
            turn_on_end=self.compile_entry(("flow", "turn", "on_end"), player, "the turn's end", ["me", "p"]),
            finish=None,
        )
        for i, ph in enumerate((flow.get("turn") or {}).get("phases") or []):
            bid = self.compile_entry(
                ("flow", "turn", "phases", i, "do"),
                player,
                f"phase '{ph.get('id', i)}'",
                ["me", "p"],
                tail=[],
            )
            self.name_block(bid, "phase", str(ph.get("id", i)), ("flow", "turn", "phases", i))
            fdef.phases.append((str(ph.get("id", f"phase{i + 1}")), bid or 0))
        for i, chk in enumerate(flow.get("end_checks") or []):
            path: Path_ = ("flow", "end_checks", i)
            when = self.compile_cond((*path, "when"), pscope)
            when_node = self.expr_at((*path, "when"))
            saved = self.ex.report
            self.ex.report = Report()  # checked just above
            test = self.ex.function(when_node, [("p", PLAYER), ("me", PLAYER)], True) if when_node else None
            self.ex.report = saved
            mode = str(chk.get("end", "immediately"))
            block = self.compile_entry(
                (*path, "do"),
                player,
                f"end check '{chk.get('id', i)}'",
                ["me", "p"],
                tail=[f"{self.ex.helper(support.ending)}(rt, {mode!r})"],
            )
            self.name_block(block, "end check", str(chk.get("id", i)), path)
            if when is not None and block is not None:
                g.end_checks.append(
                    EndCheckDef(str(chk.get("id", f"end_check{i + 1}")), when, block, mode, test or when)
                )
        fdef.finish = self.compile_entry(("flow", "finish"), none, "the game's end", ["me"])
        self._fuse_end_checks(g)
        self._check_flow(flow, fdef)
        g.flow = fdef
        g.main_block = len(g.blocks)
        driver = FlowDriver(fdef)
        driver.span = self.span(("flow",))
        g.blocks.append(driver)

    def _fuse_end_checks(self, g: CompiledGame) -> None:
        """`_fire_end_checks(rt)`, what generated code calls before each decision: the end checks
        tested in order, each that newly holds marked fired and its effect pushed, as
        Runtime.fire_end_checks does, written out (no loop over the checks, no attribute reads)."""
        ns = self.mod.ns
        tests = [getattr(c.test, "__name__", "") for c in g.end_checks]
        if not all(ns.get(name) is c.test for name, c in zip(tests, g.end_checks, strict=True)):
            # a test that is not a generated function of the players: the general loop
            self.mod.define("def _fire_end_checks(rt):\n    return rt.fire_end_checks()\n")
            return
        lines = ["def _fire_end_checks(rt):", "    if rt.probing:", "        return False"]
        if g.end_checks:
            lines += ["    t = rt.st['t']", "    fired = t['fired']", "    p = t['active']"]
            lines.append("    pushed = False")
        for name, check in zip(tests, g.end_checks, strict=True):
            lines += [
                f"    if {check.id!r} not in fired and {name}(rt, p, p):",
                f"        fired.append({check.id!r})",
                f"        rt.push({check.block}, {{'p': p, 'me': p}})",
                "        pushed = True",
            ]
        lines.append("    return pushed" if g.end_checks else "    return False")
        g.fire_end_checks = self.mod.function("\n".join(lines) + "\n", "_fire_end_checks")

    def _check_flow(self, flow: dict[str, Any], fdef: FlowDef) -> None:
        """Flows that could never ask a decision or never end a round."""
        if not self.data.get("flow"):
            self.report.error(
                "F001",
                "the game has no flow",
                span_for(self.src, ("game",), key=True),
                "add a 'flow:' section with turn phases (see docs/language.md)",
            )
            return
        if not fdef.phases:
            self.report.error(
                "F002",
                "the turn has no phases, so no player ever acts",
                span_for(self.src, ("flow", "turn", "phases"), key=True) or self.span(("flow",)),
                "add flow.turn.phases: [{id: main, do: ...}]",
            )
        rounds = flow.get("rounds")
        if rounds is not None and rounds.get("ends_when") is None:
            self.report.warning(
                "F003",
                "rounds have no 'ends_when': a round ends only when every player is skipped",
                span_for(self.src, ("flow", "rounds"), key=True),
                "add flow.rounds.ends_when: <condition>",
            )

    def _identifier(self, name: str, path: Path_) -> bool:
        """Declared names must be DSL names (they become identifiers in generated code)."""
        if name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_"):
            return True
        self.report.error(
            "C005",
            f"{name!r} is not a valid name",
            span_for(self.src, path, key=True) or self.span(path),
            f"'{name}' is a reserved word"
            if keyword.iskeyword(name)
            else "use letters, digits and '_', starting with a letter",
        )
        return False

    def _reserved_names(self) -> None:
        """Names the engine keeps may not be declared by a game (they could never be read)."""
        reserved = {"players", "num_players", "active", "round", "turn", "me", "self"}
        from tabula.interpreter.load.gamelimits import NAMED_SECTIONS

        for section in NAMED_SECTIONS:
            for name in self.data.get(section) or {}:
                self._identifier(str(name), (section, name))
                if name in reserved:
                    self.report.error(
                        "C004",
                        f"'{name}' is a name the engine keeps",
                        span_for(self.src, (section, name), key=True),
                        "choose another name",
                    )

    def _scoring(self) -> None:
        g = self.g
        scoring = self.data.get("scoring") or {}
        scope = Scope({"p": PLAYER})
        g.score_span = self.span(("scoring", "score"))
        if scoring.get("score") is not None:
            g.score = self.compile_expr(("scoring", "score"), scope)
        for i, _ in enumerate(scoring.get("tiebreak") or []):
            f = self.compile_expr(("scoring", "tiebreak", i), scope)
            if f is not None:
                g.tiebreak.append(f)


def _scenario_words(folder: Any) -> set[str]:
    """Identifiers written in the game's scenario files (names used only by scenarios are used)."""
    import re

    words: set[str] = set()
    for f in sorted(folder.glob("scenarios/**/*.yaml")):
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read_text(encoding="utf-8")))
    return words


def _none(v: Any) -> Any:
    """YAML has no `none`; the DSL does. An initial value written `none` means none."""
    return None if v == "none" else v


def _loc(span: Span | None) -> tuple[str, int, int]:
    return (span.file, span.line, span.col) if span else ("<game>", 1, 1)


def _emitted_kwargs(data: dict[str, Any], event: str) -> set[str]:
    """Names passed by every `emit event(...)` in the game's text (so triggers may use them)."""
    import re

    found: set[str] = set()
    start = re.compile(r"\bemit\s+" + re.escape(event) + r"\s*\(")

    def arguments(text: str, at: int) -> None:
        depth, arg = 0, ""
        for ch in text[at:]:
            if ch in "([":
                depth += 1
            elif ch in ")]":
                if depth == 0:
                    break
                depth -= 1
            if ch == "," and depth == 0:
                if "=" in arg:
                    found.add(arg.split("=")[0].strip())
                arg = ""
            else:
                arg += ch
        if "=" in arg:
            found.add(arg.split("=")[0].strip())

    def walk(node: Any) -> None:
        if isinstance(node, str):
            for m in start.finditer(node):
                arguments(node, m.end())
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(data)
    return found


def compile_game(
    source: GameSource,
    report: Report,
    options: dict[str, Any] | None = None,
    instrument: bool = False,
    unique: str | None = None,
) -> CompiledGame | None:
    """Check and compile a validated game; None (with diagnostics) if anything is wrong. `instrument`
    makes the generated code record which blocks run (rules coverage)."""
    compiler = GameCompiler(source, report, options, instrument, unique)
    game = compiler.compile()
    if report.has_errors:
        return None
    return game
