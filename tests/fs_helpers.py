"""File-system situations for the output and fault tests: a small full file system (a real
tmpfs when the tests run as root and may mount one), device nodes and FIFOs made in a
temporary folder (never the real ``/dev/null``)."""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _try_mount(where: Path, size: str) -> str:
    """Mount a tmpfs of ``size`` at ``where``; the reason it could not be, or ''."""
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    try:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        return f"mount failed: {e}"
    if r.returncode != 0:
        return f"mount -t tmpfs failed: {r.stderr.strip()}"
    return ""


@contextlib.contextmanager
def small_tmpfs(tmp_path: Path, size: str = "64k") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted under ``tmp_path`` (skips, saying why, where it cannot
    be mounted: not root, no mount permission in the container)."""
    where = tmp_path / "tiny"
    where.mkdir()
    why = _try_mount(where, size)
    if why:
        pytest.skip(f"no small file system to fill: {why}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def fill(folder: Path, leave: int = 0) -> Path:
    """Fill the file system of ``folder`` up, but for about ``leave`` bytes."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for size in (1 << 16, 4096, 512, 1):  # the last bytes one by one
            block = b"\0" * size
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, block)
    finally:
        os.close(fd)
    if leave:
        size = filler.stat().st_size
        os.truncate(filler, max(0, size - leave))
    return filler


def char_device(path: Path) -> os.stat_result:
    """A character device node at ``path`` (major 1, minor 3: what ``/dev/null`` is), made
    in a temporary folder so a test can check it is written to, not replaced."""
    if os.geteuid() != 0:
        pytest.skip("making a device node (os.mknod) needs root")
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except OSError as e:
        pytest.skip(f"cannot make a device node here: {e}")
    return os.stat(path)


def same_node(path: Path, before: os.stat_result) -> bool:
    """``path`` is still the node ``before`` describes (same inode, same type)."""
    now = os.lstat(path)
    return (now.st_ino, now.st_dev, stat.S_IFMT(now.st_mode)) == (
        before.st_ino, before.st_dev, stat.S_IFMT(before.st_mode))
