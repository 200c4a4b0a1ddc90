"""Checking many records: bounded memory, and the same results on one process or N.

A file is read record by record. With ``workers > 1`` (or Dask) the workers read as well as
check: the parent cuts the file's bytes into chunks of about ``chunk_records`` records
without parsing them (C-speed searches for a blank line followed by a line starting with
``[``; any line start for JSON lines) and sends each worker ``(file, offset, length, lines
before)``, or the bytes themselves for stdin and Dask. The worker reads its chunk with the
one reader (its limits, its located errors, line numbers counted from the file's start),
checks the records and says whether its reader ended the chunk idle. Where it did not (a
cut inside a comment or a header block), or where a syntax error stopped it, the parent
reads again from the start of that chunk, serially, until its reader is idle at a cut:
:func:`iter_file` yields exactly what one process yields (``tests/test_raw_chunks.py``). A
JSON document is read whole here and sent in chunks of parsed records.

The per-record work is a module-level function ``fn(replayer, loc, index)`` (it is pickled to
workers) that returns ``None`` (nothing to report) or a small picklable value: a report of
what is wrong (``kifu validate``) or a row to store (``kifu archive import``). A worker
counts ``index`` from 1 in its chunk; ``renumber`` moves its results to the file's count.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import io
import itertools
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import IO, Any

import msgspec

from kifu.core.errors import KifuError, NotationError
from kifu.core.executor import DaskExecutor, executor, map_chunks
from kifu.notation.files import (
    JSON_DOCUMENT,
    MAX_JSON,
    MAX_LINE,
    TEXT,
    _Lines,
    display_name,
    json_line_record,
    json_lines,
    json_records,
    load_records,
    open_binary,
    read_head,
)
from kifu.notation.puzzle import check_located_puzzle, is_puzzle
from kifu.notation.reader import Blocks, Located, ReaderState, read_records
from kifu.notation.replay import FastReplayer, ReplayError

CHUNK_RECORDS = 500
"""Records per chunk sent to a worker."""

MAX_CHUNK_BYTES = 8 << 20
"""A chunk is cut once it holds this many bytes, even where no record starts: at a line
start (or, inside a line longer than a line may be, where the reader's error is sure)."""

READ_BYTES = 1 << 20
"""Bytes read at a time by the parent while it cuts a file into chunks."""

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


def replays(loc: Located) -> Located:
    """``loc`` once it replays (validate's check; its error, located, when it does not).
    ``kifu analyze`` and ``kifu puzzles mine`` check each record as they read it, so a
    file of a million bad records stops at the first, as validate does, instead of being
    held whole first (issue 35: 1.25 GB for 1.5 M header-only records)."""
    _REPLAYER.play(loc)
    return loc


class Stop(msgspec.Struct, frozen=True):
    """A syntax error: the reading of the file stops here (``record`` is the index the
    unreadable record would have had)."""

    report: dict[str, Any]


class Chunk(msgspec.Struct, frozen=True):
    """Records already parsed here (a JSON document; a caller's own ``load``), checked on a
    worker; ``first`` is the index of the first record."""

    path: str
    first: int
    records: list[Located]
    stop: Stop | None = None


class ChunkResult(msgspec.Struct):
    """What a worker sends back: the non-``None`` results by record index (for a raw
    chunk, counted from 1 in the chunk), how many records it read, whether the reading
    stopped at a syntax error, and (raw chunks) whether it ended where a reader of the
    whole file could start afresh (see :class:`RawChunk`)."""

    results: list[tuple[int, Any]]
    count: int
    stop: Stop | None = None
    clean: bool = True


class RawChunk(msgspec.Struct, frozen=True):
    """A run of whole lines of a record file, read and checked by a worker.

    The bytes are ``data``, or ``length`` bytes at ``offset`` of the file ``file`` (a local
    process reads them itself). ``line`` lines of the file come before them. The first
    chunk of a file carries the lines the parent read to learn what the file holds
    (``head``, :func:`kifu.notation.files.read_head`); the others start where a record
    starts, as the parent found it: after a blank line, at a line starting with ``[``.

    The parent cuts without parsing, so a cut may fall inside a comment or between the
    header lines of one record. The worker tells: its reader reports whether it ended the
    chunk *idle* (``kifu.notation.reader.ReaderState``), and ``next_header`` says whether the
    next chunk starts with ``[``; only then would a reader of the whole file have been
    exactly where a new reader starts. Otherwise, or at a syntax error, the parent reads
    again from the start of that chunk, serially, as one process would."""

    name: str
    kind: str
    line: int
    keep_text: bool = False
    head: list[str] | None = None
    data: bytes | None = None
    file: str | None = None
    offset: int = 0
    length: int = 0
    next_header: bool = False
    last: bool = False


def _raw_bytes(chunk: RawChunk) -> bytes:
    if chunk.data is not None:
        return chunk.data
    with open(chunk.file or "", "rb") as f:
        f.seek(chunk.offset)
        return f.read(chunk.length)


def _span(chunks: Iterable[RawChunk], state: ReaderState) -> Iterator[Located]:
    """The records of consecutive chunks read as one part of their file, by the one reader
    (its limits, its located errors), line numbers counted from the file's start."""
    it = iter(chunks)
    first = next(it, None)
    if first is None:
        return
    if first.kind == TEXT:
        def blocks() -> Iterator[tuple[list[str], bool]]:
            for c in itertools.chain([first], it):
                if c.head:
                    yield c.head, False
                lines = _Lines(io.BytesIO(_raw_bytes(c)), c.name, c.line + len(c.head or ()))
                yield from lines.blocks()

        yield from read_records(Blocks(blocks()), path=first.name, blocks=True,
                                keep_text=first.keep_text, first_line=first.line, state=state)
        return
    for c in itertools.chain([first], it):  # JSON lines: each line alone
        src = _Lines(io.BytesIO(_raw_bytes(c)), c.name, c.line + len(c.head or ()))
        if c.head:
            at = c.line + len(c.head)
            yield Located(json_line_record(c.head[-1], c.name, at), c.name, at, [], {})
        yield from json_lines(src, c.name)


def run_raw_chunk(fn: RecordFn, chunk: RawChunk) -> ChunkResult:
    """Read and check every record of ``chunk`` (runs on a worker); indexes count from 1 in
    the chunk. A syntax error only sets ``stop`` (the parent reads the chunk again)."""
    out: list[tuple[int, Any]] = []
    index = 0
    state = ReaderState()
    replayer = _REPLAYER
    try:
        for loc in _span([chunk], state):
            index += 1
            result = fn(replayer, loc, index)
            if result is not None:
                out.append((index, result))
    except NotationError:
        return ChunkResult([], index, Stop({}), False)
    clean = chunk.last or (state.idle and (chunk.next_header or not state.in_record))
    return ChunkResult(out, index, None, clean)


def run_chunk(fn: RecordFn, chunk: Chunk) -> ChunkResult:
    """Check every record of a chunk of parsed records (runs on a worker)."""
    out: list[tuple[int, Any]] = []
    index = chunk.first - 1
    replayer = _REPLAYER
    try:
        for loc in chunk.records:
            index += 1
            result = fn(replayer, loc, index)
            if result is not None:
                out.append((index, result))
    except NotationError as e:
        report = error_report(e.path or chunk.path, index + 1, e)
        return ChunkResult(out, index - chunk.first + 1, Stop(report))
    return ChunkResult(out, index - chunk.first + 1, chunk.stop)


def renumber_report(result: Any, base: int) -> Any:
    """A worker's result for the record ``index`` of its chunk made the result for record
    ``base + index`` of the file: an error report's ``record`` moves (the RecordFn results
    of validate and of the archive import carry the index nowhere else)."""
    if base and isinstance(result, dict) and "record" in result:
        result["record"] += base
    return result


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
    keep_text: bool = False,
    renumber: Callable[[Any, int], Any] = renumber_report,
) -> Iterator[tuple[int, Any] | Stop | int]:
    """Check every record of ``path`` with ``fn``: yields ``(index, result)`` for every
    non-``None`` result in file order, then a :class:`Stop` if a syntax error ended the
    reading, then the number of records read (an ``int``, always last).

    ``load`` reads a file into located records (default: ``kifu.notation.files.load_records``,
    with ``keep_text``). ``dask`` or ``pool`` (from :func:`shared_pool`) send the chunks
    there instead. Text records and JSON lines go to the workers as raw chunks
    (:class:`RawChunk`), which read them; a worker's results carry indexes counted in its
    chunk, and ``renumber(result, base)`` makes them the file's (:func:`renumber_report`).
    """
    if workers <= 1 and dask is None and pool is None:
        yield from _serial(path, fn, load or functools.partial(load_records,
                                                               keep_text=keep_text))
        return
    run = functools.partial(map_pool, workers=workers, dask=dask, pool=pool)
    if load is not None:
        yield from _parsed(load(path), display_name(path), fn, run, chunk_records)
        return
    name = display_name(path)
    with open_binary(path) as f:
        src = _Lines(f, name)
        try:
            kind, head = read_head(src)
        except NotationError as e:
            yield Stop(error_report(e.path or path, 1, e))
            yield 0
            return
        if kind is None:
            yield 0
            return
        if kind == JSON_DOCUMENT:  # read whole here (bounded), checked in chunks
            yield from _parsed(json_records(src, head, name, kind), name, fn, run,
                               chunk_records)
            return
        ship_bytes = (path == "-" or dask is not None or isinstance(pool, DaskExecutor)
                      or not os.path.isfile(path))
        chunks = _raw_chunks(f, src.lineno, head, name, kind, chunk_records, keep_text,
                             None if ship_bytes else os.path.abspath(path))
        yield from _raw(chunks, path, fn, run, renumber)


