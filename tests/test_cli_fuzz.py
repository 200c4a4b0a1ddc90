"""Random command lines for every kifu command and subcommand (fuzz/cli_lines.py), run
through click's CliRunner: exit code 0, 1 or 2, never a traceback (issue 21). The suite runs
a few thousand lines in a child process (its memory capped, its own folder); the campaign
of docs/testing.md runs fuzz/cli_campaign.py with more."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click

from kifu.cli.main import all_commands

ROOT = Path(__file__).resolve().parent.parent
LINES = 2500
SEED = 21


def _paths() -> set[str]:
    out: set[str] = set()

    def walk(path: list[str], cmd: click.Command) -> None:
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                walk([*path, name], sub)
        else:
            out.add(" ".join(path))

    for name, cmd in all_commands().items():
        walk([name], cmd)
    return out


def test_random_command_lines_never_show_a_traceback(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "fuzz" / "cli_campaign.py"), "--lines", str(LINES),
         "--seed", str(SEED), "--json", "--seconds", "30", "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=1800, cwd=tmp_path)
    assert r.stdout.strip(), r.stderr[-3000:]
    tally = json.loads(r.stdout.strip().splitlines()[-1])
    failures = "\n".join(f"{n} x {kind}\n  {json.dumps(tally['examples'][kind]['args'])}\n"
                         f"{tally['examples'][kind]['detail'][-1500:]}"
                         for kind, n in tally["kinds"].items())
    assert tally["failures"] == 0, failures
    assert tally["lines"] == LINES
    missing = _paths() - set(tally["by_command"])
    assert not missing, f"commands never drawn: {missing}"
    assert all(tally["exit"].get(code, 0) > LINES // 10 for code in ("0", "1", "2")), tally["exit"]
    assert not (ROOT / "kifu.db").exists()
