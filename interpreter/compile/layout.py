"""The layouts of a game: its options, components, zones, counters and vars, as the CompiledGame's
tables that the generated code and the runtime index.

Stage: check + compile, independent of the target language; the first step of compiling a game
(python/game.py), before any DSL is compiled. Components get ids in declaration order (each
instance's copies, per player for a `per_player` type); zones and counters get base offsets into
the state's flat lists. Names the engine keeps, misspelt declarations and marks that clash with
properties are reported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabula.interpreter.base.limits import WORK_BUDGET
from tabula.interpreter.base.source import did_you_mean
from tabula.interpreter.base.types import ANY, AUDIENCE_WORDS, VAR_TYPES, type_of_value
from tabula.interpreter.load.boards import geometry
from tabula.interpreter.load.positions import span_for
from tabula.interpreter.load.tiles import sides_spec
from tabula.interpreter.model.boards import BoardTable, TileSpec
from tabula.interpreter.model.game import CompiledGame, Component, CounterLayout, VarLayout, ZoneLayout

if TYPE_CHECKING:  # the reader imports the DSL parser (lark), which a warm load never needs
    from tabula.interpreter.compile.reader import GameReader

INSTANCE_KEYS = ("copies", "text", "modifiers", "allow", "deny", "triggers", "hooks")
"""The keys of a component instance that are not properties (everything else it lists is one)."""

InstanceIds = dict[tuple[str, int], list[int]]
"""(component type, index in its `instances:`) -> the ids of that instance's components."""


def build_layouts(read: GameReader, chosen_options: dict[str, Any]) -> tuple[CompiledGame, InstanceIds]:
    """The CompiledGame with its layouts filled in (nothing compiled yet), and each instance's ids."""
    g = _game(read, chosen_options)
    _reserved_names(read)
    instance_ids = _components(read, g)
    _zones(read, g)
    _boards(read, g, instance_ids)
    _tiles(read, g)
    _counters(read, g)
    _vars(read, g)
    return g, instance_ids


def _game(read: GameReader, chosen_options: dict[str, Any]) -> CompiledGame:
    """The game's identity, player counts, limits, rules options (the chosen ones checked, O001),
    constants and enums; its layouts still empty."""
    d = read.data
    info = d.get("game", {})
    players = info.get("players", {})
    max_players = int(players.get("max", 4))
    options = {
        k: (v.get("default") if isinstance(v, dict) else v) for k, v in (d.get("options") or {}).items()
    }
    for k, v in chosen_options.items():
        if k not in options:
            read.report.error(
                "O001", f"unknown rules option '{k}'", read.span(("options",)), did_you_mean(k, options)
            )
        else:
            options[k] = v
    enums = {k: [str(x) for x in v] for k, v in (d.get("enums") or {}).items()}
    return CompiledGame(
        id=str(info.get("id", read.src.folder.name)),
        name=str(info.get("name", read.src.folder.name)),
        folder=str(read.src.folder),
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
        counters_set=set(),
    )


def _reserved_names(read: GameReader) -> None:
    """Names the engine keeps may not be declared by a game (they could never be read)."""
    reserved = {"players", "num_players", "active", "round", "turn", "me", "self"}
    from tabula.interpreter.load.gamelimits import NAMED_SECTIONS

    for section in NAMED_SECTIONS:
        for name in read.data.get(section) or {}:
            read.identifier(str(name), (section, name))
            if name in reserved:
                read.report.error(
                    "C004",
                    f"'{name}' is a name the engine keeps",
                    span_for(read.src, (section, name), key=True),
                    "choose another name",
                )


