"""Bots above the engines: the registry of every game's bots, the play loop, and the bots
that need more than one game's engine (the solver-backed TOWAI ``out``; the
game-independent searchers).

A game's own simple bots (``random``, ``greedy``, GRAPH-T's rulebook ``ai``...) live in its
folder (``kifu/games/<game>/bots.py``, listed in ``Game.bots``). A bot that calls a puzzle
solver lives here, one layer up, where it can see both the engine and ``kifu.puzzles``.
Everything that plays games asks this registry (:func:`bot_names`, :func:`make_bot`), never
``Game.bots`` directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kifu.core.errors import KifuError, VariantError
from kifu.core.game import DEALER, Action, Bot, Game
from kifu.core.rng import Rng
from kifu.core.variant import Variant, short

MAX_PLIES = 100_000
"""A bot game longer than this is an engine bug, not a game: it is stopped with an error."""

BotFactory = Callable[[int, Rng], Bot]


def _game_bots(game: Game) -> dict[str, type[Bot]]:
    """The bots of one game: its own (``Game.bots``), then those registered here."""
    from kifu.bots.towai import OutBot

    extra: dict[str, dict[str, type[Bot]]] = {"towai": {"out": OutBot}}
    return {**game.bots, **extra.get(game.id, {})}


def classic_bots(game: Game) -> list[str]:
    """The names of the game's own bots, in registry order (the order the golden traces
    cycle through: adding a bot elsewhere must not change them)."""
    return list(_game_bots(game))


def bot_names(game: Game) -> list[str]:
    """Every bot name ``game`` can be played by."""
    return classic_bots(game)


def bot_class(game: Game, name: str) -> type[Bot] | None:
    """The class of a bot (for its properties, e.g. ``open_hand``), or ``None``."""
    return _game_bots(game).get(name.partition(":")[0])


def default_bot(game: Game) -> str:
    """The bot that plays when none is named: ``greedy`` where the game has it."""
    return "greedy" if "greedy" in _game_bots(game) else "random"


def make_bot(game: Game, name: str, seat: int, rng: Rng) -> Bot:
    """A bot for ``seat`` from its name (raises :class:`VariantError` for an unknown one)."""
    cls = _game_bots(game).get(name)
    if cls is None:
        known = ", ".join(bot_names(game))
        raise VariantError(f"{game.id} has no bot {short(name)} (known: {known})")
    return cls(seat, rng)


def make_bots(game: Game, names: Sequence[str], rng: Rng) -> list[Bot]:
    """One bot per seat; each gets its own RNG stream forked from the game's seed."""
    return [make_bot(game, name, seat, rng.fork(seat + 1)) for seat, name in enumerate(names)]


def play_actions(
    game: Game, bot_names: Sequence[str], seed: int | str, variant: Variant | None = None
) -> list[Action]:
    """Play one game: the dealer's actions come from ``seed``, the players' from the bots."""
    n = len(bot_names)
    state = game.new_state(n, variant)
    rng = Rng(seed)
    dealer_rng = rng.fork(0)
    bots = make_bots(game, bot_names, rng)
    actions: list[Action] = []
    while True:
        seat = state.to_move
        if seat is None:
            return actions
        action = game.chance_action(state, dealer_rng) if seat == DEALER else bots[seat].choose(
            state
        )
        state.apply(action)
        actions.append(action)
        if len(actions) > MAX_PLIES:
            raise KifuError(f"the game did not end within {MAX_PLIES} plies")
