"""The archive out to the tools a data person uses: Parquet tables (DuckDB, Polars, pandas,
Spark read them) and JSON lines, streamed in bounded memory.

``kifu archive export --format parquet DIR`` writes four tables, each partitioned by game
in the Hive layout every engine understands (``DIR/records/game=tweak/part-0.parquet``;
the ``game`` column is the folder's name, not stored in the files):

``records``
    the archive's ``records`` rows (``id``, ``hash``, ``rules``, ``players``,
    ``nplayers``, ``date``, ``result``, ``winner``, ``winner_seats``, ``plies``, ``tags``,
    ``comments``, ``text``, ``source``).
``seats``
    one row per seat of each record: ``record_id``, ``seat``, ``name``, ``score``,
    ``rank``, ``won`` (as ``record_players``) and ``turn``: the seat's place in the turn
    order, 1 for the first player to act (dealer actions do not count), NULL for a seat
    that never acted.
``moves``
    one row per action: ``record_id``, ``ply`` (1 = the first action), ``actor`` (``d``,
    ``p0``...), ``action`` (its text), ``comment`` and ``mark`` (NULL when none).
``puzzles``
    the ``puzzles`` rows.

The records are read once, in import order, a batch at a time; each batch's rows go to a
buffer per table and game that is written out as a row group when it is full, so memory
stays bounded whatever the archive's size (``tests/test_archive_export.py`` runs an export
under an address-space limit). pyarrow is imported only here, only for Parquet
(``pip install 'kifu[parquet]'``): the JSON-lines export needs nothing but the standard
library and msgspec.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import msgspec

from kifu.archive.rows import turn_order
from kifu.archive.store import Archive, Filters, _game_id, _select
from kifu.core.errors import KifuError
from kifu.notation.reader import parse_record
from kifu.notation.record import split_players

if TYPE_CHECKING:
    import pyarrow as pa

PARQUET_HINT = ("Parquet needs pyarrow: pip install 'kifu[parquet]' (or pip install pyarrow), "
                "then run the export again")

TABLES = ("records", "seats", "moves", "puzzles")
"""The tables a Parquet export writes, one folder each."""

RECORD_EXPORT = ("id", "hash", "game", "rules", "players", "nplayers", "date", "result",
                 "winner", "winner_seats", "plies", "tags", "comments", "text", "source")
SEAT_EXPORT = ("record_id", "game", "seat", "name", "score", "rank", "won", "turn")
MOVE_EXPORT = ("record_id", "game", "ply", "actor", "action", "comment", "mark")
PUZZLE_EXPORT = ("id", "hash", "game", "rules", "position", "question", "answer", "solution",
                 "difficulty", "source", "tags", "text")

READ_ROWS = 500
"""Records read from SQLite at a time."""

FLUSH_ROWS = {"records": 2000, "seats": 20_000, "moves": 20_000, "puzzles": 2000}
"""Rows a (table, game) buffer holds before it is written as a row group."""


class Batch(msgspec.Struct):
    """What one batch of records becomes: rows of records, seats and moves."""

    records: list[tuple[Any, ...]]
    seats: list[tuple[Any, ...]]
    moves: list[tuple[Any, ...]]


def _seat_results(conn: sqlite3.Connection, pairs: list[tuple[str, int]]
                  ) -> dict[tuple[int, int], tuple[Any, Any, Any, Any]]:
    """(record id, seat) -> (score, rank, won, turn) for the given (name, record id) pairs: one
    query a batch, each pair a lookup of ``record_players``' primary key (it starts with
    the name, so a lookup by record id alone would scan the table)."""
    out: dict[tuple[int, int], tuple[Any, Any, Any, Any]] = {}
    step = max(1, conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // 2 - 1)
    for k in range(0, len(pairs), step):
        part = pairs[k : k + step]
        values = ", ".join(["(?, ?)"] * len(part))
        sql = (f"WITH v(name, rid) AS (VALUES {values}) SELECT p.record_id, p.seat, "
               "p.score, p.rank, p.won, p.turn FROM v JOIN record_players p "
               "ON p.name = v.name AND p.record_id = v.rid")
        params = [x for pair in part for x in pair]
        for rid, seat, score, rank, won, turn in conn.execute(sql, params):
            out[(rid, seat)] = (score, rank, won, turn)
    return out


def record_batches(archive: Archive, filters: Filters | None = None, *,
                   moves: bool = True, rows: int = READ_ROWS) -> Iterator[Batch]:
    """The selected records (default: all), in import order, ``rows`` at a time, with
    their seats and (``moves=True``) their actions (the only part that parses the text)."""
    conn = archive.db.conn
    sql, params = _select(filters or Filters(), ", ".join(f"r.{c}" for c in RECORD_EXPORT))
    cursor = conn.execute(sql, params)
    text_at = RECORD_EXPORT.index("text")
    players_at = RECORD_EXPORT.index("players")
    try:
        while True:
            chunk = cursor.fetchmany(rows)
            if not chunk:
                return
            pairs = sorted({(name, r[0]) for r in chunk
                            for name in split_players(r[players_at])})
            results = _seat_results(conn, pairs)
            seats: list[tuple[Any, ...]] = []
            move_rows: list[tuple[Any, ...]] = []
            for r in chunk:
                rid, game = r[0], r[2]
                for seat, name in enumerate(split_players(r[players_at])):
                    score, rank, won, turn = results.get((rid, seat), (None,) * 4)
                    seats.append((rid, game, seat, name, score, rank, won, turn))
                if moves:
                    move_rows += [(rid, game, ply, m.actor, m.text, m.comment, m.mark)
                                  for ply, m in enumerate(parse_record(r[text_at]).moves, 1)]
            yield Batch(chunk, seats, move_rows)
    finally:
        cursor.close()


def puzzle_rows(archive: Archive, game: str | None = None) -> Iterator[tuple[Any, ...]]:
    """Every stored puzzle (of ``game``), in import order, as :data:`PUZZLE_EXPORT`."""
    sql = f"SELECT {', '.join(PUZZLE_EXPORT)} FROM puzzles"
    params: list[Any] = []
    if game:
        sql += " WHERE game = ?"
        params.append(_game_id(game))
    yield from archive.db.execute(sql + " ORDER BY id", params)


# --- JSON lines ---------------------------------------------------------------------------

def jsonl_lines(archive: Archive, filters: Filters | None = None) -> Iterator[str]:
    """One JSON object a selected record, a line each (its ``records`` columns and its
    ``seats``: name, score, rank, won, turn), streamed in import order."""
    enc = msgspec.json.Encoder()
    seat_keys = SEAT_EXPORT[2:]
    for batch in record_batches(archive, filters, moves=False):
        per: dict[int, list[dict[str, Any]]] = {}
        for s in batch.seats:
            per.setdefault(s[0], []).append(dict(zip(seat_keys, s[2:], strict=True)))
        for r in batch.records:
            row = dict(zip(RECORD_EXPORT, r, strict=True))
            row["seats"] = per.get(r[0], [])
            yield enc.encode(row).decode("utf-8") + "\n"


# --- Parquet ------------------------------------------------------------------------------

def _schemas() -> dict[str, pa.Schema]:
    import pyarrow as pa

    s, i64, i32, i8 = pa.string(), pa.int64(), pa.int32(), pa.int8()
    return {
        "records": pa.schema([("id", i64), ("hash", s), ("rules", s), ("players", s),
                              ("nplayers", i32), ("date", s), ("result", s), ("winner", s),
                              ("winner_seats", s), ("plies", i32), ("tags", s),
                              ("comments", s), ("text", s), ("source", s)]),
        "seats": pa.schema([("record_id", i64), ("seat", i32), ("name", s), ("score", i64),
                            ("rank", i32), ("won", i8), ("turn", i32)]),
        "moves": pa.schema([("record_id", i64), ("ply", i32), ("actor", s), ("action", s),
                            ("comment", s), ("mark", s)]),
        "puzzles": pa.schema([("id", i64), ("hash", s), ("rules", s), ("position", s),
                              ("question", s), ("answer", s), ("solution", s),
                              ("difficulty", s), ("source", s), ("tags", s), ("text", s)]),
    }


_GAME_AT = {"records": 2, "seats": 1, "moves": 1, "puzzles": 2}
"""Where each table's row tuples hold the game (the partition key, left out of the file)."""


