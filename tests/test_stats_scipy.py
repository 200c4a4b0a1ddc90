"""kifu.lab.stats against scipy, which it replaced at run time (issue 26): every quantile,
tail and interval over a grid, to tolerances near the last bit, and the Elo bootstrap
against ``scipy.stats.bootstrap`` given the same seed. scipy is a test dependency only."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special as sps_special
from scipy import stats as sps

from kifu.lab import stats as ks

CONFIDENCES = (0.8, 0.9, 0.95, 0.99)


def test_t_quantile_matches_scipy_over_df_1_to_2000_and_beyond() -> None:
    dfs = [*range(1, 2001), 2999, 3000, 5000, 10**4, 10**5, 10**6]
    grid = [(df, c) for df in dfs for c in (*CONFIDENCES, 0.5, 0.999)]
    mine = np.array([ks._t_isf((1 - c) / 2, df) for df, c in grid])
    ref = sps.t.ppf(0.5 + np.array([c for _, c in grid]) / 2, np.array([df for df, _ in grid]))
    # (at 0.999 scipy's 0.5 + c / 2 rounds away ~1e-14 of the tail's relative precision)
    rel = np.abs(mine - ref) / ref
    assert rel.max() < 1e-12, grid[int(rel.argmax())]
    assert np.median(rel) < 4e-15


def test_t_tail_matches_scipy() -> None:
    for df in (1, 2, 3, 7, 30, 120, 999, 2000):
        for t in (0.0, 0.1, 0.7, 1.3, 1.96, 2.5, 4.0, 10.0, 60.0):
            assert ks._t_sf(t, df) == pytest.approx(float(sps.t.sf(t, df)), rel=1e-12, abs=0)


def test_normal_quantile_matches_scipy() -> None:
    for c in (*CONFIDENCES, 0.5, 0.999, 0.999999):
        z = ks._z_isf((1 - c) / 2)
        if c < 0.9999:  # beyond, scipy's argument 0.5 + c / 2 has lost the tail's digits
            assert z == pytest.approx(float(sps_special.ndtri(0.5 + c / 2)), rel=1e-14)
        assert 0.5 * math.erfc(z / math.sqrt(2)) == pytest.approx((1 - c) / 2, rel=1e-15)


def test_log_beta_against_exact_values() -> None:
    """log B(a, b) where it is known exactly: B(a, 1) = 1/a, B(n + 1/2, 1/2) = pi C(2n, n)
    / 4^n, B(m, n) = 1 / (n C(m + n - 1, n)) (scipy's betaln itself errs by up to 5e-11
    at a = 50,000)."""
    for a in (0.5, 3.0, 9.5, 10.0, 11.0, 777.0, 5e4, 1e6):
        assert ks._lbeta(a, 1.0) == pytest.approx(-math.log(a), rel=4e-15)
    for n in (1, 5, 9, 10, 40, 1000, 50_000):
        exact = math.log(math.pi) + math.log(Fraction(math.comb(2 * n, n), 4**n))
        assert ks._lbeta(n + 0.5, 0.5) == pytest.approx(exact, rel=4e-15, abs=4e-15)
    for m, n in [(2, 3), (9, 12), (12, 12), (30, 500), (500, 500), (50_000, 12)]:
        exact = -math.log(n * math.comb(m + n - 1, n))
        assert ks._lbeta(m, n) == pytest.approx(exact, rel=4e-15)


def test_incomplete_beta_matches_scipy() -> None:
    for a in (0.5, 1.0, 2.5, 9.5, 10.0, 37.0, 500.0, 1000.0, 50_000.0):
        for b in (0.5, 1.0, 3.0, 12.0, 500.0):
            for x in (1e-6, 0.01, 0.2, 0.5, 0.8, 0.99, a / (a + b)):
                ref = float(sps_special.betainc(a, b, x))
                assert ks._betainc(a, b, x) == pytest.approx(ref, rel=1e-11, abs=1e-300)


@pytest.mark.parametrize("method", ["wilson", "wilsoncc", "exact"])
def test_proportion_ci_matches_scipy(method: str) -> None:
    small = 12 if method == "exact" else 30  # scipy's exact bounds take 2 ms each
    cases = [(k, n) for n in range(1, small + 1) for k in range(n + 1)]
    cases += [(k, n) for n in (99, 300, 1000, 10**5) for k in (0, 1, n // 3, n // 2, n - 1, n)]
    # scipy's exact bounds come from brentq with xtol=2e-12; Wilson's are closed forms
    tol = 2e-12 if method == "exact" else 1e-14
    for k, n in cases:
        for c in CONFIDENCES:
            ref = sps.binomtest(k, n).proportion_ci(confidence_level=c, method=method)
            iv = ks.proportion_ci(k, n, c, method)
            assert iv.estimate == k / n and iv.n == n
            assert abs(iv.low - ref.low) < tol and abs(iv.high - ref.high) < tol, (k, n, c)
            if k == 0:
                assert iv.low == 0.0
            if k == n:
                assert iv.high == 1.0


def test_exact_interval_bounds_solve_their_equations() -> None:
    """Clopper-Pearson to the last bits (tighter than scipy's solver): at the lower bound
    P(X >= k) is the tail, at the upper P(X <= k) is."""
    for k, n in [(1, 2), (3, 10), (8, 35), (46, 48), (500, 1000), (7, 10**4)]:
        for c in CONFIDENCES:
            iv = ks.proportion_ci(k, n, c, "exact")
            alpha = (1 - c) / 2
            assert float(sps.binom.sf(k - 1, n, iv.low)) == pytest.approx(alpha, rel=1e-12)
            assert float(sps.binom.cdf(k, n, iv.high)) == pytest.approx(alpha, rel=1e-12)


def test_proportion_ci_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        ks.proportion_ci(5, 4)
    with pytest.raises(ValueError):
        ks.proportion_ci(1, 4, method="agresti")
    with pytest.raises(ValueError):
        ks.mean_ci([1.0, 2.0], confidence=1.0)


def test_chi_square_tail_matches_scipy() -> None:
    for df in range(1, 11):
        for x in (0.0, 1e-3, 0.1, 0.5, 1.0, 2.0, 3.0, 7.5, 10.0, 20.0, 50.0, 100.0, 300.0):
            ref = float(sps.chi2.sf(x, df))
            assert ks._chi2_sf(x, df) == pytest.approx(ref, rel=1e-12, abs=0), (df, x)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 400), min_size=2, max_size=8))
def test_seat_fairness_matches_scipy_chisquare(counts: list[int]) -> None:
    t = ks.seat_fairness(counts)
    if sum(counts) == 0:
        assert t is None
        return
    ref = sps.chisquare(np.asarray(counts, dtype=float))
    assert t is not None and t.df == len(counts) - 1
    assert t.chi2 == pytest.approx(float(ref.statistic), rel=1e-12, abs=1e-12)
    assert t.p_value == pytest.approx(float(ref.pvalue), rel=1e-11, abs=1e-300)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=2, max_size=300),
       st.sampled_from(CONFIDENCES))
def test_mean_ci_matches_scipy_t_interval(values: list[float], c: float) -> None:
    iv = ks.mean_ci(values, c)
    x = np.asarray(values)
    se = float(sps.sem(x))
    assert iv.estimate == pytest.approx(float(x.mean()), rel=1e-12, abs=1e-9)
    if se == 0.0 or iv.low == iv.high:
        assert se < 1e-9 * max(1.0, float(np.abs(x).max()))
        return
    low, high = sps.t.interval(c, len(x) - 1, loc=iv.estimate, scale=se)
    assert iv.low == pytest.approx(low, rel=1e-9, abs=1e-9)
    assert iv.high == pytest.approx(high, rel=1e-9, abs=1e-9)


def _clusters(rng: np.random.Generator, deals: int, players: list[str],
              per_deal: int) -> list[list[tuple[str, str, float]]]:
    out = []
    for _ in range(deals):
        cluster = []
        for _ in range(per_deal):
            i, j = rng.choice(len(players), 2, replace=False)
            cluster.append((players[i], players[j], float(rng.choice([0.0, 0.5, 1.0, 1.0]))))
        out.append(cluster)
    return out


def _elo_with_scipy(clusters, players, prior=1.0, resamples=999, seed=0, confidence=0.95):
    """The former implementation: scipy.stats.bootstrap over cluster indices, one single
    fit (:func:`kifu.lab.stats._fit`) per resample."""
    k, d = len(players), len(clusters)
    index = {p: n for n, p in enumerate(players)}
    wins, games = np.zeros((d, k, k)), np.zeros((d, k, k))
    for c, cluster in enumerate(clusters):
        for i, j, s in cluster:
            a, b = index[i], index[j]
            wins[c, a, b] += s
            wins[c, b, a] += 1 - s
            games[c, a, b] += 1
            games[c, b, a] += 1

    def ratings_of(idx):
        w, g = wins[idx].sum(axis=0), games[idx].sum(axis=0)
        met = g > 0
        r = ks._fit(w + prior * 0.5 * met, g + prior * met)
        return np.concatenate([r, [r[a] - r[b] for a in range(k) for b in range(k) if a != b]])

    point = ratings_of(np.arange(d))
    res = sps.bootstrap((np.arange(d),), ratings_of, vectorized=False, n_resamples=resamples,
                        method="percentile", confidence_level=confidence,
                        rng=np.random.default_rng(seed))
    return point, res.confidence_interval.low, res.confidence_interval.high


@pytest.mark.parametrize(("deals", "players", "per_deal", "prior", "confidence"), [
    (60, ["a", "b"], 6, 1.0, 0.95),
    (40, ["a", "b", "c"], 6, 1.0, 0.9),
    (25, ["w", "x", "y", "z"], 3, 0.0, 0.95),  # sparse: some resamples leave pairs unmet
])
def test_elo_bootstrap_is_scipys(deals, players, per_deal, prior, confidence) -> None:
    clusters = _clusters(np.random.default_rng(deals), deals, players, per_deal)
    t = ks.elo(clusters, players, prior=prior, resamples=199, seed=3, confidence=confidence)
    point, low, high = _elo_with_scipy(clusters, players, prior, 199, 3, confidence)
    got = [*t.ratings, *t.differences.values()]
    assert [iv.estimate for iv in got] == pytest.approx(list(point), abs=1e-8)
    assert [iv.low for iv in got] == pytest.approx(list(low), abs=1e-8)
    assert [iv.high for iv in got] == pytest.approx(list(high), abs=1e-8)


def test_batched_fit_equals_single_fits() -> None:
    """_fit_many against _fit one set at a time, with sets that connect their players and
    sets that do not, a player who won everything, and a player who never played."""
    rng = np.random.default_rng(11)
    k, sets = 4, 300
    games = rng.integers(0, 4, (sets, k, k)).astype(float)
    games = np.triu(games, 1)
    games[::7, 0, :] = 0.0  # player 0 absent
    games[1::7, 0:2, 2:4] = 0.0  # {0, 1} and {2, 3} never meet
    games = games + games.transpose(0, 2, 1)
    share = rng.random((sets, k, k))
    wins = np.triu(games * share, 1)
    wins = wins + np.triu(games - games * share, 1).transpose(0, 2, 1)
    wins[2::7, 3, :] = games[2::7, 3, :]  # player 3 won every comparison
    wins[2::7, :, 3] = 0.0
    many = ks._fit_many(wins, games)
    for r in range(sets):
        single = ks._fit(wins[r], games[r])
        if r % 7 == 2:
            # without a prior a perfect record runs into the cap, where the single fit
            # swings between two points until its 100 steps are spent, the swing's phase
            # set by the last bits of each step: the same place, not the same digits
            assert many[r] == pytest.approx(single, abs=0.1), r
        else:
            assert many[r] == pytest.approx(single, abs=1e-7), r
