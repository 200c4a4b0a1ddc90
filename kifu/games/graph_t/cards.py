"""GRAPH-T cards, plays and the bit layouts, as tables built once at import.

A *card code* 0..20 names a kind of card: the colour cards in the order red, yellow, sky
blue, purple, black and, inside a colour, by level (``R1`` = 0, ``R2`` = 1, ``Y1`` = 2 ..
``K6`` = 19), then the pure grey card ``G`` = 20. Identical cards share a code.

A *play id* (pid) is ``2 * code + side``: side 0 is the printed colour side (for ``G``, the
grey card itself), side 1 the grey side of a colour card below its top level.

Heights are in 1/60 of a card (ruling "Cards"): red 30 per level, yellow 20, sky blue 15,
purple 12, black 10; a grey side is 60 minus the colour part; the grey card is 60.

A *hand* is an int of four 21-bit layers: bit ``21 * k + code`` is set when the hand holds
more than ``k`` cards of that code, so the low layer is the set of codes present and
``int.bit_count`` of a masked hand counts cards. All hands of a game live in one int, seat
``s`` at bit ``HAND_BITS * s``.
"""

from __future__ import annotations

COLOURS = "RYBPK"
"""Colour letters: red, yellow, sky blue, purple, black."""
COLOUR_NAMES = ("red", "yellow", "sky blue", "purple", "black", "grey")
GREY = 5
"""The colour index of a grey play (and of the grey stack)."""
N_COLOURS = 6
MAX_LEVEL = (2, 3, 4, 5, 6)
UNIT = (30, 20, 15, 12, 10)
FULL = 60
LEVEL_COUNTS = ((4, 3), (3, 3, 2), (3, 3, 2, 2), (3, 3, 2, 2, 1), (3, 3, 2, 2, 1, 1))
"""Copies of each level per colour (rulebook table): 48 colour cards."""

N_CODES = 21
G = 20
"""The code of the pure grey card."""

CARD_COLOUR: tuple[int, ...]
CARD_LEVEL: tuple[int, ...]
CARD_TOKEN: tuple[str, ...]
DECK_COUNT: tuple[int, ...]
_colour, _level, _token, _count = [], [], [], []
for _c, _letter in enumerate(COLOURS):
    for _lv in range(1, MAX_LEVEL[_c] + 1):
        _colour.append(_c)
        _level.append(_lv)
        _token.append(f"{_letter}{_lv}")
        _count.append(LEVEL_COUNTS[_c][_lv - 1])
_colour.append(GREY)
_level.append(0)
_token.append("G")
_count.append(0)  # grey cards are not in the shuffled deck; one per player (ruling 1)
CARD_COLOUR = tuple(_colour)
CARD_LEVEL = tuple(_level)
CARD_TOKEN = tuple(_token)
DECK_COUNT = tuple(_count)
CODE_OF = {t: i for i, t in enumerate(CARD_TOKEN)}
IS_TOP = tuple(c != G and CARD_LEVEL[c] == MAX_LEVEL[CARD_COLOUR[c]] for c in range(N_CODES))

# --- plays ------------------------------------------------------------------------------
N_PIDS = 2 * N_CODES
PLAY_OK = tuple(
    (s == 0) or (c != G and not IS_TOP[c]) for c in range(N_CODES) for s in (0, 1)
)
"""Whether a (code, side) pair is a real play."""
PLAY_COLOUR = tuple(
    (CARD_COLOUR[c] if s == 0 else GREY) for c in range(N_CODES) for s in (0, 1)
)
PLAY_HEIGHT = tuple(
    (
        FULL
        if c == G
        else (UNIT[CARD_COLOUR[c]] * CARD_LEVEL[c] if s == 0
              else FULL - UNIT[CARD_COLOUR[c]] * CARD_LEVEL[c])
    )
    for c in range(N_CODES)
    for s in (0, 1)
)
PLAY_IS_GREY = tuple(col == GREY for col in PLAY_COLOUR)
PLAY_TOKEN = tuple(
    (CARD_TOKEN[c] + ("g" if s else "")) for c in range(N_CODES) for s in (0, 1)
)

# --- masks over codes (21 bits) -----------------------------------------------------------
LAYER = 21
LAYERS = 4
HAND_BITS = LAYER * LAYERS
PRESENCE = (1 << LAYER) - 1
HAND_MASK = (1 << HAND_BITS) - 1
LAYER_BITS = sum(1 << (LAYER * k) for k in range(LAYERS))
"""Bit 0 of each layer: ``(hand >> code) & LAYER_BITS`` is the unary count of a code."""
GBIT = 1 << G
COLOUR_CODES = PRESENCE ^ GBIT
"""The 20 colour-card codes."""
NONTOP = sum(1 << c for c in range(N_CODES) if c != G and not IS_TOP[c])
"""Codes whose card has a grey side."""
CMASK = tuple(sum(1 << c for c in range(N_CODES) if CARD_COLOUR[c] == col) for col in range(5))
"""The codes of each colour."""
CMASK_ALL = tuple(m * LAYER_BITS for m in CMASK)
"""Every layer of each colour's codes: ``(hand & CMASK_ALL[c]).bit_count()`` counts cards."""
CODE_ALL = tuple((1 << c) * LAYER_BITS for c in range(N_CODES))


def hand_from_counts(counts: list[int] | tuple[int, ...]) -> int:
    """A hand int from a count per code."""
    h = 0
    for code, k in enumerate(counts):
        for layer in range(k):
            h |= 1 << (LAYER * layer + code)
    return h


def hand_from_codes(codes: tuple[int, ...] | list[int]) -> int:
    counts = [0] * N_CODES
    for c in codes:
        counts[c] += 1
    return hand_from_counts(counts)


def hand_codes(hand: int) -> tuple[int, ...]:
    """The sorted codes held (with repeats)."""
    out: list[int] = []
    for code in range(N_CODES):
        k = (hand & CODE_ALL[code]).bit_count()
        if k:
            out.extend([code] * k)
    return tuple(out)


def remove_card(hand: int, code: int) -> int:
    """``hand`` with one card of ``code`` fewer (it must hold one)."""
    x = (hand >> code) & LAYER_BITS
    return hand ^ (1 << (code + x.bit_length() - 1))


def deck_codes(black: bool) -> tuple[int, ...]:
    """The shuffled colour deck of a variant, sorted (48 cards, or 36 without black)."""
    out: list[int] = []
    for code in range(N_CODES):
        if not black and CARD_COLOUR[code] == 4:
            continue
        out.extend([code] * DECK_COUNT[code])
    return tuple(out)


def hand_text(codes: tuple[int, ...] | list[int]) -> str:
    """Card tokens concatenated (``-`` for none)."""
    return "".join(CARD_TOKEN[c] for c in codes) or "-"


def plays_text(pids: tuple[int, ...] | list[int]) -> str:
    return "".join(PLAY_TOKEN[p] for p in pids) or "-"


def height_in_cards(height: int) -> str:
    """A height in 1/60 of a card written as the rulebook measures it, in cards (its table
    gives a level of red as 1/2 a card, of black as 1/6): at most two decimals.

    >>> height_in_cards(0), height_in_cards(60), height_in_cards(144), height_in_cards(110)
    ('0', '1', '2.4', '1.83')
    """
    return f"{height / FULL:.2f}".rstrip("0").rstrip(".")
