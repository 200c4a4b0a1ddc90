"""Game records: headers plus a list of actions, each with its actor, and comments.

The canonical text of a record (``format_record``) is::

    [Game "tweak"]
    [Rules "tweak/1"]
    [Players "Ann, Bob, Cy"]
    [Date "2026.11.22"]
    [Result "41 30 12"]

    {an optional comment on the whole record}
    d dealer p2
    d deal R1O3Y2... !T!J...
    p0 R3xO1Y2 {a comment on this action}

The grammar is in ``docs/notation.md``. The JSON form is the msgspec encoding of
:class:`Record`, with a JSON Schema from :func:`json_schema`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal

import msgspec

from kifu.core.errors import NotationError

ROSTER = ("Game", "Rules", "Players", "Date", "Result")
"""The tags every record has, written first and in this order."""
_NROSTER = len(ROSTER)

HEADER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")
ACTOR = re.compile(r"(?:d|p(?:0|[1-9][0-9]{0,5}))\Z")
"""An actor token: ``d`` or ``p`` + a seat number (ASCII digits, at most 6 of them)."""
ACTION_TEXT = re.compile(r"[!-z|~]+(?: [!-z|~]+)*\Z")
"""Action text: printable ASCII tokens (no braces) separated by single spaces."""
UNFINISHED = "*"

MARKS = ("!", "?", "!!", "??", "!?", "?!")
"""The marks a move may carry (PGN's move glyphs, python-chess's NAGs 1 to 6): written after
the action text, as its own last token (``p1 R3xO1 ??``). ``kifu analyze`` writes ``??``
(a win thrown away), ``?`` (value lost) and ``!`` (the only winning action found)."""
Mark = Literal["!", "?", "!!", "??", "!?", "?!"]
_MARKS = frozenset(MARKS)
NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
"""Each mark's PGN numeric annotation glyph (``$4`` is ``??``), for export to PGN tools."""

# --- limits (docs/notation.md, "Limits") ---------------------------------------------------
MAX_LINE = 1_000_000
"""The longest line a record file may have, in characters (bytes when read from a file)."""
MAX_ACTIONS = 100_000
"""The most actions one record may have."""
MAX_HEADERS = 1_000
"""The most header tags one record may have."""
MAX_TEXT = 1_000_000
"""The longest header value or comment, in characters (a comment may span lines)."""
EXCERPT = 40
"""How many characters of a bad token an error message quotes."""

_BRACE = re.compile(r"[{}]")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f]")
"""Characters no header value or comment may hold: the C0 controls but tab (a newline or a
carriage return would end the line; the others are refused so no file holds them)."""


class Move(msgspec.Struct, frozen=True, omit_defaults=True):
    """One action of a record: its actor (``d``, ``p0``..), its text, an optional comment
    and an optional mark (one of :data:`MARKS`, e.g. ``??``). Comments and marks are
    annotations: they are not part of the game (:func:`identity_text`)."""

    actor: str
    text: str
    comment: str | None = None
    mark: Mark | None = None


class Record(msgspec.Struct, omit_defaults=True):
    """A game record. ``headers`` keeps the tag order of the source."""

    headers: dict[str, str]
    moves: list[Move] = msgspec.field(default_factory=list)
    comment: str | None = None

    @property
    def game(self) -> str:
        return self.headers.get("Game", "")

    @property
    def rules(self) -> str:
        return self.headers.get("Rules", "")

    @property
    def players(self) -> list[str]:
        return split_players(self.headers.get("Players", ""))

    def to_text(self) -> str:
        return format_record(self)

    def content_hash(self) -> str:
        """SHA-256 of the record's identity text (:func:`identity_text`): what makes two
        records the same game in an archive."""
        return identity_hash(self)


def split_players(value: str) -> list[str]:
    """The names of a ``Players`` tag (comma-separated; the count is the number of seats)."""
    if not value.strip():
        return []
    return [p.strip() for p in value.split(",")]


def nfc(text: str) -> str:
    """``text`` in Unicode normal form C: player names are stored and compared so (``José``
    typed as one code point or as ``e`` plus a combining accent is one player).

    >>> nfc("Jose\u0301") == "Jos\u00e9"
    True
    """
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def normalize_record(record: Record) -> Record:
    """``record`` with its ``Players`` header in NFC (as the text reader gives it)."""
    players = record.headers.get("Players") if isinstance(record.headers, dict) else None
    if isinstance(players, str) and not players.isascii():
        record.headers["Players"] = nfc(players)
    return record


def join_players(names: Iterable[str]) -> str:
    return ", ".join(names)


def escape_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``repr(text)``, cut to ``limit`` characters: errors quote a bounded excerpt."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def name_problem(name: str) -> str | None:
    """What is wrong with a header name, or None."""
    if HEADER_NAME.match(name):
        return None
    return f"bad header name {excerpt(name)} (a letter, then letters, digits or _; at most 64)"


