"""Puzzle ratings: how hard a puzzle is, on one scale for every game, from how often bots of
several strengths find its answer (as lichess rates a puzzle from how often its solvers
succeed).

**The model** (a logistic, Elo-scaled item-response model, "Rasch" in psychometrics):
a solver of rating ``S`` finds the answer of a puzzle of rating ``R`` with probability

    P(S, R) = 1 / (1 + 10 ** ((R - S) / 400))

so a puzzle rated 400 above a solver is found one time in eleven, as an Elo game is won.
Each solver is a bot (:data:`SOLVERS`) with a fixed rating on the scale; the bots are the
same for every game, which is what makes the scale one scale (a puzzle rated 1500 in TWEAK
is found by the same bots as often as one rated 1500 in GRAPH-T); a game may add rungs of
its own (:data:`GAME_SOLVERS`: Lianxian's ``defensive``; :data:`SOFT_RUNGS` were tried
and are on no ladder) or ask a rung more trials (:data:`GAME_TRIALS`: Lianxian's
``ismcts:iters=40``, 8).
A solver "finds" a puzzle
when the first action it chooses at the puzzle's position reaches the answer (its value is
the answer's). ``random``'s chance is exact (winning first actions over legal ones); each
other bot is asked ``trials`` times with different seeds.

A puzzle's rating is the most likely ``R`` under a normal prior (mean :data:`PRIOR_MEAN`,
deviation :data:`PRIOR_SD`: a puzzle nobody tried is "1500 give or take 350"), found by
Newton's method; its deviation (``RD``, as Glicko's) is one over the square root of the
information the trials carry plus the prior's. A puzzle every bot finds is rated low with a
wide RD, one none finds high with a wide RD: the RD says how far to trust it.

**The solvers' ratings** (:data:`SOLVERS`) are constants set in the order of the bots'
strength, so a puzzle's rating does not depend on which other puzzles are in its batch; a
joint fit of the solvers' and the puzzles' ratings (:func:`fit`, ``random`` anchored at
800) on the mixed corpora of ``docs/puzzles.md`` (*Ratings*) gives the same range, and
shows how the bots' order changes from game to game.

**The check** (:func:`check`, ``docs/puzzles.md``): a *held-out* bot (:data:`HELD_OUT`, not
one of the solvers; Lianxian's, :data:`GAME_HELD_OUT`, of no rung's family) is asked every
puzzle; the share it finds must fall as the rating
rises (puzzles cut into rating bands; each share with its Wilson 95% interval).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import msgspec

from kifu import games
from kifu.bots import make_bot
from kifu.bots.profiles import profile
from kifu.core.executor import map_chunks
from kifu.core.game import Action, Bot, Game, State
from kifu.core.rng import Rng
from kifu.notation.puzzle import Puzzle
from kifu.puzzles import UNKNOWN, Budget, get_question

PRIOR_MEAN = 1500.0
PRIOR_SD = 350.0
SCALE = 400.0 / math.log(10.0)
"""Rating points per unit of the logistic's argument (Elo's 400 / ln 10)."""


@dataclass(frozen=True)
class Solver:
    """A bot of the rating ladder: its registry name, its fixed rating, its trials."""

    bot: str
    rating: float
    trials: int = 2


SOLVERS: tuple[Solver, ...] = (
    Solver("random", 800.0, 0),  # exact: winning first actions / legal first actions
    Solver("greedy", 1300.0, 1),
    Solver("ismcts:iters=40", 1350.0, 2),
    Solver("pimc:worlds=4", 1450.0, 2),
    Solver("pimc", 1550.0, 2),
)
"""The rating ladder (see the module docstring for where the ratings come from)."""

SOFT_RUNGS: tuple[Solver, ...] = (
    Solver("soft:t=0.25", 1000.0, 4),
    Solver("soft:t=0.125", 1100.0, 4),
    Solver("soft:t=0.0625", 1200.0, 4),
)
"""Noisy greedy rungs (:class:`SoftBot`) between ``random`` and ``greedy``, tried for
Lianxian, whose puzzles the common ladder does not spread (its questions ask for this
turn's points, which ``greedy`` and the searchers nearly always find). They spread its
ratings (947 to 1445 instead of two thirds at 1055-1057) but the held-out check did not
follow them (``docs/puzzles.md``, *Ratings*), so no game uses them: pass them as
``solvers`` to :func:`trials` or :func:`puzzle_trials` to repeat the experiment."""

GAME_SOLVERS: dict[str, tuple[Solver, ...]] = {"lianxian": (Solver("defensive", 1565.0, 1),)}
"""Rungs a game adds to the common ladder. Lianxian: its ``defensive`` bot (the most points
less the bonus given to opponents; deterministic, so one trial), the rung that tells its
``lianxian-least-bonus K`` puzzles apart (every common rung but ``random`` misses nearly
all of them); its rating, 1565, is where the common rungs put it (:func:`place`, on a
design corpus: ``docs/puzzles.md``, *Ratings*). The soft rungs (:data:`SOFT_RUNGS`) are
on no ladder."""

GAME_TRIALS: dict[str, dict[str, int]] = {"lianxian": {"ismcts:iters=40": 8}}
"""Trials a game asks of a rung instead of the common number. Lianxian: nearly every
rung finds nearly every puzzle, so ``ismcts:iters=40``'s misses are what tells its
puzzles apart, and two trials measure them too coarsely (``docs/puzzles.md``,
*Ratings*)."""


def solvers_for(game_id: str) -> tuple[Solver, ...]:
    """The ladder for ``game_id``: :data:`SOLVERS` and the game's extra rungs
    (:data:`GAME_SOLVERS`), with its own trials (:data:`GAME_TRIALS`), by rating."""
    gid = games.get(game_id).id
    more = GAME_TRIALS.get(gid, {})
    ladder = [Solver(s.bot, s.rating, more.get(s.bot, s.trials))
              for s in (*SOLVERS, *GAME_SOLVERS.get(gid, ()))]
    return tuple(sorted(ladder, key=lambda s: s.rating))


class SoftBot(Bot):
    """``soft:t=T``: a softmax over the one-ply score gain, for any game with a search
    profile (``kifu.bots.profiles``): each legal action is played on the position, the
    mover's running score after it, less before, in units of the profile's ``scale``, is
    its gain ``g``, and the action is drawn with probability proportional to
    ``exp((g - best gain) / T)``. Small ``T`` plays like ``greedy``, large ``T`` like
    ``random``. It sees only the position it is given and the seat's score (public);
    seeded, so deterministic."""

    name = "soft"

    def __init__(self, game: Game, seat: int, rng: Rng, t: float):
        super().__init__(seat, rng)
        self.prof = profile(game.id)
        self.t = t

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        before = self.prof.scores(state)[self.seat]
        gains = []
        for a in legal:
            state.push(a)
            gains.append((self.prof.scores(state)[self.seat] - before) / self.prof.scale)
            state.pop()
        top = max(gains)
        weights = [math.exp((g - top) / self.t) for g in gains]
        x = self.rng.next64() / 2.0 ** 64 * sum(weights)
        for a, w in zip(legal, weights, strict=True):
            x -= w
            if x < 0:
                return a
        return legal[-1]


def ladder_bot(game: Game, name: str, seat: int, rng: Rng) -> Bot:
    """A bot of the ladder (or the held-out bot) by name: ``soft:t=T`` (:class:`SoftBot`)
    or any name of the bots' registry."""
    if name.startswith("soft:t="):
        return SoftBot(game, seat, rng, float(name.removeprefix("soft:t=")))
    return make_bot(game, name, seat, rng)


HELD_OUT = "ismcts:iters=300"
"""The bot the check asks (not a solver of the ladder)."""

GAME_HELD_OUT: dict[str, str] = {"lianxian": "expert:level=fast"}
"""A game's held-out bot where :data:`HELD_OUT` is of a family that rates its puzzles.
Lianxian's ratings rest on ``ismcts:iters=40``'s misses (and ``defensive``'s), so its
check asks the evaluator's ``expert``, of no rung's family (:func:`family`)."""

FAMILIES: dict[str, str] = {"defensive": "greedy", "soft": "greedy"}
"""Bots that share a family with another (``defensive`` and ``soft`` are ``greedy``'s
one-turn points, reweighed); any other bot is its own family, parameters aside."""


def family(bot: str) -> str:
    """The family of a bot name: its registry name without parameters, ``defensive`` and
    ``soft:t=T`` counted as ``greedy``'s (:data:`FAMILIES`)."""
    name = bot.split(":", 1)[0]
    return FAMILIES.get(name, name)


def held_out_for(game_id: str) -> str:
    """The held-out bot of ``game_id``'s check (:data:`GAME_HELD_OUT`, else
    :data:`HELD_OUT`)."""
    return GAME_HELD_OUT.get(games.get(game_id).id, HELD_OUT)


class Trial(msgspec.Struct, frozen=True):
    """How one solver did on one puzzle: ``found`` of ``tries`` (fractional for the exact
    chance of ``random``)."""

    bot: str
    found: float
    tries: float


def chance(solver_rating: float, puzzle_rating: float) -> float:
    """P(a solver of ``solver_rating`` finds a puzzle of ``puzzle_rating``)."""
    return 1.0 / (1.0 + 10.0 ** ((puzzle_rating - solver_rating) / 400.0))


def first_action_values(values: Sequence[tuple[str, str]]) -> dict[str, str]:
    """``{action text without the actor: value}`` from a solution's first-action values."""
    return {a.split(" ", 1)[1] if " " in a else a: v for a, v in values}


def bot_finds(game: Game, state: State, bot: str, seed: int | str,
              values: dict[str, str], answer: str) -> bool:
    """Whether ``bot`` (seeded ``seed``), at ``state``, chooses a first action whose value
    is ``answer``."""
    seat = state.to_move
    assert seat is not None and seat >= 0
    b = ladder_bot(game, bot, seat, Rng(f"rating:{seed}"))
    action = b.choose(state.copy())
    return values.get(game.format_action(state, action)) == answer


def trials(game_id: str, position: str, values: Sequence[tuple[str, str]], answer: str, *,
           solvers: Iterable[Solver] | None = None, seed: int | str = 0) -> list[Trial]:
    """Every solver's trials at the puzzle ``position`` whose first actions have
    ``values`` (``(action, value)``, actor included) and whose answer is ``answer``
    (``solvers``: the game's ladder, :func:`solvers_for`, by default)."""
    game = games.get(game_id)
    if solvers is None:
        solvers = solvers_for(game_id)
    state = game.from_line(position)
    vals = first_action_values(values)
    out = []
    for s in solvers:
        if s.trials == 0:  # random: the exact chance
            win = sum(1 for v in vals.values() if v == answer)
            out.append(Trial(s.bot, win / max(1, len(vals)), 1.0))
            continue
        found = sum(bot_finds(game, state, s.bot, f"{seed}:{s.bot}:{t}", vals, answer)
                    for t in range(s.trials))
        out.append(Trial(s.bot, float(found), float(s.trials)))
    return out


def rate(results: Iterable[Trial], ratings: dict[str, float] | None = None
         ) -> tuple[float, float]:
    """(rating, RD) of a puzzle from its trials, each solver at its rating (default: the
    ladder's), with the prior of the module docstring."""
    ratings = ratings or {s.bot: s.rating for s in (*SOLVERS, *SOFT_RUNGS, *(
        x for g in GAME_SOLVERS.values() for x in g))}
    obs = [(ratings[t.bot], t.found, t.tries) for t in results if t.tries > 0]
    r = PRIOR_MEAN
    for _ in range(50):
        grad = -(r - PRIOR_MEAN) / PRIOR_SD ** 2
        info = 1.0 / PRIOR_SD ** 2
        for s, found, tries in obs:
            p = chance(s, r)  # P(found); d p / d r = -p (1 - p) / SCALE
            grad += -(found - tries * p) / SCALE
            info += tries * p * (1 - p) / SCALE ** 2
        step = grad / info
        r += max(-400.0, min(400.0, step))
        if abs(step) < 0.01:
            break
    info = 1.0 / PRIOR_SD ** 2 + sum(t * chance(s, r) * (1 - chance(s, r)) / SCALE ** 2
                                     for s, _, t in obs)
    return r, 1.0 / math.sqrt(info)


def fit(table: Sequence[Sequence[Trial]], *, anchor: str = "random", anchor_rating: float = 800.0,
        rounds: int = 30) -> tuple[dict[str, float], list[tuple[float, float]]]:
    """Fit the solvers' ratings and the puzzles' together (alternating Newton steps), the
    ``anchor`` solver held at ``anchor_rating``: ``(solver ratings, [(rating, RD)...])``.
    How :data:`SOLVERS`' ratings were found."""
    bots = sorted({t.bot for row in table for t in row})
    ratings = {b: anchor_rating for b in bots}
    puzzles = [(PRIOR_MEAN, PRIOR_SD)] * len(table)
    for _ in range(rounds):
        puzzles = [rate(row, ratings) for row in table]
        for b in bots:
            if b == anchor:
                continue
            ratings[b] = _solver_rating(table, [r for r, _ in puzzles], b, ratings[b], 20)
    return ratings, puzzles


def _solver_rating(table: Sequence[Sequence[Trial]], puzzles: Sequence[float], bot: str,
                   start: float, steps: int) -> float:
    """The most likely rating of solver ``bot`` given the puzzles' ratings: Newton's method
    on its own trials (at most ``steps`` steps of at most 200 points)."""
    s = start
    for _ in range(steps):
        grad, info = 0.0, 1e-9
        for row, r in zip(table, puzzles, strict=True):
            for t in row:
                if t.bot == bot and t.tries > 0:
                    p = chance(s, r)
                    grad += (t.found - t.tries * p) / SCALE
                    info += t.tries * p * (1 - p) / SCALE ** 2
        step = max(-200.0, min(200.0, grad / info))
        s += step
        if abs(step) < 0.01:
            break
    return s


def place(table: Sequence[Sequence[Trial]], bot: str, ratings: dict[str, float] | None = None,
          start: float = PRIOR_MEAN) -> float:
    """Where the other solvers (at ``ratings``, default the ladders') put ``bot``: each
    puzzle rated by its other trials (:func:`rate`), then ``bot``'s rating by Newton's
    method on its own trials against those puzzles. How a game's extra rung
    (:data:`GAME_SOLVERS`) is put on the common scale."""
    puzzles = [rate([t for t in row if t.bot != bot], ratings)[0] for row in table]
    return _solver_rating(table, puzzles, bot, start, 50)


# --- the check ------------------------------------------------------------------------------


def wilson(k: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


class Band(msgspec.Struct):
    """One rating band of the check: puzzles rated in ``[low, high)``, how many the
    held-out bot found, and the share's interval."""

    low: float
    high: float
    puzzles: int
    found: int
    share: float
    ci: tuple[float, float]


def bands(rated: Sequence[tuple[float, bool]], cuts: int = 3) -> list[Band]:
    """``rated`` = (rating, found by the held-out bot) per puzzle, cut into ``cuts`` bands
    of (nearly) equal size by rating."""
    xs = sorted(rated)
    out = []
    n = len(xs)
    for i in range(cuts):
        part = xs[i * n // cuts:(i + 1) * n // cuts]
        if not part:
            continue
        k = sum(1 for _, f in part if f)
        out.append(Band(part[0][0], part[-1][0], len(part), k, k / len(part),
                        wilson(k, len(part))))
    return out


def held_out_trials(p: Puzzle, bot: str = HELD_OUT, tries: int = 2, *,
                    budget_nodes: int = 2_000_000) -> list[bool] | None:
    """The held-out ``bot``'s ``tries`` at puzzle ``p`` (seeded by the position): whether
    each found the answer; None when the search does not finish."""
    game = games.get(p.game)
    state = game.from_line(p.position)
    sol = get_question(p.question).solve(state, Budget(nodes=budget_nodes))
    if not sol.complete or sol.answer == UNKNOWN:
        return None
    values = first_action_values([(v.action, v.value) for v in sol.values])
    return [bot_finds(game, state, bot, f"held:{p.position}:{t}", values, sol.answer)
            for t in range(tries)]


def _check_chunk(args: tuple[list[Puzzle], str, int]) -> list[list[bool] | None]:
    puzzles, bot, tries = args
    return [held_out_trials(p, bot, tries) for p in puzzles]


def check(puzzles: Sequence[Puzzle], *, bot: str = HELD_OUT, tries: int = 2, cuts: int = 3,
          workers: int = 1, dask: str | None = None) -> list[Band]:
    """The check of the module docstring: the rated ``puzzles`` cut into ``cuts`` bands by
    rating, and the share of the held-out ``bot``'s ``tries`` a puzzle that found the
    answer in each, with its Wilson interval."""
    rated = [p for p in puzzles if rating_of(p.tags) is not None]
    chunks = ((list(rated[i:i + PUZZLES_PER_CHUNK]), bot, tries)
              for i in range(0, len(rated), PUZZLES_PER_CHUNK))
    rows: list[tuple[float, bool]] = []
    results = [r for part in map_chunks(_check_chunk, chunks, workers=workers, dask=dask)
               for r in part]
    for p, found in zip(rated, results, strict=True):
        if found is not None:
            rows += [(rating_of(p.tags) or 0.0, f) for f in found]
    return bands(rows, cuts)


def rating_tags(r: float, rd: float) -> dict[str, str]:
    """The puzzle tags that carry a rating: ``Rating`` and ``RatingDeviation``, rounded."""
    return {"Rating": str(round(r)), "RatingDeviation": str(round(rd))}


def rating_of(tags: dict[str, str]) -> float | None:
    """A puzzle's ``Rating`` tag as a number, or None."""
    try:
        return float(tags["Rating"])
    except (KeyError, ValueError):
        return None


# --- rating puzzles ---------------------------------------------------------------------------

PUZZLES_PER_CHUNK = 8


def puzzle_trials(p: Puzzle, *, budget_nodes: int = 2_000_000,
                  solvers: Iterable[Solver] | None = None) -> list[Trial] | None:
    """The ladder's trials at puzzle ``p`` (solved again for its first actions' values;
    None when the search does not finish within ``budget_nodes``). Seeded by the puzzle's
    position, so the same puzzle gets the same trials anywhere."""
    game = games.get(p.game)
    state = game.from_line(p.position)
    sol = get_question(p.question).solve(state, Budget(nodes=budget_nodes))
    if not sol.complete or sol.answer == UNKNOWN:
        return None
    values = [(v.action, v.value) for v in sol.values]
    return trials(p.game, p.position, values, sol.answer, solvers=solvers, seed=p.position)


def with_rating(p: Puzzle, results: Sequence[Trial] | None) -> Puzzle:
    """``p`` with its ``Rating``, ``RatingDeviation`` and ``RatedBy`` tags (unchanged when
    it could not be rated)."""
    if results is None:
        return p
    r, rd = rate(results)
    said = " ".join(f"{t.bot}={t.found:g}/{t.tries:g}" if t.tries != 1 or t.bot != "random"
                    else f"{t.bot}={t.found:.3g}" for t in results)
    tags = {k: v for k, v in p.tags.items() if k not in ("Rating", "RatingDeviation",
                                                         "RatedBy")}
    return msgspec.structs.replace(p, tags={**tags, **rating_tags(r, rd), "RatedBy": said})


def solved_share(results: Sequence[Trial] | None) -> float | None:
    """The share of the ladder's trials (random's exact chance counted once) that found the
    answer."""
    if not results:
        return None
    return sum(t.found for t in results) / sum(t.tries for t in results)


def _rate_chunk(args: tuple[list[Puzzle], int]) -> list[tuple[Puzzle, float | None]]:
    puzzles, budget = args
    out = []
    for p in puzzles:
        t = puzzle_trials(p, budget_nodes=budget)
        out.append((with_rating(p, t), solved_share(t)))
    return out


def rate_puzzles(puzzles: Sequence[Puzzle], *, budget_nodes: int = 2_000_000,
                 workers: int = 1, dask: str | None = None,
                 chunk_size: int = PUZZLES_PER_CHUNK,
                 on_puzzle: Callable[[], None] | None = None
                 ) -> list[tuple[Puzzle, float | None]]:
    """Every puzzle rated (:func:`with_rating`), with the share of the ladder's trials that
    found it, in order; chunks on the executor seam (the same result whatever the
    workers)."""
    chunks = ((list(puzzles[i:i + chunk_size]), budget_nodes)
              for i in range(0, len(puzzles), chunk_size))
    out: list[tuple[Puzzle, float | None]] = []
    for part in map_chunks(_rate_chunk, chunks, workers=workers, dask=dask):
        for item in part:
            out.append(item)
            if on_puzzle is not None:
                on_puzzle()
    return out


__all__ = [
    "FAMILIES",
    "GAME_HELD_OUT",
    "GAME_SOLVERS",
    "GAME_TRIALS",
    "HELD_OUT",
    "PRIOR_MEAN",
    "PRIOR_SD",
    "PUZZLES_PER_CHUNK",
    "SOFT_RUNGS",
    "SOLVERS",
    "Band",
    "SoftBot",
    "Solver",
    "Trial",
    "bands",
    "bot_finds",
    "chance",
    "check",
    "family",
    "fit",
    "held_out_for",
    "held_out_trials",
    "ladder_bot",
    "place",
    "puzzle_trials",
    "rate",
    "rate_puzzles",
    "rating_of",
    "rating_tags",
    "solved_share",
    "solvers_for",
    "trials",
    "wilson",
    "with_rating",
]
