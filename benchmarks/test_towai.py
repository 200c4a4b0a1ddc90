"""TOWAI perft with cold caches: the legal-action memos emptied before every round, so the
figure includes building every shared action list (``perft_suite[towai]`` in
``test_perft.py`` is the warm figure). Compare with ``python_chess_perft_anchor``."""

from __future__ import annotations

from kifu.core.game import perft

from .conftest import load_game, per_second, perft_cases


def test_towai_perft_suite_cold(benchmark) -> None:
    game = load_game("towai")
    from kifu.games.towai.state import clear_caches

    jobs = [(game.from_line(c.position), *max(c.counts)) for c in perft_cases("towai")]
    total = sum(nodes for _, _, nodes in jobs)

    def run() -> int:
        return sum(perft(state, depth) for state, depth, _ in jobs)

    benchmark.group = "perft per game (vs python-chess)"
    benchmark.extra_info.update(positions=len(jobs), caches="cleared before each round")
    result = benchmark.pedantic(run, setup=clear_caches, rounds=5, iterations=1)
    assert result == total
    per_second(benchmark, nodes=total)
