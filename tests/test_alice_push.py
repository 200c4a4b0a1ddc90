"""``AliceState.push`` takes shortcuts on perft's hot path (a Clean Phase ``Draw`` and the
dealer's ``Card``, with short undo records) and ``count_legal`` counts without building
actions. These tests pin both to the general path: every legal action of every node a few
plies below each perft position and along seeded games is played both ways (``push``, and
a full snapshot then ``_apply``), and the positions must agree, ``pop`` must restore the
position exactly, and every shortcut must have been taken."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.alice.state import PLAY, AliceState
from kifu.notation.perftfile import read_perft

GAME = games.get("alice")
ROOT = Path(__file__).resolve().parent.parent
CASES = read_perft(ROOT / "fixtures" / "perft" / "alice.perft")
FULL = len(GAME.new_state(3)._snap())


def both_ways(state: AliceState, seen: Counter[int]) -> None:
    """Play every legal action by ``push`` and by the general path; compare, undo."""
    before = state.key(), state.to_line()
    acts = state.legal_actions()
    assert state.count_legal() == len(acts)
    if state.phase == PLAY:
        assert state._count_plays(state.turn) == len(state._plays(state.turn))
    for a in acts:
        ref = state.copy()
        ref._undo.append(ref._snap())
        ref.history.append(a)
        ref._apply(a)
        state.push(a)
        seen[len(state._undo[-1])] += 1
        assert state.key() == ref.key(), (before[1], a)
        assert state.to_line() == ref.to_line()
        assert state.count_legal() == ref.count_legal() == len(ref.legal_actions())
        assert state.pop() is a
        assert (state.key(), state.to_line()) == before


def walk(state: AliceState, depth: int, seen: Counter[int]) -> None:
    both_ways(state, seen)
    if depth:
        for a in state.legal_actions():
            state.push(a)
            walk(state, depth - 1, seen)
            state.pop()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_shortcuts_below_perft_positions(case) -> None:
    seen: Counter[int] = Counter()
    walk(GAME.from_line(case.position), 2 if case.id == "3p-clean" else 3, seen)
    if case.id == "3p-clean":
        assert seen[4] and seen[2], seen  # the Card and the Draw shortcuts


@pytest.mark.parametrize("variant", [None, "alice/1;cards=tea-party"])
def test_shortcuts_along_games(variant) -> None:
    seen: Counter[int] = Counter()
    for seed in range(6):
        n = 3 + seed % 4
        s = GAME.new_state(n, GAME.parse_rules(variant) if variant else None)
        rng = Rng(seed)
        while s.to_move is not None:
            both_ways(s, seen)
            acts = s.legal_actions()
            s.push(GAME.chance_action(s, rng) if not acts and s.to_move == DEALER
                   else rng.choice(acts))
            s.check_invariants()
        while s.history:  # a whole game undone, shortcuts and snapshots mixed
            s.pop()
        assert s.to_line() == GAME.new_state(n, s.variant).to_line()
    assert seen[4] and seen[2] and seen[FULL], seen
