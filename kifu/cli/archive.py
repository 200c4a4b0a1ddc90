"""``kifu archive``: import records and puzzles into a SQLite archive, query, export, stats."""

from __future__ import annotations

import base64
import contextlib
import functools
import itertools
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import click

from kifu.archive import Archive, Filters
from kifu.archive.schema import db_path
from kifu.archive.sql import DEFAULT_TIMEOUT, SqlRun
from kifu.archive.store import BATCH_ROWS, RECORD_COLUMNS, parse_tag, sql_int
from kifu.cli.common import handle_errors
from kifu.cli.options import output_option, quiet_option, seconds_callback
from kifu.cli.scale import executor_options
from kifu.core.errors import KifuError
from kifu.notation.batch import CHUNK_RECORDS
from kifu.notation.files import (
    check_output,
    commit_outputs,
    display_name,
    input_files,
    open_output,
    same_file,
)

TABLE_COLUMNS = ("id", "game", "players", "date", "result", "winner", "plies")

SQL_ROWS = 1000
"""The rows ``query --sql`` prints when no ``--limit`` is given (``--limit 0``: all)."""


TABLE_QUERY = (*TABLE_COLUMNS, "winner_seats")


def seat_winners(row: dict[str, Any]) -> dict[str, Any]:
    """A table row whose ``winner`` names each seat placed first and its player (``p1
    Bob``), so two seats of one name (two ``greedy`` bots) are told apart."""
    seats = row.pop("winner_seats", None)
    if seats:
        from kifu.notation.record import split_players

        names = split_players(row.get("players") or "")
        row["winner"] = ", ".join(
            f"p{s} {names[int(s)]}" if s.isdigit() and int(s) < len(names) else f"p{s}"
            for s in seats.split(","))
    return row


def archive_files(db: str | None) -> list[str]:
    """The archive file ``--db`` names and its SQLite side files: none may be an output
    or an input of the same command."""
    path = db_path(db)
    return [path] + [path + suffix for suffix in ("-wal", "-shm", "-journal")]


