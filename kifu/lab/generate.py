"""Puzzle generation: seeded bot games -> candidate positions -> puzzles with a unique
winning first action (``kifu puzzles generate``).

Game ``i`` of a run is played from the seed ``"<seed>:<i>"``; games are cut into chunks and
spread with :func:`kifu.core.executor.map_chunks`, whose results come back in chunk order,
and the first COUNT puzzles in that order are kept: the output is the same bytes for a
seed whatever the executor. :func:`generate_puzzles` yields them.
"""

from __future__ import annotations

from collections.abc import Iterator

from kifu import games
from kifu.bots import default_bot, make_bot
from kifu.core.executor import map_chunks
from kifu.core.game import DEALER, Bot, Game
from kifu.core.rng import Rng
from kifu.notation.puzzle import Puzzle
from kifu.puzzles import UNKNOWN, Budget, get_question
from kifu.puzzles.base import DEFAULT_MEMORY

GAMES_PER_CHUNK = 4
MAX_PLIES = 5000


def bot_for(game: Game, seat: int, rng: Rng) -> Bot:
    """Greedy bots where the game has them (more interesting positions), else random."""
    return make_bot(game, default_bot(game), seat, rng)


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
    """The first ``count`` puzzles of the run (fewer if ``max_games`` games give fewer);
    each search within ``budget_nodes`` and ``max_memory`` bytes.

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
