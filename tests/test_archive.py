"""The archive: import and export round trip, dedupe, invalid records, queries, puzzles,
schema versions, crash safety, concurrent importers, Datasette."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.archive import Archive, ArchiveError, Filters, add_puzzles, iter_puzzles
from kifu.archive.rows import comments_of
from kifu.archive.schema import SCHEMA_VERSION
from kifu.cli.main import cli
from kifu.notation.reader import read_records
from kifu.notation.record import format_record, identity_text, split_players
from kifu.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
VALID = sorted(p for g in games.ids() for p in (FIX / g).glob("*.kifu"))


def fixture_records():
    return [loc.record for p in VALID for loc in read_records(p.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """An archive of every valid fixture, with the position index."""
    path = str(tmp_path_factory.mktemp("arch") / "fx.db")
    with Archive(path) as a:
        stats = a.import_paths([str(p) for p in VALID], positions=True)
    return path, stats


def test_import_then_export_reproduces_every_canonical_record(filled) -> None:
    path, stats = filled
    seen, expected = set(), []
    for rec in fixture_records():  # one game: the same text but for comments
        if identity_text(rec) not in seen:
            seen.add(identity_text(rec))
            expected.append(format_record(rec))
    assert stats.imported == len(expected) and stats.invalid == 0
    with Archive(path, readonly=True) as a:
        assert list(a.export()) == expected
    out = CliRunner().invoke(cli, ["archive", "export", "--db", path])
    assert out.exit_code == 0 and out.stdout == "\n".join(expected)


def test_duplicates_skipped_and_invalid_reported(tmp_path) -> None:
    path = str(tmp_path / "d.db")
    good = VALID[0].read_text(encoding="utf-8")
    bad = good.replace('[Result "', '[Result "7', 1)
    (tmp_path / "in.kifu").write_text(good + "\n" + good + "\n" + bad)
    errors = []
    with Archive(path) as a:
        s = a.import_paths([str(tmp_path / "in.kifu")], on_error=errors.append)
        assert (s.imported, s.duplicates, s.invalid) == (1, 1, 1)
        assert errors[0]["record"] == 3 and "Result" in errors[0]["error"]
        assert errors[0]["error"].startswith(f"{tmp_path / 'in.kifu'}:")
        s = a.import_paths([str(tmp_path / "in.kifu")])
        assert (s.imported, s.duplicates) == (0, 2)
        assert a.stats()["records"] == 1


def test_duplicates_inside_and_across_batches_keep_ids_and_seats_straight(tmp_path) -> None:
    """New rows among duplicates (of stored rows and of each other, in one batch) get
    consecutive ids in file order, and each row's seats are its own players."""
    games_by_identity = {identity_text(r): format_record(r) for r in fixture_records()
                         if r.players}
    texts = list(games_by_identity.values())[:12]
    first, second = texts[:5], [texts[6], texts[2], texts[7], texts[6], texts[0], texts[8]]
    (tmp_path / "a.kifu").write_text("\n".join(first))
    (tmp_path / "b.kifu").write_text("\n".join(second))
    path = str(tmp_path / "ids.db")
    with Archive(path) as a:
        assert a.import_paths([str(tmp_path / "a.kifu")]).imported == 5
        s = a.import_paths([str(tmp_path / "b.kifu")], batch_rows=100)
        assert (s.imported, s.duplicates) == (3, 3)
    con = sqlite3.connect(path)
    stored = con.execute("SELECT id, text, players FROM records ORDER BY id").fetchall()
    assert [i for i, _, _ in stored] == list(range(1, 9))
    assert [t for _, t, _ in stored] == [*first, texts[6], texts[7], texts[8]]
    for rid, _, players in stored:
        seats = con.execute("SELECT name FROM record_players WHERE record_id = ? ORDER BY seat",
                            [rid]).fetchall()
        assert [n for (n,) in seats] == split_players(players)
    con.close()


def _dump(path: str) -> list[str]:
    """The archive as ``sqlite3 .dump`` gives it, but the migrations' timestamps."""
    con = sqlite3.connect(path)
    try:
        return [line for line in con.iterdump() if "_kifu_migrations" not in line]
    finally:
        con.close()


