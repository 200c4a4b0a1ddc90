"""Bots written outside kifu, by name, where the lab builds bots (``kifu match``).

``openspiel-ismcts[:sims=N]`` and ``openspiel-mcts[:sims=N]`` (the all-seeing cheater)
come from :mod:`kifu.interop.bots` (the ``kifu[openspiel]`` extra); every other name goes
to the registry of :mod:`kifu.bots`. This sits in the lab layer because the interop layer
is above the bots layer: the bots registry cannot import it (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from kifu import bots as registry
from kifu.core.errors import KifuError
from kifu.core.game import DEALER, Action, Bot, Game
from kifu.core.rng import Rng
from kifu.core.variant import Variant

PREFIX = "openspiel-"


def is_outside(name: str) -> bool:
    """True for the name of a bot this module makes (``openspiel-...``)."""
    return name.startswith(PREFIX)


def make_bot(game: Game, name: str, seat: int, rng: Rng) -> Bot:
    """:func:`kifu.bots.make_bot`, with the outside bots too."""
    if is_outside(name):
        from kifu.interop.bots import make

        return make(game, name, seat, rng)
    return registry.make_bot(game, name, seat, rng)


def check_bot(game: Game, name: str) -> None:
    """Raise :class:`VariantError` unless ``name`` is a bot of ``game`` (outside ones too)."""
    make_bot(game, name, 0, Rng(0))


def play_actions(game: Game, bot_names: Sequence[str], seed: int | str,
                 variant: Variant | None = None) -> list[Action]:
    """:func:`kifu.bots.play_actions` with the outside bots: the registry's own loop when
    no seat has one (so matches without them play exactly as before)."""
    if not any(is_outside(b) for b in bot_names):
        return registry.play_actions(game, bot_names, seed, variant)
    state = game.new_state(len(bot_names), variant)
    rng = Rng(seed)
    dealer_rng = rng.fork(0)
    seats = [make_bot(game, b, s, rng.fork(s + 1)) for s, b in enumerate(bot_names)]
    actions: list[Action] = []
    while (seat := state.to_move) is not None:
        action = (game.chance_action(state, dealer_rng) if seat == DEALER
                  else seats[seat].choose(state))
        state.apply(action)
        actions.append(action)
        if len(actions) > registry.MAX_PLIES:
            raise KifuError(f"the game did not end within {registry.MAX_PLIES} plies")
    return actions
