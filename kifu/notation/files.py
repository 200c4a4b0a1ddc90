"""Record files in and out: the one loader of record files (text or JSON, streamed, with
located errors and size limits) and the one output writer (atomic, never over an input).

Every command and library path that reads records from a file or writes an output file goes
through here (``kifu.cli``, ``kifu.archive``, ``kifu.notation.batch``, ``kifu.html``).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

from kifu.core.errors import KifuError, NotationError
from kifu.notation.reader import Blocks, Located, ReaderState, plain_text, read_records
from kifu.notation.record import (
    MAX_LINE,
    complete_json,
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


def _open_binary(path: str) -> contextlib.AbstractContextManager[IO[bytes]]:
    if path == "-":  # stdin is read, not closed
        return contextlib.nullcontext(getattr(sys.stdin, "buffer", sys.stdin))
    return open(path, "rb")


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
    with _open_binary(path) as f:
        yield from read_stream(f, display_name(path), visitor, keep_text=keep_text)


def read_stream(f: IO[bytes], name: str, visitor: Any = None, *,
                keep_text: bool = False) -> Iterator[Located]:
    """The records of a binary stream named ``name`` (what :func:`load_records` reads)."""
    src = _Lines(f, name)
    kind, head = read_head(src)
    if kind == TEXT:
        yield from text_records(head, src, name, visitor=visitor, keep_text=keep_text)
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
    if text.lstrip().startswith("{") and complete_json(text):
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


def json_lines(src: _Lines, name: str) -> Iterator[Located]:
    """The records of the JSON lines left in ``src`` (blank lines skipped)."""
    while line := src.raw(MAX_LINE, MAX_JSON):
        if line.strip():
            text = _decode(line, src.lineno, name)
            rec = record_from_json(text, path=name, line=src.lineno)
            yield Located(rec, name, src.lineno, [], {})


def json_records(src: _Lines, head: list[str], name: str, kind: str) -> Iterator[Located]:
    """The JSON records of ``src`` after ``head`` (what :func:`read_head` read)."""
    first = head[-1]
    start = src.lineno
    if kind == JSON_LINES:
        # JSON lines: one record a line, streamed
        yield Located(record_from_json(first, path=name, line=start), name, start, [], {})
        yield from json_lines(src, name)
        return
    # one JSON document (a record over several lines, or a list): read whole, bounded
    parts = [s.encode("utf-8") for s in head]
    size = sum(len(p) for p in parts)
    rest = src.f.read(MAX_JSON + 1 - size)
    if size + len(rest) > MAX_JSON:
        raise NotationError(f"a JSON document may have at most {MAX_JSON} bytes", line=1,
                            col=1, path=name)
    data = b"".join(parts) + rest
    for r in records_from_json(_decode_all(data, name), path=name):
        yield Located(r, name, start, [], {})


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


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def write_output(path: str, text: str, *, inputs: Iterable[str] = ()) -> None:
    """Write ``text`` to ``path`` (``-`` = stdout).

    A regular file (or a new one) is replaced atomically through a temporary file in its
    directory, synced before the rename, keeping the old file's permission bits: a crash or
    a full disk never leaves a half-written file, and the old file stays intact until the
    new one is complete. Anything else (a device such as ``/dev/null``, a FIFO) is written
    straight to; a symlink is followed and its target replaced. An output path that is
    also one of ``inputs`` is refused. Failures raise :class:`KifuError` (one line)."""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    for other in inputs:
        if other != "-" and _same_file(other, path):
            raise KifuError(f"{path}: the output is also an input; write to another file")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise KifuError(f"{path}: cannot write: {e.reason}") from None
    real = os.path.realpath(path)
    try:
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise KifuError(f"{path}: cannot write: {e.strerror}") from None
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            with open(real, "wb", buffering=0) as out:
                view = memoryview(data)
                while view:
                    view = view[out.write(view) :]
            return
        _replace(real, data, st)
    except OSError as e:
        raise KifuError(f"{path}: cannot write: {e.strerror or e}") from None


def _replace(real: str, data: bytes, st: os.stat_result | None) -> None:
    directory = os.path.dirname(real)
    fd, tmp = tempfile.mkstemp(prefix=".kifu-", suffix=".tmp", dir=directory)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename durable (best effort)
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


# --- which files a command reads -------------------------------------------------------------

RECORD_SUFFIXES = (".kifu", ".json", ".ndjson")
"""The files taken from a folder (a file named on the command line is always read)."""


def expand_paths(paths: Iterable[str]) -> Iterator[str]:
    """Files as given (``-`` for stdin); folders walked, sorted, for record and puzzle files
    (:data:`RECORD_SUFFIXES`)."""
    for p in paths:
        if p != "-" and os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(RECORD_SUFFIXES):
                        yield os.path.join(root, name)
        else:
            yield p


def input_files(paths: Iterable[str]) -> list[str]:
    """:func:`expand_paths`, checked before anything is read or written: a path that does
    not exist, or a folder without a record file, raises :class:`KifuError` (so that, for
    instance, ``archive import missing.kifu`` never creates its archive)."""
    out: list[str] = []
    for p in paths:
        if p != "-" and not os.path.exists(p):
            raise KifuError(f"{p}: no such file or folder")
        found = list(expand_paths([p]))
        if not found:
            raise KifuError(f"{p}: no record file ({', '.join(RECORD_SUFFIXES)}) in the folder")
        out.extend(found)
    return out
