"""`--plot DIR`: PNG charts (matplotlib, Agg backend) and one HTML page showing them.

simulate: win rate by seat (and by bot) with 95 % intervals, score distribution per seat (boxes,
their medians drawn in black so they show on every colour, and the mean with its 95 % interval),
game length, and the score parts by seat with intervals. compare: the same with configuration A and
B side by side or overlaid, and one plot per score part (A and B by seat, with intervals). The page
`index.html` names the run, lists the plots and embeds them by relative path, so the folder can be
moved or shared.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from tabula.balance.match import GameRecord
from tabula.balance.stats import mean_interval
from tabula.common import CliError

COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd")
MEDIAN = "black"  # drawn over every box colour


def check_plotting() -> None:
    """Refuse --plot before any game is played when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CliError("--plot needs matplotlib: pip install -e '.[plot]'") from None


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    _pyplot().close(fig)
    return path.name


def _rate_bars(
    ax: Any,
    labels: list[str],
    rates: list[dict[str, float]],
    offset: float,
    width: float,
    colour: str,
    name: str | None,
) -> None:
    xs = [i + offset for i in range(len(labels))]
    mids = [r["rate"] for r in rates]
    errs = [[r["rate"] - r["low"] for r in rates], [r["high"] - r["rate"] for r in rates]]
    ax.bar(xs, mids, width, yerr=errs, capsize=4, color=colour, label=name)


def win_rate_plot(path: Path, series: list[tuple[str, dict[str, Any]]], names: list[str], title: str) -> str:
    """Win rate by seat with Wilson intervals, one bar group per seat, one colour per series."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4))
    labels = [f"{s['seat']} {names[s['seat']]}" for s in series[0][1]["seats"]]
    width = 0.8 / len(series)
    for k, (label, data) in enumerate(series):
        rates = [s["win_rate"] for s in data["seats"]]
        offset = (k - (len(series) - 1) / 2) * width
        _rate_bars(
            ax, labels, rates, offset, width, COLOURS[k % len(COLOURS)], label if len(series) > 1 else None
        )
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(title)
    if len(series) > 1:
        ax.legend()
    return _save(fig, path)


def bot_rate_plot(path: Path, data: dict[str, Any], title: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4))
    labels = list(data["by_bot"])
    _rate_bars(ax, labels, [data["by_bot"][b]["win_rate"] for b in labels], 0, 0.6, COLOURS[0], None)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(title)
    return _save(fig, path)


def score_plot(path: Path, series: list[tuple[str, list[GameRecord]]], title: str) -> str:
    """Score distribution per seat (box plots; A and B side by side)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4))
    seats = len(series[0][1][0].names)
    width = 0.8 / len(series)
    for k, (label, records) in enumerate(series):
        data = [[r.scores[p] for r in records] for p in range(seats)]
        pos = [p + (k - (len(series) - 1) / 2) * width for p in range(seats)]
        box = ax.boxplot(
            data,
            positions=pos,
            widths=width * 0.9,
            patch_artist=True,
            manage_ticks=False,
            medianprops={"color": MEDIAN, "linewidth": 2},
        )
        for patch in box["boxes"]:
            patch.set_facecolor(COLOURS[k % len(COLOURS)])
            patch.set_alpha(0.7)
        means = [mean_interval([float(x) for x in d]) for d in data]
        ax.errorbar(
            pos,
            [m["mean"] for m in means],
            yerr=[[m["mean"] - m["low"] for m in means], [m["high"] - m["mean"] for m in means]],
            fmt="D",
            color=MEDIAN,
            markerfacecolor="white",
            capsize=4,
            label="mean (95% interval)" if k == 0 else None,
        )
        ax.plot([], [], color=COLOURS[k % len(COLOURS)], label=label or "scores", linewidth=6)
    names = series[0][1][0].names
    ax.set_xticks(range(seats), [f"{p} {names[p]}" for p in range(seats)])
    ax.set_ylabel("final score (box: quartiles, black line: median)")
    ax.set_title(title)
    ax.legend(fontsize="small")
    return _save(fig, path)


