"""The `presentation` section, compiled: what screens show of a game and how (docs/presentation.md).

Input: the game's merged source (plain data with positions) and the compiled game. Output: a
`Presentation` (plain data plus expressions compiled by `game.snippets`), or generic defaults when
the game has no such section. Every problem is a located diagnostic (codes `P0xx`) reported at load
with the rest of the game's checks.

What it holds: the groups of counters, vars and zones of each player's panel and of the table
(anything neither shown nor listed as bookkeeping lands in a last group, so nothing disappears
silently), labels, seat colours and a colour table, how each component type is drawn (a title, a
colour, badges and a text, all templates with `self` bound), how zones lay out their contents (in
groups by a property, or under the component another zone names), a one-line summary per player,
the named parts of the final score, and the boards of `layout` (compiled by `layout.py`).
Evaluating any of it is `tabula.interpreter.authoring.display`'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabula.interpreter.authoring.colours import NAMED_COLOURS, colour_hex
from tabula.interpreter.authoring.layout import Layout, compile_image, compile_layout
from tabula.interpreter.authoring.placing import PieceLook, action_params, compile_pieces, side_looks
from tabula.interpreter.base.source import Diagnostic, Report, did_you_mean
from tabula.interpreter.base.types import ANY, COMP, PLAYER
from tabula.interpreter.load.positions import GameSource, YamlPath, span_for
from tabula.interpreter.model.game import Closure, CompiledGame

# The parser (lark) is imported by the functions that compile: a game from the compile cache
# unpickles its Presentation from this module and does not need it.
if TYPE_CHECKING:
    from tabula.interpreter.dsl.parser import TextOrigin

SECTION = "presentation"
MARK_READ = re.compile(r"^\s*self\.([A-Za-z_][A-Za-z0-9_]*)\s*$")
DEFAULT_SEATS = ["#c0392b", "#2e86de", "#27ae60", "#d4ac0d", "#8e44ad", "#e67e22", "#138d75", "#7b241c"]


@dataclass
class Template:
    """Literal text and typed expressions (`(closure, static type)`), to be shown side by side."""

    parts: list[str | tuple[Closure, str]]
    source: str


@dataclass
class Row:
    """One row of a group: a counter, a var, a zone (by name) or a computed value."""

    kind: str  # counter | var | zone | value
    name: str
    label: str
    value: Template | None = None


@dataclass
class Group:
    title: str
    rows: list[Row]


@dataclass
class Look:
    """How one component type is drawn; each template has `self` bound to the component."""

    title: Template | None = None
    colour: tuple[Closure, str] | None = None
    badges: list[Template] = field(default_factory=list)
    text: Template | None = None
    image: tuple[Closure, str] | None = None  # a key of the presentation's `images`
    rotation: tuple[Closure, str] | None = None  # degrees clockwise
    mirror: tuple[Closure, str] | None = None  # true: drawn mirrored (e and w swapped), then turned
    shape: tuple[Closure, str] | None = None  # a list of [x, y] squares, drawn as a small grid
    at: tuple[Closure, str] | None = None  # where on its board cell it stands: n ne e ... c
    sides: dict[str, tuple[str, str]] = field(default_factory=dict)  # terrain -> (colour, how drawn)


@dataclass
class ZoneLook:
    group_by: str | None = None
    under_zone: str | None = None
    under_mark: str | None = None
    notes: list[str] = field(default_factory=list)  # list vars: item i is written on card i


@dataclass
class ScorePart:
    label: str
    value: tuple[Closure, str]


@dataclass
class ChoiceLook:
    """The label of each choice of a `choose` decision whose prompt starts with `prompt`
    (`choice` bound to the value offered, `p` to who decides), or of each choice of `action` (its
    parameters bound by name, `p` to who decides)."""

    prompt: str
    label: Template
    none: str = ""  # the label of the `none` choice of an optional decision (plain text)
    action: str = ""  # an action's choices, not a `choose` decision's

    def matches(self, prompt: str) -> bool:
        """Whether a decision's prompt starts with this one (`*` in it stands for any text)."""
        if self.action:
            return False
        if "*" not in self.prompt:
            return prompt.startswith(self.prompt)
        return re.match(".*?".join(re.escape(part) for part in self.prompt.split("*")), prompt) is not None


