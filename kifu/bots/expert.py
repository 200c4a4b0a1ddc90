"""``expert``: the strong bot, built on the evaluator (:mod:`kifu.bots.evaluate`).

At each decision with more than one candidate it values every candidate action from its
seat's information with the evaluator's engine (:func:`kifu.bots.evaluate.sample_rows`:
the same worlds, exact solvers and rollouts as :func:`~kifu.bots.evaluate.evaluate`), at
its ``level`` (``fast``, ``normal``, ``deep``), seeded from its own stream. What it
maximises is the pairwise share mixed with the soft share of the score margins (weight
``margin``; the game's profile sets the default): the margin separates actions that lead
to the same ranks in most worlds. The game's default choice (its ``greedy`` bot's) is
played unless the best action beats it by ``z`` standard errors of their paired difference
(a few noisy worlds otherwise pick a worse action about as often as a better one;
``docs/bots.md``, ``pimc``). It searches in two stages (as
sequential halving does): the level's ``worlds`` for every candidate, then ``refine`` more
worlds for the best third of them and the default, the choice made over both stages.

``expert:cheat=1`` is the *cheater*: the same bot valuing the true position instead of
sampled worlds (all-seeing), the upper bound a fair bot is measured against. It reads
cards its seat cannot see; use it only as that yardstick. ``expert:cheat=hands`` is a
diagnostic rung between the two: it sees every hand but not the deck's order (drawn again
in each world by the profile's ``reshuffle``), which tells how much of the cheater's edge
is the hands and how much the cards to come; it is all-seeing too.

``expert:infer=EPS`` (off by default; TOWAI and TWEAK, where the profile has a ``rewind``
hook) plays on worlds weighed by soft inference (:mod:`kifu.bots.inference`): how likely
the other seats' last ``window`` actions were in each under an epsilon-greedy model of
their play. It gained nothing with an interval in either game (``docs/bots.md``, *Ladders
of expert*, third and fourth sessions), so it stays off.

``expert:posterior=1`` (quiet; TOWAI and TWEAK, whose profiles have a ``hidden`` hook) plays
on worlds of the exact posterior under an assumed ``greedy`` for the other seats
(:mod:`kifu.bots.posterior`: Markov chains over the round's hidden history); with no
consistent history (other players than ``greedy``) it keeps the sampler. Off by default,
except in TWEAK, whose profile turns it on with a warm start and the full climb since
the ninth session (:data:`kifu.bots.profiles.TWEAK_POSTERIOR`; ``expert:posterior=0`` is
the bot before it). In TOWAI it stays a diagnostic of what inference could reach at most
(``docs/bots.md``, *Seventh session*).

``expert:rollout=NAME`` plays the rollouts with another policy than the profile's (a bot
of the game, or one of the profile's ``policies``); a profile's ``expert`` defaults may
set it and, under ``levels``, the ``expert``'s own levels; ``expert:others=NAME`` rolls
out the other seats with another policy. TWEAK's ``expert`` rolls out its own seat with
``tactics`` (``greedy`` that also uses its Thief and Bomb) and the others with ``greedy``,
at 96 + 192 worlds (``docs/bots.md``, *Ladders of expert*, fourth and fifth sessions).

``expert:default=POLICY`` (quiet; ``game`` by default) takes the choice the z-test keeps
from a rollout policy's most frequent choice over 16 of the seat's sampled worlds instead
of the game's ``greedy`` bot in the real position (TWEAK's ``greedy`` looks at the deck's
top card when it weighs a Shifter; the worlds' form owes nothing to a hidden card). Since
the fifth session ``game`` is fair too: a default bot that peeks (``Bot.peeks``) is asked
in 8 sampled worlds (``kifu.bots.search.fair_choice``); the cheater asks the true position.

``expert:worlds=K`` sets the first stage's worlds where K differs from the level's (after
those defaults), the second stage's worlds and the solver's nodes scaled alike.

Quiet parameters of the decision itself (``docs/bots.md``, *Ladders of expert*, fifth
session; none gained with an interval in TOWAI, so all are off): ``refine`` and ``keep``
set the second stage's worlds and how many of the best candidates it values beside the
default; ``sure=1`` plays the profile's sure win (``Profile.sure``: TOWAI's go-out line
through no Swap, the same in every world the seat allows) before any search.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from kifu.bots.evaluate import LEVELS, Level, candidates, level_of, policy_class, sample_rows
from kifu.bots.inference import inferred_draw
from kifu.bots.posterior import posterior_draw
from kifu.bots.search import Param, SearchBot
from kifu.core.errors import VariantError
from kifu.core.game import Action, Game, State
from kifu.core.rng import Rng


class ExpertBot(SearchBot):
    """The evaluator's best action, the default choice unless clearly beaten (module
    docstring)."""

    name = "expert"
    PARAMS: ClassVar[dict[str, Param]] = {
        "level": Param(str, "normal", 0, 0, "the evaluator's budget", choices=tuple(LEVELS)),
        "z": Param(float, 1.0, 0.0, 10.0,
                   "standard errors of the paired difference by which the best action must "
                   "beat the default (the game's greedy choice) to be played instead"),
        "margin": Param(float, 0.25, 0.0, 1.0,
                        "weight of the soft score margin beside the pairwise share in what "
                        "the bot maximises (0: the share alone)"),
        "cheat": Param(str, "0", 0, 0,
                       "1: value the true position (all-seeing; a yardstick); hands: every "
                       "hand seen but the deck's order drawn again in each world (all-seeing "
                       "but the deck; a diagnostic rung)", choices=("0", "1", "hands")),
        "infer": Param(float, 0.0, 0.0, 1.0,
                       "soft inference: worlds weighed by how likely the other seats' recent "
                       "actions were under an epsilon-greedy model with this epsilon (0: off; "
                       "only where the game's profile has a rewind hook)", quiet=True),
        "window": Param(int, 8, 1, 64,
                        "soft inference: the other seats' last actions weighed", quiet=True),
        "ess": Param(float, 0.0, 0.0, 1.0,
                     "soft inference: temper the weights so that their effective sample "
                     "size is at least this share of the worlds used (0: untempered)", quiet=True),
        "weigh": Param(int, 0, 0, 1,
                       "soft inference: 1 weighs the worlds drawn (a weighted mean over "
                       "distinct worlds, the paired test at their effective number) instead "
                       "of resampling them", quiet=True),
        "factor": Param(int, 2, 1, 16,
                        "soft inference: candidate worlds drawn per world used", quiet=True),
        "worlds": Param(int, 0, 0, 1000,
                        "the first stage's worlds instead of the level's (after the game's "
                        "own expert levels; 0: the level's); the second stage's worlds and "
                        "the solver's nodes scale alike (the nodes per world stay the "
                        "level's)", quiet=True),
        "assume": Param(int, 0, 0, 1,
                        "soft inference: 1 draws the candidates from the game's proposal "
                        "(the profile's propose: TOWAI reads every pass as a void) instead "
                        "of the seat's sampler", quiet=True),
        "posterior": Param(int, 0, 0, 1,
                           "1: worlds from the exact posterior assuming greedy opponents "
                           "(slow; only where the game's profile has a hidden hook)",
                           quiet=True),
        "thin": Param(int, 5, 1, 1000,
                      "posterior: proposals of the chain per world kept", quiet=True),
        "chains": Param(int, 4, 1, 64, "posterior: Markov chains, each from its own start",
                        quiet=True),
        "burn": Param(int, 200, 0, 100_000, "posterior: proposals before a chain's first "
                      "world", quiet=True),
        "climb": Param(int, 20_000, 1, 1_000_000,
                       "posterior: replays tried to find a chain's start", quiet=True),
        "giveup": Param(int, 0, 0, 1, "posterior: 1 keeps the sampler's worlds as soon as "
                        "the first chain finds no start, for the rest of the round",
                        quiet=True),
        "warm": Param(int, 0, 0, 2, "posterior: 1 starts the chains of a decision from "
                      "the last decision's chains of the same round, carried over the "
                      "actions since (where the game's hook can carry them; else a climb); "
                      "2 also keeps them over a decision whose chains found no start "
                      "(giveup=1 then gives up at the second failure in a row)",
                      quiet=True),
        "copies": Param(int, 0, 0, 1, "posterior: 1 weighs the fillings by the chance "
                        "events the seat saw, where the game's hook can (TWEAK: a Thief's "
                        "draw is as likely as the copies the victim held)", quiet=True),
        "share": Param(int, 0, 0, 1, "posterior: 1 lets the chains that found a start "
                       "give every world between them (0: a chain without a start leaves "
                       "its part of the worlds to the sampler)", quiet=True),
        "rollout": Param(str, "profile", 0, 0,
                         "the rollout policy: the profile's, the game's greedy or random "
                         "bot, or tactics (TWEAK: greedy that uses its Thief and Bomb; "
                         "TOWAI: greedy that sheds its Twai in combos), finish (TOWAI: "
                         "tactics that looks for a way out on a small hand), shed (TOWAI: "
                         "tactics that leads and follows with the card that sheds the most "
                         "this turn) or flex (TOWAI: shed that keeps its flexible cards), "
                         "blind (TWEAK: tactics that values a Shifter, Thief or Bomb over "
                         "the cards its seat cannot see, not the world's)",
                         choices=("profile", "greedy", "random", "tactics", "finish",
                                  "shed", "flex", "blind"),
                         quiet=True),
        "others": Param(str, "same", 0, 0,
                        "the other seats' rollout policy, where it differs from the "
                        "seat's own (same: the rollout policy for every seat)",
                        choices=("same", "greedy", "random", "tactics", "finish", "shed",
                                 "flex"),
                        quiet=True),
        "refine": Param(int, -1, -1, 4000,
                        "the second stage's worlds instead of the level's (after worlds=; "
                        "-1: the level's, 0: no second stage)", quiet=True),
        "sure": Param(int, 0, 0, 1,
                      "1: play the game's sure win first where its profile has one (TOWAI: "
                      "a line out this turn whatever the hidden cards; no search then)",
                      quiet=True),
        "keep": Param(int, 0, 0, 64,
                      "the candidates the second stage values beside the default (0: the "
                      "best third, at least two)", quiet=True),
        "default": Param(str, "game", 0, 0,
                         "the choice the z-test keeps unless clearly beaten: game (the "
                         "game's default: its greedy bot's choice, asked in 8 sampled worlds "
                         "where that bot peeks), or a rollout policy's (greedy, tactics, "
                         "shed, flex, rollout: the seat's own) most frequent choice over 16 "
                         "of the seat's sampled worlds (the cheater: in the true position)",
                         choices=("game", "greedy", "tactics", "shed", "flex", "rollout"),
                         quiet=True),
    }

    def __init__(self, seat: int, rng: Rng, game: Game | None = None, **params: Any):
        super().__init__(seat, rng, game, **params)
        for key, skip in (("rollout", "profile"), ("others", "same"), ("default", "game")):
            if key == "default" and self.params[key] == "rollout":
                continue
            name = self.params[key]
            if name != skip:
                try:
                    policy_class(self.game, self.profile, name)
                except ValueError as e:
                    raise VariantError(f"bot expert: {key}={name}: {e}") from None
        self._no_history: set = set()  # (posterior, giveup=1) rounds without a start
        self._warm: dict = {}  # (posterior, warm=1) the round's last chain fillings

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game, seat = self.game, self.seat
        if self.params["sure"] and self.profile.sure is not None:
            won = self.profile.sure(state)
            if won is not None:
                return won
        lvl = level_of(game, self.params["level"])
        over = (self.profile.expert.get("levels") or {}).get(lvl.name)
        if over:
            lvl = msgspec.structs.replace(lvl, **over)
        if self.params["worlds"] and self.params["worlds"] != lvl.worlds:
            lvl = _scaled(lvl, self.params["worlds"])
        if self.params["refine"] >= 0:
            lvl = msgspec.structs.replace(lvl, refine=self.params["refine"])
        # the default first (the cheater's from the true position, as all it values)
        acts = candidates(game, state, self.profile, lvl.actions,
                          fair=self.params["cheat"] != "1")
        if len(acts) == 1:
            return acts[0]
        rng = Rng(self.rng.next64())
        cheat, margin = self.params["cheat"] != "0", self.params["margin"]
        name = self.params["default"]
        if name != "game":
            name = self.params["rollout"] if name == "rollout" else name
            acts = _rollout_default(game, state, seat, acts, name, self.profile, cheat,
                                    Rng(f"default:{rng.state}"))
        hands = self.params["cheat"] == "hands"
        worlds = None
        weights: list[float] | None = None
        eps = self.params["infer"]
        if eps > 0 and not cheat:
            weigh = bool(self.params["weigh"])
            got = inferred_draw(game, state, seat, self.profile.rewind,
                                lvl.worlds + lvl.refine, rng, eps=eps,
                                window=self.params["window"],
                                factor=1 if weigh else self.params["factor"],
                                ess=self.params["ess"], weigh=weigh,
                                propose=self.profile.propose if self.params["assume"]
                                else None)
            if got is not None:
                worlds = got[0]
                weights = got[1].get("weights")
        if self.params["posterior"] and not cheat:
            got = posterior_draw(game, state, seat, self.profile.hidden,
                                 lvl.worlds + lvl.refine, Rng(f"posterior:{rng.state}"),
                                 thin=self.params["thin"], chains=self.params["chains"],
                                 burn=self.params["burn"], climb=self.params["climb"],
                                 give_up=bool(self.params["giveup"]),
                                 memo=self._no_history,
                                 warm=self._warm if self.params["warm"] else None,
                                 persist=self.params["warm"] == 2,
                                 weigh=bool(self.params["copies"]),
                                 share=bool(self.params["share"]))
            if got is not None:
                worlds = got[0]
        policy = None if self.params["rollout"] == "profile" else self.params["rollout"]
        others = None if self.params["others"] == "same" else self.params["others"]
        rows, exact = sample_rows(game, state, seat, acts, lvl, rng, cheat, margin,
                                  hands=hands, worlds=worlds, policy=policy, others=others)
        if weights is not None and not any(weights[:len(rows)]):
            weights = None  # (every weight 0: the worlds count alike)
        means = _means(rows, weights)
        alive = list(range(len(acts)))
        if lvl.refine and not exact:
            # the second stage: more worlds for the best third and the default (index 0)
            keep = self.params["keep"] or max(2, -(-len(acts) // 3))
            ranked = sorted(alive, key=lambda i: -means[i])[:keep]
            alive = sorted(set(ranked) | {0})
            more, _ = sample_rows(game, state, seat, [acts[i] for i in alive],
                                  msgspec.structs.replace(lvl, worlds=lvl.refine), rng, cheat,
                                  margin, hands=hands, worlds=worlds, policy=policy,
                                  others=others)
            rows = [[r[i] for i in alive] for r in rows] + more
            means = _means(rows, weights)
        best = 0
        for i, m in enumerate(means):
            if m > means[best]:
                best = i
        if best == 0:
            return acts[0]
        pick = acts[alive[best]]
        z = self.params["z"]
        k = len(rows)
        gain = means[best] - means[0]
        if z == 0 or k < 2:
            return pick
        diffs = [r[best] - r[0] for r in rows]
        if weights is not None:  # weighted: the variance at the effective number of worlds
            w = weights[:k]
            tw = sum(w)
            keff = tw * tw / sum(x * x for x in w)
            if keff < 2:
                return acts[0]
            var = sum(x * (d - gain) ** 2 for x, d in zip(w, diffs, strict=True)) / tw
            return pick if gain > z * (var / (keff - 1)) ** 0.5 else acts[0]
        var = sum((d - gain) ** 2 for d in diffs) / (k - 1)
        return pick if gain > z * (var / k) ** 0.5 else acts[0]


POLICY_DEFAULT_WORLDS = 16
"""Worlds over which ``expert:default=POLICY`` takes the policy's most frequent choice."""


