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

from collections.abc import Callable, Iterable, Iterator

from kifu.core.executor import map_chunks
from kifu.lab.analyze import Job, Limits, decisions, scale_of
from kifu.lab.themes import themes
from kifu.notation.puzzle import Puzzle
from kifu.notation.reader import Located
from kifu.notation.record import Record
from kifu.notation.replay import setup_of
from kifu.puzzles import get_question

RECORDS_PER_CHUNK = 8


def source_of(file: str, index: int, ply: int, *, archive: bool = False) -> str:
    """The ``Source`` of a puzzle from the position after ``ply`` actions of record
    ``index`` of ``file`` (or of the record with id ``index`` of the archive ``file``)."""
    return f"{file}#id={index}@ply{ply}" if archive else f"{file}#{index}@ply{ply}"


def mine_record(loc: Located | Record, *, file: str = "<record>", index: int = 1,
                question: str | None = None, limits: Limits | None = None,
                found: bool = False, archive: bool = False) -> list[Puzzle]:
    """The puzzles of one record, in ply order."""
    game, setup = setup_of(loc)
    rules = game.rules_spec(setup.variant)
    out: list[Puzzle] = []
    for d in decisions(loc, question=question, limits=limits):
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
                         f"{sol.answer}: {best}."),
            ))
    return out


def _chunk(args: tuple[list[Job], str | None, Limits, bool, bool]) -> list[list[Puzzle]]:
    jobs, question, limits, found, archive = args
    return [mine_record(j.loc, file=j.file, index=j.index, question=question, limits=limits,
                        found=found, archive=archive) for j in jobs]


def mine(jobs: Iterable[Job], *, question: str | None = None, limits: Limits | None = None,
         found: bool = False, archive: bool = False, theme: str | None = None,
         workers: int = 1, dask: str | None = None, chunk_size: int = RECORDS_PER_CHUNK,
         on_record: Callable[[], None] | None = None) -> Iterator[Puzzle]:
    """The puzzles of ``jobs``, in input order, each position and question once; with
    ``theme``, only those whose ``Themes`` name it."""
    limits = limits or Limits()
    if question is not None:
        scale_of(get_question(question))

    def chunks() -> Iterator[tuple[list[Job], str | None, Limits, bool, bool]]:
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


__all__ = ["RECORDS_PER_CHUNK", "archive_job", "corpus_jobs", "corpus_record", "mine",
           "mine_record", "seat_bots", "source_of"]
