"""TWEAK bots. They read what their seat can see: their hand, their T! cards, the table,
the target and the deck's size (legal actions depend on nothing else), with two
exceptions. ``greedy`` weighs a Shifter by playing it and looking at the capture it makes,
so it sees the deck's top card the Shifter turns up: it *peeks* there (``Bot.peeks``; the
searchers ask it for their default choice only in sampled worlds). It is kept as it is:
it is the ladders' fixed opponent. :class:`TacticsPolicy` is a rollout policy for the
searchers' sampled worlds, never a player: it reads a Thief's victim's hand."""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.tweak.actions import (
    STEAL,
    Capture,
    Place,
    UseBomb,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.games.tweak.cards import FACE, POINTS, THIEF
from kifu.games.tweak.state import BOMB_PHASE, TweakState


def capture_value(state: TweakState, action: Capture) -> int:
    """Points won by a capture, plus 2 for the T! card a TWEAK earns."""
    value = POINTS[action.card] + sum(POINTS[c] for c in action.taken)
    if action.taken and len(action.taken) == len(state.table) and state.tpile_left():
        value += POINTS[THIEF]
    return value


_CARDS_POINTS: dict[Capture, int] = {}
"""Capture -> the points of its cards (``capture_value`` without the TWEAK's T! card),
memoised for the rollouts' hot path (bounded: cleared past ``_CARDS_POINTS_MAX``)."""
_CARDS_POINTS_MAX = 1 << 16


def best_capture(state: TweakState) -> tuple[int, Action | None]:
    """The capture worth most (:func:`capture_value`; the first of equals, legal order)
    and its value; ``(0, None)`` without one."""
    return _best_of(state, state.legal_actions())


def _best_of(state: TweakState, legal: list[Action]) -> tuple[int, Action | None]:
    """:func:`best_capture` over ``legal`` (the state's legal actions, already listed):
    each capture's card points read from a memo, the TWEAK's 2 added where it takes the
    whole table and the T! pile is not empty, as :func:`capture_value` counts."""
    best, pick = 0, None
    whole = len(state.table)
    bonus = POINTS[THIEF] if state.tpos < len(state.tpile) else 0
    memo = _CARDS_POINTS
    for a in legal:
        if type(a) is Capture:
            v = memo.get(a)  # type: ignore[call-overload]
            if v is None:
                if len(memo) >= _CARDS_POINTS_MAX:
                    memo.clear()
                v = memo[a] = POINTS[a.card] + sum([POINTS[c] for c in a.taken])  # type: ignore[attr-defined]
            taken = a.taken  # type: ignore[attr-defined]
            if bonus and taken and len(taken) == whole:
                v += bonus
            if v > best:
                best, pick = v, a
    return best, pick


def cheapest_place(state: TweakState, hand: tuple[int, ...]) -> Action:
    """The hand card worth least to keep: fewest points, then the lowest face."""
    from kifu.games.tweak.actions import PLACE

    card = min(hand, key=lambda c: (POINTS[c], FACE[c], c))
    return PLACE[card]


def _greedy(state: TweakState, legal: list[Action]) -> tuple[int | None, Action]:
    """``greedy``'s choice in a turn or the Thief's draw (``legal``: the state's legal
    actions) and the points its capture makes (after its Joker or Shifter; 0 for a card
    placed), ``None`` where the only action was forced."""
    if len(legal) == 1:
        return None, legal[0]
    value, action = _best_of(state, legal)
    if not state.tused:
        for t in legal:
            if type(t) in (UseJoker, UseShifter):
                state.push(t)
                v = _best_of(state, state.legal_actions())[0]
                state.pop()
                if v > value:
                    value, action = v, t
    if action is not None:
        return value, action
    return value, cheapest_place(state, state.hands[state.to_move])  # type: ignore[index]


def greedy_action(state: TweakState) -> Action:
    """``greedy``'s choice for the seat to move (:class:`GreedyBot`'s, without a bot; the
    exact posterior's model of the other seats, :mod:`kifu.games.tweak.posterior`)."""
    if state.phase == BOMB_PHASE:
        return cheapest_place(state, state.hands[state.to_move])  # type: ignore[index]
    return _greedy(state, state.legal_actions())[1]


class GreedyBot(Bot):
    """Takes the capture worth most points now (a TWEAK's T! card counts 2); uses a Joker or
    a Shifter only when that makes a strictly better capture; otherwise places its least
    valuable card. As a Bomb victim it gives up its least valuable card.

    It peeks: to weigh a Shifter it plays it, which turns up the deck's top card, a card
    its seat cannot see (``peeks``; module docstring)."""

    name = "greedy"
    peeks = True

    def choose(self, state: State) -> Action:
        assert isinstance(state, TweakState)
        return greedy_action(state)


class TacticsPolicy(GreedyBot):
    """A rollout policy, not a bot: ``greedy`` that also uses its Thief and its Bomb. It
    reads the world it plays in (the victim's hand gives the Thief's odds), so it is never
    offered as a player (``Tweak.bots`` does not list it).

    ``greedy`` never uses a Thief or a Bomb, so in its rollouts a T! card won is worth its
    2 points and nothing more, and no opponent ever steals from the seat or bombs it. This
    policy plays ``greedy``'s choice unless a Thief (on one opponent: the mean over the
    cards it may draw) or a Bomb (the victims giving up their least valuable card, as
    ``greedy`` does) leaves it a capture worth strictly more (as ``greedy`` values it) than
    ``greedy``'s best with a Joker or a Shifter or none; then it uses the best of them
    (ties: legal order)."""

    name = "tactics"

    def choose(self, state: State) -> Action:
        assert isinstance(state, TweakState)
        if state.phase == BOMB_PHASE:
            return cheapest_place(state, state.hands[state.to_move])  # type: ignore[index]
        legal = state.legal_actions()
        value, pick = _greedy(state, legal)
        if state.tused:
            return pick
        tees = [a for a in legal if type(a) in (UseThief, UseBomb)]
        if not tees:
            return pick
        best = _value_of(state, pick) if value is None else value
        for t in tees:
            v = _thief_value(state, t) if type(t) is UseThief else _bomb_value(state, t)
            if v > best:
                best, pick = v, t
        return pick


def _value_of(state: TweakState, action: Action) -> float:
    """The points ``greedy``'s choice ``action`` captures (after its Joker or Shifter)."""
    if type(action) is Capture:
        return capture_value(state, action)
    if type(action) in (UseJoker, UseShifter):
        state.push(action)
        v = best_capture(state)[0]
        state.pop()
        return v
    return 0.0


def _thief_value(state: TweakState, thief: Action) -> float:
    """The mean best capture after the Thief's draw (the victim's hand as it is): over
    each distinct card of it (``chance_outcomes``' order), weighted by its copies
    (``copies / size`` is ``float(Fraction(copies, size))``: both correctly rounded)."""
    state.push(thief)
    total = 0.0
    hand = state.hands[state.victim]
    size = len(hand)
    prev = -1
    for c in hand:
        if c == prev:
            continue
        prev = c
        state.push(STEAL[c])
        total += hand.count(c) / size * _best_of(state, state.legal_actions())[0]
        state.pop()
    state.pop()
    return total


def _bomb_value(state: TweakState, bomb: Action) -> float:
    """The best capture after a Bomb, each victim giving up its least valuable card."""
    me = state.to_move
    state.push(bomb)
    pushed = 1
    while state.phase == BOMB_PHASE and state.to_move is not None:
        state.push(cheapest_place(state, state.hands[state.to_move]))
        pushed += 1
    v = best_capture(state)[0] if state.to_move == me else 0.0
    for _ in range(pushed):
        state.pop()
    return v


POLICIES: dict[str, type[Bot]] = {"tactics": TacticsPolicy}
"""TWEAK's rollout policies beside its bots (for the searchers' profiles: they read the
world they play in, so they are never players)."""


__all__ = ["POLICIES", "GreedyBot", "Place", "TacticsPolicy"]
