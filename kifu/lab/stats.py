"""Figures about games with their 95% intervals: means, proportions, paired differences and
Elo ratings from pairwise results.

Every interval comes from scipy (``scipy.stats``): a mean's is Student's t, a proportion's
is Wilson's score interval (``binomtest(...).proportion_ci``), a paired difference is the
t interval of the differences, and Elo ratings are a Bradley-Terry fit whose interval is a
percentile bootstrap (``scipy.stats.bootstrap``) over *clusters* of games (the deals: the
rotations of one deal share its cards, so they are resampled together). The bootstrap is
seeded, so the same data give the same interval.

The unit of a sample matters: when one deal is played several times (seat rotations), pass
one value per deal (the mean over its rotations) to :func:`mean_ci`, not one per game.

>>> iv = mean_ci([1, 2, 3, 4, 5])
>>> round(iv.estimate, 3), round(iv.low, 3), round(iv.high, 3)
(3.0, 1.037, 4.963)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import msgspec
import numpy as np


def _scipy_stats():
    """``scipy.stats``, imported on first use: it takes longer to import than the rest of
    kifu, and a command that never computes an interval should not pay for it."""
    from scipy import stats

    return stats


CONFIDENCE = 0.95
ELO_SCALE = 400.0
"""Elo points per factor of 10 in the odds of winning a pairwise comparison."""
LOG_CAP = 17.0
"""The largest natural-log strength of a fit (a rating of about 2,950 Elo)."""


class Interval(msgspec.Struct, frozen=True):
    """An estimate with its confidence interval; ``n`` is the number of samples behind it.

    ``low``/``high`` are NaN where the interval is undefined (fewer than two samples)."""

    estimate: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        """True when ``value`` lies outside the interval (e.g. 0 for a difference)."""
        return not (self.low <= value <= self.high)

    def to_dict(self, digits: int = 4) -> dict:
        def r(x: float) -> float | None:
            return None if math.isnan(x) else round(x, digits)

        return {"estimate": r(self.estimate), "low": r(self.low), "high": r(self.high),
                "n": self.n}


def mean_ci(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``values`` with its Student-t interval (``scipy.stats.t``).

    The samples should be independent: one per deal when a deal is played several times."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    if n == 1:
        return Interval(m, math.nan, math.nan, 1)
    se = float(x.std(ddof=1)) / math.sqrt(n)
    if se == 0.0:
        return Interval(m, m, m, n)
    half = float(_scipy_stats().t.ppf(0.5 + confidence / 2, n - 1)) * se
    return Interval(m, m - half, m + half, n)


def proportion_ci(successes: int, trials: int, confidence: float = CONFIDENCE,
                  method: str = "wilson") -> Interval:
    """``successes / trials`` with its interval from ``scipy.stats.binomtest`` (Wilson's
    score interval by default; ``"exact"`` for Clopper-Pearson). For independent trials.

    >>> iv = proportion_ci(7, 10)
    >>> round(iv.low, 4), round(iv.high, 4)
    (0.3968, 0.8922)
    """
    if trials == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    ci = _scipy_stats().binomtest(successes, trials).proportion_ci(confidence_level=confidence,
                                                          method=method)
    return Interval(successes / trials, float(ci.low), float(ci.high), trials)


def paired_difference_ci(a: Sequence[float], b: Sequence[float],
                         confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``a[i] - b[i]`` with its t interval: for two treatments measured on the
    same seeds (two bots on the same deals, two rule sets on the same seeds)."""
    if len(a) != len(b):
        raise ValueError(f"paired samples need equal lengths, not {len(a)} and {len(b)}")
    return mean_ci(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), confidence)


class FairnessTest(msgspec.Struct, frozen=True):
    """Pearson's chi-square test of "every seat wins equally often": the first places of
    each seat (``counts``), the count each would have under fairness (``expected``), the
    statistic, its degrees of freedom and the p-value. ``small`` warns that some expected
    count is below 5, where the chi-square approximation is rough."""

    counts: list[int]
    expected: float
    chi2: float
    df: int
    p_value: float
    small: bool


def seat_fairness(counts: Sequence[int]) -> FairnessTest | None:
    """The chi-square goodness-of-fit test (``scipy.stats.chisquare``) of seat win counts
    against equal shares; ``None`` with fewer than two seats or no win at all. Pass games
    with a single winner (a shared first place is not one seat's win).

    >>> t = seat_fairness([30, 20, 10])        # (10² + 0² + 10²) / 20 = 10, 2 df
    >>> t.chi2, t.df, round(t.p_value, 5)      # P(chi²₂ > 10) = e^-5
    (10.0, 2, 0.00674)
    """
    k = len(counts)
    total = int(sum(counts))
    if k < 2 or total == 0:
        return None
    res = _scipy_stats().chisquare(np.asarray(counts, dtype=float))
    expected = total / k
    return FairnessTest([int(c) for c in counts], expected, float(res.statistic), k - 1,
                        float(res.pvalue), expected < 5)


# --- Elo --------------------------------------------------------------------------------

Outcome = tuple[Hashable, Hashable, float]
"""One pairwise comparison ``(i, j, score of i)``: 1 if i finished ahead of j, 0.5 for a
tie, 0 if behind."""


