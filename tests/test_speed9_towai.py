"""Issue 33, ninth session: the small hot-path rewrites of TOWAI and TWEAK, each held to the
plain definition it replaces (the whole games are held to the base commit by
tests/test_speed9_identity.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.core.rng import Rng
from kifu.games.towai.bots import _number_counts, number_counts
from kifu.games.towai.cards import COPIES, N_KINDS, count_of, counts_cards
from kifu.games.tweak.actions import PLACE
from kifu.games.tweak.bots import cheapest_place
from kifu.games.tweak.cards import FACE, N_CODES, POINTS

COUNT_INTS = st.lists(st.integers(0, 4), min_size=N_KINDS, max_size=N_KINDS).map(
    lambda ks: sum(k << (4 * c) for c, k in enumerate(ks)))


@settings(max_examples=400, deadline=None)
@given(z=COUNT_INTS)
def test_hand_size_and_number_counts_as_defined(z):
    state = games.get("towai").new_state(3)
    state.hl = (z, 0, 0)
    assert state.hand_size(0) == len(counts_cards(z))
    assert state.hand_size(1) == 0
    plain = [0] * 8
    from kifu.games.towai.cards import NUM, TYPE, TWAI
    for c in range(N_KINDS):
        if TYPE[c] != TWAI:
            plain[NUM[c]] += count_of(z, c)
    assert list(_number_counts(z)) == number_counts(z) == plain


def test_hand_size_in_played_games():
    game = games.get("towai")
    for seed in range(6):
        state = game.new_state(2 + seed % 4)
        rng = Rng(seed)
        while state.to_move is not None:
            for s in range(state.n):
                assert state.hand_size(s) == len(state.hand_cards(s))
                assert all(count_of(state.hand(s), c) <= COPIES[c] for c in range(N_KINDS))
            if state.to_move == -1:
                state.apply(game.chance_action(state, rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(st.integers(0, N_CODES - 1), min_size=1, max_size=7).map(sorted))
def test_tweak_cheapest_place_as_defined(hand):
    want = PLACE[min(hand, key=lambda c: (POINTS[c], FACE[c], c))]
    assert cheapest_place(None, tuple(hand)) == want  # type: ignore[arg-type]
