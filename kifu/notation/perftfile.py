"""Perft files: ``id NAME`` / ``game GAME`` / ``position LINE`` / ``perft DEPTH NODES`` blocks,
as python-chess keeps them (``fixtures/perft/<game>.perft``). Shared by the tests (counts
are asserted) and the benchmarks (the same positions are timed).

A malformed file raises :class:`~kifu.core.errors.NotationError` with ``path:line:col``.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from kifu.core.errors import NotationError
from kifu.core.text import read_text_file
from kifu.core.variant import short

_COUNT = re.compile(r"([0-9]{1,3}) +([0-9]{1,18})\Z")
"""``perft DEPTH NODES``: ASCII digits, a depth of at most 3 and a count of at most 18."""


class PerftCase(msgspec.Struct, frozen=True):
    id: str
    game: str
    position: str
    counts: tuple[tuple[int, int], ...]  # (depth, nodes)


def read_perft(path: str | Path) -> list[PerftCase]:
    """The cases of the perft file at ``path`` (its stem names the default game)."""
    text = read_text_file(path, what="a perft file")  # bounded, strict UTF-8
    return parse_perft(text, path=str(path), game=Path(path).stem)


def parse_perft(text: str, *, path: str = "<perft>", game: str = "") -> list[PerftCase]:
    """The cases of a perft file's text (``game``: the default of a block with no ``game``)."""
    cases: list[PerftCase] = []
    current: dict[str, str] = {}
    start = 0
    counts: list[tuple[int, int]] = []

    def flush() -> None:
        if not current:
            return
        if "position" not in current:
            raise NotationError(f"perft case {short(current['id'])} has no position line",
                                line=start, col=1, path=path)
        cases.append(PerftCase(current["id"], current.get("game", game),
                               current["position"], tuple(counts)))

    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw.strip(" \t\r")
        if not line or line.startswith("#"):
            continue
        if not (line.isascii() and line.isprintable()):
            at = next(i for i, c in enumerate(line) if not " " <= c <= "~")
            raise NotationError(f"a perft file is printable ASCII; {line[at]!r} is not",
                                line=lineno, col=raw.index(line[at]) + 1, path=path)
        key, _, value = line.partition(" ")
        value = value.strip(" \t")
        if key == "id":
            flush()
            if not value:
                raise NotationError("id needs a name", line=lineno, col=1, path=path)
            current = {"id": value}
            start = lineno
            counts = []
            continue
        if not current:
            raise NotationError(f"{short(key)} before the first id line", line=lineno, col=1,
                                path=path)
        if key in ("game", "position"):
            if key in current:
                raise NotationError(f"{key} given twice in case {short(current['id'])}",
                                    line=lineno, col=1, path=path)
            current[key] = value
        elif key == "perft":
            m = _COUNT.match(value)
            if not m:
                raise NotationError(f"expected: perft DEPTH NODES, got {short(line)}",
                                    line=lineno, col=len(key) + 2, path=path)
            counts.append((int(m.group(1)), int(m.group(2))))
        else:
            raise NotationError(f"unknown perft line {short(line)}", line=lineno, col=1,
                                path=path)
    flush()
    return cases
