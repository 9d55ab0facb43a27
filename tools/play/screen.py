"""The terminal screen of `tabula play`: a seat's board (`tabula.play.board`) in 80 columns and 24 lines.

`decision_screen` lays out what a person needs to decide: a status line, their own panel in full,
one summary line per opponent, the table in short, the newest log lines, the prompt and the choices
(numbered, every choice id visible). When it does not fit, the log, the table and then the choices
give way first, each saying how to see the rest (`log`, `board`, `choices`). `board_lines` and
`show_lines` give the details on demand, `final_lines` the final score breakdown.

Every line is a `rich.text.Text` built from plain strings: game text (player and card names, log
lines) is never read as markup, so `[blink]` or `[/]` in a name prints as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text

from tabula.play.board import Board, Choice, Line, Panel, Section
from tabula.play.faces import Card
from tabula.play.grid import grid_lines, is_map, map_lines

WIDTH, HEIGHT = 80, 24
MIN_TABLE, MIN_CHOICE_ROWS, MAX_LOG = 2, 3, 8
SEP = " · "
# a cell of a board that grows in a choice's readable id (authoring/display.py grown_cell): its id
# names the cell by the order it was added in (`lay:table7`), so the screen says where it lies
GROWN_CELL = re.compile(r"x=-?\d+, y=-?\d+")


@dataclass
class Look:
    """Output options: colour or plain text, and the screen's size."""

    colour: bool = False
    width: int = WIDTH
    height: int = HEIGHT


# ------------------------------------------------------------------ styles


def _luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def colour_style(colour: str | None, bold: bool = False) -> str:
    """A rich style showing `colour` readably on dark and light terminals."""
    if not colour or not colour.startswith("#") or len(colour) != 7:
        return "bold" if bold else ""
    light = _luminance(colour)
    if light < 0.2:
        return f"white on {colour}"
    if light > 0.8:
        return f"black on {colour}"
    return f"{'bold ' if bold else ''}{colour}"


# ------------------------------------------------------------------ pieces of lines


def card_text(card: Card, badges: bool = True) -> Text:
    """`title (badge, badge)` with the card's colour; `? xN` for hidden cards."""
    out = Text(card.title, style=colour_style(card.colour))
    if card.hidden:
        out = Text("?" if card.count == 1 else f"? x{card.count}", style="dim")
    if badges and card.badges:
        out.append(" (")
        for i, badge in enumerate(card.badges):
            if i:
                out.append(", ")
            out.append(badge.text, style=colour_style(badge.colour) if badge.colour else "dim")
        out.append(")")
    if card.under:
        out.append(" + ")
        out.append(", ".join(u.title for u in card.under), style="dim")
    return out


def cards_text(
    cards: list[Card], limit: int | None = None, badges: bool = True, ordered: bool = True
) -> Text:
    """Cards side by side, identical ones as `title xN` (side by side ones only, in an ordered zone);
    at most `limit` entries."""
    entries: list[tuple[Card, int]] = []
    for card in cards:
        same = [i for i, (c, _) in enumerate(entries) if _same(c, card, badges)]
        if same and (not ordered or same[-1] == len(entries) - 1):
            i = same[-1]
            entries[i] = (entries[i][0], entries[i][1] + (1 if card.hidden else card.count))
        else:
            entries.append((card, 1 if card.hidden else card.count))  # a hidden entry counts itself
    out = Text()
    shown = entries if limit is None else entries[:limit]
    for i, (card, n) in enumerate(shown):
        if i:
            out.append(", ")
        out.append_text(card_text(card, badges))
        if n > 1:
            out.append(f" x{n}")
    if len(shown) < len(entries):
        out.append(f", ... {sum(n for _, n in entries[len(shown) :])} more", style="dim")
    return out if entries else Text("-", style="dim")


def _same(a: Card, b: Card, badges: bool) -> bool:
    """Cards drawn alike (hidden ones are already counted, a card with cards under it is unique)."""
    if a.hidden or b.hidden or a.under or b.under or a.title != b.title or a.colour != b.colour:
        return False
    return not badges or [x.text for x in a.badges] == [x.text for x in b.badges]


