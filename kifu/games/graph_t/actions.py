"""GRAPH-T actions: frozen, hashable; every possible play is one shared instance."""

from __future__ import annotations

from kifu.core.game import Action
from kifu.games.graph_t.cards import N_CODES, PLAY_OK


class Play(Action, frozen=True):
    """Play a card of ``card`` (a code), on its grey side when ``grey_side``.

    The pure grey card is ``Play(G)``: it has one side, the grey one.
    """

    card: int
    grey_side: bool = False

    @property
    def pid(self) -> int:
        return 2 * self.card + self.grey_side


class Deal(Action, frozen=True):
    """Dealer action: every seat's colour cards, each hand a sorted tuple of codes (the grey
    card each player also receives is implied)."""

    hands: tuple[tuple[int, ...], ...]


class Lead(Action, frozen=True):
    """Dealer action: the first leader."""

    seat: int


PLAYS: tuple[Play | None, ...] = tuple(
    Play(c, bool(s)) if PLAY_OK[2 * c + s] else None for c in range(N_CODES) for s in (0, 1)
)
"""The shared Play of each pid (None where the pid is not a play)."""
LEADS = tuple(Lead(s) for s in range(4))
