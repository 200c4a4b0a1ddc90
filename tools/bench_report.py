"""Turn a pytest-benchmark JSON file into the Markdown table of ``docs/performance.md``.

    .venv/bin/pytest benchmarks --benchmark-only --benchmark-json=bench.json
    .venv/bin/python tools/bench_report.py bench.json

One row per benchmark: the median time, operations per second, every ``*_per_s`` figure the
benchmark stored in ``extra_info`` (nodes/s, records/s, MB/s, games/s...) and, for perft
figures, the ratio to the python-chess anchor measured in the same run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ANCHOR = "test_python_chess_perft_anchor"


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def fmt_num(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def rows(data: dict) -> list[str]:
    benches = data["benchmarks"]
    anchor = next((b for b in benches if b["name"] == ANCHOR), None)
    anchor_nps = anchor["extra_info"].get("nodes_per_s") if anchor else None
    out = [
        "| group | benchmark | median | ops/s | figures | vs python-chess perft |",
        "|---|---|---:|---:|---|---:|",
    ]
    for b in sorted(benches, key=lambda b: (b["group"] or "", b["name"])):
        info = b["extra_info"]
        figures = []
        for k, v in info.items():
            if k.endswith("_per_s"):
                unit = k[: -len("_per_s")].replace("_", " ")
                figures.append(f"{fmt_num(v)} {unit}/s")
        ratio = ""
        if anchor_nps and "nodes_per_s" in info:
            ratio = f"{info['nodes_per_s'] / anchor_nps:.2f}×"
        name = b["name"].removeprefix("test_")
        out.append(
            f"| {b['group'] or ''} | `{name}` | {fmt_time(b['stats']['median'])} | "
            f"{fmt_num(1 / b['stats']['median'])} | {', '.join(figures)} | {ratio} |"
        )
    return out


def machine(data: dict) -> str:
    m = data["machine_info"]
    cpu = m.get("cpu", {})
    return (
        f"{cpu.get('brand_raw', m.get('processor', '?'))}, {cpu.get('count', '?')} cores, "
        f"{m['python_implementation']} {m['python_version']}, {m['system']} {m['release']}"
    )


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    data = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    print(f"Machine: {machine(data)}; run {data['datetime']}\n")
    print("\n".join(rows(data)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
