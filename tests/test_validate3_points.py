"""``pile_points`` (a TWEAK won pile's points as sums of slices of its count bytes) against
the table ``POINTS`` (ruling 10): the sum is linear in the counts, so agreeing on one copy
of each code and on random piles of up to 255 copies settles it."""

from __future__ import annotations

from operator import mul

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.games.tweak.cards import N_CODES, POINTS
from kifu.games.tweak.state import pile_points


def test_each_code() -> None:
    for code in range(N_CODES):
        counts = bytearray(N_CODES)
        counts[code] = 1
        assert pile_points(bytes(counts)) == POINTS[code], code


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=N_CODES, max_size=N_CODES))
def test_any_pile(counts: bytes) -> None:
    assert pile_points(counts) == sum(map(mul, counts, POINTS))
