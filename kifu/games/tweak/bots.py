"""TWEAK bots. They read only what their seat can see: their hand, their T! cards, the
table, the target and the deck's size (legal actions depend on nothing else)."""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.tweak.actions import Capture, Place, UseJoker, UseShifter
from kifu.games.tweak.cards import FACE, POINTS, THIEF
from kifu.games.tweak.state import BOMB_PHASE, TweakState


def capture_value(state: TweakState, action: Capture) -> int:
    """Points won by a capture, plus 2 for the T! card a TWEAK earns."""
    value = POINTS[action.card] + sum(POINTS[c] for c in action.taken)
    if action.taken and len(action.taken) == len(state.table) and state.tpile_left():
        value += POINTS[THIEF]
    return value


def best_capture(state: TweakState) -> tuple[int, Action | None]:
    best: tuple[int, Action | None] = (0, None)
    for a in state.legal_actions():
        if type(a) is Capture:
            v = capture_value(state, a)
            if v > best[0]:
                best = (v, a)
    return best


def cheapest_place(state: TweakState, hand: tuple[int, ...]) -> Action:
    """The hand card worth least to keep: fewest points, then the lowest face."""
    from kifu.games.tweak.actions import PLACE

    card = min(hand, key=lambda c: (POINTS[c], FACE[c], c))
    return PLACE[card]


class GreedyBot(Bot):
    """Takes the capture worth most points now (a TWEAK's T! card counts 2); uses a Joker or
    a Shifter only when that makes a strictly better capture; otherwise places its least
    valuable card. As a Bomb victim it gives up its least valuable card."""

    name = "greedy"

    def choose(self, state: State) -> Action:
        assert isinstance(state, TweakState)
        seat = state.to_move
        hand = state.hands[seat]
        if state.phase == BOMB_PHASE:
            return cheapest_place(state, hand)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        value, action = best_capture(state)
        if not state.tused:
            for t in legal:
                if type(t) in (UseJoker, UseShifter):
                    state.push(t)
                    v, _ = best_capture(state)
                    state.pop()
                    if v > value:
                        value, action = v, t
        if action is not None:
            return action
        return cheapest_place(state, hand)


__all__ = ["GreedyBot", "Place"]
