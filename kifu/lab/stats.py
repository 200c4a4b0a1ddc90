"""Figures about games with their 95% intervals: means, proportions, paired differences and
Elo ratings from pairwise results.

A mean's interval is Student's t, a proportion's is Wilson's score interval (or
Clopper-Pearson's, on request), a paired difference is the t interval of the differences,
a seat-fairness test is Pearson's chi-square, and Elo ratings are a Bradley-Terry fit whose
interval is a percentile bootstrap over *clusters* of games (the deals: the rotations of one
deal share its cards, so they are resampled together). The bootstrap is seeded, so the same
data give the same interval.

Everything is computed here, on the standard library (and numpy for the Elo fit alone),
because importing scipy cost more CPU than the rest of a ``simulate`` or ``match`` parent
process: the t and beta quantiles invert the regularized incomplete beta function (a
continued fraction), the normal quantile is :class:`statistics.NormalDist`'s refined by
one Newton step on ``math.erfc``, the chi-square tail of an integer df is a finite sum. The
tests check every function against scipy over a grid (``tests/test_stats_scipy.py``); the
bootstrap draws the same resamples as ``scipy.stats.bootstrap`` given the same seed and
takes the same (linear) percentiles, so its intervals are scipy's to rounding.

The unit of a sample matters: when one deal is played several times (seat rotations), pass
one value per deal (the mean over its rotations) to :func:`mean_ci`, not one per game.

>>> iv = mean_ci([1, 2, 3, 4, 5])
>>> round(iv.estimate, 3), round(iv.low, 3), round(iv.high, 3)
(3.0, 1.037, 4.963)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from statistics import NormalDist
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    import numpy as np

CONFIDENCE = 0.95
ELO_SCALE = 400.0
"""Elo points per factor of 10 in the odds of winning a pairwise comparison."""

SAME = 1e-9
"""Values that differ by at most this fraction of their range count as equal, so as
having no spread (:func:`cluster_proportion_ci`, :func:`bootstrap_means`): shares are
written to six places, so no real spread is smaller, and a difference of two shares
carries float noise."""


def no_spread(values: Sequence[float], low: float, high: float) -> bool:
    """Whether ``values`` (in ``[low, high]``) have nothing to resample: fewer than two, or
    all equal to within :data:`SAME` of the range.

    >>> no_spread([0.5 + 0.1 - 0.1, 0.5], 0.0, 1.0), no_spread([0.5, 0.51], 0.0, 1.0)
    (True, False)
    """
    if len(values) < 2:
        return True
    top, bottom = ((values.max(), values.min()) if hasattr(values, "max")  # numpy: in C
                   else (max(values), min(values)))
    return float(top) - float(bottom) <= SAME * (high - low)


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


# --- distributions ----------------------------------------------------------------------
# Each returns an upper-tail quantile or probability: the intervals need the quantile of
# a small tail (alpha/2), where working from the tail keeps full relative precision.

_EPS = 4e-16
_TINY = 1e-300
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _stirling_rest(x: float) -> float:
    """``lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2)`` for x >= 10 (Stirling's
    series to the x^-13 term: its error is below 1e-17 there)."""
    r = 1.0 / (x * x)
    return (1 / 12 + r * (-1 / 360 + r * (1 / 1260 + r * (-1 / 1680 + r * (
        1 / 1188 + r * (-691 / 360360 + r / 156)))))) / x


def _lbeta(a: float, b: float) -> float:
    """``log B(a, b)``. With a large argument the three ``lgamma`` terms are thousands and
    cancel (losing ~1e-12); there the differences are taken from Stirling's series."""
    small, large = min(a, b), max(a, b)
    if large < 10.0:
        return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    s = small + large
    if small < 10.0:
        # lgamma(large) - lgamma(s), with (large - 1/2) log(large / s) ~ -small kept whole
        diff = (-(large - 0.5) * math.log1p(small / large) - small * math.log(s) + small
                + _stirling_rest(large) - _stirling_rest(s))
        return math.lgamma(small) + diff
    return (_HALF_LOG_2PI - (large - 0.5) * math.log1p(small / large)
            + (small - 0.5) * math.log(small / s) - 0.5 * math.log(s)
            + _stirling_rest(a) + _stirling_rest(b) - _stirling_rest(s))


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz), which
    converges fast for x < (a + 1) / (a + b + 2)."""
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    f = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for coef in (m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
                     -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))):
            d = 1.0 + coef * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + coef / c
            if abs(c) < _TINY:
                c = _TINY
            f *= c * d
        if abs(c * d - 1.0) < _EPS:
            return f
    raise ArithmeticError(f"incomplete beta: no convergence for a={a}, b={b}, x={x}")


def _betainc(a: float, b: float, x: float, y: float | None = None) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``; ``y`` is ``1 - x`` when the
    caller knows it more exactly than the subtraction would give."""
    if y is None:
        y = 1.0 - x
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    if x < (a + 1.0) / (a + b + 2.0):
        return _betainc_cf(a, b, x, y)
    return 1.0 - _betainc_cf(b, a, y, x)  # I_x(a, b) = 1 - I_(1-x)(b, a)