@dataclass
class Presentation:
    """A game's compiled presentation (defaults filled in)."""

    declared: bool
    seat_colours: list[str]
    colours: dict[str, str]
    labels: dict[str, str]
    player: list[Group]
    table: list[Group]
    bookkeeping: set[str]
    summary: Template | None
    mark_types: dict[str, str]
    looks: dict[str, Look]
    zones: dict[str, ZoneLook]
    score: list[ScorePart]
    score_rest: str | None
    layout: Layout = field(default_factory=Layout)
    choices: list[ChoiceLook] = field(default_factory=list)
    images: dict[str, str] = field(default_factory=dict)  # value -> a data: address (images.py)
    pieces: dict[str, PieceLook] = field(default_factory=dict)  # action -> the piece it places

    def action_look(self, action: str) -> ChoiceLook | None:
        """The `choices` entry labelling the choices of `action`, if any."""
        return next((c for c in self.choices if c.action == action), None)

    def label(self, name: str) -> str:
        """The label of a name: the declared one, else the name with spaces for underscores."""
        return self.labels.get(name) or name.replace("_", " ")

    def seat_colour(self, seat: int) -> str:
        colours = self.seat_colours or DEFAULT_SEATS
        return colours[seat % len(colours)]


# ------------------------------------------------------------------ compiling


def compile_presentation(source: GameSource, game: CompiledGame, report: Report) -> Presentation:
    """The game's presentation, with every problem in `report`; defaults where the game says nothing."""
    data = source.data.get(SECTION) or {}
    local = Report()
    pres = _Compiler(source, game, local).compile(data if isinstance(data, dict) else {})
    for d in sorted(local.diagnostics, key=_position):  # in file order, as an author reads them
        report.add(d)
    return pres


def _position(d: Diagnostic) -> tuple[int, str, int, int]:
    return (0, "", 0, 0) if d.span is None else (1, d.span.file, d.span.line, d.span.col)


