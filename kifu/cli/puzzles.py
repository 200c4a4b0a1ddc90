"""``kifu puzzles generate``: the CLI of :mod:`kifu.lab.generate`."""

from __future__ import annotations

import sys

import click

from kifu import games
from kifu.cli.common import handle_errors
from kifu.cli.options import QuestionCommand, max_memory_option, quiet_option, seconds_callback
from kifu.cli.scale import executor_options
from kifu.lab.generate import GAMES_PER_CHUNK, GIVE_UP, Progress, generate_puzzles
from kifu.notation.files import check_output, write_output
from kifu.notation.puzzle import Puzzle, format_puzzles
from kifu.puzzles import get_question


def write_puzzles(path: str, puzzles: list[Puzzle], *, inputs: tuple[str, ...] = ()) -> None:
    write_output(path, format_puzzles(puzzles), inputs=inputs)


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
@click.option("--bot", "bot", default=None, metavar="BOT",
              help="The bot playing every seat of the games the puzzles come from, e.g. "
                   "pimc or ismcts:iters=50 (default: greedy, else random).")
@click.option("--max-games", type=click.IntRange(0, 10**9), default=10_000,
              show_default=True, help="Stop after this many games.")
@click.option("--max-seconds", type=click.FloatRange(0, 1e9, min_open=True), default=None,
              callback=seconds_callback,
              help="Stop after this long (between chunks of games; the puzzles found then "
                   "depend on the machine's speed).")
@executor_options(chunk_size=GAMES_PER_CHUNK, unit="games")
@quiet_option("No progress bar and no summary on stderr.")
@handle_errors
def generate(game_name, spec, count, seed, players, output, workers, budget_nodes,
             max_memory, db, bot, max_games, max_seconds, dask, chunk_size, quiet) -> None:
    """Play seeded bot games of GAME and keep positions where --question has exactly one
    winning first action, with a Difficulty (nodes searched, line length, failing first
    actions). The same seed gives the same file whatever --workers, --dask, --chunk-size.

    The progress bar counts games and shows the positions tried and the puzzles found. A
    run that ends with fewer than --count puzzles (--max-games, --max-seconds, or the
    first 200 positions all past --budget-nodes) or is stopped by Ctrl-C still writes the
    puzzles found, says why, and exits with code 1."""
    game = games.get(game_name)
    question = get_question(spec)
    if question.game != game.id:
        raise click.UsageError(f"question {question.name} is for {question.game}")
    if players is None:
        players = min(game.min_players + 1, game.max_players)
    game.check_players(players)
    archive: tuple[str, ...] = ()
    if db is not None:
        from kifu.archive import db_path

        path = db_path(db or None)
        archive = (path, path + "-wal", path + "-shm", path + "-journal")
    check_output(output, inputs=archive)  # refused now, not after the search
    found: list[Puzzle] = []
    progress = Progress()
    interrupted = False

    def status(_item: object) -> str:
        return (f"{progress.positions} positions tried, {len(found)}/{count} puzzles"
                if progress.games else "")

    with click.progressbar(length=max(max_games, 1), label="games", file=sys.stderr,
                           item_show_func=status, hidden=quiet) as bar:
        try:
            for p in generate_puzzles(
                game.id, question.spec, count=count, seed=seed, players=players,
                workers=workers, budget_nodes=budget_nodes, dask=dask,
                chunk_size=chunk_size, max_memory=max_memory, bot=bot,
                max_games=max_games, max_seconds=max_seconds,
                give_up=GIVE_UP, progress=progress,
                on_progress=lambda pr: bar.update(pr.games - bar.pos, current_item=pr),
            ):
                found.append(p)
        except KeyboardInterrupt:
            interrupted = True
    write_puzzles(output, found, inputs=archive)
    if not quiet and (output != "-" or interrupted or progress.stopped):
        click.echo(f"{output if output != '-' else '<stdout>'}: {len(found)} puzzle(s) "
                   f"written, {progress.games} game(s) played, {progress.positions} "
                   "position(s) tried", err=True)
    if db is not None and found:
        from kifu.archive import add_puzzles

        stats = add_puzzles(found, db=db or None)
        if not quiet:
            click.echo(f"{stats.puzzles} puzzle(s) stored, {stats.puzzle_duplicates} "
                       "already in the archive", err=True)
    why = _shortfall(progress, interrupted, count, len(found), budget_nodes, max_games,
                     max_seconds)
    if why:
        click.echo(why, err=True)
        raise SystemExit(1)


def _shortfall(progress: Progress, interrupted: bool, count: int, n: int, budget: int,
               max_games: int, max_seconds: float | None) -> str:
    """Why a run wrote fewer puzzles than asked (empty when it did not)."""
    if interrupted:
        return f"interrupted: {n} of {count} puzzle(s) found were written"
    if n >= count:
        return ""
    if progress.stopped == "budget":
        return (f"stopped: none of the first {progress.positions} positions tried could be "
                f"solved within --budget-nodes {budget} (and --max-memory); raise them (or "
                "try another question)")
    if progress.stopped == "time":
        return (f"stopped after --max-seconds {max_seconds:g}: {n} of {count} puzzle(s) "
                "found")
    over = (f"; {progress.over_budget} of them needed more than --budget-nodes {budget} "
            "or --max-memory" if progress.over_budget else "")
    return (f"only {n} of {count} puzzle(s) found in {progress.games} game(s) "
            f"(--max-games {max_games}; {progress.positions} position(s) tried{over})")
