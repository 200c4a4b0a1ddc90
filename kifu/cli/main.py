"""The ``kifu`` command: a thin click front end over the library."""

from __future__ import annotations

import click

from kifu import __version__
from kifu.cli.archive import archive
from kifu.cli.diff import diff
from kifu.cli.html_cmd import html_cmd
from kifu.cli.info import games_cmd, perft_cmd, schema
from kifu.cli.play import play
from kifu.cli.puzzles import puzzles
from kifu.cli.record import record
from kifu.cli.replay import replay
from kifu.cli.solve import solve
from kifu.cli.trace import trace
from kifu.cli.validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kifu")
def cli() -> None:
    """kifu (棋譜): records, replays, validates and diffs games of TWEAK, GRAPH-T and
    more, written in one shared notation (docs/notation.md).

    Every FILE argument accepts - for stdin; every -o accepts - for stdout. Errors are one
    line, FILE:LINE:COL: message, with exit code 1.
    """


for command in (play, validate, replay, diff, schema, games_cmd, perft_cmd, record,
                trace):
    cli.add_command(command)
cli.add_command(html_cmd)
for command in (solve, puzzles):
    cli.add_command(command)
cli.add_command(archive)


def main() -> None:
    cli(prog_name="kifu")


if __name__ == "__main__":
    main()
