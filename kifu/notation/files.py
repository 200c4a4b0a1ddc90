"""Record files in and out: the one loader of record files (text or JSON, streamed, with
located errors and size limits) and the one output writer (atomic, never over an input).

Every command and library path that reads records from a file or writes an output file goes
through here (``kifu.cli``, ``kifu.archive``, ``kifu.notation.batch``, ``kifu.html``).
"""

from __future__ import annotations

import contextlib
import errno
import io
import itertools
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import msgspec

from kifu.core import command
from kifu.core.errors import KifuError, NotationError
from kifu.notation.reader import Blocks, Located, ReaderState, plain_text, read_records
from kifu.notation.record import (
    MAX_ACTIONS,
    MAX_LINE,
    _json_error,
    json_too_deep,
    record_from_json,
    records_from_json,
)


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


MAX_JSON = 32 * 1024 * 1024
"""The largest JSON document (or JSON line) read, in bytes (docs/notation.md, "Limits")."""

_BOM = b"\xef\xbb\xbf"
CHUNK = 1 << 18
"""Bytes read at a time by the line reader (a few lines past it at most are held)."""


def open_binary(path: str) -> contextlib.AbstractContextManager[IO[bytes]]:
    if path == "-":  # stdin is read, not closed
        note_input(path)
        return contextlib.nullcontext(getattr(sys.stdin, "buffer", sys.stdin))
    f = open(path, "rb")  # noqa: SIM115 - the caller closes it (a with block)
    note_input(path, f)
    return f


