"""Alice action text (the actor is written by the record, not here).

Element tokens: type ``n``/``v``/``a``, suit ``S H D C``, rank ``1..13`` (``nS1``, ``vC8``,
``aH12``). Slots: ``A1 N1 V A2 N2``. Actions::

    roles AQRC          dealer: the role letters dealt to p0, p1, ... (face down)
    deal H0/H1/...      dealer: every hand (opening deal; the ♥Q redeal)
    nS5                 dealer: the card a draw takes (Clean Phase; a forced verb)
    char nS3            choose a Character (setup)
    vC8@V  aH3@A1       play a card onto a slot (fill a blank, or cover)
    drink               "Drink me!"
    grow stay shrink    the Caterpillar's +1 / 0 / -1 on its side
    swap keep           the check winner's choice
    buy nS1aH2vC3 pass  the merchant (♦4): discard three for 1 SP, or not
    discard aH3         Clean Phase: discard one card
    draw n|v|a          Clean Phase: draw one card from that deck
"""

from __future__ import annotations

from kifu.core.errors import IllegalActionError, NotationError
from kifu.core.game import Action, State
from kifu.core.variant import short
from kifu.games.alice import actions as act
from kifu.games.alice.actions import CARDS, CHARS, DISCARDS, DRAWS, PLAYS, Buy, Deal, Roles
from kifu.games.alice.cards import CODE_OF, TOKEN, TOKEN_RE, TYPE_LETTERS, scan_cards
from kifu.games.alice.state import SLOTS, AliceState

EXAMPLES = "aH3@A1, vC8@V, drink, char nS3, discard aH3, draw n, buy ..., pass, swap, keep"
_WORDS: dict[str, Action] = {
    "drink": act.DRINK, "pass": act.PASS, "swap": act.SWAP_TAKE, "keep": act.SWAP_KEEP,
    "grow": act.ADJUSTS[1], "stay": act.ADJUSTS[0], "shrink": act.ADJUSTS[-1],
}
_WORD_OF = {action: word for word, action in _WORDS.items()}
"""The actions written as one word (every Drink, Pass, Adjust and Swap), and their words."""
_CARD_WORD = {act.Card: "", act.Char: "char ", act.Discard: "discard "}
"""The actions written as a word (or none) and the card they name."""
_SLOT_OF = {s: i for i, s in enumerate(SLOTS)}


def _card(text: str, col: int) -> int:
    m = TOKEN_RE.fullmatch(text)
    if not m:
        raise NotationError(
            f"expected a card like nS1, vC8 or aH12 (type n/v/a, suit S/H/D/C, rank 1..13), "
            f"got {short(text)}", col=col)
    return CODE_OF[text]


def _one_arg(parts: list[str], usage: str) -> str:
    if len(parts) != 2:
        raise NotationError(f"expected '{usage}'", col=1)
    return parts[1]


def parse_action(state: State, text: str) -> Action:
    assert isinstance(state, AliceState)
    parts = text.split(" ")
    if not text or any(not p for p in parts):
        raise NotationError(f"expected an action ({EXAMPLES}), got {short(text)}", col=1)
    w = parts[0]
    if w in _WORDS:
        if len(parts) != 1:
            raise NotationError(f"{short(w)} takes no argument", col=len(w) + 1)
        return _WORDS[w]
    if w == "char":
        return CHARS[_card(_one_arg(parts, "char nS3"), 6)]
    if w == "discard":
        return DISCARDS[_card(_one_arg(parts, "discard aH3"), 9)]
    if w == "draw":
        arg = _one_arg(parts, "draw n|v|a")
        if len(arg) != 1 or arg not in TYPE_LETTERS:
            raise NotationError(f"draw takes a deck letter n, v or a, not {short(arg)}", col=6)
        return DRAWS[TYPE_LETTERS.index(arg)]
    if w == "buy":
        arg = _one_arg(parts, "buy <three cards>")
        codes = scan_cards(arg, 5)
        if len(codes) != 3 or len(set(codes)) != 3:
            raise NotationError("buy names three different cards, e.g. buy nS1aH2vC3", col=5)
        return Buy(tuple(sorted(codes)))  # type: ignore[arg-type]
    if w == "roles":
        arg = _one_arg(parts, "roles <one letter per seat>")
        letters = state._tb.role_letters
        out = []
        for i, ch in enumerate(arg):
            if ch not in letters:
                raise NotationError(f"unknown role {ch!r} (this card set: {letters})",
                                    col=7 + i)
            out.append(letters.index(ch))
        if len(set(out)) != len(out):
            raise IllegalActionError("each role is dealt once", rule="alice 1: setup")
        return Roles(tuple(out))
    if w == "deal":
        arg = _one_arg(parts, "deal <hand0>/<hand1>/...")
        hands = []
        col = 6
        for part in arg.split("/"):
            if not part:
                raise NotationError("empty hand in the deal (use - for none)", col=col)
            hands.append(tuple(sorted(scan_cards(part, col))))
            col += len(part) + 1
        return Deal(tuple(hands))
    if len(parts) != 1:
        raise NotationError(f"expected an action ({EXAMPLES}), got {short(text)}", col=1)
    card, at, slot = w.partition("@")
    if not TOKEN_RE.fullmatch(card):
        if TOKEN_RE.match(card) is None:
            raise NotationError(f"expected an action ({EXAMPLES}), got {short(text)}", col=1)
        _card(card, 1)
    code = CODE_OF[card]
    if not at:
        return CARDS[code]
    if slot not in _SLOT_OF:
        raise NotationError(f"expected a slot A1, N1, V, A2 or N2 after @, got {short(slot)}",
                            col=len(card) + 2)
    return PLAYS[code][_SLOT_OF[slot]]


def format_action(action: Action) -> str:
    word = _WORD_OF.get(action)
    if word is not None:
        return word
    t = type(action)
    word = _CARD_WORD.get(t)
    if word is not None:
        return word + TOKEN[action.code]  # type: ignore[attr-defined]
    if t is act.Play:
        return f"{TOKEN[action.code]}@{SLOTS[action.slot]}"  # type: ignore[attr-defined]
    if t is act.Draw:
        return f"draw {TYPE_LETTERS[action.deck]}"  # type: ignore[attr-defined]
    if t is Buy:
        return "buy " + "".join(TOKEN[c] for c in action.cards)  # type: ignore[attr-defined]
    if t is Deal:
        return "deal " + "/".join("".join(TOKEN[c] for c in h) or "-"
                                  for h in action.hands)  # type: ignore[attr-defined]
    raise TypeError(f"not an Alice action (roles need the state): {action!r}")


def format_roles(state: AliceState, action: Roles) -> str:
    return "roles " + "".join(state._tb.role_letters[r] for r in action.roles)
