"""TWEAK: reach the target sum with one hand card and table cards; sweep the table for a
T! card. Rules as implemented: ``docs/rules/tweak.md``."""

from __future__ import annotations

from kifu.core.errors import IllegalActionError
from kifu.core.game import Action, Game, State, worlds_in
from kifu.core.rng import Rng
from kifu.games.tweak import codec, position
from kifu.games.tweak.actions import DEALER_IS, STEAL, Deal
from kifu.games.tweak.cards import colours_for
from kifu.games.tweak.state import DEAL, FIRST, STEAL_PHASE, TweakState
from kifu.games.tweak.variant import GAME_ID, RULES_VERSION, TweakVariant


class Tweak(Game):
    id = GAME_ID
    title = "TWEAK"
    rules_version = RULES_VERSION
    Variant = TweakVariant
    min_players = 2
    max_players = 6
    parse_is_stateless = True
    example_variants = (
        TweakVariant(rounds=1),
        TweakVariant(rounds=2, empty_capture=True),
        TweakVariant(rounds=1, colours="RGBP", t_cards="TJSBB"),
        TweakVariant(threshold=30),
        TweakVariant(rounds=1, backs=tuple(7 + (i * 5) % 4 for i in range(36))),
        TweakVariant(rounds=1, colours="R", t_cards=""),
    )

    state_class = TweakState

    from_line = position.from_line
    world_sampler = worlds_in("kifu.games.tweak.worlds")

    def parse_action(self, state: State, text: str) -> Action:
        return codec.parse_action(text)

    def format_action(self, state: State, action: Action) -> str:
        return codec.format_action(action)

    def chance_action(self, state: State, rng: Rng) -> Action:
        assert isinstance(state, TweakState)
        if state.phase == FIRST:
            return DEALER_IS[rng.below(state.n)]
        if state.phase == DEAL:
            return Deal(tuple(rng.shuffled(state._components)),
                        tuple(rng.shuffled(state._t_components)))
        if state.phase == STEAL_PHASE:
            # ruling 7: a uniformly random card of the victim's hand (copies count apart)
            return STEAL[rng.choice(state.hands[state.victim])]
        raise IllegalActionError("no dealer action is due here", rule="turn")


GAME = Tweak()

from kifu.games.tweak.bots import GreedyBot  # noqa: E402

Tweak.bots = {**Game.bots, "greedy": GreedyBot}

__all__ = ["GAME", "Tweak", "TweakState", "TweakVariant", "colours_for"]
