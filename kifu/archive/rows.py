"""From a located record to the row the archive stores (runs on workers: pure, picklable).

A record is validated on the fast replay path (exact legality), written canonically and
hashed; its row carries the indexed columns. A puzzle (a block with ``Position`` and
``Question`` headers and no actions) becomes a puzzle row. Anything wrong becomes the same
error report ``kifu validate`` gives, and nothing of that record is stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import msgspec

from kifu.core.errors import KifuError
from kifu.core.game import State
from kifu.notation.batch import error_report
from kifu.notation.puzzle import Puzzle, check_located_puzzle, format_puzzle, headers_of
from kifu.notation.puzzle import is_puzzle as puzzle_headers
from kifu.notation.reader import Located
from kifu.notation.record import (
    UNFINISHED,
    Record,
    format_record,
    identity_hash,
    split_players,
)
from kifu.notation.replay import FastReplayer

_json = msgspec.json.Encoder()


class RecordRow(msgspec.Struct, array_like=True, gc=False):
    """One record ready to store (positions: 64-bit keys of the positions after each ply,
    when the position index was asked for)."""

    hash: str
    game: str
    rules: str
    players: str
    names: list[str]
    date: str | None
    result: str
    winner: str | None
    plies: int
    tags: str
    comments: str | None
    text: str
    source: str
    positions: list[int] | None = None
    scores: list[int] | None = None
    """Each seat's number in the ``Result`` tag (None while unfinished)."""
    ranks: list[int] | None = None
    """Each seat's place, 1 = first (None while unfinished)."""
    turns: list[int | None] | None = None
    """Each seat's place in the turn order (:func:`turn_order`); None: not computed."""

    @property
    def winner_seats(self) -> str | None:
        """The seats ranked first, comma-separated (``0``, ``0,2``)."""
        if self.ranks is None:
            return None
        return ",".join(str(s) for s, r in enumerate(self.ranks) if r == 1)


class PuzzleRow(msgspec.Struct, array_like=True, gc=False):
    """One puzzle ready to store."""

    hash: str
    game: str
    rules: str
    position: str
    question: str
    answer: str | None
    solution: str | None
    difficulty: str | None
    source: str | None
    tags: str
    text: str


def turn_order(actors: Iterable[str], seats: int) -> list[int | None]:
    """Each seat's place in the order the players first act (1 = first); None for a seat
    that never acted. Dealer actions (``d``) do not count.

    >>> turn_order(["d", "d", "p1", "p2", "p0", "p1"], 4)
    [3, 1, 2, None]
    """
    order: list[int | None] = [None] * seats
    k = 0
    for actor in actors:
        if actor[0] == "p":
            s = int(actor[1:])
            if s < seats and order[s] is None:
                k += 1
                order[s] = k
                if k == seats:
                    break
    return order


def position_key(line: str) -> int:
    """A signed 64-bit key of a position line (what the position index stores)."""
    return int.from_bytes(hashlib.blake2b(line.encode("utf-8"), digest_size=8).digest(),
                          "big", signed=True)


def is_puzzle(record: Record) -> bool:
    """A puzzle block: puzzle headers and no actions (``kifu.notation.puzzle``)."""
    return not record.moves and puzzle_headers(record.headers)


def comments_of(record: Record) -> str | None:
    parts = [record.comment] if record.comment else []
    parts += [m.comment for m in record.moves if m.comment]
    return "\n".join(parts) if parts else None


def record_row(
    replayer: FastReplayer, loc: Located, index: int, *, positions: bool = False
) -> RecordRow | PuzzleRow | dict[str, Any]:
    """The row for record ``index`` of its file, or its error report (a dict)."""
    rec = loc.record
    try:
        if is_puzzle(rec):
            checked = check_located_puzzle(loc)  # the checks of kifu validate / solve
            return puzzle_row(puzzle_to_dict(checked.puzzle))
        keys: list[int] | None = None
        if positions:
            state, keys = _replay_with_positions(replayer, loc)
        else:
            state = replayer.play(loc)
        # read by load_records (already checked); the action lines as read when canonical
        text = format_record(rec, checked=True, moves_text=loc.moves_text)
    except KifuError as e:
        return error_report(loc.path, index, e)
    h = rec.headers
    players = h["Players"]  # the replay needed Game, Rules and Players
    names = split_players(players)
    result = state.result()
    date = h.get("Date")
    # positional: the fields in order (faster than keywords on the import's hot path)
    return RecordRow(
        identity_hash(rec, text),  # the canonical text without comments
        replayer.setup(loc)[0].id,
        h["Rules"],
        players,
        names,
        date if date and "?" not in date else None,
        h.get("Result", UNFINISHED).strip(),
        None if result is None else ", ".join(
            [n for n, r in zip(names, result.ranks, strict=False) if r == 1]),
        len(rec.moves),
        _json.encode(h).decode("utf-8"),
        # a canonical text has a brace only around a comment (action text has none)
        comments_of(rec) if "{" in text else None,
        text,
        f"{loc.path}:{loc.line}" if loc.line else loc.path,
        keys,
        None if result is None else list(result.scores),
        None if result is None else list(result.ranks),
        turn_order([m.actor for m in rec.moves], len(names)),
    )


