"""TWEAK's rule variants (defaults = the rulings)."""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import Variant
from kifu.games.tweak.cards import COLOURS, T_LETTERS

GAME_ID = "tweak"
RULES_VERSION = 1


class TweakVariant(Variant, frozen=True):
    """Every field's default is the rulebook or the binding ruling (``docs/rules/tweak.md``)."""

    colours: str = ""
    """Colours of the number cards, e.g. ``ROYGB``; empty = by player count (ruling 2)."""
    backs: tuple[int, ...] = ()
    """36 back values (7..10) indexed by card code; empty = ruling 1's default table."""
    empty_capture: bool = False
    """Allow a capture of the hand card alone (ruling 5 default: at least one table card)."""
    t_cards: str = "TTTTJJJSSB"
    """The T! pile: T Thief, J Joker, S Shifter, B Bomb (rulebook: 4, 3, 2, 1)."""
    threshold: int = 0
    """Points that end the game at the end of a round; 0 = by player count (ruling 11)."""
    rounds: int = 0
    """Stop after this many rounds whatever the totals; 0 = play to the threshold."""

    def validate(self) -> None:
        if self.colours:
            if "R" not in self.colours:
                raise VariantError("colours must include red (R)")
            if any(c not in COLOURS for c in self.colours) or len(set(self.colours)) != len(
                self.colours
            ):
                raise VariantError(f"colours must be distinct letters of {COLOURS}")
            canonical = "".join(sorted(self.colours, key=COLOURS.index))
            if self.colours != canonical:  # one spelling per variant
                raise VariantError(f"write colours in the order {COLOURS}: {canonical}")
        if self.backs and (len(self.backs) != 36 or any(not 7 <= b <= 10 for b in self.backs)):
            raise VariantError("backs must list 36 values from 7 to 10")
        if any(t not in T_LETTERS for t in self.t_cards):
            raise VariantError(f"t_cards may only use {T_LETTERS}")
        canonical = "".join(sorted(self.t_cards, key=T_LETTERS.index))
        if self.t_cards != canonical:  # a pile is a multiset: one spelling each
            raise VariantError(f"write t_cards in the order {T_LETTERS}: {canonical}")
        if self.threshold < 0 or self.rounds < 0:
            raise VariantError("threshold and rounds must be >= 0")
