"""``kifu archive export --format parquet|jsonl`` (issue 39): the tables read back with
DuckDB and Polars agree with SQLite (counts and aggregates); JSON lines stream; the Parquet
export stays in bounded memory under an address-space limit (RLIMIT_AS), not a timer; the
JSON-lines export imports neither pyarrow nor sqlite-utils."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from archive_helpers import fixture_paths, grown_archive
from click.testing import CliRunner
from import_helpers import loaded_modules

from kifu.archive import Archive
from kifu.archive.rows import turn_order
from kifu.cli.main import cli
from kifu.notation.reader import parse_record

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("ex") / "club.db")
    with Archive(path) as a:
        a.import_paths(fixture_paths())
    return path


@pytest.fixture(scope="module")
def parquet_dir(archive, tmp_path_factory) -> Path:
    pytest.importorskip("pyarrow", reason="pyarrow (the parquet extra) is not installed")
    out = tmp_path_factory.mktemp("pq") / "club-parquet"
    r = CliRunner().invoke(cli, ["archive", "export", "--db", archive, "--format", "parquet",
                                 str(out)])
    assert r.exit_code == 0, r.output
    return out


def sqlite_figures(db: str) -> dict[str, list]:
    """What the Parquet tables must agree with, straight from SQLite."""
    c = sqlite3.connect(db)
    moves = 0
    turns: dict[tuple[str, int], int] = {}
    for game, text, n in c.execute("SELECT game, text, nplayers FROM records"):
        rec = parse_record(text)
        moves += len(rec.moves)
        for seat, t in enumerate(turn_order([m.actor for m in rec.moves], n)):
            if t == 1:
                turns[(game, seat)] = turns.get((game, seat), 0) + 1
    return {
        "records": c.execute("SELECT game, count(*), sum(plies), sum(nplayers) FROM records "
                             "GROUP BY game ORDER BY game").fetchall(),
        "seats": c.execute("SELECT r.game, p.seat, count(*), sum(p.won), sum(p.score) FROM "
                           "record_players p JOIN records r ON r.id = p.record_id GROUP BY "
                           "r.game, p.seat ORDER BY r.game, p.seat").fetchall(),
        "moves": [moves],
        "puzzles": c.execute("SELECT game, count(*) FROM puzzles GROUP BY game "
                             "ORDER BY game").fetchall(),
        "first": sorted((g, s, n) for (g, s), n in turns.items()),
    }


def _rows(rows) -> list[tuple]:
    return [tuple(int(x) if isinstance(x, float) and x.is_integer() else x for x in r)
            for r in rows]


def test_duckdb_reads_the_same_figures(archive, parquet_dir) -> None:
    duckdb = pytest.importorskip("duckdb", reason="duckdb (the parquet extra) is not installed")
    want = sqlite_figures(archive)
    con = duckdb.connect()

    def q(table: str, sql: str) -> list[tuple]:
        src = f"read_parquet('{parquet_dir}/{table}/*/*.parquet', hive_partitioning = 1)"
        return _rows(con.execute(sql.replace("{T}", src)).fetchall())

    assert q("records", "SELECT game, count(*), sum(plies), sum(nplayers) FROM {T} "
                        "GROUP BY game ORDER BY game") == want["records"]
    assert q("seats", "SELECT game, seat, count(*), sum(won), sum(score) FROM {T} "
                      "GROUP BY game, seat ORDER BY game, seat") == want["seats"]
    assert q("moves", "SELECT count(*) FROM {T}") == [tuple(want["moves"])]
    assert q("puzzles", "SELECT game, count(*) FROM {T} GROUP BY game ORDER BY game") == \
        want["puzzles"]
    assert q("seats", "SELECT game, seat, count(*) FROM {T} WHERE turn = 1 GROUP BY game, seat "
                      "ORDER BY game, seat") == want["first"]
    # a join across tables: the plies of each record are its moves
    joined = con.execute(
        f"SELECT count(*) FROM read_parquet('{parquet_dir}/records/*/*.parquet', "
        f"hive_partitioning = 1) r JOIN (SELECT record_id, max(ply) AS n FROM read_parquet("
        f"'{parquet_dir}/moves/*/*.parquet', hive_partitioning = 1) GROUP BY record_id) m "
        "ON m.record_id = r.id WHERE m.n != r.plies").fetchone()
    assert joined == (0,)


def test_polars_reads_the_same_figures(archive, parquet_dir) -> None:
    pl = pytest.importorskip("polars", reason="polars (the parquet extra) is not installed")
    want = sqlite_figures(archive)

    def scan(table: str):
        return pl.scan_parquet(str(parquet_dir / table / "**" / "*.parquet"),
                               hive_partitioning=True)

    records = (scan("records").group_by("game")
               .agg(pl.len(), pl.col("plies").sum(), pl.col("nplayers").sum())
               .sort("game").collect())
    assert _rows(records.rows()) == want["records"]
    seats = (scan("seats").group_by("game", "seat")
             .agg(pl.len(), pl.col("won").cast(pl.Int64).sum(), pl.col("score").sum())
             .sort("game", "seat").collect())
    assert _rows(seats.rows()) == want["seats"]
    assert scan("moves").select(pl.len()).collect().item() == want["moves"][0]
    puzzles = scan("puzzles").group_by("game").agg(pl.len()).sort("game").collect()
    assert _rows(puzzles.rows()) == want["puzzles"]
    # the partitions are the games, as folders
    assert sorted(p.name for p in (parquet_dir / "records").iterdir()) == \
        sorted(f"game={g}" for g, *_ in want["records"])


def test_parquet_keeps_text_comments_and_marks(archive, parquet_dir) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")
    import pyarrow.dataset as ds

    records = ds.dataset(str(parquet_dir / "records"), format="parquet",
                         partitioning="hive").to_table().to_pylist()
    c = sqlite3.connect(archive)
    stored = dict(c.execute("SELECT id, text FROM records"))
    assert {r["id"]: r["text"] for r in records} == stored  # byte for byte
    moves = ds.dataset(str(parquet_dir / "moves"), format="parquet",
                       partitioning="hive").to_table()
    commented = [m for m in moves.to_pylist() if m["comment"]]
    assert commented, "the fixtures have commented actions"
    m = commented[0]
    rec = parse_record(stored[m["record_id"]])
    assert rec.moves[m["ply"] - 1].comment == m["comment"]
    assert pq.ParquetFile(next((parquet_dir / "moves").glob("*/*.parquet"))).schema_arrow \
        .field("ply").type.bit_width == 32


def test_parquet_export_refuses_a_used_folder_and_stdout(archive, tmp_path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    r = CliRunner().invoke(cli, ["archive", "export", "--db", archive, "--format", "parquet",
                                 str(tmp_path / "full")])
    assert r.exit_code == 1 and "not an empty folder" in r.stderr
    assert os.listdir(tmp_path / "full") == ["keep.txt"]
    r = CliRunner().invoke(cli, ["archive", "export", "--db", archive, "--format", "parquet"])
    assert r.exit_code == 1 and "writes a folder" in r.stderr
    # filters apply: one game only, and no half-written folder is left beside it
    out = tmp_path / "one"
    r = CliRunner().invoke(cli, ["archive", "export", "--db", archive, "--format", "parquet",
                                 "--game", "towai", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert [p.name for p in (out / "records").iterdir()] == ["game=towai"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "one"]


def test_parquet_without_pyarrow_says_how_to_install(archive, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    r = CliRunner().invoke(cli, ["archive", "export", "--db", archive, "--format", "parquet",
                                 str(tmp_path / "x")])
    assert r.exit_code == 1 and "pip install 'kifu[parquet]'" in r.stderr
    assert not (tmp_path / "x").exists() and os.listdir(tmp_path) == []


def test_jsonl_streams_one_object_a_record(archive, tmp_path) -> None:
    out = tmp_path / "a.jsonl"
    r = CliRunner().invoke(cli, ["archive", "export", "--db", archive, "--format", "jsonl",
                                 "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    c = sqlite3.connect(archive)
    assert [x["id"] for x in lines] == [i for (i,) in c.execute(
        "SELECT id FROM records ORDER BY id")]
    seats = {(rid, s): (n, won) for rid, s, n, won in c.execute(
        "SELECT record_id, seat, name, won FROM record_players")}
    got = {(x["id"], s["seat"]): (s["name"], s["won"]) for x in lines for s in x["seats"]}
    assert got == seats
    first = lines[0]
    assert first["text"] == c.execute("SELECT text FROM records WHERE id = ?",
                                      [first["id"]]).fetchone()[0]
    # stdout, with a filter
    r = CliRunner().invoke(cli, ["archive", "export", "--db", archive, "--format", "jsonl",
                                 "--game", "alice"])
    assert r.exit_code == 0
    assert {json.loads(x)["game"] for x in r.stdout.splitlines()} == {"alice"}


def test_jsonl_export_imports_neither_pyarrow_nor_sqlite_utils(archive, tmp_path) -> None:
    loaded = loaded_modules(["archive", "export", "--db", archive, "--format", "jsonl",
                             "-o", str(tmp_path / "x.jsonl")])
    assert "kifu.archive.export" in loaded  # it ran
    assert [m for m in loaded if m.split(".")[0] in ("pyarrow", "sqlite_utils", "numpy",
                                                     "duckdb", "polars")] == []


def test_turn_order_counts_players_only() -> None:
    assert turn_order(["d", "p2", "d", "p0", "p2", "p1"], 3) == [2, 3, 1]
    assert turn_order([], 2) == [None, None]
    assert turn_order(["p1", "p1"], 3) == [None, 1, None]


# --- bounded memory ------------------------------------------------------------------------

HEADROOM_MIB = 128
"""Address space the export may add to what its process holds once pyarrow is loaded."""

_LIMITED = """
import resource, sys
import pyarrow as pa, pyarrow.parquet
import kifu.archive.export as ex
from kifu.archive import Archive
pa.array([1])
size = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize"))
limit = (size << 10) + ({headroom} << 20)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
flush = {{k: ({flush} or v) for k, v in ex.FLUSH_ROWS.items()}}
try:
    with Archive({db!r}, readonly=True) as a:
        print(ex.export_parquet(a, {out!r}, flush_rows=flush)["records"])