def sql_range(name: str, low: int = -(1 << 63)) -> Callable[[click.Context, click.Parameter,
                                                              Any], Any]:
    """A callback refusing an integer SQLite cannot take (``--limit 2**64``) in one line."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is None:
            return value
        try:
            return sql_int(name, value, low)
        except KifuError as e:
            from kifu.cli.common import CliError

            raise CliError(str(e)) from None

    return check


def db_option(func: Callable) -> Callable:
    return click.option(
        "--db", "db", metavar="PATH", default=None,
        help="The archive file (default: $KIFU_DB, else ./kifu.db).",
    )(func)


def output_options(func: Callable) -> Callable:
    @click.option("-f", "--format", "fmt", default="table", show_default=True,
                  type=click.Choice(["table", "records", "json"]),
                  help="table: one line a record; records: canonical notation; json: one "
                       "JSON object a line.")
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper


@click.group("archive", short_help="A SQLite archive of records and puzzles.")
def archive() -> None:
    """A SQLite archive of records and puzzles (sqlite-utils; Datasette and sqlite3 read it).

    Example: kifu archive import games/ --db games.db && kifu archive query --player Ann
    """


@archive.command("import")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@db_option
@click.option("--positions", is_flag=True,
              help="Also index every position reached (for query --position).")
@click.option("--batch-rows", type=int, default=BATCH_ROWS, show_default=True,
              help="Records per write transaction.")
@quiet_option()
@executor_options(chunk_size=CHUNK_RECORDS, unit="records")
@handle_errors
def import_cmd(paths, db, workers, positions, batch_rows, quiet, dask, chunk_size) -> None:
    """Validate and store every record and puzzle of PATH... (files, folders, - for stdin).

    Invalid records are reported (FILE:LINE:COL: ...) and skipped, never half stored; a
    record already in the archive is skipped and counted. Exit code 1 if any was invalid.
    """
    files = input_files(paths)  # a missing path is refused before the archive is opened
    archive_names = archive_files(db)
    for f in files:
        if any(same_file(f, a) for a in archive_names):  # "-": standard input
            raise KifuError(f"{display_name(f)}: the archive (--db {db_path(db)}) is also an "
                            "input; import from another file")
    total = sum(os.path.getsize(p) for p in files if p != "-" and os.path.isfile(p))
    errors = 0

    def on_error(report: dict[str, Any]) -> None:
        nonlocal errors
        errors += 1
        click.echo(report["error"], err=True)

    with Archive(db) as a:
        bar = click.progressbar(length=max(total, 1), label="importing", file=sys.stderr)
        show = not quiet and sys.stderr.isatty()
        if show:
            bar.__enter__()
        try:
            stats = a.import_paths(
                files, workers=workers, dask=dask, chunk_records=chunk_size,
                positions=positions, on_error=on_error,
                batch_rows=max(1, batch_rows),
                on_record=(lambda n: bar.update(n)) if show else None,
            )
        finally:
            if show:
                bar.__exit__(None, None, None)
    if not quiet:
        click.echo(
            f"{a.path}: {stats.imported} record(s) imported, {stats.duplicates} duplicate(s) "
            f"skipped, {stats.invalid} invalid; {stats.puzzles} puzzle(s) imported, "
            f"{stats.puzzle_duplicates} duplicate(s)"
        )
    if errors:
        raise SystemExit(1)


def filter_options(func: Callable) -> Callable:
    options = [
        click.option("--game", help="Game id or alias."),
        click.option("--rules", help="Exact Rules tag, e.g. 'tweak/1;rounds=1'."),
        click.option("--player", help="A player's name (any seat)."),
        click.option("--result", help="Exact Result tag, e.g. '41 30 12' or '*'."),
        click.option("--winner", help="The name(s) ranked first, joined by ', '."),
        click.option("--winner-seat", type=click.IntRange(0), metavar="SEAT",
                     help="Records where this seat (0 = p0) placed first, shared or not."),
        click.option("--won", is_flag=True, default=None,
                     help="With --player: only the records that player won."),
        click.option("--tag", "tags", multiple=True, metavar="NAME=VALUE",
                     help="A header's value (repeatable)."),
        click.option("--min-plies", type=int, callback=sql_range("--min-plies")),
        click.option("--max-plies", type=int, callback=sql_range("--max-plies")),
        click.option("--from", "date_from", metavar="YYYY.MM.DD", help="Dated on or after."),
        click.option("--to", "date_to", metavar="YYYY.MM.DD", help="Dated on or before."),
        click.option("--position", metavar="LINE",
                     help="Records that reach this position (needs import --positions)."),
        click.option("--text", metavar="QUERY", help="Full-text search in comments (FTS5)."),
        click.option("--limit", type=int, callback=sql_range("--limit", 0),
                     help="At most this many records (rows, with --sql: default 1000, 0 "
                          "for all)."),
    ]
    for opt in reversed(options):
        func = opt(func)
    return func


def make_filters(kw: dict[str, Any]) -> Filters:
    tags = [parse_tag(t) for t in kw.pop("tags", ())]
    return Filters(tags=tags, **{k: v for k, v in kw.items() if v is not None})


FILTER_KEYS = ("game", "rules", "player", "result", "winner", "winner_seat", "won", "tags",
               "min_plies", "max_plies", "date_from", "date_to", "position", "text", "limit")


@archive.command("query")
@db_option
@filter_options
@click.option("--sql", metavar="SQL",
              help="Run this one read-only SQL statement instead of the filters.")
@click.option("--timeout", type=click.FloatRange(0, 1e9), default=DEFAULT_TIMEOUT,
              show_default=True, metavar="SECONDS", callback=seconds_callback,
              help="--sql: stop the query after this much work (0: no limit).")
@output_options
@handle_errors
def query_cmd(db, sql, timeout, fmt, **kw) -> None:
    """Select records by game, rules, player, result, tags, length, date, a position reached
    or comment text; or run read-only SQL (--sql). Filters combine with AND.

    --sql takes one read-only statement, stopped after --timeout seconds of work or by
    Ctrl-C; a value may have at most 64 MiB. It prints at most 1000 rows (--limit N for
    another cap, --limit 0 for every row).

    Example: kifu archive query --game tweak --player Ann --min-plies 30 -f json
    """
    with Archive(db, readonly=True) as a:
        if sql is not None:
            limit = SQL_ROWS if kw["limit"] is None else kw["limit"] or None
            run = a.sql_run(sql, timeout=timeout,
                            max_rows=None if limit is None else limit + 1)
            with _cancel_on_interrupt(run):
                names, rows = a.sql(sql, run=run)
                with contextlib.closing(rows):
                    shown = itertools.islice(rows, limit)
                    _emit((dict(zip(names, r, strict=True)) for r in shown), fmt, names)
                    if limit is not None and next(rows, None) is not None:
                        click.echo(f"--sql: the first {limit} row(s) shown; --limit N for "
                                   "more, --limit 0 for all", err=True)
            return
        filters = make_filters({k: kw[k] for k in FILTER_KEYS})
        cols = ("text",) if fmt == "records" else (
            TABLE_QUERY if fmt == "table" else RECORD_COLUMNS)
        rows = a.query(filters, columns=cols)
        _emit(map(seat_winners, rows) if fmt == "table" else rows, fmt,
              list(TABLE_COLUMNS if fmt == "table" else cols))


@contextlib.contextmanager
def _cancel_on_interrupt(run: SqlRun) -> Iterator[None]:
    """Ctrl-C cancels the query (SQLite stops at its next check), whatever it is doing."""
    try:
        old = signal.signal(signal.SIGINT, lambda signum, frame: run.cancel())
    except ValueError:  # not the main thread: Ctrl-C is not ours to take
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _json_value(value: Any) -> Any:
    """A value JSON can hold: a blob as ``{"$base64": true, "encoded": ...}`` (the form
    Datasette uses), an infinite or NaN float as a string."""
    if isinstance(value, bytes):
        return {"$base64": True, "encoded": base64.b64encode(value).decode("ascii")}
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _emit(rows: Iterable[dict[str, Any]], fmt: str, names: list[str],
          noun: str = "records") -> None:
    """Write ``rows`` as ``fmt``; when there is none, say ``0 records`` (``noun``): in the
    table itself, or on stderr for the machine formats (their stdout stays empty)."""
    seen = 0

    def counted(it: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        nonlocal seen
        for row in it:
            seen += 1
            yield row

    _write_rows(counted(rows), fmt, names)
    if not seen:
        click.echo(f"0 {noun}", err=fmt != "table")


def _write_rows(rows: Iterable[dict[str, Any]], fmt: str, names: list[str]) -> None:
    if fmt == "records":
        first = True
        for row in rows:
            text = row.get("text")
            if not isinstance(text, str):
                raise KifuError("-f records needs a text column of text (a record or a "
                                "puzzle), one a row")
            click.echo(("" if first else "\n") + text, nl=False)
            first = False
    elif fmt == "json":
        for row in rows:
            click.echo(json.dumps({k: _json_value(v) for k, v in row.items()},
                                  ensure_ascii=False))
    else:
        _table(rows, names)


def _table(rows: Iterable[dict[str, Any]], names: list[str]) -> None:
    from tabulate import tabulate

    batch: list[list[Any]] = []
    first = True
    for row in rows:
        batch.append([row.get(n) for n in names])
        if len(batch) == 1000:  # stream long results in blocks
            click.echo(tabulate(batch, headers=names if first else ()))
            batch, first = [], False
    if batch:
        click.echo(tabulate(batch, headers=names if first else ()))


@archive.command("export")
@db_option
@filter_options
@click.argument("dest", required=False, metavar="[DEST]")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Where to write (- for stdout, the default for kifu and jsonl); the same "
                   "as DEST.")
@click.option("--format", "fmt", default="kifu", show_default=True,
              type=click.Choice(["kifu", "jsonl", "parquet"]),
              help="kifu: the records as notation; jsonl: one JSON object a record (its "
                   "columns and seats), streamed; parquet: a folder of records, seats, "
                   "moves and puzzles tables, partitioned by game (needs kifu[parquet]).")
@quiet_option()
@handle_errors
def export_cmd(db, dest, output, fmt, quiet, **kw) -> None:
    """Write the selected records (default: all) out of the archive.

    --format kifu (the default) writes them back as notation: each byte for byte the
    canonical text that was imported, in import order, one blank line between records.
    --format jsonl streams one JSON object a record. --format parquet DIR writes the
    folder DIR (new or empty) with the tables records, seats, moves and puzzles, each
    partitioned by game (DIR/moves/game=tweak/part-0.parquet), for DuckDB, Polars, pandas
    or Spark. A file or folder is written whole or not at all, never over the archive.

    Example: kifu archive export --db games.db --format parquet games-parquet
    """
    if dest is not None and output is not None and dest != output:
        raise KifuError("give the destination once: DEST or -o FILE")
    target = dest if dest is not None else (output if output is not None else "-")
    filters = make_filters({k: kw[k] for k in FILTER_KEYS})
    inputs = archive_files(db)
    if fmt == "parquet":
        _export_parquet(db, target, filters, quiet)
        return
    check_output(target, inputs=inputs)
    with Archive(db, readonly=True) as a:
        if fmt == "jsonl":
            from kifu.archive.export import jsonl_lines

            with open_output(target, inputs=inputs) as out:
                for line in jsonl_lines(a, filters):
                    out.write(line)
            return
        texts = _joined(a.export(filters))
        with open_output(target, inputs=inputs) as out:
            for part in texts:
                out.write(part)


def _export_parquet(db: str | None, target: str, filters: Filters, quiet: bool) -> None:
    # Arrow's default allocator (mimalloc) reserves address space in large arenas over a
    # long export; the C library's hands freed buffers back (docs/archive.md, Exports)
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    from kifu.archive.export import export_parquet

    if target == "-":
        raise KifuError("--format parquet writes a folder: give its name (DEST)")
    with Archive(db, readonly=True) as a:
        total = a.db.execute("SELECT count(*) FROM records").fetchone()[0]
        show = not quiet and sys.stderr.isatty()
        bar = click.progressbar(length=max(total, 1), label="exporting", file=sys.stderr)
        if show:
            bar.__enter__()
        try:
            counts = export_parquet(a, target, filters,
                                    on_batch=(lambda n: bar.update(n)) if show else None)
        finally:
            if show:
                bar.__exit__(None, None, None)
    if not quiet:
        click.echo(f"{target}: " + ", ".join(f"{n} {t}" for t, n in counts.items()),
                   err=True)


def _joined(texts: Iterable[str]) -> Iterator[str]:
    first = True
    for t in texts:
        yield t if first else "\n" + t
        first = False


@archive.command("stats")
@db_option
@click.option("--json", "as_json", is_flag=True, help="The figures as one JSON object.")
@click.option("--by", type=click.Choice(["rules", "players"]), default=None,
              help="The figures of kifu simulate (lengths, scores, seat win rates with "
                   "intervals, the game's own events) per rule set, or per line-up of "
                   "players, replayed from the stored records.")
@click.option("--game", default=None, help="With --by: only this game's records.")
@handle_errors
def stats_cmd(db, as_json, by, game) -> None:
    """Counts per game (records, finished, average length, players), each seat's win rate
    per game and player count (with its 95% interval), puzzles, positions; with --by rules
    (or players), the per-rule-set figures of kifu simulate."""
    if by is not None:
        _stats_by(db, by, game, as_json)
        return
    with Archive(db, readonly=True) as a:
        s = a.stats()
    if as_json:
        click.echo(json.dumps(s, indent=2))
        return
    from tabulate import tabulate

    click.echo(f"{a.path}: {s['records']} record(s), schema version {s['schema_version']}")
    if s["games"]:
        click.echo(tabulate([list(g.values()) for g in s["games"]], headers=list(s["games"][0])))
    if s["seats"]:
        click.echo("\nseat win rates (finished games; a shared first place counts as a win; "
                   "95% Wilson interval):")
        rows = [[r["game"], r["players"], f"p{r['seat']}", r["finished"], r["won"],
                 f"{100 * r['rate']:.1f}%", f"{100 * r['low']:.1f}-{100 * r['high']:.1f}%"]
                for r in s["seats"]]
        click.echo(tabulate(rows, headers=["game", "players", "seat", "finished", "won",
                                           "rate", "95% interval"]))
    puzzles = ", ".join(f"{g} {n}" for g, n in s["puzzles"].items()) or "none"
    click.echo(f"puzzles: {puzzles}; positions indexed: {s['positions_indexed']}")


def _stats_by(db: str | None, by: str, game: str | None, as_json: bool) -> None:
    import msgspec

    from kifu.archive.corpus import stats_by
    from kifu.lab.simulate import summary_table

    with Archive(db, readonly=True) as a:
        groups = stats_by(a, by, Filters(game=game))
    if as_json:
        click.echo(msgspec.json.format(msgspec.json.encode(groups), indent=2).decode())
        return
    for k, g in enumerate(groups):
        lineup = f", players {g.lineup}" if g.lineup is not None else ""
        click.echo(("\n" if k else "") + f"{g.game}, {g.players} players, rules {g.rules}"
                   f"{lineup}:")
        lines = summary_table(g.metrics, g.players, ["records"], [g.summary])
        if g.lineup is not None:
            lines = _named_seats(lines, g.lineup)
        for line in lines:
            click.echo(line)
    if not groups:
        click.echo("no records")


def _named_seats(lines: list[str], lineup: str) -> list[str]:
    """The table of one line-up of players (``stats --by players``): its head says so
    (the simulation's table says "per rule set"), and each seat's row names its player
    (``p0 Ann wins``). The first column is widened to fit."""
    import re

    from kifu.notation.record import split_players

    names = split_players(lineup)
    head = lines[0]
    width = head.index("  ", len(head) - len(head.lstrip())) if "  " in head else len(head)
    while width < len(head) and head[width] == " ":
        width += 1

    def label(text: str) -> str:
        if text.startswith("per rule set"):
            return "this line-up" + text[len("per rule set"):]
        m = re.match(r"p(\d+) ", text)
        if m and int(m.group(1)) < len(names):
            return f"p{m.group(1)} {names[int(m.group(1))]} {text[m.end():]}"
        return text

    cells = [(label(line[:width].rstrip()), line[width:]) for line in lines]
    new = max(len(c) for c, _ in cells) + 2
    return [(c.ljust(new) + rest).rstrip() for c, rest in cells]


@archive.command("puzzles")
@db_option
@click.option("--game", help="Only this game's puzzles.")
@click.option("--question", help="Only this question (with or without its argument).")
@click.option("--limit", type=int, callback=sql_range("--limit", 0))
@click.option("-f", "--format", "fmt", default="table", show_default=True,
              type=click.Choice(["table", "records", "json"]),
              help="table, records (the canonical puzzle blocks) or json.")
@handle_errors
def puzzles_cmd(db, game, question, limit, fmt) -> None:
    """List the archive's puzzles."""
    with Archive(db, readonly=True) as a:
        rows = a.iter_puzzles(game=game, question=question, limit=limit)
        names = ["id", "game", "question", "answer", "difficulty", "source"]
        _emit(rows, fmt, names, "puzzles")


@archive.command("datasette")
@db_option
@output_option("Where to write the metadata (default: beside the archive, "
               "a.db -> a.metadata.json; - for stdout).")
@handle_errors
def datasette_cmd(db, output) -> None:
    """Write Datasette metadata for the archive: what each table and column means, label
    columns, facets and canned queries. Then: datasette a.db --metadata a.metadata.json
    (kifu archive serve does both, and also hides the long columns).
    """
    from kifu.archive.browse import write_metadata
    from kifu.archive.schema import db_path

    path = db_path(db)
    Archive(path, readonly=True).close()  # refuse what is not a kifu archive
    written = write_metadata(path, output)
    commit_outputs()
    if written != "-":
        click.echo(f"{written}: Datasette metadata for {path}", err=True)


@archive.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8001, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open a web browser on it.")
@handle_errors
def serve_cmd(db, host, port, open_browser) -> None:
    """Browse the archive in Datasette, with its metadata (descriptions, labels, facets,
    canned queries, a players table and page) and kifu's plugin: each record drawn at its
    final position and linked to its viewer page, the long columns (tags, hash, comments,
    source) out of the table views. Needs Datasette: pip install 'kifu[serve]'.
    """
    from kifu.archive.browse import serve
    from kifu.archive.schema import db_path

    _can_listen(host, port)  # one line, not the server's own error dump
    serve(db_path(db), host=host, port=port, open_browser=open_browser)


def _can_listen(host: str, port: int) -> None:
    """Refuse a --host that names no address or a --port that is taken, in one line."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise KifuError(f"--host {host}: not an address to listen on ({e})") from None
    family, kind, proto, _name, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            s.bind(address)
    except OSError as e:
        raise KifuError(f"{host}:{port}: cannot listen: {e.strerror or e}") from None
