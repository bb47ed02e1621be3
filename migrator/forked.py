"""Run a function over many items on forked worker processes, results in order.

The function and the items reach the workers through fork (copy-on-write), not through pickling:
only the results travel back, so a worker may close over anything the parent holds (the units of
a schema, a catalog). Where fork does not exist (Windows, macOS default) everything runs in this
process. Used by the phases of a batch that handle each file or unit on its own: splitting files
into statements, scanning units for references, converting units.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# set in the parent just before the pool forks; read by the workers
_JOB: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def core_workers() -> int:
    """One process per core, at most 8 (1 where fork does not exist)."""
    return max(1, min(os.cpu_count() or 1, 8)) if can_fork() else 1


def default_workers(n_items: int, minimum: int) -> int:
    """core_workers() for `minimum` items or more; below that, starting processes costs more
    than it saves."""
    return core_workers() if n_items >= minimum else 1


@contextmanager
def collecting_new() -> Iterator[None]:
    """Inside, the cycle collector is on and sees only the objects made inside, here and in the
    workers forked inside: everything made before is frozen (gc.freeze), never scanned again.
    Afterwards the collector is on or off as before, and nothing stays frozen (unless something
    was frozen before: then what was made before stays frozen too, as gc cannot thaw a part).

    A batch keeps what it made before converting (units, tokens, trees, the catalog) to the end;
    the migrate command runs those phases with the collector off (few cycles, and a pass every
    50,000 allocations cost 0.1 s of its serial part). Converting makes cycles (sqlglot's trees
    point to their parents), so the collector runs there; and unfrozen, the first pass of each
    forked worker scanned the inherited objects that the parent had not collected yet, writing to
    their pages (copy-on-write), 25-100 ms per worker."""
    was_on, was_frozen = gc.isenabled(), gc.get_freeze_count() > 0
    gc.freeze()
    gc.enable()
    try:
        yield
    finally:
        if not was_on:
            gc.disable()
        if not was_frozen:
            gc.unfreeze()


def die_with_parent(parent: int) -> None:
    """Worker initializer: the kernel kills this worker when its parent dies (PR_SET_PDEATHSIG),
    so a `migrate` killed with SIGKILL leaves no worker processes behind (Linux; elsewhere the
    executor's own shutdown is all there is). Ctrl-C is the parent's to handle: it cancels the
    work not begun and waits for the chunks in hand (a worker that took the SIGINT a terminal
    sends the whole process group would print a traceback of its own and break the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


@contextmanager
def forked_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of forked workers, shut down on the way out. Left by an exception (Ctrl-C, an error,
    a consumer that stops early) the work not begun is cancelled first: the executor's own exit
    would wait for every chunk submitted, the whole conversion."""
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _run_chunk(bounds: tuple[int, int]) -> list[Any]:
    assert _JOB is not None, "set in the parent before the pool forks"
    fn, items = _JOB
    return [fn(item) for item in items[bounds[0] : bounds[1]]]


def _gather(
    futures: list[Future[list[R]]], bounds: list[tuple[int, int]], fn: Callable[[Any], R], items: Sequence[Any]
) -> list[R]:
    """The chunks' results in order. This process, free now, first takes the chunks that no worker
    has begun, from the last one back (cancelled in the pool, run here) until it meets one a worker
    holds; then it waits for the workers' part. The work left when the caller gets here is so
    shared out, however long its own work took (the catalog beside the reference scan: now one,
    now the other was the longer)."""
    here: dict[int, list[R]] = {}
    for k in range(len(futures) - 1, -1, -1):
        if not futures[k].cancel():  # a worker has it (queued or running), and all before it
            break
        start, end = bounds[k]
        here[k] = [fn(item) for item in items[start:end]]
    out: list[R] = []
    for k, future in enumerate(futures):
        out.extend(here[k] if k in here else future.result())
    return out


def fork_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int,
    chunk: int = 32,
    meanwhile: Callable[[], object] | None = None,
) -> list[R]:
    """[fn(x) for x in items], on `workers` forked processes when there are more than one and
    fork exists. fn's results must pickle; fn itself and the items need not.

    `meanwhile()`, when given, runs in this process while the workers work (after the map when
    it runs here): serial work of the caller that needs none of the results, which would
    otherwise leave a core idle before or after the map. The workers were forked before it
    runs, so nothing it changes reaches them. This process then keeps one of the `workers`
    cores busy itself, so one process fewer is forked (at least one); after `meanwhile()` it
    takes its share of the chunks left (`_gather`)."""
    if workers <= 1 or len(items) <= chunk or not can_fork():
        results = [fn(item) for item in items]
        if meanwhile is not None:
            meanwhile()
        return results
    global _JOB
    _JOB = (fn, items)
    bounds = [(i, min(i + chunk, len(items))) for i in range(0, len(items), chunk)]
    try:
        forks = max(1, workers - 1) if meanwhile is not None else workers
        with forked_pool(min(forks, len(bounds))) as pool:
            futures = [pool.submit(_run_chunk, b) for b in bounds]  # the workers forked at the first
            if meanwhile is None:  # one worker per core: this process only waits
                return [result for future in futures for result in future.result()]
            meanwhile()
            return _gather(futures, bounds, fn, items)
    finally:
        _JOB = None


class StartedMap(Generic[R]):
    """`fork_map` begun now and collected later: the workers are forked (and start) here, while
    the caller goes on with other work (a process's remaining imports, say); `result()` waits for
    and returns fork_map's list, and re-raises what the map raised. As the caller keeps a core
    busy meanwhile, `workers - 1` processes are forked (at least one), and `result()` runs here what
    none has begun yet. Without workers (one, few items, no fork) the whole map runs in `result()`.
    `close()` abandons an uncollected map."""

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], workers: int, chunk: int = 32):
        self._serial: tuple[Callable[[Any], R], Sequence[Any]] | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future[list[R]]] | None = None
        self._job: tuple[Callable[[Any], R], Sequence[Any]] = (fn, items)
        if workers <= 1 or len(items) <= chunk or not can_fork():
            self._serial = (fn, items)
            return
        global _JOB
        _JOB = (fn, items)
        bounds = self._bounds = [(i, min(i + chunk, len(items))) for i in range(0, len(items), chunk)]
        try:
            # the caller keeps a core busy meanwhile (its imports): one process fewer is forked, as
            # for fork_map's meanwhile, and what is left when it comes for the result it shares
            self._pool = ProcessPoolExecutor(
                max_workers=min(max(1, workers - 1), len(bounds)),
                mp_context=multiprocessing.get_context("fork"),
                initializer=die_with_parent,
                initargs=(os.getpid(),),
            )
            # the first submission forks every worker (the fork start method launches them all
            # at once), so _JOB has reached them when the submissions return
            self._futures = [self._pool.submit(_run_chunk, b) for b in bounds]
        except BaseException:
            self.close()
            raise
        finally:
            _JOB = None

    def result(self) -> list[R]:
        if self._serial is not None:
            fn, items = self._serial
            self._serial = None
            return [fn(item) for item in items]
        assert self._futures is not None, "result() is called once"
        futures, self._futures = self._futures, None
        try:  # what no worker has begun yet is read here (_gather)
            return _gather(futures, self._bounds, *self._job)
        finally:
            self.close()

    def close(self) -> None:
        self._serial = self._futures = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=True, cancel_futures=True)
