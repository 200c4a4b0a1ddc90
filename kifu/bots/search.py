"""What the searching bots share: parameters in the bot name, and rollouts.

A searching bot's name may carry parameters after colons, ``pimc:worlds=16`` or
``ismcts:iters=200:c=0.5``; each bot class declares its parameters (:class:`Param`) and
their defaults come from the game's profile (:mod:`kifu.bots.profiles`), so a bare name
plays at the tuned default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from kifu.bots.profiles import Profile, profile, utilities
from kifu.core.errors import VariantError
from kifu.core.game import DEALER, Bot, Game, State
from kifu.core.rng import MASK64, Rng


@dataclass(frozen=True)
class Param:
    """One parameter of a searching bot: its type (``int``, ``float``, or ``str`` with
    ``choices``), its default (a game's profile may set another), bounds, meaning."""

    kind: type
    default: Any
    low: float
    high: float
    help: str
    choices: tuple[str, ...] = ()
    quiet: bool = False
    """Left out of the listings (``kifu games``: an experimental option, off by default,
    documented in docs/bots.md); it is parsed like any other."""

    def span(self) -> str:
        """The values allowed, for listings: ``1..10000`` or ``fast|normal|deep``."""
        if self.choices:
            return "|".join(self.choices)
        return f"{self.kind(self.low)}..{self.kind(self.high)}"

    def parse(self, bot: str, name: str, text: str) -> Any:
        if self.choices:
            if text not in self.choices:
                raise VariantError(f"bot {bot}: {name} must be one of "
                                   f"{', '.join(self.choices)}, not {text!r}")
            return text
        try:
            value = self.kind(text)
        except ValueError:
            what = "an integer" if self.kind is int else "a number"
            raise VariantError(f"bot {bot}: {name}={text!r} is not {what}") from None
        if not self.low <= value <= self.high:
            raise VariantError(f"bot {bot}: {name} must be in {self.low:g}..{self.high:g}, "
                               f"not {text}")
        return value


class SearchBot(Bot):
    """A bot whose behaviour is set by parameters (``PARAMS``), with per-game defaults."""

    PARAMS: ClassVar[dict[str, Param]] = {}
    game: Game

    def __init__(self, seat: int, rng: Rng, game: Game | None = None, **params: Any):
        super().__init__(seat, rng)
        if game is None:
            raise VariantError(f"bot {self.name} needs its game")
        self.game = game
        self.profile: Profile = profile(game.id)
        defaults = getattr(self.profile, self.name, {}) or {}
        self.params = {**{k: p.kind(defaults.get(k, p.default))
                          for k, p in self.PARAMS.items()}, **params}

    @classmethod
    def parse_params(cls, text: str) -> dict[str, Any]:
        """``worlds=16:actions=4`` -> ``{"worlds": 16, "actions": 4}`` (checked)."""
        out: dict[str, Any] = {}
        if not text:
            return out
        for item in text.split(":"):
            key, eq, value = item.partition("=")
            param = cls.PARAMS.get(key)
            if not eq or param is None:
                known = ", ".join(f"{k}=N" for k in cls.PARAMS)
                raise VariantError(f"bot {cls.name}: bad parameter {item!r} (known: {known})")
            if key in out:
                raise VariantError(f"bot {cls.name}: {key} given twice")
            out[key] = param.parse(cls.name, key, value)
        return out

    @classmethod
    def describe(cls, game: Game) -> str:
        """``pimc:worlds=8:actions=...`` with this game's defaults, for listings: every
        parameter that is not quiet, then each quiet one this game's profile sets to
        other than its default (TWEAK's ``expert``: ``posterior=1``, ...,
        ``rollout=tactics:others=greedy``)."""
        defaults = getattr(profile(game.id), cls.name, {}) or {}
        parts = [f"{k}={p.kind(defaults.get(k, p.default))}" for k, p in cls.PARAMS.items()
                 if not p.quiet]
        parts += [f"{k}={p.kind(defaults[k])}" for k, p in cls.PARAMS.items()
                  if p.quiet and k in defaults and p.kind(defaults[k]) != p.kind(p.default)]
        return ":".join([cls.name, *parts])


class Rollout:
    """Plays a position on with the profile's cheap policy, from a given 64-bit seed (the
    same seed for each action of one world: common random numbers, less noise), and
    scores it with :func:`kifu.bots.profiles.utilities`."""

    def __init__(self, game: Game, prof: Profile, n: int):
        self.game = game
        self.profile = prof
        self.rng = Rng(0)
        cls = game.bots.get(prof.rollout) or game.bots["random"]
        self.policy = [cls(s, self.rng) for s in range(n)]
        # the default choice of a search: the game's greedy bot, even where rollouts play
        # random (a random default would be a random move whenever the search is unsure)
        prior = game.bots.get("greedy") or cls
        self.prior = [prior(s, self.rng) for s in range(n)] if prior is not cls else self.policy

    def run(self, state: State, seed: int, horizon: int | None = None) -> list[float]:
        """Play ``state`` (mutated) until the end or ``horizon`` player decisions."""
        self.rng.state = seed & MASK64
        horizon = self.profile.horizon if horizon is None else horizon
        chance = self.game.chance_action
        policy = self.policy
        rng = self.rng
        decisions = 0
        while True:
            mover = state.to_move
            if mover is None:
                break
            if mover == DEALER:
                state.push(chance(state, rng))
                continue
            if horizon is not None and decisions >= horizon:
                break
            state.push(policy[mover].choose(state))
            decisions += 1
        return utilities(state, self.profile)


def searchable(state: State, prof: Profile, limit: int) -> list:
    """The actions worth searching in ``state`` (the profile's candidates, or every legal
    action), in legal order."""
    legal = state.legal_actions()
    if prof.candidates is None or len(legal) <= 1:
        return legal
    return prof.candidates(state, legal, limit)


def knows_all(state: State, seat: int) -> bool:
    """Whether ``seat`` sees the whole position (its view is the position line)."""
    return state.view(seat) == state.to_line()


DEFAULT_WORLDS = 8
"""Worlds in which a default choice is asked of a bot that peeks (``Bot.peeks``)."""


def fair_choice(game: Game, cls: type[Bot], state: State, seat: int) -> Any:
    """``cls``'s choice for ``seat`` (to move in ``state``), from a fixed stream. A bot that
    may read what the seat cannot see (``Bot.peeks``: TWEAK's ``greedy`` turns up the
    deck's top card when it weighs a Shifter) is asked in ``DEFAULT_WORLDS`` worlds drawn
    from the seat's information instead, and its most frequent legal choice is returned
    (ties: legal order), so the choice owes nothing to a hidden card."""
    if not cls.peeks or knows_all(state, seat):
        return cls(seat, Rng(0)).choose(state)
    legal = state.legal_actions()
    count = dict.fromkeys(legal, 0)
    draw = game.world_sampler(state, seat)
    rng = Rng("default")
    for _ in range(DEFAULT_WORLDS):
        pick = cls(seat, Rng(0)).choose(draw(rng))
        if pick in count:
            count[pick] += 1
    return max(legal, key=lambda a: count[a])  # the first of the most frequent


def policy_first(actions: list, rollout: Rollout, state: State) -> list:
    """``actions`` with the default choice first (the game's ``greedy`` bot, else the
    rollout policy), so that a tie, or a difference the search cannot tell from noise,
    goes to it (then to legal order)."""
    if len(actions) <= 1:
        return actions
    mover = state.to_move
    assert mover is not None and mover >= 0
    prior = rollout.prior[mover]
    if prior.peeks:  # asked in the seat's worlds (the searchers using this see no more)
        pick = fair_choice(rollout.game, type(prior), state, mover)
    else:
        seed = rollout.rng.state
        pick = prior.choose(state)
        rollout.rng.state = seed
    if pick in actions:
        return [pick] + [a for a in actions if a != pick]
    return actions


def best_index(values: Sequence[float]) -> int:
    """The index of the largest value; the first one on a tie (deterministic)."""
    best = 0
    for i, v in enumerate(values):
        if v > values[best]:
            best = i
    return best


__all__ = ["DEFAULT_WORLDS", "Param", "Rollout", "SearchBot", "best_index", "fair_choice",
           "knows_all", "policy_first", "searchable"]
