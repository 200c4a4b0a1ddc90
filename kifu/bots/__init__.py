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


_EXTRA_BOTS: dict[str, dict[str, tuple[str, str]]] = {"towai": {"out": ("kifu.bots.towai",
                                                                          "OutBot")}}
"""The bots registered here, by game: name -> (module, class), imported when one is wanted
(TOWAI's ``out`` brings the solver: ``kifu games`` lists it without loading it)."""


def _game_bots(game: Game) -> dict[str, type[Bot]]:
    """The bots of one game: its own (``Game.bots``), then those registered here."""
    import importlib

    extra = {name: getattr(importlib.import_module(module), attr)
             for name, (module, attr) in _EXTRA_BOTS.get(game.id, {}).items()}
    return {**game.bots, **extra}


def _search_bots(game: Game) -> dict[str, type[Bot]]:
    """The game-independent searchers, for every game with a world sampler: ``expert``
    (the strong bot on the evaluator, the default searcher) first."""
    if type(game).world_sampler is Game.world_sampler:
        return {}
    from kifu.bots.expert import ExpertBot
    from kifu.bots.ismcts import IsmctsBot
    from kifu.bots.pimc import PimcBot

    return {"expert": ExpertBot, "pimc": PimcBot, "ismcts": IsmctsBot}


def classic_bots(game: Game) -> list[str]:
    """The names of the game's own bots, in registry order (the order the golden traces
    cycle through: adding a bot elsewhere must not change them)."""
    return list(dict.fromkeys([*game.bots, *_EXTRA_BOTS.get(game.id, {})]))


def bot_names(game: Game) -> list[str]:
    """Every bot name ``game`` can be played by (the searchers' without parameters)."""
    return classic_bots(game) + list(_search_bots(game))


def bot_descriptions(game: Game) -> list[str]:
    """Every bot of ``game``, the searchers with their parameters at this game's defaults
    (``pimc:worlds=8:actions=64``): what ``kifu games`` lists."""
    search = _search_bots(game)
    return classic_bots(game) + [cls.describe(game) for cls in search.values()]  # type: ignore[attr-defined]


def search_parameters() -> dict[str, dict[str, str]]:
    """The searchers' parameters and what each means (``{"pimc": {"worlds": "..."}}``),
    for listings; each game's defaults are in :func:`bot_descriptions`."""
    from kifu.bots.expert import ExpertBot
    from kifu.bots.ismcts import IsmctsBot
    from kifu.bots.pimc import PimcBot

    return {cls.name: {k: f"{p.help} ({p.kind.__name__}, {p.span()})"
                       for k, p in cls.PARAMS.items() if not p.quiet}
            for cls in (ExpertBot, PimcBot, IsmctsBot)}


def bot_class(game: Game, name: str) -> type[Bot] | None:
    """The class of a bot (for its properties, e.g. ``open_hand``), or ``None``."""
    base = name.partition(":")[0]
    return _game_bots(game).get(base) or _search_bots(game).get(base)


def default_bot(game: Game) -> str:
    """The bot that plays when none is named: ``greedy`` where the game has it."""
    return "greedy" if "greedy" in _game_bots(game) else "random"


def make_bot(game: Game, name: str, seat: int, rng: Rng) -> Bot:
    """A bot for ``seat`` from its name, parameters included (``pimc:worlds=16``); raises
    :class:`VariantError` for an unknown bot or a bad parameter."""
    base, colon, params = name.partition(":")
    cls = _game_bots(game).get(base)
    if cls is not None:
        if colon:
            raise VariantError(f"{game.id} bot {short(base)} takes no parameters "
                               f"(in {short(name)})")
        return cls(seat, rng)
    search = _search_bots(game).get(base)
    if search is None:
        known = ", ".join(bot_descriptions(game))
        raise VariantError(f"{game.id} has no bot {short(name)} (known: {known})")
    return search(seat, rng, game=game, **search.parse_params(params))  # type: ignore[attr-defined]


def check_bot(game: Game, name: str) -> None:
    """Raise :class:`VariantError` unless ``name`` is a bot of ``game`` (parameters too)."""
    make_bot(game, name, 0, Rng(0))


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