def _components(read: GameReader, g: CompiledGame) -> InstanceIds:
    """Every component (ids in declaration order, a repeated name keyed `name#k`) and every mark."""
    max_players = g.max_players
    names: dict[str, int] = {}
    raw: list[tuple[str, dict[str, Any], str]] = []  # type, properties, printed text
    instance_ids: InstanceIds = {}
    for tname, tdef in (read.data.get("components") or {}).items():
        g.by_type[tname] = []
        for mark, written in ((tdef or {}).get("marks") or {}).items():
            default, kind, public = mark_declaration(written)
            if mark in g.marks and (g.marks[mark], g.mark_kinds[mark]) != (default, kind):
                read.report.warning(
                    "C002",
                    f"mark '{mark}' has different defaults or types in different types",
                    read.span(("components", tname, "marks", mark)),
                )
            g.marks.setdefault(mark, default)
            g.mark_kinds.setdefault(mark, kind)
            if public:
                g.public_marks.add(mark)
            g.mark_types.setdefault(mark, []).append(tname)
        _instance_keys_declared(read, tname, tdef or {})
        defaults = (tdef or {}).get("defaults") or {}
        for i, inst in enumerate((tdef or {}).get("instances") or []):
            # an instance lists only what differs from its type's defaults; its abilities, hook
            # bodies and text are not properties
            props = {**defaults, **{k: v for k, v in inst.items() if k not in INSTANCE_KEYS}}
            owners: list[int | None] = list(range(max_players)) if tdef.get("per_player") else [None]
            instance_ids[(tname, i)] = []
            for owner in owners:
                for _ in range(int(inst.get("copies", 1))):
                    p = dict(props)
                    if owner is not None:
                        p["owner"] = owner
                    instance_ids[(tname, i)].append(len(raw))
                    raw.append((tname, p, str(inst.get("text") or "").strip()))
                    names[str(inst["name"])] = names.get(str(inst["name"]), 0) + 1
    seen: dict[str, int] = {}
    for tname, props, text in raw:
        nm = str(props["name"])
        seen[nm] = seen.get(nm, 0) + 1
        key = nm if names[nm] == 1 else f"{nm}#{seen[nm]}"
        cid = len(g.components)
        g.components.append(Component(cid, nm, key, tname, props, text))
        g.by_type[tname].append(cid)
    for mark in g.marks:
        for c in g.components:
            if mark in c.props:
                declarer = c.type if c.type in g.mark_types[mark] else g.mark_types[mark][0]
                span = span_for(read.src, ("components", declarer, "marks", mark), key=True)
                hint = "rename the mark or the property"
                if declarer == c.type:
                    read.report.error(
                        "C003", f"'{mark}' is both a property and a mark of '{c.type}'", span, hint
                    )
                else:
                    read.report.error(
                        "C003",
                        f"'{mark}' is a property of '{c.type}' and a mark of '{declarer}': a mark is shared "
                        f"by name by every component type, so '{c.type}' components have it too",
                        span,
                        hint,
                    )
                break
    return instance_ids


def _instance_keys_declared(read: GameReader, tname: str, tdef: dict[str, Any]) -> None:
    """W006 at a declared property named like an instance key (`text`: the printed text shown on
    screen; `copies`, `triggers`, ...): an instance's value there is not the property, and reading
    it fails. A card's printed text needs no declaration: an instance's `text:` is always one."""
    for prop in tdef.get("properties") or {}:
        if prop in INSTANCE_KEYS:
            what = "the component's printed text (shown on screen)" if prop == "text" else "an instance key"
            read.report.warning(
                "W006",
                f"'{prop}' is {what}, not a property: an instance's '{prop}:' never becomes one",
                span_for(read.src, ("components", tname, "properties", prop), key=True),
                f"rename the property (e.g. '{prop}_value'), or drop it from 'properties:'",
            )


def _zones(read: GameReader, g: CompiledGame) -> None:
    """Each zone's layout; a per-player zone takes one slot per seat."""
    max_players = g.max_players
    base = 0
    for name, zdef in (read.data.get("zones") or {}).items():
        zdef = zdef or {}
        per = zdef.get("per") == "player"
        keys = _enum_keys(read, g, "zones", name, zdef)
        if keys is not None:
            g.zone_families[name] = keys
        # a zone keyed by an enum is one zone per symbol, named `name(key)`: every tool sees zones
        for key in keys if keys is not None else [None]:
            z = ZoneLayout(
                name if key is None else f"{name}({key})",
                per,
                visibility_of("zones", name, zdef),
                bool(zdef.get("ordered", False)),
                base,
                read.span(("zones", name)),
                name if key is not None else None,
                key,
                zdef.get("max"),
                str(zdef.get("size_visibility", "public")),
            )
            g.zones[z.name] = z
            for i in range(max_players if per else 1):
                g.zone_layouts.append(z)
                g.zone_owner.append(i if per else None)
            base += max_players if per else 1


def _enum_keys(
    read: GameReader, g: CompiledGame, section: str, name: str, d: dict[str, Any]
) -> list[str] | None:
    """The symbols of `keys: ENUM` of a zone or counter, else None (E120 for an unknown enum)."""
    if d.get("keys") is None:
        return None
    kname = str(d["keys"])
    boards = read.data.get("boards") or {}
    if section == "zones" and kname in boards and kname in g.by_type:  # one zone per cell
        return [g.components[cid].name for cid in g.by_type[kname][:: _copies(boards[kname], g)]]
    if kname not in g.enums:
        read.report.error(
            "E120",
            f"unknown enum '{kname}' for the keys of {section[:-1]} '{name}'",
            read.span((section, name, "keys")),
            did_you_mean(kname, g.enums),
        )
        return None
    return list(g.enums[kname])


def _copies(bdef: dict[str, Any], g: CompiledGame) -> int:
    """How many copies of a board there are: one per seat for `per: player`."""
    return g.max_players if bdef.get("per") == "player" else 1


