"""TWEAK's hot paths under issue 33's ``expert`` (sixth session): a rollout (4 players,
the whole of a one-round game from its first turn, ``tactics`` for the seat and ``greedy``
for the others, margin 0.5, as TWEAK's ``expert`` plays it), a draw of the seat's world
sampler, and a ``greedy`` / ``tactics`` choice, each in CPU ms per unit and as a ratio to
python-chess perft 4 timed in the same run (``benchmarks/test_bots.py``'s anchor). The
same file runs on older code (it uses only what main at ab9b95d had), so a before/after
pair is two runs of it; docs/performance.md holds the figures. No bound: a record."""

from __future__ import annotations

import time

import pytest

from kifu.bots import make_bot
from kifu.bots.evaluate import _Rollout
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng

from .conftest import load_game
from .test_bots import anchor_ms

RULES = "tweak/1;rounds=1"
PLAYERS = 4


def _positions(games: int) -> list:
    """Copies of every position of seeded all-``greedy`` games where a player moves."""
    game = load_game("tweak")
    out = []
    for g in range(games):
        rng = Rng(f"bench-speed6:{g}")
        state = game.new_state(PLAYERS, game.parse_rules(RULES))
        bots = [make_bot(game, "greedy", s, rng.fork(s + 1)) for s in range(PLAYERS)]
        dealer = rng.fork(0)
        while state.to_move is not None:
            mover = state.to_move
            if mover == DEALER:
                state.push(game.chance_action(state, dealer))
                continue
            out.append(state.copy())
            state.push(bots[mover].choose(state))
    return out


def _rollouts(positions: list) -> tuple[float, int]:
    game = load_game("tweak")
    roll = _Rollout(game, profile("tweak"), PLAYERS, "tactics", "greedy")
    firsts = [p for p in positions if len(p.history) == 2]  # first dealer, deal: turn one
    t, k = time.thread_time(), 0
    for r in range(10):
        for p in firsts:
            roll.run(p.copy(), r * 7919 + k, p.to_move, 0.5)
            k += 1
    return 1000 * (time.thread_time() - t), k


def _draws(positions: list) -> tuple[float, int]:
    game = load_game("tweak")
    t, k = time.thread_time(), 0
    for i, p in enumerate(positions[::4]):
        draw = game.world_sampler(p, p.to_move)
        rng = Rng(i)
        for _ in range(24):
            draw(rng)
            k += 1
    return 1000 * (time.thread_time() - t), k


def _choices(positions: list, name: str) -> tuple[float, int]:
    game = load_game("tweak")
    pol = profile("tweak").policies() if name == "tactics" else {}
    t, k = time.thread_time(), 0
    for _ in range(5):
        for p in positions:
            bot = (pol["tactics"](p.to_move, Rng(0)) if pol
                   else make_bot(game, name, p.to_move, Rng(0)))
            bot.choose(p)
            k += 1
    return 1000 * (time.thread_time() - t), k


@pytest.mark.parametrize("part", ["rollout", "draw", "greedy", "tactics"])
def test_tweak_hot_paths(benchmark, part) -> None:
    positions = _positions(30)
    found: dict = {}

    def run() -> None:
        if part == "rollout":
            found["ms"], found["n"] = _rollouts(positions)
        elif part == "draw":
            found["ms"], found["n"] = _draws(positions)
        else:
            found["ms"], found["n"] = _choices(positions, part)

    benchmark.group = "TWEAK hot paths (issue 33, sixth session)"
    benchmark.pedantic(run, rounds=1, warmup_rounds=0)
    assert found["n"] > 100
    base = anchor_ms()
    per = found["ms"] / found["n"]
    info = {"units": found["n"], "cpu_ms_per_unit": round(per, 4),
            "anchor_chess_perft4_ms": round(base, 1),
            "per_unit_per_anchor": round(per / base, 6)}
    benchmark.extra_info.update(part=part, **info)
    print(f"\ntweak {part}: {info}")
