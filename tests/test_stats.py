"""kifu.lab.stats against hand-worked cases (the intervals are scipy's; these check that
they are asked the right question)."""

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
