"""Warm starts: compiled games kept on disk, keyed by everything that went into them.

Stage: around compile. A compiled game is its generated module (source, code object, injected data,
helper references, line table) plus the `CompiledGame` object graph, whose generated functions are
stored by name. The key is a hash of Tabula's own source (interpreter/ and grammar/), the game
folder's path and every YAML file in it (its scenarios included: they decide which names count as
used), the pack files (path, kind, text), the rules options and whether the game is instrumented for
coverage. A changed file, option or engine gives a new key; an unreadable or stale entry is ignored
and compiled again. The folder keeps the `KEEP` most recently used entries (older ones are removed
when a new one is stored), so it never grows without bound.

Entries live in `$TABULA_CACHE_DIR`, else `$XDG_CACHE_HOME/tabula`, else `~/.cache/tabula`.
`TABULA_NO_CACHE=1` (or `--no-cache` on the command line) bypasses the cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import marshal
import os
import pickle
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

from tabula.interpreter.compile.python.module import GenModule

FORMAT = 2
_enabled = True
_fingerprint: str | None = None


def enabled() -> bool:
    return _enabled and os.environ.get("TABULA_NO_CACHE", "") in ("", "0")


def disable() -> None:
    global _enabled
    _enabled = False


def folder() -> Path:
    explicit = os.environ.get("TABULA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tabula"


def engine_fingerprint() -> str:
    """A hash of the engine's own source: a compiled game is only valid for the engine that made it."""
    global _fingerprint
    if _fingerprint is None:
        root = Path(__file__).resolve().parents[2]  # the interpreter package
        h = hashlib.sha256(f"{FORMAT} {sys.version_info[:2]}".encode())
        for base in (root, root.parent / "grammar"):
            for f in sorted(base.rglob("*")):
                if f.suffix in (".py", ".lark") and "__pycache__" not in f.parts:
                    h.update(str(f.relative_to(base)).encode())
                    h.update(f.read_bytes())
        _fingerprint = h.hexdigest()
    return _fingerprint


def key(
    game_folder: Path, packs: list[tuple[Path, str]], options: dict[str, Any] | None, instrument: bool
) -> str:
    """The cache key of a game: packs are (file, kind) in the order given, since a variant's file
    given as an expansion is an error the compile must report (and order decides conflicts)."""
    h = hashlib.sha256(engine_fingerprint().encode())
    # where the files are, too: a compiled game names its folder and every span names its file, so
    # a copy of the same files elsewhere is a game of its own (its errors point into the copy)
    h.update(str(game_folder.resolve()).encode())
    h.update(f"as:{game_folder}:".encode())  # the path as written: spans show it in messages
    for f in sorted(game_folder.rglob("*.yaml")):
        h.update(str(f.relative_to(game_folder)).encode())
        h.update(f.read_bytes())
    for p, kind in packs:
        h.update(f"pack:{kind}:{p.resolve()}:{p}:".encode())
        h.update(p.read_bytes())
    h.update(json.dumps(options or {}, sort_keys=True, default=repr).encode())
    h.update(b"instrument" if instrument else b"plain")
    return h.hexdigest()


# ------------------------------------------------------------------ (un)pickling the game


class _GamePickler(pickle.Pickler):
    """Generated functions and the module are stored by name (they are rebuilt from the module)."""

    def __init__(self, file: io.BytesIO, module: GenModule) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.module = module

    def persistent_id(self, obj: Any) -> Any:
        if obj is self.module:
            return ("module",)
        if isinstance(obj, types.FunctionType) and obj.__code__.co_filename == self.module.filename:
            return ("fn", obj.__name__)
        if obj is self.module.ns:
            return ("ns",)
        return None


class _GameUnpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, module: GenModule) -> None:
        super().__init__(file)
        self.module = module

    def persistent_load(self, pid: Any) -> Any:
        if pid[0] == "module":
            return self.module
        if pid[0] == "ns":
            return self.module.ns
        return self.module.ns[pid[1]]


def dump(game: Any) -> bytes:
    module: GenModule = game.module
    out = io.BytesIO()
    _GamePickler(out, module).dump(game)
    state = {
        "format": FORMAT,
        "filename": module.filename,
        "source": module.source(),
        "code": marshal.dumps(compile(module.source(), module.filename, "exec")),
        "data": module.data,
        "helpers": module.helpers,
        "lines": module.lines,
        "names": sorted(module.names()),
        "bindings": module.bindings,
        "game": out.getvalue(),
    }
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def restore(blob: bytes) -> Any:
    state = pickle.loads(blob)
    if state.get("format") != FORMAT:
        raise ValueError("old cache format")
    module = GenModule.rebuild(
        state["filename"],
        state["source"],
        marshal.loads(state["code"]),
        state["data"],
        state["helpers"],
        state["lines"],
        state["names"],
        state["bindings"],
    )
    return _GameUnpickler(io.BytesIO(state["game"]), module).load()


def load(k: str) -> Any | None:
    """The cached game for key `k`, or None."""
    path = folder() / f"{k}.game"
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    try:
        game = restore(blob)
    except Exception:  # a stale or damaged entry: compile again (and overwrite it)
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: kept by prune()
    return game


def store(k: str, game: Any) -> None:
    """Keep a compiled game; never fails the caller (a read-only or full disk only costs speed)."""
    try:
        blob = dump(game)
        target = folder()
        target.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, target / f"{k}.game")
        prune(target)
    except Exception:
        return


KEEP = 256  # entries (about 0.25 MB each): every configuration a test run compiles, and the user's


def prune(target: Path) -> None:
    """Remove all but the KEEP most recently used entries (a hit refreshes an entry's time)."""
    entries = sorted(target.glob("*.game"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEEP:]:
        old.unlink(missing_ok=True)
