"""Run one function over many seeds on N worker processes or as Ray tasks, results in seed order.

`map_seeds(fn, config, seeds, jobs=N)` calls `fn(config, index, seed)` for every seed (index is its
position in `seeds`) and returns the results in that order, so the output of a run does not depend
on `jobs`: `--jobs 1` runs in this process, `--jobs N` on N worker processes (spawned: no state is
inherited but `config`), `ray="auto"|ADDRESS` as Ray tasks (a local Ray when ADDRESS is None or
"local", else a cluster). `fn` must be a module-level function and `config` picklable; a worker
keeps whatever `fn` caches (a loaded game) across the seeds it runs.

Seeds go out in chunks, small enough for a live progress display (`on_result` is called in this
process as results arrive). Ctrl-C stops the run: the results finished so far come back with
`interrupted` set, still in seed order.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

C = TypeVar("C")
R = TypeVar("R")
Task = Callable[[C, int, int], R]
MAX_CHUNK = 16


@dataclass
class Batch(Generic[R]):
    """The results of a run, in seed order; when `interrupted`, only those that had finished."""

    results: list[R] = field(default_factory=list)
    interrupted: bool = False


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunks(count: int, jobs: int) -> list[range]:
    """Index ranges: about four per worker for balance, at most MAX_CHUNK long for progress."""
    size = max(1, min(MAX_CHUNK, -(-count // (jobs * 4))))
    return [range(i, min(i + size, count)) for i in range(0, count, size)]


def run_chunk(fn: Task[C, R], config: C, items: list[tuple[int, int]]) -> list[R]:
    """The worker side: `fn` over (index, seed) pairs."""
    return [fn(config, index, seed) for index, seed in items]


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group: the parent handles it and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def map_seeds(
    fn: Task[C, R],
    config: C,
    seeds: Sequence[int],
    jobs: int | None = None,
    ray: str | None = None,
    on_result: Callable[[R], None] | None = None,
) -> Batch[R]:
    """`fn(config, i, seeds[i])` for every i, in seed order; see the module docstring."""
    jobs = max(1, jobs if jobs is not None else default_jobs())
    pairs = list(enumerate(seeds))
    parts = [[pairs[i] for i in r] for r in chunks(len(pairs), jobs)]
    done: dict[int, list[R]] = {}
    batch: Batch[R] = Batch()
    try:
        if ray is not None:
            _run_ray(fn, config, parts, jobs, ray, done, on_result)
        elif jobs == 1 or len(parts) == 1:
            for k, part in enumerate(parts):
                done[k] = []
                for index, seed in part:
                    result = fn(config, index, seed)
                    done[k].append(result)
                    if on_result is not None:
                        on_result(result)
        else:
            _run_pool(fn, config, parts, jobs, done, on_result)
    except KeyboardInterrupt:
        batch.interrupted = True
    for k in sorted(done):
        batch.results.extend(done[k])
    return batch


def _indexed_chunk(task: tuple[int, Task[C, R], C, list[tuple[int, int]]]) -> tuple[int, list[R]]:
    k, fn, config, items = task
    return k, run_chunk(fn, config, items)


def _run_pool(
    fn: Task[C, R],
    config: C,
    parts: list[list[tuple[int, int]]],
    jobs: int,
    done: dict[int, list[R]],
    on_result: Callable[[R], None] | None,
) -> None:
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(min(jobs, len(parts)), initializer=_ignore_sigint)
    try:
        tasks = [(k, fn, config, part) for k, part in enumerate(parts)]
        for k, results in pool.imap_unordered(_indexed_chunk, tasks):
            done[k] = results
            for r in results:
                if on_result is not None:
                    on_result(r)
        pool.close()
    finally:
        # on Ctrl-C (or an error) the workers are stopped at once, not after their chunk
        pool.terminate()
        pool.join()


def _run_ray(
    fn: Task[C, R],
    config: C,
    parts: list[list[tuple[int, int]]],
    jobs: int,
    address: str,
    done: dict[int, list[R]],
    on_result: Callable[[R], None] | None,
) -> None:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install -e '.[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address in ("", "local", "auto-local"):
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        remote: Any = ray.remote(run_chunk)
        refs: dict[Any, int] = {remote.remote(fn, config, part): k for k, part in enumerate(parts)}
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1)
            for ref in ready:
                k = refs.pop(ref)
                done[k] = ray.get(ref)
                for r in done[k]:
                    if on_result is not None:
                        on_result(r)
    finally:
        if started_here:
            ray.shutdown()
