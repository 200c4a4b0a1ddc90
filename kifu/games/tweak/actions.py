"""TWEAK actions: frozen, hashable, shared instances where they carry no choice.

They hold only ints and tuples of ints, so they cannot be part of a reference cycle:
``gc=False`` keeps the garbage collector from tracking the thousands a search creates."""

from __future__ import annotations

from kifu.core.game import Action
from kifu.games.tweak.cards import N_CODES


class Place(Action, frozen=True, gc=False):
    """Put a hand card face up on the table (a turn's play, or a Bomb victim's card)."""

    card: int


class Capture(Action, frozen=True, gc=False):
    """Play ``card`` and take ``taken`` (a sorted tuple of table cards) whose faces sum to
    the target with it."""

    card: int
    taken: tuple[int, ...]


class UseJoker(Action, frozen=True, gc=False):
    delta: int


class UseShifter(Action, frozen=True, gc=False):
    pass


class UseThief(Action, frozen=True, gc=False):
    victim: int


class UseBomb(Action, frozen=True, gc=False):
    pass


class Pass(Action, frozen=True, gc=False):
    """The lost turn of a player with an empty hand (who then refills)."""


class ChooseDealer(Action, frozen=True, gc=False):
    """Dealer action: the first round's dealer, drawn at random."""

    seat: int


class Deal(Action, frozen=True, gc=False):
    """Dealer action: the shuffled deck (top first) and the shuffled T! pile (top first)."""

    deck: tuple[int, ...]
    tpile: tuple[int, ...]


class Steal(Action, frozen=True, gc=False):
    """Dealer action: the card the Thief draws at random from the victim's hand."""

    card: int


PLACE = tuple(Place(c) for c in range(N_CODES))
STEAL = tuple(Steal(c) for c in range(N_CODES))
THIEF_ON = tuple(UseThief(v) for v in range(8))
DEALER_IS = tuple(ChooseDealer(v) for v in range(8))
JOKER_UP = UseJoker(1)
JOKER_DOWN = UseJoker(-1)
SHIFT = UseShifter()
BOMB_ALL = UseBomb()
PASS = Pass()
