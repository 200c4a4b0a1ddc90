"""Lianxian bots: ``greedy`` (most points) and ``defensive`` (points minus the bonus given
to opponents). Both place when they can, choosing the first best placement in generation
order; otherwise they swap their whole rack (as much as may be swapped), or pass."""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.lianxian.actions import PASS, Swap
from kifu.games.lianxian.state import LianxianState, Placement
from kifu.games.lianxian.tiles import tiles_of


def _fallback(state: LianxianState) -> Action:
    k = state.max_swap()
    if not k:
        return PASS
    return Swap(tuple(tiles_of(state.racks[state.mover])[:k]))


def opponents_bonus(state: LianxianState, pl: Placement) -> int:
    """Bonus points ``pl`` gives to seats that are not the mover's side (in 2 vs 2 the
    partner is on the mover's side)."""
    seat = state.mover
    partner = state.partner(seat)
    return sum(b for s, b in enumerate(pl.bonus) if s != seat and s != partner)


class GreedyBot(Bot):
    """The placement scoring the most points."""

    name = "greedy"

    def choose(self, state: State) -> Action:
        assert isinstance(state, LianxianState)
        best = None
        for pl in state.placements():
            if best is None or pl.points > best.points:
                best = pl
        return best.action if best is not None else _fallback(state)


class DefensiveBot(Bot):
    """The placement with the most points minus the bonus it gives opponents (plus any
    bonus to a 2-vs-2 partner); ties: more points."""

    name = "defensive"

    def choose(self, state: State) -> Action:
        assert isinstance(state, LianxianState)
        best = None
        best_key = None
        partner = state.partner(state.mover)
        for pl in state.placements():
            gift = pl.bonus[partner] if partner is not None else 0
            key = (pl.points + gift - opponents_bonus(state, pl), pl.points)
            if best_key is None or key > best_key:
                best, best_key = pl, key
        return best.action if best is not None else _fallback(state)
