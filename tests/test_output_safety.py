"""No command writes over one of its own inputs, and every output goes through the one
writer (``kifu.notation.files.open_output``): a device or a FIFO is written to, never
replaced; a symlink is followed; a read-only file is refused, not replaced by rename; a
failed write leaves no partial or empty file and names the file. A record file has one
writer at a time (issue 21, class 8)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fs_helpers import char_device, fill, same_node, small_tmpfs

from kifu.archive import Archive
from kifu.cli.main import cli
from kifu.core.errors import KifuError
from kifu.notation.files import write_output

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "kifu" / "games" / "alice" / "cards" / "tea-party.cards"


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def one_line_error(r, *parts: str) -> None:
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for part in parts:
        assert part in lines[0], lines[0]


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    games = tmp_path / "g.kifu"
    r = invoke("play", "tweak", "-n", "2", "--games", "3", "--silent", "-o", games)
    assert r.exit_code == 0
    db = tmp_path / "a.db"
    with Archive(str(db)) as a:
        a.import_paths([str(games)])
    return db


# --- the writer -----------------------------------------------------------------------------


def test_a_device_is_written_to_never_replaced(tmp_path: Path) -> None:
    from kifu.notation.files import open_output

    dev = tmp_path / "null"
    before = char_device(dev)
    write_output(str(dev), "nothing\n" * 1000)
    with open_output(str(dev)) as out:
        out.write("streamed\n")
    assert same_node(dev, before) and stat.S_ISCHR(os.stat(dev).st_mode)


def test_a_fifo_is_written_to(tmp_path: Path) -> None:
    from kifu.notation.files import open_output

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    before = os.stat(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    with open_output(str(fifo)) as out:
        for i in range(1000):
            out.write(f"line {i}\n")
    assert reader.communicate(timeout=30)[0] == "".join(f"line {i}\n" for i in range(1000)).encode()
    assert same_node(fifo, before)


def test_a_symlink_is_followed(tmp_path: Path) -> None:
    from kifu.notation.files import open_output

    target = tmp_path / "real.kifu"
    target.write_text("old")
    link = tmp_path / "link.kifu"
    link.symlink_to(target)
    with open_output(str(link)) as out:
        out.write("new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_read_only_file_is_refused_not_replaced(tmp_path: Path) -> None:
    """Even for root, whom the permission bits do not stop: a rename would replace it."""
    ro = tmp_path / "ro.kifu"
    ro.write_text("keep me")
    ro.chmod(0o444)
    before = os.stat(ro)
    with pytest.raises(KifuError, match=r"ro.kifu: cannot write: the file is read-only"):
        write_output(str(ro), "new")
    assert ro.read_text() == "keep me" and same_node(ro, before)
    r = invoke("play", "tweak", "-n", "2", "--silent", "-o", ro)
    one_line_error(r, str(ro), "read-only")
    assert ro.read_text() == "keep me" and same_node(ro, before)


def test_refused_outputs_name_the_file(tmp_path: Path) -> None:
    from kifu.notation.files import check_output

    (tmp_path / "d").mkdir()
    for path, why in ((tmp_path / "d", "directory"), (tmp_path / "no" / "x", "no folder"),
                      ("", "empty")):
        with pytest.raises(KifuError, match=why):
            check_output(str(path))
    with pytest.raises(KifuError, match="exists already"):
        check_output(str(Path(__file__)), exclusive=True)


def test_a_failed_stream_leaves_the_old_file(tmp_path: Path) -> None:
    from kifu.notation.files import open_output

    out = tmp_path / "out.kifu"
    out.write_text("old")
    with pytest.raises(RuntimeError), open_output(str(out)) as o:
        o.write("x" * 1_000_000)
        raise RuntimeError("the producer failed half way")
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.kifu"]


def test_a_full_disk_leaves_no_partial_file(tmp_path: Path) -> None:
    """A real file system of 64 KiB: a 200 KB output fails, the old file stays, no temp."""
    with small_tmpfs(tmp_path) as tiny:
        old = tiny / "old.kifu"
        old.write_text("old record\n")
        new = tiny / "new.kifu"
        for path in (old, new):
            with pytest.raises(KifuError) as info:
                write_output(str(path), "R3 " * 70_000)
            assert str(info.value) == f"{path}: cannot write: No space left on device"
        assert old.read_text() == "old record\n" and not new.exists()
        assert sorted(p.name for p in tiny.iterdir()) == ["old.kifu"]


# --- commands and their inputs ----------------------------------------------------------------


def test_archive_export_never_replaces_its_archive(archive: Path, tmp_path: Path) -> None:
    data = archive.read_bytes()
    for out in (archive, tmp_path / "." / "a.db", tmp_path / "a.db-wal"):
        r = invoke("archive", "export", "--db", archive, "-o", out)
        one_line_error(r, "the output is also an input")
    link = tmp_path / "link.db"
    link.symlink_to(archive)
    one_line_error(invoke("archive", "export", "--db", archive, "-o", link), "also an input")
    assert archive.read_bytes() == data
    r = invoke("archive", "export", "--db", archive, "-o", tmp_path / "out.kifu")
    assert r.exit_code == 0 and (tmp_path / "out.kifu").read_text().count("[Game ") == 3


def test_archive_export_to_a_device_keeps_the_device(archive: Path, tmp_path: Path) -> None:
    dev = tmp_path / "null"
    before = char_device(dev)
    r = invoke("archive", "export", "--db", archive, "-o", dev)
    assert r.exit_code == 0, r.output
    assert same_node(dev, before), "the device node was replaced by a file"


def test_puzzles_generate_never_replaces_its_archive(archive: Path, tmp_path: Path) -> None:
    data = archive.read_bytes()
    r = invoke("puzzles", "generate", "tweak", "-Q", "tweak-this-turn", "-n", "1",
               "--db", archive, "-o", archive)
    one_line_error(r, str(archive), "also an input")
    assert archive.read_bytes() == data


def test_play_never_replaces_its_card_set(tmp_path: Path) -> None:
    cards = tmp_path / "c.cards"
    cards.write_bytes(CARDS.read_bytes())
    for out in (cards, tmp_path / "x" / ".." / "c.cards"):
        r = invoke("play", "alice", "-n", "2", "--cards", cards, "-o", out)
        one_line_error(r, "the output is also an input")
    assert cards.read_bytes() == CARDS.read_bytes()


def test_html_and_import_refuse_their_inputs(archive: Path, tmp_path: Path) -> None:
    g = tmp_path / "g.kifu"
    text = g.read_text()
    one_line_error(invoke("html", g, "-o", g), "also an input")
    assert g.read_text() == text
    data = archive.read_bytes()
    one_line_error(invoke("archive", "import", archive, "--db", archive), "is also an input")
    assert archive.read_bytes() == data


def test_match_and_simulate_never_replace_their_card_set(tmp_path: Path) -> None:
    cards = tmp_path / "c.cards"
    cards.write_bytes(CARDS.read_bytes())
    one_line_error(invoke("match", "alice", "-n", "3", "--bots", "greedy,random", "--games",
                          "1", "--cards", cards, "-o", cards, "-q"), "also an input")
    one_line_error(invoke("simulate", "alice", "-n", "3", "--games", "1", "--cards", cards,
                          "-o", cards, "-q"), "name another file")
    assert cards.read_bytes() == CARDS.read_bytes()


def test_analyze_and_mine_refuse_their_inputs_before_the_work(archive: Path,
                                                              tmp_path: Path) -> None:
    g = tmp_path / "g.kifu"
    text = g.read_text()
    data = archive.read_bytes()
    for args in (("analyze", g, "-o", g), ("puzzles", "mine", g, "-o", g),
                 ("puzzles", "mine", "--db", archive, "-o", archive),
                 ("puzzles", "mine", g, "--store", archive, "-o", archive)):
        r = invoke(*args, "-q")
        one_line_error(r, "also an input")
        assert not r.stdout, r.stdout  # refused before any record was judged
    assert g.read_text() == text
    assert archive.read_bytes() == data


def test_an_archive_is_never_a_device_or_a_folder(tmp_path: Path) -> None:
    dev = tmp_path / "null"
    before = char_device(dev)
    g = tmp_path / "g.kifu"
    invoke("play", "tweak", "-n", "2", "--silent", "-o", g)
    for db, why in ((dev, "not a regular file"), (tmp_path, "is a directory")):
        one_line_error(invoke("archive", "import", g, "--db", db), why)
    assert same_node(dev, before)
    assert not list(tmp_path.glob("null-*")), "SQLite side files made next to a device"


# --- kifu record: one writer, no empty file ------------------------------------------------------


def _kifu(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kifu.cli.main", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def test_a_record_has_one_writer_at_a_time(tmp_path: Path) -> None:
    rec = tmp_path / "g.kifu"
    assert invoke("record", "tweak", "-n", "2", "-s", "1", "-o", rec, input="").exit_code == 0
    first = _kifu("record", "--resume", str(rec))
    try:
        assert first.stdout is not None
        deadline = time.monotonic() + 60
        while not any(tmp_path.glob(".g.kifu.kifu-lock")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.stdout.readline().startswith("resuming")
        text = rec.read_text()
        for args in (("record", "--resume", rec), ("record", "tweak", "-n", "2", "-o", rec)):
            r = invoke(*args, input="R3\n")
            one_line_error(r, "is being recorded by another kifu", f"pid {first.pid}", "since")
        assert rec.read_text() == text
    finally:
        first.communicate("quit\n", timeout=60)
    assert first.returncode == 0
    assert not list(tmp_path.glob(".*kifu-lock")), "the lock file was left behind"
    r = invoke("record", "--resume", rec, input="")
    assert r.exit_code == 0, r.output


def test_a_lock_left_by_a_killed_writer_is_taken_over(tmp_path: Path) -> None:
    rec = tmp_path / "g.kifu"
    assert invoke("record", "tweak", "-n", "2", "-s", "1", "-o", rec, input="").exit_code == 0
    first = _kifu("record", "--resume", str(rec))
    assert first.stdout is not None and first.stdout.readline().startswith("resuming")
    first.kill()
    first.communicate(timeout=60)
    assert list(tmp_path.glob(".g.kifu.kifu-lock")), "SIGKILL leaves the lock file"
    r = invoke("record", "--resume", rec, input="")
    assert r.exit_code == 0, r.output


def test_record_on_a_full_disk_leaves_no_empty_file(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path) as tiny:
        filler = fill(tiny)
        rec = tiny / "g.kifu"
        r = invoke("record", "tweak", "-n", "2", "-s", "1", "-o", rec, input="")
        one_line_error(r, f"{rec}: cannot write: No space left on device")
        assert not rec.exists(), "a full disk left an empty record that blocks -o and --resume"
        filler.unlink()
        r = invoke("record", "tweak", "-n", "2", "-s", "1", "-o", rec, input="")
        assert r.exit_code == 0, r.output


def test_record_append_on_a_full_disk_keeps_the_plies_before(tmp_path: Path) -> None:
    """The disk fills while a game is recorded: the refused action is not in the file,
    the error names the file, and --resume carries on once there is room."""
    from kifu.notation.reader import parse_record

    with small_tmpfs(tmp_path) as tiny:
        rec = tiny / "g.kifu"
        assert invoke("record", "tweak", "-n", "2", "-s", "1", "-o", rec, input="").exit_code == 0
        # tmpfs allocates pages: make the file end 2 bytes short of one, so the next
        # action line needs a new page the full file system does not have
        pad = 4094 - rec.stat().st_size
        rec.unlink()
        names = f"A{'n' * (pad + 1)},Bo"
        r = invoke("record", "tweak", "--names", names, "-s", "1", "-o", rec, input="")
        assert r.exit_code == 0 and rec.stat().st_size == 4094
        before = rec.read_text()
        filler = fill(tiny)
        r = invoke("record", "--resume", rec, input="?\n")
        typed = r.stdout.split(" legal: ")[1].split(",")[0].strip()
        r = invoke("record", "--resume", rec, input=f"{typed}\n")
        assert r.exit_code == 1, r.output
        assert f"{rec}: cannot write: No space left on device" in r.stderr
        assert "Traceback" not in r.output
        assert rec.read_text() == before
        filler.unlink()
        r = invoke("record", "--resume", rec, input=f"{typed}\n")
        assert r.exit_code == 0, r.output
        assert parse_record(rec.read_text()).moves[-1].text == typed.split()[-1]
