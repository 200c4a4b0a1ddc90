"""GRAPH-T worlds: the other hands, drawn to agree with what a seat has seen.

Known to ``seat``: its own hand; every stack, the trick and the cards that left the game
(every play is public, so the other hands together hold exactly the colour cards not seen);
how many cards each seat holds and whether it still holds its pure grey card (its grey card
is played face up); and what the rules of following reveal, read from ``state.history``
when it starts with the deal:

- a seat that did not follow a led colour X on its colour side (and did not make a grey
  play after an earlier grey play of the same trick, which the rules allow) holds no X
  card (ruling 4);
- a seat that made a non-grey play after a grey lead could make no grey play: it holds no
  pure grey card and no card below its colour's top level (ruling 5).

Hands only shrink, so what was true then is true now. The sampler deals the unseen cards
uniformly among the deals that respect these voids (:class:`kifu.core.worlds.GroupDeal`).
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.game import DEALER, Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import GroupDeal, from_start
from kifu.games.graph_t.actions import Play
from kifu.games.graph_t.cards import (
    CARD_COLOUR,
    CARD_TOKEN,
    GREY,
    IS_TOP,
    PLAY_COLOUR,
    G,
)

TOP = 5
"""Void markers: 0..4 = no card of that colour; TOP = no card below its colour's top."""


def voids(state: State, seat: int, game: Game) -> list[set[int]]:
    """For every seat, what it is known to lack (colours 0..4, and :data:`TOP` for "only
    top-level cards"), as ``seat`` can tell from the history; empty sets when the history
    does not start at the deal."""
    n = state.n
    out: list[set[int]] = [set() for _ in range(n)]
    s = from_start(game, state)
    if s is None:
        return out
    # replay the trick structure: who led, the led colour, whether a grey play was made
    trick_led = -1
    trick_grey = False
    in_trick = 0
    for a in state.history:
        mover = s.to_move
        if mover is not None and mover != DEALER and isinstance(a, Play):
            colour = PLAY_COLOUR[a.pid]
            if in_trick == 0:
                trick_led, trick_grey = colour, colour == GREY
            elif mover != seat:
                if trick_led == GREY:
                    if colour != GREY:
                        out[mover].add(TOP)
                elif colour != trick_led and not (colour == GREY and trick_grey):
                    out[mover].add(trick_led)
                trick_grey = trick_grey or colour == GREY
            else:
                trick_grey = trick_grey or colour == GREY
            in_trick = (in_trick + 1) % n
        s.push(a)
    return out if s.key() == state.key() else [set() for _ in range(n)]


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    n = state.n
    fields = state.to_line().split(" ")
    hands = [list(state.hand_codes(s)) for s in range(n)]  # type: ignore[attr-defined]
    others = [p for p in range(n) if p != seat]
    unseen = [c for p in others for c in hands[p] if c != G]
    if not others or not unseen:
        return lambda rng: game.from_line(" ".join(fields))
    lacks = voids(state, seat, game)
    sizes = [sum(1 for c in hands[p] if c != G) for p in others]
    by_class: dict[tuple[int, bool], list[int]] = {}
    for c in unseen:
        by_class.setdefault((CARD_COLOUR[c], IS_TOP[c]), []).append(c)
    groups = []
    for (colour, top), cards in by_class.items():
        allowed = [i for i, p in enumerate(others)
                   if colour not in lacks[p] and (top or TOP not in lacks[p])]
        groups.append((cards, allowed))
    deal = GroupDeal(groups, sizes)
    greys = [G in hands[p] for p in range(n)]

    def draw(rng: Rng) -> State:
        dealt = deal.sample(rng)
        text = list(hands)
        for i, p in enumerate(others):
            text[p] = sorted(dealt[i]) + ([G] if greys[p] else [])
        fields[1] = "/".join("".join(CARD_TOKEN[c] for c in h) or "-" for h in text)
        return game.from_line(" ".join(fields))

    return draw


__all__ = ["voids", "world_sampler"]
