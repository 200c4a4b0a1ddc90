"""``pimc``: Perfect-Information Monte Carlo, the game-independent way GIB played bridge.

At each decision the bot draws ``worlds`` full positions that agree with what its seat
has seen (the game's world sampler, ``Game.world_sampler``), values each candidate action
in each world as if every card were face up, and plays the action with the best average.
A world is valued by the game's exact solver where the profile has one that answers
quickly (GRAPH-T's double dummy late in the game), otherwise by one rollout per action
with the profile's cheap policy, every action of a world from the same seed. Ties go to
the first action in legal order, so the same seed and position give the same choice.

PIMC's known blind spots (strategy fusion, non-locality: Frank & Basin 1998) are the price
of its speed; ``ismcts`` is the answer to the first.
"""

from __future__ import annotations

from typing import ClassVar

from kifu.bots.search import Param, Rollout, SearchBot, best_index, searchable
from kifu.core.game import Action, State


class PimcBot(SearchBot):
    """Perfect-Information Monte Carlo over sampled worlds (see the module docstring)."""

    name = "pimc"
    PARAMS: ClassVar[dict[str, Param]] = {
        "worlds": Param(int, 8, 1, 10_000, "worlds sampled per decision"),
        "actions": Param(int, 64, 1, 10_000,
                         "candidate actions searched (where the game ranks them)"),
    }

    def choose(self, state: State) -> Action:
        cands = searchable(state, self.profile, self.params["actions"])
        if len(cands) == 1:
            return cands[0]
        draw = self.game.world_sampler(state, self.seat)
        rollout = Rollout(self.game, self.profile, state.n)
        solve = self.profile.solve
        totals = [0.0] * len(cands)
        seat = self.seat
        for _ in range(self.params["worlds"]):
            world = draw(self.rng)
            values = solve(world, seat, cands) if solve is not None else None
            if values is None:
                seed = self.rng.next64()
                values = []
                for a in cands:
                    w = world.copy()
                    w.push(a)
                    values.append(rollout.run(w, seed)[seat])
            for i, v in enumerate(values):
                totals[i] += v
        return cands[best_index(totals)]


__all__ = ["PimcBot"]
