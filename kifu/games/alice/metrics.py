"""Alice's own events, counted over a finished (or cut) game: what ``kifu simulate`` and
``kifu archive stats --by rules`` report beside the generic figures.

:func:`metrics` replays ``state.history`` on a fresh state with the engine's rule-event
trace switched on (``AliceState.trace``: one tag per check, void turn, swap, effect...), and
reads who won as what role from the final state; it is pure.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.core.metrics import replayed, tally
from kifu.games.alice.actions import Drink
from kifu.games.alice.cards import SKILLS
from kifu.games.alice.state import NONE, SYSTEM, AliceState

METRICS: dict[str, str] = {
    "turns": "turns played, one sentence each (void turns and the turn a goal ended)",
    "checks": "checks (the sentence was complete and compared)",
    "bard_wins": "checks the Bard won",
    "no_winner": "checks nobody won (equal totals, or both over 21)",
    "system_checks": "checks against the system (the Bard owned the object noun)",
    "drinks": "Drink me! said (by choice or by a Bard holding no verb)",
    "forced_drinks": "Drink me! by a Bard holding no verb",
    "void_turns": "void turns: everyone still in was out with blanks left",
    "role_swaps": "roles swapped after a check (the loser was already face up)",
    "queen_hits": "SP a face-up Queen of Hearts took from a player she beat",
    "alice_bonus": "SP a face-up Alice gained from four suits in the sentence",
    "tells": "SP moved by the tell card (the verb told) after a check",
    "buys": "three cards discarded for 1 SP (the merchant)",
    "goal_win": "1 when a role reached its SP goal (else the turn limit ended the game)",
    **{f"wins_{k}": f"seats placed first holding a role with the {k} skill at the end"
       for k in SKILLS},
}
"""Every count :func:`metrics` returns, with its meaning (one line each)."""

RATES = frozenset({"goal_win", *(f"wins_{k}" for k in SKILLS)})
"""The counts that are 0 or 1 a game (reported as shares)."""

_TAGS = {"void": "void_turns", "swap": "role_swaps", "queen": "queen_hits",
         "alice": "alice_bonus", "tell": "tells", "buy": "buys", "forced": "forced_drinks"}


def metrics(state: State) -> dict[str, int]:
    """The counts of :data:`METRICS` for the game played in ``state`` (from its history)."""
    assert isinstance(state, AliceState)
    counts = tally(METRICS, state.history, {Drink: ("drinks",)})
    trace: list[tuple[int, str, str]] = []
    for replay, action in replayed(state):
        assert isinstance(replay, AliceState)
        replay.trace = trace  # the same list at every step: set before the first push
        bard = replay.bard
        seen = len(trace)
        replay.push(action)  # the rule events it caused are traced
        for _ply, tag, _text in trace[seen:]:
            if tag == "check":
                counts["checks"] += 1
                if replay.opp == SYSTEM:
                    counts["system_checks"] += 1
                if replay.win == bard:
                    counts["bard_wins"] += 1
                elif replay.win == NONE:
                    counts["no_winner"] += 1
            elif tag in _TAGS:
                counts[_TAGS[tag]] += 1
    result = state.result()
    # the turns completed, and the one the game ended in (by a goal) or was cut in
    ended_by_limit = result is not None and not state.winners  # type: ignore[attr-defined]
    started = state.bard != NONE  # type: ignore[attr-defined]
    counts["turns"] = state.turns + int(started and not ended_by_limit)  # type: ignore
    if result is not None:
        counts["goal_win"] = int(state.winners != 0)  # type: ignore[attr-defined]
        skills = state._tb.role_skill  # type: ignore[attr-defined]
        for seat, rank in enumerate(result.ranks):
            if rank == 1:
                counts[f"wins_{SKILLS[skills[state.roles[seat]]]}"] += 1  # type: ignore
    return counts
