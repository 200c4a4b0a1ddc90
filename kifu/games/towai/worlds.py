"""TOWAI worlds: the other hands, the deck's order and the cards others have set aside in
a Swap, drawn to agree with what a seat has seen.

Known to ``seat``: its own hand, the field, the discards, the side, the counts (its view),
its own choice in a Swap under way, and, from ``state.history`` when it starts at the
beginning of the game, what its Swap gifts revealed: the previous seat received each card ``seat``
gave it (ruling 10). That is kept as a lower bound, "the previous seat holds at least k
copies of X", lowered by one for each X that seat has played since and for every later
Swap in which it gave a card away unseen (it may have passed the gift on). The cards
nobody sees are exactly those of the other hands, of the deck and of the others' Swap
choices (the 60 cards are known).

Drawn: the previous seat's copies of each bounded kind, with the right weights
(:func:`kifu.core.worlds.at_least`); then every other unseen card uniformly into the rest
of that hand, the other hands and the deck; a seat that has chosen in the Swap under way
set aside one of its cards, each equally likely.

After a rebuild (ruling 7) the deck is a shuffle of the pool, which everybody saw: from
then on the deck holds only cards of that pool, less those drawn from it since
(:func:`rebuilt_pool`: the pool less the cards ``seat`` itself drew since; which cards the
others drew is unseen). The sampler deals the deck within those copies, per kind an upper
bound, together with the previous seat's lower bounds, uniformly
(:class:`kifu.core.worlds.BoundedDeal`).

Not used (a simplification): which other seats drew the rebuilt pool's cards. A card of
the pool can only be in a hand that drew since the rebuild, or received it in a Swap since;
with copies of every kind, which copy in a hand came from the pool cannot be told, so
the sampler does not bound it. Likewise a turn that ended by itself showed that its
player held no card to go on with *then*; only the present is used: a seat to move in a
combo holds a card that continues it (the position line requires it), which a world
drawn without one is redrawn to respect. ``docs/bots.md`` (Worlds) gives the measured
share of worlds that contradict each of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import msgspec

from kifu.core.codes import field_codes, field_text
from kifu.core.errors import KifuError, NotationError
from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import BoundedDeal, from_start
from kifu.games.towai.actions import Deal, Give, Lead, Pass, Play, Rebuild, Stop
from kifu.games.towai.cards import N_KINDS, NUM, TOKEN, TWAI, TYPE, counts_cards, split_cards
from kifu.games.towai.state import LEAD, PLAY, SWAP_PHASE

TRIES = 1000
"""Draws tried before giving up on a world the position line accepts."""

VOID_TRIES = 400
"""Draws tried for a world that also respects every :class:`Void`; past them (a position
where almost no deal does), the voids are let go for that world (``docs/bots.md``)."""


def _cards(text: str) -> list[int]:
    return field_codes(text, split_cards)


def _text(codes: list[int]) -> str:
    return field_text(codes, TOKEN)


class Void(msgspec.Struct):
    """A turn of ``seat`` that ended by itself showed it held none of ``kinds`` (the cards
    that would have continued its combo); ``budget`` is how many such cards it can hold
    now: the cards it has taken in since (draws, Swap receipts) less those of ``kinds`` it
    has played since (each must have come in after)."""

    seat: int
    kinds: frozenset
    budget: int = 0


def voids(state: State, seat: int, game: Game) -> list[Void]:
    """What the turns of the other seats that ended by themselves showed ``seat``, this
    round (:class:`Void`); empty without a history from the beginning."""
    return _replay(state, seat, game)[2]


def gifts(state: State, seat: int, game: Game) -> Counter[int]:
    """Copies of each kind the previous seat surely holds (hand or Swap choice), as ``seat``
    knows from its gifts; empty when the history does not start at the beginning."""
    return _replay(state, seat, game)[0]


def rebuilt_pool(state: State, seat: int, game: Game) -> Counter[int] | None:
    """The copies of each kind the deck can still hold when it was rebuilt this round: the
    pool that was shuffled (public) less the cards ``seat`` drew from it since; ``None``
    when the deck has not been rebuilt this round (or the history does not start at the
    beginning of the game)."""
    return _replay(state, seat, game)[1]


def _replay(state: State, seat: int, game: Game) -> tuple[Counter[int], Counter[int] | None,
                                                          list[Void]]:
    """One pass over the history: (:func:`gifts`, :func:`rebuilt_pool`, :func:`voids`)."""
    history = state.history
    bound: Counter[int] = Counter()
    pool: Counter[int] | None = None
    lacks: list[Void] = []
    s = from_start(game, state)
    n = state.n
    prev = (seat - 1) % n
    if s is None:
        return bound, None, lacks
    pending = None
    owner = -1  # whose turn is under way after a lead or a play
    for a in history:
        mover = s.to_move
        sizes = [s.hand_size(v.seat) for v in lacks]  # type: ignore[attr-defined]
        if isinstance(a, Deal):
            bound.clear()
            pending = None
            pool = None
            lacks = []
            owner = -1
        elif prev != seat and mover == seat and isinstance(a, Give):
            pending = a.card
        elif prev != seat and mover == prev:
            if isinstance(a, Give):  # a card given away unseen: perhaps the gift
                for k in list(bound):
                    bound[k] -= 1
            elif isinstance(a, (Lead, Play)) and bound[a.card] > 0:
                bound[a.card] -= 1
            bound = +bound
        if isinstance(a, (Stop, Pass)):
            owner = -1
        elif isinstance(a, (Lead, Play)):
            owner = mover
            for v in lacks:
                if v.seat == mover and a.card in v.kinds:
                    v.budget -= 1  # it came in after the void
        dtop, deck = s._dtop, s._deck  # type: ignore[attr-defined]
        mine = s.hl[seat]  # type: ignore[attr-defined]  # (packed: decoded only if it drew)
        s.push(a)
        if isinstance(a, Rebuild):
            pool = Counter(a.deck)
        if pool is not None and s.hl[seat] != mine and (  # type: ignore[attr-defined]
                s._deck is not deck or s._dtop > dtop):  # type: ignore[attr-defined]
            drew = Counter(s.hand_cards(seat)) - Counter(counts_cards(mine))
            pool.subtract(drew)  # what seat drew from the rebuilt deck
            pool = +pool
        if pending is not None and s.phase != SWAP_PHASE:  # type: ignore[attr-defined]
            bound[pending] += 1  # the Swap is over: the gift is in the previous hand
            pending = None
        for v, size in zip(lacks, sizes, strict=False):  # (a void added by this action: none)
            v.budget += max(0, s.hand_size(v.seat) - size)  # type: ignore[attr-defined]
        if owner >= 0 and owner != seat and s.field and s.phase in (LEAD, PLAY) and \
                s.to_move != owner and s.hand_size(owner):  # type: ignore[attr-defined]
            k = NUM[s.field[-1]]  # type: ignore[attr-defined]
            side = s.side  # type: ignore[attr-defined]
            lacks.append(Void(owner, frozenset(c for c in range(N_KINDS) if NUM[c] == k and
                                               TYPE[c] in (TWAI, side))))
            owner = -1
    if s.key() != state.key():
        return Counter(), None, []
    return bound, pool, lacks


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    n = state.n
    fields = state.to_line().split(" ")
    hands = [_cards(h) for h in fields[3].split("/")]
    deck = _cards(fields[5])
    phase = fields[1]
    swap_mover, given = -1, []
    if phase.startswith("S"):
        head, _, chosen = phase.partition(":")
        swap_mover = int(head[1:])
        given = _cards(chosen) if chosen else []
    chooser = [(swap_mover + i) % n for i in range(len(given))]
    others = [p for p in range(n) if p != seat]
    hidden = {p: hands[p] + [c for c, q in zip(given, chooser, strict=True) if q == p]
              for p in others}
    unseen = [c for p in others for c in hidden[p]] + deck
    prev = (seat - 1) % n
    bound, pool, lacks = _replay(state, seat, game)
    lacks = [v for v in lacks if v.seat != seat]
    kinds: dict[int, list[int]] = {}
    for c in unseen:
        kinds.setdefault(c, []).append(c)
    # places: the other seats' hidden cards, then the deck
    sizes = [len(hidden[p]) for p in others] + [len(deck)]
    lower = {(others.index(prev), k): min(b, len(kinds.get(k, ()))) for k, b in bound.items()
             if prev != seat}
    upper = {(len(others), k): pool.get(k, 0) for k in kinds} if pool is not None and deck \
        else {}
    deal = BoundedDeal(kinds, sizes, lower, upper)

    def kept(held: list[list[int]]) -> bool:
        return all(sum(1 for c in held[v.seat] if c in v.kinds) <= v.budget for v in lacks)

    def draw(rng: Rng) -> State:
        for i in range(TRIES):
            line, held = one(rng)
            if lacks and i < VOID_TRIES and not kept(held):
                continue  # a turn that ended by itself says otherwise (see above)
            try:
                return game.from_line(line)
            except NotationError:  # the seat to move must be able to go on (see above)
                continue
        raise KifuError(f"no world for p{seat} found in {TRIES} tries")

    def one(rng: Rng) -> tuple[str, list[list[int]]]:
        parts = deal.sample(rng)
        new_given = list(given)
        new_hands = list(hands)
        for i, p in enumerate(others):
            cards = parts[i]
            for j, q in enumerate(chooser):
                if q == p:  # its Swap choice: one of its cards, each equally likely
                    new_given[j] = cards.pop(rng.below(len(cards)))
            new_hands[p] = sorted(cards)
        if swap_mover >= 0 and given:
            fields[1] = f"S{swap_mover}:" + _text(new_given)
        fields[3] = "/".join(_text(h) for h in new_hands)
        fields[5] = _text(rng.shuffled(parts[-1]))
        return " ".join(fields), new_hands

    return draw


__all__ = ["Void", "gifts", "rebuilt_pool", "voids", "world_sampler"]
