"""TWEAK's capture enumeration against its plain reference search: ``subsets`` (int codes
cut by bisection) and the shared Capture lists give exactly ``_enumerate``'s sub-multisets,
in its order (seeded bots pick legal actions by index, so the order is part of the rules)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.games.tweak import state as tweak_state
from kifu.games.tweak.actions import Capture

tables = st.lists(
    st.one_of(st.integers(0, 35), st.integers(0, 11)), max_size=17
).map(lambda cards: tuple(sorted(cards)))


@settings(max_examples=300, deadline=None)
@given(table=tables, card=st.integers(0, 35), s=st.integers(-1, 13), cold=st.booleans())
def test_subsets_and_captures_match_the_reference_search(table, card, s, cold) -> None:
    if cold:
        tweak_state.clear_caches()
    want = tweak_state._enumerate(table, s)
    assert tweak_state.subsets(table, s) == want
    caps = tweak_state._captures(table, card, s)
    assert caps == tuple(Capture(card, sub) for sub in want)
    assert all(type(c) is Capture for c in caps)


def test_many_copies_of_one_card() -> None:
    """A puzzle table may hold more copies of a card than a deck has (up to the codes'
    limit, then the reference search)."""
    for n in (14, 15, 16, 20):
        table = (0,) * n
        for s in range(12):
            assert tweak_state.subsets(table, s) == tweak_state._enumerate(table, s)


@settings(max_examples=300, deadline=None)
@given(table=tables)
def test_plays_count_every_sub_multiset(table) -> None:
    """``count_legal``'s memo (bytes for small tables, 64-bit fields for big ones) reads
    1 + the number of non-empty sub-multisets of each sum."""
    tweak_state.clear_caches()
    plays = tweak_state._plays(table)
    assert plays[0] == 1
    for s in range(1, tweak_state.MAX_SUM + 1):
        assert plays[s] == 1 + len(tweak_state._enumerate(table, s))
    assert tweak_state.sum_counts(table)[1:] == tuple(k - 1 for k in plays[1:])