def _boards(read: GameReader, g: CompiledGame, instance_ids: InstanceIds) -> None:
    """Each board's table: its geometry, its cells' and edges' ids per copy, its cells' zones."""
    index = g.boards
    for name, bdef in (read.data.get("boards") or {}).items():
        if name not in g.by_type:
            continue
        geo = geometry(bdef, name)
        copies = _copies(bdef, g)
        cells = [[instance_ids[(name, i)][k] for i in range(len(geo.names))] for k in range(copies)]
        edges = [[instance_ids[(f"{name}_edge", i)][k] for i in range(len(geo.edges))] for k in range(copies)]
        holds = bdef.get("holds")
        zone = str(holds.get("zone") or f"on_{name}") if isinstance(holds, dict) else None
        table = BoardTable(name, geo, copies > 1, cells, edges, zone)
        if zone is not None and zone in g.zone_families:
            table.cell_zones = [[g.zones[f"{zone}({n})"].base + k for n in geo.names] for k in range(copies)]
            if geo.grows:
                index.growing.update((z, (name, i)) for i, z in enumerate(table.cell_zones[0]))
        index.tables[name] = table
        for k in range(copies):
            for i, cid in enumerate(cells[k]):
                index.cell_of[cid] = (name, k, i)
                if table.cell_zones:
                    index.zone_of_cell[cid] = table.cell_zones[k][i]
            for i, eid in enumerate(edges[k]):
                index.edge_of[eid] = (name, k, i)


def _tiles(read: GameReader, g: CompiledGame) -> None:
    """Each tile type's sides (`sides:` of a component type, load/tiles.py)."""
    for tname, tdef in (read.data.get("components") or {}).items():
        spec = sides_spec(tdef)
        if spec is not None:
            g.boards.tiles[tname] = TileSpec(
                spec["property"],
                spec["joins"],
                spec["mark"],
                spec["mirror"],
                spec["count"],
                parts=spec["parts"],
                per=spec["per"],
            )


def _counters(read: GameReader, g: CompiledGame) -> None:
    """Each counter's layout: its keys (an enum), bounds and offset (E120, E109)."""
    max_players = g.max_players
    base = 0
    for name, cdef in (read.data.get("counters") or {}).items():
        cdef = cdef or {}
        keys = _enum_keys(read, g, "counters", name, cdef) or []
        per = cdef.get("per") == "player"
        initial = cdef.get("initial", 0)
        if isinstance(initial, dict):
            for key in initial:
                if key not in keys:
                    read.report.error(
                        "E109",
                        f"counter '{name}' has no key '{key}'",
                        span_for(read.src, ("counters", name, "initial", key), key=True),
                        did_you_mean(str(key), keys) or f"keys: {', '.join(keys)}",
                    )
        c = CounterLayout(name, per, keys, base, initial, cdef.get("min", 0), cdef.get("max"))
        c.visibility = visibility_of("counters", name, cdef)
        g.counters[name] = c
        base += c.width * (max_players if per else 1)
    g.counter_count = base


def _vars(read: GameReader, g: CompiledGame) -> None:
    """Each var's layout and static type (declared, else the type of its initial value)."""
    for name, vdef in (read.data.get("vars") or {}).items():
        vdef = vdef or {}
        initial = _none(vdef.get("initial"))
        declared = vdef.get("type")
        t = VAR_TYPES.get(str(declared), ANY) if declared else type_of_value(initial)
        if t == "none":
            t = ANY
        g.vars[name] = VarLayout(
            name, vdef.get("per") == "player", initial, t, visibility_of("vars", name, vdef)
        )


def visibility_of(section: str, name: str, d: dict[str, Any]) -> str:
    """Who sees a zone's contents, a counter's or a var's value: a `visibility:` word (`visible_to:`
    all, none, owner, others are the same four words), or `to:SECTION:NAME` for a `visible_to:`
    expression, evaluated on the state by `run/audience.py` (model/view.py `seen_by`)."""
    given = d.get("visible_to")
    if given is None:
        return str(d.get("visibility") or "public")
    return AUDIENCE_WORDS.get(str(given).strip()) or f"to:{section}:{name}"


def mark_declaration(raw: Any) -> tuple[Any, str, bool]:
    """A mark as a component type writes it: its default (`height: 0`) or its declaration
    (`site: {initial: none, type: component, visibility: public}`) -> (default, static type, public).
    An undeclared type is its default's (any for none)."""
    decl = raw if isinstance(raw, dict) else {"initial": raw}
    default = _none(decl.get("initial"))
    declared = decl.get("type")
    kind = VAR_TYPES.get(str(declared), ANY) if declared else type_of_value(default)
    return default, ANY if kind == "none" else kind, decl.get("visibility") == "public"


def _none(v: Any) -> Any:
    """YAML has no `none`; the DSL does. An initial value written `none` means none."""
    return None if v == "none" else v