class ParquetSink:
    """Rows in, Parquet files out: a buffer and a writer per (table, game); a full buffer
    becomes one row group."""

    def __init__(self, root: str, flush_rows: dict[str, int] | None = None) -> None:
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise KifuError(PARQUET_HINT) from None
        self.pq = pq
        self.root = root
        self.schemas = _schemas()
        self.flush_rows = flush_rows or FLUSH_ROWS
        self.buffers: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
        self.writers: dict[tuple[str, str], Any] = {}
        self.counts: dict[str, int] = dict.fromkeys(TABLES, 0)

    def add(self, table: str, rows: Iterable[tuple[Any, ...]]) -> None:
        at = _GAME_AT[table]
        limit = self.flush_rows[table]
        for row in rows:
            key = (table, row[at])
            buf = self.buffers.setdefault(key, [])
            buf.append(row[:at] + row[at + 1:])
            if len(buf) >= limit:
                self._flush(key)

    def _flush(self, key: tuple[str, str]) -> None:
        import pyarrow as pa

        rows = self.buffers.pop(key, None)
        if not rows:
            return
        table, game = key
        schema = self.schemas[table]
        columns = [pa.array(col, type=f.type)
                   for col, f in zip(zip(*rows, strict=True), schema, strict=True)]
        del rows
        data = pa.Table.from_arrays(columns, schema=schema)
        writer = self.writers.get(key)
        if writer is None:
            folder = os.path.join(self.root, table, f"game={game}")
            os.makedirs(folder, exist_ok=True)
            writer = self.pq.ParquetWriter(os.path.join(folder, "part-0.parquet"), schema,
                                           compression="zstd")
            self.writers[key] = writer
        writer.write_table(data)
        self.counts[table] += data.num_rows

    def close(self) -> None:
        for key in list(self.buffers):
            self._flush(key)
        for writer in self.writers.values():
            writer.close()
        self.writers.clear()
        for table in TABLES:  # a table with no row is still a folder (an empty dataset)
            os.makedirs(os.path.join(self.root, table), exist_ok=True)


