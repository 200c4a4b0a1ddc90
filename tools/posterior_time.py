"""CPU time per decision of several ``expert`` specs on the same positions (issue 33,
seventh session): seat 0 of seeded 4-player one-round TWEAK games against three
``greedy``; each spec chooses at every decision of seat 0 (on a copy), the game goes on
with ``greedy``'s choice for seat 0 too (so the positions are the same for every spec).

    python tools/posterior_time.py --games 3 expert \\
        expert:posterior=1:thin=2:burn=100:chains=2:climb=3000:giveup=1
"""

from __future__ import annotations

import argparse
import statistics
import time

from kifu import games
from kifu.bots import make_bot
from kifu.core.game import DEALER
from kifu.core.rng import Rng


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("specs", nargs="+")
    args = ap.parse_args()
    game = games.get("tweak")
    variant = game.parse_rules("tweak/1;rounds=1")
    times: dict[str, list[float]] = {s: [] for s in args.specs}
    for g in range(args.games):
        rng = Rng(f"time33:{g}")
        state = game.new_state(4, variant)
        bots = [make_bot(game, "greedy", p, rng.fork(p + 1)) for p in range(4)]
        ex = {s: make_bot(game, s, 0, Rng(f"ex:{g}")) for s in args.specs}
        while state.to_move is not None:
            m = state.to_move
            if m == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            if m == 0:
                for s in args.specs:
                    t = time.process_time()
                    ex[s].choose(state.copy())
                    times[s].append(time.process_time() - t)
            state.push(bots[m].choose(state))
    for s in args.specs:
        xs = sorted(times[s])
        n = len(xs)
        print(f"{s}: {n} decisions, median {statistics.median(xs) * 1e3:.0f} ms, "
              f"p95 {xs[int(0.95 * (n - 1))] * 1e3:.0f} ms CPU")


if __name__ == "__main__":
    main()
