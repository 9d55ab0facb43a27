"""What a person sees when they must decide: built from `engine.view(state, seat)` only.

`build_screen` turns a player's view (never the raw state, so nothing hidden can leak) into a
`Screen`: a status line, sections for the player, the table and each other player (counters, vars
and zone contents by component name, hidden components as `?`, with counts), recent log lines, the
prompt and the numbered choices. `plain_text` renders it for pipes and files; `print_rich` draws it
with `rich` panels and colour for a terminal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabula.interpreter.compile.scope import COMP, PLAYER, elem
from tabula.interpreter.model import CompiledGame
from tabula.interpreter.view import HIDDEN

View = dict[str, Any]
WIDE_COUNTER = 6  # keyed counters with more keys than this show only their non-zero entries


@dataclass
class Section:
    """A titled block of `label: value` rows."""

    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Screen:
    """One decision screen, independent of how it is drawn."""

    title: str
    status: str
    sections: list[Section]
    log: list[str]
    prompt: str
    choices: list[str]


# ------------------------------------------------------------------ values


def component_name(game: CompiledGame, cid: int) -> str:
    """A component's name, or `?` when the viewer may not see which one it is."""
    return "?" if cid == HIDDEN or not 0 <= cid < len(game.components) else game.components[cid].name


def describe(game: CompiledGame, names: list[str], value: Any, vtype: str) -> str:
    """A var's value in words: players and components by name, lists item by item."""
    if value is None or value == "none":
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(describe(game, names, v, elem(vtype)) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool):
        if vtype == COMP:
            return component_name(game, value)
        if vtype == PLAYER and 0 <= value < len(names):
            return names[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def zone_text(game: CompiledGame, ids: list[int], ordered: bool) -> str:
    """Contents by name with counts: runs in order for ordered zones (top first), totals otherwise."""
    if not ids:
        return "-"
    labels = [component_name(game, c) for c in ids]
    groups: list[tuple[str, int]] = []
    if ordered:
        for label in labels:
            if groups and groups[-1][0] == label:
                groups[-1] = (label, groups[-1][1] + 1)
            else:
                groups.append((label, 1))
    else:
        groups = list(Counter(labels).items())
    return ", ".join(label if n == 1 else f"{label} x{n}" for label, n in groups)


# ------------------------------------------------------------------ rows


def counter_rows(game: CompiledGame, view: View, player: int | None) -> list[tuple[str, str]]:
    """The counters of one player (or the global ones when `player` is None)."""
    rows: list[tuple[str, str]] = []
    for c in game.counters.values():
        if c.per_player != (player is not None):
            continue
        start = c.base + (player or 0) * c.width
        values = view["c"][start : start + c.width]
        rows.append((c.name, keyed_text(c.keys, values) if c.keys else str(values[0])))
    return rows


def keyed_text(keys: list[str], values: list[int]) -> str:
    """`black 1, blue 0, ...`; counters with many keys list only the non-zero ones."""
    pairs = list(zip(keys, values, strict=True))
    if len(pairs) > WIDE_COUNTER:
        pairs = [(k, v) for k, v in pairs if v]
    return ", ".join(f"{k} {v}" for k, v in pairs) or "all 0"


def var_rows(game: CompiledGame, view: View, player: int | None) -> list[tuple[str, str]]:
    """The vars of one player (or the global ones)."""
    rows: list[tuple[str, str]] = []
    for name, layout in game.vars.items():
        if layout.per_player != (player is not None) or name not in view["v"]:
            continue
        value = view["v"][name][player] if player is not None else view["v"][name]
        rows.append((name, describe(game, view["names"], value, layout.type)))
    return rows


def zone_rows(game: CompiledGame, view: View, player: int | None) -> list[tuple[str, str]]:
    """Each zone of one player (or each global zone) with its size and visible contents."""
    rows: list[tuple[str, str]] = []
    for index, (layout, owner) in enumerate(game.zone_instances()):
        if owner != player:
            continue
        ids: list[int] = view["z"][index]
        rows.append((f"{layout.name} ({len(ids)})", zone_text(game, ids, layout.ordered)))
    return rows


def player_section(game: CompiledGame, view: View, player: int, title: str) -> Section:
    rows = counter_rows(game, view, player) + var_rows(game, view, player) + zone_rows(game, view, player)
    return Section(title, rows)


def table_section(game: CompiledGame, view: View) -> Section:
    rows = counter_rows(game, view, None) + var_rows(game, view, None) + zone_rows(game, view, None)
    return Section("Table", rows)


def status_line(game: CompiledGame, view: View) -> str:
    t = view["t"]
    names: list[str] = view["names"]
    parts = []
    if game.flow is not None and game.flow.has_rounds:
        parts.append(f"round {t['round']}")
    parts.append(f"turn {t['turn']}")
    active = t["active"]
    if active is not None:
        you = " (you)" if active == view["viewer"] else ""
        parts.append(f"active: {names[active]}{you}")
    if t.get("phase_id"):
        parts.append(f"phase {t['phase_id']}")
    return " | ".join(parts)


def build_screen(
    game: CompiledGame, view: View, log: list[str], title: str, labels: dict[str, str] | None = None
) -> Screen:
    """The screen for the viewer of `view`; `log` holds the new log lines they may read.

    `labels` maps the viewer's own choice ids to the game's wording (`Engine.labels`)."""
    seat: int = view["viewer"]
    names: list[str] = view["names"]
    sections = [player_section(game, view, seat, f"You ({names[seat]})"), table_section(game, view)]
    for p in range(len(names)):
        if p != seat:
            sections.append(player_section(game, view, p, names[p]))
    dec = view["dec"] or {}
    prompt, ids = str(dec.get("prompt", "")), list(dec.get("ids", []))
    shown = [f"{labels[i]}  [{i}]" if labels and labels.get(i, i) != i else i for i in ids]
    return Screen(title, status_line(game, view), sections, log, prompt, shown)


# ------------------------------------------------------------------ drawing


def plain_text(screen: Screen) -> str:
    """The screen as plain text (no colour, no box drawing)."""
    out = [f"== {screen.title} | {screen.status} =="]
    for section in screen.sections:
        if not section.rows:
            continue
        out.append(f"{section.title}:")
        out.extend(f"  {label}: {value}" for label, value in section.rows)
    if screen.log:
        out.append("Log:")
        out.extend(f"  {line}" for line in screen.log)
    out.append(f"{screen.prompt}:")
    out.extend(f"  {i}) {choice}" for i, choice in enumerate(screen.choices, 1))
    return "\n".join(out)


def _section_table(section: Section) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for label, value in section.rows:
        table.add_row(label, value)
    return table


def print_rich(console: Console, screen: Screen) -> None:
    """Draw the screen with panels and colour."""
    console.rule(Text.assemble((screen.title, "bold"), "  ", (screen.status, "dim")))
    panels = [
        Panel(_section_table(s), title=s.title, title_align="left", expand=False)
        for s in screen.sections
        if s.rows
    ]
    console.print(Columns(panels))
    if screen.log:
        console.print(
            Panel(Text("\n".join(screen.log), style="dim"), title="Log", title_align="left", expand=False)
        )
    choices = Table.grid(padding=(0, 1))
    choices.add_column(justify="right", style="cyan")
    choices.add_column()
    for i, choice in enumerate(screen.choices, 1):
        choices.add_row(f"{i})", choice)
    console.print(Group(Text(screen.prompt, style="bold yellow"), choices))
