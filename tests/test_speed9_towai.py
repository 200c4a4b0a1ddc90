"""Issue 33, ninth session: the small hot-path rewrites of TOWAI and TWEAK, each held to the
plain definition it replaces (the whole games are held to the base commit by
tests/test_speed9_identity.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from step_helpers import play_in_lockstep

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
    from kifu.games.towai.cards import NUM, TWAI, TYPE
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


def test_towai_copied_worlds_are_the_worlds_read_from_their_lines():
    """TOWAI's sampler reads its first world from a line and copies it for the next ones
    (the hands, the Swap's choices and the deck set, the reader's checks run): every world
    must be, field by field, the one the reader gives for the same draws (``by_line=True``,
    the code before the change), after the same random numbers (so the same draws were
    refused), for every seat (a world drawn for a seat not to move may be refused), and
    play on as it."""
    from kifu.core.game import DEALER
    from kifu.games.towai.worlds import world_sampler

    game = games.get("towai")
    checked = swaps = 0
    for players, rules in ((3, "towai/1;wins=1"), (4, "towai/1;wins=1"), (5, "towai/1;wins=1")):
        for seed in range(2):
            variant = game.parse_rules(rules) if rules else None
            state = game.new_state(players, variant)
            rng = Rng(f"speed9:towai:{players}:{seed}")
            k = 0
            while state.to_move is not None:
                if state.to_move == DEALER:
                    state.apply(game.chance_action(state, rng))
                    continue
                k += 1
                if k % 4 == 0:
                    for seat in range(players):
                        fast = world_sampler(state, seat, game)
                        slow = world_sampler(state, seat, game, by_line=True)
                        r1, r2 = Rng(k * 7 + seat), Rng(k * 7 + seat)
                        for _ in range(3):
                            w, ref = fast(r1), slow(r2)
                            assert r1.state == r2.state
                            assert w._snap() == ref._snap() and w.key() == ref.key()
                            assert w.to_line() == ref.to_line() and w.history == []
                            w.check_invariants()
                            checked += 1
                            swaps += w.given != ()
                        if seat == state.to_move:
                            play_in_lockstep(game, w, ref, k,
                                             lambda a, b: a.key() == b.key(), steps=30)
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
    assert checked > 300 and swaps > 5


def test_tweak_round_totals_with_the_points_memo():
    """TWEAK's end of a round reads each seat's pile points from a memo by the pile's
    count bytes: the totals of one-round games (random play, every seat count, the same
    piles met again) must be each seat's cards' points plus 2 a T! card held, counted
    card by card."""
    from kifu.games.tweak.cards import POINTS as TPOINTS

    game = games.get("tweak")
    ended = 0
    for seed in range(60):
        players = 2 + seed % 5
        state = game.new_state(players, game.parse_rules("tweak/1;rounds=1"))
        rng = Rng(f"speed9:points:{seed % 20}")  # each deal three times: memo hits
        while state.to_move is not None:
            if state.to_move == -1:
                state.apply(game.chance_action(state, rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
        want = tuple(sum(TPOINTS[c] for c in state.piles[s]) + 2 * len(state.held[s])
                     for s in range(players))
        assert state.totals == want
        ended += 1
    assert ended == 60


def test_tweak_turns_list_t_card_uses_first():
    """``greedy`` and ``tactics`` stop looking for T! card uses at the first card placed
    or capture of a turn's legal list: every T! use must come before them (full games,
    every seat count, random play, so that every T! card is held and used)."""
    from kifu.games.tweak.actions import Capture, Place

    game = games.get("tweak")
    seen = 0
    for seed in range(40):
        players = 2 + seed % 5
        state = game.new_state(players)
        rng = Rng(f"speed9:t-first:{seed}")
        for _ in range(400):
            if state.to_move is None:
                break
            if state.to_move == -1:
                state.apply(game.chance_action(state, rng))
                continue
            legal = state.legal_actions()
            kinds = [type(a) in (Place, Capture) for a in legal]
            if True in kinds:
                first = kinds.index(True)
                assert all(kinds[first:]), legal
                seen += first > 0
            state.apply(legal[rng.below(len(legal))])
    assert seen > 100
