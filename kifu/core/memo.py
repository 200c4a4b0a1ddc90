"""Bounded memos: process-wide dicts that remember the results of pure functions.

The engines' hot paths memoise by plain dicts (a ``dict.get`` is the cheapest lookup
Python has), each capped by a number of entries. A cap is a byte budget in disguise: an
entry of TWEAK's best-capture memo holds a small dict of its own (about 2.5 KB), one of
the subset memo a list of codes (about 1.1 KB), so the caps are set from measured sizes
(``docs/performance.md``, *Memory of the memos*) and a long match stays flat rather than
growing until its largest memo fills.

A memo that reaches its cap is :func:`trim`\\ med: its older half is dropped (the entries
inserted first), so the entries of the current deal or search stay, where clearing the
whole memo would make the next thousand lookups miss. A memo only caches a pure function,
so what it holds changes time and memory, never a result: play is the same with any cap.

>>> m = {k: k * k for k in range(8)}
>>> trim(m, 8)
>>> sorted(m)
[4, 5, 6, 7]
"""

from __future__ import annotations

from itertools import islice


def trim(memo: dict, limit: int) -> None:
    """Make room in ``memo`` when it holds ``limit`` entries or more: drop the entries
    inserted first until ``limit // 2`` remain (a dict keeps insertion order). The cost is
    one pass over the dropped keys, once per ``limit // 2`` insertions."""
    if len(memo) >= limit:
        for key in list(islice(memo, len(memo) - limit // 2)):
            del memo[key]


__all__ = ["trim"]
