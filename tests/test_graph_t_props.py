"""GRAPH-T random playouts under every variant: they end, never crash, keep every card,
undo exactly, round-trip their position lines and actions, and rank consistently."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from view_helpers import check_hands_field

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.graph_t import GraphTVariant

GAME = games.get("graph-t")
VARIANTS = (GraphTVariant(), *GAME.example_variants)
BOTS = ("random", "greedy", "ai", "graph-t-ai")


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 4),
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    bots=st.lists(st.sampled_from(BOTS), min_size=4, max_size=4),
)
def test_playout(n: int, variant: GraphTVariant, seed: int, bots: list[str]) -> None:
    state = GAME.new_state(n, variant)
    dealer = Rng(seed)
    players = [GAME.bots[bots[s]](s, dealer.fork(s + 1)) for s in range(n)]
    lines = [state.to_line()]
    plies = 0
    while not state.is_terminal():
        mover = state.to_move
        if mover == DEALER:
            action = GAME.chance_action(state, dealer)
        else:
            action = players[mover].choose(state)
            legal = state.legal_actions()
            assert action in legal and len(set(legal)) == len(legal)
            assert state.count_legal() == len(legal)
        text = GAME.format_action(state, action)
        assert GAME.parse_action(state, text) == action
        state.apply(action)
        state.check_invariants()
        line = state.to_line()
        assert GAME.from_line(line).to_line() == line
        assert GAME.from_line(line) == state
        copy = state.copy()
        assert copy == state and copy.to_line() == line
        lines.append(line)
        plies += 1
        assert plies <= 2 + 52
    result = state.result()
    assert result is not None and state.legal_actions() == []
    keys = []
    for hs in state.heights:
        top = sorted(hs, reverse=True)
        keys.append((top[0], top[1]))
    assert result.scores == tuple(k[0] for k in keys)
    for s in range(n):
        assert result.ranks[s] == 1 + sum(k > keys[s] for k in keys)
    assert min(result.ranks) == 1
    # undo every action: each step restores the exact position line
    for expected in reversed(lines[:-1]):
        state.pop()
        assert state.to_line() == expected
    assert state.history == []


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 4), variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32))
def test_views_hide_only_other_hands(n: int, variant: GraphTVariant, seed: int) -> None:
    state = GAME.new_state(n, variant)
    rng = Rng(seed)
    state.apply(GAME.chance_action(state, rng))
    state.apply(GAME.chance_action(state, rng))
    for _ in range(rng.below(3 * n)):
        state.apply(rng.choice(state.legal_actions()))
    full = state.to_line().split()
    for seat in range(n):
        view = state.view(seat).split()
        assert view[0] == full[0] and view[2:] == full[2:]
        check_hands_field(full[1], view[1], seat, [state.hand(s).bit_count() for s in range(n)])
