"""Alice in Wonderland (unoAlice): tell a story one sentence a turn; win a 21 check to gain
story points; meet your hidden role's goal. Rules as implemented: ``docs/rules/alice.md``.

>>> from kifu import games
>>> game = games.get("alice")
>>> state = game.new_state(3)
>>> state.apply(game.parse_action(state, "roles AQR"))
Roles(roles=(0, 4, 5))
>>> state.to_line().split()[5]
'aqr'
"""

from __future__ import annotations

from kifu.core.game import Game
from kifu.games.alice.bots import GreedyBot
from kifu.games.alice.cards import CardSet, card_set, load_card_file, parse_card_set
from kifu.games.alice.game import GAME, Alice
from kifu.games.alice.state import AliceState
from kifu.games.alice.variant import AliceVariant

Alice.bots = {**Game.bots, "greedy": GreedyBot}


def variant_with_cards(path: str, variant: AliceVariant | None = None) -> AliceVariant:
    """The CLI's ``--cards FILE``: load, validate and register the set; the variant that
    plays with it."""
    return GAME.variant_with_cards(path, variant)


__all__ = [
    "GAME",
    "Alice",
    "AliceState",
    "AliceVariant",
    "CardSet",
    "card_set",
    "load_card_file",
    "parse_card_set",
    "variant_with_cards",
]
