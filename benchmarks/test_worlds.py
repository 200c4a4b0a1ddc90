"""Cost of the world samplers (``kifu/games/<game>/worlds.py``): the CPU time to work out
what a seat knows (``game.world_sampler(state, seat)``, once per decision) and to draw one
world, over every decision of seeded games, each as a ratio to an anchor timed in the same
run: one ``game.from_line(state.to_line())`` of the same positions (the least a world can
cost: a sampler builds its world from a line). A searcher calls the sampler once a
decision and draws 4-16 worlds from it.

Run: ``pytest benchmarks/test_worlds.py --benchmark-only -s`` (the figures are printed and
stored in ``extra_info``)."""

from __future__ import annotations

import time

import pytest

from kifu.core.game import DEALER
from kifu.core.rng import Rng

from .conftest import load_game

CASES = {"tweak": (4, "tweak/1;rounds=1", "greedy"), "towai": (4, "towai/1", "random"),
         "lianxian": (3, "lianxian/1", "greedy"), "graph-t": (4, None, "greedy"),
         "alice": (4, None, "greedy")}
"""Players, rules and the bot of every seat of the timed games (TOWAI's `random` passes
often enough for the deck to be rebuilt, which is when its sampler does more)."""
GAMES = 3
WORLDS = 8
PLIES = 600


def positions(gid: str):
    game = load_game(gid)
    players, rules, bot = CASES[gid]
    variant = game.parse_rules(rules) if rules else None
    for g in range(GAMES):
        rng = Rng(f"bench-worlds:{gid}:{g}")
        state = game.new_state(players, variant)
        bots = [game.bots[bot](s, rng.fork(s + 1)) for s in range(players)]
        ply = 0
        while state.to_move is not None and ply < PLIES:
            if state.to_move == DEALER:
                state.push(game.chance_action(state, rng))
            else:
                yield game, state
                state.push(bots[state.to_move].choose(state))
            ply += 1


def sampler_cost(gid: str) -> dict:
    setup = draw = anchor = 0.0
    n = 0
    rng = Rng(1)
    for game, state in positions(gid):
        seat = state.to_move
        t0 = time.thread_time()
        sampler = game.world_sampler(state, seat)
        t1 = time.thread_time()
        for _ in range(WORLDS):
            sampler(rng)
        t2 = time.thread_time()
        line = state.to_line()
        for _ in range(WORLDS):
            game.from_line(line)
        t3 = time.thread_time()
        setup += t1 - t0
        draw += t2 - t1
        anchor += t3 - t2
        n += 1
    per_line = anchor / (n * WORLDS)
    return {"positions": n, "setup_us": 1e6 * setup / n, "world_us": 1e6 * draw / (n * WORLDS),
            "from_line_us": 1e6 * per_line, "setup_x_from_line": setup / n / per_line,
            "world_x_from_line": draw / (n * WORLDS) / per_line}


@pytest.mark.parametrize("gid", list(CASES))
def test_sampler_cost(benchmark, gid) -> None:
    out = benchmark.pedantic(sampler_cost, args=(gid,), rounds=1, iterations=1)
    benchmark.extra_info.update(out)
    print(f"\n{gid}: {out['positions']} positions; setup {out['setup_us']:.0f} us "
          f"({out['setup_x_from_line']:.1f}x from_line), world {out['world_us']:.0f} us "
          f"({out['world_x_from_line']:.2f}x from_line, {out['from_line_us']:.0f} us)")
    assert out["positions"] > 20
