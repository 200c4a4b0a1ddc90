"""Paired comparisons of two ``kifu match`` reports played on the same deals.

Two runs of ``kifu match`` with the same ``--seed`` (and rules and players) play deal ``i``
from the same seed ``"<seed>:<i>"``, so the same cards: a bot's share in one run and
another bot's in the other differ by the bots, not by the deals. The report's
``per_deal`` (:class:`kifu.lab.match.DealLine`) keeps each bot's share per deal and
seating; here each deal becomes one number per run (the bot's mean share over the deal's
seatings, each seating weighted alike: every seating seats a bot equally often), and the
statistic is computed deal by deal, so its interval is *clustered by deal*: the deal is
the unit resampled (percentile bootstrap over deals, 999 resamples, a fixed seed), which
keeps the correlation the shared cards create between the runs (intervals that treat the
two runs as independent are wider when the deals matter, as they do in card games). Where
every deal gives the same value there is nothing to resample: the interval is then
Wilson's at one trial a deal within the statistic's range (``Paired.interval`` says so).

- :func:`paired_difference`: ``a - b``, a bot of one run against a bot of the other;
- :func:`gap_target`: issue 33's "half the distance to the cheater" target,
  ``2 e - c - 0.5`` per deal (``e`` the bot's share against ``greedy``, ``c`` the
  cheater's on the same deals): the target is met when the interval lies above 0.

This module is game-independent: it reads reports only (as :class:`MatchReport` or as the
JSON ``kifu match --json`` wrote). ``python -m kifu.lab.paired A.json BOT_A B.json BOT_B
[--gap]`` prints the interval.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from kifu.core.command import reader_gone
from kifu.lab.stats import bootstrap_means, no_spread

RESAMPLES = 999
"""Bootstrap resamples of the paired intervals."""

BOOTSTRAP = "percentile bootstrap over deals"
NO_SPREAD = "every deal the same: Wilson at one trial a deal within the range"
""":attr:`Paired.interval`'s two values."""


class Paired(msgspec.Struct, frozen=True):
    """A statistic of two runs computed deal by deal: its mean over the ``deals`` both
    runs played, with its 95% interval over deals (``interval`` says how it was made)."""

    what: str
    estimate: float
    low: float
    high: float
    deals: int
    interval: str = BOOTSTRAP
    """How the interval was made: the bootstrap, or where every deal gives the same value
    Wilson's interval at one trial a deal within the statistic's range."""


def _get(report: Any, name: str) -> Any:
    try:
        return report[name] if isinstance(report, Mapping) else getattr(report, name)
    except (KeyError, AttributeError):
        raise ValueError(f"not a kifu match --json report: it has no {name!r}") from None


def deal_shares(report: Any, bot: str) -> dict[int, float]:
    """Per deal of ``report`` (a :class:`~kifu.lab.match.MatchReport` or its JSON as a
    dict), ``bot``'s mean share over the deal's seatings where it sat. Raises
    ``ValueError`` when the bot is not in the report or the report has no per-deal
    results (reports written before they existed).

    >>> r = {"bots": ["x", "y"], "per_deal": [[0, [[1.0, 0.0], [0.5, 0.5]]],
    ...                                       [1, [[0.0, 1.0], [0.0, 1.0]]]]}
    >>> deal_shares(r, "x")
    {0: 0.75, 1: 0.0}
    """
    bots = list(_get(report, "bots"))
    if bot not in bots:
        raise ValueError(f"bot {bot!r} is not in the report (its bots: {', '.join(bots)})")
    b = bots.index(bot)
    lines = _get(report, "per_deal")
    if not lines:
        raise ValueError("the report has no per-deal results (kifu match --json writes them "
                         "since issue 33's second session)")
    out: dict[int, float] = {}
    for line in lines:
        deal, rows = (line[0], line[1]) if isinstance(line, Sequence) else (line.deal,
                                                                            line.shares)
        vals = [r[b] for r in rows if r[b] is not None]
        if vals:
            out[int(deal)] = sum(vals) / len(vals)
    return out


def _check_same(a: Any, b: Any) -> None:
    for field in ("game", "rules", "players", "seed"):
        if str(_get(a, field)) != str(_get(b, field)):
            raise ValueError(f"the reports differ in {field} ({_get(a, field)!r} and "
                             f"{_get(b, field)!r}): their deals are not the same")


DIFFERENCE_RANGE = (-1.0, 1.0)
"""The range of a paired difference of two shares (each in [0, 1])."""

GAP_RANGE = (-1.5, 1.5)
"""The range of the gap ``2 e - c - 0.5`` (``e`` and ``c`` shares in [0, 1])."""