def line_text(line: Line, compact: bool, badges: bool = True) -> Text:
    """One row: `label value`, a keyed counter's entries, or a zone's cards (with its size)."""
    out = Text(line.label, style="bold" if not compact else "")
    if line.kind in ("number", "text"):
        out.append(" ")
        out.append(line.text, style=colour_style(line.colour, True) if line.colour else "")
        return out
    if line.kind == "keyed":
        out.append(" ")
        shown = [e for e in line.entries if e.value] if compact else line.entries
        for i, e in enumerate(shown):
            if i:
                out.append(", ")
            out.append(e.label, style=colour_style(e.colour))
            out.append(f" {e.value}")
        if not shown:
            out.append("none", style="dim")
        return out
    out.append(
        ": "
        if line.size is not None and line.size <= 1
        else f" ({'?' if line.size is None else line.size}): "
    )
    if line.groups:
        return out.append_text(groups_text(line, compact))
    limit = 8 if compact else None
    return out.append_text(cards_text(line.cards, limit, badges, line.ordered))


def groups_text(line: Line, compact: bool) -> Text:
    """A grouped zone: in short, only the cards with badges (marks) and how many others each group has."""
    out = Text()
    rest = 0
    for name, cards in line.groups:
        marked = [c for c in cards if c.badges or c.under or c.hidden] if compact else cards
        rest += sum(c.count for c in cards) - sum(c.count for c in marked)
        if not marked:
            continue
        if out.cell_len:
            out.append("; ")
        out.append(f"{name}: ", style="italic")
        out.append_text(cards_text(marked))
    if rest:
        out.append(f"{'; ' if out.cell_len else ''}{rest} without marks", style="dim")
    return out


def pack(pieces: list[Text], width: int, indent: int = 2, head: Text | None = None) -> list[Text]:
    """`head` then the pieces joined by ` · `, in lines of `width` cells; a piece that does not fit
    on a line of its own is wrapped at spaces (continuation lines indented a little more)."""
    lines: list[Text] = []
    current = Text(" " * indent)
    start = indent
    if head is not None:
        current.append_text(head)
        start = current.cell_len
    for piece in pieces:
        sep = SEP if current.cell_len > start else ""
        if current.cell_len + len(sep) + piece.cell_len <= width:
            current.append(sep, style="dim")
            current.append_text(piece)
            continue
        if current.cell_len > start:
            lines.append(current)
            current = Text(" " * indent)
            start = indent
        chunks = word_wrap(piece, width - current.cell_len, width - indent - 2)
        for chunk in chunks[:-1]:
            lines.append(current.append_text(chunk))
            current = Text(" " * (indent + 2))
        current.append_text(chunks[-1])
    if current.cell_len > start:
        lines.append(current)
    return lines


def word_wrap(text: Text, first: int, rest: int) -> list[Text]:
    """`text` cut at spaces into a first line of `first` cells and further lines of `rest` cells."""
    out: list[Text] = []
    plain = text.plain
    begin, room = 0, first
    while len(plain) - begin > room:
        cut = plain.rfind(" ", begin, begin + room + 1)
        if cut <= begin:
            cut = begin + room
        chunk = text[begin:cut]
        chunk.rstrip()
        out.append(chunk)
        begin, room = (cut + 1 if cut < len(plain) and plain[cut] == " " else cut), rest
    out.append(text[begin:])
    return out


def panel_lines(
    panel: Panel, width: int, compact: bool, titles: bool = True, drop: bool = False
) -> list[Text]:
    """A panel: its summary line, then each section packed (one section starts a new line); with
    `drop`, rows without news (a none value, a keyed counter at zero) are left out."""
    head = Text(panel.title, style=colour_style(panel.colour, True))
    if panel.summary:
        head.append(": " + panel.summary)
    out = [fit(head, width)]
    if panel.board is not None:
        out.extend(fit(t, width) for t in grid_lines(panel.board))
    for section in panel.sections:
        out.extend(section_lines(section, width, compact, titles, drop, _gridded(panel)))
    return out


