"""Which decisions of an ``expert:posterior=1`` bot actually get posterior worlds (issue
33, eighth session): seat 0 of seeded 4-player one-round TWEAK games against three
``greedy`` plays each spec (its own games: the deals are the same, the play after seat
0's first choice may differ); at every decision where the bot asks the exact posterior,
what came of it: ``ok`` (posterior worlds), ``no start`` (no chain found a consistent
filling this decision), ``given up`` (an earlier failure of the round, ``giveup=1``),
and how the chains started (``warm``: from the last decision's chains as carried,
``warm_climb``: a climb from them, ``climb``: a climb from the prior). Counted by the
game's decision index (every seat's decisions, as ``tools/posterior_overlap.py``):
early (0-9), mid (10-23), late (24 on); with each decision's CPU seconds.

    python tools/posterior_coverage.py --games 8 \\
        expert:posterior=1:thin=2:burn=100:chains=2:climb=3000:giveup=1 \\
        expert:posterior=1:thin=2:burn=100:chains=2:climb=3000:giveup=1:warm=1
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter

import kifu.bots.expert as expert_module
from kifu import games
from kifu.bots import make_bot
from kifu.core.game import DEALER
from kifu.core.rng import Rng

BUCKETS = (("early 0-9", 0, 10), ("mid 10-23", 10, 24), ("late 24+", 24, 10_000))


def _bucket(k: int) -> str:
    return next(name for name, lo, hi in BUCKETS if lo <= k < hi)


def run(spec: str, n_games: int, seed: str) -> list[dict]:
    """One row per posterior request of ``spec`` in seat 0 over ``n_games`` games."""
    game = games.get("tweak")
    variant = game.parse_rules("tweak/1;rounds=1")
    rows: list[dict] = []
    current: dict = {}
    real = expert_module.posterior_draw

    def spy(*a, **kw):
        note: dict = {}
        got = real(*a, note=note, **kw)
        current.update(note)
        return got

    expert_module.posterior_draw = spy
    try:
        for g in range(n_games):
            rng = Rng(f"{seed}:{g}")
            state = game.new_state(4, variant)
            bots = [make_bot(game, spec if p == 0 else "greedy", p, rng.fork(p + 1))
                    for p in range(4)]
            k = 0
            while state.to_move is not None:
                m = state.to_move
                if m == DEALER:
                    state.push(game.chance_action(state, rng))
                    continue
                current.clear()
                t = time.process_time()
                a = bots[m].choose(state)
                cpu = time.process_time() - t
                if m == 0 and current:
                    rows.append({"game": g, "decision": k, "bucket": _bucket(k),
                                 "cpu_s": cpu, **current})
                state.push(a)
                k += 1
    finally:
        expert_module.posterior_draw = real
    return rows


def summary(rows: list[dict]) -> dict:
    out: dict = {}
    for name, _lo, _hi in (*BUCKETS, ("all", 0, 0)):
        rs = [r for r in rows if name == "all" or r["bucket"] == name]
        why = Counter(r["why"] for r in rs)
        starts = Counter()
        for r in rs:
            for key in ("warm", "warm_climb", "climb"):
                starts[key] += r.get(key, 0)
        out[name] = {"requests": len(rs), "why": dict(why),
                     "ok_share": why["ok"] / len(rs) if rs else None,
                     "chain_starts": dict(starts),
                     "cpu_s_median": statistics.median(r["cpu_s"] for r in rs) if rs else None}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", default="coverage33")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("specs", nargs="+")
    args = ap.parse_args()
    report = {}
    for spec in args.specs:
        t = time.process_time()
        rows = run(spec, args.games, args.seed)
        report[spec] = {"summary": summary(rows), "cpu_s": time.process_time() - t,
                        "rows": rows}
        if not args.json:
            print(spec)
            for name, v in report[spec]["summary"].items():
                share = v["ok_share"]
                print(f"  {name}: {v['requests']} requests, posterior worlds "
                      f"{'-' if share is None else f'{share:.2f}'} {v['why']} "
                      f"starts {v['chain_starts']} median "
                      f"{(v['cpu_s_median'] or 0) * 1e3:.0f} ms CPU")
            print(f"  {report[spec]['cpu_s']:.0f} s CPU in all", file=sys.stderr)
    if args.json:
        json.dump({"games": args.games, "seed": args.seed, "specs": report}, sys.stdout,
                  indent=1)


if __name__ == "__main__":
    main()
