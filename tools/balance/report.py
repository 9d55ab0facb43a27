"""The text `simulate` prints: header, win rates with intervals, scores, margins, length, endings,
bot effort, the score parts and end values, and the events tables. Plain text, so it reads the same
on a terminal, in a pipe and in the docs (times vary; everything else is fixed by the seed when
budgets are playouts)."""

from __future__ import annotations

from typing import Any

from tabula.balance.cards import CARD_ROWS, card_lines, scored_lines
from tabula.balance.fairness import fairness_lines
from tabula.balance.until import status_line
from tabula.interpreter.base.terminal import shorten

EVENT_ROWS = 15


def pct(p: dict[str, float]) -> str:
    return f"{p['rate']:6.1%} [{p['low']:.1%}, {p['high']:.1%}]"


def _rate_or_dash(p: dict[str, float]) -> str:
    """A rate, or '-' when nobody is in the group (every player did it)."""
    return f"{p['rate']:.1%}" if p["n"] else "-"


def header_lines(data: dict[str, Any]) -> list[str]:
    parts = [
        f"{shorten(data['game'])}: {data['games']} games, {data['players']} players, seed {data['seed']}"
    ]
    parts.append(
        f"variant: {data['variant'] or 'none'}; expansions: {', '.join(data['expansions']) or 'none'}"
    )
    opts = ", ".join(f"{k}={v}" for k, v in data["options"].items()) or "none"
    rotate = " (rotating over the seats)" if data["rotate_bots"] else ""
    parts.append(f"options: {opts}; bots: {', '.join(data['bots'])}{rotate}")
    if data.get("bot_choice"):
        parts.append(data["bot_choice"])
    return parts


def describe_line(label: str, d: dict[str, float]) -> str:
    return (
        f"{label:<10} mean {d['mean']:7.2f}  sd {d['sd']:6.2f}  min {d['min']:g}  q25 {d['q25']:g}  "
        f"median {d['median']:g}  q75 {d['q75']:g}  max {d['max']:g}"
    )


