"""``pimc``: Perfect-Information Monte Carlo, the game-independent way GIB played bridge.

At each decision the bot draws ``worlds`` full positions that agree with what its seat
has seen (the game's world sampler, ``Game.world_sampler``), values each candidate action
in each world as if every card were face up, and plays the action with the best average.
A world is valued by the game's exact solver where the profile has one that answers
quickly (GRAPH-T's double dummy late in the game), otherwise by one rollout per action
with the profile's cheap policy, every action of a world from the same seed. The game's
``greedy`` choice is the default: another action is played only when its mean beats it by
``z`` standard errors of the paired differences (a few noisy worlds otherwise pick a worse
action as often as a better one). Ties go to the default, then to the first in legal
order, so the same seed and position give the same choice.

PIMC's known blind spots (strategy fusion, non-locality: Frank & Basin 1998) are the price
of its speed; ``ismcts`` is the answer to the first.
"""

from __future__ import annotations

from typing import ClassVar

from kifu.bots.search import Param, Rollout, SearchBot, best_index, policy_first, searchable
from kifu.core.game import Action, State


class PimcBot(SearchBot):
    """Perfect-Information Monte Carlo over sampled worlds (see the module docstring)."""

    name = "pimc"
    PARAMS: ClassVar[dict[str, Param]] = {
        "worlds": Param(int, 8, 1, 10_000, "worlds sampled per decision"),
        "actions": Param(int, 64, 1, 10_000,
                         "candidate actions searched (where the game ranks them)"),
        "z": Param(float, 1.0, 0.0, 10.0,
                   "standard errors by which an action must beat the default (the game's "
                   "greedy choice; paired over the worlds) to be played instead"),
    }

    def choose(self, state: State) -> Action:
        cands = searchable(state, self.profile, self.params["actions"])
        if len(cands) == 1:
            return cands[0]
        rollout = Rollout(self.game, self.profile, state.n)
        cands = policy_first(cands, rollout, state)
        draw = self.game.world_sampler(state, self.seat)
        solve = self.profile.solve
        totals = [0.0] * len(cands)
        rows: list[list[float]] = []
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
            rows.append(values)
            for i, v in enumerate(values):
                totals[i] += v
        best = best_index(totals)
        if best and not self._beats_policy(rows, best):
            return cands[0]
        return cands[best]

    def _beats_policy(self, rows: list[list[float]], best: int) -> bool:
        """Whether action ``best`` beats the policy's choice (index 0) by ``z`` standard
        errors of the paired differences over the worlds."""
        z = self.params["z"]
        if z == 0:
            return True
        diffs = [r[best] - r[0] for r in rows]
        k = len(diffs)
        mean = sum(diffs) / k
        if k < 2:
            return mean > 0
        var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
        return mean > z * (var / k) ** 0.5


__all__ = ["PimcBot"]
