"""Text from files and from people: strict UTF-8 read in bounded memory, and ASCII where a
notation is ASCII.

Every small data file kifu reads whole (an Alice card set, a Lianxian board, a trace, a perft
file) goes through :func:`read_text_file`: at most ``limit`` bytes are read, so ``/dev/zero``
or a runaway file ends in a located error instead of filling memory; the bytes must be UTF-8
(an invalid byte is an error at its line and column, as record files get from
``kifu.notation.files``); a UTF-8 byte-order mark at the start is dropped. Record and puzzle
files are streamed instead (``kifu.notation.files``), with the same rules line by line.

``str.split()``, ``str.upper()`` and ``\\s`` in a regex treat many non-ASCII characters as
spaces or letters (U+00A0 is a space, ``"ſ".upper()`` is ``"S"``): where the notation is ASCII
(action text, space names, tokens of a data file) kifu splits with :func:`ascii_words` and
refuses the rest with :func:`non_ascii_problem`.

>>> ascii_words(" day\\u00a0D4  pass ")
['day\\xa0D4', 'pass']
>>> non_ascii_problem("C_\\u017fE")
(2, "'ſ' (U+017F) is not ASCII")
"""

from __future__ import annotations

import os
import re
from typing import IO

from kifu.core.errors import NotationError

BOM = b"\xef\xbb\xbf"
MAX_DATA_FILE = 1_000_000
"""The largest card-set or board file, in bytes (``docs/notation.md``, "Limits")."""

_ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def ascii_words(text: str) -> list[str]:
    """``text`` split at runs of ASCII white space only (``str.split()`` also splits at
    U+00A0, U+3000 and a dozen more, which would let them pass for spaces)."""
    return [w for w in _ASCII_SPACE.split(text) if w]


def ascii_tokens(text: str) -> list[tuple[int, str]]:
    """The words of ``text`` as :func:`ascii_words` finds them, each with its 1-based
    column."""
    return [(m.start() + 1, m.group()) for m in re.finditer(r"[^ \t\n\r\f\v]+", text)]


def non_ascii_problem(text: str) -> tuple[int, str] | None:
    """(index, message) of the first non-ASCII character of ``text``, or None."""
    if text.isascii():
        return None
    m = _NON_ASCII.search(text)
    assert m is not None
    c = m.group()
    return m.start(), f"{c!r} (U+{ord(c):04X}) is not ASCII"


def decode_utf8(data: bytes, name: str) -> str:
    """``data`` as text: strict UTF-8, a leading BOM dropped; an invalid byte raises a
    :class:`NotationError` at its ``name:line:col`` (the column counts characters)."""
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, col = _where(data, e.start)
        raise NotationError(f"invalid UTF-8 (byte 0x{data[e.start]:02x})", line=line, col=col,
                            path=name) from None


def _where(data: bytes, at: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of byte offset ``at``."""
    start = data.rfind(b"\n", 0, at) + 1
    line = data.count(b"\n", 0, at) + 1
    return line, len(data[start:at].decode("utf-8", "replace")) + 1


def read_stream_text(f: IO[bytes], name: str, *, limit: int, what: str) -> str:
    """The whole of a binary stream as text, read as :func:`read_text_file` reads a file."""
    data = f.read(limit + 1)
    if len(data) > limit:
        line, col = _where(data, limit)
        raise NotationError(f"{what} may have at most {limit:,} bytes", line=line, col=col,
                            path=name)
    return decode_utf8(data, name)


def read_text_file(path: str | os.PathLike[str], *, limit: int = MAX_DATA_FILE,
                   what: str = "a file", name: str | None = None) -> str:
    """The text of the file at ``path``, at most ``limit`` bytes, strict UTF-8.

    Raises :class:`NotationError` named ``name`` (default: the path): past the limit (at the
    line and column where it is reached; the rest is never read), at an invalid byte, and
    when the file cannot be read at all (missing, a directory, no permission)."""
    name = str(path) if name is None else name
    try:
        with open(path, "rb") as f:
            return read_stream_text(f, name, limit=limit, what=what)
    except OSError as e:
        raise NotationError(f"cannot read {what}: {e.strerror or e}", path=name) from None


__all__ = [
    "BOM",
    "MAX_DATA_FILE",
    "ascii_tokens",
    "ascii_words",
    "decode_utf8",
    "non_ascii_problem",
    "read_stream_text",
    "read_text_file",
]