def export_parquet(archive: Archive, out_dir: str, filters: Filters | None = None, *,
                   on_batch: Callable[[int], None] | None = None,
                   flush_rows: dict[str, int] | None = None) -> dict[str, int]:
    """Write the selected records (default: all), their seats and moves, and the puzzles
    (of ``filters.game`` when given) as Parquet under ``out_dir``, which must not exist or
    be empty; it is written whole or not at all (built beside it, then renamed). Returns
    the row count of each table. ``on_batch(n)`` is called after each batch of ``n``
    records."""
    out_dir = os.path.abspath(out_dir)
    if os.path.exists(out_dir) and (not os.path.isdir(out_dir) or os.listdir(out_dir)):
        raise KifuError(f"{out_dir}: exists and is not an empty folder; export into a new one")
    parent = os.path.dirname(out_dir)
    if not os.path.isdir(parent):
        raise KifuError(f"{parent}: no such folder")
    work = tempfile.mkdtemp(prefix="." + os.path.basename(out_dir) + ".", dir=parent)
    try:
        sink = ParquetSink(work, flush_rows)
        for batch in record_batches(archive, filters):
            sink.add("records", batch.records)
            sink.add("seats", batch.seats)
            sink.add("moves", batch.moves)
            if on_batch:
                on_batch(len(batch.records))
        sink.add("puzzles", puzzle_rows(archive, (filters or Filters()).game))
        sink.close()
        if os.path.isdir(out_dir):
            os.rmdir(out_dir)  # empty, checked above
        os.rename(work, out_dir)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return sink.counts


__all__ = ["MOVE_EXPORT", "PUZZLE_EXPORT", "RECORD_EXPORT", "SEAT_EXPORT", "TABLES",
           "export_parquet", "jsonl_lines", "record_batches", "turn_order"]
