"""The archive's schema, as numbered migrations, and opening a database file.

The schema is plain SQLite that Datasette and the ``sqlite3`` shell read as is:

``records``
    one row per distinct record: ``id`` (import order), ``hash`` (SHA-256 of the canonical
    text, unique), ``game``, ``rules``, ``players`` (the ``Players`` tag), ``nplayers``,
    ``date`` (``YYYY.MM.DD``, NULL when unknown), ``result`` (the ``Result`` tag), ``winner``
    (the names ranked first, NULL while unfinished), ``plies``, ``tags`` (every header as
    a JSON object), ``comments`` (every comment, one a line, NULL if none), ``text`` (the
    canonical record), ``source`` (``file:line`` of its first import) and ``winner_seats``
    (migration 3: the seats ranked first, ``0`` or ``0,2``; NULL while unfinished). ``hash``
    is the SHA-256 of the record's identity: its canonical text without the comments.
``record_players``
    ``name``, ``record_id``, ``seat``: one row per seat, a ``WITHOUT ROWID`` table whose
    primary key starts with the name (migration 2), so a query by player is one range of
    one b-tree and an import writes one b-tree per seat, not three; ``score``, ``rank``,
    ``won`` (migration 3): the seat's number in the ``Result`` tag, its place (1 = first)
    and 1 when it placed first (shared or not), NULL while the game is unfinished.
    ``turn`` (migration 4): the seat's place in the order the players first act, 1 =
    first; NULL for a seat that never acted.
``positions``
    the opt-in position index (``import --positions``): ``pos`` (a 64-bit hash of the
    position line), ``record_id``, ``ply``; a record appears once per ply reached.
``puzzles``
    ``id``, ``hash`` (unique), ``game``, ``rules``, ``position``, ``question``, ``answer``,
    ``solution``, ``difficulty``, ``source``, ``tags`` (JSON), ``text`` (canonical).
``players`` (a view, migration 4)
    one row per player name: ``games`` (seats taken), ``finished``, ``won``,
    ``win_percent``, ``mean_place``, ``records``, ``first_record``, ``last_record``.
``records_fts``
    FTS5 over ``records.comments`` (sqlite-utils ``enable_fts``).
``_kifu_meta`` / ``_kifu_migrations``
    the schema version, and which migration ran when.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from kifu.core.errors import KifuError

if TYPE_CHECKING:
    import sqlite_utils

DEFAULT_DB = "kifu.db"
ENV_DB = "KIFU_DB"
BUSY_MS = 60_000
WRITE_CACHE_KIB = 16 << 10
"""The page cache of a connection that writes (KiB)."""


class ArchiveError(KifuError):
    """The archive file cannot be used (a newer schema, not a kifu archive, locked)."""


class ReadOnlyDatabase:
    """A read-only archive's connection with the part of ``sqlite_utils.Database`` that
    reading uses (``execute``, ``query``, ``table_names``, ``conn``, ``close``), the same
    behaviour, without importing sqlite-utils: with numpy, dateutil, pluggy and its
    search for plugins among the installed packages, that was more than half of every
    ``archive query``/``stats``/``export``/``puzzles`` (callgrind, a small archive:
    ``archive query`` 935 M instructions before, 443 M after; ``python -c pass`` 89 M).
    Whatever writes (import, migrations, stored puzzles) opens a ``sqlite_utils.Database``."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, parameters: Any = None) -> sqlite3.Cursor:
        if parameters is None:
            return self.conn.execute(sql)
        return self.conn.execute(sql, parameters)

    def query(self, sql: str, params: Any = None) -> Iterator[dict[str, Any]]:
        """Each row of ``sql`` as a dict by column name."""
        cursor = self.execute(sql, params or ())
        keys = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(keys, row, strict=True))

    def table_names(self) -> list[str]:
        return [r[0] for r in self.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]

    def close(self) -> None:
        self.conn.close()


