"""``kifu archive query``: every SQLite error is one line with exit code 1, ``--sql`` runs
one read-only statement within a time limit, a value size and a memory bound, and Ctrl-C
stops it; every option is fuzzed (issue 21, class 6)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fuzz"))

import targets  # noqa: E402

from kifu.cli.main import cli  # noqa: E402
from kifu.core.errors import KifuError  # noqa: E402

ENDLESS = ("with recursive c(x) as (select 1 union all select x + 1 from c) "
           "select count(*) from c")


@pytest.fixture(scope="module")
def db() -> str:
    return targets.query_archive()


def query(db: str, *args: str):
    return CliRunner().invoke(cli, ["archive", "query", "--db", db, *args])


def one_line(r, *parts: str) -> str:
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("args, says", [
    (("--text", '"'), ("--text '\"': not a full-text query",)),
    (("--text", "a:b"), ("not a full-text query",)),
    (("--text", "AND"), ("not a full-text query",)),
    (("--limit", str(2**63)), ("--limit: 9223372036854775808 is out of range",)),
    (("--limit", "-1"), ("--limit: -1 is out of range",)),
    (("--min-plies", str(2**64)), ("--min-plies",)),
    (("--max-plies", str(-(2**63) - 1)), ("--max-plies",)),
    (("--sql", "select 1; select 2"), ("--sql: give one statement only",)),
    (("--sql", "delete from records"), ("read-only query (SELECT)", "delete records")),
    (("--sql", "insert into records (id) values (1)"), ("insert records",)),
    (("--sql", "drop table records"), ("read-only",)),
    (("--sql", "pragma query_only = 0"), ("pragma query_only = 0",)),
    (("--sql", "pragma hard_heap_limit = 0"), ("pragma hard_heap_limit = 0",)),
    (("--sql", "attach database 'x.db' as x"), ("attach",)),
    (("--sql", "begin"), ("read-only",)),
    (("--sql", "select zeroblob(1000000000)"), ("string or blob too big", "64 MiB")),
    (("--sql", "select * from nowhere"), ("--sql: no such table: nowhere",)),
    (("--sql", "   "), ("--sql: the query is empty",)),
    (("--sql", ENDLESS, "--timeout", "0.3"), ("stopped after 0.3 s of work",)),
    (("--timeout", "nan", "--sql", "select 1"), ("--timeout: not a number",)),
    (("--sql", "select text from records", "-f", "records", "--limit", "1", "--game", "x"), ()),
])
def test_sqlite_errors_are_one_line(db: str, args: tuple[str, ...],
                                    says: tuple[str, ...]) -> None:
    r = query(db, *args)
    if not says:
        assert r.exit_code == 0, r.output
        return
    one_line(r, *says)


def test_sql_takes_limit(db: str) -> None:
    r = query(db, "--sql", "select id from records", "--limit", "2", "-f", "json")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 2


def test_json_holds_blobs_and_infinities(db: str) -> None:
    r = query(db, "--sql", "select x'00ff' as b, 1e999 as f, 'é' as t", "-f", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"b": {"$base64": True, "encoded": "AP8="}, "f": "inf",
                                    "t": "é"}
    one_line(query(db, "--sql", "select 1 as text", "-f", "records"), "-f records needs")


def test_db_naming_a_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for db in (".", str(tmp_path)):
        for cmd in (["query"], ["stats"], ["export"], ["puzzles"], ["import", "-"]):
            r = CliRunner().invoke(cli, ["archive", *cmd, "--db", db], input="")
            one_line(r, "is a directory")


def test_limits_are_restored_after_a_query(db: str) -> None:
    from kifu.archive import Archive

    with Archive(db, readonly=True) as a:
        import sqlite3

        before = a.db.conn.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
        with pytest.raises(KifuError, match="string or blob too big"):
            a.sql("select zeroblob(100000000)")
        names, rows = a.sql("select id from records")
        assert names == ["id"] and len(list(rows)) > 3
        assert a.db.conn.getlimit(sqlite3.SQLITE_LIMIT_LENGTH) == before
        a.db.execute("select zeroblob(100000000)").fetchone()  # the library's own reads


def test_time_counts_sqlite_work_not_the_reader(db: str) -> None:
    """A reader slower than --timeout does not stop a query whose own work is quick."""
    from kifu.archive import Archive

    with Archive(db, readonly=True) as a:
        _names, rows = a.sql("select id from records", timeout=0.2)
        got = []
        for row in rows:
            time.sleep(0.05)  # a slow pipe
            got.append(row)
        assert len(got) > 5


def test_ctrl_c_stops_an_endless_query(db: str) -> None:
    """SIGINT during a query that never returns a row: one line, exit code 1, at once."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "kifu.cli.main", "archive", "query", "--db", db, "--sql",
         ENDLESS, "--timeout", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(2)  # started, and inside SQLite (asserted: it has not ended)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    assert proc.returncode == 1, err
    assert err.strip() == "--sql: interrupted"


