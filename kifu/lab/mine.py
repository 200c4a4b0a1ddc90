"""Puzzles mined from real records (``kifu puzzles mine``), as lichess-puzzler mines its
puzzles from played games: a position where the player to move had a unique winning first
action (or a forced win) and did not play it, or, with ``found=True``, played it.

The positions are those ``kifu analyze`` judges (:func:`kifu.lab.analyze.decisions`: the
same questions, limits and budget). A position becomes a puzzle when

- the question's answer has exactly one winning first action, or is a win (``forced``,
  ``yes``, first place) however many first actions reach it; and some first action fails;
- a missed puzzle that is not a win must cost the player something in the question's unit
  (a loss above 0: not ``possible p=0`` against ``no``, not a taller stack at the same
  place);
- missed (default): the action played falls short of the answer; found: it reaches it and
  the question calls the solution interesting (a TWEAK that needs a T! card, a yes that
  takes a choice: ``Question.interesting``).

Each puzzle keeps its source: ``Source`` is ``FILE#N@plyK`` (record N of FILE, the position
after K actions: ``kifu replay FILE --index N --ply K``) or ``ARCHIVE#id=I@plyK`` for a record
of an archive; its comment gives the action actually played and its value; ``Themes`` says
what it is about (:mod:`kifu.lab.themes`). The same position asked the same question is
kept once (the first, in input order). Records go in chunks on the executor seam, so the
puzzles are the same whatever the workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import msgspec

from kifu.core.executor import map_chunks
from kifu.lab.analyze import Job, Limits, decisions, scale_of
from kifu.lab.themes import themes
from kifu.notation.puzzle import Puzzle
from kifu.notation.reader import Located
from kifu.notation.record import Record
from kifu.notation.replay import setup_of
from kifu.puzzles import get_question

RECORDS_PER_CHUNK = 8

Questions = str | Sequence[str] | None
"""The questions mined: one spec, several (``kifu puzzles mine -Q A -Q B``), or None for
the game's own (:data:`kifu.lab.analyze.DEFAULT_QUESTIONS`, as ``kifu analyze`` asks)."""


def question_specs(question: Questions) -> tuple[str | None, ...]:
    """``question`` as a tuple of specs, each checked (``(None,)``: the game's own)."""
    specs: tuple[str | None, ...]
    if question is None or isinstance(question, str):
        specs = (question,)
    else:
        specs = tuple(dict.fromkeys(question)) or (None,)
    for spec in specs:
        if spec is not None:
            scale_of(get_question(spec))
    return specs


def source_of(file: str, index: int, ply: int, *, archive: bool = False) -> str:
    """The ``Source`` of a puzzle from the position after ``ply`` actions of record
    ``index`` of ``file`` (or of the record with id ``index`` of the archive ``file``)."""
    return f"{file}#id={index}@ply{ply}" if archive else f"{file}#{index}@ply{ply}"


def mine_record(loc: Located | Record, *, file: str = "<record>", index: int = 1,
                question: Questions = None, limits: Limits | None = None,
                found: bool = False, archive: bool = False,
                counter: dict[str, int] | None = None) -> list[Puzzle]:
    """The puzzles of one record, in ply order (``counter["positions"]`` counts the
    positions solved); with several questions, each asked in turn and the puzzles merged
    by ply (then in the questions' order)."""
    specs = question_specs(question)
    if len(specs) > 1:
        merged = [(i, p) for i, spec in enumerate(specs)
                  for p in mine_record(loc, file=file, index=index, question=spec,
                                       limits=limits, found=found, archive=archive,
                                       counter=counter)]
        merged.sort(key=lambda ip: (_ply_of(ip[1]), ip[0]))
        return [p for _, p in merged]
    game, setup = setup_of(loc)
    rules = game.rules_spec(setup.variant)
    out: list[Puzzle] = []
    for d in decisions(loc, question=specs[0], limits=limits):
        if counter is not None:
            counter["positions"] = counter.get("positions", 0) + len(d.solved)
        for q, sol, j in d.solved:
            if j is None or sol.failing == 0:
                continue
            win = scale_of(q).win
            won = win is not None and win(sol.answer)
            if not (sol.winning == 1 or won):
                continue
            if not (won or j.loss > 0 or found):  # a better answer, not only a tie-break
                continue
            if found != j.is_best or (found and not q.interesting(sol)):
                continue
            source = source_of(file, index, d.ply - 1, archive=archive)
            best = ", ".join(j.best[:3]) + (" ..." if j.best_count > 3 else "")
            how = "found it" if found else "missed it"
            out.append(Puzzle(
                game.id, rules, d.line, q.spec, answer=sol.answer, solution=sol.line,
                difficulty=sol.difficulty(), source=source,
                tags={"Themes": " ".join(themes(game, d.state, q, sol))},
                comment=(f"Played in the game: {d.played} ({j.played}); the player {how}. "
                         f"{sol.winning} of {len(sol.values)} first actions reach "
                         f"{sol.answer}: {best}. {said(q.spec, sol.answer, j.played)}"),
            ))
    return out


