"""`tabula rules GAME`: a card reference rendered from the game's data, to proofread against the cards.

For every component type with instances: what its cards share (properties and their defaults, the
`active` condition, the hooks it declares, the abilities of the type), then each card with its
numbers (its properties, defaults filled in), its printed text, its own abilities and hook bodies,
and where each is written (`file:line`, after the variant and expansions are applied, so a card a
pack adds points into the pack). Markdown (default), HTML, or `--json`.
"""

from __future__ import annotations

import argparse
import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.common import load, options_dict, print_json
from tabula.interpreter.base.source import Report, Span
from tabula.interpreter.base.terminal import shorten
from tabula.interpreter.engine import find_game
from tabula.interpreter.load.positions import GameSource, span_for

_ABILITY_KINDS = ("modifiers", "allow", "deny", "triggers", "hooks")
_NOT_NUMBERS = ("name", "copies", "text", *_ABILITY_KINDS)


@dataclass
class Ability:
    """One ability or hook body: its kind (modifier, allow, deny, trigger, hook), what it applies to,
    its DSL text and where it is written."""

    kind: str
    name: str
    code: str
    at: str

    def as_json(self) -> dict[str, str]:
        return {"kind": self.kind, "name": self.name, "code": self.code, "at": self.at}


@dataclass
class Card:
    """One instance of a component type, as the reference shows it."""

    name: str
    copies: int
    numbers: dict[str, Any]
    text: str | None
    at: str
    abilities: list[Ability] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "copies": self.copies,
            "numbers": self.numbers,
            "text": self.text,
            "at": self.at,
            "abilities": [a.as_json() for a in self.abilities],
        }


@dataclass
class CardType:
    """A component type: what its cards share, and the cards."""

    name: str
    at: str
    properties: dict[str, str]
    defaults: dict[str, Any]
    active: str | None
    hooks: list[tuple[str, str, str]]  # (name, parameters, where)
    abilities: list[Ability]
    cards: list[Card]

    def as_json(self) -> dict[str, Any]:
        return {
            "type": self.name,
            "at": self.at,
            "properties": self.properties,
            "defaults": self.defaults,
            "active": self.active,
            "hooks": [{"name": n, "params": p, "at": a} for n, p, a in self.hooks],
            "abilities": [a.as_json() for a in self.abilities],
            "cards": [c.as_json() for c in self.cards],
        }


def where(span: Span | None, root: Path | None) -> str:
    """`file:line`, the file relative to the game's folder `root` (a pack file elsewhere: as given)."""
    if span is None:
        return "?"
    path = span.file
    if root is not None and Path(path).resolve().is_relative_to(root):
        path = str(Path(path).resolve().relative_to(root))
    return f"{path}:{span.line}"


def _params(entries: list[Any]) -> str:
    parts = []
    for entry in entries or []:
        if isinstance(entry, dict):
            parts += [f"{k}: {v}" for k, v in entry.items()]
        else:
            parts.append(str(entry))
    return ", ".join(parts)


def _abilities(
    src: GameSource, base: tuple[str | int, ...], holder: dict[str, Any], root: Path | None
) -> list[Ability]:
    out: list[Ability] = []

    def at(*path: str | int) -> str:
        return where(span_for(src, (*base, *path)), root)

    for kind, word in (("modifiers", "modifier"), ("allow", "allow"), ("deny", "deny")):
        for name, code in (holder.get(kind) or {}).items():
            codes = code if isinstance(code, list) else [code]
            for c in codes:
                out.append(Ability(word, str(name), str(c).strip(), at(kind, name)))
    for i, trig in enumerate(holder.get("triggers") or []):
        cond = f" where {trig['where']}" if trig.get("where") else ""
        label = f"{trig.get('id') or i}: on {trig.get('on')}{cond}"
        out.append(Ability("trigger", label, str(trig.get("do", "")).strip(), at("triggers", i)))
    # a type declares hooks (shown apart); an instance gives their bodies
    for name, code in (holder.get("hooks") or {}).items() if len(base) > 2 else ():
        out.append(Ability("hook", str(name), str(code).strip(), at("hooks", name)))
    return out


def card_reference(src: GameSource, root: Path | None = None) -> list[CardType]:
    """Every component type with instances, from a game's merged data (packs applied); places are
    shown relative to the game folder `root`."""
    types: list[CardType] = []
    for tname, tdef in (src.data.get("components") or {}).items():
        tdef = tdef or {}
        instances = tdef.get("instances") or []
        if not instances:
            continue
        base: tuple[str | int, ...] = ("components", tname)
        defaults = dict(tdef.get("defaults") or {})
        cards = []
        for i, inst in enumerate(instances):
            ipath = (*base, "instances", i)
            own = {**defaults, **{k: v for k, v in inst.items() if k not in _NOT_NUMBERS}}
            declared = [k for k in tdef.get("properties") or {} if k in own]
            numbers = {k: own[k] for k in [*declared, *(k for k in own if k not in declared)]}
            card = Card(
                str(inst.get("name")),
                int(inst.get("copies", 1)),
                numbers,
                inst.get("text"),
                where(span_for(src, ipath), root),
                _abilities(src, ipath, inst, root),
            )
            cards.append(card)
        hooks = [
            (
                str(h),
                _params((d or {}).get("params") or []),
                where(span_for(src, (*base, "hooks", h), key=True), root),
            )
            for h, d in (tdef.get("hooks") or {}).items()
        ]
        types.append(
            CardType(
                tname,
                where(span_for(src, base, key=True), root),
                {str(k): str(v) for k, v in (tdef.get("properties") or {}).items()},
                defaults,
                str(tdef["active"]).strip() if tdef.get("active") else None,
                hooks,
                _abilities(src, base, tdef, root),
                cards,
            )
        )
    return types