def _v1(db: sqlite_utils.Database) -> None:
    db["records"].create(
        {
            "id": int, "hash": str, "game": str, "rules": str, "players": str,
            "nplayers": int, "date": str, "result": str, "winner": str, "plies": int,
            "tags": str, "comments": str, "text": str, "source": str,
        },
        pk="id", not_null={"hash", "game", "rules", "players", "nplayers", "plies", "text"},
    )
    db["records"].create_index(["hash"], unique=True)
    for cols in (["game", "rules"], ["result"], ["date"], ["plies"], ["winner"]):
        db["records"].create_index(cols)
    db["record_players"].create(
        {"record_id": int, "seat": int, "name": str},
        pk=("record_id", "seat"), foreign_keys=[("record_id", "records", "id")],
    )
    db["record_players"].create_index(["name"])
    db.execute(
        "CREATE TABLE positions (pos INTEGER NOT NULL, record_id INTEGER NOT NULL "
        "REFERENCES records(id), ply INTEGER NOT NULL, PRIMARY KEY (pos, record_id, ply)) "
        "WITHOUT ROWID"
    )
    db["puzzles"].create(
        {
            "id": int, "hash": str, "game": str, "rules": str, "position": str,
            "question": str, "answer": str, "solution": str, "difficulty": str,
            "source": str, "tags": str, "text": str,
        },
        pk="id", not_null={"hash", "game", "position", "question", "text"},
    )
    db["puzzles"].create_index(["hash"], unique=True)
    db["puzzles"].create_index(["game", "question"])
    db["records"].enable_fts(["comments"], fts_version="FTS5")


def _v2(db: sqlite_utils.Database) -> None:
    # record_players was a rowid table with a primary-key index on (record_id, seat) and an
    # index on name: three b-trees written per seat, half of an import's SQLite time. One
    # b-tree keyed (name, record_id, seat) serves the query by player on its own.
    db.execute(
        "CREATE TABLE record_players_v2 (name TEXT NOT NULL, record_id INTEGER NOT NULL "
        "REFERENCES records(id), seat INTEGER NOT NULL, PRIMARY KEY (name, record_id, seat)) "
        "WITHOUT ROWID"
    )
    db.execute("INSERT INTO record_players_v2 (name, record_id, seat) "
               "SELECT name, record_id, seat FROM record_players")
    db.execute("DROP TABLE record_players")
    db.execute("ALTER TABLE record_players_v2 RENAME TO record_players")


def _v3(db: sqlite_utils.Database) -> None:
    # Per-seat results, so that "which seat won" and "how did Ann score" need no string
    # surgery on Result and winner: record_players gets each seat's score (the number the
    # Result tag gives it), rank (1 = first, shared places share a rank) and won (1 when
    # ranked first, shared first included), NULL while the game is unfinished; records gets
    # winner_seats ("0", or "0,2" for a shared first place). The identity of a record
    # becomes its canonical text without comments (kifu.notation.record.identity_text).
    db.execute("ALTER TABLE records ADD COLUMN winner_seats TEXT")
    db.execute("CREATE TEMP TABLE seat_results (record_id INTEGER, seat INTEGER, score "
               "INTEGER, rank INTEGER, won INTEGER, PRIMARY KEY (record_id, seat)) "
               "WITHOUT ROWID")
    from kifu.archive.rows import backfill_v3

    backfill_v3(db)  # fills seat_results and records.winner_seats, rehashes
    # record_players rebuilt once with its new columns (one pass joined on the temporary
    # table's key: an UPDATE per seat could not use the name-first primary key)
    db.execute(
        "CREATE TABLE record_players_v3 (name TEXT NOT NULL, record_id INTEGER NOT NULL "
        "REFERENCES records(id), seat INTEGER NOT NULL, score INTEGER, rank INTEGER, "
        "won INTEGER, PRIMARY KEY (name, record_id, seat)) WITHOUT ROWID"
    )
    db.execute("INSERT INTO record_players_v3 SELECT p.name, p.record_id, p.seat, t.score, "
               "t.rank, t.won FROM record_players p LEFT JOIN temp.seat_results t "
               "ON t.record_id = p.record_id AND t.seat = p.seat")
    db.execute("DROP TABLE record_players")
    db.execute("ALTER TABLE record_players_v3 RENAME TO record_players")
    db.execute("DROP TABLE temp.seat_results")


