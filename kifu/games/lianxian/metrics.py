"""Lianxian's own events, counted over a finished (or cut) game: what ``kifu simulate`` and
``kifu archive stats --by rules`` report beside the generic figures.

:func:`metrics` replays ``state.history`` on a fresh state, so it sees the board before and
after each placement (which combos scored, which spaces took tiles); it is pure.
"""

from __future__ import annotations

from kifu.core.game import State
from kifu.games.lianxian import placements
from kifu.games.lianxian.actions import Pass, Place, Recycle, Swap
from kifu.games.lianxian.state import LianxianState

METRICS: dict[str, str] = {
    "turns": "turns played: a placement, a swap or a pass",
    "placements": "placements (turns that put tiles on the board)",
    "tiles_placed": "tiles put on the board",
    "set_combos": "set combos (same number) that scored, each once per placement",
    "run_combos": "run combos (same suit, consecutive numbers) that scored, once per placement",
    "swaps": "swaps of rack tiles with the bag",
    "passes": "passes (no swap was possible)",
    "recycles": "recycles: the tiles under the tops went back into the bag",
    "bonus_tiles": "tiles placed on a side's bonus space",
    "bonus_points": "points the other players scored from their bonus spaces",
}
"""Every count :func:`metrics` returns, with its meaning (one line each)."""


def metrics(state: State) -> dict[str, int]:
    """The counts of :data:`METRICS` for the game played in ``state`` (from its history).

    >>> from kifu.games.lianxian import GAME
    >>> metrics(GAME.new_state(2))["placements"]
    0
    """
    assert isinstance(state, LianxianState)
    counts = dict.fromkeys(METRICS, 0)
    replay = LianxianState(state.n, state.variant)
    board = replay.board
    for action in state.history:
        t = type(action)
        if t is Place:
            mover = replay.mover
            before = replay.scores
            cells = action.cells  # type: ignore[attr-defined]
            counts["turns"] += 1
            counts["placements"] += 1
            counts["tiles_placed"] += len(cells)
            counts["bonus_tiles"] += sum(1 for p, _ in cells if board.owner[p] >= 0)
            tops = placements.final_tops(replay.tops(), cells)
            sets, runs = set(), set()
            for p, _ in cells:
                set_comp, run_comp = placements.components(board, tops, p)
                if set_comp:
                    sets.add(set_comp)
                if run_comp:
                    runs.add(run_comp)
            counts["set_combos"] += len(sets)
            counts["run_combos"] += len(runs)
            replay.push(action)
            counts["bonus_points"] += sum(
                replay.scores[s] - before[s] for s in range(state.n) if s != mover)
            continue
        if t is Swap:
            counts["turns"] += 1
            counts["swaps"] += 1
        elif t is Pass:
            counts["turns"] += 1
            counts["passes"] += 1
        elif t is Recycle:
            counts["recycles"] += 1
        replay.push(action)
    return counts
