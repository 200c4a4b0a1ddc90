"""TWEAK bots. They read what their seat can see: their hand, their T! cards, the table,
the target and the deck's size (legal actions depend on nothing else), with one lapse:
``greedy`` weighs a Shifter by pushing it and looking at the captures then, which shows it
the deck's top card (found in issue 33's fifth session; left as it is, ``greedy`` being
every ladder's fixed opponent; ``expert:default=greedy`` asks it of sampled worlds only).
:class:`TacticsPolicy` is a rollout policy for the searchers' sampled worlds, never a
player: it reads a Thief's victim's hand."""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.tweak.actions import Capture, Place, UseBomb, UseJoker, UseShifter, UseThief
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
        pick = super().choose(state)
        if state.phase == BOMB_PHASE or state.tused:
            return pick
        legal = state.legal_actions()
        tees = [a for a in legal if type(a) in (UseThief, UseBomb)]
        if not tees:
            return pick
        best = _value_of(state, pick)
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
    """The mean best capture after the Thief's draw (the victim's hand as it is)."""
    state.push(thief)
    total = 0.0
    for steal, p in state.chance_outcomes() or ():
        state.push(steal)
        total += float(p) * best_capture(state)[0]
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
