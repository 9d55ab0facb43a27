"""The measuring half of `tabula bench`: run in its own process against one version of Tabula.

It uses only the public engine API (so it can measure an older commit too) and prints one JSON object:
per player count, CPU seconds for a fixed set of random games (seeds 1..N, the bots' generator of
`tabula simulate`) played two ways, `step_cpu` (one decision at a time through the engine's API,
as a client that names the choices steps: `is_terminal`, `legal_ids`, `apply_inplace` of an id)
and `playout_cpu` (whole games: `Engine.playouts`, on the native backend all of them in one
native call; `Engine.playout` a game on a commit before it), the decisions they took,
enumerations (the pending window's legal choices recomputed, at windows only on both backends),
clones, views (`Engine.view` of the same states for every seat), and the CPU time of loading the
game. TABULA_BENCH_PLAY_ONLY=step (or 1) plays only the
games step by step, =playout only the playouts (`tabula bench --instructions` counts each apart);
`decisions` is then that way's count.

    python bench_worker.py GAME PLAYERS GAMES [KEY=VALUE ...]
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        out[key] = {"true": True, "false": False}.get(raw, int(raw) if raw.lstrip("-").isdigit() else raw)
    return out


def _enumerator(engine: Any) -> Any:
    """A function recomputing a state's pending window choices (the API moved between versions)."""
    try:
        from tabula.interpreter.run.runtime import Runtime
    except ImportError:  # a commit before the stage folders
        from tabula.interpreter.runtime import Runtime  # type: ignore[import-not-found,no-redef]

    if hasattr(engine, "recompute_decision"):

        def recompute(st: dict[str, Any]) -> int:
            dec = engine.recompute_decision(st)
            return -1 if dec is None else len(dec["ids"])

        return recompute

    def enumerate_now(st: dict[str, Any]) -> int:  # before decisions could be recomputed
        dec = st["dec"]
        if dec is None or dec["k"] != "window":
            return -1
        st = engine.clone(st)  # as recompute_decision does
        fr = st["stk"][-1]
        step = engine.game.blocks[fr[0]][fr[1]]
        rt = Runtime(engine.game, st)
        if hasattr(step, "options"):
            ids, _ = step.options(rt, dec["p"])
        else:
            from tabula.interpreter.compile.stmts import legal_window_options  # type: ignore[import-not-found]

            ids, _ = legal_window_options(rt, dec["p"], step.actions)
        return len(ids)

    return enumerate_now


def _load(load_game: Any, game: str, options: dict[str, Any]) -> Any:
    """The game with its options, and the variant and expansions bench passes in
    TABULA_BENCH_PACKS (JSON: {"variant": name or null, "with": [names]})."""
    packs = json.loads(os.environ.get("TABULA_BENCH_PACKS") or "{}")
    if not packs.get("variant") and not packs.get("with"):
        return load_game(game, options or None)
    return load_game(game, options or None, packs.get("variant"), tuple(packs.get("with") or ()))


def _window(engine: Any, st: Any) -> bool:
    """Whether the pending decision of `st` is a window (the one legal-choice enumeration timed)."""
    plain = engine.plain(st) if hasattr(engine, "plain") else st
    if not isinstance(plain, dict):  # a native state of a commit without plain(): every decision
        return True
    return plain["dec"] is not None and plain["dec"]["k"] == "window"


VIEW_ROUNDS = 3  # times every sampled state is viewed by every seat


