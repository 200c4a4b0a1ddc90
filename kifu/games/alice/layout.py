"""The names Alice's state machine and its text writer share: phases, sentence slots, the
parties of a check. This module imports nothing of the engine, so ``state`` (the machine)
and ``text`` (the position line and the table for people) can both import it without
importing each other.
"""

from __future__ import annotations

from kifu.games.alice.cards import ADJ, NOUN, VERB

(ROLES, DEAL, CHAR, BARD, FORCED, PLAY, ADJUST, SWAP, POOL, BUY, CLEAN, DRAW,
 OVER) = range(13)
PHASES = ("roles", "deal", "char", "bard", "forced", "play", "adjust", "swap", "pool",
          "buy", "clean", "draw", "over")
DEALER_PHASES = frozenset((ROLES, DEAL, FORCED, POOL, DRAW))

SLOTS = ("A1", "N1", "V", "A2", "N2")
SLOT_TYPE = (ADJ, NOUN, VERB, ADJ, NOUN)
A1, N1, V, A2, N2 = range(5)
SYSTEM = 9
"""The system as a party of the check (opponent, winner or loser)."""
NONE = -1


def party(x: int) -> str:
    """A check party as text: ``p1``, ``sys`` or ``-``."""
    return "sys" if x == SYSTEM else ("-" if x == NONE else f"p{x}")