def _betainc_cf(a: float, b: float, x: float, y: float) -> float:
    # the logarithm of whichever of x, 1 - x is near 1 from the other, which is exact to
    # its last bit: log(x) of a rounded x near 1 is off by 1e-16, times a thousand when a is
    log_x = math.log1p(-y) if x > 0.5 else math.log(x)
    log_y = math.log1p(-x) if y > 0.5 else math.log(y)
    front = math.exp(a * log_x + b * log_y - _lbeta(a, b))
    return front * _beta_cf(a, b, x) / a


def _beta_pdf(a: float, b: float, x: float) -> float:
    return math.exp((a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x) - _lbeta(a, b))


def _beta_ppf(p: float, a: float, b: float) -> float:
    """The ``x`` with ``I_x(a, b) = p``: Newton's method kept inside a bracket (bisection
    when a step leaves it), to a few units in the last place."""
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    if p > 0.5:  # solve on the side where the target is small, for relative precision
        return 1.0 - _beta_ppf(1.0 - p, b, a)
    lo, hi = 0.0, 1.0
    x = a / (a + b)
    for _ in range(400):
        f = _betainc(a, b, x) - p
        if f == 0.0:
            return x
        if f < 0.0:
            lo = x
        else:
            hi = x
        dens = _beta_pdf(a, b, x)
        new = x - f / dens if dens > 0.0 else math.nan
        if lo < new < hi:
            if abs(new - x) <= 1e-10 * new:  # quadratic convergence: ~1e-20 left
                return new
        else:
            new = 0.5 * (lo + hi)
        if hi - lo <= 4e-16 * hi:
            return new
        x = new
    return x


def _t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom, t >= 0."""
    t2 = t * t
    return 0.5 * _betainc(0.5 * df, 0.5, df / (df + t2), t2 / (df + t2))


def _t_isf(alpha: float, df: float) -> float:
    """The t with ``P(T > t) = alpha`` (0 < alpha <= 1/2).

    From 3,000 df on (and alpha >= 1e-4) the Cornish-Fisher expansion in 1/df to the
    fourth order is exact to the last bit by itself. Below, it (or the exact forms at 1
    and 2 df) starts Newton's method on the tail, which is convex and decreasing in t:
    the steps close in from below without overshooting."""
    if alpha >= 0.5:
        return 0.0
    if df == 1:
        t = math.tan(math.pi * (0.5 - alpha))
    elif df == 2:
        t = (1.0 - 2.0 * alpha) / math.sqrt(2.0 * alpha * (1.0 - alpha))
    else:
        z = _z_isf(alpha)
        z2 = z * z
        t = z + (z * (z2 + 1) / 4 + (z * ((5 * z2 + 16) * z2 + 3) / 96 + (
            z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384
            + z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160 / df
        ) / df) / df) / df
        if df >= 3000 and alpha >= 1e-4:
            return t
    log_norm = (math.lgamma(0.5 * (df + 1)) - math.lgamma(0.5 * df)
                - 0.5 * math.log(df * math.pi))
    for _ in range(100):
        pdf = math.exp(log_norm - 0.5 * (df + 1) * math.log1p(t * t / df))
        step = (_t_sf(t, df) - alpha) / pdf
        t = t + step if t + step > 0.0 else 0.5 * t  # a step from far right may pass 0
        if abs(step) <= 1e-10 * t:  # quadratic convergence: what is left is ~1e-20
            break
    return t


def _z_isf(alpha: float) -> float:
    """The z with ``P(Z > z) = alpha`` for the standard normal: ``NormalDist``'s quantile
    (Wichura's AS241, to about 1e-16) and one Newton step on ``erfc``, whose relative
    precision in the tail is the last bit of z."""
    z = -NormalDist().inv_cdf(alpha)  # from the small side: no 1 - alpha to round
    pdf = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    return z + (0.5 * math.erfc(z / math.sqrt(2.0)) - alpha) / pdf


def _chi2_sf(x: float, df: int) -> float:
    """P(X > x) for chi-square with an integer ``df`` >= 1: the finite sums of the
    incomplete gamma function at integer and half-integer shapes."""
    if x <= 0.0:
        return 1.0
    h = 0.5 * x
    if df % 2 == 0:
        term = math.exp(-h)
        total = term
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(h))
    term = math.sqrt(2.0 * x / math.pi) * math.exp(-h)
    for i in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * i + 1)
    return min(1.0, total)


def _tail(confidence: float) -> float:
    """The probability in each tail of a two-sided interval: (1 - confidence) / 2, exact
    for a confidence in [1/2, 1) (the subtraction is exact there)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"a confidence level lies strictly between 0 and 1, not {confidence}")
    return (1.0 - confidence) / 2.0


