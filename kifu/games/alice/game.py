"""The Alice game object: the contract's entry points."""

from __future__ import annotations

from pathlib import Path

from kifu.core.errors import IllegalActionError
from kifu.core.game import Action, Game, State, worlds_in
from kifu.core.rng import Rng
from kifu.core.variant import Variant
from kifu.games.alice import codec, position
from kifu.games.alice.actions import Deal, Roles
from kifu.games.alice.cards import CODE_TYPE, load_card_file
from kifu.games.alice.state import DEAL, DRAW, FORCED, POOL, ROLES, AliceState
from kifu.games.alice.variant import GAME_ID, RULES_VERSION, AliceVariant


class Alice(Game):
    id = GAME_ID
    title = "Alice in Wonderland (unoAlice)"
    aliases = ("unoalice",)
    rules_version = RULES_VERSION
    Variant = AliceVariant
    min_players = 3
    max_players = 6
    example_variants = (
        AliceVariant(turns=3),
        AliceVariant(cards="tea-party"),
        AliceVariant(cards="tea-party", turns=30),
    )

    state_class = AliceState

    def check_variant(self, variant: Variant, players: int) -> None:
        variant.validate()

    from_line = position.from_line
    world_sampler = worlds_in("kifu.games.alice.worlds")

    def parse_action(self, state: State, text: str) -> Action:
        return codec.parse_action(state, text)

    def format_action(self, state: State, action: Action) -> str:
        if type(action) is Roles:
            assert isinstance(state, AliceState)
            return codec.format_roles(state, action)
        return codec.format_action(action)

    def chance_action(self, state: State, rng: Rng) -> Action:
        """Roles: a shuffle of the set's roles, the first n dealt to p0, p1, ...; the
        opening deal: each deck shuffled, 2 nouns, 1 verb, 2 adjectives to each seat in
        turn; a draw: a uniform card of the deck; the ♥Q redeal: the pooled cards (sorted)
        shuffled and dealt one at a time from the start seat."""
        assert isinstance(state, AliceState)
        n = state.n
        ph = state.phase
        if ph == ROLES:
            order = rng.shuffled(range(len(state._tb.role_letters)))
            return Roles(tuple(order[:n]))
        if ph == DEAL:
            piles = [rng.shuffled([c for c in state.deck if CODE_TYPE[c] == t])
                     for t in range(3)]
            return Deal(tuple(
                tuple(sorted(piles[0][2 * s:2 * s + 2] + piles[1][s:s + 1]
                             + piles[2][2 * s:2 * s + 2]))
                for s in range(n)))
        if ph in (DRAW, FORCED):
            return rng.choice(state.legal_actions())
        if ph == POOL:
            pool = rng.shuffled(sorted(c for h in state.hands for c in h))
            hands: list[list[int]] = [[] for _ in range(n)]
            for i, c in enumerate(pool):
                hands[(state.cstart + i) % n].append(c)
            return Deal(tuple(tuple(sorted(h)) for h in hands))
        raise IllegalActionError("no dealer action is due here", rule="turn")

    def variant_with_cards(self, path: str | Path,
                           variant: AliceVariant | None = None) -> AliceVariant:
        """For ``--cards FILE``: load and register the card-set file, and return ``variant``
        (default: the default rules) playing with it."""
        cs = load_card_file(path)
        base = variant if variant is not None else AliceVariant()
        return AliceVariant(cards=cs.name, turns=base.turns)


GAME = Alice()
