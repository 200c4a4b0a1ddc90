"""``kifu simulate`` keeps running sums, not games: its memory is flat from 500 to 50,000
games. Checked under RLIMIT_AS in a subprocess (no timer): after a 500-game run, the
address space is capped a few MiB above what it uses, and a 50,000-game run must still
finish; the same run keeping each game's row (as simulate did before issue 36) must not.

The games themselves are stubbed (copies of eight real TOWAI games' rows, seed changed), so
the test measures what simulate keeps and not the engines' own caches (TWEAK's legal-move
memo grows with the tables it meets: docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import resource, sys
    import msgspec
    from kifu import games
    from kifu.lab import simulate as lab

    count, keep, margin = int(sys.argv[1]), sys.argv[2] == "keep", int(sys.argv[3])
    game = games.get("towai")
    specs = ["towai/1", "towai/1;cap=40"]
    rows = []
    for seed in range(1, 9):
        state, capped = lab.play_game(game, ["greedy"] * 4, seed, None)
        rows.append(lab.row_of(game, state, seed, capped=capped))
    kept = []

    def row_of(game, state, seed, capped=False, text=None):
        t = rows[seed % 8]  # a fresh row, as a played game gives (its own tuples)
        row = msgspec.structs.replace(
            t, seed=seed, scores=tuple(list(t.scores)), ranks=tuple(list(t.ranks)),
            events=tuple(list(t.events)), order=tuple(list(t.order)),
            quality=tuple(list(t.quality)), kinds=tuple(list(t.kinds)))
        if keep:
            kept.append(row)
        return row

    lab.play_game = lambda game, bots, seed, variant, max_plies=0: (seed, False)
    lab.row_of = row_of
    lab.analyse(lab.simulate("towai", 4, 500, 1, specs, ["greedy"]))
    kept.clear()
    size = next(int(line.split()[1]) for line in open("/proc/self/status")
                if line.startswith("VmSize:")) * 1024
    limit = size + margin
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        report = lab.analyse(lab.simulate("towai", 4, count, 1, specs, ["greedy"]))
    except MemoryError:
        kept.clear()
        print("MemoryError")
        sys.exit(3)
    except Exception as e:  # the executor names the chunk that ran out
        kept.clear()
        if "MemoryError" not in str(e):
            raise
        print("MemoryError", str(e).split(":")[0])
        sys.exit(3)
    print("done", report.games, report.rule_sets[0].games)
""")

MARGIN = 24 << 20
"""Address space allowed above the 500-game run's: 24 MiB. Keeping 50,000 games' rows
under two rule sets takes far more (about 100 MiB)."""


def run(count: int, mode: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, str(count), mode, str(MARGIN)],
                          capture_output=True, text=True, timeout=900)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_memory_is_flat_from_500_to_50000_games():
    out = run(50_000, "sums")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["done", "50000", "50000"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_limit_would_catch_a_simulation_keeping_its_games():
    # the power of the test above: the same limit stops a run that keeps every row
    out = run(50_000, "keep")
    assert out.returncode == 3 and "MemoryError" in out.stdout, out.stderr[-2000:]
