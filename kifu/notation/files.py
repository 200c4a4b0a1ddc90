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


def open_binary(path: str) -> contextlib.AbstractContextManager[IO[bytes]]:
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
    for r in records_from_json(_json_document(src, head, name), path=name):
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


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file (symlinks followed, hard links and
    devices compared by inode); a path that does not exist is compared by its real path."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
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


def check_output(path: str, *, inputs: Iterable[str] = (), exclusive: bool = False) -> None:
    """Refuse, with one line naming ``path``, an output that would be refused at the end:
    one of ``inputs`` (the same file by any name), a directory, a read-only file, a folder
    that does not exist. Commands call it before their work, so a long run is not lost to
    a mistyped ``-o``; :func:`open_output` calls it again. ``exclusive``: the file must
    not exist yet."""
    if path == "-":
        return
    if not path:
        raise KifuError("the output file name is empty")
    for other in inputs:
        if other and other != "-" and same_file(other, path):
            raise KifuError(f"{path}: the output is also an input ({other}); "
                            "write to another file")
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
    UTF-8 bytes and writes them in blocks; an error names the file."""

    def __init__(self, name: str, fd: int) -> None:
        self.name = name
        self.fd = fd
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
            while view:
                view = view[os.write(self.fd, view) :]
        except OSError as e:
            raise KifuError(f"{self.name}: cannot write: {_why(e)}") from None
        self.written += len(data)


class _Stdout(Output):
    def __init__(self) -> None:
        super().__init__("<stdout>", -1)

    def flush(self) -> None:
        data = b"".join(self._parts)
        self._parts, self._size = [], 0
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            sys.stdout.write(data.decode("utf-8"))
        else:
            sys.stdout.flush()
            buffer.write(data)
            buffer.flush()
        self.written += len(data)


@contextlib.contextmanager
def open_output(path: str, *, inputs: Iterable[str] = (),
                exclusive: bool = False) -> Iterator[Output]:
    """The one way kifu writes an output file: ``with open_output(path) as out:
    out.write(text)`` (``-`` = stdout), for outputs too big to hold whole.

    A regular file (or a new one) is written to a temporary file in its folder, synced and
    renamed over it when the block ends without an exception, keeping the old file's mode
    (and owner, for root): a crash, a full disk, a failed write or an exception in the
    block leaves the old file (or none) and no temporary file. A device (``/dev/null``) or a
    FIFO is written straight to, never replaced; a symlink is followed and its target
    replaced. Refused up front (:func:`check_output`): an output that is one of ``inputs``,
    a directory, a read-only file. Every failure is a :class:`KifuError` naming ``path``.

    ``exclusive``: create the file, never replace one (``kifu record -o``): the finished
    temporary file is hard-linked into place, which fails if the name exists by then."""
    inputs = list(inputs)
    check_output(path, inputs=inputs, exclusive=exclusive)
    if path == "-":
        out: Output = _Stdout()
        yield out
        out.flush()
        return
    real = os.path.realpath(path)
    st = _stat(real, path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            fd = os.open(real, os.O_WRONLY)
        except OSError as e:
            raise KifuError(f"{path}: cannot write: {_why(e)}") from None
        try:
            out = Output(path, fd)
            yield out
            out.flush()
        finally:
            os.close(fd)
        return
    directory = os.path.dirname(real) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kifu-", suffix=".tmp", dir=directory)
    except OSError as e:
        raise KifuError(f"{path}: cannot write: {_why(e)}") from None
    try:
        try:
            out = Output(path, fd)
            yield out
            out.flush()
            os.fsync(fd)
        finally:
            os.close(fd)
        _settle(tmp, st)
        check_output(path, inputs=inputs, exclusive=exclusive)  # it may have changed
        if exclusive:
            _link_new(tmp, real)
        else:
            os.replace(tmp, real)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise KifuError(f"{path}: cannot write: {_why(e)}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_directory(directory)


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


def write_output(path: str, text: str, *, inputs: Iterable[str] = ()) -> None:
    """Write ``text`` to ``path`` (``-`` = stdout) through :func:`open_output`: whole or
    not at all, never over one of ``inputs``, never replacing a device, a FIFO or a
    read-only file."""
    with open_output(path, inputs=inputs) as out:
        out.write(text)


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
