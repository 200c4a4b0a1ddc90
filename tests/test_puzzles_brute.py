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


def against_brute(game, spec: str, seed: str, count: int, position, answer) -> list[str]:
    """Solve ``count`` random positions (``position(rng)``) with the question ``spec`` and
    check each against the brute force ``answer(state)``: the answer, or (the answer, the
    value of each first action). Returns the answers, in order."""
    rng = Rng(seed)
    q = get_question(spec)
    answers = []
    for _ in range(count):
        line = position(rng)
        want = answer(game.from_line(line))
        expected, per = want if isinstance(want, tuple) else (want, None)
        check(game, q, line, expected, per)
        answers.append(expected)
    return answers


def test_this_turn_matches_brute_force() -> None:
    answers = against_brute(brute.TWEAK, "tweak-this-turn", "this-turn", N, brute.random_tweak,
                            brute.this_turn_answer)
    assert {a.split(" ")[0] for a in answers} == {"forced", "possible", "no"}, (
        "the sample covers every kind of answer")


@pytest.mark.parametrize("n", [1, 2])
def test_within_matches_brute_force(n) -> None:
    def position(rng: Rng) -> str:
        return brute.random_tweak(rng, players=(2,), hand=(1, 2), table=(0, 3), deck=(0, 2))

    answers = against_brute(brute.TWEAK, f"tweak-within {n}", f"within-{n}",
                            N // 2 if n == 1 else N, position,
                            lambda st: brute.within_answer(st, n))
    assert "no" in answers and "yes turns=1" in answers


def test_best_points_matches_brute_force() -> None:
    def position(rng: Rng) -> str:
        return brute.random_tweak(rng, players=(2, 3), hand=(0, 2), table=(0, 2),
                                  deck_empty=True)

    answers = against_brute(brute.TWEAK, "best-points", "points", N, position,
                            brute.best_points_answer)
    assert len(set(answers)) > 3


def test_double_dummy_matches_brute_force() -> None:
    answers = against_brute(brute.GRAPH_T, "double-dummy", "dd", N, brute.random_graph_t,
                            brute.dd_answer)
    assert len({a.split()[1] for a in answers}) >= 3
