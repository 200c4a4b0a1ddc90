"""Lianxian tiles: 5 suits x numbers 1..10, each tile once (50 tiles), as small ints.

A tile's code is ``suit * 10 + (number - 1)``, so codes 0..49 and a set of tiles is one int
bitmask (bit ``code``). Suits in the rulebook's order: star, heart, diamond, club, spade,
written ``T H D C S`` (sTar, then the bridge letters); the Unicode suits ``★♥♦♣♠`` are read
on input too. A token is the suit letter and the number: ``T1``..``T10``, ``H7``, ``S10``.
"""

from __future__ import annotations

import re

from kifu.core.codes import scan_tokens, set_bits
from kifu.core.errors import NotationError
from kifu.core.variant import short

SUITS = "THDCS"
SUIT_SYMBOLS = "★♥♦♣♠"
SUIT_NAMES = ("star", "heart", "diamond", "club", "spade")
N_TILES = 50
ALL_TILES = (1 << N_TILES) - 1

SUIT = tuple(c // 10 for c in range(N_TILES))
NUMBER = tuple(c % 10 + 1 for c in range(N_TILES))
TOKEN = tuple(f"{SUITS[c // 10]}{c % 10 + 1}" for c in range(N_TILES))

UP = tuple(c + 1 if c % 10 != 9 else -1 for c in range(N_TILES))
"""The tile a run link joins above (same suit, number + 1); -1 above a 10 (10 does not
link to 1)."""
DOWN = tuple(c - 1 if c % 10 != 0 else -1 for c in range(N_TILES))

NUMBER_TILES = tuple(sum(1 << (s * 10 + k) for s in range(5)) for k in range(10))
"""The tile mask of each number (index number - 1)."""
SUIT_TILES = tuple(((1 << 10) - 1) << (10 * s) for s in range(5))

_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_OF.update({ch.lower(): i for i, ch in enumerate(SUITS)})
_SUIT_OF.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS)})
_TOKEN = re.compile(r"([THDCSthdcs★♥♦♣♠])(10|[1-9])")


def code(suit: int, number: int) -> int:
    return suit * 10 + number - 1


bits = set_bits
"""The set bits of a mask, ascending: the codes of a tile mask, the spaces of a space mask
(the same function object, so the generator's calls cost what they did)."""


tiles_of = bits
"""The codes of a tile mask, ascending (:func:`bits`)."""


def mask_of(codes) -> int:
    m = 0
    for c in codes:
        m |= 1 << c
    return m


def tiles_text(mask: int) -> str:
    """A concatenation of tokens in code order, ``-`` for none."""
    return "".join(TOKEN[c] for c in tiles_of(mask)) or "-"


def seq_text(codes) -> str:
    """Tokens in the given order (a stack, bottom first), ``-`` for none."""
    return "".join(TOKEN[c] for c in codes) or "-"


def scan_tiles(text: str, col0: int = 1) -> list[int]:
    """The codes of a concatenation of tile tokens in order (``-`` = none); columns of
    errors count from ``col0``."""

    def tile_at(text: str, i: int) -> tuple[int, int]:
        m = _TOKEN.match(text, i)
        if not m:
            ch = text[i]
            if ch in _SUIT_OF:
                raise NotationError(f"tile {ch!r} needs a number 1..10 after it",
                                    col=col0 + i + 1)
            raise NotationError(
                f"expected a tile (suit T H D C S or ★♥♦♣♠, then 1..10), got {short(text[i:])}",
                col=col0 + i,
            )
        return code(_SUIT_OF[m.group(1)], int(m.group(2))), m.end()

    return scan_tokens(text, tile_at)


def parse_tile(text: str, col0: int = 1) -> int:
    """Exactly one tile token (a draw's: read at once; anything else through
    :func:`scan_tiles`, for its errors)."""
    m = _TOKEN.match(text)
    if m is not None and m.end() == len(text):
        return code(_SUIT_OF[m.group(1)], int(m.group(2)))
    codes = scan_tiles(text, col0)
    if len(codes) != 1:
        raise NotationError(f"expected one tile, got {short(text)}", col=col0)
    return codes[0]
