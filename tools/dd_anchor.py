"""GRAPH-T double dummy on seeded endgames, timed beside python-chess perft in one process.

    python tools/dd_anchor.py [--players 4] [--cards 5] [--rounds N] [--seeds K] [--pure]

Each round runs python-chess perft 4 from the start position (197,281 leaves), then solves
the ``endgame(players, cards, seed)`` positions of ``benchmarks/test_solver.py`` for seeds
0..K-1 (``double-dummy``, a fresh state from the position line each time, as the benchmark
does), then perft again (``dd_seed_round``). Times are process CPU time; the fastest round
of each seed is the figure least disturbed by other jobs, and the python-chess rate of the
same run says how fast the machine was then (about 780,000 nodes/s on the quiet machine of
``docs/performance.md``): the issue 26 targets (4 x 5: every seed within 100 ms; 4 x 6:
median 0.5 s, worst 5 s) only mean something next to it. ``--pure`` times the pure-Python
reference instead of the compiled core. Figures: docs/perf/dd.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.test_solver import DD_TARGETS, dd_figures, dd_seed_round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=24)
    parser.add_argument("--pure", action="store_true", help="the pure-Python reference")
    args = parser.parse_args()
    if args.pure:
        os.environ["KIFU_DD_PURE"] = "1"
    n, k = args.players, args.cards
    rounds = [dd_seed_round(n, k, range(args.seeds)) for _ in range(args.rounds)]
    f = dd_figures(rounds)
    rates = sorted(x for r in rounds for x in r["rates"])
    print(f"python-chess perft 4: fastest {rates[-1]:,.0f} nodes/s, "
          f"median {f['chess_nodes_per_s']:,.0f}"
          f" ({'compiled core' if f['compiled_core'] else 'pure-Python reference'})")
    for s, ms in f["per_seed_ms"].items():
        times = sorted(r["times"][s] for r in rounds)
        print(f"{n}x{k} seed {s}: {f['per_seed_nodes'][s]:>11,} nodes, fastest {ms:9.1f} ms, "
              f"median {times[len(times) // 2]:9.1f} ms")
    target = DD_TARGETS.get((n, k), {})
    print(f"{n}x{k}: median {f['median_ms']} ms, worst {f['worst_ms']} ms (seed "
          f"{f['worst_seed']}), {f['under_100ms']} of {len(f['per_seed_ms'])} within 100 ms"
          + (f"; targets {', '.join(f'{x} <= {target[x]:g}' for x in target if x != 'rounds')}"
             if len(target) > 1 else ""))


if __name__ == "__main__":
    main()
