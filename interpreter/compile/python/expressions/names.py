"""Names, calls and attributes: what each name of a DSL expression stands for in the game.

Stage: compile. A name is resolved in one order: a value the scope knows (an inlined argument, a
component ability's `self`), a parameter, a local of the effect, an engine name (`players`,
`active`, ...), a component type, a constant, an enum symbol, a counter, a var, a zone, a DSL
function; a call in the same spirit (a DSL function, a counter or var of a player, a zone of a
player, a builtin). Counters and zones are laid out as flat lists, so a counter's read is an index
computed from its base, its player and its key (`counter_index_code`). `.name` and the other
attributes read a component's property column, its marks or its place.
"""

from __future__ import annotations

import ast as pyast
import re
from typing import Any

from tabula.interpreter.base.source import did_you_mean
from tabula.interpreter.base.types import (
    ANY,
    BOOL,
    COMP,
    INT,
    NONE,
    PLAYER,
    STR,
    ZONE,
    Scope,
    elem,
    join,
    list_of,
    type_of_value,
)
from tabula.interpreter.base.types import a as article
from tabula.interpreter.compile.python.expressions.aggregates import aggregate_code
from tabula.interpreter.compile.python.expressions.analysis import FunctionSlot
from tabula.interpreter.compile.python.expressions.base import BROKEN
from tabula.interpreter.compile.python.expressions.builtins import AGGREGATES, BUILTINS, builtin_attr_code
from tabula.interpreter.compile.python.expressions.fragments import NO_VALUE, Code, literal
from tabula.interpreter.compile.python.expressions.functions import FunctionCompiler
from tabula.interpreter.compile.python.expressions.spatial import GENERATORS, cell_zone_code, generator_code
from tabula.interpreter.dsl import ast

_UNKNOWN = object()  # a key whose value is known only at run time

# the attributes every component has, and the engine's own names (docs/reference.md lists both)
BUILTIN_ATTRS = {"name": STR, "key": STR, "type": STR, "zone": ZONE, "holder": PLAYER, "id": INT}
SPECIAL_NAMES = {"players", "num_players", "active", "round", "turn"}
# a counter's index made of numbers and Python locals (players): reading it cannot fail
_FIXED_INDEX = re.compile(r"[\d\s()+*]*(?:\bv_\w+[\d\s()+*]*)*")


