"""Alice question: ``alice-bard-wins`` (ruling 21).

Can the Bard win this turn's check, every hand known and the order of play fixed, whatever
the others do? The Bard's choices are the solver's; every other player's (an opposing
Caterpillar's ``grow``/``shrink`` included) are against the Bard; a dealer draw (the verb
for a Bard who drank) must work for every card. A void turn, a check with no winner or
another winner is a "no". Answers: ``yes`` or ``no``; the value of each legal first action
says which ones keep the win (for the Bard: the best covers), and the line is the Bard's
winning choices against one defence. The search is :func:`kifu.puzzles.search.prove` with
the engine's goal test from :mod:`kifu.games.alice.bardwins`.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.games.alice import GAME
from kifu.games.alice.bardwins import IN_TURN, applies, decided
from kifu.games.alice.state import PLAY, AliceState
from kifu.puzzles.base import UNLIMITED, Budget, Solution, YesNoQuestion, solved, unsolved, yes_no
from kifu.puzzles.search import prove


class BardWins(YesNoQuestion):
    name = "alice-bard-wins"
    game = "alice"
    summary = ("can the Bard win this turn's check whatever the others do (every hand "
               "known)? yes / no, with the winning line and the value of every action")

    def applies(self, state: State) -> str | None:
        assert isinstance(state, AliceState)
        return applies(state)

    def candidate(self, state: State) -> bool:
        """Playing-phase positions where the sentence has at most two blanks."""
        assert isinstance(state, AliceState)
        return state.phase == PLAY and sum(1 for p in state.slots if not p) <= 2

    def interesting(self, solution: Solution) -> bool:
        """A "yes" that needs a choice: some first action loses the win."""
        return solution.answer == "yes" and solution.failing > 0

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, AliceState)
        bard, turns = state.bard, state.turns

        def goal(st: State) -> bool | None:
            return decided(st, bard, turns)  # type: ignore[arg-type]

        r = prove(state, player=bard, goal=goal, chance="all", budget=budget, values=True)
        if not r.complete:
            return unsolved(r.nodes, r.seconds, r.reason)
        return solved(GAME, state, yes_no(r.ok), [(a, yes_no(ok)) for a, ok in r.values],
                      r.line, r.nodes, r.seconds)


__all__ = ["IN_TURN", "BardWins"]