def _decode(raw: bytes, lineno: int, name: str) -> str:
    """Strict UTF-8; an invalid byte is reported at its line and column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        col = len(raw[: e.start].decode("utf-8", "replace")) + 1
        raise NotationError(f"invalid UTF-8 (byte 0x{raw[e.start]:02x})", line=lineno, col=col,
                            path=name) from None


class _Lines:
    """The lines of a binary stream as text, read one at a time in bounded memory: the
    same bytes give the same lines from a file and from stdin (only \\n ends a line; no
    newline translation), a UTF-8 BOM at the start is dropped, and a line longer than
    ``limit`` bytes is refused (so ``/dev/zero`` ends in an error, not in ``MemoryError``)."""

    def __init__(self, f: IO[bytes], name: str, lineno: int = 0):
        self.f = f
        self.name = name
        self.lineno = lineno  # lines before f (a part of a file: no BOM is looked for)

    def raw(self, limit: int = 0, json_limit: int = 0) -> bytes:
        """The next line as bytes (empty at the end): at most ``limit`` bytes (default
        :data:`MAX_LINE`), or ``json_limit`` for a line that starts like JSON (``{`` or
        ``[``)."""
        limit = limit or MAX_LINE
        data = self.f.readline(limit + 1)
        if not data:
            return data
        self.lineno += 1
        if self.lineno == 1 and data.startswith(_BOM):
            data = data[len(_BOM) :]
        if len(data) > limit and not data.endswith(b"\n"):
            if json_limit > limit and data.lstrip()[:1] in (b"{", b"["):
                data += self.f.readline(json_limit - len(data) + 1)
                limit = json_limit
            if len(data) > limit and not data.endswith(b"\n"):
                raise NotationError(f"line longer than {limit} bytes", line=self.lineno,
                                    col=limit + 1, path=self.name)
        return data

    def text(self) -> str | None:
        data = self.raw()
        return _decode(data, self.lineno, self.name) if data else None

    def __iter__(self) -> Iterator[str]:
        """The remaining lines as text (as :meth:`text` gives them, but see :meth:`blocks`)."""
        for lines, _plain in self.blocks():
            yield from lines

    def blocks(self) -> Iterator[tuple[list[str], bool]]:
        """The remaining lines as text, read in blocks of :data:`CHUNK` bytes: lists of
        lines, each with whether it is plain (``kifu.notation.reader.plain_text``).

        A block of whole lines, each shorter than :data:`MAX_LINE`, is decoded at once and
        split at ``\\n``, which it loses (the reader takes a line the same with or without
        it, and its line length limit cannot be reached). A block with a longer line or a
        bad byte goes line by line, as :meth:`text` reads them, so every error is the one
        :meth:`text` raises, at the same line, after the same lines."""
        if self.lineno == 0:  # the first line may start with a BOM
            line = self.text()
            if line is None:
                return
            yield [line], False
        read = getattr(self.f, "read1", self.f.read)
        limit = MAX_LINE
        buf = b""
        while True:
            data = read(CHUNK)
            if not data:
                break
            buf += data
            cut = buf.rfind(b"\n") + 1
            if not cut:
                if len(buf) > limit:  # a line that does not end within the limit
                    raise NotationError(f"line longer than {limit} bytes", line=self.lineno + 1,
                                        col=limit + 1, path=self.name)
                continue
            block, buf = buf[:cut], buf[cut:]
            yield from self._block(block)
            if len(buf) > limit:
                raise NotationError(f"line longer than {limit} bytes", line=self.lineno + 1,
                                    col=limit + 1, path=self.name)
        if buf:
            yield from self._block(buf)

    def _block(self, block: bytes) -> Iterator[tuple[list[str], bool]]:
        parts = block.split(b"\n")
        if max(map(len, parts)) < MAX_LINE:
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                lines = text.split("\n")
                if not lines[-1]:
                    lines.pop()
                self.lineno += len(lines)
                yield lines, plain_text(text, lines)
                return
        last = parts.pop()
        for raw in parts:
            self.lineno += 1
            if len(raw) > MAX_LINE:
                raise NotationError(f"line longer than {MAX_LINE} bytes", line=self.lineno,
                                    col=MAX_LINE + 1, path=self.name)
            yield [_decode(raw + b"\n", self.lineno, self.name)], False
        if last:
            self.lineno += 1
            if len(last) > MAX_LINE:
                raise NotationError(f"line longer than {MAX_LINE} bytes", line=self.lineno,
                                    col=MAX_LINE + 1, path=self.name)
            yield [_decode(last, self.lineno, self.name)], False


class _Prefixed(io.RawIOBase):
    """A stream that gives ``head`` again before the rest of ``f`` (see :func:`with_head`)."""

    def __init__(self, head: bytes, f: IO[bytes]):
        self.head = head
        self.f = f

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self.head:
            n = min(len(b), len(self.head))
            b[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        read = getattr(self.f, "read1", self.f.read)
        data = read(len(b))
        b[: len(data)] = data
        return len(data)


def with_head(f: IO[bytes], size: int = 4096) -> tuple[bytes, IO[bytes]]:
    """The first ``size`` bytes of ``f`` (fewer at its end) and a stream that reads all of
    ``f`` from its start, those bytes included: a look at a file or a pipe (standard input)
    before choosing its reader, without reading it whole."""
    head = f.read(size)
    return head, io.BufferedReader(_Prefixed(head, f))


def is_json(text: str) -> bool:
    """JSON starts with ``{`` or ``[{``; a text record starts with ``[Tag``."""
    s = text.lstrip()
    if s.startswith("{"):
        return True
    return s.startswith("[") and s[1:].lstrip()[:1] in ("{", "]", "")


def load_records(path: str, visitor: Any = None, *,
                 keep_text: bool = False) -> Iterator[Located]:
    """The records of a file (``-`` for stdin), text or JSON, with their locations.
    ``keep_text``: see ``read_records`` (the archive's import sets it).

    Everything is read as bytes and streamed: text records one at a time, JSON lines one
    line at a time; only a JSON document (one record or a list) is read whole, up to
    :data:`MAX_JSON` bytes. Every error is a :class:`NotationError` with ``file:line:col``.
    """
    with open_binary(path) as f:
        yield from read_stream(f, display_name(path), visitor, keep_text=keep_text)


def read_stream(f: IO[bytes], name: str, visitor: Any = None, *,
                keep_text: bool = False,
                json: Callable[[str], Iterable[Any]] | None = None) -> Iterator[Any]:
    """The records of a binary stream named ``name`` (what :func:`load_records` reads).

    ``json``: what to make of a JSON stream instead of records (the puzzle reader's
    decoder): it gets the whole document as text, at most :data:`MAX_JSON` bytes."""
    src = _Lines(f, name)
    kind, head = read_head(src)
    if kind == TEXT:
        yield from text_records(head, src, name, visitor=visitor, keep_text=keep_text)
    elif kind is not None and json is not None:
        yield from json(_json_document(src, head, name))
    elif kind is not None:
        yield from json_records(src, head, name, kind)


TEXT, JSON_LINES, JSON_DOCUMENT = "text", "json-lines", "json"
"""What a record file holds (:func:`read_head`)."""


def read_head(src: _Lines) -> tuple[str | None, list[str]]:
    """Read the lines of ``src`` up to the first that is not blank, which says what the file
    holds: :data:`TEXT` records, :data:`JSON_LINES` or one :data:`JSON_DOCUMENT` (``None``
    when there is no such line), and those lines."""
    head: list[str] = []
    while True:  # the blank lines before the first line that says text or JSON
        first = src.raw(MAX_LINE, MAX_JSON)
        if not first:
            return None, head
        text = _decode(first, src.lineno, src.name)
        head.append(text)
        if text.strip(" \t\r\n"):  # the reader's blank line: a form feed is not one
            break
    if not is_json(text):
        if len(first) > MAX_LINE + 2:
            raise NotationError(f"line longer than {MAX_LINE} bytes", line=src.lineno,
                                col=MAX_LINE + 1, path=src.name)
        return TEXT, head
    if text.lstrip().startswith("{") and _complete_json(text):
        return JSON_LINES, head
    return JSON_DOCUMENT, head


def text_records(head: list[str], src: _Lines, name: str, *, visitor: Any = None,
                 keep_text: bool = False, first_line: int = 0,
                 state: ReaderState | None = None) -> Iterator[Located]:
    """The text records of ``head`` (lines already read, if any) and then of ``src``."""
    # blocks: a blank line after headers ends a block, so puzzle blocks (headers only)
    # read one by one; records are unchanged (as _end_blocks, an empty comment there)
    parts = Blocks(itertools.chain([(head, False)] if head else [], src.blocks()))
    return read_records(parts, path=name, visitor=visitor, blocks=True,
                        keep_text=keep_text, first_line=first_line, state=state)


def _complete_json(line: str) -> bool:
    """Whether ``line`` is a whole JSON value (``kifu.notation.record.complete_json``),
    checked without building it: a 32 MB line of a million moves is not turned into a
    million dicts only to be recognised (issue 35)."""
    try:  # msgspec skips the value, building nothing; too deep is a RecursionError
        msgspec.json.decode(line, type=msgspec.Raw)
    except (msgspec.DecodeError, RecursionError):
        return False
    if line.count('"actor"') > MAX_ACTIONS:  # refused by its moves next (_bound_moves),
        return True  # before json_too_deep would take 30 bytes a string to look
    return not json_too_deep(line)  # deeper than a record may be: part of a document


class _Skipped(msgspec.Struct):
    """A move counted, not read (:func:`_bound_moves`)."""


class _Shape(msgspec.Struct):
    moves: list[_Skipped] = msgspec.field(default_factory=list)


_shape = msgspec.json.Decoder(_Shape)
_shapes = msgspec.json.Decoder(list[_Shape])


def _bound_moves(text: str, name: str, line: int = 0) -> None:
    """Refuse JSON holding a record of more than ``MAX_ACTIONS`` moves before it is
    decoded: the same error the record check gives, without building a million moves
    first (1.1 GB for a 32 MB document, issue 35). A document with few ``"actor"`` keys
    passes at once; one with more has its moves counted (an empty object each)."""
    if text.count('"actor"') <= MAX_ACTIONS:
        return
    many = text.lstrip().startswith("[")
    try:
        shapes = _shapes.decode(text) if many else [_shape.decode(text)]
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise _json_error(e, text, name, line) from None
    except RecursionError:  # too deep: the record's own check says so
        return
    for i, shape in enumerate(shapes, 1):
        if len(shape.moves) > MAX_ACTIONS:
            message = (f"moves: a record may have at most {MAX_ACTIONS} actions, not "
                       f"{len(shape.moves)}")
            if many:
                raise NotationError(f"record {i}: {message}", path=name)
            raise NotationError(message, line=line, col=1 if line else 0, path=name)


def json_line_record(text: str, name: str, line: int) -> Any:
    """The record of one JSON line (its moves counted first, :func:`_bound_moves`)."""
    _bound_moves(text, name, line)
    return record_from_json(text, path=name, line=line)


def json_lines(src: _Lines, name: str) -> Iterator[Located]:
    """The records of the JSON lines left in ``src`` (blank lines skipped)."""
    while line := src.raw(MAX_LINE, MAX_JSON):
        if line.strip():
            text = _decode(line, src.lineno, name)
            rec = json_line_record(text, name, src.lineno)
            yield Located(rec, name, src.lineno, [], {})


def json_records(src: _Lines, head: list[str], name: str, kind: str) -> Iterator[Located]:
    """The JSON records of ``src`` after ``head`` (what :func:`read_head` read)."""
    first = head[-1]
    start = src.lineno
    if kind == JSON_LINES:
        # JSON lines: one record a line, streamed
        yield Located(json_line_record(first, name, start), name, start, [], {})
        yield from json_lines(src, name)
        return
    # one JSON document (a record over several lines, or a list): read whole, bounded
    document = _json_document(src, head, name)
    _bound_moves(document, name)
    for r in records_from_json(document, path=name):
        yield Located(r, name, start, [], {})


def _json_document(src: _Lines, head: list[str], name: str) -> str:
    """The rest of a JSON stream whose first lines are ``head``, read whole (at most
    :data:`MAX_JSON` bytes) and decoded (strict UTF-8)."""
    parts = [s.encode("utf-8") for s in head]
    size = sum(len(p) for p in parts)
    rest = src.f.read(MAX_JSON + 1 - size)
    if size + len(rest) > MAX_JSON:
        raise NotationError(f"a JSON document may have at most {MAX_JSON} bytes", line=1,
                            col=1, path=name)
    return _decode_all(b"".join(parts) + rest, name)


def _decode_all(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise NotationError(f"invalid UTF-8 (byte 0x{data[e.start]:02x})", line=line,
                            col=col, path=name) from None


def is_json_path(path: str) -> bool:
    return path.endswith((".json", ".ndjson"))


def _fileno(stream: Any) -> int | None:
    try:
        return int(stream.fileno())
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None


def file_stat(path: str, *, stdout: bool = False) -> os.stat_result | None:
    """What ``path`` names, after every link is resolved: ``-`` is standard input (standard
    output with ``stdout``), ``/dev/stdin``, ``/dev/fd/N`` and ``/proc/self/fd/N`` the open
    file behind them, a symlink its target; ``None`` when nothing is there. Two names of one
    file (hard links included) give the same ``(st_dev, st_ino)``."""
    try:
        if path == "-":
            fd = _fileno(sys.stdout if stdout else sys.stdin)
            return None if fd is None else os.fstat(fd)
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _shared(a: os.stat_result, b: os.stat_result) -> bool:
    """Whether ``a`` and ``b`` are one file that an output must not replace or write into:
    the same device and inode, unless a character device (``/dev/null``, a terminal: read
    and written alike)."""
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino) and not stat.S_ISCHR(a.st_mode)


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file (``-`` is standard input; links of
    every kind resolved, hard links compared by device and inode, see :func:`file_stat`); a
    path that does not exist is compared by its real path."""
    sa, sb = file_stat(a), file_stat(b)
    if sa is not None and sb is not None:
        return _shared(sa, sb)
    if "-" in (a, b):
        return False
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


OUTPUT_BUFFER = 1 << 18
"""Bytes gathered before an output is written to (:class:`Output`)."""


def _why(e: BaseException) -> str:
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


def _stat(path: str, name: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise KifuError(f"{name}: cannot write: {_why(e)}") from None


def _refuse_inputs(path: str, inputs: Iterable[str], noted: dict[tuple[int, int], str]) -> None:
    """Refuse an output ``path`` that is one of ``inputs`` or of the files the command has
    read (``noted``), however either is spelled."""
    out = file_stat(path, stdout=True)
    name = "<stdout>" if path == "-" else path
    for other in inputs:
        if not other:
            continue
        if path == "-":
            st = file_stat(other)
            clash = out is not None and st is not None and _shared(st, out)
        else:
            clash = same_file(other, path)
        if clash:
            raise KifuError(f"{name}: the output is also an input ({display_name(other)}); "
                            "write to another file")
    if out is not None:
        other = noted.get((out.st_dev, out.st_ino))
        if other is not None and not stat.S_ISCHR(out.st_mode):
            raise KifuError(f"{name}: the output is also an input ({other}); "
                            "write to another file")


def check_output(path: str, *, inputs: Iterable[str] = (), exclusive: bool = False) -> None:
    """Refuse, with one line naming ``path``, an output that would be refused at the end:
    one of ``inputs`` or of the files the running command has read (the same file by any
    name: ``-``, ``/dev/stdin``, ``/dev/fd/N``, a symlink, a hard link), a directory, a
    read-only file, a folder that does not exist, an empty name. Commands call it before
    their work, so a long run is not lost to a mistyped ``-o``; the outputs are checked
    again when they are replaced. ``exclusive``: the file must not exist yet."""
    tx = _active()
    noted = tx.inputs if tx is not None else {}
    if path == "-":
        _refuse_inputs(path, inputs, noted)
        return
    if not path:
        raise KifuError("the output file name is empty")
    _refuse_inputs(path, inputs, noted)
    target = file_stat(path)
    if target is not None and not stat.S_ISREG(target.st_mode):
        if stat.S_ISDIR(target.st_mode):
            raise KifuError(f"{path}: cannot write: it is a directory")
        if exclusive:
            raise KifuError(f"{path}: cannot write: the file exists already")
        if not (stat.S_ISCHR(target.st_mode) or stat.S_ISFIFO(target.st_mode)):
            raise KifuError(f"{path}: cannot write: not a file, a character device or a "
                            "FIFO")
        return  # written into, never replaced (a pipe: -o >(gzip > f.gz))
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError) as e:
        raise KifuError(f"{path}: cannot write: {_why(e)}") from None
    st = _stat(real, path)
    if st is None:
        directory = os.path.dirname(real) or "."
        if not os.path.isdir(directory):
            raise KifuError(f"{path}: cannot write: no folder {directory}")
        if not os.access(directory, os.W_OK | os.X_OK):
            raise KifuError(f"{path}: cannot write: Permission denied")
        return
    if stat.S_ISDIR(st.st_mode):
        raise KifuError(f"{path}: cannot write: it is a directory")
    if exclusive:
        raise KifuError(f"{path}: cannot write: the file exists already")
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
        raise KifuError(f"{path}: cannot write: not a file, a character device or a FIFO")
    if stat.S_ISREG(st.st_mode) and (not st.st_mode & 0o222 or not os.access(real, os.W_OK)):
        raise KifuError(f"{path}: cannot write: the file is read-only (kifu does not "
                        "replace it; make it writable or choose another file)")


class Output:
    """An output being written (what :func:`open_output` gives): ``write(text)`` gathers
    UTF-8 bytes and writes them in blocks (to a temporary file); an error names the file."""

    def __init__(self, name: str, fd: int, sink: IO[bytes] | None = None) -> None:
        self.name = name
        self.fd = fd
        self.sink = sink  # written to instead of fd (a spool held in memory)
        self._parts: list[bytes] = []
        self._size = 0
        self.written = 0

    def write(self, text: str) -> None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as e:
            raise KifuError(f"{self.name}: cannot write: {e.reason}") from None
        self._parts.append(data)
        self._size += len(data)
        if self._size >= OUTPUT_BUFFER:
            self.flush()

    def flush(self) -> None:
        data = b"".join(self._parts)
        self._parts, self._size = [], 0
        view = memoryview(data)
        try:
            if self.sink is not None:
                self.sink.write(data)
            while view and self.sink is None:
                view = view[os.write(self.fd, view) :]
        except OSError as e:
            raise KifuError(f"{self.name}: cannot write: {_why(e)}") from None
        self.written += len(data)


# --- the outputs of one command, replaced together -------------------------------------------

class _Staged:
    """One output written whole and waiting for the command's end: a temporary file in the
    target's folder (``tmp``) to rename over ``real``, or a spool (``spool``) to copy into
    standard output, a FIFO or a device."""

    def __init__(self, path: str, real: str | None, inputs: list[str], exclusive: bool,
                 fd: int, tmp: str | None = None, spool: IO[bytes] | None = None) -> None:
        self.path, self.real, self.inputs, self.exclusive = path, real, inputs, exclusive
        self.fd, self.tmp, self.spool = fd, tmp, spool

    def drop(self) -> None:
        if self.tmp is not None and self.fd >= 0:  # still being written
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            self.tmp = None
        if self.spool is not None:
            with contextlib.suppress(OSError):
                self.spool.close()
            self.spool = None


class Outputs:
    """The outputs of one command, replaced together once it has its whole result.

    Each output is written whole first: a regular file (or a new one) to a temporary file
    beside it, synced; standard output, a FIFO or a device to a spool (an unnamed temporary
    file). :meth:`commit` then checks every output again (no input replaced, by any name),
    and with SIGINT, SIGTERM and SIGHUP held back runs the archive transactions
    (:meth:`on_commit`) and renames every temporary file over its target; only then are
    the spools copied into their streams (a pipe cannot be taken back, so it comes last).
    :meth:`discard`, or an exception before :meth:`commit`, leaves every output as it was
    and removes the temporary files. ``inputs`` holds every file the command read through
    this module (device and inode), so none of them is ever replaced."""

    def __init__(self) -> None:
        self.inputs: dict[tuple[int, int], str] = {}
        self._staged: list[_Staged] = []
        self._hooks: list[Callable[[], Any]] = []
        self._removals: list[str] = []

    def note_input(self, name: str, st: os.stat_result | None) -> None:
        if st is not None and not stat.S_ISCHR(st.st_mode):
            self.inputs.setdefault((st.st_dev, st.st_ino), display_name(name))

    def on_commit(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` at :meth:`commit`, before the renames, with the stop signals held back:
        an archive's one transaction (an exception there leaves every file output as it
        was)."""
        self._hooks.append(fn)

    def remove(self, path: str) -> None:
        """Remove ``path`` at :meth:`commit` (a stale trace), with the renames."""
        self._removals.append(path)

    @contextlib.contextmanager
    def open(self, path: str, *, inputs: Iterable[str] = (),
             exclusive: bool = False) -> Iterator[Output]:
        inputs = list(inputs)
        check_output(path, inputs=inputs, exclusive=exclusive)
        target = None if path == "-" else file_stat(path)
        stream = path == "-" or (target is not None and not stat.S_ISREG(target.st_mode))
        # a stream is opened by its own name (/dev/fd/63 is no path once resolved)
        real = None if path == "-" else path if stream else os.path.realpath(path)
        for other in self._staged:
            if (path == "-" and other.path == "-") or (real is not None and other.real == real):
                raise KifuError(f"{display_name(path)}: given twice as an output; name "
                                "another file")
        st = None if stream else _stat(real or path, path)
        staged: _Staged | None = None
        try:
            # the temporary file is made and registered with no stop signal in between, so
            # whatever stops the command finds it to remove
            with command.deferred_signals():
                if stream:
                    spool = _spool()
                    fd = _fileno(spool)
                    staged = _Staged(path, real, inputs, exclusive, -1 if fd is None else fd,
                                     spool=spool)
                else:
                    directory = os.path.dirname(real or path) or "."
                    try:
                        fd, tmp = tempfile.mkstemp(prefix=".kifu-", suffix=".tmp",
                                                   dir=directory)
                    except OSError as e:
                        raise KifuError(f"{path}: cannot write: {_why(e)}") from None
                    staged = _Staged(path, real, inputs, exclusive, fd, tmp=tmp)
                self._staged.append(staged)
            out = Output(display_name(path) if path != "-" else "<stdout>", staged.fd,
                         staged.spool if staged.fd < 0 else None)
            yield out
            out.flush()
            if staged.tmp is not None:
                try:
                    os.fsync(staged.fd)
                    os.close(staged.fd)
                    staged.fd = -1
                    _settle(staged.tmp, st)
                except OSError as e:
                    raise KifuError(f"{path}: cannot write: {_why(e)}") from None
        except BaseException:
            if staged is not None:
                if staged in self._staged:
                    self._staged.remove(staged)
                staged.drop()
            raise

    def commit(self) -> None:
        """Replace every output written so far, together (see the class); the transaction
        is then empty and may gather more."""
        staged, hooks, removals = self._staged, self._hooks, self._removals
        self._staged, self._hooks, self._removals = [], [], []
        try:
            for s in staged:  # the files may have changed while the command ran
                check_output(s.path, inputs=s.inputs, exclusive=s.exclusive)
            folders = set()
            with command.deferred_signals():
                for hook in hooks:
                    hook()
                for s in staged:
                    if s.tmp is None or s.real is None:
                        continue
                    try:
                        if s.exclusive:
                            _link_new(s.tmp, s.real)
                        else:
                            os.replace(s.tmp, s.real)
                    except OSError as e:
                        raise KifuError(f"{s.path}: cannot write: {_why(e)}") from None
                    s.tmp = None
                    folders.add(os.path.dirname(s.real) or ".")
                for path in removals:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
                    folders.add(os.path.dirname(os.path.realpath(path)) or ".")
            for folder in sorted(folders):
                fsync_directory(folder)
            for s in staged:
                if s.spool is not None:
                    _copy_spool(s)
        finally:
            for s in staged:
                s.drop()

    def discard(self) -> None:
        """Forget every output not yet replaced (their temporary files removed)."""
        for s in self._staged:
            s.drop()
        self._staged, self._hooks, self._removals = [], [], []


def _spool() -> IO[bytes]:
    """Where a stream's output waits for the commit: an unnamed temporary file, or memory
    where no temporary folder can be written."""
    try:
        return tempfile.TemporaryFile(prefix=".kifu-")
    except OSError:
        return io.BytesIO()


def _copy_spool(s: _Staged) -> None:
    """Copy a spooled output into standard output, a FIFO or a device."""
    assert s.spool is not None
    s.spool.seek(0)
    if s.path == "-":
        buffer = getattr(sys.stdout, "buffer", None)
        sys.stdout.flush()
        while block := s.spool.read(OUTPUT_BUFFER):
            if buffer is None:
                sys.stdout.write(block.decode("utf-8"))
            else:
                buffer.write(block)
        (buffer or sys.stdout).flush()
        return
    assert s.real is not None
    try:
        fd = os.open(s.real, os.O_WRONLY)
    except OSError as e:
        raise KifuError(f"{s.path}: cannot write: {_why(e)}") from None
    try:
        out = Output(s.path, fd)
        while block := s.spool.read(OUTPUT_BUFFER):
            out._parts.append(block)
            out.flush()
    finally:
        os.close(fd)


def _active() -> Outputs | None:
    """The running command's outputs (None outside a command, see ``kifu.core.command``)."""
    scope = command.current()
    if scope is None:
        return None
    tx = scope.data.get("outputs")
    if tx is None:
        tx = scope.data["outputs"] = Outputs()
        scope.at_end(tx.commit, tx.discard)
    return tx


def note_input(name: str, f: Any = None) -> None:
    """Tell the running command's :class:`Outputs` that it reads ``name`` (an open file
    ``f``, or the path), so that no output replaces it."""
    tx = _active()
    if tx is None:
        return
    fd = None if f is None else _fileno(f)
    try:
        st = os.fstat(fd) if fd is not None else file_stat(name)
    except OSError:
        st = None
    tx.note_input(name, st)


def commit_outputs() -> None:
    """Replace the running command's outputs written so far now (before it prints that
    they were written); nothing when no command runs."""
    tx = _active()
    if tx is not None:
        tx.commit()


def on_commit(fn: Callable[[], Any]) -> None:
    """Run ``fn`` (an archive's transaction) with the running command's outputs, or now."""
    tx = _active()
    if tx is None:
        fn()
    else:
        tx.on_commit(fn)


def remove_output(path: str) -> None:
    """Remove ``path`` with the running command's outputs, or now."""
    tx = _active()
    if tx is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
    else:
        tx.remove(path)


@contextlib.contextmanager
def open_output(path: str, *, inputs: Iterable[str] = (), exclusive: bool = False,
                now: bool = False) -> Iterator[Output]:
    """The one way kifu writes an output file: ``with open_output(path) as out:
    out.write(text)`` (``-`` = stdout), for outputs too big to hold whole.

    The output is written whole to a temporary file (see :class:`Outputs`) and replaced
    when the running command ends (:func:`command_outputs`) together with its other outputs,
    or at the end of the block outside a command or with ``now``. A regular file keeps the
    old file's mode (and owner, for root); a symlink is followed and its target replaced; a
    device (``/dev/null``), a FIFO or standard output is written into, never replaced. An
    exception, a signal, a full disk or a failed write before then leaves the old file (or
    none) and no temporary file. Refused (:func:`check_output`): an output that is one of
    ``inputs`` or of the files the command read, a directory, a read-only file. Every
    failure is a :class:`KifuError` naming ``path``.

    ``exclusive``: create the file, never replace one (``kifu record -o``): the finished
    temporary file is hard-linked into place, which fails if the name exists by then.
    ``now``: replace it at the end of the block (``kifu record``, whose file is a journal
    appended to as the game is played)."""
    tx = _active()
    if tx is not None and not now:
        with tx.open(path, inputs=inputs, exclusive=exclusive) as out:
            yield out
        return
    own = Outputs()
    if tx is not None:
        own.inputs = tx.inputs
    try:
        with own.open(path, inputs=inputs, exclusive=exclusive) as out:
            yield out
        own.commit()
    finally:
        own.discard()


def _link_new(tmp: str, real: str) -> None:
    """Put ``tmp`` at ``real`` only if nothing is there (a hard link fails on an existing
    name); on a file system without hard links, a rename after a last check."""
    try:
        os.link(tmp, real)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(real):
            raise FileExistsError(errno.EEXIST, "the file exists already") from None
        os.replace(tmp, real)
        return
    os.unlink(tmp)


def _settle(tmp: str, st: os.stat_result | None) -> None:
    """Give the temporary file the mode (and, for root, the owner) of the file it replaces,
    or a new file's mode under the umask."""
    if st is not None:
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        if os.geteuid() == 0:
            with contextlib.suppress(OSError):
                os.chown(tmp, st.st_uid, st.st_gid)
        return
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)


def fsync_directory(directory: str) -> None:
    """Make a rename or a new file in ``directory`` durable (best effort)."""
    with contextlib.suppress(OSError):
        dfd = os.open(directory or ".", os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def write_output(path: str, text: str, *, inputs: Iterable[str] = (), now: bool = False) -> None:
    """Write ``text`` to ``path`` (``-`` = stdout) through :func:`open_output`: whole or
    not at all, with the command's other outputs, never over one of ``inputs`` or a file
    the command read, never replacing a device, a FIFO or a read-only file."""
    with open_output(path, inputs=inputs, now=now) as out:
        out.write(text)


# --- which files a command reads -------------------------------------------------------------

RECORD_SUFFIXES = (".kifu", ".json", ".ndjson")
"""The files taken from a folder (a file named on the command line is always read)."""


def expand_paths(paths: Iterable[str],
                 skipped: Callable[[str, str], None] | None = None) -> Iterator[str]:
    """Files as given (``-`` for stdin); folders walked, sorted, for record and puzzle files
    (:data:`RECORD_SUFFIXES`) that are regular files (a symlink to one included): a FIFO,
    a device or a socket named ``p.kifu`` in a folder would block the walk or never end,
    so it is left out and ``skipped(path, why)`` is told. A file named on the command line
    is always read (``<(zcat g.kifu.gz)`` is a FIFO)."""
    for p in paths:
        if p != "-" and os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if not name.endswith(RECORD_SUFFIXES):
                        continue
                    path = os.path.join(root, name)
                    why = _not_regular(path)
                    if why is None:
                        yield path
                    elif skipped is not None:
                        skipped(path, why)
        else:
            yield p


def _not_regular(path: str) -> str | None:
    """Why ``path`` is not a regular file to read (None when it is one)."""
    try:
        st = os.stat(path)
    except OSError as e:
        return f"cannot read it ({_why(e)})"
    if stat.S_ISREG(st.st_mode):
        return None
    kind = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else
            "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
            "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
    return f"{kind}, not a regular file"


def say_skipped(path: str, why: str) -> None:
    """Tell stderr that a file of a folder was left out (:func:`expand_paths`)."""
    sys.stderr.write(f"{path}: skipped: {why}\n")
    sys.stderr.flush()


def input_files(paths: Iterable[str],
                skipped: Callable[[str, str], None] | None = say_skipped) -> list[str]:
    """:func:`expand_paths`, checked before anything is read or written: a path that does
    not exist, an empty name, or a folder without a record file, raises :class:`KifuError`
    (so that, for instance, ``archive import missing.kifu`` never creates its archive); a
    file of a folder that is not a regular file is left out, and ``skipped`` says so (by
    default one line on stderr)."""
    out: list[str] = []
    for p in paths:
        if not p:
            raise KifuError("the file name is empty")
        if p != "-" and not os.path.exists(p):
            raise KifuError(f"{p}: no such file or folder")
        found = list(expand_paths([p], skipped))
        if not found:
            raise KifuError(f"{p}: no record file ({', '.join(RECORD_SUFFIXES)}) in the folder")
        out.extend(found)
    return out
