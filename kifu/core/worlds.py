"""Helpers of the world samplers (``kifu/games/<game>/worlds.py``): uniform draws of hidden
cards into hidden places, with or without constraints.

*Uniform* means, throughout: every assignment of the unseen **physical** cards to the hidden
places that satisfies the constraints is equally likely. Two copies of a card are two
physical cards, so a hand holding both copies of ``O1`` arises in more ways than one holding
one ``O1`` and one ``Y2``, as in a real deal.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache, lru_cache
from math import comb, factorial
from typing import TypeVar

from kifu.core.errors import KifuError
from kifu.core.rng import Rng

T = TypeVar("T")


def from_start(game, state):
    """A fresh state of ``state``'s game at the start, when ``state.history`` replays the
    whole game (its first action is legal at the start: samplers then read what each
    seat saw from it, and check at the end that the replay reached ``state``); else None."""
    history = state.history
    if not history:
        return None
    fresh = game.new_state(state.n, state.variant)
    return fresh if fresh.is_legal(history[0]) else None


def below_big(rng: Rng, n: int) -> int:
    """A uniform integer in ``range(n)`` for any ``n >= 1`` (``Rng.below`` takes 64-bit
    bounds; counts of deals are larger): rejection sampling on enough 64-bit words."""
    if n <= 1 << 63:
        return rng.below(n)
    words = (n.bit_length() + 63) // 64
    span = 1 << (64 * words)
    limit = span - span % n
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | rng.next64()
        if x < limit:
            return x % n


def pick_weighted(rng: Rng, weights: Sequence[int]) -> int:
    """An index drawn with probability proportional to the (integer) ``weights``."""
    r = below_big(rng, sum(weights))
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("weights changed while drawing")


def deal_into(rng: Rng, cards: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """Shuffle ``cards`` and cut them into parts of ``sizes`` (which must add up)."""
    if sum(sizes) != len(cards):
        raise KifuError(f"cannot deal {len(cards)} cards into places of {list(sizes)}")
    pile = rng.shuffled(cards)
    out, at = [], 0
    for k in sizes:
        out.append(pile[at:at + k])
        at += k
    return out


def _compositions(total: int, caps: tuple[int, ...]):
    """Every way to write ``total`` as a sum of ``len(caps)`` parts, part ``i`` at most
    ``caps[i]``, in lexicographic order."""
    if not caps:
        if total == 0:
            yield ()
        return
    head, rest = caps[0], caps[1:]
    room = sum(rest)
    for k in range(max(0, total - room), min(head, total) + 1):
        for tail in _compositions(total - k, rest):
            yield (k, *tail)


class GroupDeal:
    """Deal groups of cards to players when some players may not hold some groups.

    ``groups`` is a list of ``(cards, allowed)``: the physical cards of the group and the
    players (indices into ``sizes``) who may hold them; ``sizes[p]`` is how many cards
    player ``p`` gets. Every card is dealt. :meth:`sample` draws a deal uniformly among the
    deals that respect ``allowed`` (counting physical cards): the number of cards of each
    group going to each player is drawn by a dynamic program over the groups (the number
    of deals that continue from each split), then each group's cards are shuffled into the
    chosen counts. Raises :class:`KifuError` when no deal fits.
    """

    def __init__(self, groups: Sequence[tuple[Sequence[Hashable], Sequence[int]]],
                 sizes: Sequence[int]):
        merged: dict[tuple[int, ...], list[Hashable]] = {}
        for cards, allowed in groups:  # cards allowed to the same players are one group
            if cards:
                merged.setdefault(tuple(sorted(set(allowed))), []).extend(cards)
        self.groups = [(cards, allowed) for allowed, cards in merged.items()]
        self.sizes = tuple(sizes)
        if sum(len(c) for c, _ in self.groups) != sum(self.sizes):
            raise KifuError("the groups do not hold as many cards as the players get")
        self._ways = lru_cache(maxsize=None)(self._count)
        if self._ways(0, self.sizes) == 0:
            raise KifuError("no deal agrees with what is known")

    def _splits(self, g: int, room: tuple[int, ...]):
        cards, allowed = self.groups[g]
        caps = tuple(room[p] for p in allowed)
        for parts in _compositions(len(cards), caps):
            left = list(room)
            for p, k in zip(allowed, parts, strict=True):
                left[p] -= k
            yield parts, tuple(left)

    def _weighted_splits(self, g: int, room: tuple[int, ...]):
        """Each split of group ``g`` into ``room`` that the later groups can complete, with
        its number of deals: the ways to share the group's cards so, times the ways to
        deal the rest."""
        n = len(self.groups[g][0])
        for parts, left in self._splits(g, room):
            rest = self._ways(g + 1, left)
            if rest:
                ways = factorial(n)
                for k in parts:
                    ways //= factorial(k)
                yield parts, left, ways * rest

    def _count(self, g: int, room: tuple[int, ...]) -> int:
        if g == len(self.groups):
            return 1 if not any(room) else 0
        return sum(w for _, _, w in self._weighted_splits(g, room))

    def count(self) -> int:
        """The number of deals (of physical cards) that respect the constraints."""
        return self._ways(0, self.sizes)

    def sample(self, rng: Rng) -> list[list[Hashable]]:
        """One deal: the cards of each player."""
        hands: list[list[Hashable]] = [[] for _ in self.sizes]
        room = self.sizes
        for g, (cards, allowed) in enumerate(self.groups):
            options = list(self._weighted_splits(g, room))
            parts, room, _ = options[pick_weighted(rng, [w for _, _, w in options])]
            for p, chunk in zip(allowed, deal_into(rng, cards, parts), strict=True):
                hands[p].extend(chunk)
        return hands


def at_least(rng: Rng, counts: dict[Hashable, int], bounds: dict[Hashable, int], others: int,
             size: int) -> dict[Hashable, int]:
    """How many copies of each bounded kind a hidden hand of ``size`` cards holds, drawn
    uniformly (over physical cards) among hands holding at least ``bounds[k]`` copies of
    each kind ``k``: ``counts[k]`` copies of ``k`` are unseen, and ``others`` unseen cards
    are of no bounded kind. Returns the copies of each bounded kind (the hand's other cards
    are any ``size - sum`` of the ``others``)."""
    kinds = sorted(bounds, key=repr)

    @cache
    def ways(i: int, used: int) -> int:
        if used > size:
            return 0
        if i == len(kinds):
            return comb(others, size - used)
        k = kinds[i]
        return sum(comb(counts[k], j) * ways(i + 1, used + j)
                   for j in range(bounds[k], counts[k] + 1))

    if ways(0, 0) == 0:
        raise KifuError("no hand agrees with what is known")
    out: dict[Hashable, int] = {}
    used = 0
    for i, k in enumerate(kinds):
        js = list(range(bounds[k], counts[k] + 1))
        w = [comb(counts[k], j) * ways(i + 1, used + j) for j in js]
        j = js[pick_weighted(rng, w)]
        out[k] = j
        used += j
    return out


__all__ = ["GroupDeal", "at_least", "below_big", "deal_into", "from_start", "pick_weighted"]
