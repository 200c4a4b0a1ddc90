"""TOWAI's oracle bot ``out``: it searches its turn for a sure way out with the puzzle
solver (the question ``towai-out-this-turn``), reading the other hands (their Swap choices
are played against it), and otherwise plays as ``greedy``."""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.towai.bots import greedy_choice
from kifu.games.towai.state import CHAIN, LEAD, PLAY, TowaiState
from kifu.puzzles.base import Budget
from kifu.puzzles.search import prove
from kifu.puzzles.towai import OutThisTurn, order_actions


class OutBot(Bot):
    """Goes out this turn whenever a line does so whatever the others give in Swaps (found
    by the solver, the question ``towai-out-this-turn``; :func:`out_line` is the same
    search written out, kept as a cross-check); otherwise plays as ``greedy``."""

    name = "out"
    peeks = True  # an oracle: reads the other hands

    def choose(self, state: State) -> Action:
        assert isinstance(state, TowaiState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase in (LEAD, PLAY, CHAIN):
            line = solver_out_line(state)
            if line:
                return line[0]
        return greedy_choice(state, legal)


def solver_out_line(state: TowaiState, node_limit: int = 20_000) -> list[Action] | None:
    """The winning line of the puzzle question ``towai-out-this-turn`` (the solver's AND-OR
    search), or None (also past ``node_limit`` nodes)."""
    player, goal = OutThisTurn().goal(state)
    proof = prove(state, player=player, goal=goal, budget=Budget(nodes=node_limit,
                                                                 seconds=None),
                  order=order_actions)
    return proof.line if proof.ok and proof.complete else None


__all__ = ["OutBot", "solver_out_line"]
