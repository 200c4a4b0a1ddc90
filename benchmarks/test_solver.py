"""The puzzle solver: ``tweak-this-turn`` on a 12-card table with every kind of T! card,
GRAPH-T double dummy on seeded 2/3/4-player endgames, the other TWEAK questions, the
generation rate, and every solver against the naive brute force of ``tests/brute.py`` on
the same positions (``speedup`` in ``extra_info``).

The GRAPH-T double-dummy targets (issue 26) are timed on sets of seeded endgames, each
beside python-chess perft 4 measured in the same test (``chess_nodes_per_s``): 4 players x
5 cards, every one of seeds 0..23 at most 100 ms; 4 x 6, the median of 24 seeds at most
0.5 s and the worst at most 5 s; 4 x 7 reported (``KIFU_BENCH_DD47=1``: about 40 s, seeds 8
and 9 about 10 s each). The compiled core against the pure-Python reference:
``test_double_dummy_core_vs_reference``. Figures: docs/perf/dd.md.

Warm and cold are measured apart. The solver's transposition table lives for one solve, so
every solve starts with an empty table; what stays warm between rounds are the engines'
memos (TWEAK's capture and count tables, GRAPH-T's play-set table). A cold round clears
them first (``cold()``), in ``pedantic``'s setup, outside the timed call.
"""

from __future__ import annotations

import os
import statistics
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
SLOW: set[tuple[int, int]] = set()
"""Double-dummy endgames too slow to time (none since the compiled core: 4 x 6 seed 0
takes about 0.1 s; it took 9 minutes before, docs/performance.md)."""
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


def chess_rate() -> float:
    """python-chess perft 4 from the start position, in nodes per CPU second (the anchor of
    the double-dummy targets; tools/dd_anchor.py is the same measurement on its own)."""
    chess = pytest.importorskip(
        "chess", reason="python-chess is the anchor; install the dev extra: pip install -e .[dev]"
    )
    from .conftest import chess_perft

    t = time.process_time()
    n = chess_perft(chess.Board(), 4)
    return n / (time.process_time() - t)


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


DD_TARGETS: dict[tuple[int, int], dict] = {
    (4, 5): dict(rounds=3, worst_ms=100.0),
    (4, 6): dict(rounds=1, median_ms=500.0, worst_ms=5000.0),
    (4, 7): dict(rounds=1),
}
"""The issue 26 targets per endgame size, over seeds 0..23."""


def dd_seed_round(n: int, k: int, seeds: range = range(24)) -> dict:
    """One round over ``seeds``: each seed solved cold (a fresh state and fresh tables),
    its CPU time and nodes, and python-chess perft measured before and after."""
    q = get_question("double-dummy")
    game = load_game("graph-t")
    rates = [chess_rate()]
    times: dict[int, float] = {}
    nodes: dict[int, int] = {}
    for s in seeds:
        line = endgame(n, k, s)
        t = time.process_time()
        nodes[s] = solve(q, game, line).nodes
        times[s] = (time.process_time() - t) * 1000
    rates.append(chess_rate())
    return {"times": times, "nodes": nodes, "rates": rates}


def dd_figures(rounds: list[dict]) -> dict:
    """The figures the targets are stated in, from rounds of :func:`dd_seed_round`: each
    seed's fastest time, their median and worst, and the python-chess rate (median)."""
    times = {s: min(r["times"][s] for r in rounds) for s in rounds[0]["times"]}
    ms = sorted(times.values())
    return {
        "chess_nodes_per_s": round(statistics.median(x for r in rounds for x in r["rates"])),
        "median_ms": round(statistics.median(ms), 1),
        "fastest_ms": round(ms[0], 1),
        "worst_ms": round(ms[-1], 1),
        "worst_seed": max(times, key=times.__getitem__),
        "under_100ms": sum(1 for x in ms if x <= 100),
        "nodes_total": sum(rounds[0]["nodes"].values()),
        "per_seed_ms": {s: round(x, 1) for s, x in times.items()},
        "per_seed_nodes": rounds[0]["nodes"],
        "compiled_core": gt_dd.compiled(),
    }


DD_SETS = [(4, 5), (4, 6), (4, 7)]


@pytest.mark.parametrize(("n", "k"), DD_SETS, ids=[f"{n}p-{k}cards" for n, k in DD_SETS])
def test_double_dummy_targets(benchmark, n, k) -> None:
    """Seeds 0..23 of an endgame size, each timed alone (``per_seed_ms``: the fastest of
    the rounds, cold, CPU time), with the python-chess rate of the same run; a benchmark
    round is the whole set once. ``met`` says whether the issue 26 target holds as
    measured (the figures move with the machine's load: read them beside
    ``chess_nodes_per_s``, about 780,000 on the quiet machine of docs/performance.md)."""
    if (n, k) == (4, 7) and not os.environ.get("KIFU_BENCH_DD47"):
        pytest.skip("4 x 7 takes about 40 s a round (seeds 8 and 9 about 10 s each): "
                    "KIFU_BENCH_DD47=1 runs it")
    target = DD_TARGETS[n, k]
    benchmark.group = "solver double-dummy targets (issue 26)"
    rounds: list[dict] = []
    benchmark.pedantic(lambda: rounds.append(dd_seed_round(n, k)), rounds=target["rounds"],
                       iterations=1)
    figures = dd_figures(rounds)
    met = all(figures[f] <= target[f] for f in ("median_ms", "worst_ms") if f in target)
    benchmark.extra_info.update(figures, met=met if len(target) > 1 else None)


def test_double_dummy_core_vs_reference(benchmark) -> None:
    """The compiled core against the pure-Python reference (``core=False``) on the 4 x 5
    seeds 0..7: the same answers, and ``speedup`` = the reference's CPU time over the
    core's (fastest of 3 each, interleaved)."""
    if not gt_dd.compiled():
        pytest.skip("the compiled core is not built here (no C compiler at install)")
    q = get_question("double-dummy")
    game = load_game("graph-t")
    lines = [endgame(4, 5, s) for s in DD_SEEDS]
    benchmark.group = "solver double-dummy core vs reference"

    def reference() -> list[str]:
        old = os.environ.get("KIFU_DD_PURE")
        os.environ["KIFU_DD_PURE"] = "1"
        try:
            return [solve(q, game, line).answer for line in lines]
        finally:
            if old is None:
                del os.environ["KIFU_DD_PURE"]
            else:
                os.environ["KIFU_DD_PURE"] = old

    def core() -> list[str]:
        return [solve(q, game, line).answer for line in lines]

    slow = fast = float("inf")
    for _ in range(3):
        slow = min(slow, _cpu(reference))
        fast = min(fast, _cpu(core))
    assert reference() == benchmark.pedantic(core, rounds=3, iterations=1)
    benchmark.extra_info.update(speedup=round(slow / fast, 1), reference_s=round(slow, 3),
                                core_s=round(fast, 4))


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
