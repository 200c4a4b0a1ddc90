"""Variety in a batch of generated puzzles (``kifu puzzles generate``): no near-duplicates,
a chosen theme, balanced answers.

:func:`varied` filters the stream of :func:`kifu.lab.generate.generate_puzzles` (which is
left as it is: the fixture generators use it) in the order it comes, so the batch is the
same whatever the executor:

- **near-duplicates** are dropped unless asked for: a position already kept (the same
  position line, from any game), and a position of the same bot game fewer than
  ``2 * players`` plies from one kept from it (neighbouring plies of one game are mostly
  the same puzzle twice);
- every puzzle gets its ``Themes`` (:mod:`kifu.lab.themes`), and ``theme`` keeps only those
  that name it;
- **balanced answers** (default): the batch is chosen from a pool of ``POOL * count``
  puzzles, taking one of each kind of answer in turn (``forced`` and each probability of
  ``possible``; ``yes`` and ``no``; each place; each number of points), the earliest of
  each kind first, and the batch is given in the order the pool came. Where the question
  allows one kind of answer only (a puzzle needs a unique winning first action, so a
  yes/no question's puzzles are all ``yes``), it changes nothing but the pool's size.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import msgspec

from kifu import games
from kifu.lab.themes import themes_of
from kifu.notation.puzzle import THEMES, Puzzle
from kifu.puzzles import get_question

POOL = 3
"""A balanced batch of ``count`` is chosen among the first ``POOL * count`` puzzles."""

_SOURCE = re.compile(r"generate \S+ seed=(\S+) game=([0-9]+)@ply([0-9]+)\Z")
_DIFFICULTY = re.compile(r"failing=([0-9]+)")


def answer_class(question: str, answer: str | None) -> str:
    """The kind of an answer, for balancing: the answer itself, but a double-dummy value
    only by its place (the stack heights make every answer different)."""
    if answer is None:
        return ""
    if question.startswith("double-dummy"):
        return " ".join(answer.split()[:4])  # place P shared S
    return answer


def with_themes(p: Puzzle) -> Puzzle:
    """``p`` with its ``Themes`` tag filled in (from its position, answer and line; a
    generated puzzle has one winning first action, and its Difficulty says how many fail)."""
    if THEMES in p.tags or p.answer is None:
        return p
    game = games.get(p.game)
    state = game.from_line(p.position)
    m = _DIFFICULTY.search(p.difficulty or "")
    failing = int(m.group(1)) if m else 0
    words = themes_of(game, state, get_question(p.question), p.answer, p.solution or [], 1,
                      1 + failing)
    return msgspec.structs.replace(p, tags={**p.tags, THEMES: " ".join(words)})


def _where(p: Puzzle) -> tuple[str, int, int] | None:
    m = _SOURCE.match(p.source or "")
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else None


def varied(stream: Iterable[Puzzle], *, count: int, players: int, theme: str | None = None,
           near_duplicates: bool = False, balance: bool = True) -> Iterator[Puzzle]:
    """At most ``count`` puzzles of ``stream``, with themes, filtered and balanced as the
    module says."""
    kept_lines: set[str] = set()
    kept_plies: dict[tuple[str, int], list[int]] = {}
    gap = 2 * players
    pool: list[Puzzle] = []
    want = count * POOL if balance else count
    for p in stream:
        if not near_duplicates:
            if p.position in kept_lines:
                continue
            where = _where(p)
            if where is not None:
                plies = kept_plies.setdefault(where[:2], [])
                if any(abs(where[2] - q) < gap for q in plies):
                    continue
        p = with_themes(p)
        if theme is not None and theme not in p.tags.get(THEMES, "").split():
            continue
        if not near_duplicates:
            kept_lines.add(p.position)
            if where is not None:
                plies.append(where[2])
        pool.append(p)
        if len(pool) >= want:
            break
    yield from (balanced(pool, count) if balance else pool[:count])


def balanced(pool: list[Puzzle], count: int) -> list[Puzzle]:
    """``count`` puzzles of ``pool``: one of each kind of answer in turn (the kinds in the
    order they first come, the earliest puzzle of each first), in the pool's order."""
    kinds: dict[str, list[int]] = {}
    for i, p in enumerate(pool):
        kinds.setdefault(answer_class(p.question, p.answer), []).append(i)
    chosen: list[int] = []
    queues = [list(v) for v in kinds.values()]
    while len(chosen) < min(count, len(pool)):
        for q in queues:
            if q and len(chosen) < count:
                chosen.append(q.pop(0))
    return [pool[i] for i in sorted(chosen)]


__all__ = ["POOL", "answer_class", "balanced", "varied", "with_themes"]