def measure(game: str, players: list[int], games: int, options: dict[str, Any]) -> dict[str, Any]:
    try:
        from tabula.interpreter.base import rng
    except ImportError:  # a commit before the stage folders
        from tabula.interpreter import rng  # type: ignore[attr-defined,no-redef]
    from tabula.interpreter.engine import Engine, load_game

    only = os.environ.get("TABULA_BENCH_PLAY_ONLY", "")  # one way of playing alone (counting instructions)
    only = "step" if only == "1" else only
    play_only = only != ""
    backend = os.environ.get("TABULA_BENCH_BACKEND", "python")
    t0 = time.process_time()
    compiled = _load(load_game, game, options)
    load_cpu = time.process_time() - t0
    engine = Engine(compiled) if backend == "python" else Engine(compiled, backend=backend)
    note = ""
    if backend != "python" and engine.backend != backend:  # measured on Python: the report says why
        backend, note = "python", engine.backend_note
    enumerate_now = _enumerator(engine)
    native = getattr(engine, "native", None)
    out: dict[str, Any] = {"load_cpu": load_cpu, "players": {}, "backend": backend, "note": note}
    out["build_cpu"] = native.build_cpu if native is not None else 0.0
    for n in players:
        decisions = 0
        sample: list[Any] = []
        t0 = time.process_time()
        for seed in range(1, games + 1) if only != "playout" else ():
            st = engine.new_game(n, seed)
            gen = rng.seed_state(seed + 0xB07)
            while not engine.is_terminal(st):  # the same API calls on both backends
                if seed == 1 and len(sample) < 400 and not play_only:
                    sample.append(engine.clone(st))
                ids = engine.legal_ids(st)
                engine.apply_inplace(st, ids[rng.below(gen, len(ids))])
                decisions += 1
        play_cpu = time.process_time() - t0
        t0 = time.process_time()
        # whole random games in one call (native code end to end); counting instructions, one way
        # alone, so that its count goes with its own decisions
        if hasattr(engine, "playout") and only in ("", "playout"):
            seeds = list(range(1, games + 1))
            gens = [rng.seed_state(seed + 0xB07) for seed in seeds]
            if hasattr(engine, "playouts"):  # the games in one call (on the native backend)
                played = sum(engine.playouts(n, seeds, gens))
            else:  # a commit before Engine.playouts
                played = sum(
                    engine.playout(engine.new_game(n, s), g) for s, g in zip(seeds, gens, strict=True)
                )
            if only == "playout":
                decisions += played
        playout_cpu = time.process_time() - t0 if hasattr(engine, "playout") else play_cpu
        # windows only, on both backends (a choice's decision is the Python replay's on native)
        windows = [s for s in sample if _window(engine, s)]
        t0 = time.process_time()
        for _ in range(5):
            for s in windows:
                enumerate_now(s)
        enum_cpu = time.process_time() - t0
        t0 = time.process_time()
        for _ in range(20):
            for s in sample:
                engine.clone(s)
        clone_cpu = time.process_time() - t0
        t0 = time.process_time()
        viewed = 0
        if hasattr(engine, "view"):  # what each seat may know of the same states
            for _ in range(VIEW_ROUNDS):
                for s in sample:
                    for p in range(n):
                        engine.view(s, p)
                viewed += n * len(sample)
        view_cpu = time.process_time() - t0
        out["players"][str(n)] = {
            "games": games,
            "decisions": decisions,
            "step_cpu": play_cpu,
            "enumerations": 5 * len(windows),
            "enum_cpu": enum_cpu,
            "clones": 20 * len(sample),
            "clone_cpu": clone_cpu,
            "views": viewed,
            "view_cpu": view_cpu,
            "playout_cpu": playout_cpu,
        }
    return out


SEARCH_EVERY = 5  # a search position every this many decisions of a random game
SEARCH_PER_GAME = 10  # positions taken from one game


def measure_search(game: str, players: list[int], games: int, spec: str, options: dict[str, Any]) -> Any:
    """The bot `spec` deciding at fixed positions (every SEARCH_EVERY-th decision with a choice of
    `games` random games, seeds 1..N, at most SEARCH_PER_GAME each: the same positions on every
    backend): decisions searched, playouts and the CPU seconds they took, per player count."""
    from tabula.bots.base import Observation, bot_generator
    from tabula.bots.spec import make_bot
    from tabula.interpreter.engine import Engine, load_game

    backend = os.environ.get("TABULA_BENCH_BACKEND", "python")
    engine = Engine(_load(load_game, game, options), backend=backend)
    out: dict[str, Any] = {"search": spec, "backend": engine.backend, "note": engine.backend_note}
    out["players"] = {}
    for n in players:
        positions = []
        for seed in range(1, games + 1):
            st, gen, k, taken = engine.new_game(n, seed), bot_generator(seed), 0, 0
            while not engine.is_terminal(st) and taken < SEARCH_PER_GAME:
                if k % SEARCH_EVERY == 0 and len(engine.legal_ids(st)) > 1:
                    positions.append(engine.clone(st))
                    taken += 1
                engine.apply_inplace(st, engine.random_choice(st, gen))
                k += 1
        bot = make_bot(spec, engine)
        for i, st in enumerate(positions):
            bot.choose(Observation(engine, st, int(engine.current_player(st))), bot_generator(i))  # type: ignore[arg-type]
        s = bot.stats
        out["players"][str(n)] = {"decisions": s.searched, "playouts": s.playouts, "cpu": s.seconds}
    return out


if __name__ == "__main__":
    name, players_text, games_text, *rest = sys.argv[1:]
    counts = [int(p) for p in players_text.split(",")]
    search = os.environ.get("TABULA_BENCH_SEARCH")
    if search:
        print(json.dumps(measure_search(name, counts, int(games_text), search, _options(rest))))
    else:
        print(json.dumps(measure(name, counts, int(games_text), _options(rest))))