@pytest.mark.parametrize("positions", [False, True])
def test_one_process_or_two_store_the_same_archive(tmp_path, positions) -> None:
    """Records of every game, puzzles, invalid records, duplicates of stored rows and of
    each other (inside a batch and across batches): the workers pack the rows, the writer
    gives the ids; the database is the same whatever ``workers``."""
    games_by_identity = {identity_text(r): format_record(r) for r in fixture_records()
                         if r.players}
    texts = list(games_by_identity.values())
    (tmp_path / "a.kifu").write_text("\n".join(texts[::2]))
    mixed = [texts[1], texts[0], texts[3], texts[1], *texts[4:40], texts[2], texts[5]]
    (tmp_path / "b.kifu").write_text("\n".join(mixed))
    inputs = [str(tmp_path / "a.kifu"), str(FIX), str(tmp_path / "b.kifu")]
    dumps, results = [], []
    for workers in (1, 2):
        path = str(tmp_path / f"w{workers}.db")
        errors: list[dict] = []
        with Archive(path) as a:
            first = a.import_paths(inputs[:1], workers=workers, positions=positions)
            stats = a.import_paths(inputs, workers=workers, positions=positions,
                                   batch_rows=25, chunk_records=7, on_error=errors.append)
        dumps.append(_dump(path))
        results.append((first, stats, errors))
    assert results[0] == results[1]
    first, stats, errors = results[0]
    assert first.imported == len(texts[::2]) and stats.duplicates > first.imported
    assert stats.invalid == len(errors) > 0 and stats.puzzles > 0
    assert dumps[0] == dumps[1]
    con = sqlite3.connect(str(tmp_path / "w2.db"))
    ids = [i for (i,) in con.execute("SELECT id FROM records ORDER BY id")]
    assert ids == list(range(1, len(ids) + 1))
    seats = con.execute("SELECT coalesce(sum(nplayers), 0) FROM records").fetchone()[0]
    assert con.execute("SELECT count(*) FROM record_players").fetchone()[0] == seats
    con.close()


def test_a_failed_batch_write_leaves_the_gc_as_it_was(tmp_path, monkeypatch) -> None:
    """Writing a batch pauses the cyclic GC; a write that fails (here: the archive stays
    locked) must not leave it paused."""
    import gc

    from kifu.archive import store

    def locked(self, *args):
        raise sqlite3.OperationalError("database is locked")

    with Archive(str(tmp_path / "gc.db")) as a:
        monkeypatch.setattr(store.Archive, "_write_batch", locked)
        assert gc.isenabled()
        with pytest.raises(sqlite3.OperationalError):
            a.import_paths([str(VALID[0])])
        assert gc.isenabled()


def _ids(path: str, **kw) -> list[int]:
    with Archive(path, readonly=True) as a:
        return [r["id"] for r in a.query(Filters(**kw), columns=("id",))]


def _expected(pred) -> list[int]:
    """Archive ids (import order, after dedupe) of the fixture records passing ``pred``."""
    out, seen = [], set()
    for rec in fixture_records():
        text = identity_text(rec)  # one game, whatever its comments
        if text in seen:
            continue
        seen.add(text)
        if pred(rec):
            out.append(len(seen))
    return out


def test_query_by_game_player_result_tag(filled) -> None:
    path, _ = filled
    for gid in games.ids():
        got = _ids(path, game=gid)
        assert got and got == _expected(lambda r, g=gid: r.headers["Game"] == g)
    some = fixture_records()[3]
    name = split_players(some.headers["Players"])[0]
    assert _ids(path, player=name) == _expected(
        lambda r: name in split_players(r.headers["Players"]))
    result = some.headers["Result"]
    assert _ids(path, result=result) == _expected(lambda r: r.headers["Result"] == result)
    rules = some.headers["Rules"]
    assert _ids(path, tags=[("Rules", rules)], game=some.headers["Game"]) == _expected(
        lambda r: r.headers["Rules"] == rules)
    n = len(some.moves)
    assert _ids(path, min_plies=n, max_plies=n) == _expected(lambda r: len(r.moves) == n)


def test_query_by_comment_text(filled) -> None:
    path, _ = filled
    rec = next(r for r in fixture_records() if comments_of(r))
    word = max(comments_of(rec).split(), key=len).strip(".,:;()!?'\"")
    got = _ids(path, text=f'"{word}"')
    assert got and got == _expected(lambda r: word.lower() in (comments_of(r) or "").lower())