def _replay_with_positions(replayer: FastReplayer, loc: Located) -> tuple[State, list[int]]:
    """Replay (exactly, on the fast path), then key the position after every ply by
    pushing the actions just checked onto a fresh state."""
    state = replayer.play(loc)  # validates first: an invalid record raises here
    game, setup = replayer.setup(loc)
    again = game.new_state(setup.players, setup.variant)
    keys = []
    for action in state.history:
        again.push(action)
        keys.append(position_key(again.to_line()))
    return state, keys


PackedRecord = tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...], "list[int] | None"]
"""A record row as the archive's writer binds it: the values of ``records`` in the order
of :data:`RECORD_VALUES`, one ``(name, seat, score, rank, won, turn)`` per seat (the columns of
``record_players`` but its ``record_id``, which the writer gives), and the position keys
(or None). Plain tuples: what a worker sends back pickles and unpickles at the cost of
its strings and numbers alone, and the writer does no work per column."""

RECORD_VALUES = ("hash", "game", "rules", "players", "nplayers", "date", "result", "winner",
                 "plies", "tags", "comments", "text", "source", "winner_seats")
"""The ``records`` columns a packed record holds, in order (``id`` is the writer's)."""

HASH, COMMENTS, TEXT = 0, 10, 11
"""Where a packed record's values hold its hash, comments and text."""


def pack(row: RecordRow) -> PackedRecord:
    """``row`` as the writer binds it (see :data:`PackedRecord`)."""
    names = row.names
    turns = row.turns or [None] * len(names)
    if row.ranks is None or row.scores is None:
        seats = tuple((name, seat, None, None, None, turns[seat])
                      for seat, name in enumerate(names))
    else:
        ranks, scores = row.ranks, row.scores
        seats = tuple((name, seat, scores[seat], ranks[seat], int(ranks[seat] == 1),
                       turns[seat]) for seat, name in enumerate(names))
    return ((row.hash, row.game, row.rules, row.players, len(names), row.date, row.result,
             row.winner, row.plies, row.tags, row.comments, row.text, row.source,
             row.winner_seats), seats, row.positions)


def _packed(row: RecordRow | PuzzleRow | dict[str, Any]) -> Any:
    return pack(row) if isinstance(row, RecordRow) else row


def records_import_fn(replayer: FastReplayer, loc: Located, index: int) -> Any:
    """``record_row`` without the position index, packed (module level: pickled to
    workers)."""
    return _packed(record_row(replayer, loc, index))


def records_import_fn_positions(replayer: FastReplayer, loc: Located, index: int) -> Any:
    """``record_row`` with the position index, packed."""
    return _packed(record_row(replayer, loc, index, positions=True))


# --- puzzles -----------------------------------------------------------------------------

PUZZLE_TAGS = ("Game", "Rules", "Position", "Question", "Answer", "Solution", "Difficulty",
               "Source")


def puzzle_to_dict(p: Puzzle) -> dict[str, str]:
    """A :class:`~kifu.notation.puzzle.Puzzle` -> the dict :func:`puzzle_row` takes (its
    headers and its canonical ``text``, ``format_puzzle``)."""
    d = headers_of(p)
    d["text"] = format_puzzle(p)
    return d


def puzzle_dict(record: Record) -> dict[str, str]:
    """A puzzle block read as a record -> the dict :func:`puzzle_row` takes (its headers, and
    its canonical ``text``)."""
    d = dict(record.headers)
    d["text"] = format_record(Record(_puzzle_order(record.headers), [], record.comment))
    return d


def _puzzle_order(h: dict[str, str]) -> dict[str, str]:
    out = {k: h[k] for k in PUZZLE_TAGS if k in h}
    out.update((k, v) for k, v in h.items() if k not in out)
    return out


