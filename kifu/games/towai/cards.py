"""TOWAI components as small ints, and every legality mask built once at import.

The 60 cards come in 17 kinds, one code each (the canonical order of every sorted zone):

====  =========  =====  ========================================
code  kind       token  copies
====  =========  =====  ========================================
0-4   Day 3..7   D3-D7  4 each (20)
5-9   Night 1..5 N1-N5  4 each (20)
10-16 Twai 1..7  T1-T7  3 each, Twai 4 only 2 (20)
====  =========  =====  ========================================

Twai 3 is Draw, Twai 4 Reset, Twai 5 Swap; the other Twai only flip Day and Night.

Two int encodings of a multiset of cards:

- a *count int* (hands, the discard pile): 4 bits a kind, ``count << 4 * c``; adding or
  removing a card is one add or subtract, and two count ints add with no carries (at most
  four copies). Every hand lives in one int, seat ``s`` at bits ``68 * s``; the kinds a
  hand holds are its *presence bits* (see :func:`present`);
- a *zone int* (the conservation check): unary counts in four layers of 17 bits, copy
  ``k`` of code ``c`` at bit ``17 * k + c``.
"""

from __future__ import annotations

from kifu.core.codes import bad_pair_at, set_bits, split_pairs

N_KINDS = 17
LAYER = 17
SEAT_BITS = 4 * LAYER
KIND_MASK = (1 << LAYER) - 1
SEAT_MASK = (1 << SEAT_BITS) - 1
LAYERS = 1 | 1 << 17 | 1 << 34 | 1 << 51
"""Bit 0 of each layer: ``(zone >> c) & LAYERS`` is the unary count of code ``c``."""

DAY, NIGHT, TWAI = 0, 1, 2
TYPE_LETTER = "DNT"
TYPE_NAME = ("Day", "Night", "Twai")
SIDE_NAME = ("day", "night")
DRAW, RESET, SWAP = 12, 13, 14
"""The codes of Twai 3, 4 and 5."""

TYPE = tuple([DAY] * 5 + [NIGHT] * 5 + [TWAI] * 7)
NUM = (3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 7)
COPIES = tuple([4] * 10 + [3, 3, 3, 2, 3, 3, 3])
TOKEN = tuple(f"{TYPE_LETTER[TYPE[c]]}{NUM[c]}" for c in range(N_KINDS))
CODE_OF = {t: c for c, t in enumerate(TOKEN)}
EFFECT = {DRAW: "Draw", RESET: "Reset", SWAP: "Swap"}


def _mask(pred) -> int:
    return sum(1 << c for c in range(N_KINDS) if pred(c))


DAY_KINDS = _mask(lambda c: TYPE[c] == DAY)
NIGHT_KINDS = _mask(lambda c: TYPE[c] == NIGHT)
TWAI_KINDS = _mask(lambda c: TYPE[c] == TWAI)
FITS = (DAY_KINDS | TWAI_KINDS, NIGHT_KINDS | TWAI_KINDS)
"""The kinds that fit a side: its own type and every Twai (ruling 3)."""

FOLLOW = tuple(
    _mask(lambda c, s=side, t=top: FITS[s] >> c & 1 and (NUM[c] >= t if s == DAY else NUM[c] <= t))
    for side in (DAY, NIGHT) for top in range(8)
)
"""``FOLLOW[8 * side + top]``: the kinds that may follow a top card numbered ``top``
(Day: number >= top; Night: number <= top; ruling 3)."""

COMBO = tuple(
    _mask(lambda c, s=side, k=num: FITS[s] >> c & 1 and NUM[c] == k)
    for side in (DAY, NIGHT) for num in range(8)
)
"""``COMBO[8 * side + num]``: the kinds that continue a combo of ``num`` (ruling 5)."""

FULL_COUNTS = COPIES
ALL_CARDS = tuple(c for c in range(N_KINDS) for _ in range(COPIES[c]))
"""The 60 cards, sorted."""


