"""TOWAI's rule variants (defaults = the rulings, ``docs/rules/towai.md``)."""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import Variant, variant_fields

GAME_ID = "towai"
RULES_VERSION = 1


class TowaiVariant(Variant, frozen=True):
    """Every field's default is the rulebook or a binding ruling."""

    cap: int = 1000
    """Ruling 9: a round ends after this many turns (the fewest cards wins it)."""
    lead_fits: bool = False
    """Ruling 2: a lead must fit the side it sets (Day or Twai under Day, Night or Twai
    under Night); the default lets any card be led."""
    wins: int = 2
    """Rule 8: round wins that win the game (1 = a single-round game)."""
    cap_tie: str = "after"
    """Ruling 9's tie at the turn cap: the earliest seat counted from the seat ``after`` the
    round's first player (the first player last), or ``from`` the first player."""

    def validate(self) -> None:
        if self.cap < 1:
            raise VariantError("cap must be >= 1")
        if self.wins < 1:
            raise VariantError("wins must be >= 1")
        if self.cap_tie not in ("after", "from"):
            raise VariantError("cap_tie must be after or from")


_SPECS: dict[TowaiVariant, str] = {}


def rules_spec(variant: TowaiVariant) -> str:
    """The rules token of a variant (cached: position lines write it often)."""
    s = _SPECS.get(variant)
    if s is None:
        s = ";".join([f"{GAME_ID}/{RULES_VERSION}"]
                     + [f"{k}={v}" for k, v in variant_fields(variant)])
        _SPECS[variant] = s
    return s
