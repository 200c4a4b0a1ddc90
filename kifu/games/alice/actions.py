"""Alice actions: frozen, hashable; the common ones are shared instances (tables below)."""

from __future__ import annotations

from kifu.core.game import Action
from kifu.games.alice.cards import N_CODES


class Roles(Action, frozen=True, gc=False):
    """Dealer: the role dealt face down to each seat (indices into the set's roles)."""

    roles: tuple[int, ...]


class Deal(Action, frozen=True, gc=False):
    """Dealer: every seat's hand (sorted codes). The opening deal, and the ♥Q redeal."""

    hands: tuple[tuple[int, ...], ...]


class Card(Action, frozen=True, gc=False):
    """Dealer: the card a draw takes from a deck (a Clean Phase draw, or the verb played for
    a Bard who had to say "Drink me!")."""

    code: int


class Char(Action, frozen=True, gc=False):
    """Choose a noun of the hand as one's Character (setup)."""

    code: int


class Play(Action, frozen=True, gc=False):
    """Play ``code`` onto sentence slot ``slot`` (0 A1, 1 N1, 2 V, 3 A2, 4 N2): a fill when
    the slot is blank, else a cover."""

    code: int
    slot: int


class Drink(Action, frozen=True, gc=False):
    """Say "Drink me!": reveal the role, lose 1 SP, sit out the rest of the playing phase."""


class Adjust(Action, frozen=True, gc=False):
    """The Caterpillar's choice for its side's total: -1, 0 or +1."""

    delta: int


class Swap(Action, frozen=True, gc=False):
    """The check winner's choice: take the revealed loser's role (True) or keep (False)."""

    take: bool


class Buy(Action, frozen=True, gc=False):
    """♦4: discard these three cards (sorted codes) to gain 1 SP."""

    cards: tuple[int, int, int]


class Pass(Action, frozen=True, gc=False):
    """♦4: decline to buy."""


class Discard(Action, frozen=True, gc=False):
    """Clean Phase: discard one card."""

    code: int


class Draw(Action, frozen=True, gc=False):
    """Clean Phase: draw one card from the deck of type ``deck`` (0 noun, 1 verb, 2 adj)."""

    deck: int


CARDS = tuple(Card(c) for c in range(N_CODES))
CHARS = tuple(Char(c) for c in range(N_CODES))
DISCARDS = tuple(Discard(c) for c in range(N_CODES))
PLAYS = tuple(tuple(Play(c, s) for s in range(5)) for c in range(N_CODES))
DRAWS = (Draw(0), Draw(1), Draw(2))
DRINK = Drink()
PASS = Pass()
ADJUSTS = {-1: Adjust(-1), 0: Adjust(0), 1: Adjust(1)}
SWAP_TAKE, SWAP_KEEP = Swap(True), Swap(False)
