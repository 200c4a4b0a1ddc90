"""Scale-out (issue 14, ``docs/scale.md``): ``kifu puzzles generate`` and ``kifu validate``
in one process, on 2 local processes and on a 2-worker Dask LocalCluster, each at the chunk
size in ``extra_info``. Speed-up = the 1-process median / that median.

Each timed call includes what the command pays per run: starting the process pool (local)
or connecting a client to the already running cluster (Dask; the cluster is started once,
outside the timing, like a real scheduler). Run with
``pytest benchmarks/test_scale.py --benchmark-only``.
"""

from __future__ import annotations

import pytest

from benchmarks.conftest import build_corpus
from kifu.lab.generate import GAMES_PER_CHUNK, generate_puzzles
from kifu.notation.batch import FileSummary, Validation
from tests.dask_cluster import local_cluster

GAME, QUESTION, COUNT, PLAYERS = "graph-t", "double-dummy", 240, 3


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pip install 'kifu[dask]')")
    with local_cluster() as c:
        yield c


def _generate(workers: int = 1, dask: str | None = None) -> int:
    found = list(generate_puzzles(GAME, QUESTION, count=COUNT, seed=0, players=PLAYERS,
                                  workers=workers, dask=dask, chunk_size=GAMES_PER_CHUNK))
    assert len(found) == COUNT
    return len(found)


def _info(benchmark, executor: str, workers: int) -> None:
    benchmark.extra_info.update(
        command=f"puzzles generate {GAME} -q {QUESTION} -n {COUNT} --players {PLAYERS}",
        executor=executor, workers=workers, chunk_size=GAMES_PER_CHUNK, unit="games")


@pytest.mark.parametrize("workers", [1, 2])
def test_generate_local(benchmark, workers: int) -> None:
    _info(benchmark, "inline" if workers == 1 else "processes", workers)
    benchmark.pedantic(_generate, kwargs={"workers": workers}, rounds=3, iterations=1)


def test_generate_dask_localcluster(benchmark, cluster) -> None:
    _info(benchmark, "dask LocalCluster", 2)
    benchmark.pedantic(_generate, kwargs={"dask": cluster.scheduler_address},
                       rounds=3, iterations=1)


VALIDATE_RECORDS, VALIDATE_CHUNK = 3000, 250


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("scale") / "tweak.kifu"
    path.write_text(build_corpus("tweak", VALIDATE_RECORDS), encoding="utf-8")
    return str(path)


def _validate(path: str, workers: int = 1, dask: str | None = None) -> int:
    run = Validation(report_all=True, workers=workers, dask=dask,
                     chunk_records=VALIDATE_CHUNK)
    summary = [x for x in run.run([path]) if isinstance(x, FileSummary)]
    assert summary[0].ok == summary[0].count == VALIDATE_RECORDS
    return summary[0].count


def _vinfo(benchmark, executor: str, workers: int) -> None:
    benchmark.extra_info.update(
        command=f"validate --all ({VALIDATE_RECORDS} single-round 3-player TWEAK records)",
        executor=executor, workers=workers, chunk_size=VALIDATE_CHUNK, unit="records")


@pytest.mark.parametrize("workers", [1, 2])
def test_validate_local(benchmark, corpus, workers: int) -> None:
    _vinfo(benchmark, "inline" if workers == 1 else "processes", workers)
    benchmark.pedantic(_validate, args=(corpus,), kwargs={"workers": workers},
                       rounds=3, iterations=1)


def test_validate_dask_localcluster(benchmark, corpus, cluster) -> None:
    _vinfo(benchmark, "dask LocalCluster", 2)
    benchmark.pedantic(_validate, args=(corpus,), kwargs={"dask": cluster.scheduler_address},
                       rounds=3, iterations=1)
