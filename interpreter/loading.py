"""Loading a game: a folder (or a bundled name) through the stages to a `CompiledGame`.

`load_game` runs the pipeline with gates between its stages (YAML with positions -> schema -> DSL
parse, check and compile): a stage with errors stops the pipeline and every diagnostic of that
stage is raised at once in an `AuthorError`. `interpreter/engine.py` re-exports it as the public API.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabula.interpreter.base.source import AuthorError, Report, did_you_mean
from tabula.interpreter.load.options import checked_values, declared_specs
from tabula.interpreter.load.packfiles import find_pack
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.run import validate

if TYPE_CHECKING:
    from tabula.interpreter.load.unsaved import Parsed

BUNDLED = Path(__file__).resolve().parent.parent / "gamedefs"

__all__ = ["BUNDLED", "Checked", "check_game", "find_game", "load_game"]


def find_game(name_or_path: str | Path) -> Path:
    """A game folder from a bundled name (a folder of gamedefs/) or a path."""
    p = Path(name_or_path)
    if p.is_dir():
        return p
    bundled = BUNDLED / str(name_or_path)
    if bundled.is_dir():
        return bundled
    report = Report()
    names = sorted(d.name for d in BUNDLED.iterdir() if d.is_dir()) if BUNDLED.is_dir() else []
    report.error(
        "G001",
        f"no game folder or bundled game named '{name_or_path}'",
        None,
        f"bundled games: {', '.join(names) or 'none'}",
    )
    raise AuthorError(report)


def load_game(
    name_or_path: str | Path,
    options: dict[str, Any] | None = None,
    variant: str | None = None,
    expansions: list[str] | tuple[str, ...] = (),
    instrument: bool = False,
) -> CompiledGame:
    """Load, check and compile a game, with a variant and expansions (names shipped beside the game, or
    paths to pack files); raises AuthorError with every diagnostic of the failing stage. An
    `instrument`ed game records the blocks it runs in `game.coverage` (rules coverage)."""
    from tabula.interpreter.compile.python import cache

    validate.load_arguments(name_or_path, options, variant, expansions)
    folder = find_game(name_or_path)
    key = same = None  # the compile cache's key; the key of what reuse_loaded() kept (also without a cache)
    if cache.enabled() or _reused is not None:
        refs = [*([(variant, "variant")] if variant else []), *((e, "expansion") for e in expansions)]
        pack_paths = [(find_pack(folder, ref, kind), kind) for ref, kind in refs]
        if all(p is not None for p, _ in pack_paths):
            same = cache.key(folder, [(p, k) for p, k in pack_paths if p is not None], options, instrument)
            if _reused is not None and same in _reused:
                return _reused[same]
            key = same if cache.enabled() else None
            cached = cache.load(key) if key else None
            if cached is not None:
                return _keep(same, cached, instrument)
    game = _compile(folder, options, variant, expansions, instrument, key)
    game.cache_key = key
    if key is not None:
        cache.store(key, game)
    if same is not None:
        _keep(same, game, instrument)
    return game


# Within `reuse_loaded()`: the games loaded so far, by cache key (the files' contents, the options,
# the packs). One CLI command asks for its game several times (checking its arguments, choosing
# default bots, playing); unpickling a large game each time cost more than the games played.
_reused: dict[str, CompiledGame] | None = None
REUSED_AT_MOST = 8


def _keep(key: str, game: CompiledGame, instrument: bool) -> CompiledGame:
    if _reused is not None and not instrument:  # an instrumented game records what runs: never shared
        if len(_reused) >= REUSED_AT_MOST:
            del _reused[next(iter(_reused))]
        _reused[key] = game
    return game


@contextlib.contextmanager
def reuse_loaded() -> Iterator[None]:
    """Inside: `load_game` of the same files, options and packs gives the same compiled game (read
    only after loading), not a new copy. The CLI runs each command inside it; a test or a library
    caller that changes a game it loaded stays outside and gets its own copy each time."""
    global _reused
    outer, _reused = _reused, {} if _reused is None else _reused
    try:
        yield
    finally:
        _reused = outer


@dataclass
class Checked:
    """What `check_game` found: every diagnostic (the failing stage's errors and every warning before
    them), the merged game data with its positions (None when a file could not be read) and the
    compiled game (None on an error)."""

    report: Report
    source: Any = None  # a load.positions.GameSource
    game: CompiledGame | None = None


def check_game(
    folder: Path,
    variant: str | None = None,
    expansions: list[str] | tuple[str, ...] = (),
    texts: Mapping[Path, str] | None = None,
    parsed: Parsed | None = None,
) -> Checked:
    """The stages of `load_game` for an editor (tabula lsp): never the compile cache, never raises on
    author errors, and the files `texts` names are read as those texts instead of from disk;
    `parsed` keeps the files' parsed YAML from one call to the next (load/unsaved.py)."""
    from tabula.interpreter.load.unsaved import texts_in_place_of_files

    checked = Checked(Report())

    def keep(source: Any) -> None:
        checked.source = source

    with texts_in_place_of_files(texts or {}, parsed):
        try:
            checked.game = _compile(folder, None, variant, expansions, False, None, keep)
        except AuthorError as err:
            checked.report = err.report
            return checked
    checked.report.diagnostics = list(checked.game.check_warnings)
    return checked


