"""Faults during long writes (issue 21): a kill -9 at a random moment of ``archive import``,
``play --games``, ``puzzles generate`` or ``archive export`` loses nothing that was
acknowledged and leaves every output valid or absent, never torn; a full disk (a real
small tmpfs) leaves no partial output and names the file. (``kifu record`` killed mid-game
is tests/test_record.py::test_sigkill_half_way_then_resume_loses_nothing.)"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fs_helpers import fill, small_tmpfs

from kifu.archive import Archive
from kifu.cli.main import cli
from kifu.notation.files import load_records
from kifu.notation.puzzle import load_puzzles

KILLS = 5
"""Kills per command (bounded: the suite stays quick)."""


def kifu(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kifu.cli.main", *map(str, args)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def duration(*args: object) -> float:
    """How long one full run of the command takes here (kills are spread over it)."""
    start = time.monotonic()
    proc = kifu(*args)
    proc.wait()
    return time.monotonic() - start


def kill_at(proc: subprocess.Popen, delay: float) -> bool:
    """SIGKILL ``proc`` after ``delay`` s; whether it was still running (killed)."""
    time.sleep(delay)
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return True


class Kills:
    """Runs of a command killed at random moments of its duration, until :data:`KILLS` of
    them were killed (at most ``4 * KILLS`` runs).

    ``took`` is one full run measured just before; a run that ends before its kill (the
    machine was busier when ``took`` was measured) makes the delay it outlived the new
    duration, so the next kills come sooner and the test does not depend on the load."""

    def __init__(self, took: float, low: float, high: float, seed: int) -> None:
        self.took, self.low, self.high = took, low, high
        self.rng = random.Random(seed)
        self.killed = 0

    def runs(self, start: Callable[[int], subprocess.Popen]) -> Iterator[int]:
        """Start run ``k`` with ``start(k)``, kill it at a random moment, then yield ``k``
        (the test checks what the killed or finished run left)."""
        for k in range(4 * KILLS):
            if self.killed == KILLS:
                return
            delay = self.rng.uniform(self.low, self.high) * self.took
            if kill_at(start(k), delay):
                self.killed += 1
            else:
                self.took = delay
            yield k


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "many.kifu"
    r = CliRunner().invoke(cli, ["play", "tweak", "-n", "2", "--games", "150", "--silent",
                                 "--date", "2026.11.23", "-o", str(path)])
    assert r.exit_code == 0
    return path


def _stored(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    con.close()
    if "_kifu_meta" not in tables:  # killed before the first migration committed
        assert tables == [], f"a half-made schema: {tables}"
        return []
    with Archive(str(db), readonly=True) as a:
        return list(a.export())


def test_killed_import_keeps_whole_batches(corpus: Path, tmp_path: Path) -> None:
    texts = {loc.record.headers["Seed"]: loc for loc in load_records(str(corpus))}
    took = duration("archive", "import", corpus, "--db", tmp_path / "full.db",
                    "--batch-rows", "7", "-q")
    kills = Kills(took, 0.1, 0.95, seed=5)
    for k in kills.runs(lambda k: kifu("archive", "import", corpus, "--db", tmp_path / f"a{k}.db",
                                       "--batch-rows", "7", "-q")):
        db = tmp_path / f"a{k}.db"
        if not db.exists():
            continue
        con = sqlite3.connect(db)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
        stored = _stored(db)
        assert len(stored) % 7 == 0 or len(stored) == len(texts), "half a batch stored"
        wanted = [format_canonical(loc) for loc in texts.values()][: len(stored)]
        assert stored == wanted
        r = CliRunner().invoke(cli, ["archive", "import", str(corpus), "--db", str(db), "-q"])
        assert r.exit_code == 0, r.output
        assert _stored(db) == [format_canonical(loc) for loc in texts.values()]
    assert kills.killed == KILLS, f"only {kills.killed} of {KILLS} imports killed"


def format_canonical(loc) -> str:
    from kifu.notation.record import format_record

    return format_record(loc.record)


@pytest.mark.parametrize("what", ["play", "generate", "export"])
def test_killed_writer_leaves_the_old_file_or_none(what: str, corpus: Path,
                                                   tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    if what == "export":
        with Archive(str(db)) as a:
            a.import_paths([str(corpus)])
    args = {
        "play": ("play", "tweak", "-n", "2", "--games", "400", "--silent", "-o"),
        "generate": ("puzzles", "generate", "tweak", "-Q", "tweak-this-turn", "-n", "100000",
                     "--max-games", "400", "-o"),
        "export": ("archive", "export", "--db", db, "-o"),
    }[what]
    out = tmp_path / "out.kifu"
    old = "[Game \"tweak\"]\n"
    took = duration(*args, tmp_path / "full.kifu")
    kills = Kills(took, 0.1, 0.99, seed=11)

    def start(k: int) -> subprocess.Popen:
        out.write_text(old)
        return kifu(*args, out)

    for _ in kills.runs(start):
        text = out.read_text()
        if text != old:  # the whole new file, valid
            if what == "generate":
                assert list(load_puzzles(str(out)))
            else:
                assert len(list(load_records(str(out)))) in (150, 400)
        for tmp in tmp_path.glob(".kifu-*.tmp"):  # what a SIGKILL cannot clean up
            tmp.unlink()
    assert kills.killed == KILLS, f"only {kills.killed} of {KILLS} writers killed"


@pytest.mark.parametrize("what", ["play", "generate", "export", "html"])
def test_full_disk_leaves_no_partial_output(what: str, corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with Archive(str(db)) as a:
        a.import_paths([str(corpus)])
    with small_tmpfs(tmp_path) as tiny:
        out = tiny / "out.kifu"
        fill(tiny, leave=8192)
        args = {
            "play": ["play", "tweak", "-n", "2", "--games", "50", "--silent"],
            "generate": ["puzzles", "generate", "tweak", "-Q", "tweak-this-turn", "-n", "60"],
            "export": ["archive", "export", "--db", str(db)],
            "html": ["html", str(corpus)],
        }[what]
        r = CliRunner().invoke(cli, [*args, "-o", str(out)])
        assert r.exit_code == 1, r.output
        assert f"{out}: cannot write: No space left on device" in r.stderr
        assert "Traceback" not in r.output
        assert not out.exists()
        assert sorted(p.name for p in tiny.iterdir()) == ["filler"]
