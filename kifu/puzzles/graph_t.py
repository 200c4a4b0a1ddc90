"""GRAPH-T question: ``double-dummy`` (every hand known; the player to move against all).

The value of a finished game for the player is, in order of importance: their place
(1 = first; ranks by (tallest stack, second tallest) as ruling 8, equal pairs share a
place; lower is better), how many seats share that place (the player included; fewer is
better), their tallest stack, their second tallest (higher is better). The search is the
paranoid alpha-beta of :func:`kifu.puzzles.search.minimax` on the tuple
``(-place, -shared, tallest, second)``, with a table keyed by what the rest of the game
depends on (the hands, the trick, the leader, who has made a grey play, every stack's
height), so two ways of reaching the same heights with different cards are one position.
"""

from __future__ import annotations

import gc
import re
import time
from typing import Any

from kifu.core.errors import NotationError
from kifu.core.game import Action, State
from kifu.core.variant import short
from kifu.games.graph_t import GAME
from kifu.games.graph_t.actions import PLAYS
from kifu.games.graph_t.cards import PLAY_HEIGHT
from kifu.games.graph_t.state import OVER, PLAY, GraphTState
from kifu.puzzles.base import (
    UNLIMITED,
    ActionValue,
    Budget,
    OutOfBudget,
    Question,
    Solution,
    action_text,
    line_texts,
    solved,
    unsolved,
)
from kifu.puzzles.graph_t_dd import Searcher, unpack
from kifu.puzzles.search import minimax

_ANSWER = re.compile(r"place ([1-4]) shared ([1-4]) tallest ([0-9]{1,9}) second ([0-9]{1,9})\Z")


def final_value(state: GraphTState, player: int) -> tuple[int, int, int, int]:
    """(place, shared, tallest, second) of ``player`` at the end of the game."""
    keys = []
    for hs in state.heights:
        s = sorted(hs, reverse=True)
        keys.append((s[0], s[1]))
    mine = keys[player]
    place = 1 + sum(1 for k in keys if k > mine)
    shared = sum(1 for k in keys if k == mine)
    return place, shared, mine[0], mine[1]


def value_text(v: tuple[int, int, int, int]) -> str:
    return f"place {v[0]} shared {v[1]} tallest {v[2]} second {v[3]}"


def _key(state: State) -> Any:
    st: GraphTState = state  # type: ignore[assignment]
    return (st.hands, st.trick, st.leader, st.greyed, st.heights)


def _order(state: State, actions: list[Action]) -> list[Action]:
    """Tall plays first (they win tricks), then short ones (cheap discards)."""
    return sorted(actions, key=lambda a: -PLAY_HEIGHT[2 * a.card + a.grey_side])  # type: ignore[attr-defined]


class DoubleDummy(Question):
    name = "double-dummy"
    game = "graph-t"
    summary = ("every hand known, the player to move against all the others: the final "
               "place shared tallest second, and the value of every legal play")

    def applies(self, state: State) -> str | None:
        assert isinstance(state, GraphTState)
        if state.phase != PLAY:
            return "no trick is being played (the game is over or not dealt)"
        return None

    def candidate(self, state: State) -> bool:
        """Endgames of at most 4 cards in the mover's hand, at the start of a trick."""
        assert isinstance(state, GraphTState)
        return not state.trick and state.hand(state.turn).bit_count() <= 4  # type: ignore[arg-type]

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        """The dedicated searcher of :mod:`kifu.puzzles.graph_t_dd` (its compiled core when
        it is built)."""
        assert isinstance(state, GraphTState)
        t0 = time.perf_counter()
        player: int = state.turn  # type: ignore[assignment]
        v = state.variant
        s = Searcher(state.n, state.hands, state.heights, state.trick, state.leader,
                     state.greyed, player, trump=v.grey_wins == "trump",
                     anyone=v.grey_open == "anyone", budget=budget)
        acts = state.legal_actions()
        values: list[ActionValue] = []
        # the search makes many small tuples and frees them only at its end: the
        # cyclic collector would walk the growing tables again and again for nothing
        collect = gc.isenabled()
        gc.disable()
        nodes = 0
        try:
            best = None
            raw = []
            for a in acts:
                undo = s.push(2 * a.card + a.grey_side)  # type: ignore[attr-defined]
                x = s.value()
                s.pop(undo)
                raw.append(x)
                values.append(ActionValue(action_text(GAME, state, a), value_text(unpack(x))))
                if best is None or x > best:
                    best = x
            assert best is not None
            first = acts[raw.index(best)]
            line = s.line(best, 2 * first.card + first.grey_side)  # type: ignore[attr-defined]
        except OutOfBudget as e:
            return unsolved(s.nodes, time.perf_counter() - t0, e.reason, values)
        finally:
            nodes = s.nodes
            s.close()  # its tables go now, by reference counting
            if collect:
                gc.enable()
        answer = value_text(unpack(best))
        winning = sum(1 for x in raw if x == best)
        texts = line_texts(GAME, state, [PLAYS[p] for p in line])  # type: ignore[misc]
        return Solution(answer, values, texts, nodes, time.perf_counter() - t0, True,
                        winning)

    def solve_generic(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        """The same answer from the generic :func:`kifu.puzzles.search.minimax` over the
        engine's push/pop (slow; kept as a test oracle)."""
        assert isinstance(state, GraphTState)
        player: int = state.turn  # type: ignore[assignment]

        def evaluate(st: State) -> Any:
            if st.phase != OVER:  # type: ignore[attr-defined]
                return None
            p, sh, t1, t2 = final_value(st, player)  # type: ignore[arg-type]
            return (-p, -sh, t1, t2)

        r = minimax(state, player=player, evaluate=evaluate, budget=budget, key=_key,
                    order=_order, values=True)
        if not r.complete:
            return unsolved(r.nodes, r.seconds, r.reason)
        return solved(GAME, state, value_text(_back(r.value)),
                      [(a, value_text(_back(v))) for a, v in r.values], r.line, r.nodes,
                      r.seconds)

    def parse_answer(self, text: str) -> str:
        t, m = self.read_answer(text, "'place P shared S tallest T second U' (heights in 1/60 "
                                "of a card)", form=_ANSWER)
        assert m is not None
        place, shared, t1, t2 = (int(x) for x in m.groups())
        if t2 > t1:
            raise NotationError(f"bad answer {short(text)}: the second tallest stack is taller "
                                "than the tallest", line=1, col=t.index("second") + 1)
        return value_text((place, shared, t1, t2))


def _back(v: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (-v[0], -v[1], v[2], v[3])


__all__ = ["DoubleDummy", "final_value", "value_text"]
