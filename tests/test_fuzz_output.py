"""Crash safety of ``write_output``: a killed writer, a full disk, an unwritable path or an
output that is also an input never leaves a half-written file, and the CLI answers with one
line and exit code 1."""

from __future__ import annotations

import errno
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.core.errors import KifuError
from kifu.notation.files import write_output

KILLS = 12
"""How many times the kill test kills a writer (bounded: the test stays fast)."""

WRITER = """
import sys
from kifu.notation.files import write_output
path, n = sys.argv[1], int(sys.argv[2])
versions = [(c * n) for c in "AB"]
print("ready", flush=True)
i = 0
while True:
    write_output(path, versions[i % 2])
    i += 1
"""


def test_killed_writer_never_leaves_a_half_written_file(tmp_path: Path) -> None:
    out = tmp_path / "out.kifu"
    n = 4_000_000
    out.write_text("A" * n)
    rng = random.Random(13)
    seen = set()
    for _ in range(KILLS):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(out), str(n)],
                                stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data = out.read_bytes()
        assert data in (b"A" * n, b"B" * n), f"half-written output ({len(data)} bytes)"
        seen.add(data[:1])
    for tmp in tmp_path.glob(".kifu-*.tmp"):  # a killed writer may leave its temp file
        tmp.unlink()
    assert seen, "the writer never ran"


def test_mode_kept_and_symlink_followed(tmp_path: Path) -> None:
    target = tmp_path / "real.kifu"
    target.write_text("old")
    os.chmod(target, 0o644)
    write_output(str(target), "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    link = tmp_path / "link.kifu"
    link.symlink_to(target)
    write_output(str(link), "via link")
    assert link.is_symlink(), "the symlink was replaced by a file"
    assert target.read_text() == "via link"


def test_not_a_regular_file_is_written_straight(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    write_output(str(fifo), "through a pipe\n")
    assert reader.communicate(timeout=10)[0] == b"through a pipe\n"
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_unwritable_output_is_one_line(tmp_path: Path) -> None:
    for path in (tmp_path / "missing-dir" / "x.kifu", tmp_path):
        with pytest.raises(KifuError) as info:
            write_output(str(path), "text")
        assert str(info.value).startswith(f"{path}: cannot write")
        assert "\n" not in str(info.value)


def test_output_that_is_also_an_input_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "in.kifu"
    src.write_text("old")
    for same in (str(src), str(tmp_path / "." / "in.kifu")):
        with pytest.raises(KifuError, match="the output is also an input"):
            write_output(same, "new", inputs=[str(src)])
    assert src.read_text() == "old"


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch):
    """os.write to a kifu temp file fails half way with ENOSPC, as on a full disk."""
    real_write = os.write

    def write(fd: int, data) -> int:
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            name = ""
        if ".kifu-" in name:
            if len(data) > 1:
                return real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


def test_full_disk_keeps_the_old_file(tmp_path: Path, full_disk) -> None:
    out = tmp_path / "out.kifu"
    out.write_text("old record\n")
    with pytest.raises(KifuError) as info:
        write_output(str(out), "new record\n" * 1000)
    assert str(info.value) == f"{out}: cannot write: No space left on device"
    assert out.read_text() == "old record\n"
    assert not list(tmp_path.glob(".kifu-*")), "the temp file was not removed"


def test_cli_full_disk_and_unwritable(tmp_path: Path, full_disk) -> None:
    out = tmp_path / "g.kifu"
    out.write_text("old record\n")
    runner = CliRunner()
    res = runner.invoke(cli, ["play", "tweak", "-n", "2", "--silent", "-o", str(out)])
    assert res.exit_code == 1
    assert res.output.strip() == f"{out}: cannot write: No space left on device"
    assert "Traceback" not in res.output
    assert out.read_text() == "old record\n"
    res = runner.invoke(cli, ["play", "tweak", "-n", "2", "--silent", "-o",
                              str(tmp_path / "no" / "g.kifu")])
    assert res.exit_code == 1 and len(res.output.strip().splitlines()) == 1
