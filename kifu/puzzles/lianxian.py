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

from kifu.core.errors import NotationError
from kifu.core.game import Action, State
from kifu.core.variant import short
from kifu.games.lianxian import GAME
from kifu.games.lianxian.bots import opponents_bonus
from kifu.games.lianxian.state import TURN, LianxianState, Placement
from kifu.puzzles.base import (
    UNKNOWN,
    UNLIMITED,
    ActionValue,
    Budget,
    Question,
    Solution,
    action_text,
)

_POINTS = re.compile(r"points=(0|[1-9][0-9]{0,8})\Z")
_BONUS = re.compile(r"bonus=(0|[1-9][0-9]{0,8})\Z")


def _applies(state: State) -> str | None:
    if not isinstance(state, LianxianState) or state.phase != TURN:
        return "no player is to place or swap"
    return None


def _solve(state: LianxianState, budget: Budget, value, answer_of) -> Solution:
    """``value(placement or None)`` gives each first action's value text (None for a swap
    or a pass); ``answer_of(list of (action, value))`` the answer."""
    t0 = time.perf_counter()
    placements = {p.action: p for p in state.placements()}
    nodes = len(placements)
    if budget.nodes is not None and nodes > budget.nodes:
        return Solution(UNKNOWN, [], [], budget.nodes, time.perf_counter() - t0, False, 0,
                        "nodes")
    vals: list[tuple[Action, str]] = [(a, value(placements.get(a)))
                                      for a in state.legal_actions()]
    answer = answer_of(vals)
    best = [a for a, v in vals if v == answer]
    values = [ActionValue(action_text(GAME, state, a), v) for a, v in vals]
    line = [action_text(GAME, state, best[0])] if best else []
    return Solution(answer, values, line, nodes, time.perf_counter() - t0, True, len(best))


def _parse(regex: re.Pattern[str], name: str, form: str, text: str,
           extra: tuple[str, ...] = ()) -> str:
    t = text.strip()
    if t in extra or regex.match(t):
        return t
    raise NotationError(f"bad answer {short(text)} to {name}: expected {form}", line=1, col=1)


class Best(Question):
    name = "lianxian-best"
    game = "lianxian"
    summary = ("the most points the player to move can score this turn; the winning first "
               "actions are every placement reaching them. points=<n>")

    def applies(self, state: State) -> str | None:
        return _applies(state)

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, LianxianState)

        def value(p: Placement | None) -> str:
            return f"points={p.points if p else 0}"

        def answer(vals: list[tuple[Action, str]]) -> str:
            return max(vals, key=lambda av: int(av[1][7:]))[1]

        return _solve(state, budget, value, answer)

    def interesting(self, solution: Solution) -> bool:
        return solution.answer not in ("points=0", "points=2")

    def parse_answer(self, text: str) -> str:
        return _parse(_POINTS, self.name, "points=<n>", text)


class Finish(Question):
    name = "lianxian-finish"
    game = "lianxian"
    summary = ("can the player to move bring their pawn to the finish line this turn? "
               "yes or no")

    def applies(self, state: State) -> str | None:
        return _applies(state)

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, LianxianState)
        need = state.seating.finish - state.scores[state.mover]

        def value(p: Placement | None) -> str:
            return "yes" if p is not None and p.points >= need else "no"

        def answer(vals: list[tuple[Action, str]]) -> str:
            return "yes" if any(v == "yes" for _, v in vals) else "no"

        return _solve(state, budget, value, answer)

    def candidate(self, state: State) -> bool:
        assert isinstance(state, LianxianState)
        return state.seating.finish - state.scores[state.mover] <= 8

    def interesting(self, solution: Solution) -> bool:
        return solution.answer == "yes"

    def parse_answer(self, text: str) -> str:
        t = text.strip()
        if t in ("yes", "no"):
            return t
        raise NotationError(f"bad answer {short(text)} to {self.name}: expected yes or no",
                            line=1, col=1)


class LeastBonus(Question):
    name = "lianxian-least-bonus"
    game = "lianxian"
    summary = ("of the placements scoring at least K points, the fewest bonus points given "
               "to opponents. bonus=<n>, or none if no placement scores K")
    arg = "K"
    arg_range = (1, 50)

    def applies(self, state: State) -> str | None:
        return _applies(state)

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, LianxianState)
        k = self.value
        assert k is not None

        def value(p: Placement | None) -> str:
            if p is None or p.points < k:
                return "none"
            return f"bonus={opponents_bonus(state, p)}"

        def answer(vals: list[tuple[Action, str]]) -> str:
            got = [int(v[6:]) for _, v in vals if v != "none"]
            return f"bonus={min(got)}" if got else "none"

        return _solve(state, budget, value, answer)

    def interesting(self, solution: Solution) -> bool:
        return solution.answer != "none"

    def parse_answer(self, text: str) -> str:
        return _parse(_BONUS, self.name, "bonus=<n> or none", text, ("none",))