# --- intervals --------------------------------------------------------------------------


def mean_ci(values: Sequence[float], confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``values`` with its Student-t interval.

    The samples should be independent: one per deal when a deal is played several times."""
    x = [float(v) for v in values]
    n = len(x)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    m = math.fsum(x) / n
    if n == 1:
        return Interval(m, math.nan, math.nan, 1)
    se = math.sqrt(math.fsum((v - m) ** 2 for v in x) / (n - 1)) / math.sqrt(n)
    if se == 0.0:
        return Interval(m, m, m, n)
    half = _t_isf(_tail(confidence), n - 1) * se
    return Interval(m, m - half, m + half, n)


def proportion_ci(successes: int, trials: int, confidence: float = CONFIDENCE,
                  method: str = "wilson") -> Interval:
    """``successes / trials`` with Wilson's score interval (no continuity correction;
    ``"wilsoncc"`` with it) or, with ``method="exact"``, Clopper-Pearson's. For independent
    trials. The bounds are those of ``scipy.stats.binomtest(...).proportion_ci`` (0 and 1
    exactly at no success and all successes).

    >>> iv = proportion_ci(7, 10)
    >>> round(iv.low, 4), round(iv.high, 4)
    (0.3968, 0.8922)
    """
    if trials == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    alpha = _tail(confidence)
    k, n = successes, trials
    p = k / n
    if method == "exact":
        # P(X >= k | low) = alpha = P(X <= k | high): beta quantiles, the upper one from
        # its own small tail (I_x(k + 1, n - k) = 1 - alpha at 1 - x of the mirrored beta)
        low = 0.0 if k == 0 else _beta_ppf(alpha, k, n - k + 1)
        high = 1.0 if k == n else 1.0 - _beta_ppf(alpha, n - k, k + 1)
        return Interval(p, low, high, n)
    if method not in ("wilson", "wilsoncc"):
        raise ValueError(f"unknown interval method {method!r} (wilson, wilsoncc, exact)")
    z = _z_isf(alpha)
    z2 = z * z
    denom = 2.0 * (n + z2)
    centre = (2.0 * n * p + z2) / denom
    q = 1.0 - p
    if method == "wilson":
        delta = z / denom * math.sqrt(4.0 * n * p * q + z2)
        low = 0.0 if k == 0 else centre - delta
        high = 1.0 if k == n else centre + delta
    else:
        low = 0.0 if k == 0 else \
            centre - (1.0 + z * math.sqrt(z2 - 2.0 - 1.0 / n + 4.0 * p * (n * q + 1.0))) / denom
        high = 1.0 if k == n else \
            centre + (1.0 + z * math.sqrt(z2 + 2.0 - 1.0 / n + 4.0 * p * (n * q - 1.0))) / denom
    return Interval(p, low, high, n)


def paired_difference_ci(a: Sequence[float], b: Sequence[float],
                         confidence: float = CONFIDENCE) -> Interval:
    """The mean of ``a[i] - b[i]`` with its t interval: for two treatments measured on the
    same seeds (two bots on the same deals, two rule sets on the same seeds)."""
    if len(a) != len(b):
        raise ValueError(f"paired samples need equal lengths, not {len(a)} and {len(b)}")
    return mean_ci([float(x) - float(y) for x, y in zip(a, b, strict=True)], confidence)


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
    """Pearson's chi-square goodness-of-fit test of seat win counts against equal shares;
    ``None`` with fewer than two seats or no win at all. Pass games with a single winner
    (a shared first place is not one seat's win).

    >>> t = seat_fairness([30, 20, 10])        # (10² + 0² + 10²) / 20 = 10, 2 df
    >>> t.chi2, t.df, round(t.p_value, 5)      # P(chi²₂ > 10) = e^-5
    (10.0, 2, 0.00674)
    """
    k = len(counts)
    total = int(sum(counts))
    if k < 2 or total == 0:
        return None
    expected = total / k
    chi2 = math.fsum((c - expected) ** 2 / expected for c in counts)
    return FairnessTest([int(c) for c in counts], expected, chi2, k - 1,
                        _chi2_sf(chi2, k - 1), expected < 5)


# --- Elo --------------------------------------------------------------------------------

Outcome = tuple[Hashable, Hashable, float]
"""One pairwise comparison ``(i, j, score of i)``: 1 if i finished ahead of j, 0.5 for a
tie, 0 if behind."""

ITERATIONS = 100
"""Newton steps of a Bradley-Terry fit at most (it converges in a handful)."""
TOLERANCE = 1e-9
"""A fit stops when no log-strength moves by this much in a step (the step after a move of
1e-9 is of order 1e-18: Newton's method converges quadratically)."""


def _fit(wins: np.ndarray, games: np.ndarray, iterations: int = ITERATIONS,
         tol: float = TOLERANCE) -> np.ndarray:
    """Bradley-Terry log-strengths by Newton's method on the log-likelihood (concave);
    ``wins[i, j]`` is i's score against j, ``games[i, j]`` the comparisons between them.
    Returns Elo ratings with mean 0 over the players who played (the others get 0).

    One fit at a time, with a least-squares step: the reference for :func:`_fit_many`, and
    its fallback when the comparisons do not connect the players."""
    import numpy as np

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


def _connected(adjacent: np.ndarray) -> bool:
    """Whether the graph of a boolean adjacency matrix is connected."""
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in map(int, adjacent[i].nonzero()[0]):
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(adjacent)


def _fit_many(wins: np.ndarray, games: np.ndarray, iterations: int = ITERATIONS,
              tol: float = TOLERANCE) -> np.ndarray:
    """:func:`_fit` of many data sets at once (``wins[r]``, ``games[r]``): the same Newton
    steps from the same start, each set frozen when it converges as the single fit would
    stop, with the steps of all sets solved in one batched call. The sets are grouped by
    which pairs met; a group whose comparisons do not connect its players (the gauge-fixed
    Hessian is singular) goes to :func:`_fit` one by one."""
    import numpy as np

    r, k, _ = wins.shape
    out = np.zeros((r, k))
    met = games > 0
    patterns, which = np.unique(met.reshape(r, k * k), axis=0, return_inverse=True)
    for p, pattern in enumerate(patterns):
        rows = np.flatnonzero(which.reshape(-1) == p)
        adjacency = pattern.reshape(k, k)
        played = np.flatnonzero(adjacency.any(axis=1))
        m = len(played)
        if m < 2:
            continue
        if not _connected(adjacency[np.ix_(played, played)]):
            for row in rows:
                out[row] = _fit(wins[row], games[row], iterations, tol)
            continue
        w = wins[rows][:, played][:, :, played]
        g = games[rows][:, played][:, :, played]
        score = w.sum(axis=2)
        t = np.zeros((len(rows), m))
        active = np.arange(len(rows))
        diagonal = np.arange(m)
        for _ in range(iterations):
            ta, ga = t[active], g[active]
            sig = 1.0 / (1.0 + np.exp(ta[:, None, :] - ta[:, :, None]))
            grad = score[active] - (ga * sig).sum(axis=2)
            hess = ga * sig * (1.0 - sig)
            hess[:, diagonal, diagonal] -= hess.sum(axis=2)
            step = np.zeros_like(ta)
            step[:, :-1] = np.linalg.solve(hess[:, :-1, :-1], -grad[:, :-1, None])[..., 0]
            new = np.clip(ta + step, -LOG_CAP, LOG_CAP)
            new -= new.mean(axis=1, keepdims=True)
            done = np.max(np.abs(new - ta), axis=1) < tol
            t[active] = new
            active = active[~done]
            if not len(active):
                break
        out[np.ix_(rows, played)] = ELO_SCALE / math.log(10) * t
    return out


def _percentiles(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The two-sided percentile interval of each column of ``values`` (one row per
    resample): the linear interpolation of the order statistics (Hyndman and Fan's type
    7, numpy's default), as ``scipy.stats.bootstrap(method="percentile")`` takes it."""
    import numpy as np

    y = np.sort(values, axis=0)
    n = len(y)
    alpha = (1 - confidence) / 2
    bounds = []
    for p in (alpha, 1 - alpha):
        pos = p * n + (1 - p)  # 1-based position of the quantile
        upper = pos // 1
        lower = upper - 1
        g = pos % 1 if lower >= 0 else 0.0
        lower, upper = min(max(lower, 0), n - 1), min(max(upper, 0), n - 1)
        bounds.append((1 - g) * y[int(lower)] + g * y[int(upper)])
    return bounds[0], bounds[1]


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


def _ratings_of(counts: np.ndarray, wins: np.ndarray, games: np.ndarray, prior: float,
                others: Sequence[tuple[int, int]]) -> np.ndarray:
    """Ratings and their differences (``others``' pairs) for each row of ``counts`` (how
    many times each cluster is drawn), from per-cluster ``wins`` and ``games`` (``d x k x
    k``), with ``prior`` virtual ties per pair that met: the fit of :func:`elo` and
    :func:`elo_counts`."""
    import numpy as np

    d, k = wins.shape[0], wins.shape[1]
    if k == 0:
        return np.zeros((len(counts), 0))
    w = (counts @ wins.reshape(d, k * k)).reshape(-1, k, k)
    g = (counts @ games.reshape(d, k * k)).reshape(-1, k, k)
    met = g > 0
    r = _fit_many(w + prior * 0.5 * met, g + prior * met)
    diffs = np.stack([r[:, a] - r[:, b] for a, b in others], axis=1) if others \
        else np.zeros((len(r), 0))
    return np.concatenate([r, diffs], axis=1)


def _no_spread_bounds(wins: np.ndarray, games: np.ndarray, prior: float, confidence: float,
                      point: np.ndarray, low: np.ndarray, high: np.ndarray,
                      others: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """The Elo intervals where the bootstrap over clusters has nothing to resample.

    When every cluster a pair met in gives it the same score (every deal won, or a single
    deal) and every resample gives its difference the same fit, the percentile interval is
    the estimate alone (or undefined, for one cluster). Such a difference's interval is
    then the Elo image of Wilson's interval of the pair's score at one trial a cluster
    (the fallback of :func:`bootstrap_means`), with the fit's ``prior`` virtual ties added
    to its comparisons, so that a bound at a score of 1 is the estimate itself; and a
    rating whose interval collapsed likewise takes ``sum_b (r_a - r_b) / k`` (the rating
    of ``a`` among ``k`` players, mean 0) over its differences' bounds. Every interval
    still holds its estimate; one with spread keeps the bootstrap's."""
    import numpy as np

    k = wins.shape[1]
    low, high = low.copy(), high.copy()
    widened = np.zeros(k, dtype=bool)
    cap = 2 * LOG_CAP * ELO_SCALE / math.log(10.0)
    for m, (a, b) in enumerate(others):
        g = games[:, a, b]
        met = g > 0
        if not met.any():
            continue
        s = wins[met, a, b] / g[met]
        j = k + m
        if float(s.max()) != float(s.min()) or high[j] - low[j] > 1e-9 * (1 + abs(point[j])):
            continue
        total = float(g.sum())
        iv = cluster_proportion_ci(s.tolist(), confidence)
        ends = []
        for q in (iv.low, iv.high):
            r = (q * total + 0.5 * prior) / (total + prior)
            ends.append(-cap if r <= 0.0 else cap if r >= 1.0
                        else max(-cap, min(cap, elo_from_score(r))))
        low[j] = np.nanmin([low[j], ends[0], point[j]])
        high[j] = np.nanmax([high[j], ends[1], point[j]])
        widened[a] = widened[b] = True
    for a in np.flatnonzero(widened):
        if high[a] - low[a] > 1e-9 * (1 + abs(point[a])):
            continue
        mine = [k + m for m, (x, _) in enumerate(others) if x == a]
        lo, hi = float(low[mine].sum()) / k, float(high[mine].sum()) / k
        if math.isnan(lo) or math.isnan(hi):
            continue  # a difference with no interval (a pair that never met, one deal)
        low[a] = np.nanmin([low[a], point[a], lo])
        high[a] = np.nanmax([high[a], point[a], hi])
    return low, high


def elo(clusters: Sequence[Sequence[Outcome]], players: Sequence[Hashable] | None = None, *,
        prior: float = 1.0, confidence: float = CONFIDENCE, resamples: int = 999,
        seed: int = 0) -> EloTable:
    """Elo ratings from pairwise results, grouped in clusters (one cluster per deal).

    The ratings are the maximum-likelihood Bradley-Terry fit (a tie counts half a win to
    each side), on the Elo scale (400 points = odds of 10 to 1), shifted to mean 0. Each
    pair that met gets ``prior`` virtual comparisons ending in a tie, so that a player who
    won every comparison keeps a finite rating (``prior=0`` for the plain fit). The
    intervals are percentile bootstraps over clusters, for every rating and every
    difference: ``resamples`` draws of as many clusters with replacement from numpy's
    ``default_rng(seed)`` (the draws ``scipy.stats.bootstrap`` makes with that generator),
    all fitted at once.

    >>> t = elo([[("a", "b", 1.0)], [("a", "b", 1.0)], [("a", "b", 1.0)], [("a", "b", 0.0)]],
    ...         prior=0, resamples=99)
    >>> round(t.difference("a", "b").estimate, 2)   # 3 wins in 4: 400 log10(3)
    190.85
    """
    import numpy as np

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
    # each comparison counts for both sides: cell (c, a, b) gets i's score, (c, b, a) j's
    cells: list[int] = []
    scores: list[float] = []
    for c, cluster in enumerate(clusters):
        for i, j, s in cluster:
            a, b = index[i], index[j]
            if a != b:
                cells += (c * k * k + a * k + b, c * k * k + b * k + a)
                scores += (s, 1.0 - s)
    size = d * k * k
    where = np.asarray(cells, dtype=np.intp)
    wins = np.bincount(where, np.asarray(scores, dtype=float), minlength=size).reshape(d, k, k)
    games = np.bincount(where, minlength=size).astype(float).reshape(d, k, k)
    others = [(a, b) for a in range(k) for b in range(k) if a != b]

    def ratings_of(counts: np.ndarray) -> np.ndarray:
        return _ratings_of(counts, wins, games, prior, others)

    point = ratings_of(np.ones((1, d)))[0] if d else np.zeros(k + len(others))
    if d >= 2:
        if resamples < 1:
            raise ValueError(f"a bootstrap needs at least one resample, not {resamples}")
        draws = np.random.default_rng(seed).integers(0, d, (resamples, d))
        cells = (draws + d * np.arange(resamples)[:, None]).reshape(-1)
        counts = np.bincount(cells, minlength=resamples * d).reshape(resamples, d)
        counts = counts.astype(float)
        low, high = _percentiles(ratings_of(counts), confidence)
    else:
        low = high = np.full(len(point), math.nan)
    if d:
        low, high = _no_spread_bounds(wins, games, prior, confidence, point, low, high,
                                      others)
    ivs = [Interval(float(point[m]), float(low[m]), float(high[m]), d)
           for m in range(len(point))]
    pairs = [(players[a], players[b]) for a, b in others]
    return EloTable(players, ivs[:k], dict(zip(pairs, ivs[k:], strict=True)))


# --- intervals that stay inside their range (kifu match, issue 33) ----------------------


def cluster_proportion_ci(values: Sequence[float], confidence: float = CONFIDENCE,
                          trials: int | None = None) -> Interval:
    """The mean of per-cluster values in [0, 1] (a rate or share per deal) with Wilson's
    score interval at the *effective* sample size, so the bounds stay in [0, 1].

    The effective size is ``p (1 - p) / v``, ``v`` the variance of the mean estimated from
    the clusters (their spread divided by their number, the maximum-likelihood variance),
    capped at ``trials`` (the games behind the values) when given: clusters of independent
    0/1 trials give back Wilson's interval of those trials, and games that move together
    within a deal shrink it toward one trial per deal (the design effect of Kish, the
    effective-size Wilson interval of Korn and Graubard). Where the spread is 0 (every deal
    the same, e.g. all wins) the effective size cannot be estimated: one trial per cluster
    is used, the cautious choice.

    >>> iv = cluster_proportion_ci([1.0] * 7 + [0.0] * 3)   # 10 independent trials
    >>> round(iv.low, 4), round(iv.high, 4)                 # = proportion_ci(7, 10)
    (0.3968, 0.8922)
    >>> iv = cluster_proportion_ci([0.0] * 200, trials=400)  # never: 0 and a bound above it
    >>> iv.low, round(iv.high, 4)
    (0.0, 0.0188)
    """
    x = [float(v) for v in values]
    m = len(x)
    if m == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    if any(not 0.0 <= v <= 1.0 for v in x):
        raise ValueError("cluster_proportion_ci takes values in [0, 1]")
    p = math.fsum(x) / m
    var = math.fsum((v - p) ** 2 for v in x) / m / m
    n_eff = p * (1.0 - p) / var if not no_spread(x, 0.0, 1.0) and 0.0 < p < 1.0 else float(m)
    if trials is not None:
        n_eff = min(n_eff, float(trials))
    z = _z_isf(_tail(confidence))
    z2 = z * z
    denom = 1.0 + z2 / n_eff
    centre = (p + z2 / (2.0 * n_eff)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n_eff + z2 / (4.0 * n_eff * n_eff))
    low = 0.0 if p == 0.0 else max(0.0, centre - half)
    high = 1.0 if p == 1.0 else min(1.0, centre + half)
    return Interval(p, low, high, m)


def scaled_cluster_ci(values: Sequence[float], low: float, high: float,
                      confidence: float = CONFIDENCE, trials: int | None = None) -> Interval:
    """:func:`cluster_proportion_ci` of values known to lie in ``[low, high]`` (a mean rank
    in [1, n]), mapped to [0, 1] and back."""
    span = high - low
    iv = cluster_proportion_ci([(v - low) / span for v in values], confidence, trials)
    return Interval(low + span * iv.estimate, low + span * iv.low, low + span * iv.high, iv.n)


BLOCK_CELLS = 1 << 19
"""Cells of resample counts made at once by :func:`bootstrap_blocks` (4 MiB of floats):
the memory of a bootstrap stays flat however many clusters it resamples."""


def bootstrap_blocks(clusters: int, resamples: int, seed: int):
    """The resamples of a percentile bootstrap over ``clusters`` clusters, as blocks of
    count matrices (one row per resample: how many times each cluster is drawn), each
    block at most :data:`BLOCK_CELLS` cells. The draws are numpy's
    ``default_rng(seed).integers(0, clusters, (rows, clusters))`` block after block, so the
    same seed gives the same resamples (not the ones of :func:`elo`, which draws them in
    one block)."""
    import numpy as np

    if resamples < 1:
        raise ValueError(f"a bootstrap needs at least one resample, not {resamples}")
    rng = np.random.default_rng(seed)
    rows = max(1, BLOCK_CELLS // max(1, clusters))
    done = 0
    while done < resamples:
        b = min(rows, resamples - done)
        draws = rng.integers(0, clusters, (b, clusters))
        cells = (draws + clusters * np.arange(b)[:, None]).reshape(-1)
        yield np.bincount(cells, minlength=b * clusters).reshape(b, clusters).astype(float)
        done += b


def bootstrap_means(columns: np.ndarray, *, confidence: float = CONFIDENCE,
                    resamples: int = 999, seed: int = 0,
                    bounds: Sequence[tuple[float, float]] | None = None) -> list[Interval]:
    """The mean of each column of ``columns`` (one row per cluster, NaN where a cluster has
    no value) with its percentile bootstrap interval over clusters (the resamples of
    :func:`bootstrap_blocks`): the interval of a mean of values in a range stays in that
    range. A column whose values are all equal (to within :data:`SAME` of the range: a
    difference of rounded shares carries float noise) has no spread to resample; its
    interval is then :func:`scaled_cluster_ci` within ``bounds[j]`` (one trial per
    cluster), when given.
    """
    import numpy as np

    data = np.asarray(columns, dtype=float)
    d, k = data.shape
    present = ~np.isnan(data)
    values = np.where(present, data, 0.0)
    weight = present.astype(float)
    n = weight.sum(axis=0)
    point = values.sum(axis=0) / np.where(n > 0, n, 1)
    out_low = np.full(k, math.nan)
    out_high = np.full(k, math.nan)
    if d >= 2:
        rows = []
        for counts in bootstrap_blocks(d, resamples, seed):
            tot = counts @ weight
            rows.append((counts @ values) / np.where(tot > 0, tot, np.nan))
        out_low, out_high = _percentiles(np.concatenate(rows), confidence)
    ivs = []
    for j in range(k):
        col = values[present[:, j], j]
        est = float(point[j]) if n[j] else math.nan
        if n[j] >= 1 and bounds is not None and no_spread(col, *bounds[j]):
            lo, hi = bounds[j]
            ivs.append(scaled_cluster_ci(col.tolist(), lo, hi, confidence))
        else:
            ivs.append(Interval(est, float(out_low[j]), float(out_high[j]), int(n[j])))
    return ivs


def elo_counts(wins: np.ndarray, games: np.ndarray, players: Sequence[Hashable], *,
               prior: float = 1.0, confidence: float = CONFIDENCE, resamples: int = 999,
               seed: int = 0) -> EloTable:
    """:func:`elo` from compact per-cluster tables: ``wins[c, a, b]`` is the score player
    ``a`` took from its comparisons with ``b`` in cluster ``c`` (ties half) and
    ``games[c, a, b]`` their number (both cells of a comparison filled). The fit is
    :func:`elo`'s; the bootstrap draws :func:`bootstrap_blocks`' resamples, block by block,
    so its memory does not grow with the clusters."""
    import numpy as np

    players = list(players)
    k = len(players)
    wins = np.asarray(wins, dtype=float).reshape(-1, k, k)
    games = np.asarray(games, dtype=float).reshape(-1, k, k)
    d = len(wins)
    others = [(a, b) for a in range(k) for b in range(k) if a != b]

    def ratings_of(counts: np.ndarray) -> np.ndarray:
        return _ratings_of(counts, wins, games, prior, others)

    point = ratings_of(np.ones((1, d)))[0] if d else np.zeros(k + len(others))
    if d >= 2:
        fits = np.concatenate([ratings_of(c) for c in bootstrap_blocks(d, resamples, seed)])
        low, high = _percentiles(fits, confidence)
    else:
        low = high = np.full(len(point), math.nan)
    if d:
        low, high = _no_spread_bounds(wins, games, prior, confidence, point, low, high,
                                      others)
    ivs = [Interval(float(point[m]), float(low[m]), float(high[m]), d)
           for m in range(len(point))]
    pairs = [(players[a], players[b]) for a, b in others]
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
    "bootstrap_blocks",
    "bootstrap_means",
    "cluster_proportion_ci",
    "elo",
    "elo_counts",
    "elo_from_score",
    "mean_ci",
    "no_spread",
    "paired_difference_ci",
    "proportion_ci",
    "scaled_cluster_ci",
    "seat_fairness",
]