def test_query_by_position_reached(filled) -> None:
    path, _ = filled
    rec = fixture_records()[5]
    states = replay(rec, upto=7)
    line = states.state.to_line()

    def reaches(r) -> bool:
        n = len(r.moves)
        for k in range(1, n + 1):
            if replay(r, upto=k, check_result=False).state.to_line() == line:
                return True
        return False

    got = _ids(path, position=line)
    assert got and got == _expected(reaches)
    r = CliRunner().invoke(cli, ["archive", "query", "--db", path, "--position", line,
                                 "-f", "json"])
    assert r.exit_code == 0 and len(r.stdout.strip().split("\n")) == len(got)


def test_sql_is_read_only_and_stats(filled) -> None:
    path, stats = filled
    runner = CliRunner()
    r = runner.invoke(cli, ["archive", "query", "--db", path, "--sql",
                            "select count(*) as n from records", "-f", "json"])
    assert r.exit_code == 0 and r.stdout.strip() == f'{{"n": {stats.imported}}}'
    r = runner.invoke(cli, ["archive", "query", "--db", path, "--sql", "delete from records"])
    assert r.exit_code != 0
    with Archive(path, readonly=True) as a:
        s = a.stats()
        assert s["records"] == stats.imported
        assert {g["game"] for g in s["games"]} == set(games.ids())


PUZZLE = {
    "Game": "tweak", "Rules": "tweak/1",
    "Position": "tweak/1 T0 r1d1 t7 0,0 R6O5G4/R2O2Y2 R3Y1 G5G6G1 - -/- -/-",
    "Question": "tweak-this-turn", "Answer": "forced", "Difficulty": "nodes=5",
    "Source": "x.kifu#1@ply3",
}


def test_puzzles_table(tmp_path) -> None:
    db = str(tmp_path / "p.db")
    s = add_puzzles([PUZZLE, dict(PUZZLE), {**PUZZLE, "Question": "tweak-within 2"}], db=db)
    assert (s.puzzles, s.puzzle_duplicates) == (2, 1)
    got = list(iter_puzzles(db=db, question="tweak-within"))
    assert [p["question"] for p in got] == ["tweak-within 2"]
    assert got[0]["position"] == PUZZLE["Position"] and got[0]["text"].startswith('[Game "tweak"]')


def test_bundled_puzzle_files_import_checked_and_canonical(tmp_path) -> None:
    from kifu.notation.puzzle import format_puzzle, load_puzzles

    files = sorted((FIX / "puzzles").glob("*.kifu"))
    if not files:
        pytest.skip("no bundled puzzle files (fixtures/puzzles) on this branch")
    db = str(tmp_path / "pz.db")
    with Archive(db) as a:
        s = a.import_paths([str(f) for f in files])
        assert s.invalid == 0 and s.imported == 0
        want = [format_puzzle(lp.puzzle) for f in files for lp in load_puzzles(str(f))]
        got = [p["text"] for p in a.iter_puzzles()]
        assert got == list(dict.fromkeys(want)) and s.puzzles == len(got)
    # Puzzle structs (what kifu puzzles generate --db stores) dedupe against the same text
    again = add_puzzles([lp.puzzle for f in files for lp in load_puzzles(str(f))], db=db)
    assert again.puzzles == 0 and again.puzzle_duplicates == len(want)
    # a puzzle with an unknown question is reported (located) and not stored
    bad = files[0].read_text(encoding="utf-8").split("\n\n[Game")[0]
    (tmp_path / "bad.kifu").write_text(bad.replace('[Question "', '[Question "no-such-', 1))
    errors = []
    with Archive(db) as a:
        s = a.import_paths([str(tmp_path / "bad.kifu")], on_error=errors.append)
    assert s.invalid == 1 and s.puzzles == 0 and "unknown question" in errors[0]["error"]


def test_newer_schema_is_refused(tmp_path) -> None:
    db = str(tmp_path / "n.db")
    Archive(db).close()
    con = sqlite3.connect(db)
    con.execute("UPDATE _kifu_meta SET value = ? WHERE key = 'schema_version'",
                [str(SCHEMA_VERSION + 1)])
    con.commit()
    con.close()
    for ro in (False, True):
        with pytest.raises(ArchiveError, match="newer than this kifu"):
            Archive(db, readonly=ro)
    r = CliRunner().invoke(cli, ["archive", "stats", "--db", db])
    assert r.exit_code == 1 and "upgrade kifu" in r.stderr


