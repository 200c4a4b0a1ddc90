"""The archive: import (validated, deduplicated, whole records only), query, export, stats.

Every batch of rows is written in one ``BEGIN IMMEDIATE`` transaction (a record's row, its
players, its positions and its comment index entry go in together), so a crash loses at
most the batch in flight and never leaves half a record; the content hash makes the next
import skip what is already there. The client is the only writer: workers only validate
and build rows (``kifu.archive.rows``).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import itertools
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import msgspec

from kifu import games
from kifu.archive.rows import (
    COMMENTS,
    HASH,
    RECORD_VALUES,
    TEXT,
    PackedRecord,
    PuzzleRow,
    RecordRow,
    pack,
    position_key,
    puzzle_row,
    records_import_fn,
    records_import_fn_positions,
)
from kifu.archive.schema import ArchiveError, connect, db_path
from kifu.archive.sql import DEFAULT_TIMEOUT, SqlRun
from kifu.core.errors import KifuError, NotationError, VariantError
from kifu.notation.batch import CHUNK_RECORDS, Stop, iter_file, shared_pool
from kifu.notation.files import RECORD_SUFFIXES, expand_paths
from kifu.notation.puzzle import Puzzle
from kifu.notation.record import HEADER_NAME, nfc

if TYPE_CHECKING:
    import sqlite_utils

    from kifu.archive.schema import ReadOnlyDatabase

BATCH_ROWS = 2000
"""Records per write transaction."""

SUFFIXES = RECORD_SUFFIXES
"""Files taken from a folder (files named on the command line are always read)."""

RECORD_COLUMNS = ("id", *RECORD_VALUES)


class ImportStats(msgspec.Struct):
    """What an import did."""

    read: int = 0
    imported: int = 0
    duplicates: int = 0
    invalid: int = 0
    puzzles: int = 0
    puzzle_duplicates: int = 0


class Filters(msgspec.Struct, kw_only=True):
    """What ``query`` and ``export`` select (every given filter must hold)."""

    game: str | None = None
    rules: str | None = None
    player: str | None = None
    result: str | None = None
    winner: str | None = None
    winner_seat: int | None = None
    """Records where this seat placed first (alone or shared)."""
    won: bool = False
    """With ``player``: only the records that player won (placed first, shared or not)."""
    tags: list[tuple[str, str]] = msgspec.field(default_factory=list)
    min_plies: int | None = None
    max_plies: int | None = None
    date_from: str | None = None
    date_to: str | None = None
    position: str | None = None
    text: str | None = None
    limit: int | None = None


class Archive:
    """A kifu archive file (``Archive(path)`` creates or migrates it; ``readonly=True``
    opens it for reading only)."""

    def __init__(self, path: str | None = None, *, readonly: bool = False):
        self.path = db_path(path)
        # sqlite-utils' Database when writing; reading needs no more than ReadOnlyDatabase
        self.db: sqlite_utils.Database | ReadOnlyDatabase = connect(self.path,
                                                                   readonly=readonly)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- import -------------------------------------------------------------------------
    def import_paths(
        self,
        paths: Iterable[str],
        *,
        workers: int = 1,
        positions: bool = False,
        batch_rows: int = BATCH_ROWS,
        on_error: Callable[[dict[str, Any]], None] | None = None,
        on_record: Callable[[int], None] | None = None,
        dask: str | None = None,
        chunk_records: int = CHUNK_RECORDS,
    ) -> ImportStats:
        """Import every record and puzzle of ``paths`` (files or folders). Invalid records
        (and unreadable rest of files) go to ``on_error`` as validate's reports and are
        skipped; ``on_record(nbytes)`` is called per record read (for a progress bar).
        ``workers``/``dask`` only build rows (in chunks of ``chunk_records``); this process
        alone writes."""
        with shared_pool(workers, dask) as pool:
            return self._import(paths, workers, pool, chunk_records, positions, batch_rows,
                                on_error, on_record)

    def _import(self, paths, workers, pool, chunk_records, positions, batch_rows,
                on_error, on_record) -> ImportStats:
        fn = records_import_fn_positions if positions else records_import_fn
        stats = ImportStats()
        batch: list[PackedRecord | PuzzleRow] = []
        warm = isinstance(pool, cf.ProcessPoolExecutor)
        for path in expand_paths(paths):
            if warm:  # before the first chunk is sent, that is before the workers fork
                _load_engine_of(path)
                warm = False
            # keep_text: a record's action lines, when canonical as read, are not written
            # again (``Located.moves_text``)
            for item in iter_file(path, fn, workers=workers, pool=pool,
                                  chunk_records=chunk_records, keep_text=True):
                if isinstance(item, int):
                    break
                if isinstance(item, Stop):
                    stats.invalid += 1
                    if on_error:
                        on_error(item.report)
                    break
                _index, row = item
                stats.read += 1
                if isinstance(row, dict):
                    stats.invalid += 1
                    if on_error:
                        on_error(row)
                    if on_record:
                        on_record(0)
                    continue
                batch.append(row)
                if on_record:
                    on_record(len(row[0][TEXT] if isinstance(row, tuple) else row.text) + 1)
                if len(batch) >= batch_rows:
                    self._write(batch, stats)
                    batch = []
        if batch:
            self._write(batch, stats)
        return stats

    def add_rows(self, rows: Iterable[RecordRow | PuzzleRow],
                 batch_rows: int = BATCH_ROWS) -> ImportStats:
        """Store rows built by ``kifu.archive.rows`` (batched transactions)."""
        stats = ImportStats()
        batch: list[PackedRecord | PuzzleRow] = []
        for row in rows:
            batch.append(pack(row) if isinstance(row, RecordRow) else row)
            if len(batch) >= batch_rows:
                self._write(batch, stats)
                batch = []
        if batch:
            self._write(batch, stats)
        return stats

    def _write(self, batch: list[PackedRecord | PuzzleRow], stats: ImportStats) -> None:
        records = [r for r in batch if isinstance(r, tuple)]
        puzzles = [r for r in batch if isinstance(r, PuzzleRow)]
        db = self.db
        paused = gc.isenabled()
        try:
            if paused:  # the many tuples made here form no cycle: no collection is needed
                gc.disable()
            self._write_batch(db, records, puzzles, stats)
        finally:
            if paused:
                gc.enable()

    def _write_batch(self, db: sqlite_utils.Database, records: list[PackedRecord],
                     puzzles: list[PuzzleRow], stats: ImportStats) -> None:
        try:
            db.execute("BEGIN IMMEDIATE")  # one writer at a time; waits for the other's batch
        except sqlite3.Error as e:
            raise self._write_error(e, records, puzzles, stats) from None
        try:
            new = self._insert_records(records) if records else 0
            new_p = _fresh(db, "puzzles", puzzles) if puzzles else []
            self._insert_puzzles(new_p)
            db.execute("COMMIT")
            # counted once stored: a batch whose COMMIT fails (a full disk) is not
            stats.duplicates += len(records) - new
            stats.imported += new
            stats.puzzle_duplicates += len(puzzles) - len(new_p)
            stats.puzzles += len(new_p)
        except BaseException as e:
            with contextlib.suppress(sqlite3.Error):
                db.conn.rollback()
            if isinstance(e, sqlite3.Error):
                raise self._write_error(e, records, puzzles, stats) from None
            raise

    def _write_error(self, e: sqlite3.Error, records: list[PackedRecord],
                     puzzles: list[PuzzleRow], stats: ImportStats) -> ArchiveError:
        """A batch that could not be written (a full disk, an I/O error): one line naming
        the archive; the batch was rolled back, the batches before it are stored."""
        return ArchiveError(
            f"{self.path}: cannot write: {_one_line(e)}; this batch of {len(records)} "
            f"record(s) and {len(puzzles)} puzzle(s) was not stored, the "
            f"{stats.imported} record(s) and {stats.puzzles} puzzle(s) before it are")

    def _insert_records(self, rows: list[PackedRecord]) -> int:
        """Insert the rows whose identity is not stored yet (nor earlier in ``rows``), with
        their seats, positions and comments; returns how many were new. Runs inside
        ``_write``'s transaction. The rows come packed (:data:`kifu.archive.rows.
        PackedRecord`): every value in column order, so nothing is computed here."""
        if not rows:
            return 0
        conn = self.db.conn
        first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM records").fetchone()[0]
        # The hot path: a fixed column list, many rows a statement (sqlite-utils insert_all
        # re-derives the columns and JSON-checks every value, ~8% of an import; one
        # statement a row costs SQLite a run of its program each). The unique hash index
        # skips a duplicate (ON CONFLICT: the lookup it does anyway, instead of a separate
        # query first; any other broken constraint still raises); the new rows take ids
        # first, first + 1, ... in order, so when the largest id is first + len(rows) - 1
        # every row was new, and otherwise reading the new ids back says which rows they are.
        _insert_values(conn, _RECORDS_HEAD, [r[0] for r in rows],
                       " ON CONFLICT (hash) DO NOTHING")
        last = conn.execute("SELECT max(id) FROM records").fetchone()[0]
        new: Iterable[tuple[int, PackedRecord]]
        if last == first + len(rows) - 1:
            new = zip(range(first, first + len(rows)), rows, strict=True)
        elif last is None or last < first:
            return 0
        else:
            ids = dict(conn.execute("SELECT hash, id FROM records WHERE id >= ?", [first]))
            new = [(rid, r) for r in rows if (rid := ids.pop(r[0][HASH], None)) is not None]
        new = list(new)
        _insert_values(
            conn, "INSERT INTO record_players (record_id, name, seat, score, rank, won, turn)",
            [(rid, *seat) for rid, r in new for seat in r[1]],
        )
        if any(r[2] for _, r in new):
            _insert_values(
                conn, "INSERT INTO positions (pos, record_id, ply)",
                [(pos, rid, ply) for rid, r in new for ply, pos in enumerate(r[2] or (), 1)],
                " ON CONFLICT DO NOTHING",
            )
        with_comments = [(rid, r[0][COMMENTS]) for rid, r in new if r[0][COMMENTS]]
        if with_comments:
            conn.executemany(
                "INSERT INTO records_fts (rowid, comments) VALUES (?, ?)", with_comments
            )
        return len(new)

    def _insert_puzzles(self, rows: list[PuzzleRow]) -> None:
        if not rows:
            return
        first = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM puzzles").fetchone()[0]
        self.db["puzzles"].insert_all(
            ({"id": first + k, **msgspec.structs.asdict(r)} for k, r in enumerate(rows)),
            batch_size=500,
        )

    # --- puzzles --------------------------------------------------------------------------
    def add_puzzles(self, puzzles: Iterable[dict[str, str] | Puzzle]) -> ImportStats:
        """Store puzzles: ``kifu.notation.puzzle.Puzzle`` structs, or dicts of their headers
        (``Game``, ``Rules``, ``Position``, ``Question``, ``Answer``, ``Solution``,
        ``Difficulty``, ``Source``, other tags) plus their canonical ``text``. The same
        puzzle twice is stored once."""
        return self.add_rows(puzzle_row(p) for p in puzzles)

    def iter_puzzles(
        self, *, game: str | None = None, question: str | None = None,
        limit: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Stored puzzles (in the order added) as dicts of their columns."""
        where, params = ["1 = 1"], []
        for name, value in (("--game", game), ("--question", question)):
            if value:
                utf8_text(name, value)
        if game:
            where.append("game = ?")
            params.append(_game_id(game))
        if question:
            where.append("(question = ? OR question LIKE ?)")
            params += [question, question + " %"]
        sql = f"SELECT * FROM puzzles WHERE {' AND '.join(where)} ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(sql_int("--limit", limit, 0))
        try:
            yield from self.db.query(sql, params)
        except sqlite3.Error as e:
            raise ArchiveError(f"{self.path}: {_one_line(e)}") from None

    # --- reading ----------------------------------------------------------------------------
    def query(self, filters: Filters | None = None,
              columns: Iterable[str] = RECORD_COLUMNS) -> Iterator[dict[str, Any]]:
        """The records that pass ``filters``, in import order, as dicts of ``columns``."""
        cols = [c for c in columns if c in RECORD_COLUMNS]
        filters = filters or Filters()
        sql, params = _select(filters, ", ".join(f"r.{c}" for c in cols))
        if filters.text:
            self._check_text_query(filters.text)
        try:
            yield from self.db.query(sql, params)
        except sqlite3.Error as e:
            raise ArchiveError(f"{self.path}: {_one_line(e)}") from None

    def _check_text_query(self, text: str) -> None:
        """Refuse a ``--text`` that is not an FTS5 query, naming the option, not SQLite."""
        try:
            self.db.execute("SELECT count(*) FROM (SELECT rowid FROM records_fts WHERE "
                            "records_fts MATCH ? LIMIT 1)", [text]).fetchone()
        except sqlite3.Error as e:
            raise ArchiveError(f"--text {_clip(text)}: not a full-text query ({_one_line(e)}); "
                               'quote words with "..." to search for them as they are'
                               ) from None

    def export(self, filters: Filters | None = None) -> Iterator[str]:
        """The canonical text of each selected record, in import order (joined with ``\\n``
        they are byte for byte the canonical file of those records)."""
        for row in self.query(filters, columns=("text",)):
            yield row["text"]

    def sql(self, query: str, params: Iterable[Any] = (), *,
            timeout: float | None = DEFAULT_TIMEOUT, max_rows: int | None = None,
            run: SqlRun | None = None) -> tuple[list[str], Iterator[tuple]]:
        """Run one read-only SQL statement, bounded in time (``timeout`` seconds of SQLite
        work, ``None`` or 0 for none), value size and memory (:mod:`kifu.archive.sql`);
        at most ``max_rows`` rows. Raises :class:`~kifu.archive.sql.SqlError` (one line).
        ``run``: a :class:`~kifu.archive.sql.SqlRun` made by the caller (to cancel it)."""
        run = run or self.sql_run(query, params, timeout=timeout, max_rows=max_rows)
        return run.start()

    def sql_run(self, query: str, params: Iterable[Any] = (), *,
                timeout: float | None = DEFAULT_TIMEOUT,
                max_rows: int | None = None) -> SqlRun:
        """A bounded query on this archive, not started yet (see :meth:`sql`)."""
        return SqlRun(self.db.conn, query, params, timeout=timeout, max_rows=max_rows)

    def seat_win_rates(self) -> list[dict[str, Any]]:
        """Per game, player count and seat: the finished games, how many that seat won
        (placed first, alone or shared) and the rate with its 95% Wilson interval."""
        out = []
        for game, n, seat, finished, won in self.db.execute(
                "SELECT r.game, r.nplayers, p.seat, count(*), sum(p.won) FROM record_players p "
                "JOIN records r ON r.id = p.record_id WHERE p.won IS NOT NULL "
                "GROUP BY r.game, r.nplayers, p.seat ORDER BY r.game, r.nplayers, p.seat"):
            low, high = wilson_interval(won, finished)
            out.append({"game": game, "players": n, "seat": seat, "finished": finished,
                        "won": won, "rate": round(won / finished, 4), "low": round(low, 4),
                        "high": round(high, 4)})
        return out

    def stats(self) -> dict[str, Any]:
        """Counts per game: records, finished, average plies, players; seat win rates;
        puzzles per game."""
        per_game = [
            {"game": g, "records": n, "finished": f, "avg_plies": round(a or 0, 1),
             "min_players": lo, "max_players": hi}
            for g, n, f, a, lo, hi in self.db.execute(
                "SELECT game, count(*), sum(result != '*'), avg(plies), min(nplayers), "
                "max(nplayers) FROM records GROUP BY game ORDER BY game"
            )
        ]
        puzzles = dict(self.db.execute(
            "SELECT game, count(*) FROM puzzles GROUP BY game ORDER BY game").fetchall())
        return {
            "records": sum(g["records"] for g in per_game),
            "games": per_game,
            "seats": self.seat_win_rates(),
            "puzzles": puzzles,
            "positions_indexed": self.db.execute("SELECT count(*) FROM positions").fetchone()[0],
            "schema_version": int(self.db.execute(
                "SELECT value FROM _kifu_meta WHERE key = 'schema_version'").fetchone()[0]),
        }


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """Wilson's 95% score interval of ``successes / trials``, from
    :func:`kifu.lab.stats.proportion_ci` (closed form, checked against scipy's
    ``binomtest`` in the tests); (0, 1) with no trial.

    >>> [round(x, 4) for x in wilson_interval(7, 10)]
    [0.3968, 0.8922]
    """
    if trials <= 0:
        return 0.0, 1.0
    from kifu.lab.stats import proportion_ci  # loaded only for the stats

    iv = proportion_ci(successes, trials)
    return iv.low, iv.high


_RECORDS_HEAD = f"INSERT INTO records ({', '.join(RECORD_VALUES)})"


_PER_STATEMENT = 64
"""Rows a statement: full statements share one prepared statement (the remainder of a batch
is parsed again each time, so it stays short)."""


def _insert_values(conn: sqlite3.Connection, head: str, rows: list[tuple[Any, ...]],
                   tail: str = "") -> None:
    """``head VALUES (...), (...), ... tail`` for ``rows`` (tuples of one length), as few
    statements as the connection's limit on parameters allows."""
    if not rows:
        return
    width = len(rows[0])
    per = max(1, min(_PER_STATEMENT, conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // width))
    one = "(" + ", ".join("?" * width) + ")"
    for k in range(0, len(rows), per):
        part = rows[k : k + per]
        conn.execute(f"{head} VALUES {', '.join([one] * len(part))}{tail}",
                     list(itertools.chain.from_iterable(part)))


_GAME_TAG = re.compile(rb'^\[Game[ \t]+"([^"\r\n]{1,64})"', re.M)


def _load_engine_of(path: str, head: int = 1 << 16) -> None:
    """Load the engine of the first game ``path`` names (in its first ``head`` bytes),
    here, before the worker processes fork: each worker then has it from the start instead
    of importing it again (twice the import for two workers; where bytecode is not cached,
    twice the compiling of the engine's sources). Anything unexpected: nothing is loaded,
    the workers load what they need."""
    if path == "-" or not os.path.isfile(path):
        return
    try:
        with open(path, "rb") as f:
            m = _GAME_TAG.search(f.read(head))
        if m:
            games.get(m.group(1).decode("utf-8"))
    except (OSError, UnicodeDecodeError, KifuError):
        return


def _fresh(db: sqlite_utils.Database, table: str, rows: list[Any]) -> list[Any]:
    """The rows whose hash is neither stored in ``table`` nor earlier in ``rows``."""
    seen: set[str] = set()
    hashes = [r.hash for r in rows]
    for k in range(0, len(hashes), 500):
        part = hashes[k : k + 500]
        marks = ",".join("?" * len(part))
        seen.update(h for (h,) in db.execute(
            f"SELECT hash FROM {table} WHERE hash IN ({marks})", part))
    out = []
    for r in rows:
        if r.hash not in seen:
            seen.add(r.hash)
            out.append(r)
    return out


def _game_id(name: str) -> str:
    try:
        return games.canonical_id(name)
    except VariantError:
        return name.strip().lower()


def canonical_position(line: str) -> str:
    """The canonical form of a position line (its game is named by its rules token)."""
    token = line.strip().split(" ", 1)[0]
    try:
        game = games.get(token.split("/", 1)[0].split(";", 1)[0])
    except VariantError as e:
        raise NotationError(f"position: {e}", line=1, col=1, path="<position>") from None
    return game.from_line(line.strip()).to_line()


_TAG = re.compile(r"([A-Za-z][A-Za-z0-9_]*)=(.*)\Z", re.S)


def parse_tag(text: str) -> tuple[str, str]:
    """``Name=value`` -> (name, value)."""
    m = _TAG.match(text)
    if not m or not HEADER_NAME.match(m.group(1)):
        raise KifuError(f"bad tag filter {text!r}: expected Name=value")
    return m.group(1), m.group(2)


SQL_INT_MAX = (1 << 63) - 1
"""The largest integer SQLite stores."""


def sql_int(name: str, value: int, low: int = -SQL_INT_MAX - 1) -> int:
    """``value`` if SQLite can take it as an integer not below ``low``, else a one-line
    error naming the option ``name``."""
    if not low <= value <= SQL_INT_MAX:
        shown = str(value) if abs(value) < 10**30 else f"a number of {len(str(abs(value)))} digits"
        raise KifuError(f"{name}: {shown} is out of range ({low} to {SQL_INT_MAX})")
    return value


def _clip(text: str, n: int = 60) -> str:
    return repr(text if len(text) <= n else text[:n] + "...")


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())[:300] or type(e).__name__


def utf8_text(name: str, value: str) -> str:
    """``value`` if it is text SQLite can take; a file name's undecodable bytes reach
    Python as lone surrogates (PEP 383), which no stored text can match."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise KifuError(f"{name}: {_clip(value)} is not UTF-8 text") from None
    return value


def _select(f: Filters, columns: str) -> tuple[str, list[Any]]:
    for field in ("game", "rules", "player", "result", "winner", "date_from", "date_to",
                  "position", "text"):
        value = getattr(f, field)
        if isinstance(value, str):
            utf8_text("--" + {"date_from": "from", "date_to": "to"}.get(field, field), value)
    for name, value in f.tags:
        utf8_text("--tag", f"{name}={value}")
    where: list[str] = []
    params: list[Any] = []
    if f.game:
        where.append("r.game = ?")
        params.append(_game_id(f.game))
    if f.rules:
        where.append("r.rules = ?")
        params.append(f.rules)
    if f.won and not f.player:
        raise KifuError("--won needs --player NAME (the records that player won)")
    if f.player:
        won = " AND won = 1" if f.won else ""
        where.append(f"r.id IN (SELECT record_id FROM record_players WHERE name = ?{won})")
        params.append(nfc(f.player))  # names are stored in NFC
    if f.winner_seat is not None:
        where.append("instr(',' || r.winner_seats || ',', ?) > 0")
        params.append(f",{f.winner_seat},")
    if f.result:
        where.append("r.result = ?")
        params.append(f.result)
    if f.winner:
        where.append("r.winner = ?")
        params.append(nfc(f.winner))
    for name, value in f.tags:
        where.append("json_extract(r.tags, ?) = ?")
        params += [f'$."{name}"', value]
    if f.min_plies is not None:
        sql_int("--min-plies", f.min_plies)
        where.append("r.plies >= ?")
        params.append(f.min_plies)
    if f.max_plies is not None:
        sql_int("--max-plies", f.max_plies)
        where.append("r.plies <= ?")
        params.append(f.max_plies)
    if f.date_from:
        where.append("r.date >= ?")
        params.append(f.date_from)
    if f.date_to:
        where.append("r.date <= ?")
        params.append(f.date_to)
    if f.position:
        where.append("r.id IN (SELECT record_id FROM positions WHERE pos = ?)")
        params.append(position_key(canonical_position(f.position)))
    if f.text:
        where.append("r.id IN (SELECT rowid FROM records_fts WHERE records_fts MATCH ?)")
        params.append(f.text)
    sql = f"SELECT {columns} FROM records r"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY r.id"
    if f.limit is not None:
        sql += " LIMIT ?"
        params.append(sql_int("--limit", f.limit, 0))
    return sql, params
