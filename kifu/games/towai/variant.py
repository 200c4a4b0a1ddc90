"""TOWAI's rule variants (defaults = the rulings, ``docs/rules/towai.md``)."""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import Variant
from kifu.core.variant import rules_spec as core_rules_spec

GAME_ID = "towai"
RULES_VERSION = 1


class TowaiVariant(Variant, frozen=True):
    """Every field's default is the rulebook or a binding ruling."""

    cap: int = 1000
    """A round ends after this many turns, won by the fewest cards (ruling 9)."""
    lead_fits: bool = False
    """A lead must fit the side it sets (ruling 2; by default any card may lead). That is,
    Day or Twai under Day, Night or Twai under Night."""
    wins: int = 2
    """Round wins that win the game (rule 8; 1 = a single-round game)."""
    cap_tie: str = "after"
    """Who wins a tie at the turn cap: counting from the seat ``after`` the first player, or
    ``from`` the first player (ruling 9). The earliest seat so counted wins; with ``after``
    the round's first player comes last."""

    def validate(self) -> None:
        if self.cap < 1:
            raise VariantError("cap must be >= 1")
        if self.wins < 1:
            raise VariantError("wins must be >= 1")
        if self.cap_tie not in ("after", "from"):
            raise VariantError("cap_tie must be after or from")


def rules_spec(variant: TowaiVariant) -> str:
    """The rules token of a variant (``Game.rules_spec``; remembered, for position lines)."""
    return core_rules_spec(GAME_ID, RULES_VERSION, variant)
