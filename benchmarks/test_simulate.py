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


# --- a strong bot at scale: one process, two local workers, a Dask LocalCluster ------------

SCALE = ("graph-t", "expert:level=fast", 3)
"""The strong bot's run (game, bots, players): GRAPH-T is the cheapest game for expert."""


def scale_run(games_count: int, chunk: int = 4, game: str = SCALE[0], bots: str = SCALE[1],
              players: int = SCALE[2], keep: str | None = None) -> list[dict]:
    """``kifu simulate GAME --bots BOTS --json`` as whole processes with ``-w 1``, ``-w 2``
    and ``--dask local -w 2``: each one's wall time and CPU (its own and its children's:
    the local workers; a LocalCluster's workers are its grandchildren, counted when they
    are reaped), the speed-up against one process, and whether the report is the same
    bytes (``keep``: a path prefix to write each report to). The load average is recorded
    beside each."""
    import os
    import resource
    import subprocess
    import sys

    kifu = os.path.join(os.path.dirname(sys.executable), "kifu")
    base = [kifu, "simulate", game, "-n", str(players), "--games", str(games_count),
            "--bots", bots, "--json", "-q", "--chunk-size", str(chunk)]
    rows = []
    first = None
    for label, extra in (("1 process", ["-w", "1"]), ("-w 2", ["-w", "2"]),
                         ("--dask local -w 2", ["--dask", "local", "-w", "2"])):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        out = subprocess.run(base + extra, capture_output=True, check=True).stdout
        if keep is not None:  # each report kept, to compare by hand
            with open(f"{keep}.{len(rows)}.json", "wb") as f:
                f.write(out)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        first = first or out
        rows.append({"run": label, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
                     "speedup": round(rows[0]["wall_s"] / wall, 2) if rows else 1.0,
                     "same_report": out == first, "load_before": round(load, 1),
                     "load_after": round(os.getloadavg()[0], 1)})
        print(rows[-1], flush=True)
    return rows


@pytest.mark.skipif("not config.getoption('--benchmark-only', default=False)",
                    reason="minutes of a strong bot: run with --benchmark-only")
def test_strong_bot_on_workers(benchmark) -> None:
    """The strong bot on 2 local workers and a Dask LocalCluster: the report the same bytes
    (the speed-up is recorded, not asserted: it depends on the machine's load)."""
    out = {}
    benchmark.group = "simulate strong bot"
    benchmark.pedantic(lambda: out.setdefault("rows", scale_run(24)), rounds=1, iterations=1)
    benchmark.extra_info["runs"] = out["rows"]
    assert all(r["same_report"] for r in out["rows"])


def calibrate(reports: int, per: int, game: str = "tweak", players: int = 2,
              spec: str = "tweak/1;rounds=1", seed: int = 100_000) -> dict:
    """A rule set against itself on independent seeds, ``reports`` times: how many reports
    call something after Holm (should be at most 5%), and with per-metric intervals alone.
    Each report pairs ``per`` games from one block of seeds with ``per`` from the next (the
    games are independent, so nothing can change). Not a speed figure: the documented
    full-size run of tests/test_simulate_stats.py's calibration (docs/designers.md)."""
    from kifu.lab.stats import proportion_ci

    g = games.get(game)
    variant = g.parse_rules(spec)
    setup = lab.Setup(game, players, ("greedy",) * players, (spec, spec))
    family = unadjusted = 0
    for k in range(reports):
        base = seed + 2 * per * k
        rows = []
        for start in (base, base + per):
            block = []
            for s in range(start, start + per):
                state, capped = lab.play_game(g, ["greedy"] * players, s, variant)
                block.append(lab.row_of(g, state, s, capped=capped))
            rows.append(block)
        rep = lab.analyse(lab.from_rows(setup, base, rows))
        family += rep.family.calls > 0
        unadjusted += rep.family.unadjusted > 0
    out = {"reports": reports, "games_a_side": per, "game": spec, "players": players,
           "seeds": f"{seed}..{seed + 2 * per * reports - 1}",
           "holm_reports_calling": family,
           "holm_share": proportion_ci(family, reports).to_dict(4),
           "unadjusted_reports_calling": unadjusted,
           "unadjusted_share": proportion_ci(unadjusted, reports).to_dict(4)}
    print(out, flush=True)
    return out


if __name__ == "__main__":
    # python -m benchmarks.test_simulate scale GAMES [CHUNK]
    # python -m benchmarks.test_simulate calibrate REPORTS GAMES_A_SIDE
    import sys

    if len(sys.argv) >= 3 and sys.argv[1] == "scale":
        scale_run(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 4)
    elif len(sys.argv) >= 4 and sys.argv[1] == "calibrate":
        calibrate(int(sys.argv[2]), int(sys.argv[3]))
