"""perft speed per game, from the positions of ``fixtures/perft/<game>.perft`` (whose counts
``tests/test_fixtures.py`` asserts), beside python-chess's perft from the start position.

Every perft here, kifu's and python-chess's, counts the last level in bulk: at depth 1 it
counts the legal actions (``count_legal`` / ``legal_moves.count()``) without playing them,
so ``nodes_per_s`` is leaves counted per second, the usual perft figure.
"""

from __future__ import annotations

import pytest

from kifu import games
from kifu.core.game import perft

from .conftest import (
    CHESS_PERFT_4,
    PERFT_DIR,
    chess_perft,
    load_game,
    per_second,
    perft_cases,
)

SUITES = sorted({*games.ids(), *(p.stem for p in PERFT_DIR.glob("*.perft"))})
"""Each game's own suite (``<game>.perft``) and any other suite of a game
(``lianxian-turns.perft``: Lianxian trees whose leaves are player decisions)."""
CASES = [(suite, case) for suite in SUITES for case in perft_cases(suite)]
GAMES_WITHOUT_PERFT = [gid for gid in games.ids() if not perft_cases(gid)]
ROUNDS = 5


@pytest.mark.parametrize(
    ("suite", "case"), CASES, ids=[f"{suite}-{case.id}" for suite, case in CASES]
)
def test_perft(benchmark, suite, case) -> None:
    """One position, its deepest depth in the file."""
    game = load_game(case.game)
    state = game.from_line(case.position)
    depth, nodes = max(case.counts)
    benchmark.group = f"perft {suite}"
    benchmark.extra_info.update(depth=depth, bulk_counted_last_level=True)
    assert benchmark.pedantic(perft, (state, depth), rounds=ROUNDS, iterations=1) == nodes
    per_second(benchmark, nodes=nodes)


@pytest.mark.parametrize("suite", SUITES)
def test_perft_suite(benchmark, suite) -> None:
    """Every position of a perft file at its deepest depth, one after another: the game's
    perft figure compared with python-chess's."""
    cases = perft_cases(suite)
    if not cases:
        pytest.skip(f"fixtures/perft/{suite}.perft does not exist yet")
    game = load_game(cases[0].game)
    jobs = [(game.from_line(c.position), *max(c.counts)) for c in cases]
    total = sum(nodes for _, _, nodes in jobs)

    def run() -> int:
        return sum(perft(state, depth) for state, depth, _ in jobs)

    benchmark.group = "perft per game (vs python-chess)"
    benchmark.extra_info.update(positions=len(jobs), bulk_counted_last_level=True)
    assert benchmark.pedantic(run, rounds=ROUNDS, iterations=1) == total
    per_second(benchmark, nodes=total)


def test_python_chess_perft_anchor(benchmark) -> None:
    """The anchor: python-chess perft 4 from the start position (197,281 nodes), by
    python-chess's own perft (``conftest.chess_perft``)."""
    chess = pytest.importorskip(
        "chess", reason="python-chess is the anchor; install the dev extra: pip install -e .[dev]"
    )
    board = chess.Board()
    benchmark.group = "perft per game (vs python-chess)"
    benchmark.extra_info.update(depth=4, bulk_counted_last_level=True,
                                python_chess=chess.__version__)
    assert benchmark.pedantic(chess_perft, (board, 4), rounds=ROUNDS,
                              iterations=1) == CHESS_PERFT_4
    per_second(benchmark, nodes=CHESS_PERFT_4)


def test_alice_perft_over_chess_interleaved(benchmark) -> None:
    """Issue 26: Alice's perft suite against python-chess perft 4, timed in alternation
    (``test_validate._interleaved``), cold: each round reads the positions afresh (the Alice
    engine keeps no memo; its tables are built at import and per card set, before the
    rounds). The ratios are of leaves a second, Alice over python-chess: the fastest rounds,
    the median rounds and the median of the round-by-round ratios."""
    chess = pytest.importorskip("chess", reason="python-chess is the anchor")
    from .test_validate import _interleaved

    game = load_game("alice")
    cases = perft_cases("alice")
    total = sum(max(c.counts)[1] for c in cases)

    def alice() -> None:
        jobs = [(game.from_line(c.position), *max(c.counts)) for c in cases]
        assert sum(perft(state, depth) for state, depth, _ in jobs) == total

    def python_chess() -> None:
        assert chess_perft(chess.Board(), 4) == CHESS_PERFT_4

    benchmark.group = "alice perft / python-chess, interleaved"
    times = _interleaved(benchmark, {"alice": alice, "python-chess": python_chess})
    a, c = times["alice"], times["python-chess"]
    rate = sorted(total / t / (CHESS_PERFT_4 / u) for t, u in zip(a, c, strict=True))
    benchmark.extra_info.update({
        "alice/chess nodes/s (fastest)": round(total / min(a) / (CHESS_PERFT_4 / min(c)), 2),
        "alice/chess nodes/s (median)": round(
            total / sorted(a)[len(a) // 2] / (CHESS_PERFT_4 / sorted(c)[len(c) // 2]), 2),
        "alice/chess nodes/s (paired median)": round(rate[len(rate) // 2], 2),
        "alice nodes": total,
    })
