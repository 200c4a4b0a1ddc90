"""The Dask cluster of the scale-out tests and benchmarks: a ``distributed.LocalCluster`` of
two worker processes, one thread each, on loopback, without a dashboard, its logs silenced,
configured as ``docs/scale.md`` recommends for kifu (``kifu.core.executor.LEAN_WORKERS``:
no statistical profiler in the workers).

``tests/test_dask.py`` imports it as ``dask_cluster`` (``tests/`` is on the path under
pytest), ``benchmarks/test_scale.py`` as ``tests.dask_cluster``. Needs the dask extra."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def local_cluster(workers: int = 2) -> Iterator[Any]:
    """A running LocalCluster of ``workers`` processes, closed on exit."""
    import dask
    import distributed

    from kifu.core.executor import LEAN_WORKERS

    with dask.config.set(LEAN_WORKERS), distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
        host="127.0.0.1", silence_logs=logging.CRITICAL,
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
    ) as cluster:
        yield cluster