def zone_add(zone: int, c: int) -> int:
    """``zone`` with one more card ``c`` (at most four copies)."""
    return zone | 1 << (c + LAYER * ((zone >> c) & LAYERS).bit_count())


def zone_remove(zone: int, c: int) -> int:
    """``zone`` with one card ``c`` fewer (the caller knows it holds one)."""
    return zone ^ 1 << (c + ((zone >> c) & LAYERS).bit_length() - 1)


def zone_count(zone: int, c: int) -> int:
    return ((zone >> c) & LAYERS).bit_count()


def zone_of(codes) -> int:
    z = 0
    for c in codes:
        z = zone_add(z, c)
    return z


def zone_cards(zone: int) -> tuple[int, ...]:
    """The cards of a zone, sorted."""
    out: list[int] = []
    for c in range(N_KINDS):
        k = ((zone >> c) & LAYERS).bit_count()
        if k:
            out += [c] * k
    return tuple(out)


NIB = tuple(1 << (4 * c) for c in range(N_KINDS))
"""The discard pile is a *count int*: 4 bits a kind (``count << 4 * c``), so adding a
whole field to it is a sum, with no carries (at most four copies)."""


def counts_cards(z: int) -> tuple[int, ...]:
    """The cards of a count int, sorted."""
    out: list[int] = []
    for c in range(N_KINDS):
        k = (z >> (4 * c)) & 15
        if k:
            out += [c] * k
    return tuple(out)


def counts_of(codes) -> int:
    return sum(NIB[c] for c in codes)


def _spread(mask: int, nibble: int) -> int:
    return sum(nibble << (4 * c) for c in range(N_KINDS) if mask >> c & 1)


SEVENS = _spread(KIND_MASK, 7)
EIGHTS = _spread(KIND_MASK, 8)
"""Hands are count ints too (4 bits a kind; a seat's 17 kinds take 68 bits). The kinds a
count int ``z`` holds are the *presence bits* ``(z + SEVENS) & EIGHTS``: bit ``4c + 3``
is set iff ``z`` holds a ``c`` (a count of 1..4 plus 7 reaches 8, never 16)."""
FOLLOW8 = tuple(_spread(m, 8) for m in FOLLOW)
COMBO8 = tuple(_spread(m, 8) for m in COMBO)
COMBO_ANY = tuple(_spread(m, 15) for m in COMBO)
"""``count & COMBO_ANY[row]`` is nonzero iff the count int holds a kind of the row."""
FITS8 = tuple(_spread(m, 8) for m in FITS)


def present(z: int) -> int:
    """The presence bits of a count int."""
    return (z + SEVENS) & EIGHTS


def kinds8(p8: int) -> list[int]:
    """The codes of a presence-bit mask, in order."""
    out = []
    while p8:
        low = p8 & -p8
        out.append((low.bit_length() - 4) >> 2)
        p8 ^= low
    return out


def count_of(z: int, c: int) -> int:
    """Copies of ``c`` in a count int."""
    return (z >> (4 * c)) & 15


def kind_mask(z: int) -> int:
    """The 17-bit kind mask of a count int."""
    p8 = present(z)
    return sum(1 << c for c in kinds8(p8))


kinds = set_bits
"""The codes of the set bits of a kind mask, in order."""


def cards_text(codes) -> str:
    """Tokens concatenated (``D3N1T4``), ``-`` for none."""
    return "".join([TOKEN[c] for c in codes]) or "-"


def split_cards(text: str) -> list[int] | None:
    """The codes of a concatenation of tokens (``-`` = none; case-insensitive); None if
    malformed."""
    return [] if text == "-" else split_pairs(text, CODE_OF)


def bad_token_at(text: str) -> int:
    """1-based column of the first malformed token in a concatenation."""
    return bad_pair_at(text, CODE_OF)


def too_many(codes) -> list[int]:
    """The kinds of ``codes`` with more copies than the game has."""
    counts = [0] * N_KINDS
    for c in codes:
        counts[c] += 1
    return [c for c in range(N_KINDS) if counts[c] > COPIES[c]]