def results_table(title: str, rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    out = [f"{title:<24} {'win rate [95% CI]':>26} {'ties':>5} {'mean score':>10} {'sd':>6}"]
    for label, r in rows:
        out.append(
            f"{label:<24} {pct(r['win_rate']):>26} {r['ties']:>5} {r['score']['mean']:>10.2f} "
            f"{r['score']['sd']:>6.2f}"
        )
    return out


def events_lines(title: str, rows: list[dict[str, Any]], limit: int = EVENT_ROWS) -> list[str]:
    """The rows that can be compared (not folded), flagged ones first, and a line for the folded."""
    shown = [r for r in rows if not r["folded"] and not r.get("too_few")]
    few = [r for r in rows if r.get("too_few")]
    folded = [r["name"] for r in rows if r["folded"]]
    if not rows:
        return []
    out = [
        f"{title:<24} {'/game':>6} {'players':>7} {'win if done':>11} {'if not':>7} "
        f"{'lift by seat [95% CI]':>24} {'p':>7}"
    ]
    for r in shown[:limit]:
        d = r["lift"]
        flag = "  significant" if r["flagged"] else ""
        out.append(
            f"{r['name'][:24]:<24} {r['per_game']:>6.1f} {r['share']:>7.0%} "
            f"{_rate_or_dash(r['win_rate_did']):>11} {_rate_or_dash(r['win_rate_not']):>7} "
            f"{d['lift']:>+7.1%} [{d['low']:+.1%}, {d['high']:+.1%}] {d['p']:>7.2g}{flag}"
        )
    if len(shown) > limit:
        out.append(f"... {len(shown) - limit} more (all of them in --json)")
    if few:
        out.append(f"too few games to say (under 10 player-games on a side): {len(few)}, in --json")
    if folded:
        names = ", ".join(folded[:10]) + (" ..." if len(folded) > 10 else "")
        out.append(f"folded (done by nearly every player in nearly every game): {len(folded)}: {names}")
    return out


def interval(d: dict[str, float], sign: str = "") -> str:
    """`[low, high]` of a mean or a difference, two decimals."""
    return f"[{d['low']:{sign}.2f}, {d['high']:{sign}.2f}]"


def measure_lines(title: str, rows: list[dict[str, Any]], seats: int) -> list[str]:
    """A score part or an end value per row: overall mean [95% CI], then each seat's mean; the names
    that had the same value in every game are listed on one line."""
    varying = [r for r in rows if r["overall"]["sd"] > 0]
    constant = [f"{r['name']} {r['overall']['mean']:g}" for r in rows if r["overall"]["sd"] == 0]
    if not rows:
        return []
    head = f"{title:<28} {'mean':>9} {'[95% CI]':<18}"
    out = [(head + "".join(f" {'seat ' + str(p):>8}" for p in range(seats))).rstrip()]
    for r in varying:
        o = r["overall"]
        per_seat = "".join(f" {s['mean']:>8.2f}" for s in r.get("seats", []))
        out.append(f"{r['name'][:28]:<28} {o['mean']:>9.2f} {interval(o):<18}{per_seat}".rstrip())
    if constant:
        more = " ..." if len(constant) > 8 else ""
        out.append(f"the same in every game: {', '.join(constant[:8])}{more}")
    return out


def summary_lines(data: dict[str, Any], names: list[str]) -> list[str]:
    lines = header_lines(data)
    if data["interrupted"]:
        lines.append(f"INTERRUPTED: partial results of the {data['games']} games finished")
    lines.append(
        f"{data['games_per_second']:.1f} games/s, {data['decisions_per_second']:.0f} decisions/s "
        f"({data['seconds']:.2f} s)"
    )
    seats = [(f"{s['seat']} {names[s['seat']] if s['seat'] < len(names) else ''}", s) for s in data["seats"]]
    lines += ["", *results_table("seat", seats)]
    if "fairness_seat" in data and len(data["seats"]) > 1:
        lines += fairness_lines(data, names)
    if data.get("until_decided"):
        lines.append("  " + status_line(data["until_decided"], "seat or turn position"))
    if len(data["by_bot"]) > 1:
        lines += ["", *results_table("bot", list(data["by_bot"].items()))]
    lines += [
        "",
        describe_line("margin", data["margin"])
        + (
            "   (the runner-up's score minus the winner's: lowest wins)"
            if data.get("ranking") == "lowest"
            else "   (winner's score minus the runner-up's)"
        ),
        describe_line("turns", data["turns"]),
        describe_line("decisions", data["decisions"]),
        "",
        "endings:",
    ]
    for ending, n in data["endings"].items():
        lines.append(f"  {ending}: {n} ({n / max(data['games'], 1):.0%})")
    lines += [f"warning: {w}" for w in data["warnings"]]
    searching = {b: e for b, e in data["bot_effort"].items() if e["decisions_searched"]}
    if searching:
        lines += ["", "bot effort (decisions with more than one choice):"]
        for b, e in searching.items():
            lines.append(
                f"  {b}: {e['playouts_per_decision']:.1f} playouts/decision, "
                f"{e['seconds_per_decision'] * 1000:.1f} ms CPU/decision, "
                f"{e['seconds_per_game']:.2f} s CPU/game"
            )
    for title, key in (("score part", "score_parts"), ("at the end, per player", "end_values")):
        rows = measure_lines(title, data[key], len(data["seats"]))
        lines += ["", *rows] if rows else []
    table = measure_lines("at the end, on the table", data["table_values"], 0)
    lines += ["", *table] if table else []
    rows = events_lines("action", data["actions"])
    lines += ["", *rows] if rows else []
    limit = CARD_ROWS if not data.get("cards_kind") else EVENT_ROWS
    lines += card_lines(data["cards"], limit)
    lines += scored_lines(data.get("scored_with", []), limit)
    notes = [f"note: {n}" for n in data.get("notes", [])]
    return [*lines, "", *notes] if notes else lines