def _paired(what: str, a: Any, bot_a: str, b: Any, bot_b: str,
            f: Callable[[float, float], float], bounds: tuple[float, float]) -> Paired:
    import numpy as np

    _check_same(a, b)
    xa, xb = deal_shares(a, bot_a), deal_shares(b, bot_b)
    common = sorted(set(xa) & set(xb))
    if not common:
        raise ValueError("the reports have no deal in common")
    values = np.array([[f(xa[i], xb[i])] for i in common])
    # where every deal gives the same value (one deal; or shares that saturate, as 1 - 0 in
    # every deal of a small two-player run) the resamples have no spread: the interval is
    # then Wilson's at one trial a deal within the statistic's range, as for kifu match's
    # shares, not the point [d, d]
    iv = bootstrap_means(values, resamples=RESAMPLES, seed=0, bounds=[bounds])[0]
    return Paired(what, float(iv.estimate), float(iv.low), float(iv.high), len(common),
                  NO_SPREAD if no_spread(values[:, 0], *bounds) else BOOTSTRAP)


def paired_difference(a: Any, bot_a: str, b: Any, bot_b: str) -> Paired:
    """``bot_a``'s share in run ``a`` minus ``bot_b``'s in run ``b``, deal by deal, over
    the deals both played (same game, rules, players and seed, else ``ValueError``), with
    the percentile bootstrap interval over deals (clustered by deal). Where every deal
    gives the same difference (one deal, or a run against itself) the resamples have no
    spread, and the interval is Wilson's at one trial a deal within [-1, 1].

    >>> a = {"game": "g", "rules": "r", "players": 2, "seed": "1", "bots": ["e", "x"],
    ...      "per_deal": [[i, [[0.5 + 0.1 * (i % 3), 0.0]]] for i in range(30)]}
    >>> b = dict(a, bots=["c", "x"],
    ...          per_deal=[[i, [[0.4 + 0.1 * (i % 2), 0.0]]] for i in range(30)])
    >>> d = paired_difference(a, "e", b, "c")
    >>> round(d.estimate, 6), round(d.low, 3), round(d.high, 3), d.deals
    (0.15, 0.117, 0.183, 30)
    >>> b = dict(a, bots=["c", "x"],                   # 0.1 less in every deal
    ...          per_deal=[[i, [[0.4 + 0.1 * (i % 3), 0.0]]] for i in range(30)])
    >>> d = paired_difference(a, "e", b, "c")
    >>> round(d.estimate, 6), round(d.low, 3), round(d.high, 3), d.deals
    (0.1, -0.247, 0.424, 30)
    """
    return _paired(f"{bot_a} - {bot_b}", a, bot_a, b, bot_b, lambda x, y: x - y,
                   DIFFERENCE_RANGE)


def gap_target(expert: Any, cheater: Any, bot: str = "expert",
               cheat: str = "expert:cheat=1") -> Paired:
    """Issue 33's gap target ``2 e - c - 0.5`` deal by deal: ``e`` is ``bot``'s share in
    the run ``expert`` (against ``greedy``), ``c`` the share of ``cheat`` in the run
    ``cheater`` on the same deals. ``e - 0.5 >= (c - 0.5) / 2`` exactly when it is >= 0.

    >>> e = {"game": "g", "rules": "r", "players": 2, "seed": "1", "bots": ["expert", "x"],
    ...      "per_deal": [[i, [[0.7, 0.3]]] for i in range(5)]}
    >>> c = dict(e, bots=["expert:cheat=1", "x"], per_deal=[[i, [[0.8, 0.2]]] for i in range(5)])
    >>> g = gap_target(e, c)
    >>> round(g.estimate, 6), g.deals
    (0.1, 5)
    """
    return _paired(f"2 {bot} - {cheat} - 0.5", expert, bot, cheater, cheat,
                   lambda x, y: 2 * x - y - 0.5, GAP_RANGE)


def main(argv: list[str] | None = None) -> int:
    """``python -m kifu.lab.paired A.json BOT_A B.json BOT_B [--gap]``: the paired
    difference (or with ``--gap`` the gap target, A the bot's run and B the cheater's) as
    one line and as JSON on the second."""
    args = list(sys.argv[1:] if argv is None else argv)
    gap = "--gap" in args
    args = [x for x in args if x != "--gap"]
    if len(args) != 4:
        print("usage: python -m kifu.lab.paired A.json BOT_A B.json BOT_B [--gap]",
              file=sys.stderr)
        return 2
    try:
        reports = []
        for path in (args[0], args[2]):
            with open(path, "rb") as fh:
                try:
                    reports.append(msgspec.json.decode(fh.read()))
                except msgspec.DecodeError as e:
                    raise ValueError(f"{path}: not JSON: {e}") from None
        res = (gap_target(reports[0], reports[1], args[1], args[3]) if gap else
               paired_difference(reports[0], args[1], reports[1], args[3]))
    except (OSError, ValueError, KeyError, msgspec.DecodeError) as e:
        print(f"kifu.lab.paired: {e}", file=sys.stderr)
        return 1
    try:
        print(f"{res.what}: {res.estimate:+.3f} [{res.low:+.3f}, {res.high:+.3f}] over "
              f"{res.deals} deal{'' if res.deals == 1 else 's'} (95%, {res.interval})")
        print(msgspec.json.encode(res).decode(), flush=True)
    except BrokenPipeError:  # the reader went away (| head -1): stop quietly
        reader_gone()
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["Paired", "deal_shares", "gap_target", "main", "paired_difference"]
