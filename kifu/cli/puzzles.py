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
from kifu.lab.generate import (
    GAMES_PER_CHUNK,
    GIVE_UP,
    Progress,
    generate_puzzles,
    slow_warning,
)
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
@click.option("--bots", "bots", default=None, metavar="B1,B2,...",
              help="Mixed bots: game i seats them in turn from the i-th (e.g. "
                   "random,greedy,pimc,ismcts; expert where it is registered).")
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
@click.option("--rate", is_flag=True,
              help="Rate the puzzles (bots of several strengths try each: a Rating tag) and "
                   "rank them by interest; implied by the three options below.")
@click.option("--min-rating", type=float, default=None, help="Keep puzzles rated at least this.")
@click.option("--max-rating", type=float, default=None, help="Keep puzzles rated at most this.")
@click.option("--max-share", type=click.FloatRange(0, 1, min_open=True), default=None,
              metavar="F", help="No theme on more than this share of the batch (e.g. 0.3).")
@executor_options(chunk_size=GAMES_PER_CHUNK, unit="games")
@quiet_option("No progress and no summary on stderr.")
@handle_errors
def generate(game_name, spec, count, seed, players, output, workers, budget_nodes,
             max_memory, db, bot, bots, max_games, max_seconds, theme, near_duplicates,
             balance, rate, min_rating, max_rating, max_share, dask, chunk_size,
             quiet) -> None:
    """Play seeded bot games of GAME and keep positions where --question has exactly one
    winning first action, with a Difficulty (nodes searched, line length, failing first
    actions), Themes and the answer in words. No near-duplicates (the same position,
    neighbouring plies of one game) unless asked; the kinds of answer balanced (chosen
    among 3 x COUNT puzzles) unless --no-balance. With --rate (or a rating bound or
    --max-share) the puzzles are rated, ranked by interest and capped per theme
    (docs/puzzles.md). The same seed gives the same file whatever --workers, --dask,
    --chunk-size.

    Progress: games played, positions tried, puzzles found and an ETA; a question known
    to be slow for its settings says so before it starts, with faster settings. A run
    that ends with fewer than --count puzzles (--max-games, --max-seconds, or the first
    200 positions all past --budget-nodes) or is stopped by Ctrl-C still writes the
    puzzles found, says why, and exits with code 1."""
    import time

    from kifu.lab.variety import POOL, curate, varied

    game = games.get(game_name)
    question = get_question(spec)
    if question.game != game.id:
        raise click.UsageError(f"question {question.name} is for {question.game}")
    if bot and bots:
        raise click.UsageError("give --bot or --bots, not both")
    mixed = _bots(bots)
    if mixed is not None:
        bot = ",".join(mixed)
    if players is None:
        players = min(game.min_players + 1, game.max_players)
    game.check_players(players)
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise click.UsageError("--min-rating is above --max-rating")
    curated = rate or min_rating is not None or max_rating is not None or max_share is not None
    archive: tuple[str, ...] = ()
    if db is not None:
        from kifu.archive import db_path

        path = db_path(db or None)
        archive = (path, path + "-wal", path + "-shm", path + "-journal")
    check_output(output, inputs=archive)  # refused now, not after the search
    ticker = Ticker(quiet)
    warning = slow_warning(game.id, question.spec, players, count, budget_nodes)
    if warning and not quiet:
        click.echo(warning, err=True)
    raw: list[Puzzle] = []  # every puzzle the search found, before the variety filter
    progress = Progress()
    interrupted = False
    want = count * POOL * (3 if min_rating is not None or max_rating is not None else 2) \
        if curated else (count * POOL if balance else count)
    started = time.monotonic()

    def choose(stream):
        if not curated:
            return list(varied(stream, count=count, players=players, theme=theme,
                               near_duplicates=near_duplicates, balance=balance))
        pool = list(varied(stream, count=want, players=players, theme=theme,
                           near_duplicates=near_duplicates, balance=False))
        return pool

    def shown(pr: Progress) -> None:
        spent = time.monotonic() - started
        got = len(raw)
        eta = (f"ETA {_duration(spent / got * max(0, want - got))}" if got
               else "ETA unknown until a first puzzle is found")
        ticker.show(f"generating: {pr.games} game(s), {pr.positions} positions tried, {got} "
                    f"puzzle(s) found for {want} wanted, {_duration(spent)} so far, {eta}")

    def tap():
        for p in generate_puzzles(
            game.id, question.spec, count=10**9, seed=seed, players=players,
            workers=workers, budget_nodes=budget_nodes, dask=dask,
            chunk_size=chunk_size, max_memory=max_memory, bot=bot,
            max_games=max_games, max_seconds=max_seconds,
            give_up=GIVE_UP, progress=progress, on_progress=shown,
        ):
            raw.append(p)
            yield p

    try:
        found = choose(tap())
    except KeyboardInterrupt as e:
        from kifu.core.command import Terminated

        if isinstance(e, Terminated):  # SIGTERM or SIGHUP: stop, write nothing (docs/cli.md)
            raise
        interrupted = True
        found = choose(raw)  # what was found so far, filtered the same way
    ticker.done()
    if curated and not interrupted:
        t0 = time.monotonic()

        def rated(done: int, total: int) -> None:
            spent = time.monotonic() - t0
            ticker.show(f"rating: {done} of {total} puzzles, ETA "
                        f"{_duration(spent / done * (total - done))}", force=done == total)

        found = curate(found, count=count, min_rating=min_rating, max_rating=max_rating,
                       max_share=max_share, near_duplicates=near_duplicates,
                       workers=workers, dask=dask, on_rated=rated)
        ticker.done()
    elif curated:
        found = found[:count]
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
    if why and curated and not interrupted and not progress.stopped and len(raw) >= want:
        why = (f"only {len(found)} of {count} puzzle(s) kept of the {want} found: the rest "
               "were near-duplicates, outside the rating bounds or over --max-share; ask for "
               "fewer, or widen the bounds")
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


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Ticker:
    """One status line on stderr: rewritten in place on a terminal, else a line at most
    every ``every`` seconds (a log stays short), and always the last one."""

    def __init__(self, quiet: bool, every: float = 10.0) -> None:
        import time

        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.every = 0.2 if self.tty else every
        self.last = 0.0
        self.clock = time.monotonic
        self.text = ""

    def show(self, text: str, *, force: bool = False) -> None:
        if self.quiet:
            return
        now = self.clock()
        self.text = text
        if not force and now - self.last < self.every:
            return
        self.last = now
        if self.tty:
            sys.stderr.write("\r\x1b[K" + text)
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def done(self) -> None:
        if self.quiet:
            return
        if self.tty:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _bots(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise click.UsageError("--bots names no bot")
    return names


@puzzles.command(cls=QuestionCommand)
@click.argument("files", nargs=-1, metavar="FILE...|DIR|GAME")
@click.option("--db", "db", metavar="ARCHIVE", default=None,
              help="Mine the records of this archive (and store the puzzles in its puzzles "
                   "table) instead of files.")
@click.option("--bots", "bots", default=None, metavar="B1,B2,...",
              help="Play a corpus of GAME first and mine it: game i seats the bots in turn "
                   "from the i-th (mixed and strong bots, e.g. random,greedy,pimc,ismcts or "
                   "expert where it is registered).")
@click.option("--games", "n_games", type=click.IntRange(1), default=100, show_default=True,
              help="With --bots: games in the corpus.")
@click.option("--players", type=int, default=None,
              help="With --bots: seats (default: the game's minimum + 1).")
@click.option("--seed", default="0", show_default=True,
              help="With --bots: game i is played from the seed '<seed>:<i>'.")
@click.option("--records", "records_out", metavar="FILE", default=None,
              help="With --bots: also write the corpus's records to FILE (each Source then "
                   "names FILE#N@plyK: kifu replay FILE --index N --ply K shows it).")
@click.option("-Q", "--question", "spec", multiple=True,
              help="Only this question (default: the game's, as kifu analyze asks them); "
                   "repeat for several, e.g. -Q lianxian-best -Q 'lianxian-least-bonus 5'.")
@click.option("--found", is_flag=True,
              help="Positive puzzles: positions where the player found the only winning "
                   "action (default: where they missed it).")
@click.option("--theme", default=None, metavar="T", help="Keep puzzles with this theme.")
@click.option("-n", "--count", type=click.IntRange(1), default=None,
              help="At most this many puzzles, the most interesting first.")
@click.option("--min-rating", type=float, default=None, help="Keep puzzles rated at least this.")
@click.option("--max-rating", type=float, default=None, help="Keep puzzles rated at most this.")
@click.option("--max-share", type=click.FloatRange(0, 1, min_open=True), default=None,
              metavar="F", help="No theme on more than this share of the batch (e.g. 0.3; the "
                                "question's name and the kind of answer do not count).")
@click.option("--near-duplicates", is_flag=True,
              help="Keep near-duplicates (two puzzles of one game within 3 plies, the same "
                   "answer pattern).")
@click.option("--no-rating", "rating", flag_value=False, default=True,
              help="Do not rate the puzzles (faster; no Rating tags).")
@click.option("-o", "--output", default="-", show_default=True, help="File (- = stdout).")
@click.option("--store", metavar="ARCHIVE", default=None,
              help="Also store the puzzles mined from files in this archive.")
@click.option("--budget-nodes", type=click.IntRange(1), default=BUDGET_NODES,
              show_default=True, help="Most positions one search may visit.")
@click.option("--dd-cards", type=click.IntRange(1, 30), default=None, metavar="K",
              help="GRAPH-T: positions where every hand holds at most K cards (default: 8, "
                   "6, 5 for 2, 3, 4 players).")
@executor_options(chunk_size=MINE_CHUNK, unit="records")
@quiet_option("No progress and no summary on stderr.")
@handle_errors
def mine(files, db, bots, n_games, players, seed, records_out, spec, found, theme, count,
         min_rating, max_rating, max_share, near_duplicates, rating, output, store,
         budget_nodes, dd_cards, workers, dask, chunk_size, quiet) -> None:
    """Find puzzles in played records (FILE..., every record file of DIR, the records of
    --db ARCHIVE, or a corpus of GAME played by --bots): positions where the player to move
    had exactly one winning first action (or a forced win) and did not play it (--found:
    played it). Each puzzle names its source record and ply (Source), says in its comment
    what was played and the answer in words, lists its Themes and carries a Rating (how
    often bots of several strengths find it; docs/puzzles.md). The batch has no
    near-duplicates, is ranked by interest with the kinds of answer in turn, and keeps to
    --count, --min-rating/--max-rating, --theme and --max-share. Progress: records mined,
    positions tried, puzzles found and an ETA, then the rating. The same puzzles whatever
    --workers.

    Examples: kifu puzzles mine games/ -o mined.kifu;
    kifu puzzles mine tweak --bots random,greedy,pimc,ismcts --games 100 --max-share 0.3
    """
    import time

    from kifu.lab.analyze import Job, Limits
    from kifu.lab.mine import MineProgress, archive_job, corpus_jobs, mine_batch
    from kifu.notation.batch import replays
    from kifu.notation.files import display_name, input_files, load_records

    bot_list = _bots(bots)
    if bot_list is not None:
        if db or len(files) != 1:
            raise click.UsageError("with --bots, give one GAME (the corpus is played)")
        game = games.get(files[0])
        from kifu.bots import check_bot

        for b in bot_list:
            check_bot(game, b)
        if players is None:
            players = min(game.min_players + 1, game.max_players)
        game.check_players(players)
    elif bool(files) == bool(db):
        raise click.UsageError("give record files (or a folder), --db ARCHIVE, or GAME with "
                               "--bots")
    if db and store:
        raise click.UsageError("--store is for files: with --db the archive itself keeps "
                               "the puzzles")
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise click.UsageError("--min-rating is above --max-rating")
    paths = input_files(files) if files and bot_list is None else []
    if bot_list is not None:
        inputs: list[str] = []
    else:
        inputs = [*paths, *option_inputs()] if files else [db]
    if store:
        inputs.append(store)
    check_output(output, inputs=inputs)  # refused now, not after the search
    if records_out is not None:
        check_output(records_out, inputs=inputs)
    ticker = Ticker(quiet)
    jobs: list[Job] = []
    if bot_list is not None:
        t0 = time.monotonic()
        name = None if records_out in (None, "-") else display_name(records_out)
        for i, job in enumerate(corpus_jobs(game.id, bot_list, players, n_games, seed,
                                            name=name), 1):
            jobs.append(job)
            spent = time.monotonic() - t0
            ticker.show(f"playing {game.id}: {i} of {n_games} games, ETA "
                        f"{_duration(spent / i * (n_games - i))}", force=i == n_games)
        if records_out is not None:
            from kifu.notation.record import format_record

            write_output(records_out, "\n".join(format_record(j.loc.record) for j in jobs),
                         inputs=inputs)
    elif db:
        from kifu.archive import Archive

        with Archive(db, readonly=True) as a:
            jobs = [archive_job(row["id"], row["text"], db)
                    for row in a.query(columns=("id", "text"))]
    else:
        for path in paths:
            for i, loc in enumerate(load_records(path), 1):  # the first bad one stops
                jobs.append(Job(replays(loc), display_name(path), i))
    limits = Limits(dd_cards=dd_cards, budget_nodes=budget_nodes)

    def report(pr: MineProgress) -> None:
        eta = _duration(pr.eta(time.monotonic()))
        if pr.stage == "mining":
            ticker.show(f"mining: {pr.records} of {pr.total} records, {pr.positions} "
                        f"positions tried, {pr.found} puzzle(s) found, ETA {eta}",
                        force=pr.records == pr.total)
        else:
            ticker.show(f"rating: {pr.rated} of {pr.to_rate} puzzles (bots of several "
                        f"strengths try each), ETA {eta}", force=pr.rated == pr.to_rate)

    progress = MineProgress()
    found_puzzles = mine_batch(
        jobs, question=spec or None, limits=limits, found=found, archive=bool(db), theme=theme,
        count=count, min_rating=min_rating, max_rating=max_rating, max_share=max_share,
        near_duplicates=near_duplicates, rate=rating, workers=workers, dask=dask,
        chunk_size=chunk_size, progress=progress, on_progress=report)
    ticker.done()
    write_output(output, format_puzzles(found_puzzles), inputs=inputs)
    target = db or store
    stored = _store_puzzles(found_puzzles, target) if target else None
    commit_outputs()  # the file and the archive together
    if not quiet:
        click.echo(f"{output if output != '-' else '<stdout>'}: {len(found_puzzles)} "
                   f"puzzle(s) kept of {progress.found} found in {len(jobs)} record(s) "
                   f"({progress.positions} positions tried)", err=True)
    if stored is not None and not quiet:
        click.echo(f"{stored.puzzles} puzzle(s) stored, {stored.puzzle_duplicates} "
                   "already in the archive", err=True)


def _held_out(name: str, game_id: str) -> str:
    """The held-out bot ``--check`` names for ``game_id`` (``game``: the game's own)."""
    if name == "game":
        from kifu.lab.rating import held_out_for

        return held_out_for(game_id)
    return name


@puzzles.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write the puzzles with their Rating, RatingDeviation and RatedBy tags.")
@click.option("--check", "held_out", default=None, metavar="BOT",
              help="Check the ratings against a held-out bot (e.g. ismcts:iters=300 or "
                   "expert:level=fast; 'game': each game's own, ismcts:iters=300 but "
                   "expert:level=fast for Lianxian): its share found per rating band, with "
                   "95% intervals.")
@click.option("--tries", type=click.IntRange(1, 100), default=2, show_default=True,
              help="The held-out bot's tries a puzzle.")
@click.option("--bands", "cuts", type=click.IntRange(1, 20), default=3, show_default=True,
              help="Rating bands of (nearly) equal size for --check.")
@click.option("--json", "as_json", is_flag=True, help="The check as JSON.")
@executor_options(chunk_size=None, unit="puzzles")
@quiet_option("No progress on stderr.")
@handle_errors
def rate(files, output, held_out, tries, cuts, as_json, workers, dask, chunk_size,
         quiet) -> None:
    """Rate the puzzles of FILE... (docs/puzzles.md, *Ratings*): bots of several strengths
    try each one, and a logistic model on an Elo scale, the same for every game, turns
    how often they find the answer into a Rating with a deviation. A puzzle already rated
    keeps its tags unless -o rewrites them. --check BOT asks a bot that is not on the
    ladder and prints the share it finds per rating band: it should fall as the rating
    rises.

    Example: kifu puzzles rate mined.kifu -o rated.kifu --check expert:level=fast
    """
    import json

    from kifu.lab.rating import check, rate_puzzles, rating_of
    from kifu.notation.files import input_files
    from kifu.notation.puzzle import check_puzzle, load_puzzles

    if output is None and held_out is None:
        raise click.UsageError("give -o FILE (to write the rated puzzles), --check BOT, or "
                               "both")
    if held_out is not None:
        from kifu.bots import check_bot

    paths = input_files(files)
    if output is not None:
        check_output(output, inputs=paths)
    puzzles = [check_puzzle(lp).puzzle for path in paths for lp in load_puzzles(path)]
    if held_out is not None:
        for gid in sorted({p.game for p in puzzles}):
            check_bot(games.get(gid), _held_out(held_out, gid))
    ticker = Ticker(quiet)
    if output is not None or any(rating_of(p.tags) is None for p in puzzles):
        n = [0]

        def step() -> None:
            n[0] += 1
            ticker.show(f"rating: {n[0]} of {len(puzzles)} puzzles", force=n[0] == len(puzzles))

        puzzles = [p for p, _ in rate_puzzles(puzzles, workers=workers, dask=dask,
                                                on_puzzle=step)]
        ticker.done()
    if output is not None:
        write_puzzles(output, puzzles, inputs=tuple(paths))
    if held_out is not None:
        rows = []
        for gid in sorted({p.game for p in puzzles}):
            mine = [p for p in puzzles if p.game == gid]
            bot = _held_out(held_out, gid)
            for b in check(mine, bot=bot, tries=tries, cuts=cuts, workers=workers,
                           dask=dask):
                rows.append({"game": gid, "bot": bot, "low": b.low, "high": b.high,
                             "puzzles": b.puzzles, "found": b.found, "share": b.share,
                             "ci": list(b.ci)})
        if as_json:
            click.echo(json.dumps(rows))
        else:
            click.echo(f"{'game':<9} {'ratings':>11} {'tries':>6} {'found':>6}  share "
                       f"(95% interval) by the held-out bot")
            for r in rows:
                click.echo(f"{r['game']:<9} {r['low']:>5.0f}-{r['high']:<5.0f} "
                           f"{r['puzzles']:>6} {r['found']:>6}  {r['share']:.2f} "
                           f"({r['ci'][0]:.2f}-{r['ci'][1]:.2f})  {r['bot']}")
