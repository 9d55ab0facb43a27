"""Which card is too strong? What each card did for its player, by card kind, with the lift of winning.

A card that merely passes through a hand says nothing (in Glory to Rome almost every card does), so a
row is a card and what its player did with it:

- `chose`: the card was named in one of the player's own choices (played, bought, built with: an
  action's argument, `found:Statue#1`);
- `in ZONE`: the card lay in one of the player's zones at the end of the game (`in buildings`: built;
  `in vault`: scored), each zone a row of its own.

`scored with` (`scored_table`) is what the card was worth at the end: for each `in ZONE` row, the
points of its holder's final score that depend on the card (the score minus the score with the card
taken out of play, `tabula.balance.measures.scored_with`), a mean over the player-games that held it
and one over every player-game (zero where it was not held: what the card adds to an average player),
each with its 95 % interval; the rows of a zone are ranked by the second (docs/balancing.md says why).

Rows are grouped by the card's kind (its component type: `order`, `site`, `honour_card`) and named by
the card's name; `--cards TYPE` keeps one kind. The statistics are those of `tabula.balance.lift`:
the win rate of the players who did it against those who did not, the lift by seat with its 95 %
interval (within [-1, 1]), Benjamini-Hochberg over the rows; a row with fewer than 10 player-games on
either side is `too few games` and is not tested.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from tabula.balance.lift import lift_table
from tabula.balance.match import GameRecord
from tabula.balance.stats import benjamini_hochberg, mean_diff, mean_interval, two_proportion_z

CARD_ROWS = 8  # per kind in the text (--cards TYPE shows more)
SEP = "\t"


def _did(rec: GameRecord, p: int) -> dict[str, int]:
    out: Counter[str] = Counter()
    for name, k in (rec.used[p] if p < len(rec.used) else {}).items():
        out[f"{name}{SEP}chose"] += k
    for key, k in (rec.ended[p] if p < len(rec.ended) else {}).items():
        name, _, zone = key.partition("@")
        out[f"{name}{SEP}in {zone}"] += k
    return dict(out)


def _won(rec: GameRecord, p: int) -> bool:
    return rec.winners == [p]


def card_table(records: list[GameRecord], kind: str | None = None) -> list[dict[str, Any]]:
    """One row per card and what was done with it, with its kind; `kind` keeps one card kind."""
    kinds: dict[str, str] = {}
    for rec in records:
        kinds.update(rec.kinds)
    if kind is not None:
        records = [_only(rec, kinds, kind) for rec in records]
    rows = lift_table(records, _did, _won)
    for row in rows:
        card, _, did = row["name"].partition(SEP)
        row.update(card=card, did=did, kind=kinds.get(card, "?"))
    return rows


def _only(rec: GameRecord, kinds: dict[str, str], kind: str) -> GameRecord:
    """The record with only the cards of one kind (the win counts stay whole)."""
    from dataclasses import replace

    def keep(d: dict[str, int]) -> dict[str, int]:
        return {k: v for k, v in d.items() if kinds.get(k.partition("@")[0]) == kind}

    return replace(rec, used=[keep(u) for u in rec.used], ended=[keep(e) for e in rec.ended])


def card_kinds(records: list[GameRecord]) -> list[str]:
    """Every card kind seen in the records, sorted."""
    return sorted({k for rec in records for k in rec.kinds.values()})


def card_lines(rows: list[dict[str, Any]], limit: int = CARD_ROWS) -> list[str]:
    """Per kind: the tested rows (significant first, then by p), a line for the too-few and folded."""
    out: list[str] = []
    for kind in sorted({r["kind"] for r in rows}):
        mine = [r for r in rows if r["kind"] == kind]
        tested = [r for r in mine if not r["folded"] and not r["too_few"]]
        few = [r for r in mine if r["too_few"]]
        folded = [r for r in mine if r["folded"]]
        out += [
            "",
            f"cards: {kind:<17} {'did':<30} {'/game':>6} {'players':>7} {'win if did':>10} {'if not':>7} "
            f"{'lift by seat [95% CI]':>24} {'p':>7}",
        ]
        for r in tested[:limit]:
            out.append(_row(r))
        if len(tested) > limit:
            out.append(f"... {len(tested) - limit} more (--cards {kind}, or all of them in --json)")
        if few:
            out.append(f"too few games to say (under 10 player-games on a side): {len(few)} rows, in --json")
        if folded:
            out.append(f"folded (done by nearly every player in nearly every game): {len(folded)} rows")
    return out


def _row(r: dict[str, Any]) -> str:
    d = r["lift"]
    flag = "  significant" if r["flagged"] else ""
    did, miss = r["win_rate_did"], r["win_rate_not"]
    return (
        f"{r['card'][:24]:<24} {r['did'][:30]:<30} {r['per_game']:>6.1f} {r['share']:>7.0%} "
        f"{did['rate']:>10.1%} {miss['rate']:>7.1%} "
        f"{d['lift']:>+7.1%} [{d['low']:+.1%}, {d['high']:+.1%}] {d['p']:>7.2g}{flag}"
    )


def scored_table(records: list[GameRecord], kind: str | None = None) -> list[dict[str, Any]]:
    """Per card and where it lay at the end (`in ZONE, flags`): the points of its holder's final score
    that depend on it (finished games). `n`, `mean`, `low`, `high`: over the player-games that held it,
    with its 95 % interval; `per_player`: over every player-game (zero where the player did not hold
    it: what the card adds to an average player, how often it is held times what it is worth), with
    `players` the player-games in all and `share` the part that held it. By kind, then the most points
    per player-game first within each zone (a card in the vault scores what any card would there: it is
    not compared with the buildings). `kind` keeps one card kind."""
    kinds, points = scored_points(records)
    everyone = sum(len(rec.scored) for rec in records)
    rows: list[dict[str, Any]] = []
    for key, values in points.items():
        card, _, where = key.partition("@")
        if kind is not None and kinds.get(card) != kind:
            continue
        row = {"card": card, "did": f"in {where}", "kind": kinds.get(card, "?"), **mean_interval(values)}
        row["zone"] = where.partition(",")[0]
        zeros = [0.0] * max(everyone - len(values), 0)
        row.update(players=everyone, share=len(values) / max(everyone, 1))
        row["per_player"] = mean_interval([*values, *zeros])
        rows.append(row)
    rows.sort(key=lambda r: (r["kind"], r["zone"], -r["per_player"]["mean"], -r["mean"], r["card"], r["did"]))
    return rows


def scored_points(records: list[GameRecord]) -> tuple[dict[str, str], dict[str, list[float]]]:
    """(card -> kind, `name@where` -> the points it scored, one per player-game that held it there)."""
    kinds: dict[str, str] = {}
    points: dict[str, list[float]] = {}
    for rec in records:
        kinds.update(rec.kinds)
        for held, scored in zip(rec.ended, rec.scored, strict=False):
            for key in held:
                points.setdefault(key, []).append(scored.get(key, 0))
    return kinds, points


def scored_diffs(ra: list[GameRecord], rb: list[GameRecord], watched: list[str]) -> list[dict[str, Any]]:
    """Per card and where it lay at the end, held on both sides: what it scored a player in A and in
    B (mean, 95 % interval) and B - A (Welch: the player-games that held it differ between the runs),
    and the same over every player-game of a side (`a_per_player`, `b_per_player`, `per_player_diff`:
    zero where not held, as simulate's `per_player`); the watched cards' rows first, then the largest
    differences."""
    kinds, pa = scored_points(ra)
    kinds_b, pb = scored_points(rb)
    kinds.update(kinds_b)
    everyone_a, everyone_b = (sum(len(rec.scored) for rec in side) for side in (ra, rb))
    rows: list[dict[str, Any]] = []
    for key in sorted(set(pa) & set(pb)):
        a, b = pa[key], pb[key]
        if not any(a) and not any(b):
            continue
        card, _, where = key.partition("@")
        all_a = [*a, *[0.0] * max(everyone_a - len(a), 0)]  # every player-game: zero where not held
        all_b = [*b, *[0.0] * max(everyone_b - len(b), 0)]
        rows.append(
            {
                "card": card,
                "did": f"in {where}",
                "kind": kinds.get(card, "?"),
                "watched": card in watched,
                "a": mean_interval(a),
                "b": mean_interval(b),
                "diff": mean_diff(a, b).as_dict(),
                "a_per_player": mean_interval(all_a),
                "b_per_player": mean_interval(all_b),
                "per_player_diff": mean_diff(all_a, all_b).as_dict(),
            }
        )
    rows.sort(key=lambda r: (not r["watched"], -abs(r["diff"]["diff"]), r["card"], r["did"]))
    return rows


def scored_diff_lines(rows: list[dict[str, Any]], limit: int = 6) -> list[str]:
    """The watched cards' rows and the largest other differences of what a card scored, as text:
    `Statue  in buildings, completed, placed  A 3.00 [3.0, 3.0] n=3 -> B 6.00 [6.0, 6.0] n=3  +3.00 [..]`."""
    moved = [r for r in rows if not r["watched"] and r["diff"]["diff"] != 0][:limit]
    shown = [r for r in rows if r["watched"]] + moved
    if not shown:
        return []
    head = (
        f"{'scored with: card':<24} {'where':<40} {'  A: points a player':<26}    {'  B':<26}  B-A [95% CI]"
    )
    out = ["", head]
    for r in shown:
        a, b, d = r["a"], r["b"], r["diff"]
        mark = " (changed by B)" if r["watched"] else ""
        ci = f"[{d['low']:+.2f}, {d['high']:+.2f}]" if min(a["n"], b["n"]) > 1 else "(one player on a side)"
        name = f"{r['card'][:24]:<24} {r['did'][:40]:<40}"
        out.append(f"{name} {_mean(a)} -> {_mean(b)} {d['diff']:+6.2f} {ci}{mark}")
    return out


def _mean(m: dict[str, float]) -> str:
    ci = f"[{m['low']:.1f}, {m['high']:.1f}]" if m["n"] > 1 else "(one)"
    return f"{m['mean']:6.2f} {ci:<12} n={m['n']:<5}".rstrip().ljust(26)


def scored_lines(rows: list[dict[str, Any]], limit: int = CARD_ROWS) -> list[str]:
    """Per kind and zone: the rows whose cards scored something, the most points per player-game first."""
    out: list[str] = []
    for kind, zone in sorted({(r["kind"], r["zone"]) for r in rows}):
        mine = [r for r in rows if (r["kind"], r["zone"]) == (kind, zone) and (r["mean"] or r["sd"])]
        if not mine:
            continue
        head = f"scored with: {f'{kind} in {zone}':<48} {'held by':>11} {'points [95% CI] a holder':>25}"
        out += ["", f"{head}  {'a player-game [95% CI]':>24}"]
        for r in mine[:limit]:
            ci = f"[{r['low']:.1f}, {r['high']:.1f}]" if r["n"] > 1 else "(one player)"
            m, held = r["per_player"], f"{r['n']} of {r['players']}"
            line = f"{r['card'][:24]:<24} {r['did'][:36]:<36} {held:>11} {r['mean']:>8.2f} {ci:<16}"
            out.append(f"{line}  {m['mean']:>8.2f} [{m['low']:.2f}, {m['high']:.2f}]")
        if len(mine) > limit:
            out.append(f"... {len(mine) - limit} more (--cards {kind}, or all of them in --json)")
    return out


def changed_cards(game_folder: str, variant: str | None) -> list[str]:
    """The cards a variant pack changes: the `instances[NAME]` its `replace:` paths reach under
    `components.` (a compare watches these first)."""
    if not variant:
        return []
    from ruamel.yaml import YAML

    from tabula.interpreter.load.overlay import parse_path
    from tabula.interpreter.load.packfiles import find_pack

    path = find_pack(Path(game_folder), variant, "variant")
    if path is None:
        return []
    pack = YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}
    out: list[str] = []
    for key in pack.get("replace") or {}:
        parts = parse_path(str(key)) or []
        if parts and parts[0][0] == "components":
            out += [sel for _, sel in parts if sel is not None and sel not in out]
    return out


def card_diffs(ra: list[GameRecord], rb: list[GameRecord], watched: list[str]) -> list[dict[str, Any]]:
    """Per card and what was done with it: the win rate of the players who did it in A and in B, and
    B - A with its 95 % interval and p (two-proportion z-test); the watched cards' rows first, then
    the others by p."""
    ta = {r["name"]: r for r in card_table(ra)}
    tb = {r["name"]: r for r in card_table(rb)}
    rows = []
    for name in sorted(set(ta) & set(tb)):
        a, b = ta[name], tb[name]
        if a["too_few"] or b["too_few"] or a["folded"] or b["folded"]:
            continue
        wa, wb = a["win_rate_did"], b["win_rate_did"]
        d = two_proportion_z(wa["k"], wa["n"], wb["k"], wb["n"]).as_dict()
        rows.append(
            {
                "card": a["card"],
                "did": a["did"],
                "kind": a["kind"],
                "watched": a["card"] in watched,
                "a": wa,
                "b": wb,
                "lift_a": a["lift"],
                "lift_b": b["lift"],
                "diff": d,
            }
        )
    flags = benjamini_hochberg([r["diff"]["p"] for r in rows], 0.05)
    for r, f in zip(rows, flags, strict=True):
        r["flagged"] = f
    rows.sort(key=lambda r: (not r["watched"], r["diff"]["p"]))
    return rows


def card_diff_lines(rows: list[dict[str, Any]], limit: int = 6) -> list[str]:
    """The watched cards' rows and the strongest other changes, as text."""
    if not rows:
        return []
    out = [
        "",
        f"{'card (win rate of who did it)':<24} {'did':<30} {'A':>22} {'B':>22} "
        f"{'B-A [95% CI]':>24} {'p':>7}",
    ]
    shown = [r for r in rows if r["watched"]] + [r for r in rows if not r["watched"]][:limit]
    for r in shown[: limit + len([r for r in rows if r["watched"]])]:
        a, b, d = r["a"], r["b"], r["diff"]
        mark = " (changed by B)" if r["watched"] else ("  significant" if r["flagged"] else "")
        out.append(
            f"{r['card'][:24]:<24} {r['did'][:30]:<30} "
            f"{a['rate']:>6.1%} [{a['low']:.0%}, {a['high']:.0%}] n={a['n']:<4} "
            f"{b['rate']:>6.1%} [{b['low']:.0%}, {b['high']:.0%}] n={b['n']:<4} "
            f"{d['diff']:>+6.1%} [{d['low']:+.1%}, {d['high']:+.1%}] {d['p']:>7.2g}{mark}"
        )
    return out
