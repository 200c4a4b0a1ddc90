"""The kifu archive: records and puzzles in one SQLite file (sqlite-utils), validated on
import, deduplicated by content hash, queryable, exported back byte for byte.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "a.db")
>>> with Archive(path) as a:
...     a.stats()["records"], a.stats()["schema_version"] == SCHEMA_VERSION
(0, True)
"""

from kifu.archive.schema import SCHEMA_VERSION, ArchiveError, db_path
from kifu.archive.store import Archive, Filters, ImportStats


def add_puzzles(puzzles, *, db: str | None = None) -> ImportStats:
    """Store puzzles (dicts of their headers plus canonical ``text``) in the archive ``db``."""
    with Archive(db) as a:
        return a.add_puzzles(puzzles)


def iter_puzzles(*, db: str | None = None, **filters):
    """The puzzles of the archive ``db`` (``game=``, ``question=``, ``limit=``), as dicts."""
    with Archive(db, readonly=True) as a:
        yield from a.iter_puzzles(**filters)


__all__ = ["SCHEMA_VERSION", "Archive", "ArchiveError", "Filters", "ImportStats",
           "add_puzzles", "db_path", "iter_puzzles"]
