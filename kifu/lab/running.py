"""Running sums for ``kifu simulate``: a metric's count, sum, sum of squared deviations,
smallest and largest value, kept as the games come in (and merged chunk by chunk), so a
simulation of 50,000 games holds no more than one of 500.

:class:`Moments` adds one value at a time (Welford's update) and merges two partial
results (Chan, Golub and LeVeque's pairwise formula), both exact for the sum of whole
numbers; its interval is the t interval of :func:`kifu.lab.stats.mean_ci` and its p-value
the one-sample t test of mean 0 (``scipy.stats.ttest_1samp``), checked against scipy in
``tests/test_simulate_stats.py``. Chunks are merged in chunk order, so the floating-point
result is the same whatever executor played them.

>>> m = Moments()
>>> for x in (1, 2, 4):
...     m.add(x)
>>> m.n, m.total, round(m.variance(), 4)
(3, 7.0, 2.3333)
"""

from __future__ import annotations

import math

import msgspec

from kifu.lab.stats import CONFIDENCE, Interval, _t_isf, _t_sf, _tail


class Moments(msgspec.Struct):
    """The count, sum, sum of squared deviations from the mean (``m2``), min and max of a
    stream of values."""

    n: int = 0
    total: float = 0.0
    m2: float = 0.0
    lo: float | None = None
    hi: float | None = None

    def add(self, x: float) -> None:
        """Take one more value."""
        old = self.total / self.n if self.n else 0.0
        self.n += 1
        self.total += x
        self.m2 += (x - old) * (x - self.total / self.n)
        if self.lo is None or x < self.lo:
            self.lo = x
        if self.hi is None or x > self.hi:
            self.hi = x

    def merge(self, other: Moments) -> None:
        """Take every value ``other`` took (as if they had been added here, in order)."""
        if other.n == 0:
            return
        if self.n == 0:
            self.n, self.total, self.m2 = other.n, other.total, other.m2
            self.lo, self.hi = other.lo, other.hi
            return
        n = self.n + other.n
        delta = other.total / other.n - self.total / self.n
        self.m2 += other.m2 + delta * delta * self.n * other.n / n
        self.n, self.total = n, self.total + other.total
        assert other.lo is not None and other.hi is not None
        self.lo = other.lo if self.lo is None or other.lo < self.lo else self.lo
        self.hi = other.hi if self.hi is None or other.hi > self.hi else self.hi

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator); NaN below two values."""
        return max(self.m2, 0.0) / (self.n - 1) if self.n > 1 else math.nan

    def sd(self) -> float:
        return math.sqrt(self.variance())

    def interval(self, confidence: float = CONFIDENCE) -> Interval:
        """The mean with its Student-t interval (as :func:`kifu.lab.stats.mean_ci`)."""
        n, m = self.n, self.mean
        if n == 0:
            return Interval(math.nan, math.nan, math.nan, 0)
        if n == 1:
            return Interval(m, math.nan, math.nan, 1)
        se = self.sd() / math.sqrt(n)
        if se == 0.0:
            return Interval(m, m, m, n)
        half = _t_isf(_tail(confidence), n - 1) * se
        return Interval(m, m - half, m + half, n)

    def p_value(self) -> float:
        """The two-sided p-value of the t test of "the mean is 0" (1 when every value is 0,
        0 when every value is the same non-zero number, NaN below two values)."""
        if self.n < 2:
            return math.nan
        se = self.sd() / math.sqrt(self.n)
        m = self.mean
        if se == 0.0:
            return 1.0 if m == 0.0 else 0.0
        return min(1.0, 2.0 * _t_sf(abs(m) / se, self.n - 1))


__all__ = ["Moments"]
