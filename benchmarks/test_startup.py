"""Start-up (issue 26): ``kifu --help``, ``kifu games`` and a one-position ``kifu solve``
against a bare ``python -c pass``, whole processes, the same interpreter.

Two measures, both ratios to the anchor ``python -c pass`` taken in the same run:

- **CPU** (user + sys of the finished process, ``os.wait4``): the runs are interleaved
  (anchor, command, anchor, command, ...) and the ratio is taken pair by pair; the median
  and the smallest pair are reported. CPU time moves much less with the machine's load
  than wall time, but it does move: on a busy machine prefer the next measure.
- **instructions** (``valgrind --tool=callgrind``, when valgrind is installed): the count
  of one run, which does not depend on the load at all.

Bytecode must be cached (a first run writes it; ``PYTHONDONTWRITEBYTECODE`` set in the
environment would make every run compile the sources again): each command runs once
before it is measured, with that variable removed. The floors worth knowing are
measured too: ``import click, msgspec``, which every command parsed by click pays, ``import
msgspec`` and the TWEAK engine alone, which a one-position ``solve`` cannot do without, and
the engine with msgspec's optional ``typing_extensions`` import hidden (the least it could
cost: already at the target by itself, 2.0x in instructions, so a whole solve cannot meet
it while engines are built on msgspec).

The target (issue 26): each command at most 2x the anchor. Run ``pytest
benchmarks/test_startup.py --benchmark-only -s`` or ``python -m benchmarks.test_startup``
(``KIFU_STARTUP_RUNS``, default 15, sets the pairs).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import pytest

PYTHON = sys.executable
_SCRIPT = os.path.join(os.path.dirname(PYTHON), "kifu")
KIFU = [PYTHON, _SCRIPT] if os.path.exists(_SCRIPT) else [  # the installed entry point
    PYTHON, "-c", "import sys; sys.argv[0] = 'kifu'; from kifu.cli.main import main; "
                  "sys.exit(main())"]
RUNS = int(os.environ.get("KIFU_STARTUP_RUNS", "15"))
TARGET = 2.0
ANCHOR = [PYTHON, "-c", "pass"]
COMMANDS: dict[str, list[str]] = {
    "kifu --help": [*KIFU, "--help"],
    "kifu games": [*KIFU, "games"],
    "kifu solve (one TWEAK position)": [
        *KIFU, "solve", "tweak", "tweak/1 T0 r1d1 t7 0,0 R3/Y1 O5 - !T -/- !J/-",
        "-Q", "tweak-this-turn"],
    "kifu solve (one GRAPH-T position)": [
        *KIFU, "solve", "graph-t", "graph-t/1 R2/Y3 -/- - p0 p0 -", "-Q", "double-dummy"],
    "floor: import click, msgspec": [PYTHON, "-c", "import click, msgspec"],
    "floor: import msgspec": [PYTHON, "-c", "import msgspec"],
    "floor: import the TWEAK engine": [PYTHON, "-c", "import kifu.games.tweak"],
    # msgspec imports typing_extensions only to recognise its types in annotations; hidden,
    # msgspec and the engine are the least a solve could load (kifu does not hide it)
    "floor: the TWEAK engine, typing_extensions hidden": [
        PYTHON, "-c", "import sys; sys.modules['typing_extensions'] = None; "
                      "import kifu.games.tweak"],
}
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(args: list[str]) -> float:
    """User + sys seconds of one whole process."""
    t = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, (args, time.perf_counter() - t)
    return usage.ru_utime + usage.ru_stime


def instructions(args: list[str]) -> int | None:
    """Instructions of one whole process under callgrind (None without valgrind)."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/out",
                            *args], capture_output=True, text=True, env=ENV)
    m = re.search(r"Collected : (\d+)", r.stderr)
    return int(m.group(1)) if m else None


def measure(name: str, runs: int = RUNS) -> dict[str, object]:
    args = COMMANDS[name]
    cpu_of(args)  # bytecode written, caches warm
    cpu_of(ANCHOR)
    pairs = []
    for _ in range(runs):
        a = cpu_of(ANCHOR)
        b = cpu_of(args)
        pairs.append((b, a))
    ratios = [b / a for b, a in pairs]
    anchor_ins, ins = instructions(ANCHOR), instructions(args)
    return {
        "command": name, "pairs": runs,
        "cpu_ratio_median": round(statistics.median(ratios), 2),
        "cpu_ratio_fastest": round(min(b for b, _ in pairs) / min(a for _, a in pairs), 2),
        "cpu_ms_median": round(1000 * statistics.median(b for b, _ in pairs), 1),
        "anchor_cpu_ms_median": round(1000 * statistics.median(a for _, a in pairs), 1),
        "instructions_M": None if ins is None else round(ins / 1e6, 1),
        "instruction_ratio": None if not (ins and anchor_ins) else round(ins / anchor_ins, 2),
        "load": round(os.getloadavg()[0], 2),
    }


def row(r: dict[str, object]) -> str:
    return (f"{r['command']:<36} {r['cpu_ms_median']:>7} {r['anchor_cpu_ms_median']:>7} "
            f"{r['cpu_ratio_median']:>6} {r['cpu_ratio_fastest']:>6} "
            f"{r['instructions_M']!s:>8} {r['instruction_ratio']!s:>6} {r['load']:>5}")


HEADER = (f"{'command':<36} {'cpu ms':>7} {'pass ms':>7} {'cpu x':>6} {'fast x':>6} "
          f"{'instr M':>8} {'ins x':>6} {'load':>5}")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_startup(benchmark, name: str) -> None:
    figures = benchmark.pedantic(measure, args=(name,), rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print("\n" + HEADER + "\n" + row(figures))


def main() -> None:
    print(f"{RUNS} pairs, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load {os.getloadavg()}, anchor: {' '.join(ANCHOR)}")
    print(HEADER, flush=True)
    for name in sys.argv[1:] or COMMANDS:
        print(row(measure(name)), flush=True)
    print(f"target: each kifu command at most {TARGET}x the anchor")


if __name__ == "__main__":
    main()