def _fit(wins: np.ndarray, games: np.ndarray, iterations: int = 100,
         tol: float = 1e-9) -> np.ndarray:
    """Bradley-Terry log-strengths by Newton's method on the log-likelihood (concave);
    ``wins[i, j]`` is i's score against j, ``games[i, j]`` the comparisons between them.
    Returns Elo ratings with mean 0 over the players who played (the others get 0)."""
    k = len(wins)
    played = np.flatnonzero(games.sum(axis=1) > 0)
    theta = np.zeros(k)
    if len(played) >= 2:
        w = wins[np.ix_(played, played)]
        g = games[np.ix_(played, played)]
        m = len(played)
        t = np.zeros(m)
        score = w.sum(axis=1)
        for _ in range(iterations):
            sig = 1.0 / (1.0 + np.exp(t[None, :] - t[:, None]))  # P(i beats j)
            grad = score - (g * sig).sum(axis=1)
            h = g * sig * (1.0 - sig)
            hess = h - np.diag(h.sum(axis=1))  # negative semi-definite, null space 1
            # fix the gauge (the last player's strength) and solve for the others
            step = np.zeros(m)
            step[:-1] = np.linalg.lstsq(hess[:-1, :-1], -grad[:-1], rcond=None)[0]
            # a player who won (or lost) every comparison has no finite fit: stop at
            # +-LOG_CAP (about +-3,000 Elo) instead of diverging
            new = np.clip(t + step, -LOG_CAP, LOG_CAP)
            new -= new.mean()
            done = np.max(np.abs(new - t)) < tol
            t = new
            if done:
                break
        theta[played] = t
    return ELO_SCALE / math.log(10) * theta


class EloTable(msgspec.Struct, frozen=True):
    """Elo ratings (mean 0 over the players) with bootstrap intervals, and the pairwise
    difference of every pair of players."""

    players: list
    ratings: list[Interval]
    differences: dict[tuple, Interval]

    def rating(self, player: Hashable) -> Interval:
        return self.ratings[self.players.index(player)]

    def difference(self, a: Hashable, b: Hashable) -> Interval:
        """Elo of ``a`` minus Elo of ``b``."""
        return self.differences[(a, b)]


def elo(clusters: Sequence[Sequence[Outcome]], players: Sequence[Hashable] | None = None, *,
        prior: float = 1.0, confidence: float = CONFIDENCE, resamples: int = 999,
        seed: int = 0) -> EloTable:
    """Elo ratings from pairwise results, grouped in clusters (one cluster per deal).

    The ratings are the maximum-likelihood Bradley-Terry fit (a tie counts half a win to
    each side), on the Elo scale (400 points = odds of 10 to 1), shifted to mean 0. Each
    pair that met gets ``prior`` virtual comparisons ending in a tie, so that a player who
    won every comparison keeps a finite rating (``prior=0`` for the plain fit). The
    intervals are percentile bootstraps over clusters (``scipy.stats.bootstrap``, seeded by
    ``seed``), for every rating and every difference.

    >>> t = elo([[("a", "b", 1.0)], [("a", "b", 1.0)], [("a", "b", 1.0)], [("a", "b", 0.0)]],
    ...         prior=0, resamples=99)
    >>> round(t.difference("a", "b").estimate, 2)   # 3 wins in 4: 400 log10(3)
    190.85
    """
    if players is None:
        seen: dict = {}
        for cluster in clusters:
            for i, j, _ in cluster:
                seen.setdefault(i, None)
                seen.setdefault(j, None)
        players = list(seen)
    players = list(players)
    index = {p: k for k, p in enumerate(players)}
    k = len(players)
    d = len(clusters)
    wins = np.zeros((d, k, k))
    games = np.zeros((d, k, k))
    for c, cluster in enumerate(clusters):
        for i, j, s in cluster:
            a, b = index[i], index[j]
            if a == b:
                continue
            wins[c, a, b] += s
            wins[c, b, a] += 1.0 - s
            games[c, a, b] += 1.0
            games[c, b, a] += 1.0

    def ratings_of(idx: np.ndarray) -> np.ndarray:
        w = wins[idx].sum(axis=0)
        g = games[idx].sum(axis=0)
        met = g > 0
        w = w + prior * 0.5 * met
        g = g + prior * met
        r = _fit(w, g)
        diffs = [r[a] - r[b] for a in range(k) for b in range(k) if a != b]
        return np.concatenate([r, np.asarray(diffs)])

    point = ratings_of(np.arange(d)) if d else np.zeros(k + k * (k - 1))
    if d >= 2:
        res = _scipy_stats().bootstrap((np.arange(d),), ratings_of, vectorized=False,
                              n_resamples=resamples, method="percentile",
                              confidence_level=confidence, rng=np.random.default_rng(seed))
        low = np.atleast_1d(res.confidence_interval.low)
        high = np.atleast_1d(res.confidence_interval.high)
    else:
        low = high = np.full(len(point), math.nan)
    ivs = [Interval(float(point[m]), float(low[m]), float(high[m]), d)
           for m in range(len(point))]
    pairs = [(players[a], players[b]) for a in range(k) for b in range(k) if a != b]
    return EloTable(players, ivs[:k], dict(zip(pairs, ivs[k:], strict=True)))


def elo_from_score(p: float) -> float:
    """The Elo difference that gives an expected pairwise score ``p`` (0 < p < 1).

    >>> round(elo_from_score(0.75), 2)
    190.85
    """
    return ELO_SCALE * math.log10(p / (1.0 - p))


__all__ = [
    "CONFIDENCE",
    "EloTable",
    "FairnessTest",
    "Interval",
    "elo",
    "elo_from_score",
    "mean_ci",
    "paired_difference_ci",
    "proportion_ci",
    "seat_fairness",
]
