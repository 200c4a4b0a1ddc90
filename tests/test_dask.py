"""The executor seam on Dask (issue 14): a 2-worker LocalCluster gives byte for byte the
output of one process and of local processes, a worker killed mid-run costs nothing but a
retry, and a chunk that fails for good is reported with its index.

One LocalCluster (2 worker processes, loopback, no dashboard) serves the module; the
commands reach it with ``--dask tcp://...``. Skipped only without the dask extra."""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from dask_cluster import local_cluster

from kifu.cli.main import cli
from kifu.core.errors import KifuError
from kifu.core.executor import executor, map_chunks
from kifu.lab import generate as puzzles_cli
from kifu.notation import batch

distributed = pytest.importorskip(
    "distributed", reason="the dask extra is not installed (pip install 'kifu[dask]')")
cloudpickle = pytest.importorskip("cloudpickle", reason="comes with the dask extra")

# Workers cannot import this test module: ship its functions by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted(str(p) for p in ROOT.glob("fixtures/*/*.kifu")) + sorted(
    str(p) for p in ROOT.glob("fixtures/*/invalid/*.kifu"))
VALIDATE = ("validate", "--all", "--json", *RECORDS)
GENERATE = ("puzzles", "generate", "tweak", "--question", "tweak-this-turn", "-n", "6",
            "--seed", "11")


@pytest.fixture(scope="module")
def cluster():
    with local_cluster() as c:
        yield c


