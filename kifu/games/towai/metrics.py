"""TOWAI's own events, counted over a finished (or cut) game: what ``kifu simulate`` and
``kifu archive stats --by rules`` report beside the generic figures.

:func:`metrics` replays ``state.history`` on a fresh state, so it sees the phase before each
action (a combo card is a play in a turn's chain) and whether a card ended the round (the
last card's effect and flip are not resolved, ruling 8); it is pure.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.games.towai.actions import Deal, Lead, Pass, Play, Rebuild
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


def metrics(state: State) -> dict[str, int]:
    """The counts of :data:`METRICS` for the game played in ``state`` (from its history).

    >>> from kifu.games.towai import GAME
    >>> metrics(GAME.new_state(3))["turns"]
    0
    """
    assert isinstance(state, TowaiState)
    counts = dict.fromkeys(METRICS, 0)
    replay = TowaiState(state.n, state.variant)
    for action in state.history:
        t = type(action)
        phase = replay.phase
        turns, wins = replay.turns, replay.wins
        replay.push(action)
        round_over = replay.wins != wins
        if round_over or replay.turns > turns:
            counts["turns"] += 1
        if round_over:
            winner = next(s for s in range(state.n) if replay.wins[s] != wins[s])
            if replay.hl[winner]:
                counts["cap_rounds"] += 1
        if t is Lead or t is Play:
            card = action.card  # type: ignore[attr-defined]
            if t is Lead:
                counts["leads"] += 1
            elif phase == CHAIN:
                counts["combos"] += 1
            if TYPE[card] == TWAI and not round_over:
                counts["twai_flips"] += 1
                effect = _EFFECT.get(card)
                if effect:
                    counts[effect] += 1
        elif t is Pass:
            counts["passes"] += 1
        elif t is Rebuild:
            counts["rebuilds"] += 1
        elif t is Deal:
            counts["rounds"] += 1
    return counts
