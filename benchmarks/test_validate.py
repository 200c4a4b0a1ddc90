"""Validation against parsing, side by side in one run, on 10,000-record TWEAK and GRAPH-T
corpora (``big_corpora``). The issue's target: validating (parse + exact replay) takes at most
5x the time of parsing the same corpus; the old path (``replay()`` per record) is timed too.
Each round uses a fresh ``FastReplayer`` (cold setup and action caches)."""

from __future__ import annotations

import os

import pytest

from kifu.notation.reader import read_records
from kifu.notation.replay import FastReplayer, replay

from .conftest import CORPUS_RECORDS, per_second

GAMES = ["tweak", "graph-t"]


def _text(big_corpora, gid: str) -> str:
    return big_corpora[gid].read_text(encoding="utf-8")


@pytest.mark.parametrize("gid", GAMES)
def test_parse_corpus(benchmark, big_corpora, gid) -> None:
    text = _text(big_corpora, gid)
    benchmark.group = f"validation vs parsing: {gid}"
    n = benchmark.pedantic(lambda: sum(1 for _ in read_records(text)), rounds=5,
                           warmup_rounds=1)
    assert n == CORPUS_RECORDS
    per_second(benchmark, records=n, MB=len(text) / 1e6)


@pytest.mark.parametrize("gid", GAMES)
def test_validate_corpus(benchmark, big_corpora, gid) -> None:
    """What ``kifu validate`` does per file: parse and replay every record, exactly."""
    text = _text(big_corpora, gid)

    def run() -> int:
        fast = FastReplayer()
        plies = 0
        for loc in read_records(text):
            plies += len(fast.play(loc).history)
        return plies

    benchmark.group = f"validation vs parsing: {gid}"
    plies = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    per_second(benchmark, records=CORPUS_RECORDS, plies=plies)


@pytest.mark.parametrize("gid", GAMES)
def test_validate_corpus_old_path(benchmark, big_corpora, gid) -> None:
    """The path validate used before: ``replay()`` per record."""
    text = _text(big_corpora, gid)

    def run() -> int:
        return sum(len(replay(loc).state.history) for loc in read_records(text))

    benchmark.group = f"validation vs parsing: {gid}"
    plies = benchmark.pedantic(run, rounds=3, warmup_rounds=0)
    per_second(benchmark, records=CORPUS_RECORDS, plies=plies)


ROUNDS = int(os.environ.get("KIFU_BENCH_ROUNDS", "7"))
"""Rounds of the interleaved benchmarks (``KIFU_BENCH_ROUNDS``; more give steadier ratios
on a noisy machine)."""


def _interleaved(benchmark, fns: dict, rounds: int = ROUNDS) -> dict[str, list[float]]:
    """Run each of ``fns`` once a round, in turn (in reverse order every other round, so
    a machine speeding up or slowing down favours none), for ``rounds`` rounds, timing
    each with the benchmark's timer (CPU time under
    ``--benchmark-timer=time.process_time``). A busy moment then slows every contender
    alike instead of one test's rounds, so the ratios below are the ones to trust on a
    shared machine. The benchmark's own figure is the time of a whole round."""
    timer = benchmark._timer
    times: dict[str, list[float]] = {name: [] for name in fns}
    order = [list(fns.items()), list(fns.items())[::-1]]

    def one_round() -> None:
        for name, fn in order[len(times[name0]) % 2]:
            t = timer()
            fn()
            times[name].append(timer() - t)

    name0 = next(iter(fns))

    for fn in fns.values():  # a warm-up round, not timed
        fn()
    benchmark.pedantic(one_round, rounds=rounds, iterations=1)
    return times


def _ratios(times: dict[str, list[float]], num: str, den: str) -> dict[str, float]:
    """The ratio of the fastest rounds, of the median rounds, and the median of the
    ratios round by round (each round's two timings are neighbours in time, so a slow
    stretch of the machine cancels out: the steadiest of the three)."""
    a, b = sorted(times[num]), sorted(times[den])
    paired = sorted(x / y for x, y in zip(times[num], times[den], strict=True))
    return {f"{num}/{den} (fastest)": round(a[0] / b[0], 2),
            f"{num}/{den} (median)": round(a[len(a) // 2] / b[len(b) // 2], 2),
            f"{num}/{den} (paired median)": round(paired[len(paired) // 2], 2)}


@pytest.mark.parametrize("gid", GAMES)
def test_validate_over_parse_interleaved(benchmark, big_corpora, gid) -> None:
    """The issue's ratio, validation over parsing, with the two timed in alternation."""
    text = _text(big_corpora, gid)

    def parse() -> None:
        assert sum(1 for _ in read_records(text)) == CORPUS_RECORDS

    def validate() -> None:
        fast = FastReplayer()
        for loc in read_records(text):
            fast.play(loc)

    benchmark.group = f"validation / parsing, interleaved: {gid}"
    times = _interleaved(benchmark, {"parse": parse, "validate": validate})
    benchmark.extra_info.update(_ratios(times, "validate", "parse"))
    benchmark.extra_info.update({f"{k} fastest s": round(min(v), 3) for k, v in times.items()})