class NameCompiler(FunctionCompiler):
    """Names, calls, counters' indexes and attributes (part of `ExprCompiler`, exprs.py)."""

    def all_names(self, scope: Scope) -> list[str]:
        """Every name an expression in `scope` may use (for "did you mean" hints)."""
        g = self.g
        return [
            *scope.locals,
            *scope.py,
            *SPECIAL_NAMES,
            *g.constants,
            *(s for syms in g.enums.values() for s in syms),
            *g.enums,
            *g.counters,
            *g.vars,
            *g.zones,
            *g.by_type,
            *self.functions,
            *BUILTINS,
        ]

    # ------------------------------------------------------------ names
    def _Name(self, n: ast.Name, scope: Scope) -> Code:
        name = n.id
        g = self.g
        if name in scope.known:
            return scope.known[name]
        if name in scope.py:
            return f"v_{name}", scope.py[name]
        if name in scope.locals:
            return f"L[{name!r}]", scope.locals[name]
        special = {
            "players": (f"list(range({self.bind('NP')}))", list_of(PLAYER)),
            "num_players": (self.bind("NP"), INT),
            "active": ("S['t']['active']", PLAYER),
            "round": ("S['t']['round']", INT),
            "turn": ("S['t']['turn']", INT),
        }
        if name in special:
            return special[name]
        if name in g.by_type:
            return self.inject(g.by_type[name], name), list_of(COMP)
        if name in g.constants:
            v = g.constants[name]
            if isinstance(v, (int, str, bool)) or v is None:
                return repr(v), type_of_value(v)
            if isinstance(v, dict) and any(isinstance(k, int) for k in v):
                # a map keyed by numbers never enters the state (a save would make its keys text)
                return self.error(
                    "T012",
                    f"'{name}' is keyed by numbers: it is read by index only",
                    n.span,
                    f"write {name}[n]",
                )
            return self.inject(v, name), type_of_value(v)
        for syms in g.enums.values():
            if name in syms:
                return repr(name), STR
        if name in g.counters:
            c = g.counters[name]
            if c.per_player or c.keys:
                args = ("p" if c.per_player else "") + (", key" if c.keys else "")
                return self.error(
                    "E102", f"counter '{name}' needs arguments", n.span, f"write {name}({args})"
                )
            return f"{self.bind('C')}[{c.base}]", INT
        if name in g.vars:
            v_ = g.vars[name]
            if v_.per_player:
                return self.error("E102", f"'{name}' is kept per player: write {name}(p)", n.span)
            return f"S['v'][{name!r}]", v_.type
        if name in g.zones:
            z = g.zones[name]
            if z.per_player:
                return self.error("E102", f"zone '{name}' is per player: write {name}(p)", n.span)
            return repr(z.base), ZONE
        if name in g.zone_families:
            form = (
                f"{name}(p, key)"
                if g.zones[f"{name}({g.zone_families[name][0]})"].per_player
                else f"{name}(key)"
            )
            return self.error("E102", f"zone '{name}' is one zone per key: write {form}", n.span)
        if name in self.functions:
            slot = self.functions[name]
            if slot.params:
                return self.error(
                    "E105",
                    f"'{name}' takes {len(slot.params)} argument(s)",
                    n.span,
                    f"{name}({', '.join(slot.params)})",
                )
            return self._call_function(slot, [])
        if name in g.enums:  # an enum is the list of its symbols, in declared order
            return self.inject(list(g.enums[name]), name), list_of(STR)
        if name in ("me", "self", "p"):
            return self.error(
                "E101",
                f"'{name}' is not defined here",
                n.span,
                "'me' exists inside actions, 'self' inside component abilities, "
                "'p' inside phases and procedures that declare it",
            )
        if name in scope.pending:
            return self.error("E101", f"'{name}' is not known yet here", n.span, scope.pending[name])
        return self.error("E101", f"unknown name '{name}'", n.span, did_you_mean(name, self.all_names(scope)))

    # ------------------------------------------------------------ calls
    def _let_argument(self, slot: FunctionSlot, pname: str, src: str, t: str) -> str:
        """The value passed for a `let:` name of a chained function (reader.LET): before the chain is
        compiled, the name takes the value's static type (so a let of a component stays one: choice
        ids, hidden views); a zone (or none) is passed as before, of type any."""
        if slot.state == "new" and t not in (ZONE, NONE) and not t.startswith("="):
            slot.param_types[pname] = t
        return src

    def _Call(self, n: ast.Call, scope: Scope) -> Code:
        if not isinstance(n.func, ast.Name):
            return self.error("E103", "only named functions can be called", n.func.span)
        name = n.func.id
        g = self.g
        if name in ("value", "rule", "option"):
            return self._named_lookup(name, n, scope)
        if name in self.functions:
            slot = self.functions[name]
            if len(n.args) != len(slot.params):
                return self.error(
                    "E105",
                    f"'{name}' takes {len(slot.params)} argument(s), got {len(n.args)}",
                    n.span,
                    f"{name}({', '.join(slot.params)})",
                )
            args = []
            for a, pname in zip(n.args, slot.params, strict=True):
                src, t = self.code(a, scope)
                if t == ZONE and slot.param_types.get(pname, ANY).startswith("list["):
                    src = f"{self.bind('Z')}[{src}]"  # a zone given where a list is declared: its contents
                elif pname in slot.inferred:
                    src = self._let_argument(slot, pname, src, t)
                args.append(src)
            return self._call_function(slot, args)
        if name in g.counters:
            idx = self.counter_index_code(name, n, scope)
            if idx is None:
                return BROKEN[0], ANY
            read = f"{self.bind('C')}[{idx}]"
            if self._loops and _FIXED_INDEX.fullmatch(idx):
                return self.invariant_read(read), INT
            return read, INT
        if name in g.vars:
            v_ = g.vars[name]
            if not v_.per_player or len(n.args) != 1:
                want = "one player" if v_.per_player else "no"
                return self.error("E105", f"'{name}' takes {want} argument", n.span)
            p, pt = self.code(n.args[0], scope)
            read = f"{self.bind('pv_' + name)}[{p}]"
            if self._loops and pt == PLAYER and _FIXED_INDEX.fullmatch(p):
                return self.invariant_read(read), v_.type
            return read, v_.type
        if name in g.zones:
            z = g.zones[name]
            if not z.per_player or len(n.args) != 1:
                want = "one player" if z.per_player else "no"
                return self.error("E105", f"zone '{name}' takes {want} argument", n.span)
            p, pt = self.code(n.args[0], scope)
            self.expect(pt, PLAYER, n.args[0].span)
            lit = literal(p)
            if isinstance(lit, int) and not isinstance(lit, bool):
                return repr(z.base + lit), ZONE
            return (f"({z.base} + {p})" if z.base else f"({p})"), ZONE
        if name in g.zone_families:
            return cell_zone_code(self, name, n, scope) or self._keyed_zone(name, n, scope)
        if name in BUILTINS:
            return BUILTINS[name].code(self, n, scope)
        return self.error(
            "E104",
            f"unknown function '{name}'",
            n.func.span,
            did_you_mean(name, [*self.functions, *BUILTINS, *g.counters, *g.vars, *g.zones]),
        )

    def _keyed_zone(self, name: str, n: ast.Call, scope: Scope) -> Code:
        """`discard(key)` or `discard(p, key)`: one zone of a zone keyed by an enum (E105, E109)."""
        keys = self.g.zone_families[name]
        per = self.g.zones[f"{name}({keys[0]})"].per_player
        if len(n.args) != (2 if per else 1):
            form = f"{name}(p, key)" if per else f"{name}(key)"
            return self.error(
                "E105", f"zone '{name}' takes {'a player and ' if per else ''}a key: {form}", n.span
            )
        player = ""
        if per:
            p, pt = self.code(n.args[0], scope)
            self.expect(pt, PLAYER, n.args[0].span)
            player = f" + ({p})"
        key_node = n.args[-1]
        k, kt = self.code(key_node, scope)
        lit = literal(k)
        if isinstance(lit, str) and lit in keys:
            return f"({self.g.zones[f'{name}({lit})'].base}{player})", ZONE
        if isinstance(lit, (int, str)) or kt in (INT, PLAYER, BOOL):
            shown = repr(lit) if lit is not NO_VALUE else article(kt)
            return self.error(
                "E109", f"zone '{name}' has no key {shown}", key_node.span, did_you_mean(str(lit), keys)
            )
        # a missing key raises KeyError, reported at the statement as "no such entry"
        table = self.inject({key: self.g.zones[f"{name}({key})"].base for key in keys}, f"zones_{name}")
        return f"({table}[{k}]{player})", ZONE

    def _CallGen(self, n: ast.CallGen, scope: Scope) -> Code:
        if isinstance(n.func, ast.Name) and n.func.id in GENERATORS:
            return generator_code(self, n.func.id, n.gen, scope)
        if not isinstance(n.func, ast.Name) or n.func.id not in AGGREGATES:
            return self.error(
                "E106",
                "a 'for' generator can only be used inside " + ", ".join(sorted(AGGREGATES)),
                n.span,
            )
        return aggregate_code(self, n.func.id, n.gen, scope)

    def counter_index_code(self, name: str, n: ast.Call | ast.Name, scope: Scope) -> str | None:
        """Source for the flat index of counter `name(args)` in state["c"]."""
        c = self.g.counters[name]
        args = n.args if isinstance(n, ast.Call) else ()
        want = (1 if c.per_player else 0) + (1 if c.keys else 0)
        if len(args) != want:
            form = f"{name}({', '.join((['p'] if c.per_player else []) + (['key'] if c.keys else []))})"
            self.report.error(
                "E105", f"counter '{name}' takes {want} argument(s), got {len(args)}", n.span, f"write {form}"
            )
            return None
        base, width = c.base, c.width
        player = ""
        if c.per_player:
            p, pt = self.code(args[0], scope)
            self.expect(pt, PLAYER, args[0].span)
            player = f"({p}) * {width}" if c.keys else f"({p})"

        def at(offset: int | str) -> str:  # the offsets are added up here, not at every read
            if not player:
                return f"({offset})"
            return f"({player})" if offset == 0 else f"({offset} + {player})"

        if not c.keys:
            return at(base)
        key_node = args[-1]
        if isinstance(key_node, (ast.Name, ast.String)):
            word = key_node.id if isinstance(key_node, ast.Name) else key_node.value
            shadowed = isinstance(key_node, ast.Name) and (
                word in scope.locals or word in scope.py or word in scope.known
            )
            if word in c.keys and not shadowed:
                return at(base + c.keys.index(word))
            if isinstance(key_node, ast.String) or (
                not shadowed
                and word not in self.g.constants
                and word not in self.g.vars
                and word not in self.functions
                and not any(word in syms for syms in self.g.enums.values())
            ):
                self.report.error(
                    "E109", f"counter '{name}' has no key '{word}'", key_node.span, did_you_mean(word, c.keys)
                )
                return None
        k, _ = self.code(key_node, scope)
        lit = literal(k)
        if isinstance(lit, str) and lit in c.keys:
            return at(base + c.keys.index(lit))
        # a missing key raises KeyError, reported at the statement as "no such entry"; the table
        # holds each key's offset from the start of the counters (the base added in)
        table = self._counter_tables.get(name)
        if table is None:
            table = self._counter_tables[name] = self.inject(
                {key: base + i for i, key in enumerate(c.keys)}, f"at_{name}"
            )
        return at(f"{table}[{k}]")

    # ------------------------------------------------------------ postfix
    def _Attr(self, n: ast.Attr, scope: Scope) -> Code:
        obj, ot = self.code(n.obj, scope)
        name = n.name
        if ot not in (ANY, COMP, NONE):
            return self.error("T003", f"'.{name}' needs a component, but this is {article(ot)}", n.obj.span)
        g = self.g
        cid = literal(obj)
        comp = scope.static.get(obj)
        if isinstance(cid, int) and not isinstance(cid, bool) and 0 <= cid < len(g.components):
            comp = g.components[cid]
        if name in g.marks:
            return f"{self.bind('m_' + name)}[{obj}]", g.mark_kinds[name]
        if name in self.props:
            if comp is not None:
                return repr(comp.props.get(name)), self._prop_type(name)
            return f"{self.column(name)}[{obj}]", self._prop_type(name)
        if name in BUILTIN_ATTRS:
            if comp is not None and name in ("name", "key", "type"):
                return repr(getattr(comp, name)), STR
            return builtin_attr_code(self, name, obj), BUILTIN_ATTRS[name]
        return self.error(
            "E108",
            f"no component has a property or mark named '{name}'",
            n.span,
            did_you_mean(name, [*self.props, *g.marks, *BUILTIN_ATTRS]),
        )

    def column(self, prop: str) -> str:
        """The injected list of one property's value for every component (None where absent)."""
        if prop not in self._columns:
            self._columns[prop] = self.inject([c.props.get(prop) for c in self.g.components], "prop_" + prop)
        return self._columns[prop]

    def _prop_type(self, name: str) -> str:
        t = NONE
        for c in self.g.components:
            if name in c.props:
                t = join(t, type_of_value(c.props[name]))
                if t == ANY:
                    break
        return ANY if t == NONE else t

    def _Index(self, n: ast.Index, scope: Scope) -> Code:
        table = self._constant_table(n.obj, scope)
        if table is not None:
            return self._table_index(n, table, scope)
        obj, ot = self.code(n.obj, scope)
        if ot in (INT, BOOL, STR, PLAYER, COMP, NONE):
            hint = "index a list or a zone: xs[0] is the first item, hand(p)[0] the top component"
            return self.error("T013", f"{article(ot)} cannot be indexed with [...]", n.obj.span, hint)
        key, kt = self.code(n.key, scope)
        if (ot == ZONE or ot.startswith("list[")) and kt not in (INT, ANY):
            hint = "0 is the first item (a zone's top), -1 the last"
            return self.error("T013", f"a position is a number, not {article(kt)}", n.key.span, hint)
        if ot == ZONE:  # the component at that position, 0 the top (as `top`, `move ... top`)
            return f"{self.bind('Z')}[{obj}][{key}]", COMP
        if ot.startswith("list["):
            return f"{obj}[{key}]", elem(ot)
        return f"{obj}[{key}]", self._table_type(n.obj, scope)

    def _constant_table(self, node: ast.Expr, scope: Scope) -> dict[Any, Any] | None:
        """The constant map `node` names (not a local of that name), else None."""
        if not isinstance(node, ast.Name) or node.id in scope.known or node.id in scope.py:
            return None
        table = self.g.constants.get(node.id) if node.id not in scope.locals else None
        return table if isinstance(table, dict) else None

    def _table_index(self, n: ast.Index, table: dict[Any, Any], scope: Scope) -> Code:
        """`table[k]` for a constant map, its keys' kind checked against k's static type (T012): a
        map keyed by numbers (`hand_size[num_players]`) takes a number or a player, one keyed by
        text a text or a symbol; a key known at check time must be one of the map's."""
        assert isinstance(n.obj, ast.Name)
        name = n.obj.id
        key, kt = self.code(n.key, scope)
        numbers = bool(table) and all(isinstance(k, int) for k in table)
        shown = ", ".join(repr(k) for k in list(table)[:4]) + (", ..." if len(table) > 4 else "")
        if not numbers and any(isinstance(k, int) for k in table):
            return self.error("T012", f"'{name}' mixes number and text keys ({shown})", n.obj.span)
        wanted, given = ("a number", kt in (STR, BOOL)) if numbers else ("a text", kt in (INT, PLAYER))
        if given:
            return self.error(
                "T012",
                f"'{name}' is keyed by {'numbers' if numbers else 'text'} ({shown}): "
                f"indexing it with {article(kt)} can never find a key",
                n.key.span,
                f"index it with {wanted}",
            )
        try:
            known: Any = pyast.literal_eval(key)
        except (ValueError, SyntaxError):
            known = _UNKNOWN
        if known is not _UNKNOWN and isinstance(known, (int, str)) and known not in table:
            hint = did_you_mean(str(known), [str(k) for k in table]) or f"its keys: {shown}"
            return self.error("T012", f"'{name}' has no key {known!r}", n.key.span, hint)
        t = self._table_type(n.obj, scope)
        if known is not _UNKNOWN and t == ANY and type_of_value(table[known]) in (INT, STR, BOOL):
            t = type_of_value(table[known])  # a key known here: its value's own type, checked where used
        return f"{self.inject(table, name)}[{key}]", t

    def _table_type(self, node: ast.Expr, scope: Scope) -> str:
        """The type of every value of a constant table (a YAML map of numbers, say), else ANY: so
        that `price[c] + 1` is known to add numbers."""
        if not isinstance(node, ast.Name) or node.id in scope.known or node.id in scope.py:
            return ANY
        if node.id in scope.locals:
            return ANY
        table = self.g.constants.get(node.id)
        if not isinstance(table, dict) or not table:
            return ANY
        types = {type_of_value(v) for v in table.values()}
        return types.pop() if len(types) == 1 and types <= {INT, STR, BOOL} else ANY
