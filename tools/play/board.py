"""The board one seat sees, as plain data: what both `tabula play` and `tabula serve` draw.

`build_board` reads the seat's view (`Engine.view`), never the true state, for every component,
counter, var and zone it shows; the expressions of the game's presentation (summary lines, computed
rows, component titles, badges, texts, choice labels, score parts) run on the seat's seat states
(`tabula.interpreter.run.knowledge`), which are functions of that view. So a board holds nothing the
seat may not know, and `Board.to_json()` is what a web page of that seat receives.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tabula.interpreter.authoring.display import Shown, colour_of, render, show_value, symbols, value_on
from tabula.interpreter.authoring.presentation import Group, Presentation, Row, ZoneLook, compile_presentation
from tabula.interpreter.base.source import Report
from tabula.interpreter.base.types import COMP, INT
from tabula.interpreter.engine import Engine
from tabula.interpreter.load.positions import GameSource
from tabula.interpreter.model.game import CompiledGame, ZoneLayout
from tabula.interpreter.model.view import HIDDEN, var_unseen, view, zone_members
from tabula.interpreter.run.knowledge import State, seat_states
from tabula.play.faces import Badge, Card, Entry, merge_hidden
from tabula.play.layout import DrawnBoard, draw_board
from tabula.play.pictures import draw_look
from tabula.play.pieces import action_labels, place_pieces
from tabula.play.tidy import group_alike, not_yet, readable_id, route_colours, status_line

View = dict[str, Any]
SPECTATOR = -2
"""The viewer of a spectator's board: no seat, so only what every seat may see (no hand, no options)."""