def test_a_full_disk_during_import_is_one_line(tmp_path: Path) -> None:
    """SQLite cannot grow the archive: one line naming the archive and what was kept."""
    from fs_helpers import fill, small_tmpfs

    from kifu.archive import Archive

    big = tmp_path / "many.kifu"
    r = CliRunner().invoke(cli, ["play", "tweak", "-n", "2", "--games", "60", "--silent",
                                 "-o", str(big)])
    assert r.exit_code == 0
    with small_tmpfs(tmp_path, "512k") as tiny:
        db = tiny / "a.db"
        with Archive(str(db)):
            pass
        fill(tiny, leave=150_000)
        r = CliRunner().invoke(cli, ["archive", "import", str(big), "--db", str(db),
                                     "--batch-rows", "5"])
        line = one_line(r, f"{db}: cannot write: database or disk is full")
        kept = int(line.split("the ")[-1].split(" record(s)")[0])
        with Archive(str(db), readonly=True) as a:
            assert 0 < kept < 60 and a.stats()["records"] == kept  # whole batches only
            assert os.path.getsize(db) > 0


# --- fuzzing every option -----------------------------------------------------------------------

VALUES = st.one_of(
    st.sampled_from(["", "tweak", "graph-t", "p1", "*", "-1", "0", "5", str(2**63), str(-(2**63)),
                     "9" * 400, "nan", "inf", "1e999", "0.05", "2026.11.23", "x=y", "Seed=7",
                     '"', "NEAR(a b)", "a:b", "*x", "select 1", "select 1;", "pragma",
                     "select zeroblob(70000000)", "select x'ff'", ENDLESS, "\x00", "\udcff",
                     "é", "tweak/1 T0 r1d1 t7 0,0 R6O5G4/R2O2Y2 R3Y1 G5G6G1 - -/- -/-"]),
    st.text(max_size=40),
)
OPTIONS = st.sampled_from([*targets.QUERY_OPTIONS, "--format", "--db", "--nope", "-x"])


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(OPTIONS, VALUES), max_size=5))
def test_every_option_fuzzed(db: str, pairs: list[tuple[str, str]]) -> None:
    """Random option lines: exit code 0, 1 or 2, never a traceback, errors of one line.
    (The atheris target ``archive_query`` gets 2,000 inputs in tests/test_fuzz.py.)"""
    args = []
    for option, value in pairs:
        if option == "--db":
            value = str(ROOT / "pyproject.toml") if value else db
        if option == "--timeout":
            value = "0.2"
        args += [option, value.encode("utf-8", "replace").decode("utf-8")]
    r = query(db, *args, "--timeout", "0.3")
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
    assert r.exit_code in (0, 1, 2), (args, r.output)
    assert "Traceback" not in r.output
    if r.exit_code == 1:
        assert len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