def _checked(locs: Iterable[Located], fn: RecordFn, path: str,
             index: int) -> Generator[tuple[int, Any] | Stop, None, tuple[int, bool]]:
    """``fn`` on each record read here, numbered on from ``index``: yields each result with
    its number, and a :class:`Stop` at a syntax error; returns the last number and whether
    it stopped."""
    replayer = _REPLAYER
    try:
        for loc in locs:
            index += 1
            result = fn(replayer, loc, index)
            if result is not None:
                yield index, result
    except NotationError as e:
        yield Stop(error_report(e.path or path, index + 1, e))
        return index, True
    return index, False


def _serial(path: str, fn: RecordFn,
            load: Callable[[str], Iterable[Located]]) -> Iterator[tuple[int, Any] | Stop | int]:
    index, _ = yield from _checked(load(path), fn, path, 0)
    yield index


def _raw(chunks: Iterator[RawChunk], path: str, fn: RecordFn,
         run: Callable[..., Iterator[ChunkResult]],
         renumber: Callable[[Any, int], Any]) -> Iterator[tuple[int, Any] | Stop | int]:
    """The results of raw chunks in file order: a worker's where its chunk began where a new
    reader begins and read cleanly, else those of reading serially here from that chunk's
    start until the reader is idle again at a cut (or the file ends, or a syntax error)."""
    sent: deque[RawChunk] = deque()  # the chunks submitted whose results are not used yet

    def feed() -> Iterator[RawChunk]:
        for c in chunks:
            sent.append(c)
            yield c

    results = run(functools.partial(run_raw_chunk, fn), feed())
    base = 0  # records before the chunk at hand
    try:
        for res in results:
            chunk = sent.popleft()
            if res.stop is None and res.clean:
                for index, result in res.results:
                    yield base + index, renumber(result, base)
                base += res.count
                continue
            state = ReaderState()

            def serial_chunks(c: RawChunk = chunk,
                              state: ReaderState = state) -> Iterator[RawChunk]:
                while True:
                    yield c
                    if c.last or (state.idle and (c.next_header or not state.in_record)):
                        return  # the next chunk's worker read it as this reader would
                    if next(results, None) is None:  # its result is not wanted
                        return
                    c = sent.popleft()

            base, stopped = yield from _checked(_span(serial_chunks(), state), fn, path, base)
            if stopped:
                yield base
                return
    finally:
        results.close()
    yield base


