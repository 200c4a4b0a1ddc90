"""Every distinct TWEAK capture from a 3-card hand and a 12-card table, and whether one of
them takes the whole table (a TWEAK): the issue's target is under 1 ms.

The position is the worst case of ``fixtures/perft/tweak.perft`` (``3p-table-12``): every 1,
2 and 3 on the table, R1 Y2 G3 in hand, target 10, so 759 captures. ``subsets`` and the
capture lists are memoised; *cold* clears every memo before each round (the first time a
table is seen), *warm* is a repeat visit (what a search meets).
"""

from __future__ import annotations

import pytest

from kifu.games.tweak import state as tweak_state
from kifu.games.tweak.cards import FACE

from .conftest import load_game, per_second


def _clear_memos() -> None:
    """Empty every memo of the TWEAK engine."""
    tweak_state.clear_caches()


@pytest.fixture
def position(tweak_worst):
    load_game("tweak")
    assert len(tweak_worst.table) == 12 and len(tweak_worst.hands[tweak_worst.mover]) == 3
    return tweak_worst


def captures_and_sweep(state) -> tuple[list, bool]:
    """The state's captures and whether one takes the whole table."""
    caps = state.captures()
    size = len(state.table)
    return caps, any(len(c.taken) == size for c in caps)


@pytest.mark.parametrize("memo", ["cold", "warm"])
def test_all_captures_12_card_table(benchmark, position, memo) -> None:
    benchmark.group = "captures, 12-card table (target < 1 ms)"
    if memo == "cold":
        caps, sweep = benchmark.pedantic(
            captures_and_sweep, (position,), setup=_clear_memos, rounds=300, warmup_rounds=5
        )
    else:
        captures_and_sweep(position)
        caps, sweep = benchmark(captures_and_sweep, position)
    assert len(caps) == 759 and not sweep
    per_second(benchmark, captures=len(caps))
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["under_1_ms"] = benchmark.stats.stats.median < 1e-3


@pytest.mark.parametrize("memo", ["cold", "warm"])
def test_subsets_12_card_table(benchmark, position, memo) -> None:
    """``subsets`` alone: the table's sub-multisets for each hand card's sum."""
    table = position.table
    target = position.target + position.jdelta
    sums = sorted({target - FACE[c] for c in position.hands[position.mover]})

    def run() -> int:
        return sum(len(tweak_state.subsets(table, s)) for s in sums)

    benchmark.group = "captures, 12-card table (target < 1 ms)"
    if memo == "cold":
        n = benchmark.pedantic(run, setup=_clear_memos, rounds=300, warmup_rounds=5)
    else:
        n = benchmark(run)
    assert n == 759
    per_second(benchmark, subsets=n)
