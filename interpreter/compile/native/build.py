"""Building a game's C file into a shared library, and keeping it on disk beside the Python cache.

Stage: compile (native). The compiler is `$CC`, else the first of cc, gcc, clang on the PATH; none
found is not an error: the game runs on the Python backend and `reason` says why in one line. A
library is cached as `native-KEY.so` in the compile cache's folder (compile/python/cache.py: the
same private-folder checks), sealed like a cache entry with an HMAC of its key and bytes under the
user's cache secret: loading a library runs its code, so one without the right seal is never
loaded. KEY hashes the game's Python cache key (its files, packs, options and Tabula's own source),
the compiler (path, size, time) and the flags. Without a cache, the library is built in a private
temporary folder, read and the folder removed. A library is loaded from the very bytes whose seal
was checked (`load`: an anonymous memory file, never the path opened again), so no one can swap the
file between the check and the load.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import resource
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tabula.interpreter.compile.python import cache

FLAGS = ("-O2", "-shared", "-fPIC", "-std=gnu11", "-Wno-unused-function")
FORMAT = "native 1"
BUILD_CPU_SECONDS = 60  # a compiler run past this is stopped (a hostile game's C file): Python plays it
BUILD_WALL_SECONDS = 120  # and one that waits (a hung compiler spends no CPU) past this, with its children
KEEP = 64  # libraries kept (about 20 kB each)
_CANDIDATES = ("cc", "gcc", "clang")
_LOADED: list[int] = []  # the memory files of the libraries loaded (`load`)


@dataclass
class Compiler:
    path: str

    def identity(self) -> str:
        st = os.stat(self.path)
        return f"{self.path}:{st.st_size}:{st.st_mtime_ns}"


def find_compiler() -> tuple[Compiler | None, str]:
    """The C compiler to use, or None and why not (one line)."""
    cc = os.environ.get("CC", "").strip()
    tried = []
    if cc:
        found = shutil.which(cc.split()[0])
        if found:
            return Compiler(found), ""
        tried.append(f"CC={cc} not found")
    for name in _CANDIDATES:
        found = shutil.which(name)
        if found:
            return Compiler(found), ""
    tried.append("no cc, gcc or clang on the PATH")
    return None, "no C compiler (" + "; ".join(tried) + ")"


def native_key(game_key: str, compiler: Compiler) -> str:
    text = "\n".join([FORMAT, game_key, compiler.identity(), *FLAGS])
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def cached(key: str) -> bytes | None:
    """The bytes of the sealed library of `key` in the cache folder, if it is there and proven ours
    (read through one descriptor; `load` loads these bytes, not the file)."""
    if not cache.enabled():
        return None
    usable = cache._usable(create=False)
    if usable is None:
        return None
    folder, secret = usable
    lib, seal_file = folder / f"native-{key}.so", folder / f"native-{key}.seal"
    try:
        blob = seal_file.read_bytes()
        with open(lib, "rb") as f:
            data = f.read()
            os.utime(f.fileno())
    except OSError:
        return None
    if cache.unseal(secret, key, blob + data) != data:
        return None
    return data


def load(data: bytes) -> ctypes.CDLL:
    """The library whose bytes are `data` (checked by the caller), loaded from an anonymous memory
    file (Linux), else from a private temporary file removed once loaded."""
    if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
        fd = os.memfd_create("tabula-native", getattr(os, "MFD_CLOEXEC", 0))
        _write_all(fd, data)
        # kept open: the loader knows a library by its name, and a closed descriptor's number,
        # reused for the next library, would name the first one again
        _LOADED.append(fd)
        return ctypes.CDLL(f"/proc/self/fd/{fd}")
    work = Path(tempfile.mkdtemp(prefix="tabula-native-"))
    try:
        fd, name = tempfile.mkstemp(dir=work, suffix=".so")
        _write_all(fd, data)
        os.close(fd)
        return ctypes.CDLL(name)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def cached_refusal(key: str) -> str | None:
    """Why the game of `key` is not held natively, when a process found out before (`remember_refusal`):
    finding out again lowers the whole game, a second or more of CPU in every process of a run."""
    usable = cache._usable(create=False) if cache.enabled() else None
    if usable is None:
        return None
    folder, secret = usable
    try:
        blob = (folder / f"native-{key}.none").read_bytes()
    except OSError:
        return None
    text = cache.unseal(secret, key, blob)
    return None if text is None else text.decode("utf-8", errors="replace")


def remember_refusal(key: str, why: str) -> None:
    """Keep `why` (sealed, as a library is) so that later processes skip lowering the game."""
    usable = cache._usable(create=True) if cache.enabled() else None
    if usable is None:
        return
    folder, secret = usable
    with contextlib.suppress(OSError):
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(cache.seal(secret, key, why.encode("utf-8")))
        os.replace(tmp, folder / f"native-{key}.none")


@dataclass
class Built:
    data: bytes  # the library's bytes (`load` loads them)
    cpu: float  # CPU seconds the compiler took


def build(source: str, compiler: Compiler, key: str | None) -> Built:
    """Compile `source` into a library (kept in the cache when `key` is given and the cache usable);
    the work folder is removed whatever happens."""
    usable = cache._usable(create=True) if key is not None and cache.enabled() else None
    work = Path(tempfile.mkdtemp(prefix="tabula-native-"))
    try:
        data, cpu = _compile(source, compiler, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if usable is not None and key is not None:
        folder, secret = usable
        sealed = cache.seal(secret, key, data)
        with contextlib.suppress(OSError):
            _write_private(folder / f"native-{key}.so", data)
            _write_private(folder / f"native-{key}.seal", sealed[: len(sealed) - len(data)])
            _prune(folder)
    return Built(data, cpu)


def _compile(source: str, compiler: Compiler, work: Path) -> tuple[bytes, float]:
    """The library's bytes and the compiler's CPU seconds; BuildError when there is no library."""
    c_file, out = work / "game.c", work / "game.so"
    c_file.write_text(source)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with subprocess.Popen(
        [compiler.path, *FLAGS, "-o", str(out), str(c_file)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group: a wall limit stops its children too
        preexec_fn=_limit_cpu,  # only setrlimit before exec: safe
    ) as proc:
        try:
            _, err = proc.communicate(timeout=BUILD_WALL_SECONDS)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise BuildError(f"the C compiler was stopped after {BUILD_WALL_SECONDS} s") from None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        if proc.returncode < 0:  # stopped by a signal: the CPU limit (or killed)
            raise BuildError(f"the C compiler was stopped after {BUILD_CPU_SECONDS} s of CPU")
        raise BuildError(f"the C compiler failed: {err.strip()[-1500:]}")
    try:
        data = out.read_bytes()
    except OSError:
        data = b""
    if not data:
        raise BuildError("the C compiler wrote no library")
    return data, cpu


def _write_private(path: Path, data: bytes) -> None:
    """`data` into `path` through a private (0600) temporary file replacing it whole."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        raise


def _prune(folder: Path) -> None:
    libs = sorted(folder.glob("native-*.so"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in libs[KEEP:]:
        old.unlink(missing_ok=True)
        old.with_suffix(".seal").unlink(missing_ok=True)


def _limit_cpu() -> None:
    """(In the compiler's process) SIGXCPU after BUILD_CPU_SECONDS, within any limit already set."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = BUILD_CPU_SECONDS if hard == resource.RLIM_INFINITY else min(BUILD_CPU_SECONDS, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


class BuildError(Exception):
    """The C compiler rejected a generated file (a bug of the generator, never the author's)."""
