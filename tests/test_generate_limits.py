"""``kifu puzzles generate`` that cannot find enough puzzles: it says how far it got
(positions tried, puzzles found), stops at --max-games / --max-seconds or when its node
budget cannot solve anything, and on Ctrl-C writes what it found (issue 21, class 11)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.notation.puzzle import load_puzzles

GEN = ("puzzles", "generate", "tweak", "-Q", "tweak-this-turn", "--seed", "5")


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_progress_counts_positions_tried_not_only_puzzles() -> None:
    from kifu.lab.generate import Progress, generate_puzzles

    seen: list[tuple[int, int, int]] = []
    progress = Progress()
    found = list(generate_puzzles("tweak", "tweak-within 2", count=2, seed=1, players=2,
                                  budget_nodes=1, max_games=12, progress=progress,
                                  on_progress=lambda p: seen.append((p.games, p.positions,
                                                                     p.found))))
    assert found == [] and progress.stopped == "games"
    assert seen and all(g > 0 for g, _, _ in seen)
    assert seen[-1][1] == progress.positions > 0, "positions tried were not counted"
    assert progress.over_budget == progress.positions


def test_max_games_writes_what_it_found_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "p.kifu"
    r = invoke(*GEN, "-n", "300", "--max-games", "8", "-o", out)
    assert r.exit_code == 1, r.output
    n = len(list(load_puzzles(str(out))))
    assert 0 < n < 300
    assert f"only {n} of 300 puzzle(s) found in 8 game(s) (--max-games 8;" in r.stderr
    assert "position(s) tried" in r.stderr
    again = tmp_path / "q.kifu"
    r = invoke(*GEN, "-n", "300", "--max-games", "8", "-o", again, "--workers", "2",
               "--chunk-size", "3")
    assert r.exit_code == 1 and again.read_bytes() == out.read_bytes()
    r = invoke(*GEN, "-n", "2", "--max-games", "8", "-o", again)
    assert r.exit_code == 0 and "2 puzzle(s) written" in r.stderr
    assert out.read_text().startswith(again.read_text().rstrip("\n"))


def test_a_budget_that_solves_nothing_gives_up(tmp_path: Path) -> None:
    out = tmp_path / "p.kifu"
    r = invoke("puzzles", "generate", "tweak", "-Q", "tweak-within 3", "-n", "3",
               "--budget-nodes", "1", "--max-games", "2000", "-o", out)
    assert r.exit_code == 1, r.output
    assert "could be solved within --budget-nodes 1" in r.stderr
    games = int(r.stderr.split(" game(s) played")[0].rsplit(" ", 1)[1])
    assert games < 100, "--budget-nodes 1 played on and on"
    assert out.exists() and out.read_text() == ""


def test_max_seconds(tmp_path: Path) -> None:
    r = invoke("puzzles", "generate", "tweak", "-Q", "tweak-within 3", "-n", "1000",
               "--max-seconds", "0.001", "-o", tmp_path / "p.kifu")
    assert r.exit_code == 1 and "stopped after --max-seconds 0.001" in r.stderr
    for bad in ("0", "-1", "nan", "x"):
        r = invoke(*GEN, "--max-seconds", bad)
        assert r.exit_code in (1, 2) and "Traceback" not in r.output


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_writes_the_puzzles_found(tmp_path: Path, workers: str) -> None:
    """SIGINT to the whole process group (what Ctrl-C does): the puzzles found so far
    are written atomically and counted in the message; the workers stop at once."""
    out = tmp_path / "p.kifu"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kifu.cli.main", *GEN, "-n", "1000000", "-o", str(out),
         "--workers", workers],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(4)
        assert proc.poll() is None, proc.communicate()
        import os

        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    assert proc.returncode == 1, err
    assert "Aborted" not in err and "Traceback" not in err
    n = len(list(load_puzzles(str(out))))
    assert f"interrupted: {n} of 1000000 puzzle(s) found were written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.kifu"], "a temporary file left"


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_sigterm_after_puzzles_were_found_writes_nothing(tmp_path: Path, sig: str) -> None:
    """SIGTERM and SIGHUP are not Ctrl-C: once puzzles were found they still stop the run
    without writing (docs/cli.md), so the old output stays whole. (Until 2026-11-29 the
    Ctrl-C handler caught them too and wrote the puzzles found: a torn output in
    tests/test_faults.py's real runs when the signal came after the first puzzle.)"""
    out = tmp_path / "p.kifu"
    out.write_text("old\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kifu.cli.main", *GEN, "-n", "1000000", "-o", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_default_stop_signals)
    try:
        time.sleep(4)  # the first puzzles of this seed are found within a second
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(getattr(signal, sig))
        _, err = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    assert proc.returncode == 128 + getattr(signal, sig), err
    assert f"stopped by {sig}" in err and "Traceback" not in err
    assert "written" not in err
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.kifu"], "a temporary file left"


def _default_stop_signals() -> None:
    """In the child before exec: the stop signals at their default action, as a terminal
    gives them (an ignored signal stays ignored across exec: under ``nohup`` SIGHUP would
    never reach the command; tests/test_reliability4.py does the same)."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
