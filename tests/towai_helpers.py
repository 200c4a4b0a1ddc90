"""What the TOWAI tests share."""

from __future__ import annotations

from kifu.core.rng import Rng
from kifu.games.towai.cards import ALL_CARDS


def small_hands(rng: Rng, n: int) -> tuple[list[list[int]], list[int]]:
    """``n`` sorted hands of 1 to 3 cards dealt from a shuffled pack, and the rest of the
    pack in shuffled order."""
    cards = rng.shuffled(ALL_CARDS)
    hands = []
    for _ in range(n):
        k = 1 + rng.below(3)
        hands.append(sorted(cards[:k]))
        cards = cards[k:]
    return hands, cards
