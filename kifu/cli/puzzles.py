"""``kifu puzzles generate`` and ``kifu puzzles mine``: the CLI of :mod:`kifu.lab.generate`
and :mod:`kifu.lab.mine`."""

from __future__ import annotations

import sys

import click

from kifu import games
from kifu.cli.common import handle_errors
from kifu.cli.options import (
    QuestionCommand,
    max_memory_option,
    option_inputs,
    quiet_option,
    seconds_callback,
)
from kifu.cli.scale import executor_options
from kifu.lab.analyze import BUDGET_NODES
from kifu.lab.generate import GAMES_PER_CHUNK, GIVE_UP, Progress, generate_puzzles
from kifu.lab.mine import RECORDS_PER_CHUNK as MINE_CHUNK
from kifu.notation.files import check_output, commit_outputs, on_commit, write_output
from kifu.notation.puzzle import Puzzle, format_puzzles
from kifu.puzzles import get_question


def write_puzzles(path: str, puzzles: list[Puzzle], *, inputs: tuple[str, ...] = ()) -> None:
    write_output(path, format_puzzles(puzzles), inputs=inputs)


class _Stored:
    """The counts of :func:`_store_puzzles`, known once the outputs are committed."""

    puzzles = puzzle_duplicates = 0


def _store_puzzles(puzzles: list[Puzzle], db: str | None) -> _Stored:
    """Store ``puzzles`` in the archive ``db`` in one transaction, with the command's other
    outputs (kifu.notation.files.on_commit)."""
    from kifu.archive import Archive

    stored = _Stored()

    def store() -> None:
        with Archive(db) as a:
            stats = a.add_rows(_rows(puzzles), batch_rows=len(puzzles) + 1)
        stored.puzzles, stored.puzzle_duplicates = stats.puzzles, stats.puzzle_duplicates

    on_commit(store)
    return stored


def _rows(puzzles: list[Puzzle]):
    from kifu.archive.rows import puzzle_row

    return (puzzle_row(p) for p in puzzles)


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
              help="Also store the puzzles in this archive (kifu archive), together with "
                   "-o at the end.")
@click.option("--bot", "bot", default=None, metavar="BOT",
              help="The bot playing every seat of the games the puzzles come from, e.g. "
                   "pimc or ismcts:iters=50 (default: greedy, else random).")
@click.option("--max-games", type=click.IntRange(0, 10**9), default=10_000,
              show_default=True, help="Stop after this many games.")
@click.option("--max-seconds", type=click.FloatRange(0, 1e9, min_open=True), default=None,
              callback=seconds_callback,
              help="Stop after this long (between chunks of games; the puzzles found then "
                   "depend on the machine's speed).")
@click.option("--theme", default=None, metavar="T",
              help="Keep puzzles with this theme (e.g. thief, grey-lead, combo).")
@click.option("--near-duplicates", is_flag=True,
              help="Keep a position seen before and neighbouring plies of one game.")
@click.option("--no-balance", "balance", flag_value=False, default=True,
              help="Take the first puzzles found instead of balancing the kinds of answer.")
@executor_options(chunk_size=GAMES_PER_CHUNK, unit="games")
@quiet_option("No progress bar and no summary on stderr.")
@handle_errors
def generate(game_name, spec, count, seed, players, output, workers, budget_nodes,
             max_memory, db, bot, max_games, max_seconds, theme, near_duplicates, balance,
             dask, chunk_size, quiet) -> None:
    """Play seeded bot games of GAME and keep positions where --question has exactly one
    winning first action, with a Difficulty (nodes searched, line length, failing first
    actions) and Themes. No near-duplicates (the same position, neighbouring plies of one
    game) unless asked; the kinds of answer balanced (chosen among 3 x COUNT puzzles) unless
    --no-balance. The same seed gives the same file whatever --workers, --dask,
    --chunk-size.

    The progress bar counts games and shows the positions tried and the puzzles found. A
    run that ends with fewer than --count puzzles (--max-games, --max-seconds, or the
    first 200 positions all past --budget-nodes) or is stopped by Ctrl-C still writes the
    puzzles found, says why, and exits with code 1."""
    from kifu.lab.variety import varied

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
    raw: list[Puzzle] = []  # every puzzle the search found, before the variety filter
    progress = Progress()
    interrupted = False

    def choose(stream):
        return list(varied(stream, count=count, players=players, theme=theme,
                           near_duplicates=near_duplicates, balance=balance))

    def tap():
        for p in generate_puzzles(
            game.id, question.spec, count=10**9, seed=seed, players=players,
            workers=workers, budget_nodes=budget_nodes, dask=dask,
            chunk_size=chunk_size, max_memory=max_memory, bot=bot,
            max_games=max_games, max_seconds=max_seconds,
            give_up=GIVE_UP, progress=progress,
            on_progress=lambda pr: bar.update(pr.games - bar.pos, current_item=pr),
        ):
            raw.append(p)
            yield p

    def status(_item: object) -> str:
        return (f"{progress.positions} positions tried, {len(raw)} candidate puzzle(s) "
                f"for {count}" if progress.games else "")

    with click.progressbar(length=max(max_games, 1), label="games", file=sys.stderr,
                           item_show_func=status, hidden=quiet) as bar:
        try:
            found = choose(tap())
        except KeyboardInterrupt:
            interrupted = True
            found = choose(raw)  # what was found so far, filtered the same way
    if found or not interrupted:  # Ctrl-C before a puzzle was found: no output changes
        write_puzzles(output, found, inputs=archive)
        stored = _store_puzzles(found, db) if db is not None and found else None
        commit_outputs()  # the file and the archive together
        if not quiet and (output != "-" or interrupted or progress.stopped):
            click.echo(f"{output if output != '-' else '<stdout>'}: {len(found)} puzzle(s) "
                       f"written, {progress.games} game(s) played, {progress.positions} "
                       "position(s) tried", err=True)
        if stored is not None and not quiet:
            click.echo(f"{stored.puzzles} puzzle(s) stored, {stored.puzzle_duplicates} "
                       "already in the archive", err=True)
    why = _shortfall(progress, interrupted, count, len(found), budget_nodes, max_games,
                     max_seconds)
    if why:
        click.echo(why, err=True)
        raise SystemExit(1)


