"""The Lianxian board as data: spaces, their owners, the lines, finish lines and seating.

A board is read from a small line-based text file (``boards/default.board``; the grammar is
in ``docs/rules/lianxian.md``) and checked on load: every error names ``file:line:col``.
The variant field ``board`` names the file (``<name>.board`` in one of :data:`BOARD_DIRS`),
so the real SETUP board can be dropped in without touching code.

Spaces are numbered in declaration order and a set of spaces is an int bitmask; the tables
built here (adjacency, the neighbours of any set, the spaces each seat may use) are what the
placement generator runs on.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from kifu.core.errors import NotationError, VariantError
from kifu.core.text import ascii_tokens, read_text_file
from kifu.core.variant import short

BOARD_DIRS: list[Path] = [Path(__file__).resolve().parent / "boards"]
"""Where ``board=<name>`` is looked up (append a directory to add boards)."""
MAX_SPACES = 16
CENTRE = -1
TEAM = 0
"""The key of the 2-vs-2 entries in ``finish`` and ``seats`` (player counts are 2..4)."""

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_INT = re.compile(r"[0-9]{1,9}\Z")


class Board:
    """A loaded, validated board with its tables (read-only after construction)."""

    __slots__ = ("adj", "at", "finish", "index", "lines", "name", "nb_hi", "nb_lo", "owner",
                 "path", "seats", "side_names", "sides", "size", "space_names")

    def __init__(self, name: str, path: str, sides: list[str], side_names: list[str],
                 spaces: list[str], owner: list[int], at: list[tuple[int, int] | None],
                 lines: list[tuple[int, int]], finish: dict[int, int],
                 seats: dict[int, tuple[int, ...]]):
        self.name = name
        self.path = path
        self.sides = tuple(sides)
        self.side_names = tuple(side_names)
        self.space_names = tuple(spaces)
        self.index = {s.upper(): i for i, s in enumerate(spaces)}
        self.size = len(spaces)
        self.owner = tuple(owner)
        self.at = tuple(at)
        self.lines = tuple(lines)
        self.finish = dict(finish)
        self.seats = dict(seats)
        adj = [0] * self.size
        for a, b in lines:
            adj[a] |= 1 << b
            adj[b] |= 1 << a
        self.adj = tuple(adj)
        # neighbours of a set of spaces: two byte-indexed tables (boards have <= 16 spaces)
        self.nb_lo = tuple(_union(adj, m, 0) for m in range(256))
        self.nb_hi = tuple(_union(adj, m, 8) for m in range(256))

    def neighbours(self, mask: int) -> int:
        """Every space joined by a line to a space of ``mask``."""
        return self.nb_lo[mask & 255] | self.nb_hi[mask >> 8]

    def side_mask(self, side: int) -> int:
        return sum(1 << s for s in range(self.size) if self.owner[s] == side)

    def centre_mask(self) -> int:
        return self.side_mask(CENTRE)

    def seating(self, players: int, team: bool) -> tuple[int, ...]:
        """The side of each seat, in turn order."""
        key = TEAM if team else players
        if key not in self.seats:
            what = "2-vs-2" if team else f"{players} players"
            raise VariantError(f"board {self.name!r} has no seating for {what}")
        return self.seats[key]

    def finish_line(self, players: int, team: bool) -> int:
        key = TEAM if team else players
        if key not in self.finish:
            what = "2-vs-2" if team else f"{players} players"
            raise VariantError(f"board {self.name!r} has no finish line for {what}")
        return self.finish[key]

    def __repr__(self) -> str:
        return f"<Board {self.name} {self.size} spaces {len(self.lines)} lines>"


def _union(adj: list[int], m: int, shift: int) -> int:
    out = 0
    for i in range(8):
        if m >> i & 1 and i + shift < len(adj):
            out |= adj[i + shift]
    return out


def parse_board(text: str, path: str = "<board>") -> Board:
    """Read and check a board file's text; raises :class:`NotationError` located at
    ``path:line:col``."""
    name = ""
    sides: list[str] = []
    side_names: list[str] = []
    spaces: list[str] = []
    index: dict[str, int] = {}
    owner: list[int] = []
    at: list[tuple[int, int] | None] = []
    cells: dict[tuple[int, int], str] = {}
    lines: list[tuple[int, int]] = []
    seen_lines: dict[tuple[int, int], int] = {}
    finish: dict[int, int] = {}
    seats: dict[int, tuple[int, ...]] = {}
    last = 0

    # only \n ends a line and only ASCII spaces separate words (str.splitlines and \s would
    # also take U+2028 or U+00A0)
    rows = text.split("\n")
    if rows[-1] == "":  # the newline that ends the last line
        rows.pop()
    for ln, raw in enumerate(rows, 1):
        last = ln
        body = raw.rstrip("\r").split("#", 1)[0]
        words = [(w, col) for col, w in ascii_tokens(body)]
        if not words:
            continue

        def err(msg: str, col: int, _ln: int = ln) -> NotationError:
            return NotationError(msg, line=_ln, col=col, path=path)

        (kw, kcol), args = words[0], words[1:]

        def need(k: int, form: str, _args=args, _kcol=kcol, _kw=kw) -> None:
            if len(_args) < k:
                raise err(f"{_kw}: expected {form}", _kcol + len(_kw) + 1)

        def count_key(word: str, col: int) -> int:
            if word == "team":
                return TEAM
            if _INT.match(word) and 2 <= int(word) <= 4:
                return int(word)
            raise err(f"expected a player count 2, 3, 4 or 'team', got {short(word)}", col)

        def side_of(word: str, col: int) -> int:
            if word not in sides:
                known = " ".join(sides) or "none declared yet"
                raise err(f"unknown side {short(word)} (sides: {known})", col)
            return sides.index(word)

        if kw == "board":
            need(1, "a name")
            if len(args) != 1 or not _NAME.match(args[0][0]):
                raise err("board: expected one name (a letter, then letters, digits, _)",
                          args[0][1])
            name = args[0][0]
        elif kw == "side":
            need(1, "a side letter and an optional name")
            letter, col = args[0]
            if not re.fullmatch(r"[A-Z]", letter):
                raise err(f"a side is one capital letter, not {short(letter)}", col)
            if letter in sides:
                raise err(f"side {letter} is declared twice", col)
            if spaces:
                raise err("declare every side before the first space", kcol)
            sides.append(letter)
            side_names.append(" ".join(w for w, _ in args[1:]) or letter)
        elif kw == "space":
            need(2, "a name and an owner (centre or a side letter)")
            sname, col = args[0]
            if not _NAME.match(sname):
                raise err(f"bad space name {short(sname)} (a letter, then letters, digits, _)", col)
            if sname.upper() in index:
                raise err(f"space {sname} is declared twice", col)
            if len(spaces) >= MAX_SPACES:
                raise err(f"a board has at most {MAX_SPACES} spaces", col)
            who, wcol = args[1]
            own = CENTRE if who == "centre" else side_of(who, wcol)
            pos = None
            rest = args[2:]
            if rest:
                if len(rest) != 3 or rest[0][0] != "at" or not (
                    _INT.match(rest[1][0]) and _INT.match(rest[2][0])
                ):
                    raise err("after the owner: optional 'at ROW COL'", rest[0][1])
                pos = (int(rest[1][0]), int(rest[2][0]))
                if pos in cells:
                    raise err(f"space {sname} is at the same place as {cells[pos]}",
                              rest[1][1])
                cells[pos] = sname
            index[sname.upper()] = len(spaces)
            spaces.append(sname)
            owner.append(own)
            at.append(pos)
        elif kw == "line":
            need(1, "one or more lines A-B")
            for word, col in args:
                a, dash, b = word.partition("-")
                if not dash or not a or not b:
                    raise err(f"a line is two spaces joined by '-', not {short(word)}", col)
                ia = index.get(_key(a))
                if ia is None:
                    raise err(f"unknown space {short(a)}", col)
                ib = index.get(_key(b))
                if ib is None:
                    raise err(f"unknown space {short(b)}", col + len(a) + 1)
                if ia == ib:
                    raise err(f"line {word} joins a space to itself", col)
                key = (min(ia, ib), max(ia, ib))
                if key in seen_lines:
                    raise err(f"line {word} is given twice (first on line {seen_lines[key]})",
                              col)
                seen_lines[key] = ln
                lines.append(key)
        elif kw == "finish":
            need(2, "a player count and the points")
            if len(args) != 2:
                raise err("finish: expected a player count and the points", args[0][1])
            key = count_key(*args[0])
            if key in finish:
                raise err(f"finish for {args[0][0]} is given twice", args[0][1])
            pts, pcol = args[1]
            if not _INT.match(pts) or int(pts) < 1:
                raise err(f"the finish line must be a positive number, not {short(pts)}", pcol)
            finish[key] = int(pts)
        elif kw == "seats":
            need(2, "a player count and a side per seat")
            key = count_key(*args[0])
            if key in seats:
                raise err(f"seats for {args[0][0]} are given twice", args[0][1])
            want = 4 if key == TEAM else key
            got = [side_of(w, c) for w, c in args[1:]]
            if len(got) != want:
                raise err(f"seats {args[0][0]}: expected {want} sides, got {len(got)}",
                          args[1][1])
            for i, s in enumerate(got):
                if s in got[:i]:
                    raise err(f"side {sides[s]} is seated twice", args[1 + i][1])
            seats[key] = tuple(got)
        else:
            raise err(f"unknown keyword {short(kw)} (board, side, space, line, finish, seats)",
                      kcol)

    def missing(msg: str) -> NotationError:
        return NotationError(msg, line=last + 1, col=1, path=path)

    if not spaces:
        raise missing("the board has no spaces")
    if CENTRE not in owner:
        raise missing("the board has no centre space (owner 'centre')")
    for key in (2, 3, 4):
        if key not in finish:
            raise missing(f"no finish line for {key} players (finish {key} N)")
        if key not in seats:
            raise missing(f"no seating for {key} players (seats {key} ...)")
    if (TEAM in finish) != (TEAM in seats):
        raise missing("2-vs-2 needs both 'finish team N' and 'seats team ...'")
    return Board(name or Path(path).stem, path, sides, side_names, spaces, owner, at, lines,
                 finish, seats)


def _key(name: str) -> str:
    """The index key of a space name: ASCII names, any case ("ſ".upper() is "S": a
    non-ASCII name matches nothing)."""
    return name.upper() if name.isascii() else name


def read_board(path: str | Path) -> Board:
    """Read and check the board file at ``path`` (bounded, strict UTF-8)."""
    return parse_board(read_text_file(path, what="a board file"), str(path))


@functools.cache
def load_board(name: str) -> Board:
    """The board ``<name>.board`` from :data:`BOARD_DIRS` (raises :class:`VariantError`
    when it is missing or broken, with the located reason)."""
    if not _NAME.match(name):
        raise VariantError(f"bad board name {short(name)}")
    for d in BOARD_DIRS:
        p = d / f"{name}.board"
        if p.is_file():
            try:
                return read_board(p)
            except NotationError as e:
                raise VariantError(f"board {name}: {e}") from None
    raise VariantError(f"no board {short(name)} (looked for {name}.board in "
                       f"{', '.join(str(d) for d in BOARD_DIRS)})")
