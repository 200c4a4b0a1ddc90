"""TOWAI's own events, counted over a finished (or cut) game: what ``kifu simulate`` and
``kifu archive stats --by rules`` report beside the generic figures.

:func:`metrics` replays ``state.history`` on a fresh state, so it sees the phase before each
action (a combo card is a play in a turn's chain) and whether a card ended the round (the
last card's effect and flip are not resolved, ruling 8); it is pure.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.core.metrics import replayed, tally
from kifu.games.towai import actions as act
from kifu.games.towai.cards import DRAW, RESET, SWAP, TWAI, TYPE
from kifu.games.towai.state import CHAIN, TowaiState

METRICS: dict[str, str] = {
    "turns": "turns ended: by a stop, a pass, for want of a combo card, or by going out",
    "rounds": "rounds dealt",
    "leads": "leads onto an empty field",
    "combos": "combo cards: plays after the first of a turn (same number)",
    "passes": "passes (each draws a card)",
    "twai_flips": "Twai cards whose flip was resolved (not a round's last card)",
    "draws": "Draws (T3) resolved: every other player drew a card",
    "resets": "Resets (T4) resolved: the field was discarded",
    "swaps": "Swaps (T5) resolved: every hand passed a card on",
    "rebuilds": "deck rebuilds from the pool",
    "cap_rounds": "rounds ended by the turn cap (the fewest cards won)",
}
"""Every count :func:`metrics` returns, with its meaning (one line each)."""

_EFFECT = {DRAW: "draws", RESET: "resets", SWAP: "swaps"}


_KINDS: dict[type, tuple[str, ...]] = {act.Lead: ("leads",), act.Pass: ("passes",),
                                      act.Rebuild: ("rebuilds",), act.Deal: ("rounds",)}
"""The counts an action's type alone tells."""


def metrics(state: State) -> dict[str, int]:
    """The counts of :data:`METRICS` for the game played in ``state`` (from its history)."""
    assert isinstance(state, TowaiState)
    counts = tally(METRICS, state.history, _KINDS)
    for replay, action in replayed(state):
        assert isinstance(replay, TowaiState)
        chain = replay.phase == CHAIN
        turns, wins = replay.turns, replay.wins
        replay.push(action)  # to see whether it ended the turn or the round
        round_over = replay.wins != wins
        if round_over or replay.turns > turns:
            counts["turns"] += 1
        if round_over:
            winner = next(s for s in range(state.n) if replay.wins[s] != wins[s])
            if replay.hl[winner]:
                counts["cap_rounds"] += 1
        t = type(action)
        if t is act.Play and chain:
            counts["combos"] += 1
        if (t is act.Lead or t is act.Play) and not round_over:
            card = action.card  # type: ignore[attr-defined]
            if TYPE[card] == TWAI:
                counts["twai_flips"] += 1
                effect = _EFFECT.get(card)
                if effect:
                    counts[effect] += 1
    return counts
