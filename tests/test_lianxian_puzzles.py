"""Lianxian puzzle questions cross-checked against a brute force: the naive enumeration of
every assignment of held tiles to usable spaces (``lianxian_helpers.naive_placements``),
scored from an explicit link graph, on random positions."""

from __future__ import annotations

from lianxian_helpers import make, naive_placements, random_position

from kifu.core.rng import Rng
from kifu.puzzles import get_question, questions_for


def brute(st):
    """(best points, {k: least opponents' bonus among placements scoring >= k})."""
    seat = st.mover
    partner = st.partner(seat)
    found = []
    for mask in naive_placements(st).values():
        pts = mask.bit_count()
        bonus = sum((mask & b).bit_count() for s, b in enumerate(st.seating.bonus)
                    if s not in (seat, partner))
        found.append((pts, bonus))
    return found


def test_questions_registered() -> None:
    assert questions_for("setup") == ["lianxian-best", "lianxian-finish",
                                      "lianxian-least-bonus"]


def test_against_brute_force() -> None:
    rng = Rng(515)
    best_q = get_question("lianxian-best")
    fin_q = get_question("lianxian-finish")
    for i in range(120):
        n = 2 + i % 3
        st = random_position(rng, n, team=(n == 4 and i % 2 == 1), fill=0.6 + (i % 4) / 10,
                             rack=1 + i % 4, public=i % 5)
        st.scores = tuple(rng.below(st.seating.finish - 2) for _ in range(n))
        found = brute(st)
        best = max([p for p, _ in found], default=0)
        sol = best_q.solve(st)
        assert sol.complete and sol.answer == f"points={best}"
        if best:
            assert sol.winning == sum(1 for p, _ in found if p == best)
        need = st.seating.finish - st.scores[st.mover]
        assert fin_q.solve(st).answer == ("yes" if best >= need else "no")
        for k in (1, 3, 5):
            ok = [b for p, b in found if p >= k]
            want = f"bonus={min(ok)}" if ok else "none"
            assert get_question(f"lianxian-least-bonus {k}").solve(st).answer == want


def test_rulebook_example_as_a_puzzle() -> None:
    st = make({"C_SW": "H4", "W_N": "D5", "N_E": "S6", "N_W": "C6"},
              ["H5H6T1T2", "S1S2S3S4"], "D9D10C9C10")
    sol = get_question("lianxian-best").solve(st)
    assert sol.answer == "points=6"
    assert "p0 H5@C_NW,H6@C_NE" in [v.action for v in sol.values if v.value == sol.answer]
    # the 6-point placement gives North 2; avoiding North's spaces costs points
    assert get_question("lianxian-least-bonus 6").solve(st).answer == "bonus=2"
