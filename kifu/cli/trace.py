"""``kifu trace``: golden traces of seeded bot games, to regenerate and to check."""

from __future__ import annotations

from pathlib import Path

import click

from kifu import games
from kifu.cli.common import handle_errors
from kifu.cli.options import quiet_option
from kifu.core.errors import KifuError
from kifu.notation.files import commit_outputs
from kifu.notation.trace import (
    _game_of,
    check_trace,
    default_directory,
    expected_files,
    regenerate,
)


def _games_and_dir(func):
    """The GAME... argument (default: every game) and ``--dir``."""
    func = click.option("--dir", "directory", default=None, metavar="DIR",
                        type=click.Path(file_okay=False),
                        help="Where the traces live (default: fixtures/traces).")(func)
    return click.argument("names", nargs=-1, metavar="[GAME]...")(func)


@click.group("trace", short_help="Golden traces: regenerate or check them.")
def trace() -> None:
    """Golden traces: seeded bot games written out ply by ply (the position line, the legal
    actions, the action taken). 'kifu trace check' replays them against the engine and
    stops at the first line that differs; 'kifu trace regenerate' rewrites them after a
    deliberate rule change, so the change shows up as a readable diff.
    """


def _ids(names: tuple[str, ...]) -> list[str]:
    return [games.get(n).id for n in names] if names else games.ids()


@trace.command("regenerate")
@_games_and_dir
@quiet_option("Do not list the files written.")
@handle_errors
def regenerate_cmd(names, directory, quiet) -> None:
    """Rewrite the traces of GAME (default: every game) for the default rules and each
    example variant. Example: kifu trace regenerate tweak
    """
    where = Path(directory) if directory else default_directory()
    written = regenerate(where, _ids(names))
    commit_outputs()  # every trace replaced together, the stale ones removed with them
    for path in written:
        if not quiet:
            click.echo(f"{path} ({path.stat().st_size:,} bytes)")


@trace.command("check")
@_games_and_dir
@quiet_option("Report only the traces that differ, are missing or stale.")
@handle_errors
def check_cmd(names, directory, quiet) -> None:
    """Replay the traces of GAME (default: every game) and report the first line that
    differs in each. Exit code 1 when a trace differs or is missing.
    Example: kifu trace check graph-t
    """
    where = Path(directory) if directory else default_directory()
    bad = 0
    for gid in _ids(names):
        for name in expected_files(games.get(gid)):
            path = where / name
            if not path.exists():
                bad += 1
                click.echo(f"{path}: missing (kifu trace regenerate {gid} writes it)", err=True)
                continue
            try:
                lines = check_trace(path)
            except KifuError as e:  # a mismatch, or a malformed or unreadable file
                bad += 1
                click.echo(str(e), err=True)
                continue
            if not quiet:
                click.echo(f"{path}: {lines} lines match")
        for path in sorted(where.glob(f"{gid}*.trace")):
            if path.name not in expected_files(games.get(gid)) and _game_of(path) == gid:
                click.echo(f"{path}: stale (no such variant any more)", err=True)
                bad += 1
    if bad:
        raise SystemExit(1)

