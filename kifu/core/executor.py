"""The one executor seam for heavy work: in this process, on local processes, or on Dask.

Every heavy command (``puzzles generate``, ``validate``, ``diff --rules``, ``archive
import``) cuts its work into *chunks* (a list of records, a range of seeds), hands them to
:func:`map_chunks` and gets the results back **in chunk order**, whatever ran them. So the
output of a command is the same bytes on one process, on N local workers or on a Dask
cluster. A chunk's function must be a module-level function (it is pickled) and its result
should be small (verdicts, puzzles, rows).

At most ``2 * workers`` chunks are in flight at once, so memory does not grow with the size
of the input, and results are yielded as soon as every earlier chunk is done.

>>> list(map_chunks(sum, [[1, 2], [3], []]))
[3, 3, 0]
"""

from __future__ import annotations

import concurrent.futures as cf
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from kifu.core.errors import KifuError

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"
"""``--dask local``: start a ``distributed.LocalCluster`` for the run."""


class InlineExecutor(cf.Executor):
    """Runs each call at once in this process (``workers=1``): no pickling, no processes."""

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> cf.Future[R]:
        future: cf.Future[R] = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:
            future.set_exception(e)
        return future


def _dask_client(address: str, workers: int):  # pragma: no cover - exercised with the extra
    try:
        import distributed
    except ImportError:
        raise KifuError(
            "--dask needs the dask extra: pip install 'kifu[dask]'"
        ) from None
    if address == LOCAL:
        cluster = distributed.LocalCluster(
            n_workers=max(1, workers), threads_per_worker=1, processes=True,
            dashboard_address=None,
        )
        return distributed.Client(cluster), cluster
    return distributed.Client(address), None


@contextmanager
def executor(workers: int = 1, dask: str | None = None) -> Iterator[cf.Executor]:
    """The executor for ``--workers N`` / ``--dask ADDRESS`` (``local`` for a LocalCluster).

    ``workers <= 1`` without Dask runs inline. Raises :class:`KifuError` for a bad count."""
    if workers < 1:
        raise KifuError(f"--workers must be at least 1, not {workers}")
    if dask is not None:
        client, cluster = _dask_client(dask, workers)
        try:
            yield client.get_executor()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return
    if workers == 1:
        yield InlineExecutor()
        return
    with cf.ProcessPoolExecutor(max_workers=workers) as pool:
        yield pool


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
) -> Iterator[R]:
    """``fn(chunk)`` for every chunk, yielded in chunk order.

    Give ``pool`` to reuse an executor across calls; otherwise one is made from ``workers``
    and ``dask`` for this call."""
    if pool is not None:
        yield from _ordered(fn, chunks, pool, window=2 * max(1, workers))
        return
    with executor(workers, dask) as ex:
        yield from _ordered(fn, chunks, ex, window=2 * max(1, workers))


def _ordered(fn: Callable[[T], R], chunks: Iterable[T], ex: cf.Executor,
             window: int) -> Iterator[R]:
    pending: deque[cf.Future[R]] = deque()
    for chunk in chunks:
        pending.append(ex.submit(fn, chunk))
        while len(pending) >= window or (pending and pending[0].done()):
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()
