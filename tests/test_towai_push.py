"""TOWAI ``push`` shortcuts against the general path, over the perft file's positions.

``push`` plays the common actions inline with small tagged undo records (see the comment
above ``TowaiState.push``); everything else takes ``_apply`` after a full snapshot. Here
every legal action of every node a few plies below each perft position is played both
ways: the positions must agree, ``pop`` must restore the position exactly, and every
shortcut tag must have been taken at least once (so a shortcut that is never reached
cannot hide here).
"""

from __future__ import annotations

from pathlib import Path

from kifu import games
from kifu.games.towai.state import TowaiState
from kifu.notation.perftfile import read_perft

GAME = games.get("towai")
PERFT = Path(__file__).resolve().parent.parent / "fixtures" / "perft" / "towai.perft"
DEPTH = 5
FAST_TAGS = set(range(1, 13))


def _whole(state: TowaiState) -> tuple:
    return (state.key(), state.to_move, state.to_line())


def _compare(state: TowaiState, depth: int, tags: set[int]) -> None:
    for action in state.legal_actions():
        before = _whole(state)
        fast = state.copy()
        fast.push(action)
        tags.add(fast._undo[-1][0])
        slow = state.copy()
        slow._undo.append((0, *slow._snap()))
        slow.history.append(action)
        slow._apply(action)
        assert _whole(fast) == _whole(slow), (state.to_line(), action)
        assert fast.history == slow.history == [action]
        fast.check_invariants()
        assert fast.pop() is action
        assert _whole(fast) == before and not fast.history, (state.to_line(), action)
        state.push(action)
        if depth > 1:
            _compare(state, depth - 1, tags)
        state.pop()
        assert _whole(state) == before, (state.to_line(), action)


def test_every_shortcut_reaches_the_general_paths_position_and_pops_back() -> None:
    tags: set[int] = set()
    for case in read_perft(PERFT):
        state = GAME.from_line(case.position)
        _compare(state, DEPTH, tags)
    assert tags >= FAST_TAGS, f"shortcuts never taken: {sorted(FAST_TAGS - tags)}"


def test_a_shortcut_keeps_the_hands_list_of_a_copy_apart() -> None:
    """The last Swap choice and a Draw replace the hands list; a copy made before must not
    see the change, nor the original see the copy's."""
    case = next(c for c in read_perft(PERFT) if c.id == "4p-swap-choices")
    state = GAME.from_line(case.position)
    line = state.to_line()
    twin = state.copy()
    while state.legal_actions() and len(state.history) < 6:
        state.push(state.legal_actions()[0])
    assert twin.to_line() == line
    while state.history:
        state.pop()
    assert state.to_line() == line
