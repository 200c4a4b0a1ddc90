"""Puzzle generation: seeded bot games -> candidate positions -> puzzles with a unique
winning first action (``kifu puzzles generate``).

Game ``i`` of a run is played from the seed ``"<seed>:<i>"``; games are cut into chunks and
spread with :func:`kifu.core.executor.map_chunks`, whose results come back in chunk order,
and the first COUNT puzzles in that order are kept: the output is the same bytes for a
seed whatever the executor. :func:`generate_puzzles` yields them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import msgspec

from kifu import games
from kifu.bots import check_bot, default_bot, make_bot
from kifu.core.errors import KifuError
from kifu.core.executor import map_chunks
from kifu.core.game import DEALER, Bot, Game
from kifu.core.rng import Rng
from kifu.notation.puzzle import Puzzle
from kifu.puzzles import UNKNOWN, Budget, get_question
from kifu.puzzles.base import DEFAULT_MEMORY

GAMES_PER_CHUNK = 4
MAX_PLIES = 5000


def bot_for(game: Game, seat: int, rng: Rng, bot: str | None = None) -> Bot:
    """The bot ``bot`` of the registry (``pimc``, ``ismcts:iters=50``...), by default
    greedy where the game has it (more interesting positions), else random."""
    return make_bot(game, bot or default_bot(game), seat, rng)


class Tally(msgspec.Struct):
    """What a run (or a chunk of it) did: games played, candidate positions tried (solved
    or given up), those whose search ran past the node budget, puzzles kept."""

    games: int = 0
    positions: int = 0
    over_budget: int = 0
    found: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.positions += other.positions
        self.over_budget += other.over_budget
        self.found += other.found


class Progress(Tally):
    """A run as it goes (:func:`generate_puzzles` updates it after every chunk), and why it
    stopped short of ``count``: ``"games"`` (``max_games`` played), ``"time"``
    (``max_seconds``), ``"budget"`` (every one of the first :data:`GIVE_UP` positions
    needed more than ``budget_nodes``), or ``""``."""

    stopped: str = ""


GIVE_UP = 200
"""Positions tried, none solved within the node budget and no puzzle found: a run that has
met this many gives up (its budget is too small for the question)."""


def puzzles_from_game(game_id: str, spec: str, players: int, seed: int, index: int,
                      budget_nodes: int, per_game: int,
                      max_memory: int | None = DEFAULT_MEMORY,
                      bot: str | None = None, tally: Tally | None = None) -> list[Puzzle]:
    """Play game ``index`` of a run and keep at most ``per_game`` puzzles from it
    (``tally``: counts what was tried)."""
    game = games.get(game_id)
    question = get_question(spec)
    rng = Rng(f"{seed}:{index}")
    state = game.new_state(players)
    mixed = bot.split(",") if bot and "," in bot else None  # --bots: seats in turn
    bots = [bot_for(game, s, Rng(f"{seed}:{index}:{s}"),
                    mixed[(index + s) % len(mixed)] if mixed else bot)
            for s in range(players)]
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
                if tally is not None:
                    tally.positions += 1
                    tally.over_budget += not sol.complete
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
    if tally is not None:
        tally.games += 1
        tally.found += len(out)
    return out


def _chunk(args: tuple) -> tuple[list[Puzzle], Tally]:
    game_id, spec, players, seed, first, last, budget_nodes, per_game, max_memory, bot = args
    out: list[Puzzle] = []
    tally = Tally()
    for i in range(first, last):
        out += puzzles_from_game(game_id, spec, players, seed, i, budget_nodes, per_game,
                                 max_memory, bot, tally)
    return out, tally


def generate_puzzles(game_id: str, spec: str, *, count: int, seed: int, players: int,
                     workers: int = 1, budget_nodes: int = 200_000, per_game: int = 2,
                     max_games: int = 10_000, dask: str | None = None,
                     chunk_size: int = GAMES_PER_CHUNK,
                     max_memory: int | None = DEFAULT_MEMORY,
                     bot: str | None = None, max_seconds: float | None = None,
                     give_up: int | None = None, progress: Progress | None = None,
                     on_progress: Callable[[Progress], None] | None = None,
                     ) -> Iterator[Puzzle]:
    """The first ``count`` puzzles of the run (fewer if ``max_games`` games give fewer),
    from games every seat of which ``bot`` plays (default: greedy where the game has it);
    each search within ``budget_nodes`` and ``max_memory`` bytes.

    Chunks of ``chunk_size`` games; the puzzles do not depend on it, nor on the executor.
    ``progress`` (updated after each chunk, then ``on_progress(progress)`` is called) says
    how many games and positions were tried and why the run stopped short. It also stops
    after ``max_seconds`` (between chunks: the puzzles then depend on the machine's speed)
    and, with ``give_up``, once that many positions were tried with none solved within
    ``budget_nodes`` and no puzzle found."""
    if bot is not None:
        for name in bot.split(","):  # several: the seats of game i take them in turn
            check_bot(games.get(game_id), name.strip())
    if max_games < 0:
        raise KifuError(f"--max-games must be 0 or more, not {max_games}")
    progress = progress if progress is not None else Progress()
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    chunks = ((game_id, spec, players, seed, first, min(first + chunk_size, max_games),
               budget_nodes, per_game, max_memory, bot)
              for first in range(0, max_games, chunk_size))
    made = 0
    for found, tally in map_chunks(_chunk, chunks, workers=workers, dask=dask):
        tally.found = min(len(found), count - made)
        progress.add(tally)
        if on_progress is not None:
            on_progress(progress)
        for p in found:
            yield p
            made += 1
            if made == count:
                return
        if give_up and made == 0 and progress.positions >= give_up \
                and progress.over_budget == progress.positions:
            progress.stopped = "budget"
            return
        if deadline is not None and time.monotonic() >= deadline:
            progress.stopped = "time"
            return
    progress.stopped = "games"


# --- a question slow for its settings ------------------------------------------------------

SLOW: dict[tuple[str, int], float] = {
    ("towai-win-round", 2): 12.9,
    ("towai-win-round", 3): 24.1,
    ("tweak-within 2", 3): 0.72,
    ("lianxian-best", 2): 0.62,
    ("lianxian-finish", 2): 27.5,  # rare: 1 puzzle in 564 games
    ("lianxian-least-bonus 3", 2): 2.93,
}
"""CPU seconds per puzzle found by ``generate_puzzles`` (default bots and budget, seed 0,
the first 2 or 3 puzzles), by (question, players) where it was more than half a second:
the question's full spec (``tweak-within 2``) or its name for every argument. Measured
2026-11-28 at load 12-30 (``docs/puzzles.md``, *Time you can see*, has every question). A
run expected to take more than :data:`SLOW_SECONDS` of CPU is announced before it starts."""
SLOW_SECONDS = 60.0


def slow_warning(game_id: str, spec: str, players: int, count: int,
                 budget_nodes: int = 200_000) -> str:
    """A warning (empty when none) that ``count`` puzzles of ``spec`` with ``players``
    seats take long, with settings that are faster."""
    name = spec.split(" ", 1)[0]
    per = SLOW.get((spec, players), SLOW.get((name, players)))
    if per is None or per * count < SLOW_SECONDS:
        return ""
    faster = [f"-n {max(1, int(SLOW_SECONDS // per))} for a first batch",
              "--max-seconds S to stop in time (what was found is written)"]
    others = sorted(p for (q, p), v in SLOW.items() if q in (spec, name) and p != players
                    and v < per * 0.75)
    if others:
        faster.insert(0, f"--players {others[0]} (about {SLOW[(name, others[0])]:.0f} s a "
                         "puzzle)")
    if budget_nodes > 50_000:
        faster.append("--budget-nodes 50000 (skips the biggest searches)")
    return (f"{spec} with {players} players is slow: about {per:.2g} s of CPU per puzzle "
            f"was measured, so {count} puzzle(s) may take {_mins(per * count)} or more (longer "
            f"on a busy machine). Faster: {'; '.join(faster)}.")


def _mins(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"
