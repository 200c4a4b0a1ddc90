"""Reading an archive without sqlite-utils: ``archive query``, ``stats``, ``export`` and
``puzzles`` open it read-only through ``kifu.archive.schema.ReadOnlyDatabase``, which must
answer exactly as ``sqlite_utils.Database`` does for what reading uses (``execute``,
``query``, ``table_names``), and those commands must not import sqlite-utils (with it
numpy, dateutil, pluggy and a search for plugins: more than half of every such call)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlite_utils
from import_helpers import loaded_modules

from kifu import games
from kifu.archive import Archive, add_puzzles
from kifu.archive.schema import ReadOnlyDatabase, connect
from kifu.notation.puzzle import load_puzzles

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("ro") / "a.db")
    files = [str(p) for g in games.ids() for p in sorted((FIX / g).glob("*.kifu"))[:4]]
    with Archive(path) as a:
        a.import_paths(files, positions=True)
    add_puzzles([lp.puzzle for lp in load_puzzles(str(FIX / "puzzles" / "tweak.kifu"))],
                db=path)
    return path


QUERIES = [
    ("SELECT * FROM records ORDER BY id", None),
    ("SELECT id, game, winner FROM records WHERE game = ? ORDER BY id", ["tweak"]),
    ("SELECT name, count(*) AS n FROM record_players GROUP BY name ORDER BY name", ()),
    ("SELECT * FROM puzzles WHERE id > :id ORDER BY id", {"id": 1}),
    ("SELECT * FROM records WHERE id < 0", None),
    ("SELECT rowid FROM records_fts WHERE records_fts MATCH ?", ["the"]),
]


@pytest.mark.parametrize(("sql", "params"), QUERIES)
def test_read_only_database_answers_as_sqlite_utils(archive: str, sql: str, params) -> None:
    ours = connect(archive, readonly=True)
    theirs = sqlite_utils.Database(sqlite3.connect(archive))
    try:
        assert isinstance(ours, ReadOnlyDatabase)
        assert list(ours.query(sql, params)) == list(theirs.query(sql, params))
        assert ours.execute(sql, params).fetchall() == theirs.execute(sql, params).fetchall()
        assert sorted(ours.table_names()) == sorted(theirs.table_names())
    finally:
        ours.close()
        theirs.close()


def test_read_only_database_refuses_to_write(archive: str) -> None:
    db = connect(archive, readonly=True)
    try:
        with pytest.raises(sqlite3.OperationalError):
            db.execute("DELETE FROM records")
    finally:
        db.close()




@pytest.mark.parametrize("command", [["archive", "query"], ["archive", "stats"],
                                     ["archive", "export"], ["archive", "puzzles"]])
def test_reading_commands_do_not_import_sqlite_utils(archive: str,
                                                     command: list[str]) -> None:
    loaded = loaded_modules([*command, "--db", archive])
    assert "kifu.archive.store" in loaded  # the command did open the archive
    assert [m for m in loaded if m.split(".")[0] in ("sqlite_utils", "numpy")] == []


def test_writing_still_uses_sqlite_utils(tmp_path: Path) -> None:
    loaded = loaded_modules(["archive", "import", "--db", str(tmp_path / "w.db"), "-q",
                      str(sorted((FIX / "tweak").glob("*.kifu"))[0])])
    assert "sqlite_utils" in loaded
