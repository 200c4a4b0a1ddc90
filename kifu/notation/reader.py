"""A streaming, visitor-based reader of record files.

``read_records(handle)`` yields one record at a time; its memory use does not depend on the
size of the file. The reader sends events to a :class:`Visitor` (as python-chess's PGN
reader does): ``begin_record``, ``header``, ``end_headers`` (return :data:`SKIP` to skip the
moves: a headers-only fast path for archive imports), ``comment``, ``move``, and
``end_record``, whose return value is what the reader yields. Every syntax error raises a
:class:`~kifu.core.errors.NotationError` with ``path:line:col``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any

import msgspec

from kifu.core.errors import NotationError
from kifu.notation.record import (
    ACTOR,
    MARKS,
    MAX_ACTIONS,
    MAX_HEADERS,
    MAX_LINE,
    MAX_TEXT,
    Move,
    Record,
    action_problem,
    comment_problem,
    excerpt,
    name_problem,
    nfc,
    value_problem,
)

SKIP = object()
"""Returned by ``Visitor.end_headers`` to skip the moves of a record."""

_MARKS = frozenset(MARKS)
_ACTORS = frozenset(["d", *(f"p{i}" for i in range(100))])
"""Actor tokens the fast path knows (others go the general way, through ``ACTOR``)."""


class Visitor:
    """Receives the events of one record. Subclass and override what you need."""

    def begin_record(self, line: int) -> None:
        pass

    def header(self, name: str, value: str, line: int) -> None:
        pass

    def end_headers(self) -> Any:
        return None

    def comment(self, text: str, line: int, col: int) -> None:
        """A comment before the first move (a comment on the whole record)."""

    def move(self, actor: str, text: str, comment: str | None, line: int, col: int) -> None:
        pass

    def move_comment(self, text: str) -> None:
        """A comment on a line of its own after a move: it belongs to that move."""

    def mark(self, mark: str) -> None:
        """The mark of the move just read (``??``; see ``MARKS``), sent right after it."""

    def end_record(self) -> Any:
        return None


class Located(msgspec.Struct):
    """A record with where it came from: the file, the line of its first header, and the
    line and column of each move's text (for error messages).

    ``moves_text`` is set only by ``read_records(..., keep_text=True)``, and only when the
    record's action lines were already canonical as read (see :func:`read_records`): then
    it is those lines joined by ``\n``, exactly the action part of ``format_record``."""

    record: Record
    path: str
    line: int
    move_lines: list[int]
    header_lines: dict[str, int]
    moves_text: str | None = None


class RecordBuilder(Visitor):
    """The default visitor: builds a :class:`Located` record."""

    def __init__(self, path: str = "<text>"):
        self.path = path

    def begin_record(self, line: int) -> None:
        self.headers: dict[str, str] = {}
        self.header_lines: dict[str, int] = {}
        self.moves: list[Move] = []
        self.lines: list[int] = []
        self.comment_text: str | None = None
        self.start = line

    def header(self, name: str, value: str, line: int) -> None:
        if name in self.headers:
            raise NotationError(f"header {name} given twice", line=line, col=2, path=self.path)
        self.headers[name] = value
        self.header_lines[name] = line

    def comment(self, text: str, line: int, col: int) -> None:
        self.comment_text = text if self.comment_text is None else f"{self.comment_text} {text}"

    def move(self, actor: str, text: str, comment: str | None, line: int, col: int) -> None:
        self.moves.append(Move(actor, text, comment))
        self.lines.append(line)

    def move_comment(self, text: str) -> None:
        last = self.moves[-1]
        joined = text if last.comment is None else f"{last.comment} {text}"
        self.moves[-1] = Move(last.actor, last.text, joined, last.mark)

    def mark(self, mark: str) -> None:
        last = self.moves[-1]
        self.moves[-1] = Move(last.actor, last.text, last.comment, mark)  # type: ignore[arg-type]

    def end_record(self) -> Located:
        return Located(
            Record(self.headers, self.moves, self.comment_text),
            self.path,
            self.start,
            self.lines,
            self.header_lines,
        )


class HeadersOnly(Visitor):
    """Reads the headers and skips the moves (fast: for listing and deduping)."""

    def begin_record(self, line: int) -> None:
        self.headers: dict[str, str] = {}

    def header(self, name: str, value: str, line: int) -> None:
        self.headers[name] = value

    def end_headers(self) -> Any:
        return SKIP

    def end_record(self) -> dict[str, str]:
        return self.headers


_NAMES: dict[str, str] = {}
"""Header names already checked: the text between ``[`` and the first quote -> the name."""


def _value_checked(body: str, lineno: int, col: int, path: str) -> str:
    problem = value_problem(body)
    if problem:
        raise NotationError(problem[1], line=lineno, col=col + problem[0], path=path)
    return body


def _parse_header(line: str, lineno: int, path: str) -> tuple[str, str]:
    # The fast path: ``[Name "value"]`` with a name seen before and no escapes in the value
    # gives what the general path below gives, without re-checking the name.
    q = line.find('"')
    if line.endswith('"]') and q < len(line) - 2:
        name = _NAMES.get(line[1:q])
        if name is not None:
            body = line[q + 1 : -2]
            if "\\" not in body and '"' not in body:
                return name, body if body.isprintable() else _value_checked(body, lineno,
                                                                             q + 2, path)
    s = line.rstrip(" \t")
    if not s.endswith("]"):
        raise NotationError("header line must end with ]", line=lineno, col=len(s) + 1, path=path)
    q = s.find('"')
    if q < 0:
        raise NotationError('header value must be in "quotes"', line=lineno, col=2, path=path)
    name = s[1:q].strip(" \t")
    problem = name_problem(name)
    if problem:
        raise NotationError(problem, line=lineno, col=2, path=path)
    if len(_NAMES) < 1000:
        _NAMES[s[1:q]] = name
    body = s[q + 1 : -1].rstrip(" \t")
    if not body.endswith('"'):
        raise NotationError('header value must end with "', line=lineno, col=len(s), path=path)
    body = body[:-1]
    if "\\" not in body and '"' not in body:
        return name, _value_checked(body, lineno, q + 2, path)
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body) or body[i + 1] not in '\\"':
                raise NotationError(
                    'a backslash in a header must escape " or \\', line=lineno,
                    col=q + 2 + i, path=path,
                )
            out.append(body[i + 1])
            i += 2
            continue
        if c == '"':
            raise NotationError('unescaped " in header value', line=lineno, col=q + 2 + i,
                                path=path)
        out.append(c)
        i += 1
    _value_checked(body, lineno, q + 2, path)
    return name, "".join(out)


def _refuse_nested(inside: str, col: int, lineno: int, path: str) -> None:
    """Comments do not nest: refuse a ``{`` in the text of a comment that starts at ``col``."""
    at = inside.find("{")
    if at >= 0:
        raise NotationError("comments do not nest: { inside a comment", line=lineno,
                            col=col + at, path=path)


def _comment_text(inside: str, lineno: int, col: int, path: str) -> str:
    """The words of a comment's text (white space runs become one space), checked."""
    text = " ".join(inside.split())
    if text and not text.isprintable():  # printable text is a good comment (no braces here)
        problem = comment_problem(text)
        if problem:
            bad = problem[1]
            at = inside.find(text[problem[0]]) if problem[0] else 0
            raise NotationError(bad, line=lineno, col=col + max(0, at), path=path)
    return text


def _bad_action(text: str, lineno: int, col: int, path: str) -> NotationError:
    """The located error for action text that is not printable ASCII tokens."""
    for i, c in enumerate(text):
        if c not in " \t" and not "!" <= c <= "~":
            return NotationError(
                f"an action is printable ASCII; {c!r} is not allowed in {excerpt(text)}",
                line=lineno, col=col + i, path=path,
            )
    problem = action_problem(text) or (0, f"bad action text {excerpt(text)}")
    return NotationError(problem[1], line=lineno, col=col + problem[0], path=path)


_KEEP = bytes(range(0x20, 0x7F)) + b"\n"
"""Printable ASCII and the newline."""


def plain_text(text: str, lines: list[str]) -> bool:
    """Whether ``text`` (split into ``lines`` at ``\\n``) is *plain*: printable ASCII and
    newlines only, no braces, no two spaces in a row, no line longer than ``MAX_LINE``.
    Every action line of a plain text needs only two tests to take the fast path."""
    return (
        text.isascii()
        and "{" not in text
        and "}" not in text
        and "  " not in text
        and not text.encode("ascii").translate(None, _KEEP)
        and _no_long_line(text, lines)
    )


def _no_long_line(text: str, lines: list[str]) -> bool:
    """Whether no line of ``text`` is longer than ``MAX_LINE``: a longer line would hold a
    whole window of ``MAX_LINE // 2`` characters (at a multiple of it) without a newline."""
    half = max(1, MAX_LINE // 2)
    find = text.find
    for i in range(0, len(text) - half + 1, half):
        if find("\n", i, i + half) < 0:
            return max(map(len, lines)) <= MAX_LINE
    return True


class ReaderState:
    """Where :func:`read_records` stands after each block it reads and at the end of its
    input (filled when one is given as ``state``): ``idle`` when it is between records as a
    reader starting afresh would be (no open comment, and with ``blocks=True`` no header
    block waiting for its blank line), ``in_record`` when a record has begun. A reader that
    is ``idle`` before a line that starts with ``[`` reads the rest of a file exactly as a
    new reader would (``kifu.notation.batch`` cuts files there)."""

    __slots__ = ("idle", "in_record")

    def __init__(self) -> None:
        self.idle = True
        self.in_record = False


class Blocks:
    """Lines given in blocks, each a list with whether it is plain (:func:`plain_text`):
    how the file loader hands lines to :func:`read_records` (it reads files in blocks)."""

    __slots__ = ("blocks",)

    def __init__(self, blocks: Iterable[tuple[Iterable[str], bool]]):
        self.blocks = blocks

    def __iter__(self) -> Iterator[tuple[Iterable[str], bool]]:
        return iter(self.blocks)


def read_records(
    source: IO[str] | Iterable[str] | str | Blocks,
    *,
    path: str = "<text>",
    visitor: type[Visitor] | Visitor | None = None,
    blocks: bool = False,
    keep_text: bool = False,
    first_line: int = 0,
    state: ReaderState | None = None,
) -> Iterator[Any]:
    """Yield what the visitor's ``end_record`` returns, one record at a time.

    ``source`` is a text handle, an iterable of lines, or a whole string. The default
    visitor is :class:`RecordBuilder`, which yields :class:`Located` records. Limits
    (``kifu.notation.record``): lines of at most ``MAX_LINE`` characters, records of at most
    ``MAX_ACTIONS`` actions and ``MAX_HEADERS`` headers, comments of at most ``MAX_TEXT``.

    ``blocks=True`` reads the lines as ``read_records(_end_blocks(lines))`` would
    (``kifu.notation.puzzle._end_blocks``: a blank line right after a header line, outside
    braces, ends the headers, so headers-only puzzle blocks read one by one), without a
    generator in between.

    ``keep_text=True`` (with the default visitor) fills :attr:`Located.moves_text` for a
    record whose action lines are consecutive lines of one plain block (``plain_text``:
    no comment, tab, carriage return or double space anywhere in it) and none of which
    starts or ends with a space: such a line is exactly ``actor text``, as
    ``format_record`` writes it, so the archive need not write it again.

    ``first_line``: the lines before ``source`` (a part of a file read on its own: line
    numbers count from the file's start). ``state``: see :class:`ReaderState`.
    """
    parts: Iterable[tuple[Iterable[str], bool]]
    if isinstance(source, str):
        # only \n ends a line (str.splitlines would also split on \x85, \u2028, ...)
        split = source.split("\n")
        parts = ((split, plain_text(source, split)),)
    elif isinstance(source, Blocks):
        parts = source
    else:
        parts = ((source, False),)
    if visitor is None:
        vis: Visitor = RecordBuilder(path)
    elif isinstance(visitor, type):
        vis = visitor(path) if visitor is RecordBuilder else visitor()
    else:
        vis = visitor
    actor_ok = ACTOR.match
    actors = _ACTORS
    direct = type(vis) is RecordBuilder  # the fast path fills its lists itself
    keep = keep_text and direct
    here: tuple[list[str] | None, int] = (None, 0)  # the plain block read now, and the
    before: tuple[list[str] | None, int] = (None, 0)  # one before (line number before each)

    def kept(loc: Located) -> Located:
        ml = loc.move_lines
        if not ml or ml[-1] - ml[0] + 1 != len(ml):
            return loc  # no actions, or other lines among them
        first, last = ml[0], ml[-1]
        for block, base in (here, before):
            if block is not None and base < first and last - base <= len(block):
                text = "\n".join(block[first - base - 1 : last - base])
                if (text[0] != " " and text[-1] != " " and "\n " not in text
                        and " \n" not in text):
                    loc.moves_text = text
                return loc
        return loc
    moves_append = lines_append = None
    in_record = False  # inside a record
    in_body = False  # past its headers
    skipping = False
    nmoves = 0  # actions of this record so far
    nheaders = 0
    pending: list[str] | None = None  # an open multi-line comment
    pending_at = (0, 0)
    pending_size = 0
    notes: list[str] = []  # comment texts waiting for the next action or record end
    notes_at = (0, 0)
    notes_size = 0
    lineno = first_line

    def flush_notes(nmoves: int) -> None:
        # Comments are collected, then joined once: 100,000 comment lines stay linear.
        text = " ".join(notes)
        notes.clear()
        if nmoves:
            vis.move_comment(text)
        else:
            vis.comment(text, *notes_at)

    def add_note(text: str, at: tuple[int, int]) -> None:
        nonlocal notes_at, notes_size
        if not notes:
            notes_at = at
            notes_size = 0
        notes_size += len(text) + 1
        if notes_size > MAX_TEXT:
            raise NotationError(f"a comment may have at most {MAX_TEXT} characters",
                                line=at[0], col=at[1], path=path)
        notes.append(text)

    # _end_blocks' state (blocks=True): whether the last line that was not blank was a
    # header line read outside braces, and the brace depth. A fast-path action line would
    # leave both as they are (it has no braces and follows a body line), so only the general
    # path below keeps them.
    after_header = False
    depth = 0

    max_line = MAX_LINE
    max_actions = MAX_ACTIONS
    for lines, plain in parts:
        plain = plain and not notes  # comments waiting for an action: the general path
        if keep:
            before, here = here, ((lines if plain and isinstance(lines, list) else None),
                                  lineno)
        for raw in lines:
            lineno += 1
            if plain:
                # A plain block (see plain_text): an action line needs only a known actor and
                # no space at its end to be what the general fast path below would take.
                if in_body and pending is None and not skipping:
                    actor, _, text = raw.partition(" ")
                    if actor in actors and text and text[-1] not in " !?":
                        nmoves += 1
                        if nmoves > max_actions:
                            raise NotationError(f"a record may have at most {MAX_ACTIONS} actions",
                                                line=lineno, col=1, path=path)
                        if direct:
                            moves_append(Move(actor, text))  # type: ignore[misc]
                            lines_append(lineno)  # type: ignore[misc]
                        else:
                            vis.move(actor, text, None, lineno, len(actor) + 2)
                        continue
                line = raw
            else:
                if len(raw) > max_line and not (blocks and after_header and depth == 0
                                                and not raw.strip()):
                    raise NotationError(
                        f"line longer than {MAX_LINE} characters ({len(raw)})", line=lineno,
                        col=MAX_LINE + 1, path=path,
                    )
                line = raw.rstrip("\r\n")
            if not plain and in_body and pending is None and not skipping:
                # The fast path: a plain action line "actor text" (most lines of a file), taken
                # exactly as the general path below would take it; anything else goes there.
                actor, _, text = line.partition(" ")
                if (
                    actor in actors
                    and text
                    and text.isascii()
                    and text.isprintable()
                    and "{" not in text
                    and "}" not in text
                    and "  " not in text
                    and text == text.strip()
                    and text[-1] not in "!?"  # a mark: the general path reads it
                ):
                    if notes:
                        flush_notes(nmoves)
                    nmoves += 1
                    if nmoves > max_actions:
                        raise NotationError(f"a record may have at most {MAX_ACTIONS} actions",
                                            line=lineno, col=1, path=path)
                    if direct:
                        moves_append(Move(actor, text))  # type: ignore[misc]
                        lines_append(lineno)  # type: ignore[misc]
                    else:
                        vis.move(actor, text, None, lineno, len(actor) + 2)
                    continue
            if blocks:
                stripped = raw.strip()
                if not stripped and after_header and depth == 0:
                    after_header = False
                    line = "{}"  # an empty comment: the headers end here
                else:
                    if depth == 0 and stripped.startswith("["):
                        after_header = True
                    elif stripped:
                        after_header = False
                    if "{" in stripped or "}" in stripped:
                        depth = max(0, depth + stripped.count("{") - stripped.count("}"))
            if "\r" in line:
                raise NotationError(
                    "a carriage return inside a line: lines end with \\n or \\r\\n (CR-only line "
                    "ends are not read)", line=lineno, col=line.index("\r") + 1, path=path,
                )
            if pending is not None:
                end = line.find("}")
                nested = line.find("{")
                if nested >= 0 and (end < 0 or nested < end):
                    raise NotationError(
                        f"the comment opened at {pending_at[0]}:{pending_at[1]} is not closed "
                        "before this {", line=lineno, col=nested + 1, path=path,
                    )
                part = line if end < 0 else line[:end]
                pending_size += len(part) + 1
                if pending_size > MAX_TEXT:
                    raise NotationError(f"a comment may have at most {MAX_TEXT} characters",
                                        line=pending_at[0], col=pending_at[1], path=path)
                if end < 0:
                    pending.append(_comment_text(line, lineno, 1, path))
                    continue
                pending.append(_comment_text(part, lineno, 1, path))
                text = " ".join(t for t in pending if t)
                pending = None
                if text:
                    add_note(text, pending_at)
                line = line[end + 1 :]
                if line.strip(" \t"):
                    raise NotationError(
                        "text after a comment must start a new line", line=lineno, col=end + 2,
                        path=path,
                    )
                continue
            first = line.lstrip(" \t")
            if not first:
                continue
            c = first[0]
            if c == "[":
                if notes:
                    flush_notes(nmoves)
                if in_body:
                    yield kept(vis.end_record()) if keep else vis.end_record()
                    in_record = in_body = skipping = False
                if not in_record:
                    vis.begin_record(lineno)
                    in_record = True
                    nmoves = nheaders = 0
                    if direct:
                        moves_append = vis.moves.append  # type: ignore[attr-defined]
                        lines_append = vis.lines.append  # type: ignore[attr-defined]
                nheaders += 1
                if nheaders > MAX_HEADERS:
                    raise NotationError(f"a record may have at most {MAX_HEADERS} headers",
                                        line=lineno, col=1, path=path)
                name, value = _parse_header(first, lineno, path)
                if name == "Players" and not value.isascii():
                    value = nfc(value)  # one spelling of each name (NFC)
                vis.header(name, value, lineno)
                continue
            if c == "%":  # escape line: ignored, like PGN's
                continue
            if not in_record:
                raise NotationError(
                    "a record must start with a [Tag \"value\"] header", line=lineno,
                    col=len(line) - len(first) + 1, path=path,
                )
            if not in_body:
                in_body = True
                skipping = vis.end_headers() is SKIP
            if skipping:
                continue
            indent = len(line) - len(first)
            if c == "{":
                end = first.find("}")
                if end < 0:
                    _refuse_nested(first[1:], indent + 2, lineno, path)
                    pending = [_comment_text(first[1:], lineno, indent + 2, path)]
                    pending_at = (lineno, indent + 1)
                    pending_size = len(first)
                    continue
                _refuse_nested(first[1:end], indent + 2, lineno, path)
                text = _comment_text(first[1:end], lineno, indent + 2, path)
                rest = first[end + 1 :].strip(" \t")
                if rest:
                    raise NotationError(
                        "text after a comment must start a new line", line=lineno,
                        col=indent + end + 2, path=path,
                    )
                if text:
                    add_note(text, (lineno, indent + 1))
                continue
            if c == "}":
                raise NotationError("} without {", line=lineno, col=indent + 1, path=path)
            comment = None
            brace = first.find("{")
            if brace >= 0:
                early = first.find("}", 0, brace)
                if early >= 0:  # "p0 } {x}": the action text would hold the brace
                    raise NotationError("} without {", line=lineno, col=indent + early + 1,
                                        path=path)
                end = first.find("}", brace)
                if end < 0:
                    raise NotationError(
                        "a comment after an action must close on the same line", line=lineno,
                        col=indent + brace + 1, path=path,
                    )
                if first[end + 1 :].strip(" \t"):
                    raise NotationError(
                        "text after a comment must start a new line", line=lineno,
                        col=indent + end + 2, path=path,
                    )
                _refuse_nested(first[brace + 1 : end], indent + brace + 2, lineno, path)
                comment = _comment_text(first[brace + 1 : end], lineno, indent + brace + 2,
                                        path) or None
                first = first[:brace]
            elif "}" in first:
                raise NotationError("} without {", line=lineno, col=indent + first.find("}") + 1,
                                    path=path)
            actor, _, text = first.partition(" ")
            if not actor_ok(actor):
                raise NotationError(
                    f"expected an actor (d, p0, p1, ...) or a header, got {excerpt(actor)}",
                    line=lineno, col=indent + 1, path=path,
                )
            norm = text.strip(" \t")
            if "  " in norm or "\t" in norm:
                norm = " ".join(w for w in norm.replace("\t", " ").split(" ") if w)
            mark = None
            if norm[-1:] in ("!", "?"):  # a last token that is a mark: the move's mark
                head, _, last = norm.rpartition(" ")
                if last in _MARKS:
                    if not head:
                        raise NotationError(
                            f"{actor} has no action, only the mark {last}", line=lineno,
                            col=indent + len(actor) + 2, path=path)
                    mark, norm = last, head
            if not norm:
                raise NotationError(f"{actor} has no action", line=lineno,
                                    col=indent + len(actor) + 1, path=path)
            if not (norm.isascii() and norm.isprintable()) and action_problem(norm):
                raise _bad_action(text, lineno, indent + len(actor) + 2, path)
            if notes:
                flush_notes(nmoves)
            nmoves += 1
            if nmoves > MAX_ACTIONS:
                raise NotationError(f"a record may have at most {MAX_ACTIONS} actions",
                                    line=lineno, col=1, path=path)
            vis.move(actor, norm, comment, lineno, indent + len(actor) + 2)
            if mark is not None:
                vis.mark(mark)
        if state is not None:
            state.idle = (pending is None and depth == 0 and not after_header
                          and (in_body or not in_record))
            state.in_record = in_record
    if pending is not None:
        raise NotationError("comment not closed: missing }", line=pending_at[0],
                            col=pending_at[1], path=path)
    if notes:
        flush_notes(nmoves)
    if in_record:
        yield kept(vis.end_record()) if keep else vis.end_record()


def parse_records(text: str, *, path: str = "<text>") -> list[Record]:
    """Every record in ``text``.

    >>> [r.moves[0].text for r in parse_records('[Game "tweak"]\\n\\nd dealer p1\\n')]
    ['dealer p1']
    """
    return [loc.record for loc in read_records(text, path=path)]


def parse_record(text: str, *, path: str = "<text>") -> Record:
    """Exactly one record."""
    records = parse_records(text, path=path)
    if len(records) != 1:
        raise NotationError(f"expected one record, found {len(records)}", path=path)
    return records[0]
