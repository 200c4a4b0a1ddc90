"""``kifu puzzles generate``: the CLI of :mod:`kifu.lab.generate`."""

from __future__ import annotations

import sys

import click

from kifu import games
from kifu.cli.common import handle_errors
from kifu.cli.options import QuestionCommand, max_memory_option, quiet_option
from kifu.cli.scale import executor_options
from kifu.lab.generate import GAMES_PER_CHUNK, generate_puzzles
from kifu.notation.files import write_output
from kifu.notation.puzzle import Puzzle, format_puzzles
from kifu.puzzles import get_question


def write_puzzles(path: str, puzzles: list[Puzzle]) -> None:
    write_output(path, format_puzzles(puzzles))


@click.group(short_help="Make puzzles (see docs/puzzles.md).")
def puzzles() -> None:
    """Make puzzles (see docs/puzzles.md)."""


@puzzles.command(cls=QuestionCommand)
@click.argument("game_name", metavar="GAME")
@click.option("-Q", "--question", "spec", required=True, help="e.g. tweak-this-turn")
@click.option("-n", "--count", type=click.IntRange(1), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", type=int, help="Seats (default: the game's minimum + 1).")
@click.option("-o", "--output", default="-", show_default=True, help="File (- = stdout).")
@click.option("--budget-nodes", type=click.IntRange(1), default=200_000, show_default=True,
              help="Skip candidates whose search needs more nodes.")
@max_memory_option
@click.option("--db", "db", metavar="PATH", default=None,
              help="Also store the puzzles in this archive (kifu archive; '' for $KIFU_DB "
                   "or ./kifu.db).")
@executor_options(chunk_size=GAMES_PER_CHUNK, unit="games")
@quiet_option("No progress bar and no summary on stderr.")
@handle_errors
def generate(game_name, spec, count, seed, players, output, workers, budget_nodes,
             max_memory, db, dask, chunk_size, quiet) -> None:
    """Play seeded bot games of GAME and keep positions where --question has exactly one
    winning first action, with a Difficulty (nodes searched, line length, failing first
    actions). The same seed gives the same file whatever --workers, --dask, --chunk-size."""
    game = games.get(game_name)
    question = get_question(spec)
    if question.game != game.id:
        raise click.UsageError(f"question {question.name} is for {question.game}")
    if players is None:
        players = min(game.min_players + 1, game.max_players)
    game.check_players(players)
    found: list[Puzzle] = []
    with click.progressbar(length=count, label="puzzles", file=sys.stderr,
                           hidden=quiet) as bar:
        for p in generate_puzzles(game.id, question.spec, count=count, seed=seed,
                                  players=players, workers=workers,
                                  budget_nodes=budget_nodes, dask=dask,
                                  chunk_size=chunk_size, max_memory=max_memory):
            found.append(p)
            bar.update(1)
    write_puzzles(output, found)
    if output != "-" and not quiet:
        click.echo(f"{output}: {len(found)} puzzle(s)", err=True)
    if db is not None:
        from kifu.archive import add_puzzles

        stats = add_puzzles(found, db=db or None)
        if not quiet:
                click.echo(f"{stats.puzzles} puzzle(s) stored, {stats.puzzle_duplicates} "
                       "already in the archive", err=True)
