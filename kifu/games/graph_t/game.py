"""The GRAPH-T game object: the contract's entry points."""

from __future__ import annotations

from kifu.core.errors import IllegalActionError
from kifu.core.game import Action, Game, State, worlds_in
from kifu.core.rng import Rng
from kifu.core.variant import Variant
from kifu.games.graph_t import codec, position
from kifu.games.graph_t.actions import LEADS, Deal
from kifu.games.graph_t.cards import deck_codes
from kifu.games.graph_t.state import DEAL, LEAD, GraphTState
from kifu.games.graph_t.variant import GAME_ID, RULES_VERSION, GraphTVariant


class GraphT(Game):
    id = GAME_ID
    title = "GRAPH-T"
    rules_version = RULES_VERSION
    Variant = GraphTVariant
    min_players = 2
    max_players = 4
    parse_is_stateless = True
    example_variants = (
        GraphTVariant(grey=False),
        GraphTVariant(grey=False, black=False),
        GraphTVariant(grey_open="anyone"),
        GraphTVariant(grey_wins="trump"),
        GraphTVariant(ai_grey="any"),
        GraphTVariant(grey=False, grey_open="anyone", grey_wins="trump"),
    )

    state_class = GraphTState

    def check_variant(self, variant: Variant, players: int) -> None:
        variant.validate()

    from_line = position.from_line
    world_sampler = worlds_in("kifu.games.graph_t.worlds")

    def parse_action(self, state: State, text: str) -> Action:
        return codec.parse_action(text)

    def format_action(self, state: State, action: Action) -> str:
        return codec.format_action(action)

    def chance_action(self, state: State, rng: Rng) -> Action:
        """Ruling 1: the shuffled colour deck dealt one card at a time round the table
        (card ``i`` to seat ``i mod n``), then a uniformly random first leader."""
        assert isinstance(state, GraphTState)
        n = state.n
        if state.phase == DEAL:
            deck = rng.shuffled(deck_codes(state.variant.black))
            return Deal(tuple(tuple(sorted(deck[s::n])) for s in range(n)))
        if state.phase == LEAD:
            return LEADS[rng.below(n)]
        raise IllegalActionError("no dealer action is due here", rule="turn")


GAME = GraphT()
