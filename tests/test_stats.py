"""kifu.lab.stats against hand-worked cases (that each interval answers the right
question; tests/test_stats_scipy.py checks the numbers against scipy)."""

from __future__ import annotations

import math

import pytest

from kifu.lab.stats import (
    elo,
    elo_from_score,
    mean_ci,
    paired_difference_ci,
    proportion_ci,
)

T975 = {2: 4.302652729911275, 4: 2.7764451051977934}  # Student t quantiles (tables)
Z975 = 1.959963984540054


def test_mean_ci_by_hand():
    # 1..5: mean 3, s = sqrt(2.5), se = s / sqrt(5), t(0.975, 4)
    iv = mean_ci([1, 2, 3, 4, 5])
    half = T975[4] * math.sqrt(2.5) / math.sqrt(5)
    assert iv.estimate == 3.0 and iv.n == 5
    assert iv.low == pytest.approx(3 - half) and iv.high == pytest.approx(3 + half)
    assert round(iv.low, 4) == 1.0368


def test_mean_ci_degenerate():
    assert mean_ci([2.0, 2.0]).low == 2.0
    assert math.isnan(mean_ci([1.0]).low)
    assert mean_ci([]).n == 0


def test_proportion_ci_is_wilson():
    k, n = 7, 10
    p = k / n
    z2 = Z975**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z975 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    iv = proportion_ci(k, n)
    assert iv.estimate == 0.7
    assert iv.low == pytest.approx(centre - half) and iv.high == pytest.approx(centre + half)


def test_paired_difference_by_hand():
    # differences 2, 3, 1: mean 2, s = 1, se = 1/sqrt(3), t(0.975, 2)
    iv = paired_difference_ci([3, 5, 4], [1, 2, 3])
    half = T975[2] / math.sqrt(3)
    assert iv.estimate == 2.0
    assert iv.low == pytest.approx(2 - half) and iv.high == pytest.approx(2 + half)
    assert not iv.excludes(0.0)
    with pytest.raises(ValueError):
        paired_difference_ci([1], [1, 2])


def test_elo_two_players_by_hand():
    clusters = [[("a", "b", 1.0)]] * 3 + [[("a", "b", 0.0)]]
    t = elo(clusters, prior=0, resamples=99)
    assert t.difference("a", "b").estimate == pytest.approx(400 * math.log10(3))
    assert t.rating("a").estimate == pytest.approx(200 * math.log10(3))  # mean 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    # one virtual tie: 3.5 of 5
    t1 = elo(clusters, prior=1, resamples=99)
    assert t1.difference("a", "b").estimate == pytest.approx(elo_from_score(0.7))


def test_elo_three_players_by_hand():
    # strengths 4 : 2 : 1 and results equal to their expectations (A-B 2-1, B-C 2-1,
    # A-C 4-1), so the maximum-likelihood fit is exactly 4 : 2 : 1.
    games = ([("A", "B", 1.0)] * 2 + [("A", "B", 0.0)] + [("B", "C", 1.0)] * 2
             + [("B", "C", 0.0)] + [("A", "C", 1.0)] * 4 + [("A", "C", 0.0)])
    t = elo([[g] for g in games], prior=0, resamples=199)
    step = 400 * math.log10(2)
    assert t.rating("A").estimate == pytest.approx(step, abs=1e-6)
    assert t.rating("B").estimate == pytest.approx(0.0, abs=1e-6)
    assert t.rating("C").estimate == pytest.approx(-step, abs=1e-6)
    assert t.difference("A", "C").estimate == pytest.approx(2 * step, abs=1e-6)
    for iv in t.ratings:
        assert iv.low <= iv.estimate <= iv.high


def test_elo_perfect_record_stays_finite_and_interval_is_seeded():
    clusters = [[("x", "y", 1.0), ("x", "z", 1.0), ("y", "z", 0.5)] for _ in range(30)]
    a = elo(clusters, resamples=200, seed=5)
    b = elo(clusters, resamples=200, seed=5)
    assert a == b
    assert math.isfinite(a.rating("x").estimate) and a.rating("x").estimate > 0
    assert a.difference("y", "z").estimate == pytest.approx(0.0, abs=1e-6)


def test_elo_interval_excludes_zero_for_a_clear_winner():
    clusters = [[("a", "b", 1.0 if i % 4 else 0.0)] for i in range(200)]
    d = elo(clusters, resamples=300).difference("a", "b")
    assert d.excludes(0.0) and d.low > 0


def test_seat_fairness_by_hand():
    from kifu.lab.stats import seat_fairness

    # 60 single-winner games over 3 seats: expected 20 each;
    # chi2 = (10² + 0² + 10²) / 20 = 10 on 2 df, whose survival function is exp(-x / 2)
    t = seat_fairness([30, 20, 10])
    assert t.chi2 == pytest.approx(10.0) and t.df == 2 and t.expected == 20.0
    assert t.p_value == pytest.approx(math.exp(-5.0))
    assert not t.small
    # 4 seats, 8 games: expected 2 (< 5: the approximation is rough); chi2 = (4+0+1+1)/2 = 3
    # on 3 df: P = erfc(sqrt(1.5)) + sqrt(2 * 1.5 / pi) * exp(-1.5) for 3 df
    t = seat_fairness([4, 2, 1, 1])
    x = 3.0
    p3 = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    assert t.chi2 == pytest.approx(3.0) and t.df == 3 and t.small
    assert t.p_value == pytest.approx(p3)
    assert seat_fairness([0, 0, 0]) is None and seat_fairness([5]) is None
    assert seat_fairness([10, 10]).p_value == pytest.approx(1.0)


def test_stats_import_no_scipy_and_intervals_no_numpy():
    """scipy is a test dependency only; the intervals of ``simulate`` (means, proportions,
    paired differences, the fairness test) are pure Python, so its parent process loads no
    numpy either (issue 26: those imports were the serial part capping ``-w 2``)."""
    import subprocess
    import sys

    code = ("import sys, kifu.lab.stats as s, kifu.lab.simulate; "
            "s.mean_ci([1, 2, 4]); s.proportion_ci(3, 9); s.proportion_ci(3, 9, method='exact'); "
            "s.paired_difference_ci([1, 2], [2, 2]); s.seat_fairness([4, 5, 9]); "
            "print(any(m.partition('.')[0] in ('scipy', 'numpy') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
