"""``kifu puzzles generate``: seeded bot games -> candidate positions -> puzzles with a
unique winning first action.

Game ``i`` of a run is played from the seed ``"<seed>:<i>"``; games are cut into chunks and
spread with :func:`kifu.core.executor.map_chunks`, whose results come back in chunk order,
and the first COUNT puzzles in that order are kept: the output is the same bytes for a
seed whatever ``--workers``. :func:`generate_puzzles` yields them; :func:`write_puzzles`
is the one sink.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import click

from kifu import games
from kifu.cli.common import handle_errors, write_output
from kifu.cli.options import max_memory_option
from kifu.cli.scale import executor_options
from kifu.core.executor import map_chunks
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.notation.puzzle import Puzzle, format_puzzles
from kifu.puzzles import UNKNOWN, Budget, get_question
from kifu.puzzles.base import DEFAULT_MEMORY

GAMES_PER_CHUNK = 4
MAX_PLIES = 5000


def bot_for(game, seat: int, rng: Rng):
    """Greedy bots where the game has them (more interesting positions), else random."""
    name = "greedy" if "greedy" in game.bots else "random"
    return game.bots[name](seat, rng)


def puzzles_from_game(game_id: str, spec: str, players: int, seed: int, index: int,
                      budget_nodes: int, per_game: int,
                      max_memory: int | None = DEFAULT_MEMORY) -> list[Puzzle]:
    """Play game ``index`` of a run and keep at most ``per_game`` puzzles from it."""
    game = games.get(game_id)
    question = get_question(spec)
    rng = Rng(f"{seed}:{index}")
    state = game.new_state(players)
    bots = [bot_for(game, s, Rng(f"{seed}:{index}:{s}")) for s in range(players)]
    budget = Budget(nodes=budget_nodes, memory=max_memory)
    out: list[Puzzle] = []
    ply = 0
    seen: set[str] = set()
    while state.to_move is not None and ply < MAX_PLIES and len(out) < per_game:
        if state.to_move != DEALER and question.applies(state) is None \
                and question.candidate(state):
            line = state.to_line()
            if line not in seen:
                seen.add(line)
                fresh = game.from_line(line)
                sol = question.solve(fresh, budget)
                if (sol.complete and sol.answer != UNKNOWN and sol.winning == 1
                        and question.interesting(sol)):
                    best = next(v.action for v in sol.values if v.value == sol.answer)
                    out.append(Puzzle(
                        game.id, game.rules_spec(state.variant), line, question.spec,
                        answer=sol.answer, solution=sol.line,
                        difficulty=sol.difficulty(),
                        source=f"generate {game.id} seed={seed} game={index}@ply{ply}",
                        comment=f"Only {best} reaches the answer; {sol.failing} of "
                                f"{len(sol.values)} first actions fall short.",
                    ))
        if state.to_move == DEALER:
            action = game.chance_action(state, rng)
        else:
            action = bots[state.to_move].choose(state)
        state.push(action)
        ply += 1
    return out


def _chunk(args: tuple) -> list[Puzzle]:
    game_id, spec, players, seed, first, last, budget_nodes, per_game, max_memory = args
    out: list[Puzzle] = []
    for i in range(first, last):
        out += puzzles_from_game(game_id, spec, players, seed, i, budget_nodes, per_game,
                                 max_memory)
    return out


def generate_puzzles(game_id: str, spec: str, *, count: int, seed: int, players: int,
                     workers: int = 1, budget_nodes: int = 200_000, per_game: int = 2,
                     max_games: int = 10_000, dask: str | None = None,
                     chunk_size: int = GAMES_PER_CHUNK,
                     max_memory: int | None = DEFAULT_MEMORY) -> Iterator[Puzzle]:
    """The first ``count`` puzzles of the run (fewer if ``max_games`` games give fewer).

    Chunks of ``chunk_size`` games; the puzzles do not depend on it, nor on the executor."""
    chunks = ((game_id, spec, players, seed, first, min(first + chunk_size, max_games),
               budget_nodes, per_game, max_memory)
              for first in range(0, max_games, chunk_size))
    made = 0
    for found in map_chunks(_chunk, chunks, workers=workers, dask=dask):
        for p in found:
            yield p
            made += 1
            if made == count:
                return


def write_puzzles(path: str, puzzles: list[Puzzle]) -> None:
    write_output(path, format_puzzles(puzzles))


@click.group()
def puzzles() -> None:
    """Make puzzles (see docs/puzzles.md)."""


@puzzles.command()
@click.argument("game_name", metavar="GAME")
@click.option("-q", "--question", "spec", required=True, help="e.g. tweak-this-turn")
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
@handle_errors
def generate(game_name, spec, count, seed, players, output, workers, budget_nodes,
             max_memory, db, dask, chunk_size) -> None:
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
    with click.progressbar(length=count, label="puzzles", file=sys.stderr) as bar:
        for p in generate_puzzles(game.id, question.spec, count=count, seed=seed,
                                  players=players, workers=workers,
                                  budget_nodes=budget_nodes, dask=dask,
                                  chunk_size=chunk_size, max_memory=max_memory):
            found.append(p)
            bar.update(1)
    write_puzzles(output, found)
    if output != "-":
        click.echo(f"{output}: {len(found)} puzzle(s)", err=True)
    if db is not None:
        from kifu.archive import add_puzzles

        stats = add_puzzles(found, db=db or None)
        click.echo(f"{stats.puzzles} puzzle(s) stored, {stats.puzzle_duplicates} already "
                   "in the archive", err=True)
