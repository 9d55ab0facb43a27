"""Writing a scenario's `given` into a game state: at the start, or between two choices.

Order: the flow position (`active`, `round`, `turn`; at the start only), `vars`, `counters`,
`zones`, `top`, `boards` (pictures, cells by coordinates: picture.py), `marks`, `next_shuffle`.
Components are named by key (`Road#2`: that copy) or by name
(`Road`): in `zones` a name takes the first copy not already placed by this `given` (nor named by
its key in it), in `top` a copy already in that zone first; naming one copy twice is an error, never
a silent move. In `marks` a name means the one copy this `given` placed by that name (else the first
copy). All problems of one `given` are reported at once.
"""

from __future__ import annotations

from typing import Any

import tabula.interpreter.scenarios.checks as checks
import tabula.interpreter.scenarios.picture as picture
from tabula.interpreter.base.source import AuthorError, Report, did_you_mean
from tabula.interpreter.load.positions import YamlPath
from tabula.interpreter.load.schema.scenario import Given, GivenState
from tabula.interpreter.model.game import Component
from tabula.interpreter.run import boards, rig
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime
from tabula.interpreter.scenarios.context import Context
from tabula.interpreter.scenarios.files import dsl_text

START_TURN = "turn"
GAME_END = "game_end"


def phase_ids(ctx: Context) -> list[str]:
    """The ids of the game's turn phases, in order."""
    flow = ctx.game.flow
    return [pid for pid, _ in flow.phases] if flow is not None else []


def has_rounds(ctx: Context) -> bool:
    flow = ctx.game.flow
    return bool(flow is not None and flow.has_rounds)


def check_start(ctx: Context, given: Given) -> None:
    """`given.start` names `turn`, `game_end` or a phase; `round` needs a game with rounds."""
    report = Report()
    phases = phase_ids(ctx)
    start = given.start
    if start is not None and start not in (START_TURN, GAME_END, *phases):
        report.error(
            "R104",
            f"'{start}' is not a phase of {ctx.game.name}",
            ctx.span(("given", "start")),
            did_you_mean(start, [*phases, START_TURN, GAME_END])
            or f"phases: {', '.join(phases)}; or 'turn' (before the first) or 'game_end'",
        )
    if given.round is not None and not has_rounds(ctx):
        report.error(
            "R105", f"{ctx.game.name} has no rounds", ctx.span(("given", "round")), "set 'turn' instead"
        )
    if report.has_errors:
        raise AuthorError(report)


