"""GRAPH-T's ``step`` (a play checked and played in one run, a trick's end inline) against
``check`` then ``push``: at every position of whole random games under every example
variant, every possible play (each card on each side, held or not, legal or not) and the
dealer actions give the same verdict and error text, the same position and ``to_move``;
a refused action leaves the state as it was, ``pop`` undoes an accepted one, and a
forward-only state played by ``step`` goes through the same positions as ``apply``."""

from __future__ import annotations

import random

import pytest
from step_helpers import verdict

from kifu import games
from kifu.core.game import DEALER, Result
from kifu.core.rng import Rng
from kifu.games.graph_t.actions import LEADS, PLAYS, Deal, Lead, Play
from kifu.games.graph_t.state import DEAL, OVER

GAME = games.get("graph-t")
EVERY_PLAY = [p for p in PLAYS if p is not None]


@pytest.mark.parametrize("k", range(1 + len(GAME.example_variants)))
def test_step_matches_check_and_push(k: int) -> None:
    variant = (None, *GAME.example_variants)[k]
    n = 2 + k % 3
    state = GAME.new_state(n, variant)
    chance, rng = Rng(200 + k), random.Random(k)
    fwd = state.copy()
    fwd.forward_only()
    ok = refused = tricks = 0
    while state.to_move is not None:
        tries = [*EVERY_PLAY, *LEADS, Lead(n), Play(3, False)]
        if state.phase == DEAL or rng.random() < 0.2:
            deal = GAME.chance_action(GAME.new_state(n, variant), Rng(rng.randrange(99)))
            tries.append(deal)
            hands = [list(h) for h in deal.hands]  # type: ignore[attr-defined]
            hands[0][0], hands[-1][-1] = hands[-1][-1], hands[0][0]
            tries.append(Deal(tuple(tuple(sorted(h)) for h in hands)))  # cards swapped: legal
            tries.append(Deal(tuple(h[1:] for h in deal.hands)))  # type: ignore[attr-defined]
        for action in tries:
            want = verdict(state, action, fused=False)
            assert verdict(state, action, fused=True) == want, (state.to_line(), action)
            ok += want[0] is None
            refused += want[0] is not None
        if state.to_move == DEALER:
            good = GAME.chance_action(state, chance)
        else:
            good = rng.choice(state.legal_actions())
        before = len(state.trick)
        state.apply(good)
        tricks += before and not state.trick
        assert fwd.step(good) == state.to_move
        assert fwd.to_line() == state.to_line() and fwd.key() == state.key()
    assert state.phase == OVER and fwd.result() == state.result()
    tops = [sorted(hs, reverse=True)[:2] for hs in state.heights]
    assert state.result() == Result.from_keys(
        tuple(t[0] for t in tops), tuple(tuple(t) for t in tops)
    )
    assert ok > 20 and refused > 200 and tricks > 5
    with pytest.raises(IndexError):
        fwd.pop()


def test_result_ranks_as_from_keys() -> None:
    """``result()`` ranks as ``Result.from_keys`` on the two tallest stacks, ties included
    (made-up heights: many equal keys)."""
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randrange(2, 5)
        state = GAME.new_state(n)
        state.phase = OVER
        state.heights = tuple(
            tuple(rng.choice((0, 60, 120)) for _ in range(6)) for _ in range(n)
        )
        tops = [sorted(hs, reverse=True)[:2] for hs in state.heights]
        want = Result.from_keys(tuple(t[0] for t in tops), tuple(tuple(t) for t in tops))
        assert state.result() == want


def test_deal_parse_fast_way_agrees() -> None:
    """A deal's hands are read two bytes at a time when they are colour cards only; the
    result, or the error and its column, is that of reading them token by token."""
    from kifu.core.errors import NotationError
    from kifu.games.graph_t.cards import G
    from kifu.games.graph_t.codec import parse_action, scan_cards

    def slow(text: str):
        hands = []
        col = 6
        for part in text[5:].split("/"):
            if not part:
                raise NotationError("empty hand in the deal (use - for none)", col=col)
            codes = scan_cards(part, col)
            if G in codes:
                raise NotationError("grey", col=col + part.upper().index("G"))
            hands.append(tuple(sorted(codes)))
            col += len(part) + 1
        return Deal(tuple(hands))

    rng = random.Random(8)
    for seed in range(150):
        state = GAME.new_state(2 + seed % 3)
        text = GAME.format_action(state, GAME.chance_action(state, Rng(seed)))
        variants = [text, text.lower(), text[:5] + text[5:].lower()]
        for _ in range(3):
            i = rng.randrange(5, len(text))
            variants.append(text[:i] + rng.choice(["G", "g", "/", "-", "X", "R9", ""]) + text[i:])
        for t in variants:
            try:
                want = slow(t)
            except NotationError as e:
                want = ("error", e.col)
            try:
                got = parse_action(t)
            except NotationError as e:
                got = ("error", e.col)
            assert got == want, t
