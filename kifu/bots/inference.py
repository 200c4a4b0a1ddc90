"""Soft inference: sampled worlds weighed by how likely the other seats' recent actions
were in them (the Skat programs' way, ``docs/bots.md``, *The evaluator*), one
game-independent module over the Game contract.

A sampler (``game.world_sampler``) draws the present uniformly among the positions that
agree with the *hard* facts a seat knows. What the other seats chose says more: a seat
that passed probably had nothing to play, a seat that led a 5 probably holds more 5s. This
module draws more candidate worlds than a decision needs, weighs each by the likelihood of
the last ``window`` actions of the other seats under a cheap model of their policy, each
action judged in the candidate world *as it was* when it was taken, and resamples the
worlds the decision needs by those weights (systematic resampling, then a shuffle: the
same for the same seed).

**The policy model** is epsilon-greedy on the game's ``greedy`` choice: an action has
probability ``(1 - eps) [action == greedy's choice] + eps / (legal actions)``, and 0 when
it is not legal in that past position (a world in which an observed action was impossible
is never returned, whatever ``eps``). Against ``greedy`` opponents the model is nearly
exact (they *are* that policy), so a gain measured there overstates the gain against
other players (``docs/bots.md`` measures both).

**The game's hook** (``Profile.rewind(game, state, seat, window)``, see
:mod:`kifu.bots.profiles`) gives, for one world, the past positions: a list of *steps*,
one per observed action of another seat in the window (newest first), each a list of
``(position, action, prior)`` alternatives: the positions that world may have been in
when the action was taken, with prior weights (several when the world does not tell,
e.g. which of a hand's cards was the one drawn after a pass). A step's likelihood is the
prior-weighted mean of the model's probability over its alternatives; a world's weight is
the product over the steps. The past positions must hold only what the world says of the
hidden cards; the model reads the mover's view of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kifu.core.game import Action, Game, State
from kifu.core.rng import Rng

Step = Sequence[tuple[State, Action, float]]
"""One observed action: the alternatives ``(past position, action, prior weight)``."""
Rewind = Callable[[State, Rng], "list[Step]"]
"""For one world (and a stream for the game's own choices), its steps, newest first."""

FACTOR = 2
"""Candidate worlds drawn per world a decision needs (the rest of the weight's work is
the resampling)."""


def action_probability(policy: Any, past: State, action: Action, eps: float) -> float:
    """The model's probability that the player to move in ``past`` chose ``action``:
    epsilon-greedy on ``policy`` (a bot of that seat); 0 if ``action`` is not legal there."""
    legal = past.legal_actions()
    if action not in legal:
        return 0.0
    if len(legal) == 1:
        return 1.0
    return eps / len(legal) + (1.0 - eps) * (policy.choose(past) == action)


def likelihood(game: Game, steps: Sequence[Step], eps: float,
               policies: dict[int, Any] | None = None) -> float:
    """The product over ``steps`` of each step's prior-weighted mean probability under the
    epsilon-greedy model of the game's ``greedy`` bot (module docstring)."""
    cls = game.bots.get("greedy") or game.bots["random"]
    policies = {} if policies is None else policies
    out = 1.0
    for step in steps:
        num = den = 0.0
        for past, action, prior in step:
            mover = past.to_move
            pol = policies.get(mover)  # type: ignore[arg-type]
            if pol is None:
                pol = policies[mover] = cls(mover, Rng(0))  # type: ignore[arg-type]
            num += prior * action_probability(pol, past, action, eps)
            den += prior
        out *= num / den if den else 0.0
        if out == 0.0:
            break
    return out


def resample(weights: Sequence[float], k: int, rng: Rng) -> list[int]:
    """``k`` indices drawn by systematic resampling with ``weights`` (each index about
    ``k * w / sum(w)`` times), in a shuffled order; uniform when every weight is 0.

    >>> resample([0.0, 1.0, 0.0, 1.0], 4, Rng(1)).count(1)
    2
    """
    m = len(weights)
    total = float(sum(weights))
    if total <= 0.0:
        weights, total = [1.0] * m, float(m)
    step = total / k
    u = (rng.next64() / 2.0**64) * step
    out: list[int] = []
    acc = 0.0
    i = 0
    for j in range(k):
        target = u + j * step
        while i < m - 1 and acc + weights[i] <= target:
            acc += weights[i]
            i += 1
        out.append(i)
    return rng.shuffled(out)


def inferred_draw(game: Game, state: State, seat: int, rewind_hook: Any, need: int,
                  rng: Rng, *, eps: float, window: int, factor: int = FACTOR,
                  propose: Any = None, ess: float = 0.0, weigh: bool = False
                  ) -> tuple[Callable[[Rng], State], dict] | None:
    """A draw function (as ``game.world_sampler`` gives) that returns, in turn, ``need``
    worlds resampled by weight from ``factor * need`` candidates, and a note of what was
    done (``candidates``, ``ess``: the effective sample size of the weights, ``zero``: the
    candidates of weight 0); ``None`` when the game has no hook or the hook has nothing to
    weigh (no history, no action of another seat in the window). Past ``need`` worlds the
    sampler's own draws follow."""
    if rewind_hook is None or window <= 0:
        return None
    rewind: Rewind | None = rewind_hook(game, state, seat, window)
    if rewind is None:
        return None
    sampler = game.world_sampler(state, seat) if propose is None else \
        propose(game, state, seat)
    cands = [sampler(rng) for _ in range(factor * need)]
    policies: dict[int, Any] = {}
    weights = [likelihood(game, rewind(w, rng), eps, policies) for w in cands]
    power = 1.0
    if ess > 0 and _ess(weights) < ess * need:
        lo, hi = 0.0, 1.0
        for _ in range(12):  # bisection on the power (weight 0 stays 0)
            mid = (lo + hi) / 2
            if _ess(_temper(weights, mid)) >= ess * need:
                lo = mid
            else:
                hi = mid
        power = lo
        weights = _temper(weights, power)
    note: dict[str, Any] = {"candidates": len(cands), "ess": _ess(weights), "power": power,
                            "zero": sum(1 for w in weights if w == 0)}
    if weigh:
        order = cands
        note["weights"] = weights
    else:
        order = [cands[i] for i in resample(weights, need, rng)]
    it = iter(order)

    def draw(r: Rng) -> State:
        w = next(it, None)
        return w if w is not None else sampler(r)

    return draw, note


def _ess(weights: Sequence[float]) -> float:
    """The effective sample size of ``weights``: (sum w)^2 / sum w^2 (0 if all are 0)."""
    total = sum(weights)
    return total * total / sum(w * w for w in weights) if total > 0 else 0.0


def _temper(weights: Sequence[float], power: float) -> list[float]:
    """``weights`` raised to ``power``, scaled by the largest first (no underflow); a
    weight 0 stays 0."""
    top = max(weights)
    if top <= 0:
        return list(weights)
    return [(w / top) ** power if w > 0 else 0.0 for w in weights]


__all__ = ["FACTOR", "Rewind", "Step", "action_probability", "inferred_draw", "likelihood",
           "resample"]
