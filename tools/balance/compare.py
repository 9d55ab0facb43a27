"""`tabula compare`: two configurations of one game on the same seeds, and whether they differ.

A is the game with the shared flags (`--variant`, `--with`, `--option`, `--bot`); `--a FLAGS` and
`--b FLAGS` add to them for each side (`--b "--variant family"`, `--b "--bot 0=greedy"`). Both
play games on seeds S..S+K-1. Per seat: the win rates with their difference, its 95 % interval and
a two-proportion z-test; the mean scores with a paired bootstrap (same seeds) of the difference;
game length likewise. In the game's own terms: each part of `presentation.score` and every counter
and numeric var at the end, B - A overall and per seat, paired by seed (normal intervals). The
verdict line counts a difference when it survives Holm's correction over every test (so many
measures do not make chance findings likely) and names the changes in the game's terms first,
largest first, and game length last.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabula.balance.cards import card_diff_lines, card_diffs, changed_cards, scored_diff_lines, scored_diffs
from tabula.balance.defaults import RANDOM_WARNING
from tabula.balance.match import Config, GameRecord
from tabula.balance.sequential import minimum_detectable
from tabula.balance.simulate import (
    EXIT_INTERRUPTED,
    add_bot_options,
    add_run_options,
    config_from,
    default_bots,
    report_failure,
    run_games,
)
from tabula.balance.stats import (
    BOOTSTRAP_ROUNDS,
    bootstrap_diff,
    holm,
    mean_interval,
    paired_diff,
    two_proportion_z,
)
from tabula.balance.summary import header, summarize
from tabula.balance.until import add_until_options, compare_status, compare_status_line, share
from tabula.common import CliError, Once, load, parse_option

ALPHA = 0.05
VERDICT_ITEMS = 6


def side_parser() -> argparse.ArgumentParser:
    """The flags one side (--a or --b) may add."""
    p = argparse.ArgumentParser(prog="--a/--b", add_help=False, exit_on_error=False)
    p.add_argument("--variant", action=Once)
    p.add_argument("--with", dest="expansions", action="append", default=[])
    p.add_argument("--option", action="append", type=parse_option, default=[])
    p.add_argument("--bot", action="append", default=[])
    return p


def side_defaults(args: argparse.Namespace) -> str:
    """The default bot (chosen once, on A, for both sides' games) for every side without --bot."""
    sides = [side_args(args, flags)[0] for flags in (args.a, args.b)]
    if all(side.bot for side in sides):
        return ""
    base = side_args(args, args.a)[0]
    base.bot = []
    # every game the run may play: with --until-decided up to --max-games a side, as simulate counts
    games = args.max_games if getattr(args, "until_decided", False) else args.games
    note, _ = default_bots(base, 2 * games)  # a failing rule: the run reports it
    if not any(side.bot for side in sides):
        args.bot = base.bot  # the shared flags: the sides' labels stay what was typed
        return note
    for name in ("a", "b"):
        if not side_args(args, getattr(args, name))[0].bot:
            setattr(args, name, f"{getattr(args, name) or ''} --bot {base.bot[0]}".strip())
    return note


def side_args(args: argparse.Namespace, flags: str | None) -> tuple[argparse.Namespace, str]:
    """The arguments of one side (the shared ones plus its own), and a label for it."""
    try:
        own = side_parser().parse_args(shlex.split(flags or ""))
    except (argparse.ArgumentError, ValueError, SystemExit) as err:
        raise CliError(f"cannot read {flags!r}: {err}") from None
    merged = argparse.Namespace(**vars(args))
    merged.variant = own.variant or args.variant
    merged.expansions = [*args.expansions, *own.expansions]
    merged.option = [*(args.option or []), *own.option]
    merged.bot = [*(args.bot or []), *own.bot]
    return merged, (flags or "").strip() or "base"


def _seat_rows(
    da: dict[str, Any], db: dict[str, Any], ra: list[GameRecord], rb: list[GameRecord]
) -> list[dict[str, Any]]:
    rows = []
    for sa, sb in zip(da["seats"], db["seats"], strict=True):
        p = sa["seat"]
        rows.append(
            {
                "seat": p,
                "name": ra[0].names[p],
                "win_rate_a": sa["win_rate"],
                "win_rate_b": sb["win_rate"],
                "win_rate_diff": two_proportion_z(sa["wins"], sa["games"], sb["wins"], sb["games"]).as_dict(),
                "score_a": sa["score"]["mean"],
                "score_b": sb["score"]["mean"],
                "score_diff": bootstrap_diff(
                    [r.scores[p] for r in ra], [r.scores[p] for r in rb], seed=p, paired=len(ra) == len(rb)
                ).as_dict(),
            }
        )
    return rows


def _length(ra: list[GameRecord], rb: list[GameRecord], key: str) -> dict[str, float]:
    a = [float(getattr(r, key)) for r in ra]
    b = [float(getattr(r, key)) for r in rb]
    return {
        "a": sum(a) / len(a),
        "b": sum(b) / len(b),
        **bootstrap_diff(a, b, seed=99, paired=len(a) == len(b)).as_dict(),
    }


def p_text(p: float) -> str:
    """`p=0.012`, or `p<0.001` when no bootstrap resample crossed zero (p is twice the share)."""
    return f"p<{2 / BOOTSTRAP_ROUNDS:.2g}" if p == 0 else f"p={p:.2g}"


def spread(data: dict[str, Any]) -> float:
    """How unequal the seats are: the highest seat win rate minus the lowest."""
    rates = [s["win_rate"]["rate"] for s in data["seats"]]
    return max(rates) - min(rates) if rates else 0.0


Read = Callable[[GameRecord], list[dict[str, float]]]


def _names(records: list[GameRecord], read: Read) -> list[str]:
    names: list[str] = []
    for rec in records:
        for values in read(rec):
            names.extend(k for k in values if k not in names)
    return names


def _diff(a: list[float], b: list[float]) -> dict[str, float]:
    """Means of A and B, B - A with its 95 % interval and p (paired by seed when the runs match)."""
    return {
        "a": sum(a) / len(a) if a else 0.0,
        "b": sum(b) / len(b) if b else 0.0,
        "sd_a": mean_interval(a)["sd"],
        **paired_diff(a, b).as_dict(),
    }


def measure_diffs(ra: list[GameRecord], rb: list[GameRecord], read: Read) -> list[dict[str, Any]]:
    """For each per-player measure (a score part, a counter): B - A overall (each game's mean over
    the seats, paired by seed) and per seat."""
    seats = len(ra[0].names)
    rows = []
    for name in _names(ra + rb, read):
        pairs = [(read(x), read(y)) for x, y in zip(ra, rb, strict=False)]
        both = [(x, y) for x, y in pairs if all(name in x[p] and name in y[p] for p in range(seats))]
        overall = _diff(
            [sum(x[p][name] for p in range(seats)) / seats for x, _ in both],
            [sum(y[p][name] for p in range(seats)) / seats for _, y in both],
        )
        by_seat = [_diff([x[p][name] for x, _ in both], [y[p][name] for _, y in both]) for p in range(seats)]
        rows.append({"name": name, **overall, "seats": by_seat})
    return rows


def table_diffs(ra: list[GameRecord], rb: list[GameRecord]) -> list[dict[str, Any]]:
    """B - A of each counter and numeric var of the table, paired by seed."""
    rows = []
    for name in _names(ra + rb, lambda r: [r.table]):
        both = [(x.table[name], y.table[name]) for x, y in zip(ra, rb, strict=False) if name in x.table]
        rows.append({"name": name, **_diff([x for x, _ in both], [y for _, y in both])})
    return rows


def verdict_tests(result: dict[str, Any]) -> list[tuple[int, str, dict[str, float], str]]:
    """(rank, label, difference, kind) of every test the verdict weighs, in the order it names
    them: score parts, then end values, then win rates and scores by seat, game length last."""
    tests = [(0, f"{r['name']} (score part)", r, "num") for r in result["score_parts"]]
    tests += [(1, f"{r['name']} at the end", r, "num") for r in result["end_values"]]
    tests += [(1, f"{r['name']} at the end (table)", r, "num") for r in result["table_values"]]
    for row in result["seats"]:
        who = f"seat {row['seat']} ({row['name']})"
        tests.append((2, f"{who} win rate", row["win_rate_diff"], "pct"))
        tests.append((2, f"{who} mean score", row["score_diff"], "num"))
    tests.append((3, "game length (turns)", result["turns"], "num"))
    tests.append((3, "game length (decisions)", result["decisions"], "num"))
    return tests


def _size(rank: int, d: dict[str, float]) -> float:
    """How large a change is, to order the verdict: score points as they are, other measures in
    standard deviations of A (a counter's units mean nothing next to another's)."""
    if rank == 0 or not d.get("sd_a"):
        return abs(d["diff"])
    return abs(d["diff"]) / d["sd_a"]


def verdict(result: dict[str, Any]) -> str:
    """One plain sentence: what differs significantly (Holm over every test), largest changes in the
    game's own terms first, game length last; or that nothing does."""
    tests = verdict_tests(result)
    hits = holm([d["p"] for _, _, d, _ in tests], ALPHA)
    found = sorted(
        (t for t, hit in zip(tests, hits, strict=True) if hit), key=lambda t: (t[0], -_size(t[0], t[2]))
    )
    parts = []
    for _, label, d, kind in found:
        if kind == "pct":
            amount = f"{d['diff']:+.1%} [{d['low']:+.1%}, {d['high']:+.1%}]"
        else:
            amount = f"{d['diff']:+.2f} [{d['low']:+.2f}, {d['high']:+.2f}]"
        parts.append(f"{label} {amount} ({p_text(d['p'])})")
    n = result["games"]
    balance = f"seat win rates spread {result['spread_a']:.1%} in A, {result['spread_b']:.1%} in B"
    if not parts:
        return (
            f"verdict: no significant difference between A and B in {n} games each "
            f"(Holm over {len(tests)} tests at {ALPHA:g}); {balance}"
        )
    shown = parts[:VERDICT_ITEMS]
    more = f"; and {len(parts) - len(shown)} more" if len(parts) > len(shown) else ""
    return f"verdict: B differs from A: {'; '.join(shown)}{more}; {balance}"


def compare_lines(result: dict[str, Any]) -> list[str]:
    a, b = result["a"], result["b"]
    lines = [
        f"{result['game']}: {result['games']} games per side on seeds {result['seed']}.."
        f"{result['seed'] + result['games'] - 1}, {result['players']} players",
        f"A: {a['label']}  (bots: {', '.join(a['bots'])})",
        f"B: {b['label']}  (bots: {', '.join(b['bots'])})",
        *([result["bot_choice"]] if result["bot_choice"] else []),
        "",
        f"{'seat':<14} {'A win rate':>22} {'B win rate':>22} {'B-A [95% CI]':>26} {'p':>7}",
    ]
    for row in result["seats"]:
        d = row["win_rate_diff"]
        wa, wb = row["win_rate_a"], row["win_rate_b"]
        lines.append(
            f"{row['seat']} {row['name']:<12} {wa['rate']:>6.1%} [{wa['low']:.0%}, {wa['high']:.0%}]      "
            f"{wb['rate']:>6.1%} [{wb['low']:.0%}, {wb['high']:.0%}]     "
            f"{d['diff']:+7.1%} [{d['low']:+.1%}, {d['high']:+.1%}] {d['p']:>7.3f}"
        )
    lines += ["", f"{'mean score':<14} {'A':>9} {'B':>9} {'B-A [95% CI, paired bootstrap]':>34} {'p':>7}"]
    for row in result["seats"]:
        d = row["score_diff"]
        lines.append(
            f"{row['seat']} {row['name']:<12} {row['score_a']:>9.2f} {row['score_b']:>9.2f} "
            f"{d['diff']:+12.2f} [{d['low']:+.2f}, {d['high']:+.2f}]      {d['p']:>7.3f}"
        )
    for key in ("turns", "decisions"):
        d = result[key]
        lines.append(
            f"{key:<14} {d['a']:>9.2f} {d['b']:>9.2f} {d['diff']:+12.2f} "
            f"[{d['low']:+.2f}, {d['high']:+.2f}]      {d['p']:>7.3f}"
        )
    lines += diff_lines("score part", result["score_parts"])
    lines += diff_lines("at the end, per player", result["end_values"])
    lines += diff_lines("at the end, on the table", result["table_values"])
    lines += ["", "endings:"]
    for label, side in (("A", a), ("B", b)):
        ends = ", ".join(f"{k} {v}" for k, v in side["summary"]["endings"].items())
        lines.append(f"  {label}: {ends}")
        lines += [f"  warning ({label}): {w}" for w in side["summary"]["warnings"]]
    lines += card_diff_lines(result["cards"])
    lines += scored_diff_lines(result["scored_with"])
    m = result["minimum_detectable"]
    lines += ["", *minimum_lines(m, result["verdict"].startswith("verdict: B differs"))]
    if result.get("until_decided"):
        lines.append(compare_status_line(result["until_decided"], m))
    lines += ["", result["verdict"]]
    if any(side["summary"]["notes"] for side in (a, b)):
        lines += ["", f"note: {RANDOM_WARNING}"]
    return lines


def diff_lines(title: str, rows: list[dict[str, Any]]) -> list[str]:
    """A, B and B - A [95% CI] of each measure that varies or moves (the others are left out)."""
    moving = [r for r in rows if r["diff"] != 0 or r["low"] != r["high"]]
    if not moving:
        return []
    out = ["", f"{title:<28} {'A':>9} {'B':>9} {'B-A [95% CI, paired]':>30} {'p':>7}"]
    for r in moving:
        d = f"{r['diff']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}]"
        out.append(f"{r['name'][:28]:<28} {r['a']:>9.2f} {r['b']:>9.2f} {d:>30} {r['p']:>7.3f}")
    return out


def run_compare(args: argparse.Namespace) -> int:
    """Play both configurations on the same seeds and print the comparison (or JSON)."""
    if args.games < 2:
        raise CliError("--games must be at least 2")
    plot_dir = Path(args.plot) if args.plot else None
    if plot_dir is not None:
        from tabula.balance.plots import check_plotting

        check_plotting()
    note = side_defaults(args)
    configs: list[tuple[str, Config, str, int]] = []
    said: set[str] = set()  # why a side runs on Python, said once
    for flags in (args.a, args.b):
        side, label = side_args(args, flags)
        config, name, players = config_from(side, said=said)
        configs.append((label, config, name, players))
    played = play_sides(args, [c for _, c, _, _ in configs])
    if isinstance(played, int):
        return played
    (ra, rb), seconds, decided = played
    games = len(ra)
    sides = [
        (label, config, summarize(records, header(config, name, players, args.seed, note), spent), records)
        for (label, config, name, players), records, spent in zip(configs, (ra, rb), seconds, strict=True)
    ]
    (la, ca, da, ra), (lb, cb, db, rb) = sides
    result: dict[str, Any] = {
        "game": da["game"],
        "games": games,
        "seed": args.seed,
        "players": da["players"],
        "bot_choice": note,
        "a": {"label": la, "bots": list(ca.bots), "summary": da},
        "b": {"label": lb, "bots": list(cb.bots), "summary": db},
        "seats": _seat_rows(da, db, ra, rb),
        "turns": _length(ra, rb, "turns"),
        "decisions": _length(ra, rb, "decisions"),
        "spread_a": spread(da),
        "spread_b": spread(db),
        "score_parts": measure_diffs(ra, rb, lambda r: r.parts),
        "end_values": measure_diffs(ra, rb, lambda r: r.counters),
        "table_values": table_diffs(ra, rb),
        "cards": card_diffs(ra, rb, watched := changed_cards(load_folder(ca), cb.variant)),
        "scored_with": scored_diffs(ra, rb, watched),
        **({"until_decided": decided} if decided else {}),
    }
    result["minimum_detectable"] = minimum_effects(ra, rb, result["seats"])
    result["verdict"] = verdict(result)
    lines = compare_lines(result)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print("\n".join(lines))
    if plot_dir is not None:
        from tabula.balance.plots import compare_plots

        page = compare_plots(plot_dir, result, (da, ra), (db, rb), lines)
        if not args.json:
            print(f"\nplots: {page}")
    return 0


def load_folder(config: Config) -> str:
    """The game folder of a configuration (where its variant packs are looked up)."""
    return str(load(config.game, list(config.options), None, list(config.expansions)).folder)


def play_sides(
    args: argparse.Namespace, configs: list[Config]
) -> tuple[tuple[list[GameRecord], list[GameRecord]], list[float], dict[str, Any]] | int:
    """Both sides' games on the same seeds: all --games at once, or with --until-decided in batches
    of --games until the seats' win shares and scores B - A are decided (or --max-games). An exit code when a
    rule failed or the run was interrupted."""
    records: list[list[GameRecord]] = [[], []]
    seconds = [0.0, 0.0]
    decided: dict[str, Any] = {}
    total = args.max_games if args.until_decided else args.games
    planned = max(4 * args.games, min(total, 200))
    while len(records[0]) < total:
        seeds = [args.seed + len(records[0]) + i for i in range(min(args.games, total - len(records[0])))]
        for k, config in enumerate(configs):
            batch, interrupted, spent = run_games(config, seeds, args)
            failed = [r for r in batch if r.error]
            if failed:
                report_failure(config, failed[0], args.seed)
                return 1
            if interrupted:
                print(f"interrupted while playing {'AB'[k]}: no comparison", file=sys.stderr)
                return EXIT_INTERRUPTED
            records[k] += batch
            seconds[k] += spent
        if args.until_decided:
            decided = compare_status(records[0], records[1], args.tolerance, args.score_tolerance, planned)
            if decided["decided"]:
                break
    return (records[0], records[1]), seconds, decided


def minimum_effects(
    ra: list[GameRecord], rb: list[GameRecord], seats: list[dict[str, Any]]
) -> dict[str, Any]:
    """The smallest true differences these games find with 80 % power (two-sided 5 % tests), each
    for the test the seat table runs: a seat's win rate by the two-proportion z-test (unpaired, at
    the seat's pooled win rate; the largest over the seats), a player's mean score paired by seed
    (the sd of a seat's paired differences). When A and B played the same games (every paired
    difference 0, as random bots do under a rule that changes no move), that sd is 0 and says
    nothing of a change that would alter the games: the sd of the scores themselves stands in.
    `largest`: how large a difference the 95 % intervals of the seat table still allow."""
    n = min(len(ra), len(rb))
    players = len(ra[0].names)
    win = 0.0
    for s in range(players):
        pooled = sum(share(r, s) for r in [*ra[:n], *rb[:n]]) / (2 * n)
        win = max(win, minimum_detectable(math.sqrt(2 * pooled * (1 - pooled)), n))
    score = [b.scores[s] - a.scores[s] for a, b in zip(ra, rb, strict=False) for s in range(players)]
    same = not any(score) and all(a.winners == b.winners for a, b in zip(ra, rb, strict=False))
    if same:
        sd = math.sqrt(
            sum(
                mean_interval([r.scores[s] for r in side])["sd"] ** 2
                for side in (ra, rb)
                for s in range(players)
            )
            / players
        )
    else:
        sd = mean_interval(score)["sd"]  # the seats of one game are not independent: n games
    return {
        "games": n,
        "power": 0.8,
        "win_share": win,
        "score": minimum_detectable(sd, n),
        "same_games": same,
        "largest_win_rate": max(abs(r["win_rate_diff"][k]) for r in seats for k in ("low", "high")),
        "largest_score": max(abs(r["score_diff"][k]) for r in seats for k in ("low", "high")),
    }


def minimum_lines(m: dict[str, Any], found: bool) -> list[str]:
    """The smallest effects the games find (80 % power) and, when nothing was found, how large a
    difference the games rule out."""
    same = (
        " (A and B played the same games: no paired difference, so the spread of the scores stands in)"
        if m["same_games"]
        else ""
    )
    lines = [
        f"smallest effect these {m['games']} games find with 80 % power (two-sided 5 % tests): a seat's "
        f"win rate {m['win_share']:.1%} (two-proportion test), a player's mean score {m['score']:.2f} "
        f"points (paired by seed){same}"
    ]
    if not found:
        lines.append(
            f"no difference larger than {m['largest_win_rate']:.1%} in a seat's win rate or "
            f"{m['largest_score']:.2f} points in a seat's mean score found in {m['games']} games "
            "(the widest ends of their 95 % intervals)"
        )
    return lines


def add_compare_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    add_run_options(p)
    add_bot_options(p)
    p.add_argument("--a", metavar="FLAGS", help='flags of configuration A only, e.g. "--variant short-game"')
    p.add_argument("--b", metavar="FLAGS", help='flags of configuration B only, e.g. "--variant family"')
    add_until_options(p, scores=True)