def part_plot(path: Path, series: list[tuple[str, dict[str, Any]]], names: list[str], title: str) -> str:
    """One score part (or several): the mean per seat with its 95 % interval, one colour per series.
    Each series is (label, a score-part row of the summary: overall and per-seat intervals)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4))
    labels = [f"{p} {names[p]}" for p in range(len(names))] + ["all"]
    width = 0.8 / len(series)
    for k, (label, row) in enumerate(series):
        stats = [*row["seats"], row["overall"]]
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(labels))]
        mids = [s["mean"] for s in stats]
        errs = [[s["mean"] - s["low"] for s in stats], [s["high"] - s["mean"] for s in stats]]
        ax.bar(xs, mids, width, yerr=errs, capsize=4, color=COLOURS[k % len(COLOURS)], label=label or None)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("mean (95% interval)")
    ax.set_title(title)
    if len(series) > 1:
        ax.legend()
    return _save(fig, path)


def slug(text: str) -> str:
    """A file-name part for a label: letters and digits, the rest as single dashes."""
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    return "-".join(w for w in out.split("-") if w) or "part"


def length_plot(path: Path, series: list[tuple[str, list[GameRecord]]], title: str) -> str:
    """Game length in decisions (histograms, overlaid)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4))
    values = [[r.decisions for r in recs] for _, recs in series]
    lo = min(min(v) for v in values)
    hi = max(max(v) for v in values)
    bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 25 or 1)))
    for k, (label, _) in enumerate(series):
        ax.hist(
            values[k],
            bins=bins,
            alpha=0.6 if len(series) > 1 else 1.0,
            color=COLOURS[k % len(COLOURS)],
            label=label,
        )
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title(title)
    if len(series) > 1:
        ax.legend()
    return _save(fig, path)


def write_page(folder: Path, title: str, lines: list[str], images: list[tuple[str, str]]) -> Path:
    """index.html: the title, a list of the plots (links to their sections), every plot under its
    heading, and the summary text."""
    index = "\n".join(f'<li><a href="#{html.escape(f)}">{html.escape(h)}</a></li>' for f, h in images)
    body = "\n".join(
        f'<h2 id="{html.escape(f)}">{html.escape(h)}</h2>\n'
        f'<p><img src="{html.escape(f)}" alt="{html.escape(h)}"></p>'
        for f, h in images
    )
    text = html.escape("\n".join(lines))
    page = folder / "index.html"
    page.write_text(
        f"<!doctype html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>\n"
        f"<body>\n<h1>{html.escape(title)}</h1>\n<ul>\n{index}\n</ul>\n{body}\n"
        f"<h2>Summary</h2>\n<pre>{text}</pre>\n</body></html>\n",
        encoding="utf-8",
    )
    return page


def _prepare(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CliError(f"--plot {folder}: {err.strerror}") from None


def _part_plots(
    folder: Path, sides: list[tuple[str, dict[str, Any]]], names: list[str], title: str
) -> list[tuple[str, str]]:
    """One plot per score part of the game (`part-<label>.png`), every side's bars together."""
    rows = [{r["name"]: r for r in data["score_parts"]} for _, data in sides]
    out = []
    for part in rows[0]:
        series = [(label, row[part]) for (label, _), row in zip(sides, rows, strict=True) if part in row]
        heading = f"{title}score part {part}"
        out.append((part_plot(folder / f"part-{slug(part)}.png", series, names, heading), heading))
    return out


def simulate_plots(folder: Path, data: dict[str, Any], records: list[GameRecord]) -> Path:
    """The charts of one simulate run, and their page."""
    from tabula.balance.report import summary_lines

    _prepare(folder)
    names = records[0].names
    title = f"{data['game']}: {data['games']} games"
    images = [
        (
            win_rate_plot(folder / "win_rate.png", [("", data)], names, f"{title}: win rate by seat"),
            "win rate",
        ),
        (score_plot(folder / "scores.png", [("", records)], f"{title}: scores"), "scores"),
        (length_plot(folder / "length.png", [("", records)], f"{title}: game length"), "game length"),
    ]
    if len(data["by_bot"]) > 1:
        rate = bot_rate_plot(folder / "win_rate_by_bot.png", data, f"{title}: win rate by bot")
        images.insert(1, (rate, "win rate by bot"))
    images += _part_plots(folder, [("", data)], names, "")
    return write_page(folder, title, summary_lines(data, names), images)


def compare_plots(
    folder: Path,
    result: dict[str, Any],
    a: tuple[dict[str, Any], list[GameRecord]],
    b: tuple[dict[str, Any], list[GameRecord]],
    lines: list[str],
) -> Path:
    """The charts of a comparison (A and B together), and their page."""
    _prepare(folder)
    la, lb = f"A {result['a']['label']}", f"B {result['b']['label']}"
    names = a[1][0].names
    title = f"{result['game']}: {la}, {lb}"
    images = [
        (
            win_rate_plot(folder / "win_rate.png", [(la, a[0]), (lb, b[0])], names, "win rate by seat"),
            "win rate",
        ),
        (score_plot(folder / "scores.png", [(la, a[1]), (lb, b[1])], "scores"), "scores"),
        (length_plot(folder / "length.png", [(la, a[1]), (lb, b[1])], "game length"), "game length"),
    ]
    images += _part_plots(folder, [(la, a[0]), (lb, b[0])], names, "")
    return write_page(folder, title, lines, images)