def puzzle_row(p: dict[str, str] | Puzzle, *, source: str | None = None) -> PuzzleRow:
    """A puzzle given as a dict of its headers (``Game``, ``Rules``, ``Position``,
    ``Question``, ``Answer``, ``Solution``, ``Difficulty``, ``Source``, other tags) plus its
    canonical ``text`` (or a :class:`~kifu.notation.puzzle.Puzzle`) -> its row. Raises
    :class:`KifuError` when a required header is missing."""
    if isinstance(p, Puzzle):
        p = puzzle_to_dict(p)
    for tag in ("Game", "Position", "Question"):
        if not p.get(tag):
            raise KifuError(f"a puzzle needs a {tag} header")
    text = p.get("text") or format_record(
        Record(_puzzle_order({k: v for k, v in p.items() if k != "text"}), [])
    )
    tags = {k: v for k, v in p.items() if k != "text"}
    return PuzzleRow(
        hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        game=p["Game"],
        rules=p.get("Rules") or p["Position"].split(" ", 1)[0],
        position=p["Position"],
        question=p["Question"],
        answer=p.get("Answer"),
        solution=p.get("Solution"),
        difficulty=p.get("Difficulty"),
        source=p.get("Source") or source,
        tags=_json.encode(tags).decode("utf-8"),
        text=text,
    )


# --- migration 3 ---------------------------------------------------------------------------

def backfill_v3(db: Any, batch: int = 2000) -> None:
    """Fill the columns migration 3 adds for the records already stored (each finished
    record is replayed once for its scores and ranks, which go to the temporary table
    ``seat_results`` the migration then joins into ``record_players``), and rehash the records with
    comments by their identity (the canonical text without comments; a record without
    comment keeps its hash, which was already that). Runs inside the migration's
    transaction. Two stored records that differ only in their comments keep their rows:
    the later one keeps its old hash (so the unique index holds), and ``kifu archive
    import`` will count any further copy of that game as a duplicate of the first."""
    from kifu.notation.reader import parse_record

    replayer = FastReplayer()
    conn = db.conn
    last = 0
    while True:
        rows = conn.execute(
            "SELECT id, text, result, comments IS NOT NULL FROM records WHERE id > ? "
            "ORDER BY id LIMIT ?", [last, batch]).fetchall()
        if not rows:
            return
        last = rows[-1][0]
        seats, winners, hashes = [], [], []
        for rid, text, result_tag, has_comments in rows:
            rec = parse_record(text)
            if has_comments:
                hashes.append((identity_hash(rec, text), rid))
            if result_tag == UNFINISHED:
                continue
            result = replayer.play(rec).result()
            if result is None:
                continue
            seats += [(score, rank, int(rank == 1), rid, seat) for seat, (score, rank)
                      in enumerate(zip(result.scores, result.ranks, strict=True))]
            winners.append((",".join(str(s) for s, r in enumerate(result.ranks) if r == 1),
                            rid))
        conn.executemany("INSERT INTO temp.seat_results (score, rank, won, record_id, seat) "
                         "VALUES (?, ?, ?, ?, ?)", seats)
        conn.executemany("UPDATE records SET winner_seats = ? WHERE id = ?", winners)
        taken = {h for (h,) in conn.execute(
            f"SELECT hash FROM records WHERE hash IN ({','.join('?' * len(hashes))})",
            [h for h, _ in hashes])} if hashes else set()
        for h, rid in hashes:
            if h not in taken:  # else another row holds this game: keep the old hash
                conn.execute("UPDATE records SET hash = ? WHERE id = ?", [h, rid])
                taken.add(h)


# --- migration 4 ---------------------------------------------------------------------------

def backfill_turns(db: Any, batch: int = 2000) -> None:
    """Fill ``record_players.turn`` for the records already stored (each text parsed once,
    no replay); runs inside the migration's transaction. Each update finds its row by the
    primary key (name, record, seat)."""
    from kifu.notation.reader import parse_record

    conn = db.conn
    last = 0
    while True:
        rows = conn.execute("SELECT id, players, text FROM records WHERE id > ? ORDER BY id "
                            "LIMIT ?", [last, batch]).fetchall()
        if not rows:
            return
        last = rows[-1][0]
        updates = []
        for rid, players, text in rows:
            names = split_players(players)
            turns = turn_order([m.actor for m in parse_record(text).moves], len(names))
            updates += [(t, name, rid, seat) for seat, (name, t)
                        in enumerate(zip(names, turns, strict=True)) if t is not None]
        conn.executemany("UPDATE record_players SET turn = ? WHERE name = ? AND record_id = ? "
                         "AND seat = ?", updates)
