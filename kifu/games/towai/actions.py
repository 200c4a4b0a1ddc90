"""TOWAI actions: frozen, hashable, and one shared instance for every action that carries
no more than a card and a side (so legal-action lists are built from tables).

They hold only ints and tuples of ints, so ``gc=False`` keeps the garbage collector from
tracking them."""

from __future__ import annotations

from kifu.core.game import Action
from kifu.games.towai.cards import N_KINDS


class Lead(Action, frozen=True, gc=False):
    """Lead onto an empty field: set the indicator to ``side`` (0 Day, 1 Night), play ``card``."""

    side: int
    card: int


class Play(Action, frozen=True, gc=False):
    """Put ``card`` on the field: a follow at the start of a turn, or a combo continuation
    (same number) after a play of the same turn."""

    card: int


class Stop(Action, frozen=True, gc=False):
    """End a turn after playing (ends the combo chain)."""


class Pass(Action, frozen=True, gc=False):
    """Pass instead of following: draw one card, the turn ends."""


class Give(Action, frozen=True, gc=False):
    """A Swap: the card this seat sets aside for the previous seat."""

    card: int


class First(Action, frozen=True, gc=False):
    """Dealer action: the first player of round 1."""

    seat: int


class Deal(Action, frozen=True, gc=False):
    """Dealer action: the shuffle of a round, as every seat's 7 cards (sorted) and the
    face-down deck (top first)."""

    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]


class Rebuild(Action, frozen=True, gc=False):
    """Dealer action: the new deck (top first), a shuffle of the field under its top card and
    the discard pile."""

    deck: tuple[int, ...]


LEADS = tuple(tuple(Lead(s, c) for c in range(N_KINDS)) for s in (0, 1))
PLAYS = tuple(Play(c) for c in range(N_KINDS))
GIVES = tuple(Give(c) for c in range(N_KINDS))
FIRSTS = tuple(First(s) for s in range(6))
STOP = Stop()
PASS = Pass()
