"""alice-bard-wins (ruling 21) on the solver: answers against the naive recursion on 200
seeded positions, the stated answers of fixtures/puzzles/alice.kifu, answer parsing."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_alice_bardwins import positions

from kifu.core.errors import NotationError
from kifu.games.alice.bardwins import bard_wins_naive, decided
from kifu.notation.puzzle import load_puzzles
from kifu.puzzles import get_question, questions_for

ROOT = Path(__file__).resolve().parent.parent
Q = get_question("alice-bard-wins")


def test_registered() -> None:
    assert "alice-bard-wins" in questions_for("alice")


def test_solver_agrees_with_naive_recursion() -> None:
    from kifu import games

    game = games.get("alice")
    seen = yes = 0
    for s in positions(200):
        assert Q.applies(s) is None
        sol = Q.solve(s)
        assert sol.complete
        naive = bard_wins_naive(s)
        assert sol.answer == ("yes" if naive else "no"), s.to_line()
        seen += 1
        yes += naive
        if naive:  # the principal line replays to the Bard's check win
            bard, turns = s.bard, s.turns
            t = s.copy()
            for item in sol.line:
                _, _, text = item.partition(" ")
                t.apply(game.parse_action(t, text))
            assert decided(t, bard, turns) is True
    assert seen == 200 and 0 < yes < seen


def test_bundled_puzzles_have_the_stated_answers() -> None:
    path = ROOT / "fixtures" / "puzzles" / "alice.kifu"
    puzzles = list(load_puzzles(str(path)))
    assert len(puzzles) >= 12
    from kifu import games

    game = games.get("alice")
    for lp in puzzles:
        p = lp.puzzle
        state = game.from_line(p.position)
        assert Q.solve(state).answer == p.answer == ("yes" if bard_wins_naive(state) else "no")


@pytest.mark.parametrize("text", ["maybe", "yes please", ""])
def test_bad_answers(text: str) -> None:
    with pytest.raises(NotationError):
        Q.parse_answer(text)


def test_answers_are_canonical() -> None:
    assert Q.parse_answer("  yes ") == "yes" and Q.parse_answer("no") == "no"
