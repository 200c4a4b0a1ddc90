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

import math
import re
from collections.abc import Callable, Iterable, Iterator

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


def with_words(p: Puzzle) -> Puzzle:
    """``p`` with its answer in words at the end of its comment (once)."""
    from kifu.notation.wording import answer_words

    if p.answer is None or "In words: " in (p.comment or ""):
        return p
    said = f"In words: {answer_words(p.question, p.answer)}."
    return msgspec.structs.replace(p, comment=f"{p.comment} {said}" if p.comment else said)


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
        p = with_words(with_themes(p))
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


__all__ = ["POOL", "answer_class", "balanced", "varied", "with_themes", "with_words"]


# --- a curated batch: near-duplicates, ratings, a cap per theme, ranked by interest ----------

GAP = 3
"""Two puzzles of one game fewer than or exactly this many plies apart are near-duplicates."""

_MINED = re.compile(r"(.+)@ply([0-9]+)\Z")
_OF = re.compile(r"([0-9]+) of ([0-9]+) first actions")


def game_and_ply(p: Puzzle) -> tuple[str, int] | None:
    """(the game a puzzle comes from, its ply) from its ``Source``: ``FILE#N@plyK`` (mined)
    or ``generate G seed=S game=I@plyK`` (generated); None for another source."""
    m = _MINED.match(p.source or "")
    return (m.group(1), int(m.group(2))) if m else None


def generic_themes(question: str) -> set[str]:
    """The themes every puzzle of a question may carry whatever it is about (the question's
    name, the kinds of answer, ``only-move``): not counted by the cap per theme."""
    return {question.split(" ", 1)[0], "only-move", "forced", "possible", "yes", "no", "none",
            "first-place", "shared-place"}


NEUTRAL = frozenset({"lead", "follow", "fill", "capture", "combo"})
"""Themes that say where a puzzle happens rather than what it is about (a plain lead or
follow, a blank slot filled), as ``endgame-K`` and ``tiles-N`` do, or what nearly every
puzzle of its question needs (a TWEAK ends in a capture; a TOWAI player goes out with a
combo): not motifs. In the 100-game corpora of ``docs/puzzles.md`` ``combo`` was on 16 of
22 TOWAI puzzles."""


def motifs(p: Puzzle) -> list[str]:
    """The themes of ``p`` that say what it is about: not :func:`generic_themes`, not the
    answer-kind words ``odds-*``, ``turns-*``, ``place-*``, not :data:`NEUTRAL` nor
    ``endgame-*``, ``tiles-*``."""
    generic = generic_themes(p.question) | NEUTRAL
    return [t for t in p.tags.get(THEMES, "").split()
            if t not in generic and not t.startswith(("odds-", "turns-", "place-", "endgame-",
                                                      "tiles-"))]


def pattern(p: Puzzle) -> tuple[str, str, str, tuple[str, ...]]:
    """A puzzle's answer pattern: its question, kind of answer, first action (without the
    actor) and motifs. Two puzzles with the same pattern are the same lesson twice
    ("steal from p0 (1/2) rather than p2 (1/3)")."""
    first = (p.solution or [""])[0].split(" ", 1)[-1]
    return (p.question, answer_class(p.question, p.answer), first, tuple(sorted(motifs(p))))


def choices(p: Puzzle) -> tuple[int, int]:
    """(winning, legal) first actions of a puzzle, from its comment ("W of L first
    actions") or its Difficulty (one winning, ``failing`` + 1 legal)."""
    m = _OF.search(p.comment or "")
    if m:
        return int(m.group(1)), int(m.group(2))
    d = _DIFFICULTY.search(p.difficulty or "")
    return (1, 1 + int(d.group(1))) if d else (1, 1)


def interest(p: Puzzle, solved_share: float | None = None) -> float:
    """How worth solving a puzzle is, higher first (the ranking of ``mine`` and
    ``generate``): ``log2(legal / winning)`` (how much a guess is ruled out) + 0.5 per
    further action of the player in the line (at most 3) + 2 x the share of the rating
    ladder's bots that missed it (a puzzle every bot finds teaches little)."""
    win, legal = choices(p)
    actor = (p.solution or [""])[0].split(" ", 1)[0]
    own = sum(1 for item in p.solution or [] if item.split(" ", 1)[0] == actor)
    score = math.log2(max(1, legal) / max(1, win)) + 0.5 * min(3, max(0, own - 1))
    if solved_share is not None:
        score += 2.0 * (1.0 - solved_share)
    return round(score, 6)


