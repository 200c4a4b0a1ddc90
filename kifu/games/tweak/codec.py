"""TWEAK action text and position lines.

Actions (the actor is written by the record, not here)::

    R3            place R3 on the table (also a Bomb victim's card)
    R3xO1Y2       capture: play R3, take O1 and Y2 (taken cards in canonical order)
    !J+  !J-      use the Joker (target +1 / -1)
    !S            use the Shifter
    !T p2         use the Thief on p2
    !B            use the Bomb
    pass          the lost turn of an empty hand
    dealer p2     dealer: the first round's dealer
    deal <deck> <T! pile>   dealer: the shuffled deck and T! pile, top first
    steal R3      dealer: the card the Thief draws

Card tokens: colour letter (R O Y G B P) and face (1-6); T! cards ``!T !J !S !B``.
Input is case-insensitive; output is canonical.
"""

from __future__ import annotations

import re

from kifu.core.errors import NotationError
from kifu.core.game import Action
from kifu.core.variant import short
from kifu.games.tweak import actions as act
from kifu.games.tweak.actions import PLACE, Capture
from kifu.games.tweak.cards import (
    CODE_OF,
    COLOURS,
    T_LETTERS,
    THIEF,
    TOKEN,
    bad_token_at,
    cards_text,
    split_cards,
)

_SEAT = re.compile(r"[pP](0|[1-9][0-9]{0,5})\Z")
"""A seat: ASCII digits only, at most 6 (a larger seat is no seat of any game)."""


def _seat(text: str, col: int) -> int:
    m = _SEAT.match(text)
    if not m:
        raise NotationError(f"expected a seat like p1, got {short(text)}", col=col)
    return int(m.group(1))


def _seat_argument(parts: list[str], usage: str) -> int:
    """The seat of a two-token action (``dealer p2``, ``!T p2``)."""
    if len(parts) != 2:
        raise NotationError(usage, col=1)
    return _seat(parts[1], len(parts[0]) + 2)


_BARE_T = {"!J+": act.JOKER_UP, "!J-": act.JOKER_DOWN, "!S": act.SHIFT, "!B": act.BOMB_ALL}
"""The T! actions that take no argument."""
_WORD_OF = {action: word for word, action in {**_BARE_T, "pass": act.PASS}.items()}
"""The actions written as one word, and their words."""


def _card(text: str, col: int, what: str = "card") -> int:
    code = CODE_OF.get(text.upper())
    if code is None or code >= THIEF:
        raise NotationError(f"expected a {what} like R3, got {short(text)}", col=col)
    return code


_CAPTURE = re.compile(r"([ROYGBProygbp][1-6])[xX]((?:[ROYGBProygbp][1-6])+)\Z")
"""A capture of number cards, the commonest text that is not memoised yet: read at once
(the general way below gives the same action)."""


_NOT = 255
_COLOUR_BYTE = bytes(
    6 * COLOURS.index(chr(b).upper()) if chr(b).upper() in COLOURS and chr(b).isalpha() else _NOT
    for b in range(256)
)
"""A token's first byte -> 6 * its colour (either case); any other byte -> 255."""
_FACE_BYTE = bytes(b - ord("1") if ord("1") <= b <= ord("6") else _NOT for b in range(256))
"""A token's second byte -> its face - 1; any other byte -> 255."""


def _number_cards(text: str) -> tuple[int, ...] | None:
    """The codes of a concatenation of number-card tokens (``colour * 6 + face - 1``), or
    None for anything else (the general way then reads it and names the error). The
    colour bytes and the face bytes are each translated at once, and the two byte strings
    added as ints (each sum is below 36: no carry)."""
    if text and not len(text) & 1 and text.isascii():
        b = text.encode("ascii")
        colours = b[0::2].translate(_COLOUR_BYTE)
        faces = b[1::2].translate(_FACE_BYTE)
        if _NOT not in colours and _NOT not in faces:
            return tuple(
                (int.from_bytes(colours, "little") + int.from_bytes(faces, "little")).to_bytes(
                    len(colours), "little"
                )
            )
    return None


_T_LETTER_BYTE = bytes(
    THIEF + T_LETTERS.index(chr(b).upper()) if chr(b).isalpha() and chr(b).upper() in T_LETTERS
    else _NOT
    for b in range(256)
)
"""A T! token's second byte -> the card's code (either case); any other byte -> 255."""