def section_lines(
    section: Section,
    width: int,
    compact: bool,
    titles: bool = True,
    drop: bool = False,
    drawn: set[str] | None = None,
) -> list[Text]:
    lines = [ln for ln in section.lines if not drawn or ln.name not in drawn]
    pieces = [line_text(ln, compact) for ln in lines if not (drop and _empty(ln))]
    head = Text(section.title + ": ", style="underline") if titles and section.title else None
    return pack(pieces, width, 2, head) if pieces else []


def _empty(line: Line) -> bool:
    """A row not worth a place on a crowded screen: a none value, a keyed counter all at zero."""
    if line.kind == "text":
        return line.text in ("none", "")
    if line.kind == "keyed":
        return not any(e.value for e in line.entries)
    return False


def _gridded(panel: Panel) -> set[str]:
    """The zones a panel's grid of declared boards draws: not listed again."""
    drawn = panel.board
    return {p.name for p in drawn.places} if drawn is not None and drawn.grid else set()


def table_lines(board: Board, width: int) -> list[Text]:
    """The table in short: the grid of its declared boards, then one line per section."""
    out = [fit(t, width) for t in grid_lines(board.table.board)] if board.table.board else []
    if board.table.board is not None and is_map(board.table.board):
        out.extend(fit(t, width) for t in map_lines(board.table.board, board.route_colours, False, width))
    drawn = _gridded(board.table)
    for section in board.table.sections:
        pieces = [
            line_text(ln, True, False) for ln in section.lines if not _empty(ln) and ln.name not in drawn
        ]
        if not pieces:
            continue
        line = Text("  ")
        if section.title:
            line.append(section.title + ": ", style="underline")
        for i, piece in enumerate(pieces):
            if i:
                line.append(SEP, style="dim")
            line.append_text(piece)
        out.append(fit(line, width))
    return out


def fit(text: Text, width: int) -> Text:
    """One line of at most `width` cells (cut with an ellipsis)."""
    if text.cell_len <= width:
        return text
    out = text.copy()
    out.truncate(width - 1)
    out.append("…")
    return out


def choice_cell(index: int, choice: Choice) -> Text:
    """`12) use:buy_red (use buy red)`: the number, the id, and the game's label when it has one, or
    the readable id where it names a cell of a board that grows, `7) lay:table7 (lay: x=2, y=-1)`
    (a cell too narrow for its column is cut at its end: the number and id first)."""
    out = Text(f"{index:>2}) ", style="cyan")
    if choice.given and (choice.id.isdigit() or choice.id == "none"):  # a position: the label says it
        return out.append(choice.label, style="bold")
    out.append(choice.id, style="bold")
    if (choice.given or GROWN_CELL.search(choice.label)) and choice.label != choice.id:
        out.append(f" ({choice.label})", style="dim")
    return out


