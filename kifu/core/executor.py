"""The one executor seam for heavy work: in this process, on local processes, or on Dask.

Every heavy command (``puzzles generate``, ``validate``, ``diff --rules``, ``archive
import``) cuts its work into *chunks* (a list of records, a range of seeds), hands them to
:func:`map_chunks` and gets the results back **in chunk order**, whatever ran them. So the
output of a command is the same bytes on one process, on N local workers or on a Dask
cluster. A chunk's function must be a module-level function (it is pickled) and its result
should be small (verdicts, puzzles, rows).

What a worker must know beyond the chunk (an Alice card set loaded with ``--cards``, which
a worker process that was spawned, or a Dask worker on another machine, never saw) is
registered with :func:`add_worker_setup` and travels with every chunk: each chunk first
runs the setups, so a worker that joins late or replaces a lost one is set up too.

At most ``2 * workers`` chunks are in flight at once, so memory does not grow with the size
of the input, and results are yielded as soon as every earlier chunk is done.

>>> list(map_chunks(sum, [[1, 2], [3], []]))
[3, 3, 0]
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from kifu.core.errors import KifuError

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"
"""``--dask local``: start a ``distributed.LocalCluster`` for the run."""


_SETUPS: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
"""``(fn, args)`` to run in a worker before each chunk (see :func:`add_worker_setup`)."""


def add_worker_setup(fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn(*args)`` in every worker before it handles a chunk. ``fn`` must be a
    module-level function, ``args`` picklable, and the call idempotent and cheap (it runs
    once per chunk): e.g. registering an Alice card set loaded in this process. Work run
    inline in this process skips it (the state is already here)."""
    if (fn, args) not in _SETUPS:
        _SETUPS.append((fn, args))


def clear_worker_setups() -> None:
    """Forget every setup (for tests)."""
    _SETUPS.clear()


def _with_setups(setups: tuple[tuple[Callable[..., Any], tuple[Any, ...]], ...],
                 fn: Callable[[T], R], chunk: T) -> R:
    for setup, args in setups:
        setup(*args)
    return fn(chunk)


class InlineExecutor(cf.Executor):
    """Runs each call at once in this process (``workers=1``): no pickling, no processes."""

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> cf.Future[R]:
        future: cf.Future[R] = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:
            future.set_exception(e)
        return future


MAX_WORKERS = 256
"""The most local worker processes (or LocalCluster workers) a run may start: a mistyped
``--workers 1000000`` is refused instead of starting a process per chunk."""

CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler (``--dask ADDRESS``) before giving up."""

DASK_RETRIES = 2
"""How often Dask reruns a chunk whose function raised (a worker lost mid-chunk is
rescheduled by the scheduler itself, up to its ``allowed-failures``)."""


LEAN_WORKERS: dict[str, Any] = {"distributed.worker.profile.enabled": False}
"""Dask configuration for the workers of a LocalCluster kifu starts (``--dask local``), and
the one ``docs/scale.md`` recommends for a cluster that runs kifu: a Dask worker samples
the stack of its task thread every 10 ms for its statistical profiler by default, which
cost 15-20% more worker CPU on kifu's pure-Python chunks (20,000 TWEAK records validated:
1.55-1.84 s against 1.26-1.41 s a worker, measured 2026-11-26)."""


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise KifuError(
            "--dask needs the optional dask extra: pip install 'kifu[dask]'"
        ) from None
    return distributed


class DaskExecutor(cf.Executor):
    """``submit`` on a ``distributed.Client`` with retries; ``width`` = worker threads.

    Each call is ``client.submit(fn, arg, retries=2, pure=False)``: ``pure=False`` so two
    equal chunks are never merged into one task, ``retries`` so a chunk whose worker failed
    runs again. The futures have ``done()`` and ``result()`` like ``concurrent.futures``."""

    def __init__(self, client: Any, retries: int = DASK_RETRIES) -> None:
        self.client = client
        self.retries = retries
        self.width = max(1, sum(client.nthreads().values()))

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Any:
        return self.client.submit(fn, *args, retries=self.retries, pure=False, **kwargs)


def _dask_client(address: str, workers: int):  # pragma: no cover - exercised with the extra
    distributed = _import_distributed()
    if address == LOCAL:
        import dask

        with dask.config.set(LEAN_WORKERS):  # the nannies hand it to their workers
            cluster = distributed.LocalCluster(
                n_workers=max(1, workers), threads_per_worker=1, processes=True,
                dashboard_address=None, host="127.0.0.1", silence_logs=logging.ERROR,
                # no dashboard; the scheduler's small HTTP server on loopback, any free port
                scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            )
        return distributed.Client(cluster), cluster
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT), None
    except Exception as e:  # any bad address: a missing port, an unknown or broken protocol
        why = " ".join(str(e).split())[:200] or type(e).__name__
        raise KifuError(f"--dask {address[:100]}: cannot reach the Dask scheduler ({why})"
                        ) from None


@contextmanager
def executor(workers: int = 1, dask: str | None = None) -> Iterator[cf.Executor]:
    """The executor for ``--workers N`` / ``--dask ADDRESS`` (``local`` for a LocalCluster).

    ``workers <= 1`` without Dask runs inline. With Dask, ``workers`` is the number of
    LocalCluster workers (ignored for a running scheduler). Raises :class:`KifuError` for a
    bad count or a missing dask extra."""
    if workers < 1:
        raise KifuError(f"--workers must be at least 1, not {workers}")
    if workers > MAX_WORKERS:
        raise KifuError(f"--workers may be at most {MAX_WORKERS}, not {workers}")
    if dask is not None:
        client, cluster = _dask_client(dask, workers)
        try:
            yield DaskExecutor(client)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return
    if workers == 1:
        yield InlineExecutor()
        return
    pool = cf.ProcessPoolExecutor(max_workers=workers)
    try:
        yield pool
    except BaseException:  # Ctrl-C, an error, or the consumer stopped early: stop now
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Shut a process pool down without waiting for the chunks it runs or has queued
    (their results are not wanted): cancel them and end the worker processes."""
    procs = list((getattr(pool, "_processes", None) or {}).values())  # gone after shutdown
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=10)


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last may be shorter), lazily."""
    if size < 1:
        raise KifuError(f"chunk size must be at least 1, not {size}")
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def map_chunks(
    fn: Callable[[T], R],
    chunks: Iterable[T],
    *,
    workers: int = 1,
    dask: str | None = None,
    pool: cf.Executor | None = None,
    on_chunk_done: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """``fn(chunk)`` for every chunk, yielded in chunk order.

    Give ``pool`` to reuse an executor across calls; otherwise one is made from ``workers``
    and ``dask`` for this call. ``on_chunk_done(index)`` is called (in this thread, in chunk
    order) as each chunk's result is handed over: a progress bar counting chunks.

    A chunk that fails for good (after Dask's retries; a crashed local process) raises
    :class:`KifuError` naming the chunk's index: no chunk is ever dropped silently. A
    :class:`KifuError` raised by ``fn`` itself (bad input) is passed on unchanged."""
    if pool is not None:
        yield from _ordered(fn, chunks, pool, _window(pool, workers), on_chunk_done)
        return
    with executor(workers, dask) as ex:
        yield from _ordered(fn, chunks, ex, _window(ex, workers), on_chunk_done)


def _window(ex: cf.Executor, workers: int) -> int:
    return 2 * max(1, workers, getattr(ex, "width", 1))


def _result(future: Any, index: int) -> Any:
    try:
        return future.result()
    except KifuError:
        raise
    except Exception as e:
        raise KifuError(
            f"chunk {index} failed: {type(e).__name__}: {e}".rstrip(": ")
        ) from e


def _ordered(fn: Callable[[T], R], chunks: Iterable[T], ex: cf.Executor, window: int,
             on_chunk_done: Callable[[int], None] | None = None) -> Iterator[R]:
    if _SETUPS and not isinstance(ex, InlineExecutor):
        fn = functools.partial(_with_setups, tuple(_SETUPS), fn)
    pending: deque[tuple[int, Any]] = deque()
    try:
        for index, chunk in enumerate(chunks):
            pending.append((index, ex.submit(fn, chunk)))
            while len(pending) >= window or (pending and pending[0][1].done()):
                i, future = pending.popleft()
                result = _result(future, i)
                if on_chunk_done is not None:
                    on_chunk_done(i)
                yield result
        while pending:
            i, future = pending.popleft()
            result = _result(future, i)
            if on_chunk_done is not None:
                on_chunk_done(i)
            yield result
    finally:  # the caller stopped early (or a chunk failed): drop the chunks not needed
        for _, future in pending:
            future.cancel()
