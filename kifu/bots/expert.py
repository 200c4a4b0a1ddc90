"""``expert``: the strong bot, built on the evaluator (:mod:`kifu.bots.evaluate`).

At each decision with more than one candidate it asks :func:`kifu.bots.evaluate.evaluate`
for the value of every candidate action from its seat's information, at its ``level``
(``fast``, ``normal``, ``deep``), seeded from its own stream. The game's default choice
(its ``greedy`` bot's) is played unless the best action beats it by ``z`` standard errors
of their paired difference (a few noisy worlds otherwise pick a worse action about as often
as a better one; ``docs/bots.md``, ``pimc``).

``expert:cheat=1`` is the *cheater*: the same bot valuing the true position instead of
sampled worlds (all-seeing), the upper bound a fair bot is measured against. It reads
cards its seat cannot see; use it only as that yardstick.
"""

from __future__ import annotations

from typing import ClassVar

from kifu.bots.evaluate import LEVELS, default_action, evaluate
from kifu.bots.search import Param, SearchBot
from kifu.core.game import Action, State


class ExpertBot(SearchBot):
    """The evaluator's best action, the default choice unless clearly beaten (module
    docstring)."""

    name = "expert"
    PARAMS: ClassVar[dict[str, Param]] = {
        "level": Param(str, "normal", 0, 0, "the evaluator's budget", choices=tuple(LEVELS)),
        "z": Param(float, 1.0, 0.0, 10.0,
                   "standard errors of the paired difference by which the best action must "
                   "beat the default (the game's greedy choice) to be played instead"),
        "cheat": Param(int, 0, 0, 1, "1: value the true position (all-seeing; a yardstick)"),
    }

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ev = evaluate(self.game, state, self.seat, level=self.params["level"],
                      seed=self.rng.next64(), omniscient=bool(self.params["cheat"]))
        acts = ev.actions
        if len(acts) == 1:
            return acts[0].action
        best = acts[0]
        pick = default_action(self.game, state, self.seat)
        default = next((av for av in acts if av.action == pick), None)
        if default is None or default is best:
            return best.action
        z = self.params["z"]
        gain = best.value - default.value
        if gain > 0 and (z == 0 or gain > z * default.diff_stderr):
            return best.action
        return default.action


__all__ = ["ExpertBot"]
