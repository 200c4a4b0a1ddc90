"""TWEAK worlds: the other hands, the deck's order and the T! pile's order, drawn to agree
with what a seat sees.

Known to ``seat``: its own hand, the table, every held T! card, the totals, the target and
the size of every hand, of the deck and of the T! pile (its view), and every pile of won
cards: a capture is made face up, so a player who watched the round knows what each pile
holds (the view writes them as ``?`` because they lie face down). The round's cards are
known, so the cards nobody can see are exactly those of the other hands and the deck; the
T! cards still in the pile are those not won.

The target is the back of the deck's top card (ruling 4), so the top card of a sampled deck
has the target's back; the other cards are dealt uniformly into the other hands and the
rest of the deck, and the T! pile is shuffled.

Not used (a simplification): the backs a seat saw on cards that later went into another
hand (each card drawn was the deck's top once, so the target showed its back). A hand's
backs narrow its cards only a little (nine backs of each value in 36 cards), and tracking
them exactly would need to know which of a hand's cards each later play was.
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.codes import field_codes, field_text
from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import deal_into
from kifu.games.tweak.cards import DEFAULT_BACKS, TOKEN, split_cards


def _cards(text: str) -> list[int]:
    return field_codes(text, split_cards)


def _text(codes: list[int]) -> str:
    return field_text(codes, TOKEN)


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    fields = state.to_line().split(" ")
    hands = [_cards(h) for h in fields[5].split("/")]
    deck = _cards(fields[7])
    tpile = _cards(fields[8])
    others = [p for p in range(len(hands)) if p != seat]
    unseen = [c for p in others for c in hands[p]] + deck
    sizes = [len(hands[p]) for p in others]
    backs = state.variant.backs or DEFAULT_BACKS
    target = int(fields[3][1:])
    tops = [i for i, c in enumerate(unseen) if backs[c] == target] if deck else []

    def draw(rng: Rng) -> State:
        rest = list(unseen)
        top: list[int] = []
        if deck:  # the deck's top card has the target's back
            top = [rest.pop(tops[rng.below(len(tops))])]
        parts = deal_into(rng, rest, [*sizes, len(deck) - len(top)])
        new = list(hands)
        for p, part in zip(others, parts, strict=False):
            new[p] = sorted(part)
        fields[5] = "/".join(_text(h) for h in new)
        fields[7] = _text(top + parts[-1])
        fields[8] = _text(rng.shuffled(tpile))
        return game.from_line(" ".join(fields))

    return draw


__all__ = ["world_sampler"]
