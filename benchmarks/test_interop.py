"""The cost of the bridges: random games through OpenSpiel (``pyspiel``'s Python-game API,
chance dealt one item at a time; and the same loop without pyspiel's C++ step, the
bridge's own share) and through PettingZoo (the AEC loop with a random agent reading the
action mask, and one reading the observation too) against kifu's own play loop
(``chance_action``, ``legal_actions``, ``apply``), per game, in one run so the ratios
share the machine's load.

The loops play uniformly random games from seeds, but each draws its own random numbers,
so their games differ; the figure compared is CPU time per *kifu action* (dealer and
players; a shuffle is one kifu action however many picks OpenSpiel deals it in), with
games per second beside it. Target (issue 38): the bridge costs at most 2x the native
loop. ``python -m benchmarks.test_interop`` prints the table of docs/performance.md;
``--one GAME LOOP N`` runs one loop for counting instructions under callgrind;
``--split GAME N`` splits the OpenSpiel loop's cost at chance nodes (:func:`split`);
``--rounds GAME N R [LOOP]`` gives a loop's ratio on R sets of N seeds (:func:`rounds`).
"""

from __future__ import annotations

import gc
import random
import sys
import time
from functools import partial

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'kifu[openspiel]'")
pytest.importorskip("pettingzoo",
                    reason="PettingZoo is not installed: pip install 'kifu[pettingzoo]'")

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng

SETTINGS = {"tweak": (4, "tweak/1;rounds=1"), "graph-t": (4, ""), "towai": (4, "towai/1;wins=1"),
            "lianxian": (4, ""), "alice": (4, "")}
"""Players and rules of each game's random games."""
GAMES = 20


def native(gid: str, seeds: range) -> int:
    """kifu's own loop; returns the kifu actions played."""
    game = games.get(gid)
    players, rules = SETTINGS[gid]
    variant = game.parse_rules(rules) if rules else None
    plies = 0
    for seed in seeds:
        rng = Rng(seed)
        state = game.new_state(players, variant)
        while (seat := state.to_move) is not None:
            a = (game.chance_action(state, rng) if seat == DEALER
                 else rng.choice(state.legal_actions()))
            state.apply(a)
            plies += 1
    return plies


def through_openspiel(gid: str, seeds: range, crossing: bool = True) -> int:
    """OpenSpiel's Python-game loop (``is_terminal``, ``is_chance_node``,
    ``chance_outcomes`` / ``legal_actions``, ``apply_action``). Without ``crossing`` each
    action is applied by the bridge's ``_apply_action`` directly instead of pyspiel's
    ``apply_action`` (C++: it asks ``current_player``, calls ``_apply_action`` back and
    records the history): the same games, without OpenSpiel's own cost a step."""
    from kifu.interop import openspiel

    players, rules = SETTINGS[gid]
    game = openspiel.load(gid, players, rules)
    plies = 0
    for seed in seeds:
        r = random.Random(seed)
        state = game.new_initial_state()
        if not crossing:
            state.apply_action = state._apply_action
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x, acc, pick = r.random(), 0.0, outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if x < acc:
                        pick = a
                        break
                state.apply_action(pick)
            else:
                state.apply_action(r.choice(state.legal_actions()))
        plies += len(state.pos.actions)
    return plies


