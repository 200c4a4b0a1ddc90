"""Raw SQL on an archive (``kifu archive query --sql``), bounded.

One statement, read-only, checked by SQLite's authorizer before it runs (a write, an
``ATTACH``, a transaction or a pragma that sets something is refused with its name); a time
limit counted while SQLite works (a progress handler; the time the caller spends on each
row is not counted); a cap on the size of any one value (``SQLITE_LIMIT_LENGTH``) and on
SQLite's heap (``PRAGMA hard_heap_limit``), so ``zeroblob(1000000000)`` or a runaway
``group_concat`` is an error, not gigabytes; :meth:`SqlRun.cancel` (from a Ctrl-C handler)
stops it at once. Every SQLite error comes out as one line (:class:`SqlError`).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterable, Iterator
from typing import Any

from kifu.core.errors import KifuError

DEFAULT_TIMEOUT = 5.0
"""Seconds of SQLite work a ``--sql`` query may take (``--timeout``)."""

MAX_VALUE = 64 * 1024 * 1024
"""The largest string or blob a ``--sql`` query may make or read, in bytes."""

MAX_HEAP = 512 * 1024 * 1024
"""SQLite's heap while a ``--sql`` query runs, in bytes."""

PROGRESS_STEPS = 10_000
"""SQLite virtual-machine steps between two checks of the time and of a cancel."""

_ALLOWED = {
    sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
    sqlite3.SQLITE_RECURSIVE,
}
_PRAGMAS_WITH_ARGUMENT = {
    "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo",
    "foreign_key_list",
}
_ACTIONS = (
    "CREATE_INDEX", "CREATE_TABLE", "CREATE_TEMP_INDEX", "CREATE_TEMP_TABLE",
    "CREATE_TEMP_TRIGGER", "CREATE_TEMP_VIEW", "CREATE_TRIGGER", "CREATE_VIEW", "DELETE",
    "DROP_INDEX", "DROP_TABLE", "DROP_TEMP_INDEX", "DROP_TEMP_TABLE", "DROP_TEMP_TRIGGER",
    "DROP_TEMP_VIEW", "DROP_TRIGGER", "DROP_VIEW", "INSERT", "PRAGMA", "READ", "SELECT",
    "TRANSACTION", "UPDATE", "ATTACH", "DETACH", "ALTER_TABLE", "REINDEX", "ANALYZE",
    "CREATE_VTABLE", "DROP_VTABLE", "FUNCTION", "SAVEPOINT", "RECURSIVE",
)
_NAMES = {getattr(sqlite3, "SQLITE_" + a): a.replace("_", " ").lower() for a in _ACTIONS}
"""The authorizer's action codes, by name (they overlap SQLite's result codes)."""


class SqlError(KifuError):
    """A ``--sql`` query refused or stopped (one line)."""


