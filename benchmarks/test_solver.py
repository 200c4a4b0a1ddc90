"""The puzzle solver: ``tweak-this-turn`` on a 12-card table with every kind of T! card,
GRAPH-T double dummy on seeded 2/3/4-player endgames, the other TWEAK questions, the
generation rate, and every solver against the naive brute force of ``tests/brute.py`` on
the same positions (``speedup`` in ``extra_info``).

Warm and cold are measured apart. The solver's transposition table lives for one solve, so
every solve starts with an empty table; what stays warm between rounds are the engines'
memos (TWEAK's capture and count tables, GRAPH-T's play-set table). A cold round clears
them first (``cold()``), in ``pedantic``'s setup, outside the timed call.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from kifu import games
from kifu.core.rng import Rng
from kifu.games.graph_t import rules as gt_rules
from kifu.games.graph_t.cards import deck_codes, hand_text
from kifu.games.tweak import state as tw_state
from kifu.puzzles import get_question
from kifu.puzzles import graph_t_dd as gt_dd

from .conftest import load_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import brute

ROUNDS = 5
SLOW = {(4, 6)}
"""Double-dummy endgames too slow to time: 4 x 6 seed 0 takes about 9 minutes of CPU
(docs/performance.md)."""
DD_SEEDS = range(8)
"""The seeds of the 4 players x 5 cards endgames timed one by one (issue 7's target)."""
DD_VS_BRUTE = [(2, 6, 0), (3, 4, 1), (3, 4, 2), (4, 3, 0), (4, 3, 2)]
"""(players, cards, seed) of the solver-vs-brute-force positions: the brute force takes
about 1 to 60 s on each."""


def cold() -> None:
    tw_state.clear_caches()
    gt_rules._CACHE.clear()
    gt_dd._PIDS.clear()
    gt_dd._LISTS.clear()
    gt_dd._MOST.clear()


def endgame(n: int, k: int, seed: int = 0) -> str:
    """A GRAPH-T position before a lead: ``k`` random colour cards a hand (seeded), empty
    stacks, grey not open."""
    rng = Rng(f"dd-{n}-{k}-{seed}")
    pool = rng.shuffled(list(deck_codes(True)))
    hands = [sorted(pool.pop() for _ in range(k)) for _ in range(n)]
    return (f"graph-t/1 {'/'.join(hand_text(tuple(h)) for h in hands)} "
            f"{'/'.join(['-'] * n)} - p0 p0 -")


def solve(question, game, line):
    return question.solve(game.from_line(line))


def median_of(fn, runs: int = 5, timer=time.perf_counter) -> float:
    """The median time of ``fn``, by ``timer``: give the benchmark's own timer
    (``benchmark._timer``, e.g. ``--benchmark-timer=time.process_time``) so that the
    solver and the brute force beside it are timed alike."""
    times = []
    for _ in range(runs):
        t = timer()
        fn()
        times.append(timer() - t)
    return sorted(times)[len(times) // 2]


@pytest.mark.parametrize("temp", ["warm", "cold"])
def test_this_turn_12_card_table(benchmark, tweak_worst, temp) -> None:
    """Target: under 1 ms median (issue 7)."""
    q = get_question("tweak-this-turn")
    game = load_game("tweak")
    line = tweak_worst.to_line()
    benchmark.group = "solver tweak-this-turn 12-card table"
    sol = solve(q, game, line)
    setup = (lambda: (cold(), ((q, game, line), {}))[1]) if temp == "cold" else None
    if setup is None:
        benchmark.pedantic(solve, (q, game, line), rounds=50, iterations=1)
    else:
        benchmark.pedantic(solve, setup=setup, rounds=50, iterations=1)
    benchmark.extra_info.update(answer=sol.answer, nodes=sol.nodes,
                                first_actions=len(sol.values))


def test_this_turn_vs_brute(benchmark, tweak_worst) -> None:
    q = get_question("tweak-this-turn")
    game = load_game("tweak")
    line = tweak_worst.to_line()
    benchmark.group = "solver vs brute force"
    st = game.from_line(line)
    expected, _ = brute.this_turn_answer(st)
    solver = median_of(lambda: solve(q, game, line), timer=benchmark._timer)
    result = benchmark.pedantic(brute.this_turn_answer, (st,), rounds=3, iterations=1)
    assert result[0] == expected == solve(q, game, line).answer
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["speedup"] = round(benchmark.stats.stats.median / solver, 1)


CASES = [(n, k) for n in (2, 3, 4) for k in (3, 4, 5, 6)]


@pytest.mark.parametrize("temp", ["warm", "cold"])
@pytest.mark.parametrize(("n", "k"), CASES, ids=[f"{n}p-{k}cards" for n, k in CASES])
def test_double_dummy(benchmark, n, k, temp) -> None:
    """Target: 4 players x 5 cards under 100 ms (issue 7)."""
    if (n, k) in SLOW:
        pytest.skip(f"{n} players x {k} cards takes about 9 minutes a solve "
                    "(docs/performance.md)")
    q = get_question("double-dummy")
    game = load_game("graph-t")
    line = endgame(n, k)
    benchmark.group = f"solver double-dummy {temp}"
    sol = solve(q, game, line)
    rounds = 3 if n * k >= 15 else ROUNDS
    if temp == "cold":
        benchmark.pedantic(solve, setup=lambda: (cold(), ((q, game, line), {}))[1],
                           rounds=rounds, iterations=1)
    else:
        benchmark.pedantic(solve, (q, game, line), rounds=rounds, iterations=1)
    benchmark.extra_info.update(answer=sol.answer, nodes=sol.nodes)


@pytest.mark.parametrize("temp", ["warm", "cold"])
@pytest.mark.parametrize("seed", DD_SEEDS)
def test_double_dummy_4x5_seeds(benchmark, seed, temp) -> None:
    """The 4 x 5 target on several seeded endgames, not only seed 0."""
    q = get_question("double-dummy")
    game = load_game("graph-t")
    line = endgame(4, 5, seed)
    benchmark.group = f"solver double-dummy 4x5 seeds {temp}"
    sol = solve(q, game, line)
    if temp == "cold":
        benchmark.pedantic(solve, setup=lambda: (cold(), ((q, game, line), {}))[1],
                           rounds=3, iterations=1)
    else:
        benchmark.pedantic(solve, (q, game, line), rounds=3, iterations=1)
    benchmark.extra_info.update(answer=sol.answer, nodes=sol.nodes)


def _cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


@pytest.mark.parametrize(("n", "k", "seed"), DD_VS_BRUTE,
                         ids=[f"{n}p-{k}cards-seed{s}" for n, k, s in DD_VS_BRUTE])
def test_double_dummy_vs_brute(benchmark, n, k, seed) -> None:
    """``speedup`` = the brute force's CPU time / the solver's fastest of 5 (CPU time,
    measured in this test, so other processes on the machine do not skew the ratio)."""
    q = get_question("double-dummy")
    game = load_game("graph-t")
    line = endgame(n, k, seed)
    benchmark.group = "solver vs brute force"
    solver = min(_cpu(lambda: solve(q, game, line)) for _ in range(5))
    st = game.from_line(line)
    cpu: list[float] = []

    def run() -> str:
        t = time.process_time()
        answer = brute.dd_answer(st)
        cpu.append(time.process_time() - t)
        return answer

    answer = benchmark.pedantic(run, rounds=1, iterations=1)
    assert answer == solve(q, game, line).answer
    benchmark.extra_info.update(speedup=round(cpu[0] / solver, 1), solver_s=solver,
                                brute_s=cpu[0], answer=answer)


# The TWEAK questions against the brute force, on seeded positions of one size class each:
# the end of a 3-player round (3 cards a hand, 1-2 on the table, the deck empty) for
# best-points, and 3 players with 3 cards, 2-4 on the table and 3-4 in the deck for
# tweak-within 2. Small positions are not the point: there the brute force takes
# milliseconds and both are mostly fixed costs. ``BRUTE_SECONDS`` says which seeds are
# timed: those whose brute force needs 0.1-30 s (measured once; a seed is a fixed
# position, so the list does not move).
TWEAK_CLASSES = {
    "best-points": dict(players=(3,), hand=(3, 3), table=(1, 2), deck_empty=True),
    "tweak-within 2": dict(players=(3,), hand=(3, 3), table=(2, 4), deck=(3, 4)),
}
BRUTE_SECONDS = {
    "best-points": {0: 10.6, 1: 10.7, 3: 10.1, 4: 7.6, 5: 18.6},
    "tweak-within 2": {1: 2.7, 3: 0.26, 6: 0.22, 8: 0.36, 10: 0.32},
}
"""Brute-force CPU seconds per seed (2026-11-23). Left out: best-points seed 2 (over 40 s);
tweak-within seeds 0, 2, 5, 7 (a TWEAK this turn: the brute force stops at the first
success in 1-2 ms, while the solver values every first action, 3-6 ms) and 4, 9, 11 (a
'no' the brute force proves in 10-50 ms; the solver takes 0.4-0.8 ms there, 28-64x)."""
TWEAK_CASES = [(q, seed) for q, seeds in BRUTE_SECONDS.items() for seed in seeds]


def tweak_position(which: str, seed: int) -> str:
    return brute.random_tweak(Rng(f"bench-{which}-{seed}"), **TWEAK_CLASSES[which])


@pytest.mark.parametrize(("which", "seed"), TWEAK_CASES,
                         ids=[f"{q.replace(' ', '')}-{s}" for q, s in TWEAK_CASES])
def test_tweak_questions_vs_brute(benchmark, which, seed) -> None:
    q = get_question(which)
    game = load_game("tweak")
    line = tweak_position(which, seed)
    st = game.from_line(line)
    benchmark.group = "solver vs brute force"
    solver = median_of(lambda: solve(q, game, line), timer=benchmark._timer)
    if which == "best-points":
        answer = benchmark.pedantic(brute.best_points_answer, (st,), rounds=1, iterations=1)
    else:
        answer = benchmark.pedantic(brute.within_answer, (st, 2), rounds=1, iterations=1)
    assert answer == solve(q, game, line).answer
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info.update(speedup=round(benchmark.stats.stats.median / solver, 1),
                                    solver_s=solver, answer=answer)


def test_generation_rate(benchmark) -> None:
    from kifu.lab.generate import generate_puzzles

    benchmark.group = "puzzle generation"

    def run() -> int:
        return len(list(generate_puzzles("tweak", "tweak-this-turn", count=5, seed=1,
                                         players=3)))

    assert benchmark.pedantic(run, rounds=3, iterations=1) == 5
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["puzzles_per_s"] = round(5 / benchmark.stats.stats.median, 2)


def test_games_import() -> None:
    assert games.get("tweak") and games.get("graph-t")
