"""GRAPH-T's rule variants (defaults = the rulings, ``docs/rules/graph-t.md``)."""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import Variant
from kifu.core.variant import rules_spec as core_rules_spec

GREY_OPEN = ("other", "anyone")
GREY_WINS = ("height", "trump")
AI_GREY = ("card", "any")


class GraphTVariant(Variant, frozen=True):
    """Every field's default is the rulebook or a binding ruling."""

    grey: bool = True
    """Give each player a pure grey card (ruling 1; false = the quick game without grey)."""
    black: bool = True
    """Deal the black cards (ruling 1; false = the quick game without grey and black)."""
    grey_open: str = "other"
    """When grey leads open: after a grey play by another player (``other``) or by anyone
    (``anyone``), ruling 2. Grey opens for a leader once a player other than that leader has
    made a grey play, or (``anyone``) once anyone has."""
    grey_wins: str = "height"
    """Grey against the led colour: compare by height (``height``) or grey wins (``trump``),
    ruling 6."""
    ai_grey: str = "card"
    """The AI's rule 1 prefers the pure grey card (``card``) or any grey play (``any``),
    ruling 9."""

    def validate(self) -> None:
        if self.grey_open not in GREY_OPEN:
            raise VariantError(f"grey_open must be one of {', '.join(GREY_OPEN)}")
        if self.grey_wins not in GREY_WINS:
            raise VariantError(f"grey_wins must be one of {', '.join(GREY_WINS)}")
        if self.ai_grey not in AI_GREY:
            raise VariantError(f"ai_grey must be one of {', '.join(AI_GREY)}")
        if not self.black and self.grey:
            raise VariantError(
                "black=false needs grey=false: the quick games remove the grey cards, "
                "or the grey and the black cards"
            )


GAME_ID = "graph-t"
RULES_VERSION = 1


def rules_spec(variant: GraphTVariant) -> str:
    """The rules token of a variant (``Game.rules_spec``; remembered, for position lines)."""
    return core_rules_spec(GAME_ID, RULES_VERSION, variant)
