"""The searchers' hot paths under issue 33's ladders (ninth session): the CPU time of whole
seeded games with the ladders' searchers (TWEAK's posterior bot V, ``expert`` and its
cheater against three ``greedy``; TOWAI's and Alice's ``expert`` against ``pimc``, the
games of tests/test_speed9_identity.py), and a draw of TOWAI's and Alice's world
samplers, each in CPU ms per unit and as a ratio to python-chess perft 4 timed in the
same run (``benchmarks/test_bots.py``'s anchor). The file uses only what main at a230c8b
had, so a before/after pair is two runs of it (``python -m benchmarks.test_speed9`` prints
one JSON line per part; docs/performance.md, *Ninth session*). No bound: a record."""

from __future__ import annotations

import json
import sys
import time

import pytest

from kifu.bots import make_bots
from kifu.core.game import DEALER
from kifu.core.rng import Rng

from .conftest import load_game
from .test_bots import anchor_ms

V = "expert:posterior=1:thin=2:burn=100:chains=2:climb=20000:giveup=1:warm=1"
G = "greedy"
GAMES: dict[str, tuple[str, int, str, list[list[str]]]] = {
    "tweak-V": ("tweak", 4, "tweak/1;rounds=1", [[V, G, G, G], [G, V, G, G], [G, G, V, G]]),
    "tweak-expert": ("tweak", 4, "tweak/1;rounds=1",
                     [["expert", G, G, G], [G, "expert", G, G], [G, G, "expert", G]]),
    "tweak-cheat": ("tweak", 4, "tweak/1;rounds=1",
                    [["expert:cheat=1", G, G, G], [G, "expert:cheat=1", G, G]]),
    "towai-expert": ("towai", 4, "towai/1;wins=1",
                     [["expert", "pimc", "expert", "pimc"], ["pimc", "expert", "pimc", "expert"]]),
    "alice-expert": ("alice", 4, "alice/1;turns=5",
                     [["expert", "pimc", "expert", "pimc"], ["pimc", "expert", "pimc", "expert"]]),
}
DRAWS = {"draw-towai": ("towai", 4, "towai/1;wins=1"),
         "draw-alice": ("alice", 4, "alice/1;turns=5")}
PARTS = [*GAMES, *DRAWS]


def _games(name: str) -> tuple[float, int]:
    """CPU ms of the case's seeded games (every action, the searchers' decisions most of
    it) and the number of games."""
    gid, players, rules, lineups = GAMES[name]
    game = load_game(gid)
    t = time.thread_time()
    for k, bots in enumerate(lineups):
        state = game.new_state(players, game.parse_rules(rules))
        rng = Rng(f"bench-speed9:{name}:{k}")
        dealer = rng.fork(0)
        seats = make_bots(game, bots, rng)
        while state.to_move is not None:
            mover = state.to_move
            state.apply(game.chance_action(state, dealer) if mover == DEALER
                        else seats[mover].choose(state))
    return 1000 * (time.thread_time() - t), len(lineups)


def _draws(name: str) -> tuple[float, int]:
    """CPU ms of 24 worlds drawn at every 3rd position of three seeded all-``greedy``
    games (the sampler made there, from the game's history, for the seat to move), and
    the number drawn."""
    gid, players, rules = DRAWS[name]
    game = load_game(gid)
    t, k = 0.0, 0
    for g in range(3):
        rng = Rng(f"bench-speed9:{name}:{g}")
        state = game.new_state(players, game.parse_rules(rules))
        seats = make_bots(game, [G] * players, rng)
        dealer = rng.fork(0)
        i = 0
        while state.to_move is not None:
            mover = state.to_move
            if mover != DEALER:
                i += 1
                if i % 3 == 0:
                    t0 = time.thread_time()
                    draw = game.world_sampler(state, mover)
                    r = Rng(i)
                    for _ in range(24):
                        draw(r)
                    t += time.thread_time() - t0
                    k += 24
            state.apply(game.chance_action(state, dealer) if mover == DEALER
                        else seats[mover].choose(state))
    return 1000 * t, k


def measure(part: str) -> dict:
    ms, n = _games(part) if part in GAMES else _draws(part)
    base = anchor_ms()
    per = ms / n
    return {"part": part, "units": n, "cpu_ms_per_unit": round(per, 3),
            "anchor_chess_perft4_ms": round(base, 1), "per_unit_per_anchor": round(per / base, 5)}


@pytest.mark.parametrize("part", PARTS)
def test_searcher_hot_paths(benchmark, part) -> None:
    found: dict = {}

    def run() -> None:
        found.update(measure(part))

    benchmark.group = "searchers' hot paths (issue 33, ninth session)"
    benchmark.pedantic(run, rounds=1, warmup_rounds=0)
    assert found["units"] > 0
    benchmark.extra_info.update(found)
    print(f"\n{found}")


if __name__ == "__main__":
    for p in sys.argv[1:] or PARTS:
        print(json.dumps(measure(p)), flush=True)