V2_RECORD_COLUMNS = ("id, hash, game, rules, players, nplayers, date, result, winner, plies, "
                     "tags, comments, text, source")
"""The columns of ``records`` in schema versions 1 and 2."""


def _rows(p: str) -> list:
    """Every row of the archive's tables, sorted, for comparing two archives."""
    con = sqlite3.connect(p)
    try:
        return [sorted(con.execute(f"SELECT {cols} FROM {t}").fetchall()) for t, cols in (
            ("records", "*"), ("record_players", "record_id, seat, name, score, rank, won, turn"),
            ("puzzles", "*"), ("positions", "*"))]
    finally:
        con.close()


def _old_archive(path: str, old: str, version: int, player_columns: str):
    """An archive at ``old`` built by the schema up to ``version``, holding the rows of the
    archive at ``path`` (record_players' columns in that version's order)."""
    import sqlite_utils

    from kifu.archive import schema

    db = sqlite_utils.Database(old)
    assert schema.migrate(db, old, upto=version) == version
    db.execute("ATTACH DATABASE ? AS cur", [path])
    for table in ("puzzles", "positions"):
        db.execute(f"INSERT INTO {table} SELECT * FROM cur.{table}")
    db.execute(f"INSERT INTO records SELECT {V2_RECORD_COLUMNS} FROM cur.records")
    db.execute(f"INSERT INTO record_players ({player_columns}) "
               f"SELECT {player_columns} FROM cur.record_players")
    db.conn.commit()
    db.execute("DETACH DATABASE cur")
    return db


def test_version_1_archive_is_migrated_keeping_every_row(filled, tmp_path) -> None:
    """An archive written by schema version 1 (record_players a rowid table) opens as the
    current version with the same rows, and answers the same player queries."""
    path, _ = filled
    old = str(tmp_path / "v1.db")
    db = _old_archive(path, old, 1, "record_id, seat, name")
    assert "WITHOUT ROWID" not in db["record_players"].schema
    db.close()

    with Archive(old) as a:
        assert a.stats()["schema_version"] == SCHEMA_VERSION
    assert _rows(old) == _rows(path) and _rows(old)[1]
    con = sqlite3.connect(old)
    assert [v for (v,) in con.execute("SELECT version FROM _kifu_migrations ORDER BY 1")] == \
        list(range(1, SCHEMA_VERSION + 1))
    assert "WITHOUT ROWID" in con.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'record_players'").fetchone()[0]
    con.close()
    for name in {n for r in fixture_records() for n in r.players}:
        assert _ids(old, player=name) == _ids(path, player=name) != []


def test_datasette_reads_the_archive(filled) -> None:
    datasette_app = pytest.importorskip("datasette.app", reason="datasette (test extra)")
    path, stats = filled

    async def fetch():
        ds = datasette_app.Datasette([path], settings={"max_returned_rows": 10})
        name = Path(path).stem
        r = await ds.client.get(f"/{name}/records.json?_shape=array&_size=3&_col=hash")
        q = await ds.client.get(f"/{name}.json?sql=select+count(*)+as+n+from+records"
                                "&_shape=array")
        return r, q

    r, q = asyncio.run(fetch())
    assert r.status_code == 200 and len(r.json()) == 3 and len(r.json()[0]["hash"]) == 64
    assert q.status_code == 200 and q.json() == [{"n": stats.imported}]


# --- crash safety and concurrency (subprocesses) -------------------------------------------

def _many(tmp_path: Path, n: int, tag: str) -> Path:
    """``n`` distinct valid records: small fixtures, each with its own Event tag."""
    base = [p.read_text(encoding="utf-8") for p in VALID if "single-round-2p" in p.name
            or "2p-tie" in p.name]
    out = []
    for k in range(n):
        t = base[k % len(base)]
        out.append(t.replace("\n\n", f'\n[Event "{tag} {k}"]\n\n', 1))
    path = tmp_path / f"{tag}.kifu"
    path.write_text("\n".join(out))
    return path


