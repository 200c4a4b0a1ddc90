"""Lianxian Jihua (连线计划, published as SETUP): place tiles on a board of spaces joined by
lines so that they form combos of equal numbers or runs of one suit; reach the finish line.
Rules as implemented: ``docs/rules/lianxian.md``.

>>> from kifu import games
>>> game = games.get("setup")
>>> state = game.from_line(
...     "lianxian/1 p0 H5/T7/-/-/-/-/-/-/-/-/-/- H1H2H6S9/T1D9C4C5 H8D3D4S2 "
...     "T2T3T4T5T6T8T9T10H3H4H7H9H10D1D2D5D6D7D8D10C1C2C3C6C7C8C9C10S1S3S4S5S6S7S8S10 "
...     "0/0 -")
>>> best = max(state.placements(), key=lambda p: p.points)
>>> game.format_action(state, best.action), best.points
('H6@C_NW', 2)
"""

from __future__ import annotations

from kifu.core.errors import IllegalActionError, VariantError
from kifu.core.game import Action, Game, State, worlds_in
from kifu.core.rng import Rng
from kifu.core.variant import Variant
from kifu.games.lianxian import codec, position
from kifu.games.lianxian.actions import DRAWS, FIRSTS, RECYCLE, Deal
from kifu.games.lianxian.bots import DefensiveBot, GreedyBot
from kifu.games.lianxian.state import DEAL, FIRST, HAND, REFILL, SWAP, LianxianState
from kifu.games.lianxian.tiles import tiles_of
from kifu.games.lianxian.variant import GAME_ID, RULES_VERSION, LianxianVariant


class Lianxian(Game):
    id = GAME_ID
    title = "Lianxian Jihua (SETUP)"
    aliases = ("setup",)
    rules_version = RULES_VERSION
    Variant = LianxianVariant
    min_players = 2
    max_players = 4
    example_variants = (LianxianVariant(finish=12),)
    """(2 vs 2 needs exactly 4 players, so its playouts are in tests/test_lianxian*.py.)"""

    state_class = LianxianState

    def check_variant(self, variant: Variant, players: int) -> None:
        assert isinstance(variant, LianxianVariant)
        if variant.team and players != 4:
            raise VariantError(f"the 2-vs-2 game (team=true) takes 4 players, not {players}")

    from_line = position.from_line
    world_sampler = worlds_in("kifu.games.lianxian.worlds")

    def parse_action(self, state: State, text: str) -> Action:
        assert isinstance(state, LianxianState)
        return codec.parse_action(state.board, text)

    def format_action(self, state: State, action: Action) -> str:
        assert isinstance(state, LianxianState)
        return codec.format_action(state.board, action)

    def chance_action(self, state: State, rng: Rng) -> Action:
        """The deal: the 50 tiles shuffled, then the centre spaces, each rack and the
        public hand take them in that order; the first player uniform; a draw uniform over
        the bag (tiles in code order); a recycle when one is due."""
        assert isinstance(state, LianxianState)
        phase = state.phase
        if phase in (REFILL, SWAP):
            if state.recycle_due:
                return RECYCLE
            return DRAWS[rng.choice(tiles_of(state.bag))]
        if phase == FIRST:
            return FIRSTS[rng.below(state.n)]
        if phase == DEAL:
            tiles = rng.shuffled(range(50))
            c = state.board.centre_mask().bit_count()
            racks = tuple(tuple(sorted(tiles[c + HAND * s: c + HAND * (s + 1)]))
                          for s in range(state.n))
            k = c + HAND * state.n
            return Deal(tuple(tiles[:c]), racks, tuple(sorted(tiles[k:k + HAND])))
        raise IllegalActionError("no dealer action is due here", rule="turn")


GAME = Lianxian()
Lianxian.bots = {**Game.bots, "greedy": GreedyBot, "defensive": DefensiveBot}

__all__ = ["GAME", "Lianxian", "LianxianState", "LianxianVariant"]
