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

from .conftest import PERFT_DIR, load_game, per_second, perft_cases

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


def _chess_perft(board, depth: int) -> int:
    """python-chess's own perft (its test suite's): bulk count at depth 1."""
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += _chess_perft(board, depth - 1)
        board.pop()
    return nodes


def test_python_chess_perft_anchor(benchmark) -> None:
    """The anchor: python-chess perft 4 from the start position (197,281 nodes)."""
    chess = pytest.importorskip(
        "chess", reason="python-chess is the anchor; install the dev extra: pip install -e .[dev]"
    )
    board = chess.Board()
    benchmark.group = "perft per game (vs python-chess)"
    benchmark.extra_info.update(depth=4, bulk_counted_last_level=True,
                                python_chess=chess.__version__)
    assert benchmark.pedantic(_chess_perft, (board, 4), rounds=ROUNDS, iterations=1) == 197_281
    per_second(benchmark, nodes=197_281)
