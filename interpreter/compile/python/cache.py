"""Warm starts: compiled games kept on disk, keyed by everything that went into them.

Stage: around compile. A compiled game is its generated module (source, code object, injected data,
helper references, line table) plus the `CompiledGame` object graph, whose generated functions are
stored by name. The key is a hash of Tabula's own source (interpreter/ and grammar/), the game
folder's path and every YAML file in it (its scenarios included: they decide which names count as
used), the pack files (path, kind, text), the rules options and whether the game is instrumented for
coverage. A changed file, option or engine (its Python, its grammar, or the native backend's C
runtime files: a library's key builds on this one) gives a new key; an unreadable or stale entry is
ignored and compiled again. The folder keeps the `KEEP` most recently used entries (older ones are
removed when a new one is stored), so it never grows without bound.

Entries live in `$TABULA_CACHE_DIR`, else `$XDG_CACHE_HOME/tabula`, else `~/.cache/tabula`.
`TABULA_NO_CACHE=1` (or `--no-cache` on the command line) bypasses the cache.

An entry is a pickle, and unpickling runs code, so nothing is unpickled before it is proven ours: each
entry is sealed with an HMAC-SHA256 of its cache key and contents, under a secret kept outside the
cache folder (`$XDG_STATE_HOME/tabula/cache-key`, else `~/.local/state/tabula/cache-key`: mode 0600,
owned by the user). An entry without the right seal is ignored and compiled again. A cache folder that
is not the user's own, or is writable by group or others, is refused (once, on stderr) and the game is
compiled without the cache; so is a key file that is not the user's own or is readable by others.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import json
import marshal
import os
import pickle
import stat
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

from tabula.interpreter.compile.python.module import GenModule

FORMAT = 3  # 3: entries sealed with an HMAC (MAGIC, the seal, then the pickle)
MAGIC = b"tabula-cache 3\n"
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
                if f.suffix in (".py", ".lark", ".c", ".h") and "__pycache__" not in f.parts:
                    h.update(str(f.relative_to(base)).encode())
                    h.update(f.read_bytes())
        _fingerprint = h.hexdigest()
    return _fingerprint


IMAGE_TYPES = (".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp")


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
    for f in sorted(game_folder.rglob("*")):  # a layout's images are read at load (authoring/images.py)
        if f.suffix.lower() in IMAGE_TYPES and f.is_file():
            st = f.stat()
            h.update(f"image:{f.relative_to(game_folder)}:{st.st_size}:{st.st_mtime_ns}:".encode())
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


# ------------------------------------------------------------------ trust: whose folder, whose entries

_warned: set[str] = set()  # what was already said on stderr (once per process)
_secrets: dict[Path, bytes | None] = {}  # key file -> its secret (None: unusable), read once


def _refuse(what: str) -> None:
    """Say once on stderr why the cache is not used; the game is compiled without it."""
    if what not in _warned:
        _warned.add(what)
        sys.stderr.write(f"tabula: not using the compile cache: {what}; compiling without it.\n")


def _foreign(st: os.stat_result, others: int, verb: str) -> str | None:
    """Why a file or folder with this status is not private to the user (its owner, then the mode bits
    `others` that group and others must not have), or None. Platforms without user ids (Windows) have
    neither check."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return None
    if st.st_uid != getuid():
        return f"it is owned by another user (uid {st.st_uid}, you are {getuid()})"
    if st.st_mode & others:
        return f"other users can {verb} it (mode {st.st_mode & 0o777:o})"
    return None


def folder_in_use(create: bool) -> Path | None:
    """The cache folder if it is the user's own and only the user can write it (made, private, when
    `create` and missing); None, said once on stderr, when it is someone else's or open to others: an
    entry planted there must not even be read."""
    target = folder()
    if create and not target.exists():
        with contextlib.suppress(OSError):
            target.mkdir(mode=0o700, parents=True)
    try:
        st = target.stat()
    except OSError:
        return None  # no folder yet: nothing cached
    why = _foreign(st, 0o022, "write to") if stat.S_ISDIR(st.st_mode) else "it is not a folder"
    if why is not None:
        _refuse(
            f"the folder {target} is not safe ({why}); make it yours and private (chmod 700), or set "
            "TABULA_CACHE_DIR to a folder of your own"
        )
        return None
    return target


def key_file() -> Path:
    """Where the secret that seals entries is kept: outside any cache folder, so that a cache restored or
    shared from elsewhere brings no key with it."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tabula" / "cache-key"


def _secret() -> bytes | None:
    """The user's cache secret (made on first use), or None when its file cannot be trusted or made."""
    path = key_file()
    if path not in _secrets:
        _secrets[path] = _read_secret(path)
        if _secrets[path] is None and not path.exists():
            _secrets[path] = _read_secret(_new_secret(path))
            if _secrets[path] is None:
                _refuse(f"the key file {path} could not be made; set XDG_STATE_HOME to a folder of your own")
    return _secrets[path]


def _read_secret(path: Path) -> bytes | None:
    """The secret in `path` if the file is the user's own and no one else can read it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        why = _foreign(os.fstat(f.fileno()), 0o077, "read or write")
        secret = f.read(64)
    if why is None and len(secret) < 32:
        why = "it is too short"
    if why is not None:
        _refuse(f"the key file {path} is not safe ({why}); remove it (a new one is made)")
        return None
    return secret


def _new_secret(path: Path) -> Path:
    """Write a fresh secret to `path` (mode 0600 in a private folder), unless another process just did."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".cache-key-")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
            try:
                os.link(tmp, path)  # never replaces a key another process made meanwhile
            except FileExistsError:
                pass
            except OSError:  # no hard links here
                os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return path


def seal(secret: bytes, k: str, payload: bytes) -> bytes:
    """An entry: MAGIC, then the HMAC of the key and payload (so an entry moved to another name fails)."""
    return MAGIC + hmac.digest(secret, k.encode() + b"\0" + payload, "sha256") + payload


def unseal(secret: bytes, k: str, blob: bytes) -> bytes | None:
    """The payload of an entry sealed with `secret` for key `k`, else None."""
    mac, payload = blob[len(MAGIC) : len(MAGIC) + 32], blob[len(MAGIC) + 32 :]
    if not blob.startswith(MAGIC):
        return None
    expected = hmac.digest(secret, k.encode() + b"\0" + payload, "sha256")
    return payload if hmac.compare_digest(mac, expected) else None


def _usable(create: bool) -> tuple[Path, bytes] | None:
    """The cache folder and the secret that seals its entries, or None when the cache is not safe."""
    try:
        target = folder_in_use(create)
        secret = _secret() if target is not None else None  # a refused folder says one thing only
    except (OSError, RuntimeError):  # no home folder to find either in: no cache
        return None
    return None if target is None or secret is None else (target, secret)


def load(k: str) -> Any | None:
    """The cached game for key `k`, or None (no entry, a foreign folder, a damaged or unsealed entry)."""
    usable = _usable(create=False)
    if usable is None:
        return None
    target, secret = usable
    path = target / f"{k}.game"
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    payload = unseal(secret, k, blob)
    if payload is None:  # not written by this user's Tabula: never unpickled
        return None
    try:
        game = restore(payload)
    except Exception:  # a stale entry: compile again (and overwrite it)
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: kept by prune()
    return game


def store(k: str, game: Any) -> None:
    """Keep a compiled game; never fails the caller (a read-only or full disk only costs speed)."""
    try:
        usable = _usable(create=True)
        if usable is None:
            return
        target, secret = usable
        blob = seal(secret, k, dump(game))
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
