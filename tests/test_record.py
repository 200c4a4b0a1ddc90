"""``kifu record``: live recording, crash safety (SIGKILL half-way, then --resume), undo,
refusals, typed dealer actions, and the same record as ``kifu play`` from the same seed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kifu import games
from kifu.bots import play_actions
from kifu.core.game import DEALER
from kifu.notation.reader import parse_record
from kifu.notation.replay import record_from_actions, replay

ROOT = Path(__file__).resolve().parent.parent
# The acceptance test records a TOWAI game (and a TWEAK one), with the game as a parameter;
# GRAPH-T goes through the pseudo-terminal test below.
KILL_GAMES = [g for g in ("towai", "tweak") if g in games.ids()]


def seats(game_id: str, want: int = 3) -> int:
    game = games.get(game_id)
    return max(game.min_players, min(want, game.max_players))


def entries_of(game_id: str, seed: int, *, seeded: bool, players: int | None = None):
    """A bot game: the lines to type (players' actions; the dealer's too when unseeded)
    and the record the whole game makes."""
    game = games.get(game_id)
    players = players or seats(game_id)
    bots = ["random"] * players
    actions = play_actions(game, bots, seed)
    state = game.new_state(players)
    typed = []
    for a in actions:
        if state.to_move != DEALER or not seeded:
            typed.append(game.format_action(state, a))
        state.apply(a)
    record = record_from_actions(game, [f"p{i}" for i in range(players)], actions)
    return typed, record


def moves_in(path: Path) -> list[str]:
    if not path.exists():
        return []
    text = path.read_text()
    body = text.partition("\n\n")[2]
    return [line for line in body.split("\n") if line and line[0] in "dp"]


def kifu(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kifu.cli.main", *args], capture_output=True,
                          text=True, timeout=120, **kw)


@pytest.mark.parametrize("game_id", KILL_GAMES)
def test_sigkill_half_way_then_resume_loses_nothing(game_id, tmp_path) -> None:
    """The acceptance test: actions piped on stdin, SIGKILL once half of them are
    accepted, --resume with the rest; the file validates and holds every action."""
    typed, full = entries_of(game_id, 11, seeded=True)
    out = tmp_path / "live.kifu"
    half = len(typed) // 2
    with open(tmp_path / "log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kifu.cli.main", "record", game_id, "-n",
             str(seats(game_id)), "--seed",
             "11", "--date", "????.??.??", "-o", str(out)],
            stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, text=True,
        )
        assert proc.stdin is not None
        for entry in typed[:half]:
            proc.stdin.write(entry + "\n")
        proc.stdin.flush()
        # wait until every piped action is in the file (each is fsynced before the prompt)
        deadline = time.monotonic() + 60
        expected = full.moves
        want = next(i for i in range(len(expected) + 1)
                    if sum(m.actor != "d" for m in expected[:i]) == half)
        while len(moves_in(out)) < want and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    kept = moves_in(out)
    assert kept == [f"{m.actor} {m.text}" for m in expected[:len(kept)]]
    assert len(kept) >= want, "an accepted action is missing after SIGKILL"
    done = kifu("record", "--resume", str(out), input="\n".join(typed[half:]) + "\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "is complete" in done.stdout
    assert kifu("validate", str(out)).returncode == 0
    rec = parse_record(out.read_text())
    assert rec.moves == full.moves
    assert rec.headers["Result"] == full.headers["Result"] != "*"


@pytest.mark.parametrize("game_id", games.ids())
def test_unseeded_dealer_typed_eof_resumes(game_id, run, tmp_path) -> None:
    """Without a seed every dealer action is typed as seen; EOF leaves a file that
    --resume continues; the finished file equals the bot game's record."""
    n = seats(game_id, 2)
    typed, full = entries_of(game_id, 5, seeded=False, players=n)
    cut = len(typed) // 3
    r = run("record", game_id, "-n", str(n), "--date", "????.??.??", "-o", "g.kifu",
            input="\n".join(typed[:cut]) + "\n")
    assert r.exit_code == 0, r.output
    assert "carry on with: kifu record --resume g.kifu" in r.stdout
    assert "(the dealer acts: type what you see, e.g. " in r.stdout
    assert parse_record((tmp_path / "g.kifu").read_text()).headers["Result"] == "*"
    assert len(moves_in(tmp_path / "g.kifu")) == cut
    r = run("record", "--resume", "g.kifu", input="\n".join(typed[cut:]) + "\n")
    assert r.exit_code == 0, r.output
    rec = parse_record((tmp_path / "g.kifu").read_text())
    assert rec.moves == full.moves and rec.headers["Result"] == full.headers["Result"]
    replay(rec)  # validates, Result included


def test_seeded_record_equals_play(run, tmp_path) -> None:
    typed, _ = entries_of("tweak", 7, seeded=True)
    r = run("record", "tweak", "-n", "3", "-s", "7", "--date", "2026.11.23", "--names",
            "random,random,random", "-o", "g.kifu", input="\n".join(typed) + "\n")
    assert r.exit_code == 0, r.output
    played = run("play", "tweak", "-n", "3", "-s", "7", "--bot", "random", "--date",
                 "2026.11.23").stdout
    assert (tmp_path / "g.kifu").read_text() == played