def _kifu(*args: str) -> list[str]:
    return [sys.executable, "-c", "from kifu.cli.main import main; main()", *args]


def _count(db: str) -> int:
    try:
        con = sqlite3.connect(db, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM records").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def test_sigkill_mid_import_keeps_whole_records_and_resumes(tmp_path) -> None:
    n, batch = 4000, 40
    src = _many(tmp_path, n, "k")
    db = str(tmp_path / "k.db")
    proc = subprocess.Popen(_kifu("archive", "import", str(src), "--db", db, "-q",
                                  "--batch-rows", str(batch)))
    deadline = time.time() + 60
    while _count(db) < batch and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = con.execute("SELECT count(*) FROM records").fetchone()[0]
    assert 0 < kept < n, "the import was not caught half-way"
    assert kept % batch == 0  # whole transactions only
    seats = con.execute("SELECT coalesce(sum(nplayers), 0) FROM records").fetchone()[0]
    assert con.execute("SELECT count(*) FROM record_players").fetchone()[0] == seats
    for text, h in con.execute("SELECT text, hash FROM records"):
        (loc,) = read_records(text)
        assert format_record(loc.record) == text and len(h) == 64
    con.close()
    r = subprocess.run(_kifu("archive", "import", str(src), "--db", db), capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert f"{n - kept} record(s) imported, {kept} duplicate(s)" in r.stdout
    assert _count(db) == n


def test_two_importers_at_once(tmp_path) -> None:
    a, b = _many(tmp_path, 600, "a"), _many(tmp_path, 600, "b")
    both = tmp_path / "ab.kifu"
    both.write_text(a.read_text() + "\n" + b.read_text())
    db = str(tmp_path / "c.db")
    procs = [subprocess.Popen(_kifu("archive", "import", str(p), "--db", db, "--batch-rows",
                                    "50"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for p in (a, both)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert _count(db) == 1200
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(DISTINCT hash) FROM records").fetchone()[0] == 1200
    con.close()


def _lock_for(calls: int):
    """A stand-in for ``Database.enable_wal`` that says "database is locked" ``calls``
    times (as SQLite does, without waiting, to a second process opening a file the first
    is switching to WAL), then switches."""
    real = __import__("sqlite_utils").Database.enable_wal
    seen = []

    def enable_wal(self):
        seen.append(1)
        if len(seen) <= calls:
            raise sqlite3.OperationalError("database is locked")
        return real(self)
    return enable_wal, seen


def test_opening_waits_out_a_lock_met_while_switching_to_wal(tmp_path, monkeypatch) -> None:
    import sqlite_utils
    enable_wal, seen = _lock_for(3)
    monkeypatch.setattr(sqlite_utils.Database, "enable_wal", enable_wal)
    with Archive(str(tmp_path / "w.db")) as a:
        assert a.db.journal_mode == "wal"
    assert len(seen) == 4


def test_a_lasting_lock_is_reported_as_a_lock(tmp_path, monkeypatch) -> None:
    import sqlite_utils

    from kifu.archive import schema
    enable_wal, _ = _lock_for(10**9)
    monkeypatch.setattr(sqlite_utils.Database, "enable_wal", enable_wal)
    monkeypatch.setattr(schema, "BUSY_MS", 50)
    with pytest.raises(ArchiveError, match="locked by another process") as e:
        Archive(str(tmp_path / "w.db"))
    assert "not a kifu archive" not in str(e.value)


def test_solve_reads_puzzles_from_the_archive(tmp_path) -> None:
    src = FIX / "puzzles" / "tweak.kifu"
    if not src.exists():
        pytest.skip("no bundled TWEAK puzzles on this branch")
    db = str(tmp_path / "s.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["archive", "import", "-q", "--db", db, str(src)]).exit_code == 0
    r = runner.invoke(cli, ["solve", "--db", db, "tweak", "--check"])
    n = sum(1 for line in src.read_text().split("\n") if line.startswith("[Game"))
    assert r.exit_code == 0 and f"{n} puzzle(s), {n} answer(s) verified" in r.stdout


def test_version_2_archive_gains_per_seat_results_and_the_identity(filled, tmp_path) -> None:
    """An archive of schema version 2 (no per-seat results; records hashed with their
    comments) opens as the current version: every finished record's seats get their score,
    rank and won, records their winner_seats, and a record with comments its identity hash
    (so re-importing it is a duplicate). Two stored records that differ only in comments
    both stay."""
    import hashlib

    path, _ = filled
    old = str(tmp_path / "v2.db")
    db = _old_archive(path, old, 2, "name, record_id, seat")
    assert "score" not in db["record_players"].columns_dict
    # version 2 hashed the whole canonical text, comments included
    for rid, text in db.execute("SELECT id, text FROM records").fetchall():
        db.execute("UPDATE records SET hash = ? WHERE id = ?",
                   [hashlib.sha256(text.encode()).hexdigest(), rid])
    # the same game again, annotated differently: version 2 stored it as another record
    rid, text = db.execute("SELECT id, text FROM records WHERE comments IS NOT NULL AND "
                           "result != '*' ORDER BY id LIMIT 1").fetchone()
    annotated = text.replace("{", "{annotated later: ", 1)
    new_id = db.execute("SELECT max(id) + 1 FROM records").fetchone()[0]
    db.execute(f"INSERT INTO records ({V2_RECORD_COLUMNS}) SELECT ?, ?, game, rules, players, "
               "nplayers, date, result, winner, plies, tags, 'annotated later', ?, 'x:1' "
               "FROM records WHERE id = ?",
               [new_id, hashlib.sha256(annotated.encode()).hexdigest(), annotated, rid])
    db.execute("INSERT INTO record_players (name, record_id, seat) SELECT name, ?, seat "
               "FROM record_players WHERE record_id = ?", [new_id, rid])
    db.conn.commit()
    db.close()

    with Archive(old) as a:
        assert a.stats()["schema_version"] == SCHEMA_VERSION
    got, want = _rows(old), _rows(path)
    extra = [r for r in got[0] if r[0] == new_id]
    assert [r for r in got[0] if r[0] != new_id] == want[0]  # hashes, winner_seats equal
    assert [r for r in got[1] if r[0] != new_id] == want[1]  # every seat's score/rank/won
    assert got[2:] == want[2:]
    # the annotated twin keeps its row and its old hash; its seats got their results
    assert extra and extra[0][1] == hashlib.sha256(annotated.encode()).hexdigest()
    assert [r[3:] for r in got[1] if r[0] == new_id] == [r[3:] for r in got[1] if r[0] == rid]
    con = sqlite3.connect(old)
    assert con.execute("SELECT count(*) FROM record_players WHERE won IS NULL AND record_id "
                       "IN (SELECT id FROM records WHERE result != '*')").fetchone()[0] == 0
    assert "WITHOUT ROWID" in con.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'record_players'").fetchone()[0]
    con.close()
    # importing the fixtures again adds nothing: every game is there already
    with Archive(old) as a:
        s = a.import_paths([str(p) for p in VALID])
    assert s.imported == 0 and s.duplicates == s.read


def test_an_annotated_record_is_the_same_game(tmp_path) -> None:
    """The identity rule of docs/archive.md: comments (on the record or on actions) and
    layout do not make another game; another header value or action does."""
    text = (FIX / "tweak" / "single-round-3p.kifu").read_text(encoding="utf-8")
    rec = next(iter(read_records(text))).record
    annotated = text.replace("\n\nd ", "\n\n{annotated by Ann}\nd ", 1)
    lines = annotated.split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith("p1 "))
    lines[k] += " {a fine capture}"
    annotated = "\n".join(lines)
    other = text.replace("[Date ", '[Event "club"]\n[Date ', 1)
    db = str(tmp_path / "a.db")
    (tmp_path / "a.kifu").write_text(text)
    (tmp_path / "b.kifu").write_text(annotated)
    (tmp_path / "c.kifu").write_text(other)
    with Archive(db) as a:
        assert a.import_paths([str(tmp_path / "a.kifu")]).imported == 1
        s = a.import_paths([str(tmp_path / "b.kifu")])
        assert (s.imported, s.duplicates) == (0, 1)
        assert a.import_paths([str(tmp_path / "c.kifu")]).imported == 1
        assert next(iter(a.export())) == format_record(rec)  # the first copy is kept
    r = CliRunner().invoke(cli, ["archive", "import", "--db", str(tmp_path / "b.db"),
                                 str(tmp_path / "b.kifu"), str(tmp_path / "a.kifu")])
    assert "1 record(s) imported, 1 duplicate(s)" in r.stdout


def test_per_seat_results_and_their_queries(filled) -> None:
    path, _ = filled
    con = sqlite3.connect(path)
    for rid, result, seats, n in con.execute(
            "SELECT id, result, winner_seats, nplayers FROM records WHERE result != '*'"):
        rows = con.execute("SELECT seat, score, rank, won FROM record_players WHERE "
                           "record_id = ? ORDER BY seat", [rid]).fetchall()
        assert len(rows) == n
        if " " in result or n == 1 or result.lstrip("-").isdigit():
            assert [str(r[1]) for r in rows] == result.split()[:n] or "team" in result
        assert seats == ",".join(str(r[0]) for r in rows if r[2] == 1)
        assert all(r[3] == (r[2] == 1) for r in rows)
    con.close()
    with Archive(path, readonly=True) as a:
        by_seat = {s: [r["id"] for r in a.query(Filters(winner_seat=s), columns=("id",))]
                   for s in range(6)}
        for s, ids in by_seat.items():
            for rid in ids:
                assert str(s) in a.db.execute("SELECT winner_seats FROM records WHERE id = ?",
                                              [rid]).fetchone()[0].split(",")
        assert sum(map(len, by_seat.values())) >= len(list(a.query(Filters(), ("id",)))) - 10
        name = "greedy"
        won = {r["id"] for r in a.query(Filters(player=name, won=True), ("id",))}
        played = {r["id"] for r in a.query(Filters(player=name), ("id",))}
        assert won and won < played
        for rid in won:
            assert a.db.execute("SELECT count(*) FROM record_players WHERE name = ? AND "
                                "record_id = ? AND won = 1", [name, rid]).fetchone()[0]
    r = CliRunner().invoke(cli, ["archive", "query", "--db", path, "--winner-seat", "0",
                                 "-f", "json"])
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == len(by_seat[0])
    r = CliRunner().invoke(cli, ["archive", "query", "--db", path, "--won"])
    assert r.exit_code == 1 and "--won needs --player" in r.stderr


def test_stats_give_each_seats_win_rate_with_its_interval(filled) -> None:
    path, _ = filled
    r = CliRunner().invoke(cli, ["archive", "stats", "--db", path, "--json"])
    seats = __import__("json").loads(r.stdout)["seats"]
    assert seats
    con = sqlite3.connect(path)
    for row in seats:
        finished, won = con.execute(
            "SELECT count(*), sum(p.won) FROM record_players p JOIN records r ON "
            "r.id = p.record_id WHERE r.game = ? AND r.nplayers = ? AND p.seat = ? AND "
            "r.result != '*'", [row["game"], row["players"], row["seat"]]).fetchone()
        assert (row["finished"], row["won"]) == (finished, won)
        assert row["low"] <= row["rate"] <= row["high"]
        assert row["rate"] == round(won / finished, 4)
    # every finished game has a winner: the seats' wins add up to at least the games
    for _key, group in __import__("itertools").groupby(seats, lambda s: (s["game"],
                                                                        s["players"])):
        rows = list(group)
        assert sum(s["won"] for s in rows) >= rows[0]["finished"]
    con.close()
    text = CliRunner().invoke(cli, ["archive", "stats", "--db", path]).stdout
    assert "seat win rates" in text and "95% interval" in text


def test_wilson_interval_against_a_brute_force() -> None:
    """The interval (kifu.lab.stats's closed form) is the set of p whose score test does
    not reject: checked at its ends against the test statistic itself."""
    from statistics import NormalDist

    from kifu.archive.store import wilson_interval

    z = NormalDist().inv_cdf(0.975)
    for k, n in ((0, 5), (3, 5), (7, 10), (50, 100), (99, 100), (1, 1)):
        def inside(p: float, k: int = k, n: int = n) -> bool:
            return abs(k - n * p) <= z * (n * p * (1 - p)) ** 0.5 + 1e-12

        lo, hi = wilson_interval(k, n)
        assert inside(min(1.0, lo + 1e-6)) and inside(max(0.0, hi - 1e-6))
        assert lo < 1e-9 or not inside(lo - 1e-4)
        assert hi > 1 - 1e-9 or not inside(hi + 1e-4)
