"""The ``kifu`` command: a thin click front end over the library.

Subcommands are loaded lazily (and ``kifu --help`` itself is printed by
:mod:`kifu.cli.entry` without importing click): ``kifu games`` imports neither the archive
(sqlite-utils), the solver nor the other commands. Each command is named here with its
module and the one line ``kifu --help`` shows for it (a test checks that line against the
command's own help, so the two cannot drift apart).
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from typing import Any

import click

from kifu import __version__

# name -> (module, attribute, the short help of `kifu --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "analyze": ("kifu.cli.analyze", "analyze",
                "Judge every decision of played records from the player's seat."),
    "archive": ("kifu.cli.archive", "archive", "A SQLite archive of records and puzzles."),
    "diff": ("kifu.cli.diff", "diff", "Compare two records, or a corpus under two rule sets."),
    "games": ("kifu.cli.info", "games_cmd",
             "List the games, their players, bots and rule variants."),
    "html": ("kifu.cli.html_cmd", "html_cmd", "Write a self-contained HTML viewer or puzzle page."),
    "match": ("kifu.cli.match", "match",
              "Rank bots by playing them against each other, seats permuted."),
    "perft": ("kifu.cli.info", "perft_cmd",
             "Count the leaves of the action tree below a position."),
    "play": ("kifu.cli.play", "play", "Let bots play GAME from a seed and write the records."),
    "puzzles": ("kifu.cli.puzzles", "puzzles", "Make puzzles (see docs/puzzles.md)."),
    "record": ("kifu.cli.record", "record", "Record a game as it is played at a table."),
    "replay": ("kifu.cli.replay", "replay", "Replay a record and show a position."),
    "schema": ("kifu.cli.info", "schema",
               "Print the JSON Schema of a record, a puzzle or a report."),
    "simulate": ("kifu.cli.simulate", "simulate",
                 "Measure what a rule change does: paired bot games, with intervals."),
    "solve": ("kifu.cli.solve", "solve", "Solve puzzles, or ask a question of one position."),
    "trace": ("kifu.cli.trace", "trace", "Golden traces: regenerate or check them."),
    "validate": ("kifu.cli.validate", "validate", "Check that records are well formed and legal."),
}


def load_command(name: str) -> click.Command:
    """The click command ``name`` of :data:`COMMANDS`, imported now."""
    module, attr, _ = COMMANDS[name]
    return getattr(importlib.import_module(module), attr)


def all_commands() -> dict[str, click.Command]:
    """Every subcommand, imported (for tests and docs)."""
    return {name: load_command(name) for name in sorted(COMMANDS)}


class LazyGroup(click.Group):
    """A group whose subcommands are imported only when one of them runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        return load_command(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: Any) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kifu")
def cli() -> None:
    """kifu (棋譜): records, replays, validates and diffs games of TWEAK, GRAPH-T and
    more, written in one shared notation (docs/notation.md).

    Every FILE argument accepts - for stdin; every -o accepts - for stdout. Errors are one
    line, FILE:LINE:COL: message, with exit code 1.
    """
    # a file name that is not UTF-8 reaches Python as lone surrogates (PEP 383): echo it
    # back as the bytes it was, not as a UnicodeEncodeError
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]


def main() -> None:
    cli(prog_name="kifu")


if __name__ == "__main__":
    main()
