"""The game contract, errors, variants and the seeded RNG shared by every kifu game."""

from kifu.core.errors import (
    AmbiguousActionError,
    IllegalActionError,
    KifuError,
    NotationError,
    VariantError,
)
from kifu.core.game import (
    DEALER,
    Action,
    Bot,
    Game,
    RandomBot,
    Result,
    State,
    actor_name,
    parse_actor,
    perft,
)
from kifu.core.rng import Rng
from kifu.core.variant import Variant

__all__ = [
    "DEALER",
    "Action",
    "AmbiguousActionError",
    "Bot",
    "Game",
    "IllegalActionError",
    "KifuError",
    "NotationError",
    "RandomBot",
    "Result",
    "Rng",
    "State",
    "Variant",
    "VariantError",
    "actor_name",
    "parse_actor",
    "perft",
]
