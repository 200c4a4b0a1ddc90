"""TWEAK's own events, counted over a finished (or cut) game: what ``kifu simulate`` and
``kifu archive stats --by rules`` report beside the generic figures.

:func:`metrics` replays the game's actions (``state.history``) on a fresh state, so it can
see the table before each capture; it is pure and needs no record or file.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.core.metrics import replayed, tally
from kifu.games.tweak import actions as act
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


_KINDS: dict[type, tuple[str, ...]] = {
    act.Capture: ("turns", "captures"),
    act.Pass: ("turns", "passes"),
    act.UseJoker: ("jokers",),
    act.UseShifter: ("shifters",),
    act.UseThief: ("thieves",),
    act.UseBomb: ("bombs",),
    act.Steal: ("thief_steals",),
    act.Deal: ("rounds",),
}
"""The counts an action's type alone tells."""


def metrics(state: State) -> dict[str, int]:
    """The counts of :data:`METRICS` for the game played in ``state`` (from its history)."""
    assert isinstance(state, TweakState)
    counts = tally(METRICS, state.history, _KINDS)
    for replay, action in replayed(state):
        t = type(action)
        if t is act.Capture:
            taken = action.taken  # type: ignore[attr-defined]
            table = replay.table  # type: ignore[attr-defined]
            if taken and len(taken) == len(table):
                counts["tweaks"] += 1
                if replay.tpos < len(replay.tpile):  # type: ignore[attr-defined]
                    counts["t_won"] += 1
        elif t is act.Place:
            if replay.phase == BOMB_PHASE:  # type: ignore[attr-defined]
                counts["bomb_victims"] += 1
            else:
                counts["turns"] += 1
                counts["places"] += 1
    return counts