def value_problem(value: str) -> tuple[int, str] | None:
    """(index, what is wrong) with a header value, or None."""
    if len(value) > MAX_TEXT:
        return 0, f"a header value may have at most {MAX_TEXT} characters, not {len(value)}"
    m = None if value.isprintable() else _CONTROL.search(value)  # isprintable: fast path
    if m:
        return m.start(), f"control character {m.group()!r} in a header value"
    return None


def comment_problem(text: str) -> tuple[int, str] | None:
    """(index, what is wrong) with a comment's text (as stored: non-empty words joined by
    single spaces, no braces, no control characters), or None."""
    if not text or text != " ".join(text.split()):
        return 0, f"a comment must be non-empty words with single spaces: {excerpt(text)}"
    if len(text) > MAX_TEXT:
        return 0, f"a comment may have at most {MAX_TEXT} characters, not {len(text)}"
    if "{" in text or "}" in text:
        brace = _BRACE.search(text)
        return brace.start(), f"a comment may not contain braces: {excerpt(text)}"  # type: ignore[union-attr]
    m = None if text.isprintable() else _CONTROL.search(text)
    if m:
        return m.start(), f"control character {m.group()!r} in a comment"
    return None


def mark_problem(mark: object) -> str | None:
    """What is wrong with a move's mark (None or one of :data:`MARKS`), or None."""
    if mark is None or mark in _MARKS:
        return None
    return f"bad mark {excerpt(str(mark))}: a mark is one of {' '.join(MARKS)}"


def ends_with_mark(text: str) -> bool:
    """Whether the last token of ``text`` is a mark (then it cannot be action text: the
    reader takes it as the move's mark)."""
    return text[-1:] in ("!", "?") and text.rpartition(" ")[2] in _MARKS


def action_problem(text: str) -> tuple[int, str] | None:
    """(index, what is wrong) with an action's text (printable ASCII tokens, no braces,
    single spaces, the last token not a mark), or None."""
    if ACTION_TEXT.match(text):
        if ends_with_mark(text):
            at = text.rfind(" ") + 1
            return at, (f"an action's last token may not be a mark ({' '.join(MARKS)}): "
                        f"{excerpt(text)}")
        return None
    if not text:
        return 0, "empty action text"
    if text[0] == " " or text[-1] == " " or "  " in text:
        return max(0, text.find("  ")), (
            f"action text must be tokens separated by single spaces: {excerpt(text)}")
    for i, c in enumerate(text):
        if c in "{}" or not ("!" <= c <= "~" or c == " "):
            return i, (f"an action is printable ASCII without braces; {c!r} is not allowed "
                       f"in {excerpt(text)}")
    return 0, f"bad action text {excerpt(text)}"  # pragma: no cover (the regex says why)


def actor_problem(actor: str) -> str | None:
    if ACTOR.match(actor):
        return None
    return f"bad actor {excerpt(actor)}: expected d or p0, p1, ... (at most 6 digits)"


def check_record(record: Record, *, path: str | None = None, line: int = 0) -> None:
    """Raise :class:`NotationError` unless ``record`` holds only what the text grammar can
    write: the one set of checks for every way a record comes in (text, JSON, built in
    code). The text reader applies the same checks as it reads, with columns."""

    def bad(where: str, message: str) -> NotationError:
        return NotationError(f"{where}: {message}", line=line, col=1 if line else 0, path=path)

    headers = record.headers
    if not isinstance(headers, dict) or len(headers) > MAX_HEADERS:
        raise bad("headers", f"a record may have at most {MAX_HEADERS} headers")
    for name, value in headers.items():
        problem = name_problem(name)
        if problem:
            raise bad("headers", problem)
        vp = value_problem(value)
        if vp:
            raise bad(f"header {name}", vp[1])
    if record.comment is not None:
        cp = comment_problem(record.comment)
        if cp:
            raise bad("comment", cp[1])
    if len(record.moves) > MAX_ACTIONS:
        raise bad("moves", f"a record may have at most {MAX_ACTIONS} actions, "
                           f"not {len(record.moves)}")
    for i, m in enumerate(record.moves, 1):
        problem = actor_problem(m.actor)
        if problem:
            raise bad(f"action {i}", problem)
        ap = action_problem(m.text)
        if ap:
            raise bad(f"action {i}", ap[1])
        mp = mark_problem(m.mark)
        if mp:
            raise bad(f"action {i}", mp)
        if m.comment is not None:
            cp = comment_problem(m.comment)
            if cp:
                raise bad(f"action {i} comment", cp[1])


_TEXTS = re.compile(r"(?:[!-z|~]+(?: [!-z|~]+)*\n)*[!-z|~]+(?: [!-z|~]+)*\Z")
"""Action texts joined by newlines, each one ``ACTION_TEXT``."""


