"""Puzzles in the shared notation: a record-like block of headers and comments, no actions.

::

    [Game "tweak"]
    [Rules "tweak/1"]
    [Position "tweak/1 T0 r1d2 t9 0,0,0 ..."]
    [Question "tweak-this-turn"]
    [Answer "forced"]
    [Solution "p0 !J+; p0 O4xO2Y2Y2"]
    [Difficulty "nodes=41 line=2 failing=5"]
    [Source "games.kifu#3@ply12"]

    {Use the Joker first.}

``Game``, ``Position`` and ``Question`` are required; ``Rules`` defaults to the position's
rules token (and must agree with it); ``Answer`` is the question's canonical answer text;
``Solution`` is a principal line, ``actor text`` items joined by ``; ``. Any other tag is
kept, in order, after these. A file holds any number of puzzles and is read as a stream by
the record reader (:func:`kifu.notation.reader.read_records` with a visitor), so memory
does not grow with the file. The JSON form is the msgspec encoding of :class:`Puzzle`
(:func:`puzzle_json_schema`). :func:`format_puzzle` writes the canonical text; reading it
back gives the same :class:`Puzzle` (round trip exact).

:func:`check_puzzle` is the one set of checks for text and JSON input: a known game, rules
of that game, a position of that game, a question of that game that applies to the
position, a well-formed answer, a legal solution line. Each failure is a one-line
:class:`~kifu.core.errors.NotationError` located at the header at fault.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any

import msgspec

from kifu.core.errors import IllegalActionError, KifuError, NotationError
from kifu.core.game import Game, State, actor_name
from kifu.core.text import ascii_words, non_ascii_problem
from kifu.core.variant import short
from kifu.notation.reader import RecordBuilder, read_records
from kifu.notation.record import (
    ACTOR,
    MAX_JSON_DEPTH,
    Record,
    format_record,
    json_too_deep,
    value_problem,
)

KNOWN = ("Game", "Rules", "Position", "Question", "Answer", "Solution", "Difficulty", "Source")
"""The puzzle headers, in their canonical order (any other tag follows them)."""
REQUIRED = ("Game", "Position", "Question")
THEMES = "Themes"
"""The tag that says what a puzzle is about: theme words separated by single spaces, each of
lower-case letters, digits and ``-=/.`` (``tweak-this-turn possible odds-1/3 thief``). It is
kept among the other tags (after the known headers); :func:`puzzle_themes` reads it."""
_THEME = re.compile(r"[a-z0-9][a-z0-9=/.-]{0,39}\Z")


class Puzzle(msgspec.Struct, omit_defaults=True):
    """One puzzle. ``solution`` is the principal line, each item ``"actor text"``; ``tags``
    holds any other header, in order; ``comment`` the text of its ``{comments}``."""

    game: str
    rules: str
    position: str
    question: str
    answer: str | None = None
    solution: list[str] | None = None
    difficulty: str | None = None
    source: str | None = None
    tags: dict[str, str] = msgspec.field(default_factory=dict)
    comment: str | None = None

    def to_text(self) -> str:
        return format_puzzle(self)


class LocatedPuzzle(msgspec.Struct):
    """A puzzle with where it came from: the file, its number in the file (1-based), the
    line of its first header and of each header (0 and empty for JSON input)."""

    puzzle: Puzzle
    path: str
    index: int
    line: int = 0
    header_lines: dict[str, int] = msgspec.field(default_factory=dict)
    options: dict[str, str] = msgspec.field(default_factory=dict)
    """For a puzzle typed on the command line: header -> the argument or option it came
    from (``Question`` -> ``--question``), where its errors are located."""

    def where(self) -> str:
        """``file:line`` of the puzzle (``file#N`` for JSON input)."""
        return f"{self.path}:{self.line}" if self.line else f"{self.path}#{self.index}"

    def error(self, header: str | None, message: str, col: int = 0) -> NotationError:
        """A located error at ``header`` (its value's column + ``col``)."""
        option = self.options.get(header or "")
        if option is not None:
            at = f"column {col}: " if col > 1 else ""
            return NotationError(f"{at}{message}", path=option)
        line = self.header_lines.get(header or "", 0) or self.line
        if not line:
            return NotationError(f"puzzle {self.index}: {message}", path=self.path)
        at = 1
        if header in self.header_lines:
            at = len(header) + 4 + max(col - 1, 0)
        return NotationError(message, line=line, col=at, path=self.path)


# --- text --------------------------------------------------------------------------------------


def puzzle_themes(p: Puzzle) -> list[str]:
    """The words of a puzzle's ``Themes`` tag (none if it has no such tag)."""
    return p.tags.get(THEMES, "").split()


def themes_problem(value: str) -> tuple[int, str] | None:
    """(column, what is wrong) with a ``Themes`` value, or None."""
    col = 1
    for word in value.split(" "):
        if not _THEME.match(word):
            return col, (f"bad theme {word!r}: a theme is lower-case letters, digits and "
                         "- = / . (at most 40), themes are separated by one space")
        col += len(word) + 1
    return None


def split_solution(value: str) -> list[str]:
    """The items of a ``Solution`` header (``"p0 !J+; p0 R3"``), each single-spaced.

    >>> split_solution("p0 !J+;p0  O4xO2")
    ['p0 !J+', 'p0 O4xO2']
    """
    items = [_words(x) for x in value.split(";")]
    if not ascii_words(value):
        return []
    return items


def _words(text: str) -> str:
    """``text`` with its runs of ASCII white space made one space, ends trimmed (other
    "spaces", U+00A0 and the like, stay: they are refused as not ASCII)."""
    return " ".join(ascii_words(text))


def _puzzle_from_headers(headers: dict[str, str], comment: str | None) -> Puzzle:
    tags = {k: v for k, v in headers.items() if k not in KNOWN}
    sol = headers.get("Solution")
    position = headers.get("Position", "")
    rules = headers.get("Rules")
    if rules is None:
        rules = position.split(" ", 1)[0] if position else ""
    return Puzzle(
        game=headers.get("Game", ""),
        rules=rules,
        position=_words(position),
        question=_words(headers.get("Question", "")),
        answer=None if "Answer" not in headers else _words(headers["Answer"]),
        solution=None if sol is None else split_solution(sol),
        difficulty=headers.get("Difficulty"),
        source=headers.get("Source"),
        tags=tags,
        comment=comment,
    )


class PuzzleBuilder(RecordBuilder):
    """The reader's visitor for puzzle files: yields :class:`LocatedPuzzle`; an action line
    is an error (a puzzle has none). Headers and comments are read as for a record."""

    def __init__(self, path: str = "<text>") -> None:
        super().__init__(path)
        self.count = 0

    def begin_record(self, line: int) -> None:
        self.count += 1
        super().begin_record(line)

    def move(self, actor: str, text: str, comment: str | None, line: int, col: int) -> None:
        raise NotationError(
            "a puzzle has no actions: write its principal line in the Solution header",
            line=line, col=1, path=self.path,
        )

    def end_record(self) -> LocatedPuzzle:
        for name in REQUIRED:
            if name not in self.headers:
                raise NotationError(f"puzzle has no {name} header", line=self.start, col=1,
                                    path=self.path)
        return LocatedPuzzle(
            _puzzle_from_headers(self.headers, self.comment_text),
            self.path, self.count, self.start, self.header_lines,
        )


def read_puzzles(
    source: IO[str] | Iterable[str] | str, *, path: str = "<text>"
) -> Iterator[LocatedPuzzle]:
    """Yield the puzzles of a text (a handle, lines, or a whole string), one at a time.
    Syntax errors are located ``path:line:col``; the puzzles are not checked against the
    games (:func:`check_puzzle` does that)."""
    lines: Iterable[str] = source.split("\n") if isinstance(source, str) else source
    yield from read_records(_end_blocks(lines), path=path, visitor=PuzzleBuilder(path))


def _end_blocks(lines: Iterable[str]) -> Iterator[str]:
    """The record reader ends a record only at the headers of the next one *after a body*;
    a puzzle usually has no body. So a blank line right after a header line becomes an
    empty comment ``{}`` (which the reader ignores): the line count is unchanged, and the
    next ``[Game ...]`` starts a new puzzle."""
    after_header = False
    depth = 0
    for raw in lines:
        s = raw.strip()
        if not s and after_header and depth == 0:
            yield "{}"
            after_header = False
            continue
        if depth == 0 and s.startswith("["):
            after_header = True
        elif s:
            after_header = False
        depth = max(0, depth + s.count("{") - s.count("}"))
        yield raw


def parse_puzzles(text: str, *, path: str = "<text>") -> list[Puzzle]:
    return [lp.puzzle for lp in read_puzzles(text, path=path)]


def headers_of(p: Puzzle) -> dict[str, str]:
    """A puzzle's headers as a dict: Game, Rules, Position, Question, then Answer,
    Difficulty, Source and Solution where given, then the other tags (the order the archive
    stores them in; :func:`format_puzzle` writes :data:`KNOWN`'s order)."""
    headers = {"Game": p.game, "Rules": p.rules, "Position": p.position,
               "Question": p.question}
    for name, value in (("Answer", p.answer), ("Difficulty", p.difficulty),
                        ("Source", p.source)):
        if value is not None:
            headers[name] = value
    if p.solution is not None:
        headers["Solution"] = "; ".join(p.solution)
    headers.update(p.tags)
    return headers


def format_puzzle(p: Puzzle) -> str:
    """The canonical text of a puzzle (ends with a newline): the known headers in the order
    of :data:`KNOWN`, then the other tags, a blank line, and the comment if any."""
    headers = {"Game": p.game, "Rules": p.rules, "Position": p.position,
               "Question": p.question}
    if p.answer is not None:
        headers["Answer"] = p.answer
    if p.solution is not None:
        headers["Solution"] = "; ".join(p.solution)
    if p.difficulty is not None:
        headers["Difficulty"] = p.difficulty
    if p.source is not None:
        headers["Source"] = p.source
    for k, v in p.tags.items():
        if k in KNOWN:
            raise NotationError(f"tag {short(k)} is a puzzle field, not a tag")
        headers[k] = v
    text = format_record(Record(headers, [], p.comment))
    # format_record puts a few record tags (Players, Date, Result) right after Rules; a
    # puzzle keeps its own order: the known headers first.
    if any(k in p.tags for k in ("Players", "Date", "Result")):
        head, _, rest = text.partition("\n\n")
        lines = head.split("\n")
        order = {name: i for i, name in enumerate(headers)}
        lines.sort(key=lambda ln: order[ln[1 : ln.index(" ")]])
        text = "\n".join(lines) + "\n\n" + rest
    if p.comment is None:  # no body: the headers alone
        text = text.rstrip("\n") + "\n"
    return text


def format_puzzles(puzzles: Iterable[Puzzle]) -> str:
    """Several puzzles, separated by one blank line."""
    return "\n".join(format_puzzle(p) for p in puzzles)


# --- JSON ---------------------------------------------------------------------------------------

_decoder = msgspec.json.Decoder(Puzzle)
_list_decoder = msgspec.json.Decoder(list[Puzzle])


def puzzle_to_json(p: Puzzle) -> bytes:
    return msgspec.json.encode(p)


def puzzles_from_json(data: bytes | str, *, path: str = "<text>") -> list[LocatedPuzzle]:
    """A JSON document holding one puzzle or a list, or JSON lines (one puzzle a line).
    Raises a located :class:`NotationError` for bad JSON."""
    text = data if isinstance(data, str) else data.decode("utf-8")
    if json_too_deep(text):
        raise NotationError(f"bad JSON puzzle: arrays and objects nested more than "
                            f"{MAX_JSON_DEPTH} deep", path=path)
    try:
        if text.lstrip().startswith("["):
            puzzles = _list_decoder.decode(text)
        else:
            lines = [ln for ln in text.split("\n") if ln.strip()]
            if len(lines) > 1 and all(ln.lstrip().startswith("{") for ln in lines):
                puzzles = [_decoder.decode(ln) for ln in lines]
            else:
                puzzles = [_decoder.decode(text)]
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise NotationError(f"bad JSON puzzle: {short(str(e), 200)}", path=path) from None
    return [LocatedPuzzle(_as_text_reads(p, path, i), path, i)
            for i, p in enumerate(puzzles, 1)]


def _as_text_reads(p: Puzzle, path: str, index: int) -> Puzzle:
    """A JSON puzzle as the text reader would give it: written as text (which refuses what
    the text cannot hold, e.g. a control character or a double space in a comment) and read
    back (white space made single), so both forms accept one language."""
    try:
        found = list(read_puzzles(format_puzzle(p), path=path))
    except NotationError as e:
        raise NotationError(f"puzzle {index}: {e.message}", path=path) from None
    if len(found) != 1:  # pragma: no cover - format_puzzle writes one block
        raise NotationError(f"puzzle {index}: cannot be written as one puzzle", path=path)
    return found[0].puzzle


def puzzle_json_schema() -> dict[str, Any]:
    """The JSON Schema of a puzzle (``kifu schema puzzle``)."""
    return msgspec.json.schema(Puzzle)


def looks_like_json(text: str) -> bool:
    s = text.lstrip()
    return s.startswith("{") or (s.startswith("[") and s[1:].lstrip()[:1] in ("{", "]"))


def load_puzzles(path: str, text: str | None = None) -> Iterator[LocatedPuzzle]:
    """The puzzles of a file (``-`` for standard input), text or JSON, with their
    locations; with ``text`` given, the puzzles of that text, named ``path``.

    A file is read as record files are (:mod:`kifu.notation.files`): as bytes, strict
    UTF-8, text streamed line by line within the line limits, a JSON document read whole
    up to ``MAX_JSON`` bytes."""
    if text is not None:
        if looks_like_json(text):
            yield from puzzles_from_json(text, path=path)
        else:
            yield from read_puzzles(text, path=path)
        return
    from kifu.notation.files import display_name, open_binary

    with open_binary(path) as f:
        yield from read_puzzle_stream(f, display_name(path))


def read_puzzle_stream(f: IO[bytes], name: str) -> Iterator[LocatedPuzzle]:
    """The puzzles of a binary stream named ``name`` (what :func:`load_puzzles` reads)."""
    from kifu.notation.files import read_stream

    yield from read_stream(f, name, PuzzleBuilder(name),
                           json=lambda text: puzzles_from_json(text, path=name))


# --- checking -----------------------------------------------------------------------------------


class Checked(msgspec.Struct):
    """A checked puzzle: its game, its position (a fresh state), its question, and the
    puzzle in canonical form (canonical game id, rules, question and answer)."""

    located: LocatedPuzzle
    game: Game
    state: State
    question: Any
    puzzle: Puzzle


def check_puzzle(lp: LocatedPuzzle) -> Checked:
    """Check a puzzle against its game and question; raise a located :class:`NotationError`
    at the header at fault."""
    from kifu import games
    from kifu.puzzles import get_question

    p = lp.puzzle
    for header, value in (("Game", p.game), ("Rules", p.rules), ("Position", p.position),
                          ("Question", p.question), ("Answer", p.answer),
                          ("Solution", "; ".join(p.solution or ()))):
        problem = non_ascii_problem(value or "")
        if problem:  # lookalikes ("ſ" for "s", U+00A0 for a space) are refused, not read
            raise lp.error(header, f"a {header} is ASCII: {problem[1]}", problem[0] + 1)
        problem = value_problem(value or "")  # what a text header may not hold (JSON)
        if problem:
            raise lp.error(header, problem[1], problem[0] + 1)
    try:
        game = games.get(p.game)
    except KifuError as e:
        raise lp.error("Game", str(e)) from None
    head = p.position.split(" ", 1)[0]
    other = head.split(";", 1)[0].split("/", 1)[0]
    try:
        other_id = games.canonical_id(other)
    except KifuError:  # not a game at all: the line does not start with its rules
        raise lp.error("Position", f"a position line starts with its rules, e.g. "
                       f"{game.rules_spec()}; {short(head, 24)} is not a rules token") from None
    if other_id != game.id:
        raise lp.error("Position", f"the position is of game {short(other)}, not {game.id}")
    try:
        variant = game.parse_rules(p.rules)
    except KifuError as e:
        raise lp.error("Rules", str(e)) from None
    try:
        state = game.from_line(p.position)
    except NotationError as e:
        raise lp.error("Position", e.message, e.col) from None
    except KifuError as e:
        raise lp.error("Position", str(e)) from None
    if game.rules_spec(state.variant) != game.rules_spec(variant):
        raise lp.error(
            "Rules", f"the Rules header {short(p.rules)} differs from the position's rules "
            f"{game.rules_spec(state.variant)!r}",
        )
    try:
        question = get_question(p.question)
    except NotationError as e:
        raise lp.error("Question", e.message, e.col) from None
    if question.game != game.id:
        raise lp.error(
            "Question", f"question {question.name} is for {question.game}, not {game.id} "
            f"(questions for {game.id}: {', '.join(_names_for(game.id)) or 'none'})",
        )
    why = question.applies(state)
    if why is not None:
        raise lp.error("Question", f"{question.spec} cannot be asked here: {why}")
    answer = p.answer
    if answer is not None:
        try:
            answer = question.parse_answer(answer)
        except NotationError as e:
            raise lp.error("Answer", e.message, e.col) from None
    if p.solution is not None:
        _check_line(lp, game, state, p.solution)
    if THEMES in p.tags:
        problem = themes_problem(p.tags[THEMES])
        if problem:
            raise lp.error(THEMES, problem[1], problem[0])
    canonical = msgspec.structs.replace(
        p, game=game.id, rules=game.rules_spec(variant), question=question.spec,
        answer=answer,
    )
    return Checked(lp, game, state, question, canonical)


def is_puzzle(headers: dict[str, str]) -> bool:
    """Whether a block's headers are a puzzle's (it has a ``Question`` and a ``Position``)."""
    return "Question" in headers and "Position" in headers


def check_located_puzzle(loc: Any) -> Checked:
    """:func:`check_puzzle` for a block read by the record reader (a
    :class:`~kifu.notation.reader.Located` with no moves), e.g. in ``kifu validate``."""
    record = loc.record
    lp = LocatedPuzzle(_puzzle_from_headers(record.headers, record.comment), loc.path, 1,
                       loc.line, dict(loc.header_lines))
    return check_puzzle(lp)


def is_puzzle_file(path: str) -> bool:
    """Whether a text file starts with a puzzle block (its first header block has a
    ``Question`` and a ``Position`` header); only its first 64 KiB are looked at."""
    if path == "-" or not os.path.isfile(path):
        return False
    names = set()
    with open(path, "rb") as f:
        head = f.read(1 << 16).decode("utf-8", "replace")
    for raw in head.split("\n"):
        s = raw.strip()
        if not s:
            if names:
                break
            continue
        if not s.startswith("["):
            break
        names.add(s[1:].split(" ", 1)[0].split('"', 1)[0])
    return {"Question", "Position"} <= names


def records_or_puzzles(path: str, load_records: Any) -> Iterator[Any]:
    """For ``kifu validate``: the blocks of ``path`` as the record reader's
    :class:`~kifu.notation.reader.Located` records, except that a puzzle file is read by
    the puzzle reader (a puzzle has no actions, so the record reader would run two blocks
    together) and each puzzle is given as a record of its headers, for
    :func:`check_located_puzzle`."""
    if not is_puzzle_file(path):
        yield from load_records(path)
        return
    from kifu.notation.reader import Located

    for lp in load_puzzles(path):
        p = lp.puzzle
        headers = headers_of(p)
        yield Located(Record(headers, [], p.comment), lp.path, lp.line, [],
                      dict(lp.header_lines))


def _names_for(gid: str) -> list[str]:
    from kifu.puzzles import questions_for

    try:
        return questions_for(gid)
    except Exception:  # pragma: no cover - a broken question module elsewhere
        return []


def _check_line(lp: LocatedPuzzle, game: Game, state: State, items: list[str]) -> None:
    """Each Solution item must be the actor to move and a legal action (played on a copy)."""
    s = state.copy()
    col = 1
    for i, item in enumerate(items, 1):
        actor, _, text = item.partition(" ")
        where = f"Solution item {i} {short(item)}"
        if not ACTOR.match(actor) or not text:
            raise lp.error("Solution", f"{where}: expected 'actor action'", col)
        if s.to_move is None:
            raise lp.error("Solution", f"{where}: the game is over", col)
        want = actor_name(s.to_move)
        if actor != want:
            raise lp.error("Solution", f"{where}: {want} is to move, not {actor}", col)
        try:
            s.apply(game.parse_action(s, text))
        except (NotationError, IllegalActionError) as e:
            msg = e.message if isinstance(e, NotationError) else str(e)
            raise lp.error("Solution", f"{where}: {msg}", col) from None
        col += len(item) + 2