def merged_source(folder: Path, variant: str | None, expansions: list[str]) -> GameSource:
    """The game's data with the packs applied, as the load stage builds it (the game loaded first)."""
    from tabula.interpreter.load.gamefolder import load_game_folder
    from tabula.interpreter.load.generate import expand_generated
    from tabula.interpreter.load.overlay import apply_packs, load_packs

    report = Report()
    source = load_game_folder(folder, report)
    report.raise_if_errors()
    assert source is not None
    apply_packs(source, load_packs(folder, variant, expansions, report), report)
    report.raise_if_errors()
    expand_generated(source, report)  # each generated card as written one by one (`for:`)
    report.raise_if_errors()
    return source


def _value(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def markdown(title: str, types: list[CardType]) -> str:
    """The reference as Markdown."""
    out = [f"# {title}: card reference", ""]
    for t in types:
        count = sum(c.copies for c in t.cards)
        out += [f"## {t.name} ({len(t.cards)} cards, {count} components) — {t.at}", ""]
        if t.properties:
            out.append("Properties: " + ", ".join(f"{k} ({v})" for k, v in t.properties.items()))
        if t.defaults:
            out.append("Defaults: " + ", ".join(f"{k} {_value(v)}" for k, v in t.defaults.items()))
        if t.active:
            out.append(f"Active: `{t.active}`")
        for name, params, at in t.hooks:
            out.append(f"Hook: `{name}({params})` — {at}")
        for a in t.abilities:
            out.append(f"Every {t.name}: {a.kind} `{a.name}`: `{_one_line(a.code)}` — {a.at}")
        out.append("")
        for c in t.cards:
            copies = f" x{c.copies}" if c.copies > 1 else ""
            out += [f"### {c.name}{copies} — {c.at}", ""]
            if c.numbers:
                out += [" · ".join(f"{k} {_value(v)}" for k, v in c.numbers.items()), ""]
            if c.text:
                out += [f"> {c.text}", ""]
            for a in c.abilities:
                if "\n" in a.code:
                    out += [
                        f"- {a.kind} `{a.name}` — {a.at}",
                        "",
                        "  ~~~",
                        *("  " + x for x in a.code.splitlines()),
                        "  ~~~",
                    ]
                else:
                    out.append(f"- {a.kind} `{a.name}`: `{a.code}` — {a.at}")
            if c.abilities:
                out.append("")
    return "\n".join(out).rstrip() + "\n"


def _one_line(code: str) -> str:
    return " ".join(code.split())


def html_page(title: str, types: list[CardType]) -> str:
    """The reference as one HTML page."""
    e = html.escape
    out = [
        "<!doctype html>",
        f"<html><head><meta charset='utf-8'><title>{e(title)}: card reference</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto}.card{border:1px solid #999;"
        "border-radius:6px;padding:.5em 1em;margin:.6em 0}.at{color:#777;font-size:80%}"
        "blockquote{font-style:italic;margin:.4em 1em}pre{background:#f4f4f4;padding:.3em}</style>",
        f"</head><body><h1>{e(title)}: card reference</h1>",
    ]
    for t in types:
        out.append(f"<section><h2>{e(t.name)} <span class='at'>{e(t.at)}</span></h2>")
        if t.active:
            out.append(f"<p>Active: <code>{e(t.active)}</code></p>")
        for name, params, at in t.hooks:
            out.append(f"<p>Hook <code>{e(name)}({e(params)})</code> <span class='at'>{e(at)}</span></p>")
        for a in t.abilities:
            at = f"<span class='at'>{e(a.at)}</span>"
            out.append(f"<p>Every {e(t.name)}: {e(a.kind)} <code>{e(a.name)}</code> {at}</p>")
        for c in t.cards:
            copies = f" x{c.copies}" if c.copies > 1 else ""
            out.append(f"<div class='card'><h3>{e(c.name)}{copies} <span class='at'>{e(c.at)}</span></h3>")
            if c.numbers:
                out.append(
                    "<p>" + " · ".join(f"{e(k)} <b>{e(_value(v))}</b>" for k, v in c.numbers.items()) + "</p>"
                )
            if c.text:
                out.append(f"<blockquote>{e(c.text)}</blockquote>")
            for a in c.abilities:
                out.append(
                    f"<p>{e(a.kind)} <code>{e(a.name)}</code> <span class='at'>{e(a.at)}</span></p>"
                    f"<pre>{e(a.code)}</pre>"
                )
            out.append("</div>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def run_rules(args: argparse.Namespace) -> int:
    """Print the card reference of a game (after its variant and expansions)."""
    game = load(args.game, args.option, args.variant, args.expansions)  # checked like any load
    options_dict(args.option)
    folder = find_game(args.game)
    src = merged_source(folder, args.variant, args.expansions)
    types = card_reference(src, folder.resolve())
    if args.type:
        types = [t for t in types if t.name in args.type]
    title = shorten(game.name) + (f" with {', '.join(game.packs)}" if game.packs else "")
    if args.json:
        print_json(
            {"game": game.id, "name": game.name, "packs": game.packs, "types": [t.as_json() for t in types]}
        )
    elif args.format == "html":
        print(html_page(title, types), end="")
    else:
        print(markdown(title, types), end="")
    return 0


def rules_arguments(p: argparse.ArgumentParser) -> None:
    """`tabula rules GAME [--variant V] [--with X] [--format md|html] [--type T] [--json]`."""
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or HTML")
    p.add_argument("--type", action="append", metavar="TYPE", help="only this component type; repeatable")
    p.add_argument("--json", action="store_true", help="print the reference as JSON")
