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
from itertools import product
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


def round_start(game, state, deal: type):
    """The current round replayed from the start of the game: ``(before, after, d)``,
    fresh states of ``state``'s game just before and just after the round's deal (the last
    action of type ``deal`` in ``state.history``, at index ``d``); ``None`` when the
    history does not replay the whole game (:func:`from_start`) or holds no deal."""
    s = from_start(game, state)
    if s is None:
        return None
    history = state.history
    deals = [i for i, a in enumerate(history) if isinstance(a, deal)]
    if not deals:
        return None
    d = deals[-1]
    for a in history[:d]:
        s.push(a)
    before = s.copy()
    s.push(history[d])
    return before, s, d


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


class BoundedDeal:
    """Deal cards of several *kinds* into places of fixed sizes, where a place may hold at
    least ``lower[(place, kind)]`` and at most ``upper[(place, kind)]`` cards of a kind.

    ``kinds`` maps each kind to its physical cards; ``sizes[p]`` is how many cards place
    ``p`` gets; every card is dealt. :meth:`sample` draws uniformly among the deals (of
    physical cards) within the bounds: how many cards of each kind go to each bounded
    place is drawn by a dynamic program over the kinds (the number of deals that continue
    from each split, the state being the room left in the bounded places), then each kind's
    cards are shuffled into the chosen counts, and the cards left for the unbounded places
    are shuffled and cut into their sizes. The cost grows with the number of bounded
    places, so a caller bounds only the places its knowledge narrows. Raises
    :class:`KifuError` when no deal fits.
    """

    def __init__(self, kinds: dict[Hashable, Sequence[Hashable]], sizes: Sequence[int],
                 lower: dict[tuple[int, Hashable], int] | None = None,
                 upper: dict[tuple[int, Hashable], int] | None = None):
        lower = {k: v for k, v in (lower or {}).items() if v > 0}
        upper = dict(upper or {})
        self.sizes = tuple(sizes)
        self.bounded = sorted({p for p, _ in lower} | {p for p, _ in upper})
        self.free = [p for p in range(len(self.sizes)) if p not in self.bounded]
        self.kinds = [(k, list(c)) for k, c in kinds.items() if c]
        if sum(len(c) for _, c in self.kinds) != sum(self.sizes):
            raise KifuError("the kinds do not hold as many cards as the places get")
        # per kind, per bounded place: the range of counts allowed
        self._ranges = [
            [(lower.get((p, k), 0), min(upper.get((p, k), len(c)), len(c), self.sizes[p]))
             for p in self.bounded]
            for k, c in self.kinds]
        # cards of the kinds from i on, to know the free room left
        self._after = [0] * (len(self.kinds) + 1)
        for i in range(len(self.kinds) - 1, -1, -1):
            self._after[i] = self._after[i + 1] + len(self.kinds[i][1])
        # the least each bounded place still needs from the kinds from i on
        self._need = [[0] * len(self.bounded) for _ in range(len(self.kinds) + 1)]
        for i in range(len(self.kinds) - 1, -1, -1):
            self._need[i] = [a + r[0] for a, r in zip(self._need[i + 1], self._ranges[i],
                                                     strict=True)]
        self._options: dict[tuple[int, tuple[int, ...]], tuple[list, list[int]]] = {}
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._cands: dict[int, list[tuple[tuple[int, ...], int, int]]] = {}
        self._start = tuple(self.sizes[p] for p in self.bounded)
        if not self.bounded:  # nothing known: a plain deal
            self._ways[(0, ())] = 1
            return
        if self._count(0, self._start) == 0:
            raise KifuError("no deal agrees with what is known")

    def _candidates(self, i: int) -> list[tuple[tuple[int, ...], int, int]]:
        """Every split of kind ``i`` into the bounded places within its ranges, with its
        total and its number of ways (the multinomial of the kind's cards, the rest going
        to the free places), whatever the room: worked out once per kind."""
        got = self._cands.get(i)
        if got is None:
            n = len(self.kinds[i][1])
            fn = factorial(n)
            got = []
            for parts in product(*[range(lo, hi + 1) for lo, hi in self._ranges[i]]):
                total = sum(parts)
                if total <= n:
                    w = fn // factorial(n - total)
                    for k in parts:
                        w //= factorial(k)
                    got.append((parts, total, w))
            self._cands[i] = got
        return got

    def _count(self, i: int, room: tuple[int, ...]) -> int:
        key = (i, room)
        got = self._ways.get(key)
        if got is not None:
            return got
        if i == len(self.kinds):
            total = 1 if not any(room) else 0
        else:
            n = len(self.kinds[i][1])
            free_room = self._after[i] - sum(room)
            caps = [r - k for r, k in zip(room, self._need[i + 1], strict=True)]
            splits, weights = [], []
            for parts, used, w in self._candidates(i):
                if n - used > free_room:
                    continue
                for k, c in zip(parts, caps, strict=True):
                    if k > c:
                        break
                else:
                    rest = self._count(i + 1, tuple(r - k for r, k in zip(room, parts,
                                                                          strict=True)))
                    if rest:
                        splits.append(parts)
                        weights.append(w * rest)
            self._options[key] = (splits, weights)
            total = sum(weights)
        self._ways[key] = total
        return total

    def count(self) -> int:
        """The number of deals (of physical cards, each place's cards unordered)."""
        free = [self.sizes[p] for p in self.free]
        ways = factorial(sum(free))
        for k in free:
            ways //= factorial(k)
        return self._ways[(0, self._start)] * ways

    def sample(self, rng: Rng) -> list[list[Hashable]]:
        """One deal: the cards of each place."""
        places: list[list[Hashable]] = [[] for _ in self.sizes]
        pool: list[Hashable] = []
        room = self._start
        if not self.bounded:
            pool = [c for _, cards in self.kinds for c in cards]
        for i, (_, cards) in enumerate(self.kinds if self.bounded else ()):
            splits, weights = self._options[(i, room)]
            parts = splits[pick_weighted(rng, weights)] if len(splits) > 1 else splits[0]
            sizes = [*parts, len(cards) - sum(parts)]
            chunks = deal_into(rng, cards, sizes) if len(cards) > 1 else [
                cards if k else [] for k in sizes]
            for p, chunk in zip(self.bounded, chunks, strict=False):
                places[p].extend(chunk)
            pool.extend(chunks[-1])
            room = tuple(r - k for r, k in zip(room, parts, strict=True))
        for p, chunk in zip(self.free, deal_into(rng, pool, [self.sizes[p] for p in self.free]),
                            strict=True):
            places[p] = chunk
        return places


class ChoiceDeal:
    """Deal cards of several *kinds* into places of fixed sizes, where some places may only
    take some mixtures of kinds: ``allowed[p]`` is the set of count tuples (one count per
    kind, in the order of ``kinds``) place ``p`` may hold; a place not in ``allowed`` takes
    any cards. :meth:`sample` draws uniformly among the deals of physical cards: each
    constrained place's mixture by a dynamic program over those places (the state being
    the cards of each kind still to deal), then which physical cards of each kind, then
    the rest shuffled into the free places. Raises :class:`KifuError` when no deal fits.
    """

    def __init__(self, kinds: dict[Hashable, Sequence[Hashable]], sizes: Sequence[int],
                 allowed: dict[int, set[tuple[int, ...]]]):
        self.kinds = [list(c) for c in kinds.values()]
        self.sizes = tuple(sizes)
        if sum(len(c) for c in self.kinds) != sum(self.sizes):
            raise KifuError("the kinds do not hold as many cards as the places get")
        self.bound = sorted(allowed)
        self.free = [p for p in range(len(self.sizes)) if p not in allowed]
        self.allowed = [sorted(m for m in allowed[p] if sum(m) == self.sizes[p])
                        for p in self.bound]
        self._options: dict[tuple[int, tuple[int, ...]], tuple[list, list[int]]] = {}
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._start = tuple(len(c) for c in self.kinds)
        if self._count(0, self._start) == 0:
            raise KifuError("no deal agrees with what is known")

    def _count(self, i: int, rem: tuple[int, ...]) -> int:
        key = (i, rem)
        got = self._ways.get(key)
        if got is not None:
            return got
        if i == len(self.bound):
            total = 1
        else:
            mixes, weights = [], []
            for mix in self.allowed[i]:
                w = 1
                for r, k in zip(rem, mix, strict=True):
                    if k > r:
                        w = 0
                        break
                    w *= comb(r, k)
                if w:
                    rest = self._count(i + 1, tuple(r - k for r, k in zip(rem, mix,
                                                                          strict=True)))
                    if rest:
                        mixes.append(mix)
                        weights.append(w * rest)
            self._options[key] = (mixes, weights)
            total = sum(weights)
        self._ways[key] = total
        return total

    def sample(self, rng: Rng) -> list[list[Hashable]]:
        """One deal: the cards of each place."""
        places: list[list[Hashable]] = [[] for _ in self.sizes]
        left = [rng.shuffled(c) for c in self.kinds]
        rem = self._start
        for i, p in enumerate(self.bound):
            mixes, weights = self._options[(i, rem)]
            mix = mixes[pick_weighted(rng, weights)] if len(mixes) > 1 else mixes[0]
            for k, j in enumerate(mix):
                if j:
                    places[p].extend(left[k][:j])
                    del left[k][:j]
            rem = tuple(r - k for r, k in zip(rem, mix, strict=True))
        pool = [c for cards in left for c in cards]
        for p, chunk in zip(self.free, deal_into(rng, pool, [self.sizes[p] for p in self.free]),
                            strict=True):
            places[p] = chunk
        return places


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


__all__ = ["BoundedDeal", "ChoiceDeal", "GroupDeal", "at_least", "below_big", "deal_into",
           "from_start", "pick_weighted"]
