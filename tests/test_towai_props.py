"""TOWAI properties the game-generic tests do not cover: what a seat's view hides, the bots,
and the ``out`` search (checked against a plain recursion over ``copy()``/``apply``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from view_helpers import check_hands_field

from kifu import games
from kifu.bots import play_actions
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.towai import TowaiVariant
from kifu.games.towai.bots import out_line
from kifu.games.towai.state import CHAIN, LEAD, OVER, PLAY, REBUILD, SWAP_PHASE

GAME = games.get("towai")
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def positions(n: int, seed: int, every: int = 7, variant: TowaiVariant | None = None):
    """Player positions of a seeded random single-round game, every ``every``-th ply."""
    state = GAME.new_state(n, variant or TowaiVariant(wins=1))
    rng = Rng(seed)
    k = 0
    while state.to_move is not None:
        if state.to_move == DEALER:
            state.apply(GAME.chance_action(state, rng))
            continue
        if k % every == 0:
            yield state.copy()
        k += 1
        state.apply(rng.choice(state.legal_actions()))


@SETTINGS
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_a_view_hides_exactly_the_other_hands_the_deck_and_others_swap_choices(n, seed):
    for state in positions(n, seed):
        line = state.to_line().split()
        for seat in range(n):
            view = state.view(seat).split()
            assert view[0] == line[0] and view[2:3] == line[2:3] and view[4] == line[4]
            assert view[6:] == line[6:]  # discards, last player, wins, turns: public
            check_hands_field(line[3], view[3], seat, [state.hand_size(s) for s in range(n)])
            assert set(view[5]) <= {"?", "-"} and view[5].count("?") == len(state.deck)
            if state.phase == SWAP_PHASE and state.given:
                mine = (seat - state.mover) % n
                chosen = view[1].split(":")[1]
                assert chosen.count("?") == len(state.given) - (mine < len(state.given))


def brute_out(state, player: int, start_wins: int) -> bool:
    """Can ``player`` go out before the turn ends whatever the others give in Swaps? Plain
    recursion over copies (no tables, no pruning); rebuilds use the pool in sorted order."""
    if state.wins[player] > start_wins:
        return True
    if state.phase == REBUILD:
        nxt = state.copy()
        nxt.apply(GAME.parse_action(nxt, "rebuild " + _pool_text(nxt)))
        return brute_out(nxt, player, start_wins)
    if state.phase == SWAP_PHASE and state.to_move != player:
        results = []
        for a in state.legal_actions():
            nxt = state.copy()
            nxt.apply(a)
            results.append(brute_out(nxt, player, start_wins))
        return all(results)
    if state.phase not in (LEAD, PLAY, CHAIN, SWAP_PHASE) or state.to_move != player:
        return False
    results = []
    for a in state.legal_actions():
        text = GAME.format_action(state, a)
        if text in ("stop", "pass"):
            continue
        nxt = state.copy()
        nxt.apply(a)
        results.append(brute_out(nxt, player, start_wins))
    return any(results)


def _pool_text(state) -> str:
    from kifu.games.towai.cards import cards_text

    return cards_text(state.pool())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_out_line_agrees_with_a_plain_recursion(n, seed):
    for state in positions(n, seed, every=3):
        if state.phase not in (LEAD, PLAY, CHAIN) or state.hand_size(state.turn) > 5:
            continue
        player = state.turn
        line = out_line(state)
        assert (line is not None) == brute_out(state.copy(), player, state.wins[player])
        if line is not None:
            replay = state.copy()
            for a in line:  # the principal line (the first defence of each Swap) goes out
                replay.apply(a)
            assert replay.wins[player] == state.wins[player] + 1


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32),
       bots=st.lists(st.sampled_from(["greedy", "out", "random"]), min_size=6, max_size=6))
def test_bot_games_end_with_legal_actions(n, seed, bots):
    actions = play_actions(GAME, bots[:n], seed, TowaiVariant(wins=1))
    state = GAME.new_state(n, TowaiVariant(wins=1))
    for a in actions:
        state.apply(a)  # checked
    assert state.phase == OVER and sum(state.wins) == 1


def test_out_line_agrees_with_the_recursion_on_fixed_games_with_both_answers():
    answers = []
    for seed in range(8):
        for state in positions(3, seed, every=3):
            if state.phase in (LEAD, PLAY, CHAIN) and state.hand_size(state.turn) <= 5:
                player = state.turn
                got = out_line(state) is not None
                assert got == brute_out(state.copy(), player, state.wins[player])
                answers.append(got)
    assert True in answers and False in answers


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32), cap=st.sampled_from([12, 1000]))
def test_push_fast_paths_give_the_general_paths_position(n, seed, cap):
    """``push`` takes shortcuts for the common actions; each must reach the position the
    general path (``_apply`` after a full snapshot) reaches, and ``pop`` must undo it."""
    for state in positions(n, seed, every=2, variant=TowaiVariant(wins=1, cap=cap)):
        before = (state.key(), state.turn)
        for a in state.legal_actions():
            fast = state.copy()
            fast.push(a)
            slow = state.copy()
            slow._undo.append((0, *slow._snap()))
            slow.history.append(a)
            slow._apply(a)
            assert (fast.key(), fast.turn) == (slow.key(), slow.turn), GAME.format_action(
                state, a)
            fast.pop()
            assert (fast.key(), fast.turn) == before


@SETTINGS
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32), fits=st.booleans())
def test_legal_tuple_is_the_legal_list(n, seed, fits):
    # every node of a random game, the dealer's too: the same actions in the same order,
    # and at a player's node the same object for the same kind mask (what the bridge keys by)
    state = GAME.new_state(n, TowaiVariant(wins=2, lead_fits=fits))
    rng = Rng(seed)
    while state.to_move is not None:
        t = state.legal_tuple()
        assert type(t) is tuple and list(t) == state.legal_actions()
        if state.to_move != DEALER:
            assert state.legal_tuple() is t
        a = (GAME.chance_action(state, rng) if state.to_move == DEALER
             else rng.choice(state.legal_actions()))
        state.apply(a)
    assert state.legal_tuple() == ()
