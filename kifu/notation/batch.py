"""Checking many records: bounded memory, and the same results on one process or N.

A file is read record by record. With ``workers > 1`` the records are read here (by the
one loader, ``kifu.notation.files.load_records``, with its limits) and sent in chunks of whole
records to workers through :func:`kifu.core.executor.map_chunks`, which check them; results
come back in file order, so :func:`iter_file` yields exactly what one process yields.
(:func:`split_chunks` cuts raw text at the reader's record boundaries, for callers that
want workers to parse as well; errors found in such a chunk are moved back to their line
in the file by :func:`relocate`.)

The per-record work is a module-level function ``fn(replayer, loc, index)`` (it is pickled to
workers) that returns ``None`` (nothing to report) or a small picklable value: a report of
what is wrong (``kifu validate``) or a row to store (``kifu archive import``).
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import msgspec

from kifu.core.errors import KifuError, NotationError
from kifu.core.executor import executor, map_chunks
from kifu.notation.files import display_name, load_records
from kifu.notation.puzzle import check_located_puzzle, is_puzzle
from kifu.notation.reader import Located, read_records
from kifu.notation.replay import FastReplayer, ReplayError

CHUNK_RECORDS = 500
"""Records per chunk sent to a worker."""

RecordFn = Callable[[FastReplayer, Located, int], Any]

_REPLAYER = FastReplayer()
"""One per process: its caches serve every chunk that process checks."""


def error_report(path: str, index: int, e: KifuError) -> dict[str, Any]:
    """What ``kifu validate --json`` says about a bad record (``index`` counts from 1)."""
    report: dict[str, Any] = {"file": path, "record": index, "ok": False, "error": str(e)}
    if isinstance(e, NotationError):
        report.update(line=e.line, col=e.col, message=e.message)
    if isinstance(e, ReplayError):
        report.update(ply=e.ply, rule=e.rule, legal=list(e.legal))
    return report


def check_record(replayer: FastReplayer, loc: Located, index: int) -> dict[str, Any] | None:
    """``None`` for a valid record, else its error report (the ``RecordFn`` of validate).
    A puzzle block (``Position`` and ``Question``, no actions) is checked as a puzzle."""
    try:
        rec = loc.record
        if not rec.moves and is_puzzle(rec.headers):
            check_located_puzzle(loc)  # a puzzle block (docs/puzzles.md)
        else:
            replayer.play(loc)
    except KifuError as e:
        return error_report(loc.path, index, e)
    return None


class Stop(msgspec.Struct, frozen=True):
    """A syntax error: the reading of the file stops here (``record`` is the index the
    unreadable record would have had)."""

    report: dict[str, Any]


class Chunk(msgspec.Struct, frozen=True):
    """Whole records of one file: raw ``lines`` (text) starting after line ``offset``, or
    already parsed ``records`` (JSON, stdin); ``first`` is the index of the first record."""

    path: str
    first: int
    offset: int = 0
    lines: list[str] | None = None
    records: list[Located] | None = None
    stop: Stop | None = None


class ChunkResult(msgspec.Struct):
    """What a worker sends back: the non-``None`` results by record index, how many records
    it read, and the syntax error that stopped it, if any."""

    results: list[tuple[int, Any]]
    count: int
    stop: Stop | None = None


def split_chunks(lines: Iterable[str], path: str, size: int = CHUNK_RECORDS) -> Iterator[Chunk]:
    """Cut a text file's lines into chunks of ``size`` whole records.

    A record starts at a header line (``[`` first) that follows a non-header line, outside a
    multi-line comment: the boundaries the reader itself uses. Malformed text lands in some
    chunk whole, whose reader raises the error the reader of the whole file would raise."""
    buf: list[str] = []
    offset = 0  # lines before buf
    lineno = 0
    records = 0  # records started in buf
    first = 1
    in_body = False
    pending = False  # inside a multi-line comment
    for raw in lines:
        lineno += 1
        if pending:
            if "}" in raw:
                pending = False
            buf.append(raw)
            continue
        s = raw.lstrip()
        if s and not s.isspace():
            c = s[0]
            if c == "[":
                if in_body or records == 0:
                    if records == size:
                        yield Chunk(path, first, offset, buf)
                        first += records
                        buf, offset, records = [], lineno - 1, 0
                    records += 1
                    in_body = False
            elif c != "%":
                in_body = True
                if c == "{" and "}" not in s:
                    pending = True
        buf.append(raw)
    if buf:
        yield Chunk(path, first, offset, buf)


def relocate(e: KifuError, offset: int) -> KifuError:
    """``e`` with its line moved down by ``offset`` (a chunk's lines start after it)."""
    if not offset or not isinstance(e, NotationError) or not e.line:
        return e
    if isinstance(e, ReplayError):
        return ReplayError(e.message, line=e.line + offset, col=e.col, path=e.path, ply=e.ply,
                           rule=e.rule, legal=e.legal)
    return NotationError(e.message, line=e.line + offset, col=e.col, path=e.path)


def run_chunk(fn: RecordFn, chunk: Chunk) -> ChunkResult:
    """Parse (if text) and check every record of ``chunk`` (runs on a worker)."""
    out: list[tuple[int, Any]] = []
    index = chunk.first - 1
    locs: Iterable[Located] = (
        chunk.records if chunk.records is not None
        else read_records(chunk.lines or [], path=chunk.path)
    )
    replayer = _REPLAYER
    try:
        for loc in locs:
            index += 1
            if chunk.offset:
                loc = _shifted(loc, chunk.offset)
            result = fn(replayer, loc, index)
            if result is not None:
                out.append((index, result))
    except NotationError as e:  # a syntax error: this file stops here
        e = relocate(e, chunk.offset)
        report = error_report(e.path or chunk.path, index + 1, e)
        return ChunkResult(out, index - chunk.first + 1, Stop(report))
    return ChunkResult(out, index - chunk.first + 1, chunk.stop)


def _shifted(loc: Located, offset: int) -> Located:
    """``loc`` with its line numbers counted from the start of the file."""
    return Located(
        loc.record, loc.path, loc.line + offset, [n + offset for n in loc.move_lines],
        {k: n + offset for k, n in loc.header_lines.items()},
    )


def map_pool(fn: Callable[[Any], Any], chunks: Iterable[Any], *, workers: int,
             dask: str | None = None, pool: cf.Executor | None = None) -> Iterator[Any]:
    """The one place ``--workers`` / ``--dask`` reach the executor seam."""
    return map_chunks(fn, chunks, workers=workers, dask=dask, pool=pool)


def shared_pool(workers: int = 1,
                dask: str | None = None) -> AbstractContextManager[cf.Executor | None]:
    """One executor for a whole run over many files (``None``: check in this process), so
    ``--dask local`` starts one LocalCluster, not one per file."""
    if workers <= 1 and dask is None:
        return nullcontext(None)
    return executor(workers, dask)


def iter_file(
    path: str,
    fn: RecordFn,
    *,
    workers: int = 1,
    load: Callable[[str], Iterable[Located]] | None = None,
    chunk_records: int = CHUNK_RECORDS,
    dask: str | None = None,
    pool: cf.Executor | None = None,
) -> Iterator[tuple[int, Any] | Stop | int]:
    """Check every record of ``path`` with ``fn``: yields ``(index, result)`` for every
    non-``None`` result in file order, then a :class:`Stop` if a syntax error ended the
    reading, then the number of records read (an ``int``, always last).

    ``load`` reads a file into located records (default: ``kifu.notation.files.load_records``).
    ``dask`` or ``pool`` (from :func:`shared_pool`) send the chunks there instead.
    """
    if load is None:
        load = load_records
    if workers <= 1 and dask is None and pool is None:
        replayer = _REPLAYER
        index = 0
        try:
            for loc in load(path):
                index += 1
                result = fn(replayer, loc, index)
                if result is not None:
                    yield index, result
        except NotationError as e:
            yield Stop(error_report(e.path or path, index + 1, e))
        yield index
        return
    chunks = _chunks(path, load, chunk_records)
    total = 0
    for res in map_pool(functools.partial(run_chunk, fn), chunks, workers=workers,
                        dask=dask, pool=pool):
        yield from res.results
        total += res.count
        if res.stop is not None:
            yield res.stop
            break
    yield total


def _chunks(path: str, load: Callable[[str], Iterable[Located]], size: int) -> Iterator[Chunk]:
    """Chunks of records parsed here by ``load`` (the one reader of every input form, with
    its limits), checked on the workers."""
    first = 1
    batch: list[Located] = []
    try:
        for loc in load(path):
            batch.append(loc)
            if len(batch) == size:
                yield Chunk(loc.path, first, records=batch)
                first += size
                batch = []
    except NotationError as e:  # the reading stops here: the worker reports it in order
        name = e.path or display_name(path)
        yield Chunk(name, first, records=batch,
                    stop=Stop(error_report(name, first + len(batch), e)))
        return
    if batch:
        yield Chunk(batch[0].path, first, records=batch)


def report_record(replayer: FastReplayer, loc: Located, index: int) -> dict[str, Any]:
    """Like :func:`check_record`, but a valid record gets a report too (``--json``)."""
    bad = check_record(replayer, loc, index)
    return bad if bad is not None else {"file": loc.path, "record": index, "ok": True}


class FileSummary(msgspec.Struct):
    """One file's totals: records read, records valid."""

    path: str
    count: int
    ok: int


class Validation:
    """Validate files one after another, keeping counts only: :meth:`run` yields each
    report (bad records; with ``every=True`` valid ones too) and a :class:`FileSummary` per
    file, and keeps none of them, so memory does not grow with the number of records."""

    def __init__(self, *, report_all: bool = False, every: bool = False, workers: int = 1,
                 dask: str | None = None, chunk_records: int = CHUNK_RECORDS):
        self.report_all = report_all
        self.every = every
        self.workers = workers
        self.dask = dask
        self.chunk_records = chunk_records
        self.checked = 0
        self.bad = 0

    def run(self, paths: Iterable[str]) -> Iterator[dict[str, Any] | FileSummary]:
        with shared_pool(self.workers, self.dask) as pool:
            yield from self._run(paths, pool)

    def _run(self, paths: Iterable[str],
             pool: cf.Executor | None) -> Iterator[dict[str, Any] | FileSummary]:
        fn = report_record if self.every else check_record
        for path in paths:
            count = bad_records = 0  # records read; those of them that are bad
            stopped = False  # a syntax error ended the reading of this file
            for item in iter_file(path, fn, workers=self.workers, pool=pool,
                                  chunk_records=self.chunk_records):
                if isinstance(item, int):
                    count = item
                    break
                if isinstance(item, Stop):
                    stopped = True
                    count = item.report["record"] - 1
                    yield item.report
                    break
                index, report = item
                yield report
                if not report["ok"]:
                    bad_records += 1
                    if not self.report_all:
                        count = index
                        break
            bad = bad_records + stopped
            self.checked += count
            self.bad += bad
            yield FileSummary(path, count, count - bad_records)
            if bad and not self.report_all:
                return