def _moves_ok(moves: list[Move]) -> bool:
    """Whether every move passes ``check_record``'s move checks, tested in bulk: the
    distinct actors one by one, the texts joined (one match), the comments one by one."""
    if not moves:
        return True
    if len(moves) > MAX_ACTIONS:
        return False
    for actor in {m.actor for m in moves}:
        if type(actor) is not str or not ACTOR.match(actor):
            return False
    texts = [m.text for m in moves]
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1 or not _TEXTS.match(joined):
        return False
    if ("!\n" in joined or "?\n" in joined or joined[-1] in "!?") and any(
            ends_with_mark(t) for t in texts):
        return False
    for m in moves:  # one pass for comments and marks
        if (c := m.comment) is not None and comment_problem(c) is not None:
            return False
        if m.mark is not None and m.mark not in _MARKS:
            return False
    return True


def _record_ok(record: Record) -> bool:
    """Whether ``check_record`` passes, found faster (False also for wrong types, so
    ``check_record`` raises what it raises for them)."""
    try:
        headers = record.headers
        return not (
            not isinstance(headers, dict)
            or len(headers) > MAX_HEADERS
            or any(name_problem(k) or value_problem(v) for k, v in headers.items())
            or (record.comment is not None and comment_problem(record.comment))
            or not _moves_ok(record.moves)
        )
    except TypeError:
        return False


def format_record(record: Record, *, checked: bool = False,
                  moves_text: str | None = None) -> str:
    """The canonical text of ``record`` (ends with a newline); raises
    :class:`NotationError` for a record the grammar cannot write.

    ``checked=True`` skips that test, for a record known to pass :func:`check_record`:
    every record the reader and the JSON loaders yield does (they raise the same problems,
    located; ``tests/test_validate_format.py`` checks the reader's side). The archive's
    import uses it: the test was a third of its own work per record.

    ``moves_text``: the record's action lines already written, joined by ``\\n``: the
    reader's :attr:`~kifu.notation.reader.Located.moves_text`, which it sets only when
    they are exactly what this function writes (the archive's import passes it: writing
    the actions again was half of its own work per record)."""
    if not checked and not _record_ok(record):
        check_record(record)  # raises the first problem, as it always has
    headers = record.headers
    # Most records have the roster tags first, in order, and no quote or backslash in a
    # value: then every header line is just [Name "value"], in the record's order.
    head = "\n".join([f'[{k} "{v}"]' for k, v in headers.items()])
    if (tuple(headers)[:_NROSTER] != ROSTER or "\\" in head
            or head.count('"') != 2 * len(headers)):
        names = [k for k in ROSTER if k in headers] + [k for k in headers if k not in ROSTER]
        head = "\n".join([f'[{name} "{escape_value(headers[name])}"]' for name in names])
    head = head + "\n" if headers else ""  # the header lines and the blank line after
    if record.comment is not None:
        head = f"{head}\n{{{record.comment}}}"
    if moves_text is not None:
        return f"{head}\n{moves_text}\n"
    out = [head]
    for m in record.moves:
        if m.mark is not None:
            out.append(f"{m.actor} {m.text} {m.mark}" if m.comment is None
                       else f"{m.actor} {m.text} {m.mark} {{{m.comment}}}")
        elif m.comment is None:
            out.append(f"{m.actor} {m.text}")
        else:
            out.append(f"{m.actor} {m.text} {{{m.comment}}}")
    return "\n".join(out) + "\n"


def format_records(records: Iterable[Record]) -> str:
    """Several records, separated by one blank line."""
    return "\n".join(format_record(r) for r in records)


# --- JSON ---------------------------------------------------------------------------------

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Record)
_list_decoder = msgspec.json.Decoder(list[Record])


def record_to_json(record: Record) -> bytes:
    return _encoder.encode(record)


def _json_error(e: Exception, data: bytes | str, path: str | None, line: int) -> NotationError:
    """A located error for a msgspec error: the byte offset it names becomes line:col."""
    message = str(e)
    if isinstance(e, UnicodeDecodeError):  # msgspec checks the UTF-8 of strings
        message = f"invalid UTF-8 (byte 0x{e.object[e.start]:02x}) (byte {e.start})"
    m = re.search(r"\(byte (\d+)\)\s*$", message) if not isinstance(e, msgspec.ValidationError) \
        else None
    if m:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        at = min(int(m.group(1)), len(raw))
        before = raw[:at]
        ln = before.count(b"\n")
        col = at - (before.rfind(b"\n") + 1) + 1
        message = message[: m.start()].rstrip()
        return NotationError(f"bad JSON record: {message}", line=(line or 1) + ln, col=col,
                             path=path)
    return NotationError(f"bad JSON record: {message}", line=line or 1, col=1, path=path)


MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a JSON document may have (a list of records
needs 4: list, record, moves, move). msgspec decodes recursively, and past Python's
recursion limit it raises ``RecursionError``: documents deeper than this are refused
first."""

_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_EMPTY_PAIR = re.compile(rb"\[\]|\{\}")


def json_too_deep(data: bytes | str) -> bool:
    """Whether ``data`` nests arrays and objects more than :data:`MAX_JSON_DEPTH` deep
    (brackets inside strings do not count). Malformed JSON may be called deep; it is
    refused either way.

    >>> json_too_deep(b'[{"moves": [{"text": "[[["}]}]'), json_too_deep("[" * 40 + "]" * 40)
    (False, True)
    """
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= MAX_JSON_DEPTH:
        return False
    brackets = _JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKET)
    for _ in range(MAX_JSON_DEPTH):  # each pass takes away the innermost level
        fewer = _EMPTY_PAIR.sub(b"", brackets)
        if fewer == brackets:
            return False
        brackets = fewer
    return _EMPTY_PAIR.search(brackets) is not None


def _check_depth(data: bytes | str, path: str | None, line: int) -> None:
    if json_too_deep(data):
        raise NotationError(f"bad JSON record: arrays and objects nested more than "
                            f"{MAX_JSON_DEPTH} deep", line=line or 1, col=1, path=path)


def record_from_json(data: bytes | str, *, path: str | None = None, line: int = 0) -> Record:
    """Decode one record and check it as the text reader would (raises
    :class:`NotationError`, located at ``line`` of ``path``)."""
    _check_depth(data, path, line)
    try:
        record = _decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as e:
        raise _json_error(e, data, path, line) from None
    check_record(record, path=path, line=line or 1)
    return normalize_record(record)


def records_from_json(data: bytes | str, *, path: str | None = None) -> list[Record]:
    """A JSON document holding one record or a list of records, or JSON lines (one record
    a line, as ``kifu play --json`` writes them). Every record is checked."""
    try:
        text = data if isinstance(data, str) else data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _json_error(e, data, path, 0) from None
    if text.lstrip().startswith("["):
        _check_depth(text, path, 0)
        try:
            records = _list_decoder.decode(text)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as e:
            raise _json_error(e, text, path, 0) from None
        for i, r in enumerate(records, 1):
            try:
                check_record(r, path=path)
            except NotationError as e:
                raise NotationError(f"record {i}: {e.message}", path=path) from None
            normalize_record(r)
        return records
    lines = text.split("\n")
    numbered = [(i, line) for i, line in enumerate(lines, 1) if line.strip()]
    if len(numbered) > 1 and complete_json(numbered[0][1]):
        return [record_from_json(line, path=path, line=i) for i, line in numbered]
    return [record_from_json(text, path=path)]


def complete_json(line: str) -> bool:
    """Whether ``line`` is a whole JSON value (then a file of them is JSON lines; a line
    nested too deep is not, and is refused as part of a document)."""
    if json_too_deep(line):
        return False
    try:
        msgspec.json.decode(line)
    except msgspec.DecodeError:
        return False
    return True


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a record (``kifu schema``)."""
    return msgspec.json.schema(Record)


# --- identity -----------------------------------------------------------------------------


def identity_text(record: Record, text: str | None = None) -> str:
    """What identifies a game: its canonical text without the annotations: the comments
    (the record's and every action's, ``[%value ...]`` included) and the marks (``??``).
    Two records that differ only in annotations, or in layout, are the same game; a
    different header value or action makes another game. This is the one place that
    decides what annotations are.

    ``text``: the record's canonical text when already written (a text without ``{`` and
    without a mark is its own identity).

    >>> rec = Record({"Game": "tweak"}, [Move("d", "dealer p1", "a comment")], "notes")
    >>> identity_text(rec)
    '[Game "tweak"]\\n\\nd dealer p1\\n'
    """
    if text is not None and not has_annotations(text):
        return text
    if record.comment is None and all(m.comment is None and m.mark is None
                                      for m in record.moves):
        return text if text is not None else format_record(record)
    bare = Record(record.headers, [Move(m.actor, m.text) for m in record.moves])
    return format_record(bare, checked=True)


def has_annotations(text: str) -> bool:
    """Whether a record's canonical text may hold an annotation (a comment or a mark):
    False only when it surely holds none (no ``{``, no ``?`` and no line ending in ``!``;
    the test is a few memory scans, so an archive import pays almost nothing for it)."""
    return "{" in text or "?" in text or "!\n" in text


def identity_hash(record: Record, text: str | None = None) -> str:
    """SHA-256 (hex) of :func:`identity_text`: the key an archive stores a game under."""
    import hashlib  # here: OpenSSL's load would cost every command's start-up

    return hashlib.sha256(identity_text(record, text).encode("utf-8")).hexdigest()
