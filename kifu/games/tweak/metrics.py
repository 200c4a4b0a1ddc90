"""TWEAK's own events, counted over a finished (or cut) game: what ``kifu simulate`` and
``kifu archive stats --by rules`` report beside the generic figures.

:func:`metrics` replays the game's actions (``state.history``) on a fresh state, so it can
see the table before each capture; it is pure and needs no record or file.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.games.tweak.actions import (
    Capture,
    Deal,
    Pass,
    Place,
    Steal,
    UseBomb,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.games.tweak.state import BOMB_PHASE, TweakState

METRICS: dict[str, str] = {
    "turns": "turns played: a card placed or a capture on one's turn, or a pass",
    "rounds": "rounds dealt",
    "captures": "captures (a hand card with table cards, or alone under empty_capture)",
    "tweaks": "TWEAKs: captures that took every table card",
    "t_won": "T! cards won by a TWEAK (the T! pile was not empty)",
    "places": "hand cards placed on the table on one's turn",
    "jokers": "Jokers used (+1 or -1)",
    "shifters": "Shifters used",
    "thieves": "Thieves used",
    "bombs": "Bombs used",
    "bomb_victims": "cards put down by the players a Bomb hit",
    "thief_steals": "cards the Thief's draw took from a hand",
    "passes": "turns lost to an empty hand",
}
"""Every count :func:`metrics` returns, with its meaning (one line each)."""


def metrics(state: State) -> dict[str, int]:
    """The counts of :data:`METRICS` for the game played in ``state`` (from its history).

    >>> from kifu.games.tweak import GAME
    >>> metrics(GAME.new_state(2))["captures"]
    0
    """
    assert isinstance(state, TweakState)
    counts = dict.fromkeys(METRICS, 0)
    replay = TweakState(state.n, state.variant)
    for action in state.history:
        t = type(action)
        phase = replay.phase
        if t is Capture:
            counts["turns"] += 1
            counts["captures"] += 1
            taken = action.taken  # type: ignore[attr-defined]
            if taken and len(taken) == len(replay.table):
                counts["tweaks"] += 1
                if replay.tpos < len(replay.tpile):
                    counts["t_won"] += 1
        elif t is Place:
            if phase == BOMB_PHASE:
                counts["bomb_victims"] += 1
            else:
                counts["turns"] += 1
                counts["places"] += 1
        elif t is Pass:
            counts["turns"] += 1
            counts["passes"] += 1
        elif t is UseJoker:
            counts["jokers"] += 1
        elif t is UseShifter:
            counts["shifters"] += 1
        elif t is UseThief:
            counts["thieves"] += 1
        elif t is UseBomb:
            counts["bombs"] += 1
        elif t is Steal:
            counts["thief_steals"] += 1
        elif t is Deal:
            counts["rounds"] += 1
        replay.push(action)
    return counts