def _rollout_default(game: Game, state: State, seat: int, acts: list[Action], name: str,
                     prof: Any, cheat: bool, rng: Rng) -> list[Action]:
    """``acts`` reordered: the policy ``name``'s most frequent choice over
    ``POLICY_DEFAULT_WORLDS`` of the seat's sampled worlds first (the true position for the
    cheater), the rest in legal order; ties in legal order. A fair seat's policy is
    never asked of the real position: a policy may read the world it plays in (TWEAK's
    ``tactics`` a Thief's victim's hand; even ``greedy`` looks at the deck's top card
    when it weighs a Shifter), so the order owes nothing to a card the seat cannot see.
    A choice outside ``acts`` is not counted; with none counted ``acts`` is kept."""
    cls = policy_class(game, prof, name)
    if cheat:
        worlds = [state.copy()]
    else:
        draw = game.world_sampler(state, seat)
        worlds = [draw(rng) for _ in range(POLICY_DEFAULT_WORLDS)]
    count = dict.fromkeys(acts, 0)
    for w in worlds:
        a = cls(seat, Rng(rng.next64())).choose(w)
        if a in count:
            count[a] += 1
    if not any(count.values()):
        return acts
    order = {a: i for i, a in enumerate(state.legal_actions())}
    rest = sorted(acts, key=lambda a: order.get(a, len(order)))
    best = max(rest, key=lambda a: count[a])  # the first of the most frequent
    return [best] + [a for a in rest if a != best]


def _scaled(lvl: Level, worlds: int) -> Level:
    """``lvl`` with ``worlds`` first-stage worlds, its second stage and solver nodes scaled
    by the same factor (at least one world and no fewer nodes per world)."""
    f = worlds / lvl.worlds
    return msgspec.structs.replace(lvl, worlds=worlds, refine=round(lvl.refine * f),
                                   exact_nodes=round(lvl.exact_nodes * f))


def _means(rows: list[list[float]], weights: list[float] | None = None) -> list[float]:
    """Each column's mean over the rows (weighted by ``weights``, one per row, if given)."""
    k = len(rows)
    if weights is None:
        return [sum(r[i] for r in rows) / k for i in range(len(rows[0]))]
    w = weights[:k]
    tw = sum(w)
    return [sum(x * r[i] for x, r in zip(w, rows, strict=True)) / tw
            for i in range(len(rows[0]))]


__all__ = ["ExpertBot"]