def _t_cards(text: str) -> tuple[int, ...] | None:
    """The codes of a concatenation of T! card tokens (``!T !J !S !B``, any case), or
    None for anything else (the general way then reads it and names the error)."""
    if text and not len(text) & 1 and text.isascii():
        b = text.encode("ascii")
        if b[0::2].count(b"!") * 2 == len(b):
            codes = b[1::2].translate(_T_LETTER_BYTE)
            if _NOT not in codes:
                return tuple(codes)
    return None


def parse_action(text: str) -> Action:
    """The action written as ``text`` (raises :class:`NotationError`, col 1-based)."""
    m = _CAPTURE.match(text)
    if m:
        taken = split_cards(m[2])
        return Capture(CODE_OF[m[1].upper()], tuple(sorted(taken)))  # type: ignore[arg-type]
    if not (text.isascii() and text.isprintable()):  # "!ſ".upper() would be "!S"
        at = next(i for i, c in enumerate(text) if not " " <= c <= "~")
        raise NotationError(f"an action is printable ASCII; {text[at]!r} is not", col=at + 1)
    parts = text.split()
    if not parts:
        raise NotationError("empty action", col=1)
    head = parts[0]
    low = head.lower()
    if low == "pass" and len(parts) == 1:
        return act.PASS
    if low == "dealer":
        seat = _seat_argument(parts, "expected: dealer p<seat>")
        return act.DEALER_IS[seat] if seat < len(act.DEALER_IS) else act.ChooseDealer(seat)
    if low == "steal":
        if len(parts) != 2:
            raise NotationError("expected: steal <card>", col=1)
        return act.STEAL[_card(parts[1], len(head) + 2)]
    if low == "deal":
        if len(parts) != 3:
            raise NotationError("expected: deal <deck cards> <T! cards>", col=1)
        deck = _number_cards(parts[1])
        if deck is None:  # the general way, and its errors
            deck = split_cards(parts[1])
            col2 = len(head) + 2
            if deck is None or (deck and max(deck) >= THIEF):
                raise NotationError(f"bad deck card in {short(parts[1])}",
                                    col=col2 + bad_token_at(parts[1]) - 1)
        tp = _t_cards(parts[2])
        if tp is None:  # the general way, and its errors
            tp = split_cards(parts[2])
            col3 = len(head) + 2 + len(parts[1]) + 1
            if tp is None or (tp and min(tp) < THIEF):
                raise NotationError(f"bad T! card in {short(parts[2])} (expected !T !J !S !B)",
                                    col=col3 + bad_token_at(parts[2]) - 1)
            tp = tuple(tp)
        return act.Deal(tuple(deck), tp)
    up = head.upper()
    if up.startswith("!"):
        bare = _BARE_T.get(up)
        if bare is not None and len(parts) == 1:
            return bare
        if up == "!T":
            seat = _seat_argument(parts, "the Thief names its victim: !T p<seat>")
            return act.THIEF_ON[seat] if seat < len(act.THIEF_ON) else act.UseThief(seat)
        raise NotationError(
            f"unknown T! action {short(head)} (expected !J+, !J-, !S, !T p<seat> or !B)", col=1
        )
    if len(parts) != 1:
        raise NotationError(f"unexpected {short(parts[1])} after {short(head)}", col=len(head) + 2)
    if "X" not in up:
        return PLACE[_card(head, 1)]
    card_text, _, rest = up.partition("X")
    card = _card(card_text, 1)
    if not rest:
        return Capture(card, ())
    taken = split_cards(rest)
    col = len(card_text) + 2
    if taken is None or (taken and max(taken) >= THIEF):
        at = bad_token_at(rest) if taken is None else next(
            2 * i + 1 for i, c in enumerate(taken) if c >= THIEF
        )
        token = head[col - 1 + at - 1 : col - 1 + at + 1]
        raise NotationError(f"bad table card {token!r} in {short(head)}", col=col + at - 1)
    return Capture(card, tuple(sorted(taken)))


def format_action(action: Action) -> str:
    word = _WORD_OF.get(action)
    if word is not None:
        return word
    t = type(action)
    if t is act.Place:
        return TOKEN[action.card]
    if t is Capture:
        return TOKEN[action.card] + "x" + "".join(TOKEN[c] for c in action.taken)
    if t is act.UseThief:
        return f"!T p{action.victim}"
    if t is act.Steal:
        return f"steal {TOKEN[action.card]}"
    if t is act.ChooseDealer:
        return f"dealer p{action.seat}"
    if t is act.Deal:
        return f"deal {cards_text(action.deck)} {cards_text(action.tpile)}"
    raise TypeError(f"not a TWEAK action: {action!r}")
