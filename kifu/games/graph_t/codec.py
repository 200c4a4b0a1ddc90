"""GRAPH-T action text: card and play tokens, ``deal``, ``lead``.

Tokens: ``R1 R2 Y1..Y3 B1..B4 P1..P5 K1..K6`` (colour letter + level) and ``G`` for the
pure grey card; a play is a card token (its colour side), a card token + ``g`` (its grey
side, e.g. ``K2g``) or ``G``. Colour letters may be lowercase. In a concatenated list a
``g`` or ``G`` right after a card's level means that card's grey side only when lowercase;
an uppercase ``G`` there starts the grey card. Columns in errors are 1-based in the text.
"""

from __future__ import annotations

import re
import sys

from kifu.core.codes import scan_tokens
from kifu.core.errors import IllegalActionError, NotationError
from kifu.core.game import Action
from kifu.core.variant import short
from kifu.games.graph_t.actions import PLAYS, Deal, Lead, Play
from kifu.games.graph_t.cards import (
    CARD_TOKEN,
    COLOUR_NAMES,
    COLOURS,
    MAX_LEVEL,
    PLAY_OK,
    PLAY_TOKEN,
    G,
)

_FIRST_CODE = {}
_code = 0
for _c, _letter in enumerate(COLOURS):
    _FIRST_CODE[_letter] = _code
    _code += MAX_LEVEL[_c]

_SEAT = re.compile(r"p(0|[1-9][0-9]{0,5})\Z")
"""A seat: ASCII digits only, at most 6."""

EXAMPLES = "R1, K2g, G, 'deal R1R1.../B2.../...' or 'lead p0'"


def _card_at(text: str, i: int, col0: int) -> tuple[int, int]:
    """The card code of the token at ``text[i]`` and the index after it."""
    ch = text[i]
    if ch in "Gg":
        return G, i + 1
    up = ch.upper()
    if up not in _FIRST_CODE:
        raise NotationError(
            f"expected a card (R1..R2, Y1..Y3, B1..B4, P1..P5, K1..K6 or G), got {ch!r}",
            col=col0 + i,
        )
    colour = COLOURS.index(up)
    if i + 1 >= len(text) or text[i + 1] not in "0123456789":
        raise NotationError(f"card {ch!r} needs a level digit after it", col=col0 + i + 1)
    level = int(text[i + 1])
    if not 1 <= level <= MAX_LEVEL[colour]:
        raise NotationError(
            f"no card {up}{level}: {COLOUR_NAMES[colour]} has levels 1..{MAX_LEVEL[colour]}",
            col=col0 + i,
        )
    return _FIRST_CODE[up] + level - 1, i + 2


_PAIR_CODE: dict[str, int] = {
    f"{letter}{level}": _FIRST_CODE[letter.upper()] + level - 1
    for c, up in enumerate(COLOURS)
    for letter in (up, up.lower())
    for level in range(1, MAX_LEVEL[c] + 1)
}
"""Two-character colour-card tokens (either case) -> code: the fast path of scan_cards."""
_PAIR_CODE16 = {int.from_bytes(k.encode("ascii"), sys.byteorder): v for k, v in _PAIR_CODE.items()}
"""``_PAIR_CODE`` keyed by a token's two bytes read as one native 16-bit int (as
``memoryview.cast("H")`` reads them)."""


_NOT = 255
_BASE_BYTE = bytes(
    _FIRST_CODE[chr(b).upper()] if chr(b).upper() in COLOURS and chr(b).isalpha() else _NOT
    for b in range(256)
)
"""A token's first byte -> the code of its colour's level 1 (either case); else 255."""
_TOP_BYTE = bytes(
    MAX_LEVEL[COLOURS.index(chr(b).upper())] - 1 if chr(b).upper() in COLOURS
    and chr(b).isalpha() else 0
    for b in range(256)
)
"""A token's first byte -> its colour's top level - 1 (the largest level - 1 allowed)."""
_LEVEL_BYTE = bytes(b - ord("1") if ord("1") <= b <= ord("9") else _NOT for b in range(256))
"""A token's second byte -> its level - 1; any other byte -> 255."""


def _colour_cards(text: str) -> list[int] | None:
    """The codes of a concatenation of colour-card tokens (any case), or None for anything
    else (the grey card, a bad token: the checked way reads those). The first and second
    bytes are each translated at once; a level above its colour's top is found by adding
    128 to each (top - 1) byte and subtracting the (level - 1) byte (each byte stays in
    123..133: no borrow), and the codes by adding the level-1 codes to the levels - 1."""
    if not text or len(text) & 1 or not text.isascii():
        return None
    b = text.encode("ascii")
    firsts, seconds = b[0::2], b[1::2]
    base = firsts.translate(_BASE_BYTE)
    level = seconds.translate(_LEVEL_BYTE)
    if _NOT in base or _NOT in level:
        return None
    k = len(base)
    lv = int.from_bytes(level, "little")
    guard = int.from_bytes(b"\x80" * k, "little")
    if (int.from_bytes(firsts.translate(_TOP_BYTE), "little") + guard - lv) & guard != guard:
        return None  # a level above its colour's top
    return list((int.from_bytes(base, "little") + lv).to_bytes(k, "little"))


