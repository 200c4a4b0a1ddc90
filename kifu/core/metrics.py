"""What the games' metrics modules (``kifu/games/<game>/metrics.py``) share: counting the
actions of a finished game by type, and replaying its history to see the position before
each action.

>>> from kifu import games
>>> state = games.get("tweak").new_state(2)
>>> tally(("rounds", "turns"), state.history, {})
{'rounds': 0, 'turns': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from kifu.core.game import Action, State


def tally(names: Iterable[str], actions: Iterable[Action],
          kinds: Mapping[type, tuple[str, ...]]) -> dict[str, int]:
    """A count for each of ``names``: one for every metric that ``kinds`` lists under the
    type of each of ``actions`` (the events an action's type alone tells), 0 otherwise."""
    counts = dict.fromkeys(names, 0)
    for action in actions:
        for name in kinds.get(type(action), ()):
            counts[name] += 1
    return counts


def replayed(state: State) -> Iterator[tuple[State, Action]]:
    """``state.history`` replayed on a fresh state of the same game, players and rules:
    ``(replay, action)`` with ``replay`` at the position before ``action``. The loop body
    may push ``action`` itself to look at the position after it; otherwise it is pushed
    when the loop comes back."""
    replay = type(state)(state.n, state.variant)  # type: ignore[call-arg]
    done = replay.history
    for i, action in enumerate(state.history):
        yield replay, action
        if len(done) == i:
            replay.push(action)