def _raw_chunks(f: IO[bytes], lines: int, head: list[str], name: str, kind: str, size: int,
                keep_text: bool, file: str | None) -> Iterator[RawChunk]:
    """The rest of ``f`` (``lines`` lines and ``head`` already read) cut into chunks of
    about ``size`` records, without parsing: at the start of a line beginning with ``[``
    after a blank line (text), at any line start (JSON lines). A chunk that would pass
    :data:`MAX_CHUNK_BYTES` is cut sooner, at a record start found or else at a line start
    (a cut the workers report unclean, if it is)."""
    offset = f.tell() if file is not None else 0
    text = kind == TEXT
    cap = MAX_CHUNK_BYTES
    limit = MAX_LINE if text else MAX_JSON  # a longer line is an error wherever it is cut
    read = getattr(f, "read1", f.read)
    buf = b""
    start = 0  # the chunk's first byte in buf
    scan = 0  # where to look for the next cut in buf
    found = 0  # cuts found in buf after start
    cut = 0  # the last of them
    crlf = False
    eof = False
    first_head: list[str] | None = head

    def chunk(end: int, next_header: bool, last: bool) -> RawChunk:
        nonlocal lines, offset, first_head
        data = buf[start:end]
        c = RawChunk(name, kind, lines - len(first_head or ()), keep_text, first_head,
                     None if file is not None else data, file, offset, len(data),
                     next_header, last)
        lines += data.count(b"\n")
        offset += len(data)
        first_head = None
        return c

    while True:
        while found < size:
            if text:  # a line starting with [ after a blank line (\n or \r\n)
                at = buf.find(b"\n\n[", scan)
                at = at + 2 if at >= 0 else -1
                if crlf:
                    at2 = buf.find(b"\n\r\n[", scan)
                    if at2 >= 0 and (at < 0 or at2 + 3 < at):
                        at = at2 + 3
            else:
                at = buf.find(b"\n", scan)
                at = at + 1 if at >= 0 else -1
            if at < 0:
                scan = max(scan, len(buf) - 3)
                break
            found += 1
            cut = scan = at
        if found < size and len(buf) - start >= cap:
            if found:  # cut at the last record start found
                found = size
            else:  # none in reach: cut at a line start
                nl = buf.rfind(b"\n", start, start + cap)
                if nl < start:
                    nl = buf.find(b"\n", start + cap)
                if nl >= 0:
                    cut, found = nl + 1, size
                elif len(buf) - start > cap + limit + 2:  # in a line too long to read
                    cut, found = start + cap + limit + 2, size
        if found >= size:
            yield chunk(cut, text and _starts_record(buf, cut), False)
            start = scan = cut
            found = 0
            continue
        if eof:
            yield chunk(len(buf), False, True)
            return
        data = read(READ_BYTES)
        if not data:
            eof = True
            continue
        if start:  # drop what was sent; the offsets into buf move with it
            buf, scan, cut = buf[start:], scan - start, cut - start
            start = 0
        buf += data
        crlf = crlf or b"\r" in data


