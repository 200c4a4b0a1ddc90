"""Playing whole games with bots, from a seed, into records."""

from __future__ import annotations

from collections.abc import Sequence

from kifu.core.errors import KifuError, VariantError
from kifu.core.game import DEALER, Action, Bot, Game
from kifu.core.rng import Rng
from kifu.core.variant import Variant
from kifu.notation.record import Record
from kifu.notation.replay import record_from_actions

MAX_PLIES = 100_000


def make_bots(game: Game, names: Sequence[str], rng: Rng) -> list[Bot]:
    """One bot per seat; each gets its own RNG stream forked from the game's seed."""
    bots = []
    for seat, name in enumerate(names):
        cls = game.bots.get(name)
        if cls is None:
            known = ", ".join(game.bots)
            raise VariantError(f"{game.id} has no bot {name!r} (known: {known})")
        bots.append(cls(seat, rng.fork(seat + 1)))
    return bots


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


def play_record(
    game: Game,
    bot_names: Sequence[str],
    seed: int | str,
    variant: Variant | None = None,
    *,
    date: str = "????.??.??",
    extra_headers: dict[str, str] | None = None,
) -> Record:
    """A complete bot game as a canonical record."""
    actions = play_actions(game, bot_names, seed, variant)
    headers = {"Date": date, "Seed": str(seed), **(extra_headers or {})}
    record = record_from_actions(game, list(bot_names), actions, variant=variant,
                                 headers=headers)
    record.headers["Date"] = date
    return record
