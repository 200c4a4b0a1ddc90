"""The names Lianxian's state machine and its text writers share: the phases and the hand
size. This module imports nothing of the engine, so ``state`` (the machine) and ``text``
(the position line and the picture for people) can both import it without importing each
other.
"""

from __future__ import annotations

DEAL, FIRST, TURN, REFILL, SWAP, OVER = range(6)
"""Phases: before the deal, before the first player, a player's turn, the dealer refilling
after a placement, the dealer drawing a swap's tiles, over."""
HAND = 4
"""Tiles in a full rack and in the full public hand."""