def through_pettingzoo(gid: str, seeds: range, read: bool = False) -> int:
    """The AEC loop of a random agent, which reads the action mask only (the observation
    vector is then never built: it is built on first reading); with ``read``, the agent
    also reads the observation vector each step, as a learner does."""
    import numpy as np

    from kifu.interop.pettingzoo import env as make_env

    players, rules = SETTINGS[gid]
    env = make_env(gid, players, rules)
    plies = 0
    for seed in seeds:
        r = random.Random(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if read:
                obs["observation"]
            # the int8 mask read as bool (NumPy's nonzero is ~12x faster on bools), by the
            # array's own nonzero (np.flatnonzero adds ~0.7 us of Python wrapping a call)
            env.step(r.choice(obs["action_mask"].view(np.bool_).nonzero()[0].tolist()))
        plies += len(env.pos.actions)
    return plies


def through_pettingzoo_reading(gid: str, seeds: range) -> int:
    """:func:`through_pettingzoo` reading observations, on seeds of its own (10,000 on):
    replaying the same games would find Lianxian's per-position memos warm (a second
    pass over the same games runs about 5x faster)."""
    return through_pettingzoo(gid, range(seeds.start + 10_000, seeds.stop + 10_000),
                              read=True)


def through_openspiel_bridge(gid: str, seeds: range) -> int:
    """:func:`through_openspiel` without pyspiel's C++ step (the bridge's own cost), on
    seeds of its own (20,000 on: see :func:`through_pettingzoo_reading`)."""
    return through_openspiel(gid, range(seeds.start + 20_000, seeds.stop + 20_000),
                             crossing=False)


LOOPS = {"native": native, "openspiel": through_openspiel, "pettingzoo": through_pettingzoo,
         "pettingzoo+obs": through_pettingzoo_reading,
         "openspiel-bridge": through_openspiel_bridge}


def measure(gid: str, games_n: int = GAMES) -> dict[str, tuple[float, float]]:
    """Per loop: (microseconds of CPU per kifu action, games per CPU second)."""
    out = {}
    for name, loop in LOOPS.items():
        loop(gid, range(1))  # warm: imports, tables
        # what earlier loops left alive (engine memos, other games' tables) out of the
        # collector's sight: a full collection walks every live object, and without this
        # TOWAI's native loop ran at 5.7 us an action after the other games, 2.5 alone
        gc.collect()
        gc.freeze()
        t = time.process_time()
        plies = loop(gid, range(games_n))
        dt = time.process_time() - t
        out[name] = (1e6 * dt / plies, games_n / dt)
        gc.unfreeze()
    return out


@pytest.mark.parametrize("gid", list(SETTINGS))
def test_bridge_cost(benchmark, gid: str) -> None:
    figures = benchmark.pedantic(measure, args=(gid, 5), rounds=1, iterations=1)
    base = figures["native"][0]
    for name, (us, gps) in figures.items():
        benchmark.extra_info[name] = {"us_per_action": us, "games_per_s": gps,
                                      "ratio": us / base}
    print(gid, {k: round(v[0] / base, 2) for k, v in figures.items()})


def sampler_cost(gid: str, calls: int = 2000) -> float:
    """Microseconds of CPU per call of Gymnasium's ``env.action_space(agent).sample(mask)``
    at a game's first decision (the sampler PettingZoo's docs show; an agent's cost)."""
    from kifu.interop.pettingzoo import env as make_env

    players, rules = SETTINGS[gid]
    env = make_env(gid, players, rules)
    env.reset(seed=0)
    space = env.action_space(env.agent_selection)
    space.seed(0)
    mask = env.last()[0]["action_mask"]
    t = time.process_time()
    for _ in range(calls):
        space.sample(mask)
    return 1e6 * (time.process_time() - t) / calls


def one(gid: str, loop: str, games_n: int) -> None:
    """One loop over ``games_n`` games (seeds 1000 on), after a warm game, for counting
    instructions: under ``valgrind --tool=callgrind --instr-atstart=no`` with
    ``CALLGRIND=1`` it switches callgrind's counting on for the loop only
    (``callgrind_control``), so the count divided by the kifu actions printed is the
    loop's instructions a kifu action, a figure the machine's load does not change."""
    import os
    import subprocess

    f = LOOPS[loop]
    f(gid, range(1))
    counting = bool(os.environ.get("CALLGRIND"))
    if counting:
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())],
                       capture_output=True, check=False)
    plies = f(gid, range(1000, 1000 + games_n))
    if counting:
        subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())],
                       capture_output=True, check=False)
    print(f"{gid} {loop}: {plies} kifu actions")


