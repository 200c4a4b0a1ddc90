"""Memory and CPU of a long TWEAK best-rung match in one process: deals ``FIRST..LAST-1``
of ``kifu match tweak --players 4 --set rounds=1 --bots V,pimc --seed SEED`` (V the
default ``expert``, every order of the seats), each deal's CPU seconds and scores, then
the process's CPU and peak resident memory. Not a test and no bound: the record behind
docs/performance.md, *Memory of the memos*. Run it in a checkout of another commit for a
before/after pair (the scores must match line for line):
``python -m benchmarks.memory_tweak_v SEED FIRST LAST``."""

from __future__ import annotations

import resource
import sys
import time

from kifu import games
from kifu.lab.match import _play_chunk, seatings

V = "expert:posterior=1:thin=2:burn=100:chains=2:climb=20000:giveup=1:warm=1"


def main(seed: int, first: int, last: int) -> None:
    game = games.get("tweak")
    spec = game.rules_spec(game.parse_rules(game.rules_spec() + ";rounds=1"))
    seats = seatings([V, "pimc"], 4)
    start = time.process_time()
    for i in range(first, last):
        t = time.process_time()
        ((outcomes, _),) = _play_chunk(("tweak", spec, seats, seed, i, i + 1, False, "-"))
        print(i, round(time.process_time() - t, 2), [o.scores for o in outcomes], flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print("cpu", round(time.process_time() - start, 1), "maxrss MiB", peak)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
