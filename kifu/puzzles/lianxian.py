"""Lianxian questions, all about the placement of this turn: ``lianxian-best`` (the most
points, and every placement reaching them), ``lianxian-finish`` (can the player's pawn reach
the finish line this turn?) and ``lianxian-least-bonus K`` (of the placements scoring at
least ``K``, the fewest bonus points given to opponents).

Each is exhaustive over the rack, the public hand and the spaces: the engine's placement
generator lists every legal placement exactly once with its points and bonus
(``LianxianState.placements()``), so no tree search is needed; ``nodes`` counts the
placements examined. The value of a swap or a pass is that of scoring nothing. In 2 vs 2 a
partner is not an opponent (a bonus to the partner is not counted).
"""

from __future__ import annotations

import re
import time

from kifu.core.game import State
from kifu.games.lianxian import GAME
from kifu.games.lianxian.bots import opponents_bonus
from kifu.games.lianxian.state import TURN, LianxianState, Placement
from kifu.puzzles.base import (
    UNLIMITED,
    Budget,
    Question,
    Solution,
    YesNoQuestion,
    solved,
    unsolved,
    yes_no,
)

_POINTS = re.compile(r"points=(0|[1-9][0-9]{0,8})\Z")
_BONUS = re.compile(r"bonus=(0|[1-9][0-9]{0,8})\Z")


class _ThisTurn(Question):
    """A question about the placement of this turn, asked when a player is to place or swap:
    each first action gets a value (:meth:`worth` of its placement, of ``None`` for a swap
    or a pass), and the answer is read from the values (:meth:`answer`)."""

    game = "lianxian"

    def applies(self, state: State) -> str | None:
        if not isinstance(state, LianxianState) or state.phase != TURN:
            return "no player is to place or swap"
        return None

    def worth(self, state: LianxianState, p: Placement | None) -> str:
        raise NotImplementedError

    def answer(self, values: list[str]) -> str:
        raise NotImplementedError

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, LianxianState)
        t0 = time.perf_counter()
        placements = {p.action: p for p in state.placements()}
        nodes = len(placements)
        if budget.nodes is not None and nodes > budget.nodes:
            return unsolved(budget.nodes, time.perf_counter() - t0, "nodes")
        vals = [(a, self.worth(state, placements.get(a))) for a in state.legal_actions()]
        answer = self.answer([v for _, v in vals])
        first = next((a for a, v in vals if v == answer), None)
        return solved(GAME, state, answer, vals, [] if first is None else [first], nodes,
                      time.perf_counter() - t0)


class Best(_ThisTurn):
    name = "lianxian-best"
    summary = ("the most points the player to move can score this turn; the winning first "
               "actions are every placement reaching them. points=<n>")

    def worth(self, state: LianxianState, p: Placement | None) -> str:
        return f"points={p.points if p else 0}"

    def answer(self, values: list[str]) -> str:
        return max(values, key=lambda v: int(v[7:]))

    def interesting(self, solution: Solution) -> bool:
        return solution.answer not in ("points=0", "points=2")

    def parse_answer(self, text: str) -> str:
        return self.read_answer(text, "points=<n>", form=_POINTS)[0]


class Finish(_ThisTurn, YesNoQuestion):
    name = "lianxian-finish"
    summary = ("can the player to move bring their pawn to the finish line this turn? "
               "yes or no")

    def worth(self, state: LianxianState, p: Placement | None) -> str:
        return yes_no(p is not None and p.points >= _need(state))

    def answer(self, values: list[str]) -> str:
        return yes_no("yes" in values)

    def candidate(self, state: State) -> bool:
        assert isinstance(state, LianxianState)
        return _need(state) <= 8

    def interesting(self, solution: Solution) -> bool:
        return solution.answer == "yes"


def _need(state: LianxianState) -> int:
    """The points the player to move still needs to reach the finish line."""
    return state.seating.finish - state.scores[state.mover]


class LeastBonus(_ThisTurn):
    name = "lianxian-least-bonus"
    summary = ("of the placements scoring at least K points, the fewest bonus points given "
               "to opponents. bonus=<n>, or none if no placement scores K")
    arg = "K"
    arg_range = (1, 50)

    def worth(self, state: LianxianState, p: Placement | None) -> str:
        if p is None or p.points < self.value:  # type: ignore[operator]
            return "none"
        return f"bonus={opponents_bonus(state, p)}"

    def answer(self, values: list[str]) -> str:
        got = [int(v[6:]) for v in values if v != "none"]
        return f"bonus={min(got)}" if got else "none"

    def interesting(self, solution: Solution) -> bool:
        return solution.answer != "none"

    def parse_answer(self, text: str) -> str:
        return self.read_answer(text, "bonus=<n> or none", ("none",), _BONUS)[0]
