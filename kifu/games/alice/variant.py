"""Alice's rule variants (defaults = the rulings, ``docs/rules/alice.md``)."""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import Variant, variant_fields
from kifu.games.alice.cards import card_set

GAME_ID = "alice"
RULES_VERSION = 1


class AliceVariant(Variant, frozen=True):
    """Every field's default is the rulebook or a binding ruling."""

    cards: str = "default"
    """The card set by name: a file ``kifu/games/alice/cards/<name>.cards`` shipped in the
    package, or a set loaded with ``--cards FILE`` (``load_card_file``) under the name its
    ``set`` line gives."""
    turns: int = 10
    """Ruling 6/20: the game ends after this many turns (Clean Phases, void turns count);
    then the highest SP wins."""

    def validate(self) -> None:
        if not 1 <= self.turns <= 999:
            raise VariantError("turns must be 1..999")
        card_set(self.cards)  # raises VariantError for an unknown set


_SPECS: dict[AliceVariant, str] = {}


def rules_spec(variant: AliceVariant) -> str:
    s = _SPECS.get(variant)
    if s is None:
        s = ";".join([f"{GAME_ID}/{RULES_VERSION}"]
                     + [f"{k}={v}" for k, v in variant_fields(variant)])
        _SPECS[variant] = s
    return s