def _ply_of(p: Puzzle) -> int:
    return int((p.source or "@ply0").rsplit("@ply", 1)[1])


def said(question: str, answer: str, played: str | None = None) -> str:
    """The answer (and the value of the action played) in words, for a puzzle's comment."""
    from kifu.notation.wording import answer_words

    out = f"In words: {answer_words(question, answer)}"
    if played is not None and played != answer:
        out += f"; the move played: {answer_words(question, played)}"
    return out + "."


def _chunk(args: tuple[list[Job], Questions, Limits, bool, bool]) -> list[list[Puzzle]]:
    jobs, question, limits, found, archive = args
    return [mine_record(j.loc, file=j.file, index=j.index, question=question, limits=limits,
                        found=found, archive=archive) for j in jobs]


def mine(jobs: Iterable[Job], *, question: Questions = None, limits: Limits | None = None,
         found: bool = False, archive: bool = False, theme: str | None = None,
         workers: int = 1, dask: str | None = None, chunk_size: int = RECORDS_PER_CHUNK,
         on_record: Callable[[], None] | None = None) -> Iterator[Puzzle]:
    """The puzzles of ``jobs``, in input order, each position and question once; with
    ``theme``, only those whose ``Themes`` name it."""
    limits = limits or Limits()
    question_specs(question)

    def chunks() -> Iterator[tuple[list[Job], Questions, Limits, bool, bool]]:
        batch: list[Job] = []
        for job in jobs:
            batch.append(job)
            if len(batch) == chunk_size:
                yield batch, question, limits, found, archive
                batch = []
        if batch:
            yield batch, question, limits, found, archive

    seen: set[tuple[str, str]] = set()
    for per_record in map_chunks(_chunk, chunks(), workers=workers, dask=dask):
        for puzzles in per_record:
            if on_record is not None:
                on_record()
            for p in puzzles:
                key = (p.position, p.question)
                if key in seen:
                    continue
                seen.add(key)
                if theme is not None and theme not in p.tags.get("Themes", "").split():
                    continue
                yield p


def archive_job(record_id: int, text: str, db: str) -> Job:
    """A :class:`Job` for a record stored in an archive (its canonical text)."""
    from kifu.notation.reader import read_records

    (loc,) = read_records(text, path=f"{db}#id={record_id}")
    return Job(loc, db, record_id)


# --- a corpus of mixed bots (``kifu puzzles mine GAME --bots A,B,C --games N``) ----------


def seat_bots(bots: list[str], players: int, index: int) -> list[str]:
    """The bots of game ``index`` of a mixed corpus, one per seat: the list rotated by the
    game's index (``bots[(index + seat) % len(bots)]``), so that every bot plays every seat
    and, with more bots than seats, meets every other."""
    return [bots[(index + s) % len(bots)] for s in range(players)]


def corpus_record(game_id: str, bots: list[str], players: int, seed: int | str,
                  index: int) -> Record:
    """Game ``index`` of a mixed corpus, played from the seed ``"<seed>:<index>"``."""
    from kifu import games
    from kifu.lab.play import play_record

    game = games.get(game_id)
    return play_record(game, seat_bots(bots, players, index), f"{seed}:{index}")


def corpus_jobs(game_id: str, bots: list[str], players: int, count: int,
                seed: int | str = 0, *, name: str | None = None) -> Iterator[Job]:
    """The records of a mixed corpus as :class:`Job`s, in order (``name``, default
    ``corpus:<game>``, is their file name in each ``Source``; the records themselves are
    written by ``--records FILE``)."""
    from kifu.notation.reader import read_records
    from kifu.notation.record import format_record

    name = name or f"corpus:{game_id}"
    for i in range(count):
        rec = corpus_record(game_id, bots, players, seed, i)
        (loc,) = read_records(format_record(rec), path=f"{name}#{i + 1}")
        yield Job(loc, name, i + 1)


# --- a curated batch (``kifu puzzles mine --count/--max-share/--min-rating...``) ----------


