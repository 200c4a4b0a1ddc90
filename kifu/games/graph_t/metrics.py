"""GRAPH-T's own events, counted over a finished (or cut) game: what ``kifu simulate`` and
``kifu archive stats --by rules`` report beside the generic figures.

:func:`metrics` reads the plays of ``state.history`` trick by trick (``rules.trick_winner``
decides each trick, as the engine does) and the final stacks of ``state``; it is pure.
Heights are in 1/60 of a card, as in the ``Result`` header.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.core.metrics import tally
from kifu.games.graph_t import rules
from kifu.games.graph_t.actions import Play
from kifu.games.graph_t.cards import GREY, PLAY_IS_GREY

METRICS: dict[str, str] = {
    "turns": "plays made (each play is one player's turn)",
    "tricks": "tricks completed",
    "grey_plays": "grey plays: a grey side or the pure grey card",
    "grey_leads": "tricks led with a grey play",
    "grey_tricks": "tricks won by a grey play",
    "stack_total": "the height of every stack of every seat at the end, added up (1/60 card)",
    "tallest_stack": "the tallest stack of the game at the end (1/60 card)",
    "grey_stack": "the height of the grey stacks at the end, all seats (1/60 card)",
}
"""Every count :func:`metrics` returns, with its meaning (one line each)."""

_KINDS: dict[type, tuple[str, ...]] = {Play: ("turns",)}
"""The counts an action's type alone tells."""


def metrics(state: State) -> dict[str, int]:
    """The counts of :data:`METRICS` for the game played in ``state``."""
    counts = tally(METRICS, state.history, _KINDS)
    trump = state.variant.grey_wins == "trump"
    n = state.n
    trick: list[int] = []
    for action in state.history:
        if type(action) is not Play:
            continue
        pid = action.pid
        if PLAY_IS_GREY[pid]:
            counts["grey_plays"] += 1
            if not trick:
                counts["grey_leads"] += 1
        trick.append(pid)
        if len(trick) == n:
            counts["tricks"] += 1
            if PLAY_IS_GREY[trick[rules.trick_winner(trick, trump)]]:
                counts["grey_tricks"] += 1
            trick = []
    heights = state.heights  # type: ignore[attr-defined]
    counts["stack_total"] = sum(sum(h) for h in heights)
    counts["tallest_stack"] = max((max(h) for h in heights), default=0)
    counts["grey_stack"] = sum(h[GREY] for h in heights)
    return counts
