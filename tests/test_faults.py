"""Faults during long writes (issue 21): a kill -9 at a random moment of ``archive import``,
``play --games``, ``puzzles generate`` or ``archive export`` loses nothing that was
acknowledged and leaves every output valid or absent, never torn; a full disk (a real
small tmpfs) leaves no partial output and names the file. (``kifu record`` killed mid-game
is tests/test_record.py::test_sigkill_half_way_then_resume_loses_nothing.)

Issue 35: SIGINT, SIGTERM and SIGHUP at every step of the output phase of every writing
command, and at moments spread over real runs, leave every output old or new, all of a
command's outputs together, and no temporary file."""

from __future__ import annotations

import os
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


# --- issue 35: each stop signal at every step of every writing command ------------------------

STOPS = ("SIGINT", "SIGTERM", "SIGHUP")


def _writers(src: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Every writing command: its command line (``{d}`` is the folder of its outputs) and its
    outputs (name -> kind: a file, an archive, a folder of traces). ``src`` holds the inputs:
    a record file ``g.kifu`` and an archive ``src.db``."""
    rec, db = str(src / "g.kifu"), str(src / "src.db")
    return {
        "play": (["play", "tweak", "-n", "2", "--games", "3", "--date", "2026.11.28", "-q",
                  "-o", "{d}/out.kifu"], {"out.kifu": "file"}),
        "match": (["match", "tweak", "--bots", "greedy,random", "--games", "2", "-q", "-o",
                   "{d}/out.kifu"], {"out.kifu": "file"}),
        "simulate": (["simulate", "tweak", "-n", "3", "--games", "3", "-q", "-o",
                      "{d}/out.kifu", "--db", "{d}/a.db", "--html", "{d}/r.html"],
                     {"out.kifu": "file", "a.db": "archive", "r.html": "file"}),
        "analyze": (["analyze", rec, "-Q", "tweak-this-turn", "-q", "-o", "{d}/out.kifu"],
                    {"out.kifu": "file"}),
        "generate": (["puzzles", "generate", "tweak", "-Q", "tweak-this-turn", "-n", "2", "-q",
                      "-o", "{d}/out.kifu", "--db", "{d}/a.db"],
                     {"out.kifu": "file", "a.db": "archive"}),
        "mine": (["puzzles", "mine", rec, "-Q", "tweak-this-turn", "-q", "-o", "{d}/out.kifu",
                  "--store", "{d}/a.db"], {"out.kifu": "file", "a.db": "archive"}),
        "html": (["html", rec, "-o", "{d}/out.html"], {"out.html": "file"}),
        "export": (["archive", "export", "--db", db, "-o", "{d}/out.kifu"],
                   {"out.kifu": "file"}),
        "datasette": (["archive", "datasette", "--db", db, "-o", "{d}/meta.json"],
                      {"meta.json": "file"}),
        "trace": (["trace", "regenerate", "tweak", "--dir", "{d}/traces", "-q"],
                  {"traces": "traces"}),
    }


def _prepare(d: Path, outputs: dict[str, str]) -> None:
    """The old outputs: a file with a line, an empty archive, a folder of old traces."""
    from kifu import games
    from kifu.notation.trace import expected_files

    d.mkdir()
    for name, kind in outputs.items():
        if kind == "file":
            (d / name).write_text("old\n")
        elif kind == "archive":
            Archive(str(d / name)).close()
        else:
            (d / name).mkdir()
            for trace in expected_files(games.get("tweak")):
                (d / name / trace).write_text("old\n")


def _state(d: Path, outputs: dict[str, str]) -> dict[str, object]:
    got: dict[str, object] = {}
    for name, kind in outputs.items():
        if kind == "file":
            got[name] = (d / name).read_bytes()
        elif kind == "archive":
            with Archive(str(d / name), readonly=True) as a:
                s = a.stats()
            got[name] = (s["records"], sum(s["puzzles"].values()))
        else:
            got[name] = {p.name: p.read_bytes() for p in sorted((d / name).iterdir())}
    return got


class _Signals:
    """Sends one stop signal to this process at the ``at``-th call of a step of the
    output writer (``kifu.notation.files``): the first write of an output (the work is
    done, nothing staged), each ``os.fsync`` (an output staged; a folder synced after the
    renames) and each ``os.replace`` (an output renamed). With ``sig`` None it counts the
    steps."""

    STEPS = ("write", "fsync", "replace")

    def __init__(self, monkeypatch, step: str = "", at: int = 0, sig: str | None = None):
        from kifu.core import command
        from kifu.notation import files

        self.counts = dict.fromkeys(self.STEPS, 0)
        self.sent = False
        real = {"write": files.Output.write, "fsync": os.fsync, "replace": os.replace}

        def wrap(name: str):
            def call(*args, **kwargs):
                result = real[name](*args, **kwargs)
                if command.current() is not None:  # inside a command: a handler is there
                    self.counts[name] += 1
                    if sig and name == step and self.counts[name] == at and not self.sent:
                        self.sent = True
                        os.kill(os.getpid(), getattr(signal, sig))
                return result
            return call

        monkeypatch.setattr(files.Output, "write", wrap("write"))
        monkeypatch.setattr(os, "fsync", wrap("fsync"))
        monkeypatch.setattr(os, "replace", wrap("replace"))


@pytest.fixture(scope="module")
def writer_inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    r = CliRunner().invoke(cli, ["play", "tweak", "-n", "3", "--seed", "1", "--date",
                                 "2026.11.28", "-o", str(src / "g.kifu")])
    assert r.exit_code == 0, r.output
    with Archive(str(src / "src.db")) as a:
        a.import_paths([str(src / "g.kifu")])
    return src


@pytest.mark.parametrize("what", sorted(_writers(Path("."))))
def test_a_stop_signal_at_any_step_leaves_every_output_old_or_new(
        what: str, writer_inputs: Path, tmp_path: Path, monkeypatch) -> None:
    """Issue 35: SIGINT, SIGTERM and SIGHUP, each at every step of the output phase of
    every writing command (the first write, each fsync, each rename: every moment at which
    main could be stopped with one output new and another old, or an output empty). Every
    output is then either the old one or the whole new one, and all of them together: all
    old, or all new; no temporary file is left. (Before the outputs, during the work, see
    test_a_stop_signal_in_a_real_run below.)"""
    args, outputs = _writers(writer_inputs)[what]

    def invoke(d: Path):
        return CliRunner().invoke(cli, [a.replace("{d}", str(d)) for a in args])

    _prepare(tmp_path / "old", outputs)
    old = _state(tmp_path / "old", outputs)
    _prepare(tmp_path / "new", outputs)
    with monkeypatch.context() as m:
        counter = _Signals(m)
        r = invoke(tmp_path / "new")
    assert r.exit_code == 0, r.output
    new = _state(tmp_path / "new", outputs)
    assert all(new[k] != old[k] for k in outputs), "a run that changes nothing tests nothing"
    points = [(step, k) for step in _Signals.STEPS for k in range(1, counter.counts[step] + 1)
              if step != "write" or k == 1]
    assert len(points) >= 3, counter.counts
    n = 0
    for step, k in points:
        for sig in STOPS:
            n += 1
            d = tmp_path / f"run{n}"
            _prepare(d, outputs)
            with monkeypatch.context() as m:
                inject = _Signals(m, step, k, sig)
                r = invoke(d)
            assert inject.sent, (step, k)
            got = _state(d, outputs)
            which = ["new" if got[o] == new[o] else "old" if got[o] == old[o] else "torn"
                     for o in outputs]
            assert set(which) in ({"old"}, {"new"}), (sig, step, k, dict(zip(outputs, which,
                                                                             strict=True)))
            assert r.exit_code != 0 or set(which) == {"new"}, (sig, step, k, r.output)
            assert "Traceback" not in r.output
            assert not [p for p in d.rglob(".kifu-*")], (sig, step, k)


@pytest.mark.parametrize("what", ["simulate", "generate", "export"])
def test_a_stop_signal_in_a_real_run(what: str, writer_inputs: Path, tmp_path: Path) -> None:
    """Issue 35: each stop signal sent to a real ``kifu`` process at random moments of a
    measured run (the work, the output phase, the end; a run that ends before its signal
    makes the delay it outlived the new duration, as :class:`Kills` does): every output is
    the old one or the whole new one, all together, and no temporary file is left (the
    command cleaned up: no SIGKILL here). Runs go on (at most 16) until each signal reached
    a running process twice and one run was stopped before its outputs. ``puzzles
    generate`` gets SIGTERM and SIGHUP only: its Ctrl-C means "stop and write the puzzles
    found" (docs/cli.md), which is neither the old file nor the full run's."""
    args, outputs = _writers(writer_inputs)[what]
    args = list(args)
    if what == "simulate":  # long enough to be hit while it works
        args[args.index("--games") + 1] = "40"
    stops = STOPS if what != "generate" else ("SIGTERM", "SIGHUP")

    def start(d: Path) -> subprocess.Popen:
        return kifu(*[a.replace("{d}", str(d)) for a in args])

    _prepare(tmp_path / "old", outputs)
    old = _state(tmp_path / "old", outputs)
    _prepare(tmp_path / "new", outputs)
    began = time.monotonic()
    assert start(tmp_path / "new").wait() == 0
    took = time.monotonic() - began
    new = _state(tmp_path / "new", outputs)
    rng = random.Random(35)
    seen: set[str] = set()
    sent = dict.fromkeys(stops, 0)
    for n in range(16):
        if "old" in seen and min(sent.values()) >= 2:
            break
        sig = min(stops, key=lambda s: sent[s])
        d = tmp_path / f"run{n}"
        _prepare(d, outputs)
        proc = start(d)
        delay = rng.uniform(0.2, 1.0) * took
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(getattr(signal, sig))
            sent[sig] += 1
        else:
            took = delay  # the machine got faster: aim earlier next time
        _out, err = proc.communicate(timeout=300)
        got = _state(d, outputs)
        which = {"new" if got[o] == new[o] else "old" if got[o] == old[o] else "torn"
                 for o in outputs}
        assert which in ({"old"}, {"new"}), (sig, delay, which)
        seen |= which
        assert not [p for p in d.rglob(".kifu-*")], (sig, delay, err.decode()[-300:])
    assert min(sent.values()) >= 1, sent
    assert "old" in seen, "no run was stopped before its outputs"
