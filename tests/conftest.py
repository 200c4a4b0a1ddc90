from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def run(tmp_path, monkeypatch):
    """``run("validate", "a.kifu", input=...)``: the kifu CLI in-process (click's runner),
    in a fresh ``tmp_path`` as the working directory; exceptions are not caught."""
    from click.testing import CliRunner

    from kifu.cli.main import cli

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke
