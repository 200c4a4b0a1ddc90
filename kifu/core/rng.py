"""A small, documented, stable random number generator.

Seeds only ever expand into explicit dealer actions, so a record never depends on this
module; but ``kifu play --seed S`` must give the same game on every machine and every Python
version, so kifu does not use :mod:`random` (whose algorithms may change). The generator is
SplitMix64 (Steele, Lea & Flood 2014): the state is one 64-bit integer; each step adds the
golden gamma ``0x9E3779B97F4A7C15`` and mixes. Bounded integers use rejection sampling (no
modulo bias), and shuffles are Fisher-Yates from the last index down. ``docs/notation.md``
restates this so other implementations can reproduce a seeded deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_SPAN = 1 << 64
_LIMITS = 1024
_LIMIT = (0, *(_SPAN - _SPAN % n for n in range(1, _LIMITS)))
"""``_LIMIT[n]``: the rejection bound of :meth:`Rng.below` for ``n`` (the largest
multiple of ``n`` not above 2**64)."""


class Rng:
    """SplitMix64. ``Rng(seed)`` for an int or str seed (a str is hashed with FNV-1a 64).

    The stream is fixed forever (records never depend on it, but seeds must expand the same
    way everywhere):

    >>> Rng(7).next64()
    7191089600892374487
    >>> Rng(7).shuffled([1, 2, 3, 4, 5])
    [5, 2, 4, 1, 3]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0):
        if isinstance(seed, str):
            h = 0xCBF29CE484222325
            for b in seed.encode("utf-8"):
                h = ((h ^ b) * 0x100000001B3) & MASK64
            seed = h
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = z = (self.state + GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * _MIX1) & MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling on 64-bit draws)."""
        # next64 written out (the hot path of every sampler and random rollout: one call
        # less a number; tests/test_speed9_rng.py holds it to the plain definition)
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = _LIMIT[n] if n < _LIMITS else _SPAN - _SPAN % n
        z0 = self.state
        while True:
            z0 = (z0 + GAMMA) & MASK64
            z = ((z0 ^ (z0 >> 30)) * _MIX1) & MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & MASK64
            x = z ^ (z >> 31)
            if x < limit:
                self.state = z0
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle: for i from len-1 down to 1, swap i with below(i+1)."""
        out = list(items)
        # below() written out, with its next64 (as there)
        z0 = self.state
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _LIMIT[n] if n < _LIMITS else _SPAN - _SPAN % n
            while True:
                z0 = (z0 + GAMMA) & MASK64
                z = ((z0 ^ (z0 >> 30)) * _MIX1) & MASK64
                z = ((z ^ (z >> 27)) * _MIX2) & MASK64
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            out[i], out[j] = out[j], out[i]
        self.state = z0
        return out

    def fork(self, salt: int) -> Rng:
        """An independent stream (for one bot's decisions) derived from this seed and a salt."""
        r = Rng(self.state ^ ((salt * GAMMA) & MASK64))
        r.next64()
        return r
