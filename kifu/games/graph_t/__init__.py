"""GRAPH-T: trick-taking with bar-graph cards; build the tallest stack of one colour.
Rules as implemented: ``docs/rules/graph-t.md``.

>>> from kifu import games
>>> game = games.get("graph-t")
>>> state = game.from_line("graph-t/1 R1Y2G/B1K6G -/- - p0 p0 -")
>>> [game.format_action(state, a) for a in state.legal_actions()]
['R1', 'Y2']
>>> state.apply(game.parse_action(state, "Y2"))
Play(card=3, grey_side=False)
>>> state.to_line()
'graph-t/1 R1G/B1K6G -/- Y2 p0 p1 -'
"""

from __future__ import annotations

from kifu.core.game import Game
from kifu.games.graph_t.actions import Deal, Lead, Play
from kifu.games.graph_t.bots import AiBot, GraphTAiBot, GreedyBot
from kifu.games.graph_t.game import GAME, GraphT
from kifu.games.graph_t.state import GraphTState
from kifu.games.graph_t.variant import GraphTVariant

GraphT.bots = {**Game.bots, "greedy": GreedyBot, "ai": AiBot, "graph-t-ai": GraphTAiBot}

__all__ = [
    "GAME",
    "Deal",
    "GraphT",
    "GraphTState",
    "GraphTVariant",
    "Lead",
    "Play",
]
