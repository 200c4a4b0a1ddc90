"""Cold and warm perft of kifu's games as ratios to python-chess, measured in one process.

    python tools/perft_ratio.py [SUITE ...] [--rounds N]

A suite is a file ``fixtures/perft/<SUITE>.perft``: a game's own (``tweak``, ``lianxian``)
or another suite of a game (``lianxian-turns``). Each round runs, one after another:
python-chess perft 4 from the start position (197,281 leaves), then for every suite all its
positions at each one's deepest depth *cold* (every memo of the engine emptied first) and
again *warm* (straight after, memos filled). Rounds interleave, so a busy moment slows all
alike. Times are process CPU time (``time.process_time``), which a shared machine inflates
far less than wall time. Two ratios to python-chess are printed: the *fastest* (each
figure's fastest round: a round can only be slowed down by other jobs, never sped up) and
the *median* of the round-by-round ratios (each round's figure over the same round's
python-chess). This is how the cold/warm figures of ``docs/performance.md`` and
``docs/perf/`` are measured.
"""

from __future__ import annotations

import argparse
import gc
import statistics
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
    from kifu.games.lianxian.state import clear_caches

    clear_caches()


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
    ap.add_argument("suites", nargs="*", default=["tweak", "towai"])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    suites = {}
    for name in args.suites:
        cases = read_perft(ROOT / "fixtures" / "perft" / f"{name}.perft")
        suites[name] = (games.get(cases[0].game),
                        [(c.position, *max(c.counts)) for c in cases])
    times: dict[str, list[float]] = {}
    nodes: dict[str, int] = {}

    def note(name: str, sec: float, n: int) -> None:
        nodes[name] = n
        times.setdefault(name, []).append(sec)

    for _ in range(args.rounds):
        note("python-chess", *timed(lambda: chess_perft(chess.Board(), 4)))
        for name, (game, jobs) in suites.items():
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

                note(f"{name} {mode}", *timed(run))
    chess_times = times["python-chess"]
    anchor = nodes["python-chess"] / min(chess_times)
    print(f"{'':22} {'nodes':>10} {'best CPU s':>10} {'nodes/s':>11} {'fastest':>8} "
          f"{'median':>7}")
    for name, secs in times.items():
        rate = nodes[name] / min(secs)
        paired = statistics.median(c / s for c, s in zip(chess_times, secs, strict=True))
        print(f"{name:22} {nodes[name]:10,} {min(secs):10.3f} {rate:11,.0f} "
              f"{rate / anchor:7.2f}x {paired * nodes[name] / nodes['python-chess']:6.2f}x")


if __name__ == "__main__":
    main()