class Numbering:
    """Stable numbers for the choices of successive decisions: a choice offered again keeps its
    number (a window whose actions are offered turn after turn reads the same), a new one takes the
    smallest free number; a decision that offers none of the last one's choices numbers from 1."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def number(self, ids: list[str]) -> dict[str, int]:
        kept = {i: n for i, n in self.numbers.items() if i in ids}
        if not kept:
            self.numbers = {i: n for n, i in enumerate(ids, 1)}
            return self.numbers
        free = (n for n in range(1, len(ids) + len(kept) + 1) if n not in kept.values())
        self.numbers = {i: kept[i] if i in kept else next(free) for i in ids}
        return self.numbers

    def choice(self, number: int) -> str | None:
        """The choice id of `number`, if one has it."""
        return next((i for i, n in self.numbers.items() if n == number), None)


def choice_lines(
    choices: list[Choice], width: int, rows: int | None = None, numbers: dict[str, int] | None = None
) -> list[Text]:
    """The numbered choices in columns, each with the game's label (cut to its column when it does
    not fit, never dropped); with `rows`, at most that many lines (the last says how many more).
    `numbers` gives each choice its number (Numbering); by default 1, 2, ..."""
    return _choice_lines(choices, width, rows, numbers or {c.id: n for n, c in enumerate(choices, 1)})


def _choice_lines(choices: list[Choice], width: int, rows: int | None, numbers: dict[str, int]) -> list[Text]:
    numbered = sorted(((numbers.get(c.id, i), c) for i, c in enumerate(choices, 1)), key=lambda nc: nc[0])
    cells = [choice_cell(n, c) for n, c in numbered]  # in the order of their numbers, row by row
    if not cells:
        return []
    cell = min(max(c.cell_len for c in cells) + 2, width)
    cols = max(1, width // cell)
    needed = -(-len(cells) // cols)
    if rows is not None and needed > rows:
        keep = max(rows - 1, 1) * cols
        more = len(cells) - keep
        cells = cells[:keep]
        needed = max(rows - 1, 1)
    else:
        more = 0
    out = []
    for r in range(needed):
        line = Text()
        for c in range(cols):
            i = r * cols + c
            if i < len(cells):
                piece = fit(cells[i], cell - 1 if c < cols - 1 else width - line.cell_len)
                line.append_text(piece)
                line.append(" " * max(cell - piece.cell_len, 0) if c < cols - 1 else "")
        line.rstrip()
        out.append(fit(line, width))
    if more:
        out.append(Text(f"    ... {more} more choices: type 'choices' to list them all", style="dim"))
    return out


# ------------------------------------------------------------------ screens


def status_top(header: str, status: str, seed: int | None, width: int) -> Text:
    """The first line: the game, its status and the seed; when it is too wide, the status is cut
    (then the header), never the seed, which is what a bug report needs."""
    tail = f" | seed {seed}" if seed is not None else ""
    room = width - len(tail)
    head = (
        fit(Text(header, style="bold"), max(room // 2, 1))
        if len(header) + 2 > room // 2
        else Text(header, style="bold")
    )
    middle = fit(Text(f"  {status}", style="dim"), max(room - head.cell_len, 1))
    return fit(head.append_text(middle).append(tail, style="dim"), width)


def prompt_text(prompt: str) -> str:
    """A prompt as the screen asks it: a colon after it, unless it ends in its own punctuation."""
    text = (prompt or "choose").rstrip()
    return text if text.endswith(("?", ":", "!", ".", "…")) else text + ":"


def decision_screen(
    board: Board,
    log: list[str],
    header: str,
    look: Look,
    seed: int | None = None,
    numbers: dict[str, int] | None = None,
) -> list[Text]:
    """The screen for a decision, at most `look.height - 1` lines (the last line is the input)."""
    width = look.width
    top = [status_top(header, board.status, seed, width)]
    own = panel_lines(board.you, width, True, False, True)
    others = [fit(_summary_line(p), width) for p in board.others]
    table = table_lines(board, width)
    dec = board.decision
    prompt = [fit(Text(prompt_text(dec.prompt), style="bold yellow"), width)] if dec else []
    choices = dec.choices if dec else []
    numbers = numbers or {c.id: n for n, c in enumerate(choices, 1)}
    budget = look.height - 1 - len(top) - len(prompt)
    fixed = len(own) + len(others)
    all_choices = _choice_lines(choices, width, None, numbers)
    log_lines = [fit(Text("  " + ln, style="dim"), width) for ln in log]
    # the choices first, then the table, then the log, in what is left
    room = budget - fixed
    choice_rows = max(min(len(all_choices), room - MIN_TABLE), MIN_CHOICE_ROWS)
    shown_choices = choice_lines(choices, width, choice_rows, numbers)
    room -= len(shown_choices)
    table_rows = max(min(len(table), room - min(len(log_lines), 1)), 0)
    shown_table = table[:table_rows]
    if table_rows < len(table) and table_rows > 0:
        shown_table[-1] = fit(Text("  ... the whole table: type 'board'", style="dim"), width)
    room -= len(shown_table)
    shown_log = _log_lines(log_lines, max(min(room, MAX_LOG), 0))
    room -= len(shown_log)
    if room < 0:  # even the own panel does not fit: cut it, keep the choices
        own = own[: max(len(own) + room, 1)]
    lines = [*top, *own, *others, *shown_table, *shown_log, *prompt, *shown_choices]
    return lines[: look.height - 1]


def _log_lines(lines: list[Text], room: int) -> list[Text]:
    if room <= 0 or not lines:
        return []
    if len(lines) <= room:
        return lines
    kept = lines[-(room - 1) :] if room > 1 else []
    return [Text(f"  ... {len(lines) - len(kept)} earlier log lines: type 'log'", style="dim"), *kept]


def _summary_line(panel: Panel) -> Text:
    out = Text(panel.title, style=colour_style(panel.colour, True))
    return out.append(": " + panel.summary if panel.summary else "")


def board_lines(board: Board, width: int) -> list[Text]:
    """Everything the seat may see: the table, then each player's panel, in full."""
    out = [Text("Table", style="bold underline")]
    if board.table.board is not None:
        out.extend(fit(t, width) for t in grid_lines(board.table.board))
        if is_map(board.table.board):
            out.extend(fit(t, width) for t in map_lines(board.table.board, board.route_colours, True, width))
    for section in board.table.sections:
        out.extend(section_lines(section, width, False, drawn=_gridded(board.table)))
    for panel in [board.you, *board.others]:
        out.append(Text(""))
        out.extend(panel_lines(panel, width, False))
    return out