def run_to_file(tmp_path: Path, name: str, *args: str) -> bytes:
    out = tmp_path / name
    r = CliRunner().invoke(cli, [*args, "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return out.read_bytes()


@pytest.fixture(scope="module")
def generated_single(tmp_path_factory) -> bytes:
    data = run_to_file(tmp_path_factory.mktemp("single"), "one.kifu", *GENERATE)
    assert data.count(b"[Question ") == 6
    return data


def test_generate_on_a_cluster_matches_one_process(cluster, generated_single, tmp_path):
    on_dask = run_to_file(tmp_path, "dask.kifu", *GENERATE, "--dask",
                          cluster.scheduler_address, "--chunk-size", "2")
    local2 = run_to_file(tmp_path, "local.kifu", *GENERATE, "--workers", "2")
    assert on_dask == generated_single
    assert local2 == generated_single


def test_generate_dask_local_matches_one_process(generated_single, tmp_path):
    on_local_cluster = run_to_file(tmp_path, "lc.kifu", *GENERATE, "--dask", "local",
                                   "--workers", "2")
    assert on_local_cluster == generated_single


def _die_once(marker: str, fn, *args):
    """``fn(args)``, but the first call anywhere (the marker file is the token) kills the
    worker process running it, as a crashed or preempted machine would."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return fn(*args)
    os.close(fd)
    os._exit(1)


def test_killed_worker_is_retried_and_output_complete(cluster, generated_single, tmp_path,
                                                      monkeypatch):
    marker = tmp_path / "killed"
    monkeypatch.setattr(puzzles_cli, "_chunk",
                        functools.partial(_die_once, str(marker), puzzles_cli._chunk))
    on_dask = run_to_file(tmp_path, "dask.kifu", *GENERATE, "--dask",
                          cluster.scheduler_address, "--chunk-size", "1")
    assert marker.exists()  # a worker really died
    assert on_dask == generated_single
    cluster.wait_for_workers(2, timeout=180)  # the nanny restarts it (slow on a loaded machine)


def _fails_on_three(n: int) -> int:
    if n == 3:
        raise RuntimeError("bad chunk")
    return n * n


def test_chunk_failing_for_good_is_reported_with_its_index(cluster):
    seen: list[int] = []
    with pytest.raises(KifuError, match=r"chunk 3 failed: RuntimeError: bad chunk"):
        for r in map_chunks(_fails_on_three, range(6), dask=cluster.scheduler_address):
            seen.append(r)
    assert seen == [0, 1, 4]


def test_on_chunk_done_counts_chunks_in_order(cluster):
    done: list[int] = []
    with executor(dask=cluster.scheduler_address) as ex:
        out = list(map_chunks(abs, [-3, 1, -2, 5, -7], pool=ex, on_chunk_done=done.append))
    assert out == [3, 1, 2, 5, 7]
    assert done == [0, 1, 2, 3, 4]


def test_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr("kifu.core.executor.CONNECT_TIMEOUT", 1.0)
    r = CliRunner().invoke(cli, [*GENERATE, "--dask", "tcp://127.0.0.1:9"])
    assert r.exit_code == 1
    assert "cannot reach the Dask scheduler" in r.output


def run_cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def validated_single() -> tuple[int, str, str]:
    out = run_cli(*VALIDATE)
    assert out[0] == 1 and '"ok": false' in out[1]  # the invalid fixtures are reported
    return out


def test_validate_on_a_cluster_matches_one_process(cluster, validated_single):
    assert run_cli(*VALIDATE, "--dask", cluster.scheduler_address,
                   "--chunk-size", "3") == validated_single
    assert run_cli(*VALIDATE, "--workers", "2", "--chunk-size", "3") == validated_single


def test_validate_survives_a_killed_worker(cluster, validated_single, tmp_path, monkeypatch):
    marker = tmp_path / "killed"
    monkeypatch.setattr(batch, "run_raw_chunk",
                        functools.partial(_die_once, str(marker), batch.run_raw_chunk))
    out = run_cli(*VALIDATE, "--dask", cluster.scheduler_address, "--chunk-size", "2")
    assert marker.exists()  # a worker really died
    assert out == validated_single
    cluster.wait_for_workers(2, timeout=180)


def dump(db: Path) -> list:
    con = sqlite3.connect(db)
    try:
        return [con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("records", "record_players", "puzzles", "positions")]
    finally:
        con.close()


def test_archive_import_on_a_cluster_matches_one_process(cluster, tmp_path):
    args = ("archive", "import", str(ROOT / "fixtures"), "--positions", "-q")
    one = run_cli(*args, "--db", str(tmp_path / "one.db"))
    on_dask = run_cli(*args, "--db", str(tmp_path / "dask.db"), "--dask",
                      cluster.scheduler_address, "--chunk-size", "3")
    assert one[0] == 1 and one[2]  # the invalid fixtures are reported and skipped
    assert on_dask == one
    rows = dump(tmp_path / "one.db")
    assert len(rows[0]) > 20 and rows[1] and rows[2] and rows[3]
    assert dump(tmp_path / "dask.db") == rows


def test_diff_rules_on_a_cluster_matches_one_process(cluster, tmp_path):
    """``diff --rules`` over a corpus whose every outcome changes: the same JSON report in
    one process, on 2 local processes and on the cluster, whatever the chunk size."""
    corpus = tmp_path / "c.kifu"
    r = CliRunner().invoke(cli, ["play", "tweak", "-n", "3", "--games", "12", "--seed", "1",
                                 "--set", "rounds=1", "--silent", "-o", str(corpus)])
    assert r.exit_code == 0, r.output
    base = ("diff", str(corpus), "--set", "t_cards=TJSB", "--json")
    outs = [CliRunner().invoke(cli, [*base, *extra]) for extra in (
        (), ("--workers", "2", "--chunk-size", "5"),
        ("--dask", cluster.scheduler_address, "--chunk-size", "3"))]
    assert all(o.exit_code == 1 for o in outs), [o.output[-200:] for o in outs]
    assert '"changed": 12' in outs[0].output
    assert outs[0].output == outs[1].output == outs[2].output


def test_a_card_set_loaded_with_cards_reaches_the_workers(cluster, tmp_path, monkeypatch):
    """``validate --cards FILE`` on Dask: the workers never saw the file, yet read the
    records naming its set exactly as one process does (the set travels with each chunk)."""
    from kifu.core import executor as ex
    from kifu.games.alice import cards

    monkeypatch.setattr(cards, "_SETS", dict(cards._SETS))
    monkeypatch.setattr(cards, "_TABLES", dict(cards._TABLES))
    monkeypatch.setattr(ex, "_SETUPS", [])
    monkeypatch.setattr(batch, "_REPLAYER", batch._REPLAYER.__class__())
    text = (ROOT / "kifu/games/alice/cards/tea-party.cards").read_text(encoding="utf-8")
    card_file = tmp_path / "dask.cards"
    card_file.write_text(text.replace("\nset tea-party", "\nset dask-only-set"))
    games = tmp_path / "g.kifu"
    r = CliRunner().invoke(cli, ["play", "alice", "-n", "3", "--games", "4", "--seed", "2",
                                 "--cards", str(card_file), "--silent", "-o", str(games)])
    assert r.exit_code == 0, r.output
    args = ("validate", "--all", "--json", "--cards", str(card_file), str(games))
    one = CliRunner().invoke(cli, list(args))
    on_dask = CliRunner().invoke(cli, [*args, "--dask", cluster.scheduler_address,
                                       "--chunk-size", "1"])
    assert one.exit_code == 0, one.output
    assert on_dask.exit_code == 0, on_dask.output
    assert on_dask.output == one.output


def _profiler_enabled() -> bool:
    import dask

    return bool(dask.config.get("distributed.worker.profile.enabled"))


def test_local_cluster_workers_run_without_the_profiler(cluster):
    """``--dask local`` (and the tests' cluster) start workers without Dask's statistical
    profiler, which samples the task thread every 10 ms (kifu.core.executor.LEAN_WORKERS)."""
    with executor(2, "local") as ex:
        assert set(ex.client.run(_profiler_enabled).values()) == {False}
    from distributed import Client

    with Client(cluster) as client:
        assert set(client.run(_profiler_enabled).values()) == {False}
