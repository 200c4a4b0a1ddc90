"""The ``kifu`` entry point (kifu/cli/entry.py): ``kifu --help`` and ``kifu games`` (text
and JSON) are printed from rendered copies without importing click, and those copies, and
the one-line help of every command in the lazy command table, are what click itself would
print."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kifu.cli import _rendered
from kifu.cli.entry import RENDERED, render, render_help
from kifu.cli.main import COMMANDS, load_command

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args", sorted(RENDERED))
def test_each_rendered_copy_is_what_click_prints(args: tuple[str, ...]) -> None:
    assert render(list(args)) == getattr(_rendered, RENDERED[args]), (
        "kifu/cli/_rendered.py is stale: run python -m kifu.cli.entry --write")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_command_table_shows_each_command_own_short_help(name: str) -> None:
    cmd = load_command(name)
    assert COMMANDS[name][2] == (cmd.short_help or cmd.get_short_help_str(limit=1000))


def _run_entry(args: list[str], columns: str | None,
               **extra: str) -> tuple[str, list[str]]:
    code = ("import sys; sys.argv = ['kifu', *sys.argv[1:]]\n"
            "from kifu.cli.entry import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    env.update(extra)
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                       check=True, cwd=ROOT, env=env)
    return r.stdout, r.stderr.split()


@pytest.mark.parametrize("args", [["--help"], ["-h"]])
def test_help_imports_neither_click_nor_the_command_table(args: list[str]) -> None:
    out, loaded = _run_entry(args, None)  # a pipe: 80 columns
    assert out == render_help()
    assert not [m for m in loaded if m.split(".")[0] in ("click", "msgspec")]
    assert sorted(m for m in loaded if m.startswith("kifu")) == [
        "kifu", "kifu.cli", "kifu.cli._rendered", "kifu.cli.entry"]


@pytest.mark.parametrize("args", [["games"], ["games", "--json"]])
def test_games_imports_neither_click_nor_an_engine(args: list[str]) -> None:
    """``kifu games`` at any width (its tables are never wrapped) is the rendered copy."""
    for columns in (None, "40"):
        out, loaded = _run_entry(args, columns)
        assert out == render(args)
        assert not [m for m in loaded if m.split(".")[0] in ("click", "msgspec")]
        assert sorted(m for m in loaded if m.startswith("kifu")) == [
            "kifu", "kifu.cli", "kifu.cli._rendered", "kifu.cli.entry"]


@pytest.mark.parametrize("args", [["games", "--help"], ["games", "--json", "-h"],
                                  ["games", "--jsn"], ["games", "extra"]])
def test_other_games_arguments_go_to_click(args: list[str]) -> None:
    code = ("import sys; sys.argv = ['kifu', *sys.argv[1:]]\n"
            "from kifu.cli.entry import main\nmain()")
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == (0 if "-h" in args or "--help" in args else 2), r.stderr
    assert ("Usage: kifu games" in r.stdout + r.stderr) and "GAME " not in r.stdout


def test_a_narrow_terminal_and_other_arguments_go_to_click() -> None:
    out, loaded = _run_entry(["--help"], "60")
    assert "click" in loaded and out.startswith("Usage: kifu")
    assert max(map(len, out.splitlines())) <= 60
    out, loaded = _run_entry(["--version"], None)
    assert "click" in loaded and out.strip() == "kifu, version 0.1.0"


def test_a_stream_that_cannot_hold_the_help_goes_to_click() -> None:
    """click writes what an ASCII stream cannot hold (the title's kanji) as UTF-8; the copy
    must not end in a UnicodeEncodeError instead."""
    out, loaded = _run_entry(["--help"], None, PYTHONIOENCODING="ascii")
    assert "click" in loaded and out.startswith("Usage: kifu")


def test_the_console_script_is_the_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["kifu"] == "kifu.cli.entry:main"
