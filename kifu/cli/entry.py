"""The ``kifu`` executable's entry point: ``kifu --help`` without importing click.

``kifu --help`` is what people type first and what scripts call to probe for kifu; with
click and the command table it costs about 2.4 times a bare ``python -c pass`` (click alone
is about 2.1 times). The text it prints depends only on :data:`kifu.cli.main.COMMANDS` and
the group's docstring, so it is kept rendered in :mod:`kifu.cli._help` and printed as is
when the output is at least click's full width (80 columns, the width a pipe gets);
anything else goes to click. ``tests/test_architecture.py`` renders the help with click and
fails if :mod:`kifu.cli._help` differs (``python -m kifu.cli.entry --write-help`` rewrites
it), so the two cannot drift apart.
"""

from __future__ import annotations

import sys

HELP_ARGS = (["--help"], ["-h"])
WIDTH = 80
"""click's widest help (``HelpFormatter``'s ``max_width``): a terminal (or a pipe, which
counts as 80) of at least this many columns gets text WIDTH - 2 wide, always the same."""


def _columns() -> int:
    import shutil

    return shutil.get_terminal_size().columns


def render_help() -> str:
    """``kifu --help`` as click renders it at full width."""
    from click.testing import CliRunner

    from kifu.cli.main import cli

    result = CliRunner().invoke(cli, ["--help"], prog_name="kifu", terminal_width=WIDTH - 2)
    assert result.exit_code == 0, result.output
    return result.output


def main() -> None:
    if sys.argv[1:] in HELP_ARGS and _columns() >= WIDTH:
        from kifu.cli._help import HELP

        try:  # a stream that cannot hold the text (PYTHONIOENCODING=ascii): click copes
            data = HELP.encode(sys.stdout.encoding or "utf-8")
            out = sys.stdout.buffer
        except (UnicodeEncodeError, LookupError, AttributeError):
            pass
        else:
            out.write(data)
            out.flush()
            return
    from kifu.cli.main import main as click_main

    click_main()


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-help"]:
        from pathlib import Path

        path = Path(__file__).with_name("_help.py")
        lines = "".join(f"    {line!r}\n" for line in render_help().splitlines(keepends=True))
        doc = '"""``kifu --help``, written by ``python -m kifu.cli.entry --write-help``."""'
        path.write_text(f"{doc}\n\nHELP = (\n{lines})\n", encoding="utf-8")
    else:
        main()