PLAYERS_VIEW = (
    "CREATE VIEW players AS SELECT name, count(*) AS games, count(won) AS finished, "
    "sum(won) AS won, round(100.0 * sum(won) / count(won), 1) AS win_percent, "
    "round(avg(rank), 2) AS mean_place, count(DISTINCT record_id) AS records, "
    "min(record_id) AS first_record, max(record_id) AS last_record "
    "FROM record_players GROUP BY name"
)
"""One row per player name: seats taken, finished games, wins (a shared first place
counts), the win rate in percent and the mean place; one pass over ``record_players`` in
its key order (the name comes first)."""


def _v4(db: sqlite_utils.Database) -> None:
    # Per-seat results by turn order and a players table (issue 39): record_players gets
    # each seat's place in the order the players first act (1 = first; NULL for a seat
    # that never acted), filled from the stored texts; the players view is a view, so it
    # is never out of date and costs an import nothing.
    db.execute("ALTER TABLE record_players ADD COLUMN turn INTEGER")
    from kifu.archive.rows import backfill_turns

    backfill_turns(db)
    db.execute(PLAYERS_VIEW)


MIGRATIONS: list[tuple[int, str, Callable[[sqlite_utils.Database], None]]] = [
    (1, "records, players, positions, puzzles, comment search", _v1),
    (2, "record_players keyed by name, without rowid", _v2),
    (3, "per-seat score, rank and won; winner_seats; identity without comments", _v3),
    (4, "record_players.turn; the players view", _v4),
]
"""Every schema change, in order. Add one with the next number; never edit a released one."""

SCHEMA_VERSION = MIGRATIONS[-1][0]


def db_path(path: str | None) -> str:
    """``--db PATH``, else ``$KIFU_DB``, else ``./kifu.db``."""
    return path or os.environ.get(ENV_DB) or DEFAULT_DB


def _locked(e: BaseException) -> bool:
    return isinstance(e, sqlite3.OperationalError) and (
        "locked" in str(e) or "busy" in str(e))


def _patiently(path: str, step: Callable[[], object]) -> object:
    """Run one opening step, again and again while another process holds a lock.

    SQLite's busy timeout does not cover every lock met while a database is opened: a
    second process that reads the journal mode of a file another process is switching to
    WAL gets "database is locked" at once (seen in CI when two imports start together).
    Such a step is retried until ``BUSY_MS``; a lock that outlasts it is reported as a
    lock, never as "not a kifu archive"."""
    deadline = time.monotonic() + BUSY_MS / 1000
    pause = 0.005
    while True:
        try:
            return step()
        except sqlite3.DatabaseError as e:
            if not _locked(e):
                raise ArchiveError(f"{path}: not a kifu archive ({e})") from None
            if time.monotonic() >= deadline:
                raise ArchiveError(
                    f"{path}: the archive stayed locked by another process for "
                    f"{BUSY_MS // 1000} s; try again when it is done") from None
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def connect(path: str, *, readonly: bool = False) -> sqlite_utils.Database | ReadOnlyDatabase:
    """Open (and for writing, create or migrate) the archive at ``path``.

    Raises :class:`ArchiveError` for an archive written by a newer kifu, a file that is
    not a kifu archive, a folder, a device, a file that cannot be opened."""
    if path == "-":
        raise ArchiveError("--db -: an archive is a file, not standard input or output")
    if os.path.isdir(path):
        raise ArchiveError(f"{path}: is a directory, not an archive file")
    if os.path.exists(path) and not os.path.isfile(path):
        raise ArchiveError(f"{path}: not a regular file (a device or a FIFO cannot hold an "
                           "archive)")
    if readonly:
        if not os.path.exists(path):
            raise ArchiveError(f"{path}: no such archive (create one with kifu archive import)")
        conn = _open(path, f"file:{quote(os.fsencode(os.path.abspath(path)))}?mode=ro",
                     uri=True)
        db = ReadOnlyDatabase(conn)
        db.execute("PRAGMA query_only = 1")
        _patiently(path, lambda: _check_version(db, path, readonly=True))
        return db
    import sqlite_utils

    conn = _open(path, path)
    db = sqlite_utils.Database(conn)
    db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    # WAL: a reader never blocks an import, and an import never blocks readers.
    _patiently(path, db.enable_wal)
    db.execute("PRAGMA synchronous = NORMAL")
    # A statement of many rows keeps a statement journal (to undo just that statement);
    # in a temporary file that was 4 writes of 5 an import made. It is a few pages: memory.
    db.execute("PRAGMA temp_store = MEMORY")
    # Every batch an import writes touches most pages of the hash index (new hashes land
    # anywhere in it); in SQLite's default 2 MB page cache they were spilled to the WAL
    # mid-transaction and read back: 16 MB cut an import's reads and writes of pages
    # (20,000 TWEAK records: 13,500 reads and 28,800 writes -> 6,400 and 22,100). The
    # cache grows only as pages are used.
    db.execute(f"PRAGMA cache_size = -{WRITE_CACHE_KIB}")
    _patiently(path, lambda: migrate(db, path))
    return db


def _open(path: str, target: str, *, uri: bool = False) -> sqlite3.Connection:
    try:
        return sqlite3.connect(target, uri=uri, timeout=BUSY_MS / 1000)
    except (sqlite3.Error, ValueError) as e:
        raise ArchiveError(f"{path}: cannot open the archive ({e})") from None


def _version(db: sqlite_utils.Database | ReadOnlyDatabase) -> int:
    if "_kifu_meta" not in db.table_names():
        return 0
    row = db.execute("SELECT value FROM _kifu_meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def _check_version(db: sqlite_utils.Database | ReadOnlyDatabase, path: str, *,
                   readonly: bool) -> int:
    try:
        version = _version(db)
    except sqlite3.DatabaseError as e:
        if _locked(e):
            raise  # connect() waits and tries again
        raise ArchiveError(f"{path}: not a kifu archive ({e})") from None
    if version > SCHEMA_VERSION:
        raise ArchiveError(
            f"{path}: archive schema version {version} is newer than this kifu understands "
            f"(up to {SCHEMA_VERSION}); upgrade kifu to use it"
        )
    if readonly and version == 0:
        raise ArchiveError(f"{path}: not a kifu archive (no _kifu_meta table)")
    return version


def migrate(db: sqlite_utils.Database, path: str = "<archive>", *,
            upto: int = SCHEMA_VERSION) -> int:
    """Run every migration newer than the archive's version (up to ``upto``: tests build
    old archives with it), each in its own transaction (``BEGIN IMMEDIATE``, so two
    processes opening a new archive at once do not both run it). Returns the schema
    version."""
    version = _check_version(db, path, readonly=False)
    if version == 0 and db.table_names() and "_kifu_meta" not in db.table_names():
        raise ArchiveError(f"{path}: not a kifu archive (it has other tables)")
    for number, name, step in MIGRATIONS:
        if number <= version or number > upto:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            if _version(db) >= number:  # another process got there first
                db.execute("COMMIT")
                continue
            if number == 1:
                db.execute("CREATE TABLE _kifu_meta (key TEXT PRIMARY KEY, value TEXT)")
                db.execute(
                    "CREATE TABLE _kifu_migrations (version INTEGER PRIMARY KEY, name TEXT, "
                    "applied_at TEXT)"
                )
            step(db)
            db.execute(
                "INSERT OR REPLACE INTO _kifu_meta (key, value) VALUES ('schema_version', ?)",
                [str(number)],
            )
            db.execute(
                "INSERT INTO _kifu_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                [number, name, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())],
            )
            db.execute("COMMIT")
        except BaseException:
            db.conn.rollback()
            raise
        version = number
    return version