class _Compiler:
    def __init__(self, source: GameSource, game: CompiledGame, report: Report) -> None:
        self.src = source
        self.g = game
        self.report = report
        self.labels: dict[str, str] = {}
        self.colours: dict[str, str] = {}
        self.mark_types: dict[str, str] = {}

    # -- positions
    def span(self, *path: str | int, key: bool = False) -> Any:

        return span_for(self.src, (SECTION, *path), key=key)

    def folder(self) -> Path:
        """The game's folder (images of a layout are read from it)."""
        return self.src.folder

    def origin(self, path: YamlPath) -> TextOrigin:
        from tabula.interpreter.dsl.parser import PlainOrigin

        found = self.src.value_origin.get((SECTION, *path))
        if found is not None:
            return found  # type: ignore[return-value]
        sp = self.span(*path)
        return PlainOrigin(sp.file, sp.line, sp.col) if sp else PlainOrigin("<presentation>")

    # -- the whole section
    def compile(self, data: dict[str, Any]) -> Presentation:
        g = self.g
        seats = [self.colour(c, ("seat_colours", i)) for i, c in enumerate(data.get("seat_colours") or [])]
        colours = {str(k): self.colour(v, ("colours", k)) for k, v in (data.get("colours") or {}).items()}
        self.colours = colours
        labels = {str(k): str(v) for k, v in (data.get("labels") or {}).items()}
        self.labels = labels
        self.check_labels(labels)
        bookkeeping = self.bookkeeping(data.get("bookkeeping") or [])
        player = self.groups(data.get("player") or [], "player", True)
        table = self.groups(data.get("table") or [], "table", False)
        declared = bool(data)
        self.complete(player, True, bookkeeping, declared)
        self.complete(table, False, bookkeeping, declared)
        self.mark_types = self.marks(data.get("marks") or {})
        summary = None
        if data.get("summary"):
            summary = self.template(str(data["summary"]), ("summary",), {"p": PLAYER})
        looks = {t: self.default_look(t) for t in g.by_type}
        for ctype, look in (data.get("components") or {}).items():
            if ctype not in g.by_type:
                self.report.error(
                    "P004",
                    f"no component type named '{ctype}'",
                    self.span("components", ctype, key=True),
                    did_you_mean(str(ctype), g.by_type),
                )
                continue
            looks[ctype] = self.look(str(ctype), look or {})
        zones = {str(z): self.zone_look(str(z), look or {}) for z, look in (data.get("zones") or {}).items()}
        score = [
            ScorePart(str(part.get("label", "")), v)
            for i, part in enumerate(data.get("score") or [])
            if (v := self.typed(str(part.get("value", "")), ("score", i, "value"), {"p": PLAYER}))
        ]
        rest = data.get("score_rest")
        return Presentation(
            declared,
            seats,
            colours,
            labels,
            player,
            table,
            bookkeeping,
            summary,
            self.mark_types,
            looks,
            zones,
            score,
            str(rest) if rest else None,
            compile_layout(self, data.get("layout"), colours),
            self.choice_looks(data.get("choices") or []),
            self.images(data.get("images") or {}),
            compile_pieces(self, data.get("pieces") or {}),
        )

    def images(self, data: dict[str, Any]) -> dict[str, str]:
        """Value -> the `data:` address of its image file (read now, as a layout's `image:`)."""
        out = {}
        for key, name in data.items():
            found = compile_image(self, str(name), ("images", key))
            if found is not None:
                out[str(key)] = found
        return out

    # -- names
    def kinds(self, per_player: bool) -> dict[str, str]:
        """Counter, var and zone names of one scope (per player or global) -> their kind."""
        g = self.g
        out: dict[str, str] = {}
        out.update({n: "counter" for n, c in g.counters.items() if c.per_player == per_player})
        out.update({n: "zone" for n, z in g.zones.items() if z.per_player == per_player})
        out.update({n: "var" for n, v in g.vars.items() if v.per_player == per_player})
        return out

    def check_labels(self, labels: dict[str, str]) -> None:
        g = self.g
        known = {*g.counters, *g.zones, *g.vars, *g.marks, *g.actions, *g.by_type}
        for symbols in g.enums.values():
            known.update(symbols)
        for c in g.components:
            known.update(c.props)
        for name in labels:
            if name not in known:
                self.report.warning(
                    "P003",
                    f"label for '{name}', which the game does not define",
                    self.span("labels", name, key=True),
                    did_you_mean(name, known)
                    or "labels name counters, vars, zones, marks, actions or symbols",
                )

    def bookkeeping(self, names: list[Any]) -> set[str]:
        known = {*self.kinds(True), *self.kinds(False)}
        out: set[str] = set()
        for i, name in enumerate(names):
            if str(name) not in known:
                self.report.error(
                    "P002",
                    f"bookkeeping names '{name}', which is no counter, var or zone",
                    self.span("bookkeeping", i),
                    did_you_mean(str(name), known),
                )
            out.add(str(name))
        return out

    def groups(self, groups: list[Any], where: str, per_player: bool) -> list[Group]:
        kinds, other = self.kinds(per_player), self.kinds(not per_player)
        out: list[Group] = []
        for gi, group in enumerate(groups):
            rows: list[Row] = []
            for ri, item in enumerate(group.get("show") or []):
                path: YamlPath = (where, gi, "show", ri)
                if isinstance(item, dict):
                    local = {"p": PLAYER} if per_player else {}
                    tpl = self.template("{" + str(item.get("value", "")) + "}", (*path, "value"), local, -1)
                    if tpl is not None:
                        rows.append(Row("value", str(item.get("label", "")), str(item.get("label", "")), tpl))
                    continue
                name = str(item)
                if name in kinds:
                    rows.append(Row(kinds[name], name, self.labels_get(name)))
                elif name in other:
                    scope = "global" if per_player else "for each player"
                    place = "table" if per_player else "player"
                    self.report.error(
                        "P001",
                        f"'{name}' is {scope}: it belongs in presentation.{place}",
                        self.span(*path),
                    )
                else:
                    self.report.error(
                        "P001",
                        f"no {'per-player' if per_player else 'global'} counter, var or zone named '{name}'",
                        self.span(*path),
                        did_you_mean(name, kinds),
                    )
            out.append(Group(str(group.get("title", "")), rows))
        return out

    def labels_get(self, name: str) -> str:
        return self.labels.get(name) or name.replace("_", " ")

    def complete(self, groups: list[Group], per_player: bool, bookkeeping: set[str], declared: bool) -> None:
        """Add what no group shows and bookkeeping does not hide, in a last group (warned about)."""
        shown = {r.name for grp in groups for r in grp.rows if r.kind != "value"}
        rest = [(n, k) for n, k in self.kinds(per_player).items() if n not in shown and n not in bookkeeping]
        if not rest:
            return
        order = {"counter": 0, "zone": 1, "var": 2}
        rest.sort(key=lambda nk: order[nk[1]])
        cells = tuple(f"{t.zone}(" for t in self.g.boards.tables.values() if t.zone is not None)
        unshown = [n for n, _ in rest if not n.startswith(cells)]  # a board's cells draw their zones
        if declared and unshown:
            where = "player" if per_player else "table"
            self.report.warning(
                "P010",
                f"not shown in presentation.{where} and not bookkeeping: {', '.join(unshown)}",
                self.span(where, key=True) or self.span(key=True),
                "add them to a group, or to 'bookkeeping' to hide them from screens",
            )
        groups.append(
            Group("Other" if declared and groups else "", [Row(k, n, self.labels_get(n)) for n, k in rest])
        )

    def marks(self, data: dict[str, Any]) -> dict[str, str]:
        out = {}
        for name, kind in data.items():
            if name not in self.g.marks:
                self.report.error(
                    "P009",
                    f"no mark named '{name}'",
                    self.span("marks", name, key=True),
                    did_you_mean(str(name), self.g.marks),
                )
            out[str(name)] = PLAYER if kind == "player" else COMP
        return out

    def choice_looks(self, items: list[Any]) -> list[ChoiceLook]:
        out = []
        for i, item in enumerate(items):
            action = str(item.get("action") or "")
            local = {"choice": ANY, "p": PLAYER}
            if action:
                params = action_params(self, action, ("choices", i, "action"))
                if params is None:
                    continue
                local = {**params, "p": PLAYER}
            tpl = self.template(str(item.get("label", "")), ("choices", i, "label"), local)
            if tpl is not None:
                prompt = str(item.get("prompt") or "")
                out.append(ChoiceLook(prompt, tpl, str(item.get("none") or ""), action))
        return out

    # -- component and zone looks
    def default_look(self, ctype: str) -> Look:
        ids = self.g.by_type.get(ctype, [])
        has_text = any("text" in self.g.components[c].props for c in ids)
        text = Template([(_prop_closure(self.g, "text"), ANY)], "{self.text}") if has_text else None
        return Look(text=text)

    def look(self, ctype: str, data: dict[str, Any]) -> Look:
        local = {"self": COMP}
        base: YamlPath = ("components", ctype)
        look = self.default_look(ctype)
        if data.get("title"):
            look.title = self.template(str(data["title"]), (*base, "title"), local)
        if data.get("colour"):
            look.colour = self.typed(str(data["colour"]), (*base, "colour"), local)
        look.badges = [
            t
            for i, b in enumerate(data.get("badges") or [])
            if (t := self.template(str(b), (*base, "badges", i), local)) is not None
        ]
        if data.get("text"):
            look.text = self.template(str(data["text"]), (*base, "text"), local)
        for key in ("image", "rotation", "mirror", "shape", "at"):
            if data.get(key) is not None:
                setattr(look, key, self.typed(str(data[key]), (*base, key), local))
        if data.get("sides"):
            look.sides = side_looks(self, ctype, data["sides"])
        return look

    def zone_look(self, zone: str, data: dict[str, Any]) -> ZoneLook:
        g = self.g
        if zone not in g.zones:
            self.report.error(
                "P005",
                f"no zone named '{zone}'",
                self.span("zones", zone, key=True),
                did_you_mean(zone, g.zones),
            )
            return ZoneLook()
        look = ZoneLook()
        group_by = data.get("group_by")
        if group_by:
            props = {k for c in g.components for k in c.props}
            if group_by not in props and group_by not in g.marks:
                self.report.error(
                    "P007",
                    f"no component has a property or mark named '{group_by}'",
                    self.span("zones", zone, "group_by"),
                    did_you_mean(str(group_by), [*props, *g.marks]),
                )
            else:
                look.group_by = str(group_by)
        under = data.get("under")
        if under:
            target, _, mark = str(under).partition(".")
            if target not in g.zones or mark not in g.marks:
                self.report.error(
                    "P006",
                    f"'under' needs ZONE.MARK (a zone, then a mark naming a component there), not '{under}'",
                    self.span("zones", zone, "under"),
                    f"zones: {', '.join(sorted(g.zones))}; marks: {', '.join(sorted(g.marks)) or 'none'}",
                )
            else:
                look.under_zone, look.under_mark = target, mark
        for i, var in enumerate(data.get("notes") or []):
            layout = g.vars.get(str(var))
            if layout is None or layout.per_player != g.zones[zone].per_player:
                self.report.error(
                    "P007",
                    f"'notes' names vars of the zone's owner, and '{var}' is not one",
                    self.span("zones", zone, "notes", i),
                    did_you_mean(str(var), [v for v, lay in g.vars.items() if lay.per_player]),
                )
            else:
                look.notes.append(str(var))
        return look

    # -- colours and expressions
    def colour(self, value: Any, path: YamlPath) -> str:
        found = colour_hex(str(value))
        if found is None:
            self.report.error(
                "P008",
                f"'{value}' is not a colour",
                self.span(*path),
                f"write #rrggbb or one of: {', '.join(NAMED_COLOURS)}",
            )
            return "#8a8a8a"
        return found

    def typed(self, text: str, path: YamlPath, local: dict[str, str]) -> tuple[Closure, str] | None:
        return self.mark_typed(text, typed_expr(self.g, text, self.origin(path), self.report, local))

    def mark_typed(self, text: str, typed: tuple[Closure, str] | None) -> tuple[Closure, str] | None:
        """A mark read alone (`self.owner`) takes the type `marks:` declares for it."""
        found = MARK_READ.match(text)
        if typed is None or typed[1] != ANY or found is None or found.group(1) not in self.mark_types:
            return typed
        return typed[0], self.mark_types[found.group(1)]

    def template(self, text: str, path: YamlPath, local: dict[str, str], shift: int = 0) -> Template | None:
        """Split `text {expr} text` and compile each expression; None if one of them has errors."""
        from tabula.interpreter.dsl.parser import _Shifted

        base = self.origin(path)
        parts: list[str | tuple[Closure, str]] = []
        ok = True
        i = 0
        while i < len(text):
            j = text.find("{", i)
            k = text.find("}", j) if j >= 0 else -1
            if j < 0 or k < 0:
                parts.append(text[i:])
                break
            if j > i:
                parts.append(text[i:j])
            line = text.count("\n", 0, j + 1) + 1
            col = j + 2 - (text.rfind("\n", 0, j + 1) + 1) + shift
            inner = text[j + 1 : k]
            typed = self.mark_typed(
                inner, typed_expr(self.g, inner, _Shifted(base, line, col), self.report, local)
            )
            if typed is None:
                ok = False
            else:
                parts.append(typed)
            i = k + 1
        return Template(parts, text) if ok else None


def typed_expr(
    game: CompiledGame, text: str, origin: TextOrigin, report: Report, local: dict[str, str]
) -> tuple[Closure, str] | None:
    """An expression compiled by the game's snippets, with its static type (to show values by name).

    `snippets.expr` gives no type; `compare_parts` of `(text) == none` gives the left side's type.
    """
    from tabula.interpreter.dsl.parser import PlainOrigin

    before = len(report.errors)
    f = game.snippets.expr(text, origin, report, dict(local))
    if f is None or len(report.errors) > before:
        return None
    sides = game.snippets.compare_parts(f"({text}) == none", PlainOrigin(), Report(), dict(local))
    return f, (sides[0][1] if sides else ANY)


def _prop_closure(game: CompiledGame, prop: str) -> Closure:
    from tabula.interpreter.dsl.parser import PlainOrigin

    f: Closure | None = game.snippets.expr(
        f"self.{prop}", PlainOrigin("<presentation>"), Report(), {"self": COMP}
    )
    assert f is not None
    return f
