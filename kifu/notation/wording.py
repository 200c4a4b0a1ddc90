"""Answers in plain words and in the picture's units.

A question's answer text is exact and made for machines (``place 2 shared 1 tallest 417
second 0``, ``possible p=1/2``); :func:`answer_words` says the same thing as a player would,
in the units the page's picture uses: GRAPH-T heights in cards (the picture prints stack
heights in cards, not in the sixtieths the answer counts), odds as "a 1 in 2 chance".
The exact text is kept wherever it is data (JSON, the ``Answer`` header); the words go
beside it on pages, in ``kifu solve``'s text output and in the comments of generated and
mined puzzles. Every registered question has its words (a test checks each fixture
answer and each first-action value of the fixtures).
"""

from __future__ import annotations

import re
from fractions import Fraction

from kifu.core.errors import KifuError

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
_DD = re.compile(r"place ([0-9]+) shared ([0-9]+) tallest ([0-9]+) second ([0-9]+)\Z")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``..."""
    return _ORDINAL.get(n, f"{n}th")


def odds_words(p: str) -> str:
    """A probability ``A/B`` (or ``0``, ``1``) as a player says it: "a 1 in 2 chance"."""
    f = Fraction(p)
    if f == 0:
        return "no chance against the best defence"
    if f == 1:
        return "certain"
    return f"a {f.numerator} in {f.denominator} chance"


def cards_words(sixtieths: int) -> str:
    """A GRAPH-T height (sixtieths of a card, as answers and ``Result`` count) in cards, as
    the picture prints it: ``417`` -> ``6.95 cards``, ``60`` -> ``1 card``."""
    from kifu.games.graph_t.cards import height_in_cards

    text = height_in_cards(sixtieths)
    return f"{text} card" + ("" if text == "1" else "s")


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def answer_words(question: str, answer: str | None) -> str:
    """The answer (or a first action's value, in the same form) of ``question`` in plain
    words. An answer the question does not write (``unknown``, None) is said as such."""
    if answer is None:
        return "no answer given"
    if answer == "unknown":
        return "unknown (the search ran out of its budget)"
    name, _, arg = question.partition(" ")
    try:
        return _WORDS[name](answer, arg)
    except KeyError:
        return answer
    except (ValueError, IndexError, ZeroDivisionError):
        raise KifuError(f"{question}: not an answer of this question: {answer!r}") from None


def _this_turn(answer: str, arg: str) -> str:
    if answer == "forced":
        return "a TWEAK for certain, whatever the others do and whatever is drawn"
    if answer.startswith("possible p="):
        p = answer[len("possible p="):]
        if Fraction(p) == 0:
            return "a TWEAK only if the others let you: no chance against their best defence"
        return f"a TWEAK with {odds_words(p)} (the draw at random, the others against you)"
    if answer == "no":
        return "no TWEAK this turn, whatever anyone does"
    raise ValueError(answer)


def _within(answer: str, arg: str) -> str:
    if answer.startswith("yes turns="):
        k = int(answer.split("=", 1)[1])
        return f"a TWEAK forced within {_plural(k, 'turn')} of yours"
    if answer == "no":
        return f"no TWEAK can be forced within {_plural(int(arg or 0), 'turn')}"
    raise ValueError(answer)


def _points(answer: str, arg: str) -> str:
    if not answer.startswith("points="):
        raise ValueError(answer)
    return _plural(int(answer.split("=", 1)[1]), "point")


def _best_points(answer: str, arg: str) -> str:
    return f"{_points(answer, arg)} secured this round, whatever the others do"


def _dd(answer: str, arg: str) -> str:
    m = _DD.match(answer)
    if not m:
        raise ValueError(answer)
    place, shared, tallest, second = (int(x) for x in m.groups())
    where = f"{ordinal(place)} place"
    if shared > 1:
        where += f" shared with {_plural(shared - 1, 'other player')}"
    if tallest == 0:
        return f"{where}, with no stack"
    if second == 0:
        return f"{where}, your tallest stack {cards_words(tallest)}, no second stack"
    return (f"{where}, your tallest stack {cards_words(tallest)}, the second "
            f"{cards_words(second)}")


def _yes_no(yes: str, no: str):
    def words(answer: str, arg: str) -> str:
        if answer == "yes":
            return yes
        if answer == "no":
            return no
        raise ValueError(answer)
    return words


def _lianxian_best(answer: str, arg: str) -> str:
    return f"{_points(answer, arg)} this turn"


def _least_bonus(answer: str, arg: str) -> str:
    if answer == "none":
        return f"no placement scores {_plural(int(arg or 0), 'point')} or more"
    if not answer.startswith("bonus="):
        raise ValueError(answer)
    b = int(answer.split("=", 1)[1])
    return (f"{_plural(b, 'bonus point')} given to the opponents, scoring at least "
            f"{_plural(int(arg or 0), 'point')}")


_WORDS = {
    "tweak-this-turn": _this_turn,
    "tweak-within": _within,
    "best-points": _best_points,
    "double-dummy": _dd,
    "towai-out-this-turn": _yes_no("you go out (your last card played) this turn",
                                   "you cannot go out this turn"),
    "towai-win-round": _yes_no("you win the round whatever the others do",
                               "the others can stop you winning the round"),
    "alice-bard-wins": _yes_no("the Bard wins this turn's check whatever the others do",
                               "the others can stop the Bard winning the check"),
    "lianxian-best": _lianxian_best,
    "lianxian-finish": _yes_no("your pawn reaches the finish line this turn",
                               "your pawn cannot reach the finish line this turn"),
    "lianxian-least-bonus": _least_bonus,
}
"""Every registered question's words (a test checks that none is missing)."""


def value_words(question: str, value: str, answer: str | None) -> str:
    """A first action's value in words, and whether it reaches the answer."""
    words = answer_words(question, value)
    if answer is None or answer == "unknown":
        return words
    return words + (" (reaches the answer)" if value == answer else " (falls short)")


# --- actions ------------------------------------------------------------------------------

_T_WORDS = {"!J+": "the Joker: target +1", "!J-": "the Joker: target -1",
            "!S": "the Shifter", "!B": "the Bomb"}


def _spaced(tokens: str) -> str:
    return " ".join(re.findall(r"!?[A-Za-z][0-9]*", tokens))


def action_words(game_id: str, text: str) -> str:
    """An action's text (without its actor) as a player says it: ``O4xO2Y2`` -> "capture O2
    Y2 with O4", ``Y1g`` -> "Y1 on its grey side", ``day D5`` -> "lead D5 by day"."""
    if text == "pass":
        return "pass" + (" and draw" if game_id == "towai" else "")
    if game_id == "tweak":
        if text in _T_WORDS:
            return "use " + _T_WORDS[text]
        if text.startswith("!T "):
            return f"use the Thief: steal from {text[3:]}"
        if text.startswith("steal "):
            return f"the Thief draws {text[6:]}"
        if "x" in text:
            card, _, taken = text.partition("x")
            return f"capture {_spaced(taken)} with {card}"
        if re.fullmatch(r"[A-Z][0-9]", text):
            return f"place {text} on the table"
        return text
    if game_id == "graph-t":
        if text.endswith("g"):
            return f"{text[:-1]} on its grey side"
        return f"{text}" + ("" if text == "G" else " on its colour side")
    if game_id == "towai":
        side, _, card = text.partition(" ")
        if side in ("day", "night") and card:
            return f"lead {card} by {side}"
        if text.startswith("+"):
            return f"add {text[1:]} to the combo"
        return f"play {text}"
    if game_id == "lianxian":
        if "@" in text:
            return ", ".join(f"{t.split('@')[0]} at {t.split('@')[1]}" for t in text.split(","))
        return text
    if game_id == "alice":
        if "@" in text:
            card, _, slot = text.partition("@")
            return f"{card} into slot {slot}"
        return {"drink": "drink (draw a card)", "grow": "grow", "stay": "stay the same size",
                "shrink": "shrink"}.get(text, text)
    return text


__all__ = ["action_words", "answer_words", "cards_words", "odds_words", "ordinal", "value_words"]