except MemoryError:
    sys.exit(3)
except Exception as e:
    sys.exit(3 if "memory" in str(e).lower() or "alloc" in str(e).lower() else 4)
"""


def _limited_export(db: str, out: str, flush: int) -> subprocess.CompletedProcess:
    """Export ``db`` in a process whose address space may grow by HEADROOM_MIB past what it
    holds with pyarrow loaded. The C library's allocator everywhere (one malloc arena; the
    system pool for Arrow, as ``kifu archive export`` sets it), so the limit counts memory
    in use rather than the address space allocators reserve ahead."""
    env = dict(os.environ, MALLOC_ARENA_MAX="1", ARROW_DEFAULT_MEMORY_POOL="system",
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    code = _LIMITED.format(headroom=HEADROOM_MIB, flush=flush, db=db, out=out)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux only)")
def test_parquet_export_is_bounded_in_memory(tmp_path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow (the parquet extra) is not installed")
    db = str(tmp_path / "big.db")
    n = grown_archive(db, 20_000)  # about 1.2 million moves
    done = _limited_export(db, str(tmp_path / "out"), 0)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.strip()) == n
    # the same export holding every row until the end does not fit: the limit bites
    held = _limited_export(db, str(tmp_path / "held"), 10**9)
    assert held.returncode == 3, (held.returncode, held.stderr[-2000:])