def _compile(
    folder: Path,
    options: dict[str, Any] | None,
    variant: str | None,
    expansions: list[str] | tuple[str, ...],
    instrument: bool,
    key: str | None,
    keep: Callable[[Any], None] | None = None,
) -> CompiledGame:
    """The stages of `load_game`, each gated on the one before; `keep` is given the merged source as
    soon as it is read."""
    from tabula.interpreter.authoring.presentation import compile_presentation
    from tabula.interpreter.compile.python.game import compile_game
    from tabula.interpreter.load.gamecheck import validate_game
    from tabula.interpreter.load.gamefolder import load_game_folder
    from tabula.interpreter.load.overlay import apply_packs, load_packs

    report = Report()
    source = load_game_folder(folder, report)
    if keep is not None and source is not None:
        keep(source)
    report.raise_if_errors()
    assert source is not None
    packs = load_packs(folder, variant, expansions, report)
    report.raise_if_errors()
    apply_packs(source, packs, report)
    report.raise_if_errors()
    validate_game(source, report)
    report.raise_if_errors()
    specs = declared_specs(source.data.get("options"))
    chosen = checked_values(specs, options, report)
    report.raise_if_errors()
    game = compile_game(source, report, chosen, instrument, key[:16] if key else None)
    report.raise_if_errors()
    assert game is not None
    game.presentation = compile_presentation(source, game, report)
    report.raise_if_errors()
    game.check_warnings = [d for d in report.diagnostics if d.severity == "warning"]
    game.packs = [p.name for p in packs]
    game.option_specs = specs
    game.load_refs = (variant, tuple(str(e) for e in expansions))
    bots = source.data.get("bots") or {}
    # a list (bots.ladder, bots.concessions) is placed at its first item: errors name that line
    game.bots = {
        k: (v, source.value_origin.get(("bots", k)) or source.value_origin.get(("bots", k, 0)))
        for k, v in bots.items()
    }
    for section in ("counters", "vars"):
        for name, d in (source.data.get(section) or {}).items():
            if isinstance(d, dict) and d.get("guess") is not None:
                game.guesses[name] = (d["guess"], source.value_origin.get((section, name, "guess")))
    if isinstance(deal := bots.get("deal"), dict):  # each condition keeps its own place in the file
        game.bots["deal"] = (
            {z: (t, source.value_origin.get(("bots", "deal", z))) for z, t in deal.items()},
            None,
        )
    _check_guesses_and_deals(source, game, report)
    _audiences(source, game, report)
    report.raise_if_errors()
    return game


def _audiences(source: Any, game: CompiledGame, report: Report) -> None:
    """Each `visible_to:` expression kept as data (`game.audiences`, evaluated by run/audience.py)
    and checked now: a player or a list of players (T008), `owner` bound for a per-player one;
    `visibility:` beside it is E128 (one is the other under another name)."""
    from tabula.interpreter.base.types import ANY, AUDIENCE_WORDS, INT, PLAYER, a, list_of
    from tabula.interpreter.dsl.parser import PlainOrigin
    from tabula.interpreter.load.positions import span_for
    from tabula.interpreter.run.audience import audience

    players = (ANY, PLAYER, INT, list_of(PLAYER), list_of(INT), list_of(ANY))
    for section in ("zones", "counters", "vars"):
        for name, d in (source.data.get(section) or {}).items():
            if not isinstance(d, dict) or d.get("visible_to") is None:
                continue
            where = span_for(source, (section, name, "visible_to"))
            if d.get("visibility") is not None:
                report.error(
                    "E128",
                    f"'{name}' says who sees it twice: visibility and visible_to",
                    where,
                    "keep one; visible_to all/none/owner/others is visibility public/hidden/owner/others",
                )
                continue
            text, origin = d["visible_to"], source.value_origin.get((section, name, "visible_to"))
            if str(text).strip() in AUDIENCE_WORDS:
                continue  # one of the four words (compile/layout.py visibility_of)
            game.audiences[f"to:{section}:{name}"] = (text, origin)
            local = {"owner": PLAYER} if d.get("per") == "player" else {}
            typed = game.snippets.expr_typed(
                str(text), origin or PlainOrigin(f"{game.folder}/{name}"), report, local
            )
            if typed is not None and typed[1] not in players:
                report.error(
                    "T008", f"visible_to needs a player or a list of players, found {a(typed[1])}", where
                )
    if game.audiences:
        game.audience_of = audience


def _check_guesses_and_deals(source: Any, game: CompiledGame, report: Report) -> None:
    """Counters' and vars' `guess:` and `bots: deal:` compiled once at load, so that `tabula check`
    locates their mistakes (their users compile them again, lazily: a compiled game is cached)."""
    from tabula.interpreter.base.types import COMP, INT, PLAYER
    from tabula.interpreter.load.positions import span_for

    for text, origin in game.guesses.values():
        if origin is not None:
            game.snippets.expr(str(text), origin, report, {"owner": PLAYER})
    zones = {z.family or z.name for z in game.zone_layouts}
    for zone, (text, origin) in (game.bots.get("deal", ({}, None))[0] or {}).items():
        if zone not in zones:
            hint = did_you_mean(str(zone), sorted(zones)) or f"zones: {', '.join(sorted(zones))}"
            report.error(
                "B002",
                f"bots.deal names '{zone}', which is no zone of the game",
                span_for(source, ("bots", "deal", zone), key=True),
                hint,
            )
        elif origin is not None:
            game.snippets.expr(str(text), origin, report, {"c": COMP, "q": PLAYER, "i": INT})
