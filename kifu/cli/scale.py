"""``--workers N``, ``--dask ADDRESS|local``, ``--chunk-size N``: the options of every heavy
command, in one decorator, so they read and behave the same everywhere.

The command gets ``workers``, ``dask`` and ``chunk_size`` keyword arguments and passes them
on to :func:`kifu.core.executor.map_chunks` (``docs/scale.md``)::

    @click.command()
    @executor_options(chunk_size=64, unit="records")
    @handle_errors
    def validate(files, workers, dask, chunk_size): ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_CHUNK = 64


def executor_options(func: F | None = None, *, chunk_size: int | None = DEFAULT_CHUNK,
                     unit: str = "items") -> Any:
    """Add ``--workers``, ``--dask`` and ``--chunk-size`` to a click command.

    Use bare (``@executor_options``) or with the command's default chunk size and what a
    chunk holds (``@executor_options(chunk_size=4, unit="games")``); ``chunk_size=None``:
    the command chooses it from the work and the workers (the option is then ``None``)."""

    def decorate(f: F) -> F:
        f = click.option(
            "--chunk-size", type=click.IntRange(1), default=chunk_size,
            show_default=chunk_size is not None,
            help=f"{unit.capitalize()} per chunk shipped to a worker; the output does not "
                 "depend on it." + ("" if chunk_size is not None else
                                    " [default: chosen from the work and the workers]"))(f)
        f = click.option(
            "--dask", metavar="ADDRESS|local", default=None,
            help="Run the chunks on a Dask scheduler (tcp://host:8786), or on a LocalCluster "
                 "of --workers processes started for the run ('local'); needs "
                 "pip install 'kifu[dask]'.")(f)
        f = click.option(
            "-w", "--workers", type=click.IntRange(1), default=1, show_default=True,
            help="Local worker processes (1 = in this process); with --dask local, the "
                 "LocalCluster's workers.")(f)
        return f

    if func is not None:
        return decorate(func)
    return decorate