class GivenWriter:
    """Writes one `given` (at `base`, its path in the file) into `ctx.st`."""

    def __init__(self, ctx: Context, base: YamlPath) -> None:
        self.ctx = ctx
        self.base = base
        self.report = Report()
        self.placed: dict[int, YamlPath] = {}  # component -> where this given named it
        self.by_name: dict[str, list[int]] = {}  # name -> the copies this given placed by that name
        self.reserved: set[int] = set()  # copies this given names by key (a bare name avoids them)

    def write(self, given: GivenState) -> None:
        checks.given_values(self.ctx.doc, given, self.base)
        keys = {c.key: c.id for c in self.ctx.game.components}
        for lists in (given.zones, given.top):
            self.reserved.update(keys[str(n)] for names in lists.values() for n in names if str(n) in keys)
        if isinstance(given, Given):
            self.flow_position(given)
        for section in ("vars", "counters"):
            for key, value in getattr(given, section).items():
                self.ctx.write(f"set {key} = {dsl_text(value)}", (*self.base, section, key))
        for zone, names in given.zones.items():
            self.set_zone(zone, [str(n) for n in names])
        for zone, names in given.top.items():
            self.set_top(zone, [str(n) for n in names])
        for board, filled in given.boards.items():
            picture.write_board(self, str(board), filled)
        for name, marks in given.marks.items():
            cid = self.mark_target(str(name))
            if cid is not None:
                for mark, value in marks.items():
                    self.set_mark(cid, mark, value, (*self.base, "marks", name, mark))
        for zone, names in given.next_shuffle.items():
            self.rig(zone, [str(n) for n in names])
        self.grow()
        if self.report.has_errors:
            raise AuthorError(self.report)

    def grow(self) -> None:
        """Boards that grow get the cells round each cell this given filled, as a move would add
        them (run/boards.py `grow`); a filled cell not on its board is R114 at the given."""
        game, st = self.ctx.game, self.ctx.st
        rt = Runtime(game, st)
        for zone in sorted(game.boards.growing):
            if st["z"][zone]:
                try:
                    boards.grow(rt, zone)
                except GameRuntimeError as err:
                    hint = "name the cells of a board that grows by coordinates: boards: {B: {cells: [...]}}"
                    self.report.error("R114", err.message, self.ctx.span(self.base, key=True), hint)
                    return

    # ------------------------------------------------------------ the flow position
    def flow_position(self, given: Given) -> None:
        t = self.ctx.st["t"]
        names: list[str] = self.ctx.st["names"]
        if given.active is not None:
            if given.active not in names:
                self.report.error(
                    "R107",
                    f"'{given.active}' is not a player of this scenario",
                    self.ctx.span((*self.base, "active")),
                    did_you_mean(given.active, names) or f"players: {', '.join(names)}",
                )
            else:
                t["active"] = t["next"] = names.index(given.active)
        if given.round is not None:
            t["round"] = given.round
        if given.turn is not None:
            t["turn"] = given.turn

    # ------------------------------------------------------------ naming components
    def resolve(self, name: str, owner: int | None, path: YamlPath, zone: int | None = None) -> int | None:
        """The component `name` (a key, or a name: a copy not yet placed) for a zone of `owner`."""
        comps = self.ctx.game.components
        exact = [c for c in comps if c.key == name]
        if exact:
            return self.take(exact[0], owner, path)
        named = [c for c in comps if c.name == name]
        if not named:
            keys = sorted({c.name for c in comps})
            self.report.error(
                "R101", f"no component named '{name}'", self.ctx.span(path), did_you_mean(name, keys)
            )
            return None
        taken = self.placed.keys() | self.reserved
        free = [c for c in named if c.id not in taken and _may_hold(c, owner)]
        if zone is not None:  # `top`: a copy already in that zone first
            free.sort(key=lambda c: self.ctx.st["loc"][c.id] != zone)
        if free:
            self.by_name.setdefault(name, []).append(free[0].id)
        else:
            mine = [c for c in named if _may_hold(c, owner)]
            if not mine:
                self.report.error(
                    "R110", f"no copy of '{name}' may lie in this player's zone", self.ctx.span(path)
                )
                return None
            copies = ", ".join(c.key for c in mine)
            self.report.error(
                "R103",
                f"every copy of '{name}' is already placed by this given",
                self.ctx.span(path),
                f"the copies: {copies} (each can be in one place; a key names one copy)",
            )
            return None
        return self.take(free[0], owner, path)

    def take(self, comp: Component, owner: int | None, path: YamlPath) -> int | None:
        first = self.placed.get(comp.id)
        if first is not None:
            sp = self.ctx.span(first)
            self.report.error(
                "R102",
                f"'{comp.key}' is placed twice by this given" + (f" (first at line {sp.line})" if sp else ""),
                self.ctx.span(path),
                "each copy can be in one place: name another copy by its key",
            )
            return None
        if not _may_hold(comp, owner):
            self.report.error("R110", f"'{comp.key}' may not lie in this player's zone", self.ctx.span(path))
            return None
        self.placed[comp.id] = path
        return comp.id

    def mark_target(self, name: str) -> int | None:
        comps = self.ctx.game.components
        exact = [c for c in comps if c.key == name]
        if exact:
            return exact[0].id
        named = [c for c in comps if c.name == name]
        placed = [comps[c] for c in self.by_name.get(name, [])]
        path = (*self.base, "marks", name)
        if len(placed) > 1:
            self.report.error(
                "R109",
                f"this given places {len(placed)} copies of '{name}': which one do the marks name?",
                self.ctx.span(path, key=True),
                "name it by its key: " + ", ".join(c.key for c in placed),
            )
            return None
        if placed or named:
            return (placed or named)[0].id
        return self.resolve(name, None, path)

    # ------------------------------------------------------------ zones
    def zone(self, text: str, section: str) -> int | None:
        report = Report()
        path = (*self.base, section, text)
        doc, game = self.ctx.doc, self.ctx.game
        try:
            name = checks.zone_ref(doc, path, game, text)  # `zone` or `zone(player)`, not any int
        except AuthorError as err:
            self.report.extend(err.report)
            return None
        f = game.snippets.expr(text, self.ctx.origin(path), report, self.ctx.local_types())
        if report.has_errors or f is None:
            self.report.extend(report)
            return None
        rt = Runtime(game, self.ctx.st)
        rt.loc = self.ctx.locals(self.ctx.st, text=text)
        value = rt.evaluate(f, self.ctx.span(path))
        try:  # one of that zone's instances, of a player in the game
            return checks.zone_instance(doc, path, game, self.ctx.st, name, value)
        except AuthorError as err:
            self.report.extend(err.report)
            return None

    def listed(self, section: str, text: str, names: list[str]) -> tuple[int, list[int]] | None:
        """The zone `text` of a `section` and the components listed for it (None after an error)."""
        zone = self.zone(text, section)
        if zone is None:
            return None
        wanted = self.components(zone, names, (*self.base, section, text), section == "top")
        return None if wanted is None else (zone, wanted)

    def components(self, zone: int, names: list[str], path: YamlPath, top: bool) -> list[int] | None:
        """The components `names` (listed at `path`) for `zone`, or None after an error."""
        owner = self.ctx.game.zone_owner[zone]
        ids = [self.resolve(n, owner, (*path, i), zone if top else None) for i, n in enumerate(names)]
        return None if any(c is None for c in ids) else [c for c in ids if c is not None]

    def set_zone(self, text: str, names: list[str]) -> None:
        """The zone `text` holds exactly these components (`given.zones`)."""
        zone = self.zone(text, "zones")
        if zone is not None:
            self.fill_zone(zone, names, (*self.base, "zones", text))

    def fill_zone(self, zone: int, names: list[str], path: YamlPath) -> None:
        """The zone holds exactly `names` (listed at `path`); what it held goes where the first
        wanted one came from."""
        wanted = self.components(zone, names, path, False)
        if wanted is None:
            return
        cap = self.ctx.game.zone_layouts[zone].max
        if cap is not None and len(wanted) > cap:
            self.report.error(
                "R016",
                f"this zone may hold at most {cap} (max: {cap}), and {len(wanted)} are listed",
                self.ctx.span(path),
            )
            return
        st = self.ctx.st
        displaced = [c for c in st["z"][zone] if c not in wanted]
        sources = [st["loc"][c] for c in wanted if st["loc"][c] != zone]
        for cid in wanted:
            _lift(st, cid)
        back = sources[0] if sources else -1
        for cid in displaced:
            _lift(st, cid)
            _put(st, cid, back)
        for cid in wanted:
            _put(st, cid, zone)

    def set_top(self, text: str, names: list[str]) -> None:
        """These components on top of the zone, in order; the rest of it stays below, in order."""
        target = self.listed("top", text, names)
        if target is None:
            return
        zone, wanted = target
        st = self.ctx.st
        for cid in wanted:
            _lift(st, cid)
        st["z"][zone][:0] = wanted
        for cid in wanted:
            st["loc"][cid] = zone

    def rig(self, text: str, names: list[str]) -> None:
        """After its next shuffle the zone starts with these (by key: that copy; by name: any copy)."""
        zone = self.zone(text, "next_shuffle")
        if zone is None:
            return
        comps = self.ctx.game.components
        order: list[list[int]] = []
        for i, name in enumerate(names):
            ids = [c.id for c in comps if c.key == name] or [c.id for c in comps if c.name == name]
            if not ids:
                self.report.error(
                    "R101",
                    f"no component named '{name}'",
                    self.ctx.span((*self.base, "next_shuffle", text, i)),
                    did_you_mean(name, sorted({c.name for c in comps})),
                )
            order.append(ids)
        rig.rig_zone(self.ctx.st, zone, order)

    # ------------------------------------------------------------ marks
    def set_mark(self, cid: int, mark: str, value: Any, path: YamlPath) -> None:
        comp = self.named_component(value)
        if comp is not None:  # a component's key or name: that component (a mark of type component)
            self.ctx.write(f"set _c.{mark} = _v", path, {"_c": "comp", "_v": "comp"}, {"_c": cid, "_v": comp})
            return
        self.ctx.write(f"set _c.{mark} = {dsl_text(value)}", path, {"_c": "comp"}, {"_c": cid})

    def named_component(self, value: Any) -> int | None:
        """The component a mark's value names (its key, or its name: the first copy), unless the
        text is a player's name or an enum's symbol, which it means first."""
        game = self.ctx.game
        if not isinstance(value, str) or value in self.ctx.st["names"]:
            return None
        if any(value in symbols for symbols in game.enums.values()):
            return None
        found = [c.id for c in game.components if c.key == value] or [
            c.id for c in game.components if c.name == value
        ]
        return found[0] if found else None


def _may_hold(comp: Component, owner: int | None) -> bool:
    """May the zone of `owner` (None: a global zone) hold this component?"""
    return owner is None or comp.props.get("owner") in (None, owner)


def _lift(st: dict[str, Any], cid: int) -> None:
    old = st["loc"][cid]
    if old >= 0:
        st["z"][old].remove(cid)
    st["loc"][cid] = -1


def _put(st: dict[str, Any], cid: int, zone: int) -> None:
    st["loc"][cid] = zone
    if zone >= 0:
        st["z"][zone].append(cid)


def write_given(ctx: Context, given: GivenState, base: YamlPath) -> None:
    """Write `given` (at `base` in the file) into `ctx.st`; every problem at once (AuthorError)."""
    GivenWriter(ctx, base).write(given)
