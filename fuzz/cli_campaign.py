"""The CLI fuzz campaign of docs/testing.md: random ``kifu`` command lines (fuzz/cli_lines.py)
through click's CliRunner, in this process, in a temporary folder.

    python fuzz/cli_campaign.py --lines 20000 --seed 1          # a campaign
    python fuzz/cli_campaign.py --lines 2500 --seed 21 --json   # what the test suite runs

The process's address space is capped (``--memory``, GiB) so a line that reads without
bound ends in ``MemoryError`` (counted as a failure) rather than in the kernel's OOM killer.
Exit code 0 when no line failed. ``--log FILE`` writes every line before it runs (to find
the one that killed a run).
"""

from __future__ import annotations

import argparse
import collections
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=10.0, help="time limit of one line")
    ap.add_argument("--memory", type=float, default=3.0, help="address space cap, GiB")
    ap.add_argument("--dir", default=None, help="working folder (default: a new temp one)")
    ap.add_argument("--json", action="store_true", help="print the tally as JSON")
    ap.add_argument("--log", default=None, help="write each line here before running it")
    args = ap.parse_args(argv)

    cap = int(args.memory * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    import cli_lines

    log = open(args.log, "w") if args.log else None  # noqa: SIM115
    if log is not None:
        real = cli_lines.run_line

        def logged(line, seconds, env):
            log.write(json.dumps(line) + "\n")
            log.flush()
            return real(line, seconds, env)

        cli_lines.run_line = logged

    kinds: collections.Counter[str] = collections.Counter()
    examples: dict[str, dict] = {}
    slow: list[list[str]] = []

    def seen(i: int, out) -> None:
        if out.verdict == "slow":
            slow.append(out.args)
        elif out.verdict != "ok":
            key = out.verdict[:120]
            kinds[key] += 1
            examples.setdefault(key, {"args": out.args, "detail": out.detail})

    started = time.process_time()
    with tempfile.TemporaryDirectory(prefix="kifu-cli-fuzz-") as tmp:
        where = Path(args.dir) if args.dir else Path(tmp)
        tally = cli_lines.campaign(args.lines, args.seed, where, seconds=args.seconds,
                                   on_outcome=seen)
    tally.pop("failure_list")
    tally["cpu_seconds"] = round(time.process_time() - started, 1)
    tally["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    tally["kinds"] = dict(kinds)
    tally["examples"] = examples
    tally["slow_lines"] = slow[:20]
    tally["exit"] = {str(k): v for k, v in tally["exit"].items()}
    if args.json:
        print(json.dumps(tally, ensure_ascii=True))
    else:
        for key in ("lines", "ok", "failures", "slow", "exit", "cpu_seconds", "peak_rss_mb"):
            print(f"{key}: {tally[key]}")
        for kind, n in kinds.most_common():
            print(f"{n:6}  {kind}")
            print(f"        e.g. {json.dumps(examples[kind]['args'])[:300]}")
        for line in slow[:20]:
            print(f"  slow: {json.dumps(line)[:300]}")
    return 1 if tally["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
