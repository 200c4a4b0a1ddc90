"""TWEAK worlds: the other hands, the deck's order and the T! pile's order, drawn to agree
with what a seat sees.

Known to ``seat``: its own hand, the table, every held T! card, the totals, the target and
the size of every hand, of the deck and of the T! pile (its view), and every pile of won
cards: a capture is made face up, so a player who watched the round knows what each pile
holds (the view writes them as ``?`` because they lie face down). The round's cards are
known, so the cards nobody can see are exactly those of the other hands and the deck; the
T! cards still in the pile are those not won.

The target is the back of the deck's top card (ruling 4), so the top card of a sampled
deck has the target's back. And every card a player drew was the deck's top just before,
so its back was shown as the target: from ``state.history`` (when it starts at the
beginning of the game) the seat knows the back of every card each other player drew this
round, and the face of every card that left a hand (played, given to a Bomb, stolen by a
Thief). :func:`back_bounds` turns that into one lower bound per hand and back: "this
hand holds at least ``k`` cards whose back is ``b``" (below, why that is all it says).
The sampler draws uniformly among the deals of the unseen cards into the other hands, the
deck's top and the rest of the deck that respect those bounds
(:class:`kifu.core.worlds.BoundedDeal`, the kinds being the four backs), and shuffles
the T! pile.

Why a lower bound per back is exactly what the history says of a hand: a hand is its
first cards (dealt face down: any backs), then each draw (a card of a known back) and each
card that left it (a known face, whose back is known). A present hand ``H`` is possible
when the cards ``H`` plus those that left can be traced to the sources (the dealt cards,
each draw) with every card that left traced to a source before it. Tracing each card that
left, in time order, to a draw of its back when one is free and to a dealt card otherwise
is never worse than any other tracing (a dealt card serves any back, and earlier), so what
is left for ``H`` is ``avail[b]`` draws of back ``b`` and some dealt cards: ``H`` is
possible exactly when it holds at least ``avail[b]`` cards of each back ``b``.
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.codes import field_codes, field_text
from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import BoundedDeal, from_start
from kifu.games.tweak.actions import Deal, Steal
from kifu.games.tweak.cards import DEFAULT_BACKS, TOKEN, split_cards

TOP = "top"
"""The place of the deck's top card (its back is the target)."""


def _cards(text: str) -> list[int]:
    return field_codes(text, split_cards)


def _text(codes: list[int]) -> str:
    return field_text(codes, TOKEN)


def back_bounds(state: State, seat: int, game: Game) -> list[dict[int, int]] | None:
    """Per seat, the least number of cards of each back its hand holds, as every seat knows
    from the round's history (the draws' backs and the faces of the cards that left each
    hand, module docstring); ``None`` when the history does not start at the beginning
    of the game or does not reach ``state``. ``seat`` is accepted for symmetry with the
    other games: in TWEAK every seat sees the same draws and plays."""
    s = from_start(game, state)
    if s is None:
        return None
    n = state.n
    backs = state.variant.backs or DEFAULT_BACKS
    avail: list[dict[int, int]] = [{} for _ in range(n)]
    for a in state.history:
        mover = s.to_move
        before = [len(h) for h in s.hands]
        victim = s.victim
        dpos = s.dpos
        s.push(a)
        if isinstance(a, Deal):
            avail = [{} for _ in range(n)]
            continue
        loser = -1
        if isinstance(a, Steal):
            loser, card = victim, a.card
        elif mover is not None and mover >= 0 and hasattr(a, "card"):
            loser, card = mover, a.card  # a Place or a Capture: a hand card played
        if loser >= 0:
            b = backs[card]
            if avail[loser].get(b, 0) > 0:  # traced to a draw of its back (else: dealt)
                avail[loser][b] -= 1
        if s.dpos > dpos:
            drawn = s.deck[dpos:s.dpos]
            for p in range(n):
                k = len(s.hands[p]) - before[p] + (p == loser)
                for c in drawn[:k]:
                    avail[p][backs[c]] = avail[p].get(backs[c], 0) + 1
    if s.key() != state.key():
        return None
    return [{b: k for b, k in d.items() if k} for d in avail]


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    fields = state.to_line().split(" ")
    hands = [_cards(h) for h in fields[5].split("/")]
    deck = _cards(fields[7])
    tpile = _cards(fields[8])
    others = [p for p in range(len(hands)) if p != seat]
    unseen = [c for p in others for c in hands[p]] + deck
    backs = state.variant.backs or DEFAULT_BACKS
    target = int(fields[3][1:])
    kinds: dict[int, list[int]] = {}
    for c in unseen:
        kinds.setdefault(backs[c], []).append(c)
    bounds = back_bounds(state, seat, game) or [{} for _ in hands]
    # places: the other hands, then the deck's top, then the rest of the deck
    sizes = [len(hands[p]) for p in others]
    lower = {(i, b): k for i, p in enumerate(others) for b, k in bounds[p].items()}
    if deck:
        top = len(sizes)
        sizes += [1, len(deck) - 1]
        lower[(top, target)] = 1
        upper = {(top, b): 0 for b in kinds if b != target}
    else:
        sizes.append(0)
        upper = {}
    deal = BoundedDeal(kinds, sizes, lower, upper)

    def draw(rng: Rng) -> State:
        parts = deal.sample(rng)
        new = list(hands)
        for i, p in enumerate(others):
            new[p] = sorted(parts[i])
        fields[5] = "/".join(_text(h) for h in new)
        fields[7] = _text((parts[-2] if deck else []) + parts[-1])
        fields[8] = _text(rng.shuffled(tpile))
        return game.from_line(" ".join(fields))

    return draw


__all__ = ["back_bounds", "world_sampler"]
