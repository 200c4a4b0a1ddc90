"""Lianxian actions: frozen and hashable; draws, first players, the pass and the recycle are
shared instances."""

from __future__ import annotations

from kifu.core.game import Action


class Place(Action, frozen=True):
    """Put tiles on the board: ``cells`` are ``(space, tile)`` pairs sorted by space."""

    cells: tuple[tuple[int, int], ...]


class Swap(Action, frozen=True):
    """Exchange rack tiles with the bag (ruling 5, 10): the tiles returned, sorted."""

    tiles: tuple[int, ...]


class Pass(Action, frozen=True):
    """End the turn without placing or swapping (only when no swap is possible)."""


class Deal(Action, frozen=True):
    """Dealer: the initial deal (ruling 1): a tile on each centre space (in space order),
    each rack (sorted) and the public hand (sorted)."""

    centre: tuple[int, ...]
    racks: tuple[tuple[int, ...], ...]
    public: tuple[int, ...]


class First(Action, frozen=True):
    """Dealer: the first player."""

    seat: int


class Draw(Action, frozen=True):
    """Dealer: the tile drawn from the (unordered) bag (ruling 9)."""

    tile: int


class Recycle(Action, frozen=True):
    """Dealer: every tile under a top tile goes back into the bag (ruling 6)."""


PASS = Pass()
RECYCLE = Recycle()
DRAWS = tuple(Draw(t) for t in range(50))
FIRSTS = tuple(First(s) for s in range(4))
