"""``ismcts``: single-observer Information Set Monte Carlo Tree Search (Cowling, Powley &
Whitehouse 2012), game-independent.

One tree over the bot's information set: each iteration takes a world that agrees with
what the seat has seen (from a pool of ``worlds`` drawn once per decision, used in turn),
walks the tree choosing among the actions legal *in that world* by UCB1 with availability
counts (an action's exploration term counts the iterations in which it could have been
chosen), adds one node, plays on with the profile's rollout policy and backs every seat's
utility up the path, each node crediting the seat that chose its action. Chance (dealer)
actions are drawn, not branched on. The most visited action at the root is played; ties go
to the game's greedy choice, then to the first in legal order. A fixed number of
iterations (``iters``), no clock, so the same seed gives the same game on any machine.
"""

from __future__ import annotations

import math
from typing import ClassVar

from kifu.bots.search import Param, Rollout, SearchBot, policy_first, searchable
from kifu.core.game import DEALER, Action, State


class _Node:
    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int):
        self.seat = seat  # the seat that chose the action leading here
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.children: dict[Action, _Node] = {}


class IsmctsBot(SearchBot):
    """Single-observer ISMCTS with a fixed iteration budget (see the module docstring)."""

    name = "ismcts"
    PARAMS: ClassVar[dict[str, Param]] = {
        "iters": Param(int, 100, 1, 1_000_000, "iterations per decision"),
        "worlds": Param(int, 8, 1, 10_000, "worlds drawn per decision, used in turn"),
        "c": Param(float, 0.7, 0.0, 100.0, "UCB1 exploration constant"),
        "actions": Param(int, 64, 1, 10_000,
                         "candidate actions per node (where the game ranks them)"),
    }

    def choose(self, state: State) -> Action:
        prof = self.profile
        limit = self.params["actions"]
        root_actions = searchable(state, prof, limit)
        if len(root_actions) == 1:
            return root_actions[0]
        rollout = Rollout(self.game, prof, state.n)
        root_actions = policy_first(root_actions, rollout, state)
        draw = self.game.world_sampler(state, self.seat)
        pool = [draw(self.rng) for _ in range(self.params["worlds"])]
        chance = self.game.chance_action
        c = self.params["c"]
        root = _Node(self.seat)
        rng = self.rng
        for it in range(self.params["iters"]):
            world = pool[it % len(pool)].copy()
            node = root
            path = []
            while True:
                mover = world.to_move
                if mover is None:
                    break
                if mover == DEALER:
                    world.push(chance(world, rng))
                    continue
                actions = root_actions if node is root else searchable(world, prof, limit)
                for a in actions:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                untried = [a for a in actions if a not in node.children]
                if untried:
                    a = untried[rng.below(len(untried))]
                    child = _Node(mover)
                    node.children[a] = child
                    child.avail = 1
                    world.push(a)
                    path.append(child)
                    break
                best = None
                best_score = -math.inf
                for a in actions:
                    ch = node.children[a]
                    score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if score > best_score:
                        best, best_score = a, score
                assert best is not None
                node = node.children[best]
                world.push(best)
                path.append(node)
            u = rollout.run(world, rng.next64())
            for nd in path:
                nd.visits += 1
                nd.reward += u[nd.seat]
        visits = [root.children[a].visits if a in root.children else -1 for a in root_actions]
        best_i = 0
        for i, v in enumerate(visits):
            if v > visits[best_i]:
                best_i = i
        return root_actions[best_i]


__all__ = ["IsmctsBot"]
