"""TOWAI (トワイ): shed your hand under Day (higher) and Night (lower); Twai cards flip the
two. Rules as implemented: ``docs/rules/towai.md``.

>>> from kifu import games
>>> game = games.get("towai")
>>> state = game.from_line("towai/1 P1 day D5/D3D6T2/N1 D4 N5 - p0:0 0,0,0 f0t3")
>>> def legal():
...     return [game.format_action(state, a) for a in state.legal_actions()]
>>> legal()
['D6', 'pass']
>>> state.apply(game.parse_action(state, "D6"))
Play(card=3)
>>> state.to_move, legal()
(2, ['pass'])

p1 had no other 6, so the turn ended; p2 holds only N1, which cannot follow by Day.
"""

from __future__ import annotations

from kifu.core.errors import IllegalActionError
from kifu.core.game import Action, Game, State, worlds_in
from kifu.core.rng import Rng
from kifu.games.towai import codec, position
from kifu.games.towai.actions import FIRSTS, Deal, Rebuild
from kifu.games.towai.cards import ALL_CARDS
from kifu.games.towai.state import DEAL, FIRST, HAND_SIZE, REBUILD, TowaiState
from kifu.games.towai.variant import GAME_ID, RULES_VERSION, TowaiVariant


class Towai(Game):
    id = GAME_ID
    title = "TOWAI"
    rules_version = RULES_VERSION
    Variant = TowaiVariant
    min_players = 2
    max_players = 6
    example_variants = (
        TowaiVariant(wins=1),
        TowaiVariant(lead_fits=True),
        TowaiVariant(cap=40),
        TowaiVariant(cap=25, cap_tie="from", wins=1),
        TowaiVariant(lead_fits=True, wins=3),
    )

    state_class = TowaiState

    from_line = position.from_line
    world_sampler = worlds_in("kifu.games.towai.worlds")

    def parse_action(self, state: State, text: str) -> Action:
        return codec.parse_action(state, text)

    def format_action(self, state: State, action: Action) -> str:
        return codec.format_action(state, action)

    def chance_action(self, state: State, rng: Rng) -> Action:
        """Round 1's first player: a uniform seat. A deal: the 60 cards shuffled, dealt one
        at a time round the table from the round's first player, 7 each; the rest is the
        deck in shuffled order. A rebuild: the pool shuffled."""
        assert isinstance(state, TowaiState)
        n = state.n
        if state.phase == FIRST:
            return FIRSTS[rng.below(n)]
        if state.phase == DEAL:
            cards = rng.shuffled(ALL_CARDS)
            dealt = HAND_SIZE * n
            hands = [sorted(cards[k] for k in range(dealt) if (k % n) == (s - state.first) % n)
                     for s in range(n)]
            return Deal(tuple(tuple(h) for h in hands), tuple(cards[dealt:]))
        if state.phase == REBUILD:
            return Rebuild(tuple(rng.shuffled(state.pool())))
        raise IllegalActionError("no dealer action is due here", rule="turn")


GAME = Towai()

from kifu.games.towai.bots import GreedyBot  # noqa: E402

Towai.bots = {**Game.bots, "greedy": GreedyBot}

__all__ = ["GAME", "Towai", "TowaiState", "TowaiVariant"]