def drop_near_duplicates(puzzles: list[Puzzle], *, gap: int = GAP,
                         key: Callable[[Puzzle], float] = interest) -> list[Puzzle]:
    """``puzzles`` without near-duplicates, the best by ``key`` kept of each (ties: the
    earlier), in their given order: the same position and question; two puzzles of one
    game at most ``gap`` plies apart; the same :func:`pattern`."""
    order = sorted(range(len(puzzles)), key=lambda i: (-key(puzzles[i]), i))
    kept: list[int] = []
    lines: set[tuple[str, str]] = set()
    plies: dict[str, list[int]] = {}
    patterns: set[tuple] = set()
    for i in order:
        p = puzzles[i]
        where = game_and_ply(p)
        pat = pattern(p)
        if (p.position, p.question) in lines or pat in patterns:
            continue
        if where is not None and any(abs(where[1] - q) <= gap
                                     for q in plies.get(where[0], ())):
            continue
        kept.append(i)
        lines.add((p.position, p.question))
        patterns.add(pat)
        if where is not None:
            plies.setdefault(where[0], []).append(where[1])
    return [puzzles[i] for i in sorted(kept)]


def capped(ranked: list[Puzzle], *, count: int | None, max_share: float | None) -> list[Puzzle]:
    """The first puzzles of ``ranked`` (best first), taking the kinds of answer in turn
    (:func:`answer_class`, each kind in ranked order), at most ``count``, such that no motif
    is carried by more than ``max_share`` of the batch. The batch's size is only known at
    the end, so the cap is applied for a size N and N is lowered to what was found until
    they agree (the cap then holds for the batch given)."""
    kinds: dict[str, list[Puzzle]] = {}
    for p in ranked:
        kinds.setdefault(answer_class(p.question, p.answer), []).append(p)
    queues = list(kinds.values())
    turns: list[Puzzle] = []
    while any(queues):
        for q in queues:
            if q:
                turns.append(q.pop(0))
    size = len(turns) if count is None else min(count, len(turns))
    while True:
        allowed = math.inf if max_share is None else math.floor(max_share * size + 1e-9)
        seen: dict[str, int] = {}
        out: list[Puzzle] = []
        for p in turns:
            if len(out) == size:
                break
            ms = motifs(p)
            if any(seen.get(t, 0) + 1 > allowed for t in ms):
                continue
            for t in ms:
                seen[t] = seen.get(t, 0) + 1
            out.append(p)
        if len(out) == size:
            return out
        size = len(out)


__all__ += ["GAP", "NEUTRAL", "capped", "choices", "drop_near_duplicates", "game_and_ply",
            "generic_themes", "interest", "motifs", "pattern"]


def curate(pool: list[Puzzle], *, count: int, min_rating: float | None = None,
           max_rating: float | None = None, max_share: float | None = None,
           near_duplicates: bool = False, workers: int = 1, dask: str | None = None,
           on_rated: Callable[[int, int], None] | None = None) -> list[Puzzle]:
    """A rated batch of at most ``count`` from ``pool`` (``generate --rate``): answer
    patterns seen before dropped (unless ``near_duplicates``), every puzzle rated
    (:mod:`kifu.lab.rating`), kept within the rating bounds, ranked by interest (the kinds
    of answer in turn), no motif above ``max_share``. ``on_rated(done, total)`` after each
    puzzle rated."""
    from kifu.lab.rating import rate_puzzles, rating_of

    kept = pool if near_duplicates else drop_near_duplicates(pool)
    done = [0]

    def step() -> None:
        done[0] += 1
        if on_rated is not None:
            on_rated(done[0], len(kept))

    rated = rate_puzzles(kept, workers=workers, dask=dask, on_puzzle=step)
    pairs = []
    for p, share in rated:
        r = rating_of(p.tags)
        if (min_rating is not None or max_rating is not None) and r is None:
            continue
        if (min_rating is not None and r is not None and r < min_rating) or \
                (max_rating is not None and r is not None and r > max_rating):
            continue
        pairs.append((p, share))
    order = sorted(range(len(pairs)), key=lambda i: (-interest(*pairs[i]), i))
    return capped([pairs[i][0] for i in order], count=count, max_share=max_share)


__all__ += ["curate"]
