"""TOWAI questions: ``towai-out-this-turn`` and ``towai-win-round`` (ruling 15).

Both see every hand and the deck's order. The player is the one whose turn it is
(``state.mover``). Answers are ``yes`` or ``no``; each first action gets the same.

- ``towai-out-this-turn``: can the player go out (play their last card, which wins the
  round) before the turn ends, Reset leads and combos included, whatever the others choose
  in the player's Swaps? Winning the round at the turn cap while still holding cards is not
  going out. A rebuild during the player's Draw cannot change the player's hand (the chain
  goes on with 3s only), so at a rebuild the goal decides directly whether the player can
  shed every card as a 3.
- ``towai-win-round``: can the player win the round against any defence (every other seat
  plays against the player)? A rebuild is a shuffle nobody knows: a line that needs one does
  not count as forced (the search scores the rebuild as a failure for the player).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kifu.core.game import Action, State
from kifu.games.towai import GAME
from kifu.games.towai.actions import Pass, Stop
from kifu.games.towai.cards import DRAW, NUM, TYPE
from kifu.games.towai.state import (
    CHAIN,
    DEAL,
    LEAD,
    OVER,
    PLAY,
    R_PASS,
    REBUILD,
    TowaiState,
)
from kifu.puzzles.base import UNLIMITED, Budget, Solution, YesNoQuestion, solved, unsolved, yes_no
from kifu.puzzles.search import prove


def _turn(state: State) -> str | None:
    assert isinstance(state, TowaiState)
    if state.phase not in (LEAD, PLAY, CHAIN):
        return "no player is to lead, follow or continue a combo"
    return None


@cache
def _threes(day: int, night: int, twai: int, side: int) -> bool:
    """Can a combo of 3s shed ``day`` D3, ``night`` N3 and ``twai`` T3 from ``side``
    (a Twai flips it; the last card may be any that fits)?"""
    if day + night + twai == 0:
        return True
    if twai and _threes(day, night, twai - 1, 1 - side):
        return True
    if side == 0 and day and _threes(day - 1, night, twai, side):
        return True
    return bool(side == 1 and night and _threes(day, night - 1, twai, side))


def out_by_threes(state: TowaiState, player: int) -> bool:
    """At a rebuild during ``player``'s Draw: the rest of the turn is a combo of 3s."""
    cards = state.hand_cards(player)
    if any(NUM[c] != 3 for c in cards):
        return False
    day = sum(1 for c in cards if TYPE[c] == 0)
    night = sum(1 for c in cards if TYPE[c] == 1)
    return _threes(day, night, len(cards) - day - night, state.side)


def order_actions(state: State, actions: list[Action]) -> list[Action]:
    """Plays before stop and pass; among plays, Twai effects (Reset, Swap, Draw) first."""

    def rank(a: Action) -> int:
        t = type(a)
        if t is Stop or t is Pass:
            return 3
        c = getattr(a, "card", 0)
        return 0 if c >= 12 and c <= 14 else 1

    return sorted(actions, key=rank)


class _YesNo(YesNoQuestion):
    game = "towai"

    def applies(self, state: State) -> str | None:
        return _turn(state)

    def goal(self, state: TowaiState) -> tuple[int, Any]:
        """(the player to move, the search's goal test for them)."""
        player = state.mover
        return player, self.goal_from(player, state.wins[player])

    def goal_from(self, player: int, start: int) -> Any:
        """The goal test for ``player``, who had won ``start`` rounds at the root."""
        raise NotImplementedError

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, TowaiState)
        player, goal = self.goal(state)
        proof = prove(state, player=player, goal=goal, budget=budget, order=order_actions,
                      values=True)
        if not proof.complete:
            return unsolved(proof.nodes, proof.seconds, proof.reason)
        return solved(GAME, state, yes_no(proof.ok), [(a, yes_no(ok)) for a, ok in proof.values],
                      proof.line if proof.ok else [], proof.nodes, proof.seconds)

    def candidate(self, state: State) -> bool:
        assert isinstance(state, TowaiState)
        return sum(state.hand_size(s) for s in range(state.n)) <= 10

    def interesting(self, solution: Solution) -> bool:
        """A yes that takes more than one play."""
        return solution.answer == "yes" and len(solution.line) > 1


class OutThisTurn(_YesNo):
    name = "towai-out-this-turn"
    summary = ("can the player to move go out before the turn ends (combos, Reset leads, "
               "the others' Swap choices against it)? yes / no")

    def goal_from(self, player: int, start: int) -> Any:
        def goal(st: State) -> bool | None:
            if st.wins[player] > start:  # type: ignore[attr-defined]
                # going out is playing one's last card (ruling 8); winning the round at the
                # turn cap with cards in hand (ruling 9) is not going out
                return st.hand_size(player) == 0  # type: ignore[attr-defined]
            phase = st.phase  # type: ignore[attr-defined]
            if phase in (DEAL, OVER):
                return False
            if phase == REBUILD:
                if st.pending[0] == R_PASS:  # type: ignore[attr-defined]
                    return False
                return out_by_threes(st, player)  # type: ignore[arg-type]
            if phase in (LEAD, PLAY, CHAIN) and st.mover != player:  # type: ignore[attr-defined]
                return False
            return None

        return goal

    def candidate(self, state: State) -> bool:
        assert isinstance(state, TowaiState)
        return state.hand_size(state.mover) <= 6


class WinRound(_YesNo):
    name = "towai-win-round"
    summary = ("can the player to move win the round against any defence, every hand and "
               "the deck order known (a rebuild counts against it)? yes / no")

    def goal_from(self, player: int, start: int) -> Any:
        def goal(st: State) -> bool | None:
            if st.wins[player] > start:  # type: ignore[attr-defined]
                return True
            if st.phase in (DEAL, OVER, REBUILD):  # type: ignore[attr-defined]
                return False
            return None

        return goal


__all__ = ["DRAW", "OutThisTurn", "WinRound", "out_by_threes"]
