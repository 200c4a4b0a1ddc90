"""Every question against the naive brute force of tests/brute.py on random small
positions (200+ per question): the answer, every first action's value, and a legal
principal line that reaches the answer where the answer is a success."""

from __future__ import annotations

import brute
import pytest

from kifu.core.rng import Rng
from kifu.puzzles import get_question

N = 200


def replay_line(game, state, line):
    s = state.copy()
    for item in line:
        actor, _, text = item.partition(" ")
        assert actor == ("d" if s.to_move == -1 else f"p{s.to_move}")
        s.apply(game.parse_action(s, text))
    return s


def check(game, question, line, expected, per=None):
    state = game.from_line(line)
    assert question.applies(state) is None, line
    sol = question.solve(state)
    assert sol.complete
    assert sol.answer == expected, line
    if per is not None:
        assert [v.value for v in sol.values] == per, line
    assert sol.winning == sum(1 for v in sol.values if v.value == sol.answer)
    assert state.to_line() == line, "the solver leaves the position as it was"
    replay_line(game, state, sol.line)
    return sol


def test_this_turn_matches_brute_force() -> None:
    rng = Rng("this-turn")
    q = get_question("tweak-this-turn")
    answers = set()
    for _ in range(N):
        line = brute.random_tweak(rng)
        st = brute.TWEAK.from_line(line)
        expected, per = brute.this_turn_answer(st)
        check(brute.TWEAK, q, line, expected, per)
        answers.add(expected.split(" ")[0])
    assert answers == {"forced", "possible", "no"}, "the sample covers every kind of answer"


@pytest.mark.parametrize("n", [1, 2])
def test_within_matches_brute_force(n) -> None:
    rng = Rng(f"within-{n}")
    q = get_question(f"tweak-within {n}")
    answers = set()
    for _ in range(N // 2 if n == 1 else N):
        line = brute.random_tweak(rng, players=(2,), hand=(1, 2), table=(0, 3), deck=(0, 2))
        st = brute.TWEAK.from_line(line)
        expected = brute.within_answer(st, n)
        check(brute.TWEAK, q, line, expected)
        answers.add(expected)
    assert "no" in answers and "yes turns=1" in answers


def test_best_points_matches_brute_force() -> None:
    rng = Rng("points")
    q = get_question("best-points")
    seen = set()
    for _ in range(N):
        line = brute.random_tweak(rng, players=(2, 3), hand=(0, 2), table=(0, 2),
                                  deck_empty=True)
        st = brute.TWEAK.from_line(line)
        expected = brute.best_points_answer(st)
        check(brute.TWEAK, q, line, expected)
        seen.add(expected)
    assert len(seen) > 3


def test_double_dummy_matches_brute_force() -> None:
    rng = Rng("dd")
    q = get_question("double-dummy")
    places = set()
    for _ in range(N):
        line = brute.random_graph_t(rng)
        st = brute.GRAPH_T.from_line(line)
        expected = brute.dd_answer(st)
        check(brute.GRAPH_T, q, line, expected)
        places.add(expected.split()[1])
    assert len(places) >= 3
