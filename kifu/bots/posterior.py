"""The exact posterior of a seat's worlds under an assumed model of the other seats (issue
33, seventh session): slow, a diagnostic ceiling for inference, one game-independent
module over the Game contract.

Soft inference (:mod:`kifu.bots.inference`) re-weighs a few hundred worlds of the seat's
sampler by the other seats' last actions, judged in past positions rebuilt with a guess at
each card drawn. This module conditions instead on the *whole* hidden history of the
round: worlds are complete fillings of what the seat did not see (the other hands as
dealt, every card drawn unseen, every shuffle), kept only when, replayed from the deal,
every action of the other seats is the one an assumed deterministic policy takes there
and the seat sees what it saw. Under that model the posterior is uniform over the
consistent fillings (the deal and the shuffles are uniform), and a Markov chain samples
it: propose swapping the cards of two slots of one group (symmetric), replay, accept when
consistent (Metropolis with a 0/1 likelihood). Several chains, a burn-in, thinning.

A chain needs a consistent filling to start from: :func:`consistent_start` climbs from a
prior draw by swaps that never shorten the prefix of the round that agrees (half of them
moving a card of the seat whose action failed, as the hook names it), with restarts.

It is exact *for that model*: against ``greedy`` opponents (deterministic), "assumes
greedy opponents"; a seat playing otherwise may leave no consistent filling at all (then
no world comes back and the caller keeps the sampler). Fair: it reads only what the seat
saw and the assumed policy.

**The game's hook** (``Profile.hidden(game, state, seat)``) returns ``None`` or an object
with: ``groups`` (lists of slot indices whose cards may be exchanged), ``used`` (per slot:
does the replay read it), ``steps`` (the round's actions to agree with), ``start(rng)``
(a filling drawn from the prior), ``replay(cards)`` -> ``(steps that agree, state)``,
``suspects(k, state)`` (slots that may explain a failure at step ``k``),
``world(cards, rng)`` (the present world of a consistent filling) and, optionally,
``same(a, b)`` (slots whose exchange the replay cannot tell, e.g. two cards of one dealt
hand: accepted without a replay; they keep the chain over slot orders uniform) and
``carry(prev, cards)`` (a filling of the same seat's hidden history ``prev`` at an earlier
decision of the round, mapped into this one's slots, or ``None``: the warm start of
:func:`posterior_draw`; TWEAK has it).
(TOWAI: :mod:`kifu.games.towai.posterior`.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kifu.core.game import Game, State
from kifu.core.rng import Rng

CLIMB = 20_000
"""Replays tried by :func:`consistent_start` before giving up."""


WARM = 64
"""Fillings kept for the warm start of the seat's next decision (:func:`posterior_draw`)."""


def _propose(h: Any, rng: Rng, pick: Sequence[int], group_of: Sequence[int],
             free: set[int] | None) -> tuple[int, int] | None:
    """Two slots of one group: the first from ``pick``, the second uniform in its group
    (within ``free`` when given); ``None`` when the group has one slot."""
    a = pick[rng.below(len(pick))]
    group = h.groups[group_of[a]]
    if free is not None:
        group = [i for i in group if i in free]
    if len(group) < 2:
        return None
    b = group[rng.below(len(group) - 1)]
    if b == a:
        b = group[-1]
    return a, b


def consistent_start(h: Any, rng: Rng, budget: int = CLIMB,
                     init: list[int] | None = None) -> list[int] | None:
    """A consistent filling found by climbing (module docstring), or ``None`` within
    ``budget`` replays. Not a draw from the posterior: a chain's starting point.
    ``init``: the first climb starts there (e.g. a filling carried from the seat's last
    decision), its restarts from the prior."""
    group_of = _group_of(h)
    used = [i for i, u in enumerate(h.used) if u]
    tries = 0
    while tries < budget:
        cards = list(init) if init is not None else h.start(rng)
        init = None
        k, s = h.replay(cards)
        stuck = 0
        while k < h.steps and tries < budget and stuck < 2000:
            tries += 1
            sus = h.suspects(k, s) if rng.below(2) else used
            pair = _propose(h, rng, sus or used, group_of, None)
            if pair is None:
                continue
            a, b = pair
            if cards[a] == cards[b]:
                continue
            cards[a], cards[b] = cards[b], cards[a]
            k2, s2 = h.replay(cards)
            if k2 >= k:
                stuck = 0 if k2 > k else stuck + 1
                k, s = k2, s2
            else:
                cards[a], cards[b] = cards[b], cards[a]
                stuck += 1
        if k == h.steps:
            return cards
    return None


