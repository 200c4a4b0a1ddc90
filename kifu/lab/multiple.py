"""Many metrics, one verdict: controlling the family of calls a ``kifu simulate`` report
makes.

A report compares 30 to 70 metrics per pair of rule sets. Each has its own 95% interval,
so with nothing changed at all about ``0.05 * m`` of them would still exclude zero: the
TOWAI ``--set cap=40`` run on seeds 1..300 called ``win_p0 more often by 4.7 pp [1.1,
8.2]``, which vanished on 2,000 other seeds. The report therefore calls a change only when
Holm's step-down procedure rejects it over the whole report (every metric of every
comparison is one family).

Why Holm and not Benjamini-Hochberg: a designer reads each call as "this changed", so the
error that matters is *any* false call in the report (the family-wise error rate), which
Holm bounds at 5% whatever the dependence between the tests. The metrics are strongly and
partly *negatively* dependent (one seat's wins are the others' losses; wins, places and
scores of a seat move together), which is outside the positive dependence Benjamini and
Hochberg's false-discovery guarantee needs. With the paired seeds of a simulation a real
change usually has a p-value far below 0.05 / m, so Holm's cost in power is small; a real
change that Holm misses is reported beside it ("its own interval excludes 0") and
``--confirm`` settles it. :func:`benjamini_hochberg` is here for comparison and for
``--family bh``.

- :func:`holm` and :func:`benjamini_hochberg`: adjusted p-values (the smallest family
  level at which each hypothesis is rejected), as ``statsmodels``'
  ``multipletests(method="holm" | "fdr_bh")`` and ``scipy.stats.false_discovery_control``
  compute them (``tests/test_simulate_stats.py`` checks both).
- :func:`near_edge`: a call whose adjusted p-value is at least a tenth of the level
  (0.005 <= p_adj < 0.05) is marked: it would not survive a ten times stricter family, so
  it is the kind of call a fresh block of seeds most often undoes.
- :func:`replicated`: the test ``--confirm`` applies to a call on a fresh block of seeds:
  the same direction, and significant after Holm over the calls being confirmed.

>>> [round(p, 4) for p in holm([0.01, 0.04, 0.03, 0.005])]
[0.03, 0.06, 0.06, 0.02]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

ALPHA = 0.05
"""The family level: the chance of at least one false call in a report (Holm)."""
EDGE = 10.0
"""A call is near its edge when its adjusted p-value is at least ALPHA / EDGE."""
METHODS = ("holm", "bh")


def _clean(pvalues: Sequence[float]) -> list[float]:
    out = []
    for p in pvalues:
        if math.isnan(p):
            out.append(1.0)  # an undefined test never rejects
        elif not 0.0 <= p <= 1.0:
            raise ValueError(f"a p-value lies in [0, 1], not {p}")
        else:
            out.append(p)
    return out


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the i-th smallest p is
    multiplied by ``m - i`` (i from 0), made non-decreasing, capped at 1. Reject where the
    adjusted value is below the family level."""
    p = _clean(pvalues)
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini and Hochberg's step-up adjusted p-values (false discovery rate), in the
    order given: the i-th smallest p (i from 1) times ``m / i``, made non-decreasing from
    the largest down, capped at 1."""
    p = _clean(pvalues)
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i], reverse=True)
    out = [1.0] * m
    running = 1.0
    for k, i in enumerate(order):
        rank = m - k  # 1-based rank from the smallest
        running = min(running, p[i] * m / rank)
        out[i] = min(1.0, running)
    return out


def adjust(pvalues: Sequence[float], method: str = "holm") -> list[float]:
    """The adjusted p-values by ``method`` (``holm`` or ``bh``)."""
    if method == "holm":
        return holm(pvalues)
    if method == "bh":
        return benjamini_hochberg(pvalues)
    raise ValueError(f"unknown family method {method!r} (holm, bh)")


def near_edge(adjusted: float, alpha: float = ALPHA) -> bool:
    """A call (``adjusted < alpha``) that a ten times stricter family would not make."""
    return alpha / EDGE <= adjusted < alpha


def chance_calls(tests: int, alpha: float = ALPHA) -> float:
    """How many of ``tests`` metrics whose rules change nothing 95% intervals alone would
    call, on average: ``alpha * tests``."""
    return alpha * tests


def replicated(direction: float, estimate: float, adjusted: float,
               alpha: float = ALPHA) -> bool:
    """Whether a call of sign ``direction`` replicates on a fresh block: the fresh
    estimate has the same sign and its adjusted p-value (Holm over the calls confirmed) is
    below ``alpha``."""
    same = (direction > 0 and estimate > 0) or (direction < 0 and estimate < 0)
    return same and adjusted < alpha


__all__ = [
    "ALPHA",
    "EDGE",
    "METHODS",
    "adjust",
    "benjamini_hochberg",
    "chance_calls",
    "holm",
    "near_edge",
    "replicated",
]
