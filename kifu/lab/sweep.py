"""``kifu simulate --sweep FIELD=V1,V2,...``: one rule field over several values, on the same
seeds, and the value where a target is met (``--target plies<=80``).

Every value is a rule set of one simulation, so game ``i`` is played from seed ``S + i``
under every value (paired seeds across all values); each value is compared with the first
(the report's family then has one comparison per further value). A range
``FIELD=LO..HI`` (step 1) or ``FIELD=LO..HI:STEP`` stands for its integers.

The target's answer: the values whose mean meets the target, those whose whole 95%
interval does ("surely"), the meeting value whose mean is nearest the target (the value
that hits it: for ``plies<=80`` over thresholds 40..100, the largest threshold still short
enough), and for a numeric field, where the means cross the target between two
neighbouring values (linear interpolation: an estimate to try next, not a measurement).

>>> parse_sweep("cap=30..50:10")
('cap', ['30', '40', '50'])
>>> parse_target("plies<=80")
('plies', '<=', 80.0)
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Sequence

import msgspec

from kifu.core.errors import VariantError
from kifu.core.game import Game
from kifu.lab.simulate import Figure, SimulationReport, Sweep, TargetValue, _fig, sweep_lines

MAX_VALUES = 50
"""The most values one sweep may have."""
_OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt,
        "=": operator.eq}
_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)(?::(\d+))?$")
_TARGET = re.compile(r"^([a-z][a-z0-9_]*)\s*(<=|>=|<|>|=)\s*(-?\d+(?:\.\d+)?)(%?)$")


def parse_sweep(spec: str) -> tuple[str, list[str]]:
    """``FIELD=V1,V2,...`` or ``FIELD=LO..HI[:STEP]`` as the field and its values."""
    field, eq, rest = spec.partition("=")
    if not eq or not field or not rest:
        raise VariantError(f"--sweep {spec!r}: expected FIELD=V1,V2,... or FIELD=LO..HI[:STEP]")
    m = _RANGE.match(rest)
    if m:
        lo, hi, step = int(m[1]), int(m[2]), int(m[3] or 1)
        if step < 1 or hi < lo:
            raise VariantError(f"--sweep {spec!r}: a range LO..HI:STEP needs LO <= HI and "
                               "STEP >= 1")
        values = [str(v) for v in range(lo, hi + 1, step)]
    else:
        values = [v.strip() for v in rest.split(",")]
        if any(not v for v in values):
            raise VariantError(f"--sweep {spec!r}: an empty value")
    if len(values) < 2:
        raise VariantError(f"--sweep {spec!r}: a sweep needs at least two values")
    if len(values) > MAX_VALUES:
        raise VariantError(f"--sweep {spec!r}: {len(values)} values, at most {MAX_VALUES}")
    if len(set(values)) != len(values):
        raise VariantError(f"--sweep {spec!r}: a value is given twice")
    return field, values


def parse_target(text: str) -> tuple[str, str, float]:
    """``METRIC OP NUMBER`` (``plies<=80``, ``win_first<45%``) as its parts; a rate's
    number may be a share (0.45) or a percentage (45%)."""
    m = _TARGET.match(text.strip())
    if not m:
        raise VariantError(f"--target {text!r}: expected METRIC<=NUMBER (or <, >=, >, =), "
                           "e.g. plies<=80")
    value = float(m[3]) / (100.0 if m[4] else 1.0)
    return m[1], m[2], value


def sweep_specs(game: Game, base: str, field: str, values: Sequence[str]) -> list[str]:
    """The rule set of each value: ``base`` with ``field`` set to it (checked)."""
    from kifu.notation.diff import apply_sets

    variant = game.parse_rules(base)
    return [game.rules_spec(apply_sets(game, variant, [f"{field}={v}"])) for v in values]


def sweep_pairs(count: int) -> list[tuple[int, int]]:
    """Each value against the first."""
    return [(0, k) for k in range(1, count)]


def answer(report: SimulationReport, field: str, values: Sequence[str],
           target: str | None) -> SimulationReport:
    """The report with its :class:`Sweep` (and the target's answer, when asked)."""
    if target is None:
        return msgspec.structs.replace(report, sweep=Sweep(field, list(values)))
    metric, op, goal = parse_target(target)
    if metric not in report.rule_sets[0].metrics:
        names = ", ".join(report.rule_sets[0].metrics)
        raise VariantError(f"--target {target!r}: no metric {metric!r} (one of {names})")
    test = _OPS[op]
    rows = []
    for value, rs in zip(values, report.rule_sets, strict=True):
        f = rs.metrics[metric].mean
        meets = f.estimate is not None and test(f.estimate, goal)
        surely = meets and f.low is not None and f.high is not None and \
            test(f.low, goal) and test(f.high, goal)
        rows.append(TargetValue(value, f, bool(meets), bool(surely)))
    meeting = [r for r in rows if r.meets]
    closest = min(meeting, key=lambda r: abs((r.mean.estimate or 0.0) - goal), default=None)
    return msgspec.structs.replace(report, sweep=Sweep(
        field, list(values), target, rows, [r.value for r in meeting],
        [r.value for r in rows if r.surely], closest.value if closest else None,
        _crossing(rows, goal)))


def _crossing(rows: Sequence[TargetValue], goal: float) -> float | None:
    """Where the means cross ``goal`` between two neighbouring numeric values."""
    for x, y in itertools.pairwise(rows):
        try:
            vx, vy = float(x.value), float(y.value)
        except ValueError:
            return None
        mx, my = x.mean.estimate, y.mean.estimate
        if mx is None or my is None or mx == my:
            continue
        if (mx - goal) * (my - goal) <= 0:
            return round(vx + (goal - mx) / (my - mx) * (vy - vx), 2)
    return None


def figure_text(f: Figure, rate: bool) -> str:
    """The shared number format (:func:`kifu.lab.simulate.format_figure`)."""
    return _fig(f, pct=rate)


__all__ = [
    "MAX_VALUES",
    "answer",
    "figure_text",
    "parse_sweep",
    "parse_target",
    "sweep_lines",
    "sweep_pairs",
    "sweep_specs",
]