class MineProgress(msgspec.Struct):
    """A batch as it goes: records mined of ``records``, positions solved, candidate
    puzzles found; then puzzles rated of ``to_rate``; ``stage`` is ``mining`` or
    ``rating``; ``started`` the monotonic clock at the start."""

    records: int = 0
    total: int = 0
    positions: int = 0
    found: int = 0
    rated: int = 0
    to_rate: int = 0
    stage: str = "mining"
    started: float = 0.0

    def eta(self, now: float) -> float | None:
        """Seconds left, from the pace so far (None before there is one)."""
        spent = now - self.started
        if self.stage == "mining":
            if not self.records or not self.total:
                return None
            return spent / self.records * (self.total - self.records)
        if not self.rated:
            return None
        return spent / self.rated * (self.to_rate - self.rated)


def _counted_chunk(args: tuple[list[Job], Questions, Limits, bool, bool]
                   ) -> list[tuple[list[Puzzle], int]]:
    jobs, question, limits, found, archive = args
    out = []
    for j in jobs:
        counter: dict[str, int] = {}
        out.append((mine_record(j.loc, file=j.file, index=j.index, question=question,
                                limits=limits, found=found, archive=archive,
                                counter=counter), counter.get("positions", 0)))
    return out


def mine_batch(jobs: list[Job], *, question: Questions = None, limits: Limits | None = None,
               found: bool = False, archive: bool = False, theme: str | None = None,
               count: int | None = None, min_rating: float | None = None,
               max_rating: float | None = None, max_share: float | None = None,
               near_duplicates: bool = False, rate: bool = True, workers: int = 1,
               dask: str | None = None, chunk_size: int = RECORDS_PER_CHUNK,
               progress: MineProgress | None = None,
               on_progress: Callable[[MineProgress], None] | None = None) -> list[Puzzle]:
    """A curated batch of the puzzles of ``jobs`` (``docs/puzzles.md``, *Mining*): mined,
    near-duplicates dropped (unless ``near_duplicates``: the same position; two of one game
    at most :data:`kifu.lab.variety.GAP` plies apart; the same answer pattern), ``theme``
    kept, rated (:mod:`kifu.lab.rating`; ``rate=False`` skips it unless a rating bound is
    given), kept within ``min_rating``..``max_rating``, ranked by interest, the kinds of
    answer in turn, no motif above ``max_share`` of the batch, at most ``count``. The same
    batch whatever the workers."""
    import time

    from kifu.lab.rating import rate_puzzles, rating_of
    from kifu.lab.variety import capped, drop_near_duplicates, interest

    limits = limits or Limits()
    question_specs(question)
    progress = progress if progress is not None else MineProgress()
    progress.total = len(jobs)
    progress.started = time.monotonic()

    def chunks() -> Iterator[tuple[list[Job], Questions, Limits, bool, bool]]:
        for i in range(0, len(jobs), chunk_size):
            yield jobs[i:i + chunk_size], question, limits, found, archive

    raw: list[Puzzle] = []
    seen: set[tuple[str, str]] = set()
    for per_record in map_chunks(_counted_chunk, chunks(), workers=workers, dask=dask):
        for puzzles, positions in per_record:
            progress.records += 1
            progress.positions += positions
            for p in puzzles:
                if (p.position, p.question) not in seen:
                    seen.add((p.position, p.question))
                    if theme is None or theme in p.tags.get("Themes", "").split():
                        raw.append(p)
            progress.found = len(raw)
            if on_progress is not None:
                on_progress(progress)
    kept = raw if near_duplicates else drop_near_duplicates(raw)
    shares: dict[int, float | None] = {}
    if rate or min_rating is not None or max_rating is not None:
        progress.stage, progress.to_rate, progress.started = "rating", len(kept), time.monotonic()

        def step() -> None:
            progress.rated += 1
            if on_progress is not None:
                on_progress(progress)

        rated = rate_puzzles(kept, workers=workers, dask=dask, on_puzzle=step)
        kept = [p for p, _ in rated]
        shares = {i: s for i, (_, s) in enumerate(rated)}

        def within(p: Puzzle) -> bool:
            r = rating_of(p.tags)
            if r is None:
                return min_rating is None and max_rating is None
            return ((min_rating is None or r >= min_rating)
                    and (max_rating is None or r <= max_rating))

        pairs = [(p, shares.get(i)) for i, p in enumerate(kept) if within(p)]
    else:
        pairs = [(p, None) for p in kept]
    order = sorted(range(len(pairs)), key=lambda i: (-interest(*pairs[i]), i))
    return capped([pairs[i][0] for i in order], count=count, max_share=max_share)


__all__ = [
    "RECORDS_PER_CHUNK",
    "MineProgress",
    "Questions",
    "archive_job",
    "corpus_jobs",
    "corpus_record",
    "mine",
    "mine_batch",
    "mine_record",
    "question_specs",
    "said",
    "seat_bots",
    "source_of",
]
