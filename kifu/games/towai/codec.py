"""TOWAI action text (the actor is written by the record, not here)::

    day D5  night T3     lead onto an empty field: the side set, then the card
    D5                   follow (the first play of a turn)
    +D5                  continue a combo (a later play of the same turn)
    stop                 end the turn after playing
    pass                 pass and draw one card
    give N2              a Swap choice: the card set aside for the previous seat
    first p2             dealer: round 1's first player
    deal <h0>/<h1>/... <deck>   dealer: a round's shuffle: each seat's 7 cards, the deck
    rebuild <deck>       dealer: the new deck from the field under its top and the discards

Card tokens: ``D3``..``D7`` (Day), ``N1``..``N5`` (Night), ``T1``..``T7`` (Twai). Input is
case-insensitive; output is canonical. A deck lists its cards top first, concatenated.
"""

from __future__ import annotations

import re

from kifu.core.errors import IllegalActionError, NotationError
from kifu.core.game import Action, State
from kifu.core.variant import short
from kifu.games.towai import actions as act
from kifu.games.towai.actions import FIRSTS, GIVES, LEADS, PLAYS, Deal, First, Rebuild
from kifu.games.towai.cards import CODE_OF, SIDE_NAME, TOKEN, bad_token_at, cards_text, split_cards
from kifu.games.towai.state import CHAIN, R_COMBO

_SEAT = re.compile(r"[pP](0|[1-9][0-9]{0,5})\Z")
"""A seat: at most 6 ASCII digits (``int()`` refuses more than 4,300)."""
_SIDES = {"day": 0, "night": 1}
_WORDS: dict[str, Action] = {"pass": act.PASS, "stop": act.STOP}
_WORD_OF = {action: word for word, action in _WORDS.items()}
EXAMPLES = "day D5, night T3, D5, +D5, stop, pass, give N2"


def _card(text: str, col: int) -> int:
    code = CODE_OF.get(text.upper())
    if code is None:
        raise NotationError(
            f"expected a card like D5, N2 or T4 (D3-D7, N1-N5, T1-T7), got {short(text)}", col=col
        )
    return code


def _cards(text: str, col: int, what: str) -> tuple[int, ...]:
    cards = split_cards(text)
    if cards is None:
        raise NotationError(f"bad card in the {what} {short(text)}",
                            col=col + bad_token_at(text) - 1)
    return tuple(cards)


def parse_action(state: State, text: str) -> Action:
    """The action written as ``text`` for ``state`` (raises :class:`NotationError` with a
    1-based ``col``; a ``+`` combo written outside a combo, or a plain card inside one,
    raises :class:`IllegalActionError`)."""
    if not (text.isascii() and text.isprintable()):  # U+00A0 is no space, "ſ" no "s"
        at = next(i for i, c in enumerate(text) if not " " <= c <= "~")
        raise NotationError(f"an action is printable ASCII; {text[at]!r} is not", col=at + 1)
    parts = text.split()
    if not parts:
        raise NotationError(f"empty action (expected {EXAMPLES})", col=1)
    head = parts[0]
    low = head.lower()
    col2 = len(head) + 2
    if low in _WORDS:
        if len(parts) != 1:
            raise NotationError(f"unexpected {short(parts[1])} after {short(head)}", col=col2)
        return _WORDS[low]
    if low in _SIDES:
        if len(parts) != 2:
            raise NotationError(f"a lead is: {low} <card>", col=1)
        return LEADS[_SIDES[low]][_card(parts[1], col2)]
    if low == "give":
        if len(parts) != 2:
            raise NotationError("a Swap choice is: give <card>", col=1)
        return GIVES[_card(parts[1], col2)]
    if low == "first":
        m = _SEAT.match(parts[1]) if len(parts) == 2 else None
        if not m:
            raise NotationError("expected: first p<seat>", col=col2 if len(parts) > 1 else 1)
        seat = int(m.group(1))
        return FIRSTS[seat] if seat < len(FIRSTS) else First(seat)
    if low == "deal":
        if len(parts) != 3:
            raise NotationError("expected: deal <hand0>/<hand1>/... <deck>", col=1)
        hands = []
        col = col2
        for part in parts[1].split("/"):
            hands.append(tuple(sorted(_cards(part, col, "hand"))))
            col += len(part) + 1
        deck = _cards(parts[2], col2 + len(parts[1]) + 1, "deck")
        return Deal(tuple(hands), deck)
    if low == "rebuild":
        if len(parts) != 2:
            raise NotationError("expected: rebuild <deck>", col=1)
        return Rebuild(_cards(parts[1], col2, "deck"))
    if len(parts) != 1:
        raise NotationError(
            f"unexpected {short(parts[1])} after {short(head)} (expected {EXAMPLES})", col=col2)
    combo = head.startswith("+")
    card = _card(head[1:] if combo else head, 2 if combo else 1)
    chain = getattr(state, "phase", None) == CHAIN
    if combo and not chain:
        raise IllegalActionError(
            f"+{TOKEN[card]} continues a combo, but no combo is going on: a turn's first play "
            f"is written {TOKEN[card]}", rule=R_COMBO)
    if chain and not combo:
        raise IllegalActionError(
            f"p{state.mover} is in a combo: continue it with +{TOKEN[card]}, or stop",  # type: ignore[attr-defined]
            rule=R_COMBO)
    return PLAYS[card]


def format_action(state: State, action: Action) -> str:
    word = _WORD_OF.get(action)
    if word is not None:
        return word
    t = type(action)
    if t is act.Play:
        plus = "+" if getattr(state, "phase", None) == CHAIN else ""
        return plus + TOKEN[action.card]  # type: ignore[attr-defined]
    if t is act.Lead:
        return f"{SIDE_NAME[action.side]} {TOKEN[action.card]}"  # type: ignore[attr-defined]
    if t is act.Give:
        return f"give {TOKEN[action.card]}"  # type: ignore[attr-defined]
    if t is First:
        return f"first p{action.seat}"  # type: ignore[attr-defined]
    if t is Deal:
        return ("deal " + "/".join(cards_text(sorted(h)) for h in action.hands)  # type: ignore[attr-defined]
                + " " + cards_text(action.deck))  # type: ignore[attr-defined]
    if t is Rebuild:
        return f"rebuild {cards_text(action.deck)}"  # type: ignore[attr-defined]
    raise TypeError(f"not a TOWAI action: {action!r}")
