"""Lianxian placement generation, the game's hot path: every legal placement of the player
to move (which held tiles go to which spaces, with points and bonus) from *full* positions:
4 rack tiles, 4 public tiles, every space of the board covered. Warm runs follow an earlier
run (the engine's memos are filled); cold runs empty them before each round. Perft is
timed from ``fixtures/perft/lianxian.perft`` and ``lianxian-turns.perft`` by
``test_perft.py``, and cold here."""

from __future__ import annotations

import pytest

from kifu.core.rng import Rng

from .conftest import load_game, per_second

N_POSITIONS = 100


@pytest.fixture(scope="module")
def full_positions():
    """100 full positions, 2-4 players (a third of them 2 vs 2 among the 4-player ones),
    from fixed seeds: every space covered, some twice; 4 + 4 tiles to place."""
    game = load_game("lianxian")
    from kifu.games.lianxian.state import TURN

    rng = Rng(2026)
    out = []
    for i in range(N_POSITIONS):
        n = 2 + i % 3
        st = game.new_state(n, game.Variant(team=(n == 4 and i % 2 == 0)))
        tiles = rng.shuffled(range(50))
        k = 0
        stacks = []
        for _ in range(st.board.size):
            h = 1 + (rng.below(3) == 0)
            stacks.append(tuple(tiles[k:k + h]))
            k += h
        racks = []
        for _ in range(n):
            racks.append(sum(1 << t for t in tiles[k:k + 4]))
            k += 4
        st.stacks, st.racks = tuple(stacks), tuple(racks)
        st.public = sum(1 << t for t in tiles[k:k + 4])
        st.bag = sum(1 << t for t in tiles[k + 4:])
        st.phase, st.mover = TURN, rng.below(n)
        st.check_invariants()
        out.append(st)
    return out


def _all(positions) -> int:
    return sum(len(st.placements()) for st in positions)


def _count(positions) -> int:
    return sum(st.count_legal() for st in positions)


def test_placements_warm(benchmark, full_positions) -> None:
    benchmark.group = "lianxian placements (100 full positions)"
    total = _all(full_positions)
    assert benchmark.pedantic(_all, (full_positions,), rounds=5, iterations=1) == total
    per_second(benchmark, positions=N_POSITIONS, placements=total)


def test_placements_cold(benchmark, full_positions) -> None:
    from kifu.games.lianxian.state import clear_caches

    benchmark.group = "lianxian placements (100 full positions)"
    total = _all(full_positions)
    benchmark.extra_info["cold"] = "every memo emptied before each round"
    assert benchmark.pedantic(_all, (full_positions,), setup=clear_caches, rounds=5,
                              iterations=1) == total
    per_second(benchmark, positions=N_POSITIONS, placements=total)


def test_placements_count_only(benchmark, full_positions) -> None:
    """count_legal: placements counted without building or scoring them (perft's leaves)."""
    benchmark.group = "lianxian placements (100 full positions)"
    total = _count(full_positions)
    assert benchmark.pedantic(_count, (full_positions,), rounds=5, iterations=1) == total
    per_second(benchmark, positions=N_POSITIONS, actions=total)


@pytest.mark.parametrize("suite", ["lianxian", "lianxian-turns"])
def test_perft_cold(benchmark, suite) -> None:
    """A Lianxian perft suite (``fixtures/perft/<suite>.perft``) with every memo of the
    engine emptied before each round (compare with ``test_perft_suite[<suite>]`` and
    python-chess's anchor in ``test_perft.py``, run in the same session; for ratios from
    interleaved rounds: ``tools/perft_ratio.py lianxian lianxian-turns``)."""
    from kifu.core.game import perft
    from kifu.games.lianxian.state import clear_caches

    from .conftest import perft_cases

    game = load_game("lianxian")
    jobs = [(game.from_line(c.position), *max(c.counts)) for c in perft_cases(suite)]
    total = sum(nodes for _, _, nodes in jobs)

    def run() -> int:
        return sum(perft(state, depth) for state, depth, _ in jobs)

    benchmark.group = "perft per game (vs python-chess)"
    benchmark.extra_info["cold"] = "every memo emptied before each round"
    assert benchmark.pedantic(run, setup=clear_caches, rounds=5, iterations=1) == total
    per_second(benchmark, nodes=total)
