"""What the step tests share: one action played on a copy of a position by the fused
``step`` or by ``check`` then ``push``, and what came of it."""

from __future__ import annotations

from kifu.core.errors import IllegalActionError
from kifu.core.game import State


def verdict(state: State, action, fused: bool) -> tuple:
    """(error text or None, to_move, to_line, key) after playing ``action`` on a copy of
    ``state``: by ``step`` when ``fused``, else by ``check`` then ``push``. A refused action
    must leave the copy as it was; an accepted one must leave it consistent and, after a
    ``step``, ``pop`` must undo it."""
    probe = state.copy()
    before = probe.key()
    try:
        if fused:
            mover = probe.step(action)
        else:
            probe.check(action)
            probe.push(action)
            mover = probe.to_move
    except IllegalActionError as e:
        assert probe.key() == before, "a refused action changed the state"
        return (str(e), None, None, None)
    got = (None, mover, probe.to_line(), probe.key())
    probe.check_invariants()
    if fused:
        assert probe.pop() == action and probe.key() == before
        assert probe.to_line() == state.to_line()
    return got
