"""Issue 33, ninth session: :class:`kifu.core.rng.Rng`'s ``below`` and ``shuffled`` write
``next64`` out (and read the rejection bound from a table); they must give exactly the
numbers, shuffles and final states of the plain definitions, which this file keeps as
the reference (SplitMix64, rejection sampling, Fisher-Yates from the last index down)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.core.rng import MASK64, Rng

GAMMA = 0x9E3779B97F4A7C15


class PlainRng:
    """The definitions as ``docs/notation.md`` states them, one call per number."""

    def __init__(self, state: int):
        self.state = state & MASK64

    def next64(self) -> int:
        self.state = z = (self.state + GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffled(self, items: list) -> list:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


BOUNDS = st.one_of(
    st.integers(1, 2000),                                # the table and past it
    st.integers((1 << 63) - 5, (1 << 63) + 5),           # about half the draws rejected
    st.integers(1, 1 << 64),                             # up to a whole draw
)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, MASK64), calls=st.lists(
    st.one_of(st.tuples(st.just("below"), BOUNDS),
              st.tuples(st.just("shuffled"), st.integers(0, 80)),
              st.tuples(st.just("next64"), st.just(0))), max_size=30))
def test_below_and_shuffled_follow_the_plain_definitions(seed, calls):
    fast, plain = Rng(seed), PlainRng(seed)
    for what, arg in calls:
        if what == "below":
            assert fast.below(arg) == plain.below(arg)
        elif what == "shuffled":
            items = list(range(arg))
            assert fast.shuffled(items) == plain.shuffled(items)
            assert items == list(range(arg))  # the input is not touched
        else:
            assert fast.next64() == plain.next64()
        assert fast.state == plain.state


def test_a_rejected_draw_advances_the_stream():
    """At n = 2**63 + 1 almost half the draws are rejected: the count of draws used must
    still agree (the state after each call)."""
    n = (1 << 63) + 1
    fast, plain = Rng(99), PlainRng(99)
    rejected = 0
    for _ in range(200):
        before = plain.state
        assert fast.below(n) == plain.below(n)
        assert fast.state == plain.state
        rejected += (plain.state - before) % (1 << 64) != GAMMA
    assert rejected > 20  # the loop was exercised


def test_below_refuses_an_empty_range():
    for n in (0, -3):
        try:
            Rng(1).below(n)
        except ValueError:
            continue
        raise AssertionError(f"below({n}) did not raise")