@dataclass
class Line:
    """One row of a section: a number, a text, a zone's cards or a keyed counter's entries."""

    label: str
    name: str
    kind: str  # number | text | cards | keyed
    text: str = ""
    size: int | None = 0  # None: a number this seat may not know (size_visibility)
    cards: list[Card] = field(default_factory=list)
    groups: list[tuple[str, list[Card]]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    colour: str | None = None
    known: bool = True
    ordered: bool = False  # a zone whose order matters (identical cards are counted run by run)


@dataclass
class Section:
    title: str
    lines: list[Line]


@dataclass
class Panel:
    title: str
    player: int | None
    colour: str | None
    summary: str
    sections: list[Section]
    board: DrawnBoard | None = None  # the player's (or the table's) board, when the game lays one out


@dataclass
class Choice:
    id: str
    label: str
    action: str
    given: bool = False  # the label is the game's own (an action's `label:`), not the readable id
    targets: list[int] = field(default_factory=list)  # the components it names that the seat sees
    rotation: int | None = None  # degrees its action's piece is turned by (presentation.pieces)
    mirror: bool = False  # and whether it is mirrored first


@dataclass
class Decision:
    player: int
    name: str
    prompt: str
    mine: bool
    choices: list[Choice] = field(default_factory=list)
    # the players a simultaneous step still waits for (empty outside one): "waiting for 2 players"
    waiting: list[str] = field(default_factory=list)
    # the seat's own answer to the open simultaneous step, given ahead of its turn (kept hidden)
    answered: str = ""
    pieces: dict[str, Card] = field(default_factory=dict)  # action -> the piece it places (pieces.py)


@dataclass
class FinalScore:
    player: int
    name: str
    parts: list[tuple[str, str]]
    total: str
    winner: bool


@dataclass
class Seat:
    name: str
    colour: str
    summary: str
    active: bool


@dataclass
class Board:
    title: str
    status: str
    viewer: int
    seats: list[Seat]
    you: Panel
    table: Panel
    others: list[Panel]
    decision: Decision | None
    final: list[FinalScore] | None
    problems: list[str]
    ranking: str = "highest"  # who wins: the highest score, or the lowest (scoring.ranking)
    route_colours: dict[int, str] = field(default_factory=dict)  # a map's edge -> its colour, in words

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def presentation_of(game: CompiledGame) -> Presentation:
    """The game's compiled presentation (the generic defaults for a game compiled without one)."""
    pres = game.presentation
    if isinstance(pres, Presentation):
        return pres
    pres = compile_presentation(GameSource(Path(game.folder), {}, []), game, Report())
    game.presentation = pres
    return pres


# ------------------------------------------------------------------ building


class _Builder:
    def __init__(self, engine: Engine, st: State, viewer: int) -> None:
        self.engine = engine
        self.g = engine.game
        self.pres = presentation_of(self.g)
        self.view: View = view(self.g, st, SPECTATOR) if viewer == SPECTATOR else engine.view(st, viewer)
        self.states = seat_states(self.g, st, viewer)
        self.viewer = viewer
        self.full = st  # only for the viewer's own question of a simultaneous step (Engine.ahead)
        self.names: list[str] = self.view["names"]
        self.problems: list[str] = []
        self.symbols = symbols(self.g)
        self.instances = self.g.zone_instances()
        self.outcome = st if engine.is_terminal(st) else None  # read for the winners only
        self.noted = {var for look in self.pres.zones.values() for var in look.notes}
        self.by_name = {c.name: i for i, c in reversed(list(enumerate(self.g.components)))}

    def note(self, shown: Shown, where: str) -> str:
        if shown.error and len(self.problems) < 20:
            self.problems.append(f"{where}: {shown.error}")
        return shown.text

    # -- components
    def card(self, cid: int) -> Card:
        g, pres = self.g, self.pres
        if cid == HIDDEN or not 0 <= cid < len(g.components):
            return Card("?", None, "?", hidden=True)
        comp = g.components[cid]
        look = pres.looks.get(comp.type)
        local = {"self": cid}
        title, colour, text, badges = comp.name, None, "", []
        if look is not None:
            if look.title is not None:
                title = self.note(render(g, look.title, self.states, local, labels=pres.labels), comp.name)
            if look.colour is not None:
                shown, value = value_on(g, look.colour, self.states, local)
                self.note(shown, comp.name)
                colour = colour_of(pres, g, value, look.colour[1]) if shown.known else None
            if look.text is not None:
                text = self.note(render(g, look.text, self.states, local, labels=pres.labels), comp.name)
            for tpl in look.badges:
                shown = render(g, tpl, self.states, local, True, pres.labels)
                if self.note(shown, comp.name).strip():
                    tint = pres.seat_colour(shown.player) if shown.player is not None else None
                    badges.append(Badge(shown.text, tint))
        face = face_text(comp.text or comp.props.get("text"), text)
        out = Card(comp.name, comp.key, title, colour, badges, face, ids=[cid])
        if look is not None:
            draw_look(self.g, self.pres, self.states, (look, cid), out)
        return out

    # -- rows
    def zone_index(self, name: str, player: int | None) -> int:
        return self.g.zones[name].index(player)

    def zone_line(self, row: Row, player: int | None) -> Line | None:
        layout = self.g.zones[row.name]
        index = layout.index(player)
        ids, size = zone_members(self.view, index)  # size None: secret to this seat
        look = self.pres.zones.get(row.name, ZoneLook())
        cards = [self.card(c) for c in ids]
        if look.under_zone is not None:
            return None  # drawn under the components of its target zone (see attach)
        self.attach(row.name, player, cards)
        if look.notes and player is not None:  # each card, its back too, with what its owner was told
            shown = self.write_notes(look.notes, player, cards)
        else:
            shown = merge_hidden(cards) if layout.ordered else group_alike(merge_hidden(cards))
        line = Line(row.label, row.name, "cards", size=size, cards=shown, ordered=layout.ordered)
        if look.group_by is not None:
            line.groups = [(k, merge_hidden(v)) for k, v in self.grouped(ids, cards, look.group_by)]
        line.text = zone_summary(cards, layout) if size is not None or cards else "?"
        return line

    def write_notes(self, notes: list[str], player: int, cards: list[Card]) -> list[Card]:
        """Item i of each of the owner's list vars `notes` written on card i (`colour red`)."""
        for var in notes:
            items = self.view["v"].get(var)
            items = items[player] if isinstance(items, list) and player < len(items) else None
            for card, item in zip(cards, items if isinstance(items, list) else [], strict=False):
                if item is not None and item != HIDDEN:
                    text = show_value(self.g, self.names, item, "any", False, self.pres.labels)
                    card.badges.append(Badge(f"{self.pres.label(var)} {text}"))
        return cards

    def attach(self, zone: str, player: int | None, cards: list[Card]) -> None:
        """Put under each card of `zone` the cards of the zones whose `under` names it."""
        for other, look in self.pres.zones.items():
            if look.under_zone != zone or look.under_mark is None or other not in self.g.zones:
                continue
            layout = self.g.zones[other]
            owner = player if layout.per_player else None
            ids, _ = zone_members(self.view, layout.index(owner))
            marks = self.view["m"].get(look.under_mark, [])
            by_name = {c.name: c for c in cards if not c.hidden}
            by_id = {
                cid: card
                for cid, card in zip(
                    zone_members(self.view, self.zone_index(zone, player))[0], cards, strict=True
                )
            }
            for cid in ids:
                mark = marks[cid] if 0 <= cid < len(marks) else None
                if mark == HIDDEN:  # names a component this seat may not see (model/view.py)
                    continue
                target = by_id.get(mark) if isinstance(mark, int) else by_name.get(str(mark))
                if target is not None:
                    target.under.append(self.card(cid))

    def grouped(self, ids: list[int], cards: list[Card], prop: str) -> list[tuple[str, list[Card]]]:
        groups: dict[str, list[Card]] = {}
        marks = self.view["m"].get(prop)
        for cid, card in zip(ids, cards, strict=True):
            if card.hidden:
                key = "?"
            else:
                value = marks[cid] if marks is not None else self.g.components[cid].props.get(prop)
                vtype = self.pres.mark_types.get(prop, "any") if marks is not None else "any"
                key = show_value(self.g, self.names, value, vtype, False, self.pres.labels)
            groups.setdefault(key, []).append(card)
        return list(groups.items())

    def counter_line(self, row: Row, player: int | None) -> Line:
        c = self.g.counters[row.name]
        start = c.base + (player or 0) * c.width
        values: list[int | None] = self.view["c"][start : start + c.width]  # None: secret to the viewer
        if None in values:  # secret to this viewer (`visibility:`)
            return Line(row.label, row.name, "number", text="?")
        if not c.keys:
            return Line(row.label, row.name, "number", text=str(values[0]))
        entries = [
            Entry(k, self.pres.label(k), v or 0, colour_of(self.pres, self.g, k, "str"))
            for k, v in zip(c.keys, values, strict=True)
        ]
        text = ", ".join(f"{e.label} {e.value}" for e in entries if e.value) or "none"
        return Line(row.label, row.name, "keyed", text=text, entries=entries)

    def var_line(self, row: Row, player: int | None) -> Line:
        layout = self.g.vars[row.name]
        value = self.view["v"].get(row.name)
        if player is not None and isinstance(value, list):
            value = value[player] if player < len(value) else None
        colour = None
        if layout.type == "player" and isinstance(value, int):
            colour = self.pres.seat_colour(value)
        if COMP in layout.type and _holds_hidden(value):
            return Line(row.label, row.name, "text", text="?", known=False)
        if value is None and var_unseen(self.g, self.view, row.name, player if layout.per_player else None):
            return Line(row.label, row.name, "text", text="?")  # secret to this viewer (`visibility:`)
        text = show_value(self.g, self.names, value, layout.type, False, self.pres.labels)
        return Line(row.label, row.name, "text", text=text, colour=colour)

    def value_line(self, row: Row, player: int | None) -> Line:
        assert row.value is not None
        local = {"p": player} if player is not None else {}
        shown = render(self.g, row.value, self.states, local, labels=self.pres.labels)
        kind = "number" if shown.text.lstrip("-").isdigit() else "text"
        colour = self.pres.seat_colour(shown.player) if shown.player is not None else None
        return Line(
            row.label, row.name, kind, text=self.note(shown, row.label), colour=colour, known=shown.known
        )

    def unset(self, row: Row, player: int | None) -> bool:
        """A var or counter with nothing to show now, left out of the panels: none (a claim not
        made, an empty list), at a negative start (a turn not begun), written on cards (`notes:`);
        or the zone of a cell that a board that grows has not added yet."""
        if row.kind == "counter":
            c = self.g.counters[row.name]
            start = c.base + (player or 0) * c.width
            return not c.keys and not_yet(c.initial, self.view["c"][start])
        if row.kind == "zone":
            at = self.g.boards.growing.get(self.zone_index(row.name, player))
            if at is None:
                return False
            cid = self.g.boards.tables[at[0]].cells[0][at[1]]
            return self.view["m"]["x"][cid] is None
        if row.kind != "var":
            return False
        value = self.view["v"].get(row.name)
        if player is not None and isinstance(value, list):
            value = value[player] if player < len(value) else None
        unseen = var_unseen(self.g, self.view, row.name, player if self.g.vars[row.name].per_player else None)
        gone = value in (None, []) and not unseen
        return gone or row.name in self.noted or not_yet(self.g.vars[row.name].initial, value)

    def line(self, row: Row, player: int | None) -> Line | None:
        if self.unset(row, player):
            return None
        if row.kind == "counter":
            return self.counter_line(row, player)
        if row.kind == "zone":
            return self.zone_line(row, player)
        if row.kind == "var":
            return self.var_line(row, player)
        return self.value_line(row, player)

    def sections(self, groups: list[Group], player: int | None) -> list[Section]:
        out = []
        for group in groups:
            lines = [ln for row in group.rows if (ln := self.line(row, player)) is not None]
            if lines:
                out.append(Section(group.title, lines))
        return out

    # -- summaries, status, decision, final scores
    def summary(self, p: int) -> str:
        pres, g = self.pres, self.g
        if pres.summary is not None:
            return self.note(render(g, pres.summary, self.states, {"p": p}, labels=pres.labels), "summary")
        parts: dict[str, str] = {}
        if g.score is not None:
            shown, _ = value_on(g, (g.score, INT), self.states, {"p": p})
            parts["score"] = self.note(shown, "score")
        for name, c in g.counters.items():
            if c.per_player and not c.keys and name not in pres.bookkeeping and len(parts) < 4:
                value = self.view["c"][c.base + p * c.width]  # None: secret to this viewer
                parts.setdefault(pres.label(name), "?" if value is None else str(value))
        for layout, owner in self.instances:
            if owner == p and layout.visibility != "public" and layout.name not in pres.bookkeeping:
                size = zone_members(self.view, layout.index(p))[1]
                parts.setdefault(pres.label(layout.name), "?" if size is None else str(size))
        return " · ".join(f"{label} {value}" for label, value in parts.items())

    def panel(self, p: int) -> Panel:
        title = f"You ({self.names[p]})" if p == self.viewer else self.names[p]
        sections = self.sections(self.pres.player, p)
        laid = self.pres.layout.player
        board = draw_board(self, laid, p) if laid is not None else None
        return Panel(title, p, self.pres.seat_colour(p), self.summary(p), sections, board)

    def decision(self) -> Decision | None:
        dec = self.view["dec"]
        if dec is None:
            return None
        p = int(dec["p"])
        mine = p == self.viewer and "ids" in dec
        out = Decision(p, self.names[p], str(dec.get("prompt", "")) if mine else "", mine)
        sim = self.view["t"].get("sim")
        if sim is not None:
            out.waiting = [self.names[q] for q in sim["w"]]
        if mine:
            labels = self.labels(list(dec["ids"]))
            out.choices = [Choice(i, *labels[i]) for i in dec["ids"]]
            self.choice_labels(out)
            action_labels(self, out)
            self.choice_targets(out)
            place_pieces(self, out)
        elif sim is not None and self.viewer in sim["w"]:
            self.ahead(out, sim)
        return out

    def ahead(self, out: Decision, sim: dict[str, Any]) -> None:
        """The viewer's question of the open simultaneous step before their turn comes: offered now
        (`Engine.answer` keeps the answer hidden), or the answer they already gave."""
        given = [str(cid) for q, cid in sim.get("e", []) if q == self.viewer]
        if given:
            out.answered = self.readable(given[0])
            return
        question = self.engine.ahead(self.full, self.viewer)
        out.mine, out.prompt = True, str(question.get("prompt", ""))
        out.choices = [Choice(i, self.readable(i), i.split(":")[0]) for i in question["ids"]]

    def choice_labels(self, dec: Decision) -> None:
        """The presentation's label for each choice of a `choose` decision its prompt matches."""
        look = next((c for c in self.pres.choices if c.matches(dec.prompt)), None)
        if look is None:
            return
        for choice in dec.choices:
            if choice.given:
                continue
            value = self.offered(choice.id)
            if value is None and look.none:
                choice.label, choice.given = look.none, True
                continue
            local = {"choice": value, "p": dec.player}
            shown = render(self.g, look.label, self.states, local, labels=self.pres.labels)
            if shown.known and not shown.error and shown.text.strip():
                choice.label, choice.given = shown.text, True

    def choice_targets(self, dec: Decision) -> None:
        """Each choice's components (its value, or its action's component arguments) that the seat
        sees: the page highlights exactly those, not every card of the same name."""
        full = self.states[0]["dec"]  # the seat's own decision, kept whole in its seat states
        if full is None or len(full.get("v") or []) != len(dec.choices):
            return
        seen = {c for zone in self.view["z"] if zone is not None for c in zone if c != HIDDEN}
        seen |= {c for c, where in enumerate(self.view["loc"]) if where >= 0}
        seen |= self.g.boards.cell_of.keys() | self.g.boards.edge_of.keys()  # boards lie open
        for choice, value in zip(dec.choices, full["v"], strict=True):
            choice.targets = [c for c in chosen_components(self.g, full, value) if c in seen]

    def offered(self, cid: str) -> Any:
        """The value a choice id of a `choose` stands for: a component (by name), a number, a truth
        value, or the id itself (a symbol)."""
        found = self.by_name.get(cid)
        if found is not None:
            return found
        if cid.lstrip("-").isdigit():
            return int(cid)
        return {"true": True, "false": False, "none": None}.get(cid, cid)

    def labels(self, ids: list[str]) -> dict[str, tuple[str, str, bool]]:
        """(label, action, given) for the seat's own choices: the game's labels (read on the seat
        states) where it has them, else the id made readable."""
        found: list[dict[str, str]] = []
        for st in self.states:
            try:
                found.append(dict(self.engine.labels(st)))
            except Exception as err:  # a label template that fails must not stop the screen
                self.problems.append(f"labels: {err}")
                found.append({})
        out = {}
        for i in ids:
            label = found[0].get(i, i)
            given = label != i and all(f.get(i, i) == label for f in found[1:])
            out[i] = (self.with_symbols(label) if given else self.readable(i), i.split(":")[0], given)
        return out

    def with_symbols(self, text: str) -> str:
        """A game's label with its symbols by their labels (`use buy_any` -> `use buy any colour`)."""
        return " ".join(self.pres.label(w) if w in self.symbols else w for w in text.split(" "))

    def readable(self, cid: str) -> str:
        return readable_id(self.g, self.pres, self.symbols, cid, self.view["m"])

    def final(self) -> list[FinalScore] | None:
        """At the end: each player's score parts (and what they leave over), total, and the winners."""
        if self.view["dec"] is not None:
            return None
        winners = set(self.winners())
        out = [self.final_score(p, p in winners) for p in range(len(self.names))]
        if any(len(f.parts) > len(self.pres.score) for f in out):  # the same rows for every player
            rest = self.pres.score_rest or "other"
            for f in out:
                if len(f.parts) == len(self.pres.score):
                    f.parts.append((rest, "0"))
        return out

    def final_score(self, p: int, winner: bool) -> FinalScore:
        g, pres = self.g, self.pres
        total_shown, total = (
            value_on(g, (g.score, INT), self.states, {"p": p}) if g.score else (Shown("0"), 0)
        )
        parts: list[tuple[str, str]] = []
        explained, complete = 0, total_shown.known
        for part in pres.score:
            shown, value = value_on(g, part.value, self.states, {"p": p})
            parts.append((part.label, self.note(shown, part.label)))
            if isinstance(value, int) and not isinstance(value, bool) and shown.known:
                explained += value
            else:
                complete = False
        if pres.score_rest:
            parts.append((pres.score_rest, str(total - explained) if complete else "?"))
        elif complete and pres.score and explained != total:
            parts.append(("other", str(total - explained)))
        return FinalScore(p, self.names[p], parts, self.note(total_shown, "score"), winner)

    def winners(self) -> list[int]:
        """Who won: the game's outcome, which every seat learns when it ends."""
        return list(self.engine.winners(self.outcome)) if self.outcome is not None else []

    def build(self, title: str) -> Board:
        view = self.view
        active = view["dec"]["p"] if view["dec"] is not None else None
        seats = [
            Seat(name, self.pres.seat_colour(p), self.summary(p), active == p)
            for p, name in enumerate(self.names)
        ]
        table = Panel("Table", None, None, "", self.sections(self.pres.table, None))
        if self.pres.layout.table is not None:
            table.board = draw_board(self, self.pres.layout.table, None)
        others = [self.panel(p) for p in range(len(self.names)) if p != self.viewer]
        you = self.panel(self.viewer) if self.viewer != SPECTATOR else Panel("Spectator", None, None, "", [])
        return Board(
            title,
            status_line(self.g.flow is not None and self.g.flow.has_rounds, view),
            self.viewer,
            seats,
            you,
            table,
            others,
            self.decision(),
            self.final(),
            self.problems,
            "lowest" if self.g.lowest_wins else "highest",
            route_colours(self.g, self.pres, table.board),
        )


def build_board(engine: Engine, st: State, viewer: int, title: str = "") -> Board:
    """The board `viewer` (a seat, or SPECTATOR: the public view) sees in state `st`."""
    return _Builder(engine, st, viewer).build(title or engine.game.name)


# ------------------------------------------------------------------ helpers


def zone_summary(cards: list[Card], layout: ZoneLayout) -> str:
    """Contents by name with counts: runs in order for ordered zones, totals otherwise (`-` if empty)."""
    if not cards:
        return "-"
    groups: list[list[Any]] = []
    for card in cards:
        label = card.title if not card.hidden else "?"
        if layout.ordered:
            if groups and groups[-1][0] == label:
                groups[-1][1] += 1
            else:
                groups.append([label, 1])
        else:
            for grp in groups:
                if grp[0] == label:
                    grp[1] += 1
                    break
            else:
                groups.append([label, 1])
    return ", ".join(label if n == 1 else f"{label} x{n}" for label, n in groups)


def face_text(own: Any, shown: str) -> str:
    """A card's text: its own `text` (what the card says), then what the game's template shows
    besides (a template never hides the card's words)."""
    words = own.strip() if isinstance(own, str) else ""
    shown = shown.strip()
    if not words or words == shown:
        return shown
    if not shown or words in shown:
        return shown or words
    return f"{words}\n{shown}"


def chosen_components(game: CompiledGame, dec: dict[str, Any], value: Any) -> list[int]:
    """The components a decision's value chooses: a `choose` of components, or an action's
    component arguments."""
    if dec["k"] == "choose":
        return _components(dec.get("t"), value)
    act = game.action_list[value[0]]
    return [c for (_, _, t), v in zip(act.params, value[1], strict=True) for c in _components(t, v)]


def _components(t: Any, value: Any) -> list[int]:
    """The components a value of type `t` names: a component, or each of a list of them (a placement)."""
    if t == COMP and isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if t == f"list[{COMP}]" and isinstance(value, list):
        return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
    return []


def _holds_hidden(value: Any) -> bool:
    if isinstance(value, list):
        return any(_holds_hidden(v) for v in value)
    return value == HIDDEN and not isinstance(value, bool)
