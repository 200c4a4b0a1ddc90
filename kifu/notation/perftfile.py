"""Perft files: ``id NAME`` / ``game GAME`` / ``position LINE`` / ``perft DEPTH NODES`` blocks,
as python-chess keeps them (``fixtures/perft/<game>.perft``). Shared by the tests (counts
are asserted) and the benchmarks (the same positions are timed)."""

from __future__ import annotations

from pathlib import Path

import msgspec


class PerftCase(msgspec.Struct, frozen=True):
    id: str
    game: str
    position: str
    counts: tuple[tuple[int, int], ...]  # (depth, nodes)


def read_perft(path: str | Path) -> list[PerftCase]:
    cases: list[PerftCase] = []
    current: dict = {}
    counts: list[tuple[int, int]] = []
    game = Path(path).stem

    def flush() -> None:
        if current:
            cases.append(PerftCase(current["id"], current.get("game", game),
                                   current["position"], tuple(counts)))

    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            flush()
            current = {"id": value}
            counts = []
        elif key in ("game", "position"):
            current[key] = value
        elif key == "perft":
            d, n = value.split()
            counts.append((int(d), int(n)))
        else:
            raise ValueError(f"{path}: unknown perft line {line!r}")
    flush()
    return cases
