"""Playing whole games with bots, from a seed, into records."""

from __future__ import annotations

from collections.abc import Sequence

from kifu.bots import play_actions
from kifu.core.game import Game
from kifu.core.variant import Variant
from kifu.notation.record import Record
from kifu.notation.replay import record_from_actions


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
