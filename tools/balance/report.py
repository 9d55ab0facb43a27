"""The text `simulate` prints: header, win rates with intervals, scores, margins, length, endings,
bot effort and the events table. Plain text, so it reads the same on a terminal, in a pipe and in
the docs (times vary; everything else is fixed by the seed when budgets are playouts)."""

from __future__ import annotations

from typing import Any

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
    if not rows:
        return []
    out = [
        f"{title:<24} {'count':>7} {'/game':>6} {'players':>7} "
        f"{'win rate if done [95% CI]':>27} {'if not':>7}"
    ]
    for r in rows[:limit]:
        out.append(
            f"{r['name'][:24]:<24} {r['count']:>7} {r['per_game']:>6.1f} {r['players']:>7} "
            f"{pct(r['win_rate_did']):>27} {_rate_or_dash(r['win_rate_not']):>7}"
        )
    if len(rows) > limit:
        out.append(f"... {len(rows) - limit} more (all of them in --json)")
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
    for title, key in (("action", "actions"), ("component gained", "components")):
        rows = events_lines(title, data[key])
        if rows:
            lines += ["", *rows]
    return lines
