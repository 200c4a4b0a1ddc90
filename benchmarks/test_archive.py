"""The archive: import rate next to validation on the same 10,000-record corpora, and query
latency on a large archive (``ARCHIVE_RECORDS``, default 100,000: the 20,000 seeded games of
``big_corpora``, each stored five times under other player names and an ``Event`` tag, so
every record is distinct; the position index covers the first 10,000 TWEAK records, built
by a separate ``--positions`` import). Targets: import within 1.5x the validation time of the
same corpus; a query by player or by position under 50 ms."""

from __future__ import annotations

import os
import re

import pytest

from kifu.archive import Archive, Filters
from kifu.notation.reader import read_records
from kifu.notation.replay import replay

from .conftest import CORPUS_RECORDS, per_second

ARCHIVE_RECORDS = int(os.environ.get("KIFU_BENCH_ARCHIVE", "100000"))
COPIES = max(1, ARCHIVE_RECORDS // (2 * CORPUS_RECORDS))


@pytest.mark.parametrize("gid", ["tweak", "graph-t"])
def test_import_corpus(benchmark, big_corpora, tmp_path, gid) -> None:
    """``archive import`` of the corpus into a new archive (validate, canonicalise, hash,
    write in batches): compare with ``test_validate_corpus`` in the same group."""
    path = str(big_corpora[gid])
    dbs = iter(range(100))

    def run() -> int:
        db = str(tmp_path / f"i{next(dbs)}.db")
        with Archive(db) as a:
            return a.import_paths([path]).imported

    benchmark.group = f"validation vs parsing: {gid}"
    n = benchmark.pedantic(run, rounds=3, warmup_rounds=0)
    assert n == CORPUS_RECORDS
    per_second(benchmark, records=n)


@pytest.mark.parametrize("gid", ["tweak", "graph-t"])
def test_import_over_validate_interleaved(benchmark, big_corpora, tmp_path, gid) -> None:
    """The issue's ratio, import over validation of the same file, timed in alternation
    (``test_validate._interleaved``): validation as ``kifu validate`` reads a file (the
    loader, then the fast replay), import into a new archive each round."""
    from kifu.notation.files import load_records
    from kifu.notation.replay import FastReplayer

    from .test_validate import _interleaved, _ratios

    path = str(big_corpora[gid])
    dbs = iter(range(100))

    def validate() -> None:
        fast = FastReplayer()
        for loc in load_records(path):
            fast.play(loc)

    def import_() -> None:
        with Archive(str(tmp_path / f"v{next(dbs)}.db")) as a:
            assert a.import_paths([path]).imported == CORPUS_RECORDS

    benchmark.group = f"import / validation, interleaved: {gid}"
    times = _interleaved(benchmark, {"validate": validate, "import": import_})
    benchmark.extra_info.update(_ratios(times, "import", "validate"))
    benchmark.extra_info.update({f"{k} fastest s": round(min(v), 3) for k, v in times.items()})


def _renamed(text: str, copy: int) -> str:
    """The corpus with other player names (a pool of 1,000) and an Event tag."""
    def names(m: re.Match) -> str:
        k = int(m.group(3))
        seats = m.group(1).split(", ")
        new = ", ".join(f"player{(k * 7 + s * 13 + copy * 101) % 1000}"
                        for s in range(len(seats)))
        return f'[Players "{new}"]\n[Date "2026.01.01"]\n[Result "{m.group(2)}"]\n' \
               f'[Seed "{k}"]\n[Event "copy {copy}"]'

    return re.sub(r'\[Players "([^"]*)"\]\n\[Date "[^"]*"\]\n\[Result "([^"]*)"\]\n'
                  r'\[Seed "(\d+)"\]',
                  names, text)


@pytest.fixture(scope="session")
def big_archive(big_corpora, tmp_path_factory):
    folder = tmp_path_factory.mktemp("archive")
    db = str(folder / "big.db")
    files = []
    for gid, src in big_corpora.items():
        text = src.read_text(encoding="utf-8")
        for copy in range(COPIES):
            f = folder / f"{gid}-{copy}.kifu"
            f.write_text(_renamed(text, copy), encoding="utf-8")
            files.append(f)
    with Archive(db) as a:
        a.import_paths([str(files[0])], positions=True, workers=2)
        a.import_paths([str(f) for f in files[1:]], workers=2)
        assert a.stats()["records"] == 2 * COPIES * CORPUS_RECORDS
    first = next(read_records(files[0].read_text(encoding="utf-8")))
    position = replay(first, upto=12).state.to_line()
    return db, first.record.players[0], position


def _query(benchmark, big_archive, **kw) -> int:
    db = big_archive[0]
    with Archive(db, readonly=True) as a:
        def run() -> int:
            return len(list(a.query(Filters(**kw), columns=("id", "game", "players", "date",
                                                               "result", "plies"))))

        benchmark.group = f"archive queries ({2 * COPIES * CORPUS_RECORDS:,} records)"
        n = benchmark(run)
    per_second(benchmark, rows=n)
    return n


def test_query_by_player(benchmark, big_archive) -> None:
    assert _query(benchmark, big_archive, player=big_archive[1]) > 0


def test_query_by_position(benchmark, big_archive) -> None:
    assert _query(benchmark, big_archive, position=big_archive[2]) > 0


def test_query_by_game_and_plies(benchmark, big_archive) -> None:
    assert _query(benchmark, big_archive, game="graph-t", min_plies=60, limit=100) >= 0


def test_query_by_tag(benchmark, big_archive) -> None:
    assert _query(benchmark, big_archive, tags=[("Seed", "4242")], game="tweak") > 0
