"""The campaign's table (docs/testing.md) from ``fuzz/logs/PARSER.stats.json``:
``python fuzz/summary.py [PARSER...]`` (default: every parser with a stats file)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

LOGS = Path(__file__).resolve().parent / "logs"


def main(names: list[str]) -> None:
    paths = [LOGS / f"{n}.stats.json" for n in names] if names else sorted(
        LOGS.glob("*.stats.json"))
    print("| entry point | inputs | accepted | rejected | escapes | peak memory | edges | corpus |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for p in paths:
        if not p.exists():
            print(f"| `{p.name.split('.')[0]}` | (no stats) | | | | |")
            continue
        s = json.loads(p.read_text())
        edges, corpus = _coverage(LOGS / f"{s['parser']}.log")
        print(f"| `{s['parser']}` | {s['inputs']:,} | {s['accepted']:,} | {s['rejected']:,} "
              f"| {s['escapes']:,} | {s['peak_rss_mb']:.0f} MB | {edges} | {corpus} |")
        for kind, count in s["escape_kinds"].items():
            print(f"|  | escape: {kind} | {count} | | | |")


def _coverage(log: Path) -> tuple[str, str]:
    """The edges covered and the corpus size libFuzzer last reported in ``log``."""
    found = ("", "")
    if log.exists():
        for m in re.finditer(r"cov: (\d+) ft: \d+ corp: (\d+)/", log.read_text("utf-8",
                                                                             "replace")):
            found = (f"{int(m.group(1)):,}", f"{int(m.group(2)):,}")
    return found


if __name__ == "__main__":
    main(sys.argv[1:])
