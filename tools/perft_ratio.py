"""Cold and warm perft of kifu's games as ratios to python-chess, measured in one process.

    python tools/perft_ratio.py [GAME ...] [--rounds N]

Each round runs, one after another: python-chess perft 4 from the start position (197,281
leaves), then for every game its whole ``fixtures/perft/<game>.perft`` suite at each
position's deepest depth *cold* (every memo of the engine emptied first) and again *warm*
(straight after, memos filled). Rounds interleave, so a busy moment slows all three alike.
Times are process CPU time (``time.process_time``), which a shared machine inflates far less
than wall time, and each figure is the fastest round: a round can only be slowed down by
other jobs, never sped up. This is how the cold/warm figures of ``docs/performance.md`` are
measured. The last column is the median over the rounds of each round's ratio to that
round's python-chess time (neighbours in time, so a slow stretch of the machine mostly
cancels out).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.conftest import chess_perft  # noqa: E402
from kifu import games  # noqa: E402
from kifu.core.game import perft  # noqa: E402
from kifu.notation.perftfile import read_perft  # noqa: E402


def _clear_tweak() -> None:
    from kifu.games.tweak.state import clear_caches

    clear_caches()


def _clear_towai() -> None:
    from kifu.games.towai.state import clear_caches

    clear_caches()


def _clear_graph_t() -> None:
    from kifu.games.graph_t import rules

    rules._CACHE.clear()


def _clear_lianxian() -> None:
    from kifu.games.lianxian import placements

    clear = getattr(placements, "clear_caches", None)
    if clear is not None:
        clear()


CLEAR: dict[str, Callable[[], None]] = {
    "tweak": _clear_tweak,
    "towai": _clear_towai,
    "graph-t": _clear_graph_t,
    "lianxian": _clear_lianxian,
    "alice": lambda: None,
}


def timed(fn: Callable[[], int]) -> tuple[float, int]:
    gc.collect()
    t = time.process_time()
    n = fn()
    return time.process_time() - t, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=["tweak", "towai"])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    suites = {}
    for gid in args.games:
        game = games.get(gid)
        cases = read_perft(ROOT / "fixtures" / "perft" / f"{game.id}.perft")
        suites[gid] = [(c.position, *max(c.counts)) for c in cases]
    best: dict[str, float] = {}
    nodes: dict[str, int] = {}
    rounds: dict[str, list[float]] = {}

    def note(name: str, sec: float, n: int) -> None:
        nodes[name] = n
        best[name] = min(best.get(name, float("inf")), sec)
        rounds.setdefault(name, []).append(sec)

    for _ in range(args.rounds):
        note("python-chess", *timed(lambda: chess_perft(chess.Board(), 4)))
        for gid, jobs in suites.items():
            game = games.get(gid)
            for mode in ("cold", "warm"):
                if mode == "cold":
                    CLEAR[game.id]()
                states = [(game.from_line(p), d, n) for p, d, n in jobs]

                def run(states=states) -> int:
                    total = 0
                    for state, depth, expected in states:
                        got = perft(state, depth)
                        assert got == expected, (got, expected)
                        total += got
                    return total

                note(f"{gid} {mode}", *timed(run))
    anchor = nodes["python-chess"] / best["python-chess"]
    print(f"{'':16} {'nodes':>9} {'best CPU s':>10} {'nodes/s':>11} {'ratio':>6} "
          f"{'paired median':>13}")
    for name, sec in best.items():
        rate = nodes[name] / sec
        paired = sorted(nodes[name] / t / (nodes["python-chess"] / c)
                        for t, c in zip(rounds[name], rounds["python-chess"], strict=True))
        print(f"{name:16} {nodes[name]:9,} {sec:10.3f} {rate:11,.0f} {rate / anchor:5.2f}x "
              f"{paired[len(paired) // 2]:12.2f}x")


if __name__ == "__main__":
    main()
