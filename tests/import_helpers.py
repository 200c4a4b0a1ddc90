"""What a ``kifu`` command imports: the modules loaded by one run of the command in a fresh
interpreter (``tests/test_architecture.py``, ``tests/test_archive_readonly.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def loaded_modules(args: list[str]) -> list[str]:
    """The names in ``sys.modules`` after ``kifu ARGS`` ran in a new Python process (its
    exit, success or not, ignored)."""
    code = ("import sys; from kifu.cli.main import cli\n"
            f"try:\n    cli({args!r}, prog_name='kifu')\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=True, cwd=ROOT)
    return r.stderr.split()