def scan_cards(text: str, col0: int = 1) -> list[int]:
    """The card codes of a concatenated list of card tokens (``-`` = none)."""
    if text == "-":
        return []
    if not len(text) & 1 and text.isascii():
        # (hot-path copy of tweak.cards.split_cards' fast way: benchmarks/test_validate.py::
        # test_parse_corpus; tests/test_validate3_deal.py pins it to the token-by-token way)
        # The fast path: colour-card tokens only, two characters each, read two bytes at a
        # time. Anything else (the grey card, a bad token) goes the checked way below, from
        # the start.
        fast = list(map(_PAIR_CODE16.get, memoryview(text.encode("ascii")).cast("H")))
        if None not in fast:
            return fast  # type: ignore[return-value]
    return scan_tokens(text, lambda text, i: _card_at(text, i, col0))


def scan_plays(text: str, col0: int = 1) -> list[int]:
    """The pids of a concatenated list of play tokens (``-`` = none)."""

    def play_at(text: str, start: int) -> tuple[int, int]:
        code, i = _card_at(text, start, col0)
        side = 0
        if code != G and i < len(text) and text[i] == "g":
            side = 1
            i += 1
        pid = 2 * code + side
        if not PLAY_OK[pid]:
            raise NotationError(
                f"{CARD_TOKEN[code]} is a top-level card: it has no grey side",
                col=col0 + start,
            )
        return pid, i

    return scan_tokens(text, play_at)


def parse_play(text: str) -> Play:
    """One play token (any case: ``k2G`` is K2's grey side)."""
    code, i = _card_at(text, 0, 1)
    side = 0
    if i < len(text) and code != G and text[i] in "gG":
        side = 1
        i += 1
    if i < len(text):
        raise NotationError(
            f"unexpected {short(text[i:])} after the play {text[:i]!r}: a play is one card",
            col=i + 1,
        )
    play = PLAYS[2 * code + side]
    if play is None:
        raise IllegalActionError(
            f"{CARD_TOKEN[code]} is a top-level card: it has no grey side",
            rule="graph-t cards: a top-level card has no grey side",
        )
    return play


def parse_action(text: str) -> Action:
    if not (text.isascii() and text.isprintable()):
        at = next(i for i, c in enumerate(text) if not " " <= c <= "~")
        raise NotationError(f"an action is printable ASCII; {text[at]!r} is not", col=at + 1)
    word, sp, rest = text.partition(" ")
    low = word.lower()
    if low == "deal":
        if not sp or not rest:
            raise NotationError("deal needs the hands: deal <hand0>/<hand1>/...", col=5)
        if " " in rest:
            raise NotationError("the hands of a deal are one token, joined by /",
                                col=5 + rest.index(" ") + 1)
        parts = rest.split("/")
        if all(part and not len(part) & 1 for part in parts):
            # colour cards only, every hand read at once (the pairs line up: no hand has
            # an odd length), then cut into hands
            every = _colour_cards("".join(parts))
            if every is not None:
                hands = []
                at = 0
                for part in parts:
                    k = at + len(part) // 2
                    hands.append(tuple(sorted(every[at:k])))
                    at = k
                return Deal(tuple(hands))
        hands = []
        col = 6
        for part in parts:
            fast = _colour_cards(part)  # colour cards only: the fast way
            if fast is not None:
                fast.sort()
                hands.append(tuple(fast))
                col += len(part) + 1
                continue
            if not part:
                raise NotationError("empty hand in the deal (use - for none)", col=col)
            codes = scan_cards(part, col)
            if G in codes:
                raise NotationError(
                    "a deal lists colour cards only (each player's grey card is implied)",
                    col=col + part.upper().index("G"),
                )
            hands.append(tuple(sorted(codes)))
            col += len(part) + 1
        return Deal(tuple(hands))
    if low == "lead":
        seat_text = rest.lower()
        if not sp or not _SEAT.match(seat_text):
            raise NotationError(f"lead needs a seat p0, p1, ..., got {short(rest)}", col=6)
        return Lead(int(seat_text[1:]))
    if sp:
        raise NotationError(f"a play is one token, got {short(text)}", col=len(word) + 1)
    if not text:
        raise NotationError(f"expected an action ({EXAMPLES})", col=1)
    try:
        return parse_play(text)
    except NotationError as e:
        if e.col == 1 and text[0].upper() not in COLOURS + "G":
            raise NotationError(
                f"expected a play or a dealer action ({EXAMPLES}), got {short(text)}", col=1
            ) from None
        raise


def format_action(action: Action) -> str:
    t = type(action)
    if t is Play:
        return PLAY_TOKEN[action.pid]  # type: ignore[attr-defined]
    if t is Deal:
        return "deal " + "/".join(
            "".join(CARD_TOKEN[c] for c in sorted(h)) or "-"
            for h in action.hands  # type: ignore[attr-defined]
        )
    if t is Lead:
        return f"lead p{action.seat}"  # type: ignore[attr-defined]
    raise TypeError(f"not a GRAPH-T action: {action!r}")