def _shortfall(progress: Progress, interrupted: bool, count: int, n: int, budget: int,
               max_games: int, max_seconds: float | None) -> str:
    """Why a run wrote fewer puzzles than asked (empty when it did not)."""
    if interrupted and not n:
        return "interrupted before a puzzle was found: no output was changed"
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


@puzzles.command(cls=QuestionCommand)
@click.argument("files", nargs=-1, metavar="FILE...|DIR")
@click.option("--db", "db", metavar="ARCHIVE", default=None,
              help="Mine the records of this archive (and store the puzzles in its puzzles "
                   "table) instead of files.")
@click.option("-Q", "--question", "spec", default=None,
              help="Only this question (default: the game's, as kifu analyze asks them).")
@click.option("--found", is_flag=True,
              help="Positive puzzles: positions where the player found the only winning "
                   "action (default: where they missed it).")
@click.option("--theme", default=None, metavar="T", help="Keep puzzles with this theme.")
@click.option("-o", "--output", default="-", show_default=True, help="File (- = stdout).")
@click.option("--store", metavar="ARCHIVE", default=None,
              help="Also store the puzzles mined from files in this archive.")
@click.option("--budget-nodes", type=click.IntRange(1), default=BUDGET_NODES,
              show_default=True, help="Most positions one search may visit.")
@click.option("--dd-cards", type=click.IntRange(1, 30), default=None, metavar="K",
              help="GRAPH-T: positions where every hand holds at most K cards (default: 8, "
                   "6, 5 for 2, 3, 4 players).")
@executor_options(chunk_size=MINE_CHUNK, unit="records")
@quiet_option("No progress bar and no summary on stderr.")
@handle_errors
def mine(files, db, spec, found, theme, output, store, budget_nodes, dd_cards, workers, dask,
         chunk_size, quiet) -> None:
    """Find puzzles in played records (FILE..., every record file of DIR, or the records of
    --db ARCHIVE): positions where the player to move had exactly one winning first action
    (or a forced win) and did not play it (--found: played it). Each puzzle names its
    source record and ply (Source), says in its comment what was played, and lists its
    Themes; the same position is kept once. The same puzzles whatever --workers.

    Example: kifu puzzles mine games/ -o mined.kifu
    """
    from kifu.lab.analyze import Job, Limits
    from kifu.lab.mine import archive_job
    from kifu.lab.mine import mine as mine_puzzles
    from kifu.notation.batch import replays
    from kifu.notation.files import display_name, input_files, load_records

    if bool(files) == bool(db):
        raise click.UsageError("give record files (or a folder), or --db ARCHIVE")
    if db and store:
        raise click.UsageError("--store is for files: with --db the archive itself keeps "
                               "the puzzles")
    paths = input_files(files) if files else []
    inputs: list[str] = [*paths, *option_inputs()] if files else [db]
    if store:
        inputs.append(store)
    check_output(output, inputs=inputs)  # refused now, not after the search
    jobs: list[Job] = []
    if db:
        from kifu.archive import Archive

        with Archive(db, readonly=True) as a:
            jobs = [archive_job(row["id"], row["text"], db)
                    for row in a.query(columns=("id", "text"))]
    else:
        for path in paths:
            for i, loc in enumerate(load_records(path), 1):  # the first bad one stops
                jobs.append(Job(replays(loc), display_name(path), i))
    limits = Limits(dd_cards=dd_cards, budget_nodes=budget_nodes)
    found_puzzles: list[Puzzle] = []
    with click.progressbar(length=len(jobs), label="records", file=sys.stderr,
                           hidden=quiet) as bar:
        for p in mine_puzzles(jobs, question=spec, limits=limits, found=found,
                              archive=bool(db), theme=theme, workers=workers, dask=dask,
                              chunk_size=chunk_size, on_record=lambda: bar.update(1)):
            found_puzzles.append(p)
    write_output(output, format_puzzles(found_puzzles), inputs=inputs)
    target = db or store
    stored = _store_puzzles(found_puzzles, target) if target else None
    commit_outputs()  # the file and the archive together
    if output != "-" and not quiet:
        click.echo(f"{output}: {len(found_puzzles)} puzzle(s) from {len(jobs)} record(s)",
                   err=True)
    if stored is not None and not quiet:
        click.echo(f"{stored.puzzles} puzzle(s) stored, {stored.puzzle_duplicates} "
                   "already in the archive", err=True)