class SqlRun:
    """One bounded query: ``names, rows = run.start()`` then iterate ``rows``."""

    def __init__(self, conn: sqlite3.Connection, query: str, params: Iterable[Any] = (), *,
                 timeout: float | None = DEFAULT_TIMEOUT, max_rows: int | None = None,
                 where: str = "--sql") -> None:
        self.conn = conn
        self.query = query
        self.params = list(params)
        self.timeout = timeout or None
        self.max_rows = max_rows
        self.where = where
        self.spent = 0.0
        self.since: float | None = None
        self.cancelled = False
        self.timed_out = False
        self.denied: str | None = None
        self._saved: tuple[int, int, Any] | None = None

    # --- the hooks ---------------------------------------------------------------------
    def _progress(self) -> int:
        if self.cancelled:
            return 1
        if self.timeout is not None and self.since is not None \
                and self.spent + time.monotonic() - self.since > self.timeout:
            self.timed_out = True
            return 1
        return 0

    def _authorize(self, action: int, arg1: Any, arg2: Any, db: Any, trigger: Any) -> int:
        if action in _ALLOWED:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and (
            arg2 is None or str(arg1).lower() in _PRAGMAS_WITH_ARGUMENT
        ):
            return sqlite3.SQLITE_OK
        what = _NAMES.get(action, f"action {action}")
        if action == sqlite3.SQLITE_PRAGMA:
            what = f"pragma {arg1} = {arg2}"
        elif arg1:
            what = f"{what} {arg1}"
        if self.denied is None:
            self.denied = what[:100]
        return sqlite3.SQLITE_DENY

    def cancel(self) -> None:
        """Stop the query as soon as SQLite checks (safe from a signal handler)."""
        self.cancelled = True
        with contextlib.suppress(sqlite3.Error):  # a closed connection
            self.conn.interrupt()

    # --- running ------------------------------------------------------------------------
    def _install(self) -> None:
        conn = self.conn
        length = conn.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
        heap = conn.execute("PRAGMA hard_heap_limit").fetchone()[0]
        self._saved = (length, heap, conn.text_factory)
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)
        if not heap or heap > MAX_HEAP:
            conn.execute(f"PRAGMA hard_heap_limit = {MAX_HEAP}")
        conn.text_factory = _text
        conn.set_progress_handler(self._progress, PROGRESS_STEPS)
        conn.set_authorizer(self._authorize)

    def _restore(self) -> None:
        if self._saved is None:
            return
        conn = self.conn
        length, heap, factory = self._saved
        self._saved = None
        try:
            conn.set_authorizer(None)
            conn.set_progress_handler(None, 0)
            conn.text_factory = factory
            conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, length)
            conn.execute(f"PRAGMA hard_heap_limit = {int(heap)}")
        except sqlite3.Error:  # pragma: no cover - a closed connection
            pass

    def _error(self, e: BaseException) -> SqlError:
        if self.cancelled:
            return SqlError(f"{self.where}: interrupted")
        if self.timed_out:
            return SqlError(f"{self.where}: stopped after {self.timeout:g} s of work (--timeout "
                            "SECONDS raises the limit, 0 removes it)")
        if self.denied:
            return SqlError(f"{self.where}: only a read-only query (SELECT) may run; this one "
                            f"asks for: {self.denied}")
        if isinstance(e, MemoryError):
            return SqlError(f"{self.where}: the query needs more than {MAX_HEAP >> 20} MiB")
        text = str(e) or type(e).__name__
        if "string or blob too big" in text:
            text += f" (a value may have at most {MAX_VALUE >> 20} MiB)"
        elif "one statement at a time" in text:
            text = "give one statement only"
        return SqlError(f"{self.where}: {' '.join(text.split())[:300]}")

    def start(self) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
        """Prepare and run the query up to its first row; the column names and the rows.
        The limits stay in force until the rows are exhausted or closed."""
        if not self.query.strip():
            raise SqlError(f"{self.where}: the query is empty")
        try:
            self.query.encode("utf-8")
        except UnicodeEncodeError:
            raise SqlError(f"{self.where}: the query is not UTF-8 text") from None
        self._install()
        self.since = time.monotonic()
        try:
            cur = self.conn.execute(self.query, self.params)
            names = [d[0] for d in cur.description or ()]
        except (sqlite3.Error, MemoryError, OverflowError, ValueError) as e:
            self._restore()
            raise self._error(e) from None
        finally:
            self.spent += time.monotonic() - self.since
            self.since = None
        return names, self._rows(cur)

    def _rows(self, cur: sqlite3.Cursor) -> Iterator[tuple[Any, ...]]:
        n = 0
        try:
            while self.max_rows is None or n < self.max_rows:
                self.since = time.monotonic()
                try:
                    row = cur.fetchone()
                except (sqlite3.Error, MemoryError, OverflowError, ValueError) as e:
                    raise self._error(e) from None
                finally:
                    self.spent += time.monotonic() - self.since
                    self.since = None
                if row is None:
                    return
                n += 1
                yield row
        finally:
            with contextlib.suppress(sqlite3.Error):  # the connection may be closed
                cur.close()
            self._restore()


def _text(data: bytes) -> str:
    """TEXT values as str; bytes that are not UTF-8 are replaced, not an error."""
    return data.decode("utf-8", "replace")
