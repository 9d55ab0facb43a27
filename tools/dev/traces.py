"""Traces of random games: record them before a change to the engine or a game's encoding, replay
them after it, and see at once whether the game's semantics moved.

A trace file (gzipped JSON lines) holds one configuration of a game — variant, expansions, rules
options, player count — and, for each recorded game, its seed, every choice id taken and a short
hash of the state after every decision (and after setup). Choices are drawn by the bots' own
generator (`bot_generator(seed)`, as `tabula simulate` draws them), so a game is seed + choices.

The hash (`semantic_hash`, model/state.py) covers the whole state except the frame stack (`stk`):
that is how the engine keeps its place inside a running effect, an encoding of its own that may
change while the game does not. The pending decision (who decides, every legal choice id and its
value) is inside the hash, so the same hashes mean the same legal choice lists too.

    tabula trace record porta-nigra --players 2 3 4 --games 200 --out tests/traces
    tabula trace check tests/traces/*.jsonl.gz
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.bots.base import bot_generator
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import SEMANTIC_HASH_CHARS, semantic_hash

FORMAT = 1


@dataclass(frozen=True)
class Config:
    """One configuration of a game: what `load_game` and `new_game` are given."""

    game: str
    players: int
    variant: str | None = None
    expansions: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        parts = [self.game]
        if self.variant:
            parts.append(f"v-{self.variant}")
        parts.extend(f"x-{e}" for e in self.expansions)
        parts.extend(f"{k}-{v}" for k, v in sorted(self.options.items()))
        parts.append(f"{self.players}p")
        return "_".join(str(p) for p in parts)

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "expansions": list(self.expansions),
            "options": self.options,
        }

    @staticmethod
    def from_header(h: dict[str, Any]) -> Config:
        return Config(
            h["game"],
            int(h["players"]),
            h.get("variant"),
            tuple(h.get("expansions", [])),
            dict(h.get("options", {})),
        )


@dataclass
class Trace:
    """One recorded game."""

    seed: int
    choices: list[str]
    hashes: list[str]  # after setup, then after each choice


def engine_for(cfg: Config) -> Engine:
    return Engine(load_game(cfg.game, cfg.options or None, cfg.variant, cfg.expansions))


def play(engine: Engine, cfg: Config, seed: int, limit: int) -> Trace:
    """A random game (the bots' generator seeded from `seed`), recorded."""
    st = engine.new_game(cfg.players, seed)
    gen = bot_generator(seed)
    trace = Trace(seed, [], [semantic_hash(st)])
    while st["dec"] is not None and len(trace.choices) < limit:
        ids = st["dec"]["ids"]
        choice = ids[rng.below(gen, len(ids))]
        engine.apply_inplace(st, choice)
        trace.choices.append(choice)
        trace.hashes.append(semantic_hash(st))
    return trace


def record(cfg: Config, games: int, seed: int = 1, limit: int = 5000) -> list[Trace]:
    engine = engine_for(cfg)
    return [play(engine, cfg, seed + i, limit) for i in range(games)]


def write(path: Path, cfg: Config, traces: list[Trace]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same traces give the same bytes
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write((json.dumps(cfg.header(), sort_keys=True) + "\n").encode())
        for t in traces:
            line = {"seed": t.seed, "choices": t.choices, "hashes": "".join(t.hashes)}
            f.write((json.dumps(line, separators=(",", ":")) + "\n").encode())


def read(path: Path) -> tuple[Config, Iterator[Trace]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    cfg = Config.from_header(json.loads(lines[0]))

    def traces() -> Iterator[Trace]:
        for line in lines[1:]:
            d = json.loads(line)
            h = d["hashes"]
            yield Trace(
                int(d["seed"]),
                list(d["choices"]),
                [h[i : i + SEMANTIC_HASH_CHARS] for i in range(0, len(h), SEMANTIC_HASH_CHARS)],
            )

    return cfg, traces()


@dataclass
class Divergence:
    """Where a replay first differs from its trace."""

    seed: int
    decision: int  # 0: right after setup
    message: str

    def __str__(self) -> str:
        return f"seed {self.seed}, decision {self.decision}: {self.message}"


def replay(engine: Engine, cfg: Config, trace: Trace) -> Divergence | None:
    """Replay one trace; the first difference, or None when every hash matches."""
    st = engine.new_game(cfg.players, trace.seed)
    got = semantic_hash(st)
    if got != trace.hashes[0]:
        return Divergence(trace.seed, 0, f"state after setup {got} != {trace.hashes[0]}")
    for i, choice in enumerate(trace.choices, start=1):
        if st["dec"] is None or choice not in st["dec"]["ids"]:
            legal = [] if st["dec"] is None else st["dec"]["ids"]
            return Divergence(trace.seed, i, f"{choice!r} is not legal now (legal: {legal[:8]})")
        engine.apply_inplace(st, choice)
        got = semantic_hash(st)
        if got != trace.hashes[i]:
            return Divergence(trace.seed, i, f"state after {choice!r}: {got} != {trace.hashes[i]}")
    return None


def check(path: Path, first: int | None = None) -> tuple[int, list[Divergence]]:
    """Replay the traces of one file (the first `first` games only, if given): (games, divergences)."""
    cfg, traces = read(path)
    engine = engine_for(cfg)
    out: list[Divergence] = []
    n = 0
    for i, t in enumerate(traces):
        if first is not None and i >= first:
            break
        n += 1
        d = replay(engine, cfg, t)
        if d is not None:
            out.append(d)
    return n, out


# ------------------------------------------------------------------ the command line


def run_trace(args: Any) -> int:
    """`tabula trace record ...` / `tabula trace check FILE...`."""
    from tabula.common import chosen_options, load

    if args.trace_command == "record":
        out = Path(args.out)
        # the --option values as the game reads them (typed), so that the header replays them
        options = chosen_options(load(args.game, args.option, args.variant, args.expansions), args.option)
        for players in args.players:
            cfg = Config(args.game, players, args.variant, tuple(args.expansions), options)
            traces = record(cfg, args.games, args.seed, args.max_decisions)
            path = out / f"{cfg.label()}.jsonl.gz" if out.suffix != ".gz" else out
            write(path, cfg, traces)
            decisions = sum(len(t.choices) for t in traces)
            print(f"{path}: {len(traces)} games, {decisions} decisions")
        return 0
    failed = 0
    for name in args.files:
        games, divergences = check(Path(name), args.first)
        status = "ok" if not divergences else f"{len(divergences)} diverge"
        print(f"{name}: {games} games replayed, {status}")
        for d in divergences[:5]:
            print(f"  {d}")
        failed += len(divergences)
    return 1 if failed else 0