def _starts_record(buf: bytes, at: int) -> bool:
    """Whether the line at ``at`` of ``buf`` surely begins a record where the reader reads
    it: it starts with ``[`` after a line end, and nothing the reader checks before it
    looks at a line's first character can fail there (the line ends within ``buf`` and
    the length limit, holds no carriage return but at its end, and is UTF-8). Else the
    reader of the whole file could stop on that line before it ends the record in front of
    it, which a worker starting afresh there would have ended: the cut is not clean."""
    if buf[at : at + 1] != b"[" or buf[at - 1 : at] != b"\n":
        return False
    end = buf.find(b"\n", at, at + MAX_LINE + 1)
    if end < 0:
        return False
    line = buf[at:end]
    if b"\r" in line.rstrip(b"\r"):
        return False
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _parsed(locs: Iterable[Located], name: str, fn: RecordFn,
            run: Callable[..., Iterator[ChunkResult]],
            size: int) -> Iterator[tuple[int, Any] | Stop | int]:
    total = 0
    for res in run(functools.partial(run_chunk, fn), _chunks(locs, name, size)):
        yield from res.results
        total += res.count
        if res.stop is not None:
            yield res.stop
            break
    yield total


def _chunks(locs: Iterable[Located], name: str, size: int) -> Iterator[Chunk]:
    """Chunks of records parsed here (a JSON document, or a caller's ``load``), checked on
    the workers."""
    first = 1
    batch: list[Located] = []
    try:
        for loc in locs:
            batch.append(loc)
            if len(batch) == size:
                yield Chunk(loc.path, first, batch)
                first += size
                batch = []
    except NotationError as e:  # the reading stops here: the worker reports it in order
        where = e.path or name
        yield Chunk(where, first, batch, Stop(error_report(where, first + len(batch), e)))
        return
    if batch:
        yield Chunk(batch[0].path, first, batch)


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
