"""TWEAK-specific properties: round scores are the rulebook's card values."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak.state import DEAL, FIRST, OVER

GAME = games.get("tweak")


def rulebook_value(code: int) -> int:
    """The rulebook's scoring table, written independently of the engine's."""
    if code >= 36:  # any T! card, used or not
        return 2
    colour, face = divmod(code, 6)
    face += 1
    if colour == 0:  # red
        return 5 if face == 5 else 3
    return 4 if face == 5 else 1


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    variant=st.sampled_from([GAME.Variant(), *GAME.example_variants]),
)
def test_round_scores_are_the_rulebook_card_values(n, seed, variant) -> None:
    state = GAME.new_state(n, variant)
    rng = Rng(seed)
    rounds = 0
    while state.to_move is not None:
        before, was = state.totals, state.phase
        legal = state.legal_actions()
        state.apply(GAME.chance_action(state, rng) if state.to_move == DEALER
                    else rng.choice(legal))
        if state.phase in (DEAL, OVER) and was not in (DEAL, FIRST):  # a round ended
            rounds += 1
            # the last action may itself have won cards: recount from the final zones
            won = [
                sum(rulebook_value(c) for c in state.piles[s] + state.held[s])
                for s in range(n)
            ]
            assert state.totals == tuple(b + w for b, w in zip(before, won, strict=True))
    assert rounds == state.round
    if variant.rounds:
        assert rounds == variant.rounds
    else:
        threshold = variant.threshold or {2: 140, 3: 120, 4: 100, 5: 80, 6: 60}[n]
        assert max(state.totals) >= threshold


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_inline_undo_snapshot_matches_snap(n, seed) -> None:
    """``push`` builds its undo snapshot inline and ``pop`` unpacks it inline (for speed),
    short (the first ``SHORT`` fields) for the common turn actions: both must list exactly the
    fields of ``_snap``, in its order, or undo silently forgets one; and whatever a short
    snapshot leaves out must not change."""
    state = GAME.new_state(n, GAME.Variant(rounds=2))
    rng = Rng(seed)
    while state.to_move is not None:
        action = (GAME.chance_action(state, rng) if state.to_move == DEALER
                  else rng.choice(state.legal_actions()))
        before = state._snap()
        state.push(action)
        top = state._undo[-1]
        assert top == before or (len(top) == state.SHORT and top == before[: state.SHORT])
        after = state._snap()
        state.pop()
        assert state._snap() == before
        state.push(action)
        assert state._snap() == after


def test_snapshot_field_indices_name_the_right_fields() -> None:
    """The solver reads the phase, mover and table of the snapshot on top of the stack."""
    state = GAME.new_state(3, GAME.Variant(rounds=1))
    rng = Rng(5)
    while state.to_move == DEALER:
        state.push(GAME.chance_action(state, rng))
    phase, mover, table = state.phase, state.mover, state.table
    state.push(state.legal_actions()[-1])
    top = state._undo[-1]
    assert (top[state.SNAP_PHASE], top[state.SNAP_MOVER], top[state.SNAP_TABLE]) == (
        phase, mover, table)