def split(gid: str, games_n: int, rounds: int = 3) -> dict[str, float]:
    """Where the OpenSpiel loop's time goes at chance nodes: microseconds of CPU a game
    (median of ``rounds``) of the native loop and of :func:`through_openspiel` as it is
    (``full``), with each chance node's outcome list and the agent's draw from it replaced
    by ``Position.chance_pick`` (``nolist``: the same outcome for the same draw), and with
    that pick also applied by the state's ``_apply_action`` instead of pyspiel's C++
    ``apply_action`` (``nocpp``). A diagnostic only: ``nolist`` skips what an OpenSpiel
    user's loop does, ``nocpp`` leaves the history of the picks unrecorded."""
    from statistics import median

    from kifu.interop import openspiel

    players, rules = SETTINGS[gid]
    game = openspiel.load(gid, players, rules)

    def loop(seeds: range, mode: str) -> None:
        for seed in seeds:
            r = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    if mode == "full":
                        outcomes = state.chance_outcomes()
                        x, acc, pick = r.random(), 0.0, outcomes[-1][0]
                        for a, p in outcomes:
                            acc += p
                            if x < acc:
                                pick = a
                                break
                        state.apply_action(pick)
                    elif mode == "nolist":
                        state.apply_action(state.pos.chance_pick(r.random()))
                    else:
                        state._apply_action(state.pos.chance_pick(r.random()))
                else:
                    state.apply_action(r.choice(state.legal_actions()))

    runs: dict[str, list[float]] = {}
    for _ in range(rounds):
        for mode in ("native", "full", "nolist", "nocpp"):
            f = (lambda s: native(gid, s)) if mode == "native" else partial(loop, mode=mode)
            f(range(1))
            gc.collect()
            gc.freeze()
            t = time.process_time()
            f(range(games_n))
            runs.setdefault(mode, []).append(1e6 * (time.process_time() - t) / games_n)
            gc.unfreeze()
    return {mode: median(v) for mode, v in runs.items()}


def rounds(gid: str, games_n: int, rounds_n: int, loop: str = "openspiel") -> list[float]:
    """The ratio of ``loop`` to the native loop (CPU time a kifu action) on ``rounds_n``
    sets of ``games_n`` seeds each (round *r*: seeds *r*·``games_n`` on), the two loops one
    after the other in each round: more games than :func:`measure`'s, for a game whose
    length varies much from seed to seed (TOWAI)."""
    out = []
    for r in range(rounds_n):
        seeds = range(r * games_n, (r + 1) * games_n)
        us = {}
        for name in ("native", loop):
            LOOPS[name](gid, range(1))
            gc.collect()
            gc.freeze()
            t = time.process_time()
            plies = LOOPS[name](gid, seeds)
            us[name] = (time.process_time() - t) / plies
            gc.unfreeze()
        out.append(us[loop] / us["native"])
    return out


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--one":
        one(argv[1], argv[2], int(argv[3]))
        return
    if argv and argv[0] == "--rounds":
        ratios = rounds(argv[1], int(argv[2]), int(argv[3]), *argv[4:5])
        print(argv[1], " ".join(f"{x:.2f}" for x in ratios))
        return
    if argv and argv[0] == "--split":
        print({k: round(v) for k, v in split(argv[1], int(argv[2])).items()}, "µs a game")
        return
    n = int(argv[0]) if argv else GAMES
    print("| game (players, rules) | native µs/action | OpenSpiel (× native) "
          "| OpenSpiel, the bridge alone (×) | PettingZoo, mask only (×) "
          "| PettingZoo reading observations (×) | games/s native, OpenSpiel, PettingZoo "
          "| Gymnasium `sample(mask)` µs/call |")
    print("|---|---|---|---|---|---|---|---|")
    for gid, (players, rules) in SETTINGS.items():
        f = measure(gid, n)
        b = f["native"][0]

        def cell(name: str, f: dict = f, b: float = b) -> str:
            return f"{f[name][0]:.1f} ({f[name][0] / b:.2f}×)"

        print(f"| {gid} ({players}, {rules or 'default'}) | {b:.1f} | {cell('openspiel')} "
              f"| {cell('openspiel-bridge')} | {cell('pettingzoo')} | {cell('pettingzoo+obs')} "
              f"| {f['native'][1]:.0f}, {f['openspiel'][1]:.0f}, {f['pettingzoo'][1]:.0f} "
              f"| {sampler_cost(gid):.1f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