def _group_of(h: Any) -> list[int]:
    out = [0] * len(h.slots)
    for g, idx in enumerate(h.groups):
        for i in idx:
            out[i] = g
    return out


def chain(h: Any, cards: list[int], rng: Rng, samples: int, thin: int, burn: int = 0,
          free: Sequence[int] | None = None, stats: dict | None = None,
          weigh: bool = False) -> list[list[int]]:
    """``samples`` fillings from a Markov chain started at the consistent ``cards``:
    ``burn`` proposals first, then one filling every ``thin`` proposals. A proposal swaps
    the cards of a used slot and another slot of its group (within ``free`` when given:
    a chain over those slots only, the rest held), accepted when the replay agrees with
    every step. The proposal is symmetric and the target uniform over consistent
    fillings, so this is Metropolis-Hastings for the posterior.

    ``weigh`` (where the hook has ``replay_weighted(cards) -> (steps, state, weight)``,
    an integer likelihood of the chance events the seat saw, e.g. TWEAK's Thief draws):
    a consistent proposal of weight ``w`` from a filling of weight ``w0`` is accepted
    with odds ``min(1, w / w0)``, so the target is proportional to the weights."""
    group_of = _group_of(h)
    keep = set(free) if free is not None else None
    pick = [i for i, u in enumerate(h.used) if u and (keep is None or i in keep)]
    cards = list(cards)
    out: list[list[int]] = []
    moved = tried = 0
    same = getattr(h, "same", lambda a, b: False)
    weighted = getattr(h, "replay_weighted", None) if weigh else None
    w0 = weighted(cards)[2] if weighted is not None else 1
    for t in range(burn + samples * thin):
        pair = _propose(h, rng, pick, group_of, keep)
        if pair is not None:
            a, b = pair
            if cards[a] != cards[b]:
                tried += 1
                cards[a], cards[b] = cards[b], cards[a]
                if same(a, b):
                    ok = True
                elif weighted is not None:
                    k, _s, w = weighted(cards)
                    ok = k == h.steps and (w >= w0 or rng.below(w0) < w)
                    if ok:
                        w0 = w
                else:
                    ok = h.replay(cards)[0] == h.steps
                if ok:
                    moved += 1
                else:
                    cards[a], cards[b] = cards[b], cards[a]
        if t >= burn and (t - burn + 1) % thin == 0:
            out.append(list(cards))
    if stats is not None:
        stats["tried"] = stats.get("tried", 0) + tried
        stats["moved"] = stats.get("moved", 0) + moved
    return out


