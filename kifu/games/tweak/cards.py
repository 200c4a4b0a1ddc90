"""TWEAK components as small ints, with tables built once at import.

Number cards: ``code = colour * 6 + (face - 1)`` (0..35), colours in the order
red, orange, yellow, green, blue, purple. T! cards: 36 Thief, 37 Joker, 38 Shifter, 39 Bomb.
Copies with the same colour and face are the same card (ruling 1), so zones are sorted
tuples of codes (multisets).
"""

from __future__ import annotations

import sys

from kifu.core.codes import bad_pair_at, split_pairs

COLOURS = "ROYGBP"
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")
FACES_PER_COLOUR = (1, 1, 2, 2, 3, 3, 4, 5, 6)

THIEF, JOKER, SHIFTER, BOMB = 36, 37, 38, 39
T_LETTERS = "TJSB"
T_NAMES = ("Thief", "Joker", "Shifter", "Bomb")
N_CODES = 40

FACE = tuple([c % 6 + 1 for c in range(36)] + [0, 0, 0, 0])
COLOUR = tuple([c // 6 for c in range(36)] + [-1, -1, -1, -1])


def _points(code: int) -> int:
    """Ruling 10: plain 1; T! 2; red (not 5) 3; 5 (not red) 4; red 5: 5."""
    if code >= THIEF:
        return 2
    red, five = COLOUR[code] == 0, FACE[code] == 5
    if red and five:
        return 5
    if red:
        return 3
    if five:
        return 4
    return 1


POINTS = tuple(_points(c) for c in range(N_CODES))


def default_back(code: int) -> int:
    """Ruling 1's default back table: ``7 + ((face + colour) mod 4)``."""
    return 7 + ((FACE[code] + COLOUR[code]) % 4)


DEFAULT_BACKS = tuple(default_back(c) for c in range(36))

TOKEN = tuple([f"{COLOURS[c // 6]}{c % 6 + 1}" for c in range(36)] + [f"!{t}" for t in T_LETTERS])
CODE_OF = {t: i for i, t in enumerate(TOKEN)}


def card_token(code: int) -> str:
    return TOKEN[code]


def cards_text(codes: tuple[int, ...] | list[int]) -> str:
    """Cards concatenated (``R1O3!J``), ``-`` for none."""
    return "".join([TOKEN[c] for c in codes]) or "-"


_ANY_CASE = {
    a + b: code
    for token, code in CODE_OF.items()
    for a in {token[0], token[0].lower()}
    for b in {token[1], token[1].lower()}
}
"""Every ASCII spelling of each card token (``r1``, ``!j``...) -> its code."""


_PAIR_CODE = {int.from_bytes(k.encode("ascii"), sys.byteorder): v for k, v in _ANY_CASE.items()}
"""``_ANY_CASE`` keyed by the two ASCII bytes of each spelling read as one native 16-bit int
(how ``memoryview.cast("H")`` reads them), so a token text splits without slicing it."""


def split_cards(text: str) -> list[int] | None:
    """The codes of a concatenation of card tokens (``-`` = none); None if malformed."""
    if text == "-":
        return []
    if not len(text) & 1 and text.isascii():
        # the fast way: every two bytes at once (a deal's 36 cards in one pass; hot path:
        # benchmarks/test_validate.py::test_parse_corpus; pinned to split_pairs by
        # tests/test_validate2_tweak_step.py::test_split_cards_fast_way_agrees_with_the_token_way)
        out = list(map(_PAIR_CODE.get, memoryview(text.encode("ascii")).cast("H")))
        if None not in out:
            return out  # type: ignore[return-value]
    return split_pairs(text, CODE_OF)  # the general way: str.upper() maps a few non-ASCII


def bad_token_at(text: str) -> int:
    """1-based column of the first malformed card token in a concatenation."""
    return bad_pair_at(text, CODE_OF)


def colours_for(players: int) -> str:
    """Ruling 2: 2-3 players ROYG, 4 players ROYGB, 5-6 all six."""
    if players <= 3:
        return "ROYG"
    if players == 4:
        return "ROYGB"
    return "ROYGBP"


def number_deck(colours: str) -> tuple[int, ...]:
    """The number cards of the chosen colours, sorted."""
    idx = sorted(COLOURS.index(c) for c in colours)
    return tuple(c * 6 + f - 1 for c in idx for f in FACES_PER_COLOUR)


THRESHOLDS = {2: 140, 3: 120, 4: 100, 5: 80, 6: 60}
