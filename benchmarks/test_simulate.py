"""``kifu simulate``: games per second for each game's worked question of docs/designers.md
(greedy bots, two rule sets, in this process), with the cost of the measuring (the game's
own metrics, the report) as a ratio against playing the same games alone in the same
round; and the issue's acceptance run, 2000 TWEAK games at 3 players under tweak/1 and
tweak/1;threshold=60, once.

    pytest benchmarks/test_simulate.py --benchmark-only
"""

from __future__ import annotations

import time

import pytest

from kifu import games
from kifu.bots import default_bot, play_actions
from kifu.lab import simulate as lab

from .conftest import load_game

QUESTIONS = {
    "tweak": (3, "tweak/1", "threshold=60"),
    "graph-t": (3, "graph-t/1", "grey_open=anyone"),
    "towai": (4, "towai/1", "lead_fits=true"),
    "lianxian": (3, "lianxian/1", "finish=30"),
    "alice": (4, "alice/1", "turns=6"),
}
"""Each game's question in docs/designers.md: players, rules A, the change."""
SEEDS = {"lianxian": 4}
"""Seeds a round (10 by default; Lianxian's greedy bots weigh every placement)."""


@pytest.mark.parametrize("gid", sorted(QUESTIONS))
def test_simulate_games_per_second(benchmark, gid) -> None:
    game = load_game(gid)
    players, rules, change = QUESTIONS[gid]
    specs = lab.rule_sets(game, [rules], [change])
    bots = [default_bot(game)]
    seeds = SEEDS.get(gid, 10)
    sim_times: list[float] = []
    ratios: list[float] = []

    def run() -> None:
        t0 = time.perf_counter()
        lab.analyse(lab.simulate(gid, players, seeds, 1, specs, bots))
        t1 = time.perf_counter()
        # the same games played alone, in the same round: the anchor of the ratio
        for spec in specs:
            variant = game.parse_rules(spec)
            for seed in range(1, seeds + 1):
                play_actions(game, bots * players, seed, variant)
        t2 = time.perf_counter()
        sim_times.append(t1 - t0)
        ratios.append((t1 - t0) / (t2 - t1))

    benchmark.group = "simulate"
    benchmark.extra_info.update(players=players, rules=specs, bots=bots, games=2 * seeds)
    benchmark.pedantic(run, rounds=3, warmup_rounds=1)
    benchmark.extra_info["games_per_s"] = round(2 * seeds / _median(sim_times), 1)
    benchmark.extra_info["simulate_over_play"] = round(_median(ratios), 3)


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def test_acceptance_tweak_threshold_60(benchmark) -> None:
    """The issue's run, once: shorter games, an interval excluding zero, one process."""
    game = games.get("tweak")
    specs = lab.rule_sets(game, ["tweak/1"], ["threshold=60"])
    out = {}

    def run() -> None:
        out["report"] = lab.analyse(lab.simulate("tweak", 3, 2000, 1, specs, ["greedy"]))

    benchmark.group = "simulate acceptance"
    benchmark.pedantic(run, rounds=1, iterations=1)
    plies = out["report"].comparisons[0].changes["plies"]
    assert plies.changed and plies.difference.high < 0
    benchmark.extra_info.update(verdict=plies.verdict, games=4000)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["games_per_s"] = round(4000 / stats.stats.median, 1)