def posterior_fillings(h: Any, rng: Rng, need: int, *, chains: int = 4, burn: int = 200,
                       thin: int = 10, climb: int = CLIMB, give_up: bool = False,
                       stats: dict | None = None,
                       starts: Sequence[list[int] | None] | None = None,
                       weigh: bool = False, share: bool = False) -> list[list[int]]:
    """``need`` fillings from ``chains`` chains (each its own climb to a start, at most
    ``climb`` replays, ``burn`` proposals, then every ``thin``-th), interleaved; empty
    when no chain finds a start. ``give_up``: the first chain's failure ends the search
    (the other seats then most likely do not play as the model says).

    ``starts`` (a warm start): candidate fillings (``None`` for none) tried in order,
    one replay each; each chain starts from the next consistent one instead of a climb,
    and when none is left its climb starts from the candidate that agreed longest. A
    consistent start changes only how soon the chain mixes, not its target (the uniform
    posterior over the consistent fillings it can reach). ``stats``: ``warm`` chains
    started from a candidate as it was, ``warm_climb`` those climbed from one, ``climb``
    from the prior; ``carried`` candidates replayed. ``weigh``: :func:`chain`'s.
    ``share``: the chains that found a start give all ``need`` fillings between them
    (else each gives its ``need / chains`` and a chain without a start leaves its part
    to the caller: :func:`posterior_draw` then falls back on the sampler's worlds)."""
    per = -(-need // chains)
    runs: list[list[list[int]]] = []
    cands = [c for c in starts if c is not None] if starts else []
    found: list[tuple[list[int], Rng]] = []
    cursor = 0
    best: tuple[int, list[int] | None] = (-1, None)
    for c in range(chains):
        r = Rng(rng.next64())
        start: list[int] | None = None
        while cursor < len(cands) and start is None:
            k = h.replay(cands[cursor])[0]
            if k == h.steps:
                start = list(cands[cursor])
            elif k > best[0]:
                best = (k, cands[cursor])
            cursor += 1
        if stats is not None:
            stats["carried"] = cursor
        if start is not None:
            how = "warm"
        else:
            start = consistent_start(h, r, climb, best[1])
            how = "warm_climb" if best[1] is not None else "climb"
        if start is None:
            if c == 0 and give_up:
                break
            continue
        found.append((start, r))
        if stats is not None:
            stats["chains"] = stats.get("chains", 0) + 1
            stats[how] = stats.get(how, 0) + 1
    if share and found:
        per = -(-need // len(found))
    for start, r in found:
        runs.append(chain(h, start, r, per, thin, burn, stats=stats, weigh=weigh))
    out: list[list[int]] = []
    for j in range(per):
        for run in runs:
            if j < len(run):
                out.append(run[j])
    return out[:need]


def posterior_draw(game: Game, state: State, seat: int, hook: Any, need: int, rng: Rng, *,
                   chains: int = 4, burn: int = 200, thin: int = 10, climb: int = CLIMB,
                   give_up: bool = False, memo: set | None = None,
                   warm: dict | None = None, persist: bool = False,
                   weigh: bool = False, share: bool = False, note: dict | None = None
                   ) -> tuple[Callable[[Rng], State], dict] | None:
    """A draw function (as ``game.world_sampler`` gives) returning, in turn, ``need``
    worlds of the exact posterior (past them, the sampler's own draws), and a note
    (``chains`` started, ``tried``/``moved`` proposals); ``None`` when the game has no
    hook, the hook nothing to condition on, or no chain found a consistent filling.
    ``memo`` (with ``give_up``): the hidden histories' ``key`` (the round, where the hook
    gives one) with no start found are added to it, and a round in it is not searched
    again (its history only grows: the model's players most likely are not at the table).

    ``warm`` (a warm start, kept by the caller between decisions): the last ``WARM``
    fillings of the round's chains are kept in it, and where the hook has
    ``carry(prev, cards)`` (the filling of the earlier hidden history ``prev`` mapped into
    this one's slots, or ``None``), the next decision of the same round starts its chains
    from them (:func:`posterior_fillings`' ``starts``). ``persist`` (with ``warm``): when
    no chain finds a start although fillings were carried, they are kept for the next
    decision and the round is given up (``memo``) only at the second such failure in a
    row (a model that explained the round so far is not dropped at one failed climb;
    two in a row, and the other seats most likely do not play as it says). ``weigh``:
    :func:`chain`'s (chance events the seat saw weigh the fillings); ``share``:
    :func:`posterior_fillings`'. ``note``
    (diagnostics): ``why`` is set to ``"no hook"``, ``"nothing hidden"``, ``"given up"``,
    ``"no start"`` or ``"ok"``, and the chains' statistics are copied in."""
    if note is None:
        note = {}
    if hook is None:
        note["why"] = "no hook"
        return None
    h = hook(game, state, seat)
    if h is None:
        note["why"] = "nothing hidden"
        return None
    key = getattr(h, "key", None)
    if memo is not None and key is not None and key in memo:
        note["why"] = "given up"
        return None
    starts: list[list[int] | None] | None = None
    carry = getattr(h, "carry", None)
    fails = 0
    if warm is not None and carry is not None and key is not None and key in warm:
        prev, kept, fails = warm[key]
        starts = [carry(prev, f) for f in kept]
    stats: dict = {}
    fills = posterior_fillings(h, rng, need, chains=chains, burn=burn, thin=thin,
                               climb=climb, give_up=give_up, stats=stats, starts=starts,
                               weigh=weigh, share=share)
    note.update(stats)
    retry = persist and starts is not None and fails == 0 and not fills
    if warm is not None:
        if retry:
            warm[key] = (prev, kept, 1)  # tried again at the next decision
        else:
            warm.clear()  # only the round in play
            if fills and key is not None:
                warm[key] = (h, fills[-WARM:], 0)  # the latest of every chain
    if not fills:
        note["why"] = "no start"
        if memo is not None and key is not None and give_up and not retry:
            memo.add(key)
        return None
    note["why"] = "ok"
    worlds = [h.world(f, rng) for f in fills]
    it = iter(worlds)
    sampler = game.world_sampler(state, seat)

    def draw(r: Rng) -> State:
        w = next(it, None)
        return w if w is not None else sampler(r)

    return draw, stats


__all__ = ["chain", "consistent_start", "posterior_draw", "posterior_fillings"]