def test_prompt_help_refusal_undo_show(run, tmp_path) -> None:
    typed, full = entries_of("tweak", 3, seeded=True)
    first, second = [m.actor for m in full.moves if m.actor != "d"][:2]
    names = ["Ann", "Bob", "Cy"]
    script = [typed[0], "?", "undo", "undo", "show 1", typed[0], f"{second} {typed[1]}"]
    r = run("record", "tweak", "-n", "3", "-s", "3", "--names", ",".join(names), "-o",
            "g.kifu", input="\n".join(script) + "\n")
    assert r.exit_code == 0, r.output
    out = r.stdout
    for actor in (first, second):
        assert f"{actor} ({names[int(actor[1])]}) to move>" in out
    assert " legal: " in out
    assert out.count("undone: ") == 1 and "nothing to undo" in out
    assert "as p1 sees it" in out and "?" in out
    moves = moves_in(tmp_path / "g.kifu")
    assert moves == [f"{m.actor} {m.text}" for m in full.moves[: len(moves)]]
    assert moves[-1] == f"{second} {typed[1]}"
    # piped input: each refused line ends the recording, named by its input line
    third = [m.actor for m in full.moves if m.actor != "d"][2]
    wrong = next(f"p{i}" for i in range(3) if f"p{i}" != third)
    for lines, message in (
        (["?", "Q9xQ9"], "<stdin>:2: refused 'Q9xQ9': "),
        ([f"{wrong} {typed[2]}"],
         f"<stdin>:1: refused '{wrong} {typed[2]}': it is {third}'s turn, not {wrong}'s"),
        (["show p7"], "<stdin>:1: show 'p7'"),
    ):
        r = run("record", "--resume", "g.kifu", input="\n".join(lines + typed[2:]) + "\n")
        assert r.exit_code == 1, r.output
        assert r.stderr.startswith(message), r.stderr
        assert moves_in(tmp_path / "g.kifu") == moves


def test_record_refuses_bad_starts(run, tmp_path) -> None:
    (tmp_path / "old.kifu").write_text("keep\n")
    cases = [
        (("record", "tweak", "-n", "3", "-o", "old.kifu"), "exists; continue it"),
        (("record", "tweak", "-n", "3"), "needs -o FILE"),
        (("record", "chess", "-n", "3", "-o", "x.kifu"), "unknown game 'chess'"),
        (("record", "tweak", "-n", "9", "-o", "x.kifu"), "2..6 players"),
        (("record", "tweak", "-n", "2", "--set", "nope=1", "-o", "x.kifu"), "nope"),
        (("record", "--resume", "missing.kifu"), "missing.kifu"),
        (("record", "--resume", "old.kifu"), "old.kifu"),
        (("record", "tweak", "-n", "2", "--seed", "²", "-o", "x.kifu"), "--seed"),
    ]
    for args, message in cases:
        r = run(*args)
        assert r.exit_code == 1, args
        assert message in r.stderr and len(r.stderr.strip().split("\n")) == 1, r.stderr
        assert "Traceback" not in r.output
    assert (tmp_path / "old.kifu").read_text() == "keep\n"
    assert not (tmp_path / "x.kifu").exists()


def test_resume_drops_a_torn_last_line_and_finishes_a_done_game(run, tmp_path) -> None:
    typed, full = entries_of("graph-t", 2, seeded=True)
    r = run("record", "graph-t", "-n", "3", "-s", "2", "--date", "????.??.??", "-o", "g.kifu",
            input="\n".join(typed) + "\n")
    assert r.exit_code == 0 and "is complete" in r.stdout
    text = (tmp_path / "g.kifu").read_text()
    # a crash after the last action but before the Result was written, with a torn line
    (tmp_path / "g.kifu").write_text(text.replace(full.headers["Result"], "*", 1) + "p1 R")
    r = run("record", "--resume", "g.kifu", input="")
    assert r.exit_code == 0, r.output
    assert "dropping the incomplete last line 'p1 R'" in r.stderr
    assert (tmp_path / "g.kifu").read_text() == text
    r = run("record", "--resume", "g.kifu", input="")
    assert r.exit_code == 1 and "finished already" in r.stderr


def test_record_at_a_terminal(tmp_path) -> None:
    """The interactive path: kifu record on a pseudo-terminal, typed line by line."""
    import pty
    import select

    typed, full = entries_of("graph-t", 8, seeded=True)
    master, slave = pty.openpty()
    out = tmp_path / "tty.kifu"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kifu.cli.main", "record", "graph-t", "-n", "3", "-s", "8",
         "--date", "????.??.??", "-o", str(out)],
        stdin=slave, stdout=slave, stderr=slave, close_fds=True,
    )
    os.close(slave)
    seen = b""

    def read_until(marker: bytes, timeout: float = 30) -> None:
        nonlocal seen
        end = time.monotonic() + timeout
        while marker not in seen and time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    return

    try:
        for entry in ["?", *typed]:
            read_until(b"to move> ")
            seen = b""
            os.write(master, entry.encode() + b"\n")
        read_until(b"is complete")
        assert b"is complete" in seen
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 0
    assert parse_record(out.read_text()).moves == full.moves
