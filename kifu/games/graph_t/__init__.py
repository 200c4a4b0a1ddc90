"""GRAPH-T: trick-taking with bar-graph cards; build the tallest stack of one colour.
Rules as implemented: ``docs/rules/graph-t.md``."""

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