def show_lines(board: Board, name: str, width: int) -> list[Text] | None:
    """Details of one thing by name: a zone, counter or var (label or name), a player, or a card."""
    key = name.strip().lower()
    for panel in [board.you, *board.others]:
        if key in (panel.title.lower(), _player_name(board, panel).lower()):
            return panel_lines(panel, width, False)
    found: list[Text] = []
    for panel in [board.table, board.you, *board.others]:
        for section in panel.sections:
            for line in section.lines:
                if key in (line.name.lower(), line.label.lower()):
                    owner = "" if panel.player is None else f"{_player_name(board, panel)}: "
                    found.append(Text(owner, style="bold").append_text(line_text(line, False)))
                    found.extend(_card_details(line.cards))
    if found:
        return [ln for t in found for ln in pack([t], width, 0)]
    cards = [c for c in _all_cards(board) if c.name.lower() == key or c.title.lower() == key]
    return [ln for t in _card_details(cards[:1]) for ln in pack([t], width, 0)] if cards else None


def _player_name(board: Board, panel: Panel) -> str:
    return board.seats[panel.player].name if panel.player is not None else panel.title


def _card_details(cards: list[Card]) -> list[Text]:
    out = []
    for card in cards:
        if card.hidden:
            continue
        line = Text("  ").append_text(card_text(card))
        if card.name != card.title:
            line.append(f" [{card.name}]", style="dim")
        if card.text:
            line.append(": " + card.text.replace("\n", " · "))
        out.append(line)
    return out


def _all_cards(board: Board) -> list[Card]:
    out: list[Card] = []
    for panel in [board.table, board.you, *board.others]:
        for section in panel.sections:
            for line in section.lines:
                for card in line.cards:
                    out.append(card)
                    out.extend(card.under)
    return out


def final_lines(board: Board, width: int) -> list[Text]:
    """The final scores: one column per player, one row per part of the score, the winners."""
    final = board.final or []
    if not final:
        return []
    labels = [label for label, _ in final[0].parts]
    col = max(8, min(14, (width - 2) // (len(final) + 2)))
    first = max(min(width - col * len(final) - 1, 30), 12)
    head = Text("Final score".ljust(first), style="bold")
    for f in final:
        head.append(
            fit(Text(f.name), col - 1).plain.rjust(col),
            style=colour_style(board.seats[f.player].colour, True),
        )
    out = [head]
    for i, label in enumerate(labels):
        row = Text(fit(Text(label), first - 1).plain.ljust(first))
        for f in final:
            row.append(f.parts[i][1].rjust(col) if i < len(f.parts) else "".rjust(col))
        out.append(row)
    total = Text("Total".ljust(first), style="bold")
    for f in final:
        total.append(f.total.rjust(col), style="bold")
    out.append(total)
    winners = [f.name for f in final if f.winner]
    label = "Winner" if len(winners) == 1 else "Winners"
    lowest = " (the lowest score wins)" if board.ranking == "lowest" else ""
    out.append(Text(f"{label}{lowest}: {', '.join(winners)}", style="bold green"))
    return out
