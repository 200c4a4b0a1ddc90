"""Alice's rule variants (defaults = the rulings, ``docs/rules/alice.md``)."""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import Variant
from kifu.core.variant import rules_spec as core_rules_spec
from kifu.games.alice.cards import card_set

GAME_ID = "alice"
RULES_VERSION = 1


class AliceVariant(Variant, frozen=True):
    """Every field's default is the rulebook or a binding ruling."""

    cards: str = "default"
    """The card set, by name: one shipped with kifu, or one loaded with ``--cards FILE``.
    A shipped set is a file ``kifu/games/alice/cards/<name>.cards``; a loaded one
    (``load_card_file``) goes by the name its ``set`` line gives."""
    turns: int = 10
    """The game ends after this many turns, then the highest SP wins (rulings 6, 20).
    Clean Phases and void turns count."""

    def validate(self) -> None:
        if not 1 <= self.turns <= 999:
            raise VariantError("turns must be 1..999")
        card_set(self.cards)  # raises VariantError for an unknown set


def rules_spec(variant: AliceVariant) -> str:
    """The rules token of a variant (``Game.rules_spec``; remembered, for position lines)."""
    return core_rules_spec(GAME_ID, RULES_VERSION, variant)
