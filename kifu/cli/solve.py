"""``kifu solve``: answer puzzles exactly, or one question about one position.

The work is split so that other sources and sinks can be plugged in (an archive):
:func:`iter_puzzles` yields located puzzles from files, :func:`solve_one` solves a checked
puzzle, :func:`emit` prints one result.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import click

from kifu import games
from kifu.cli.common import handle_errors
from kifu.cli.options import QuestionCommand, cards_option, max_memory_option, quiet_option
from kifu.core.errors import KifuError
from kifu.notation.puzzle import (
    Checked,
    LocatedPuzzle,
    Puzzle,
    check_puzzle,
    load_puzzles,
)
from kifu.puzzles import UNKNOWN, Budget, Solution
from kifu.puzzles.base import REASONS

PUZZLE_SUFFIXES = (".kifu", ".json", ".ndjson")


def puzzle_paths(source: str) -> list[str]:
    """A file, ``-``, or every puzzle file in a directory (sorted, not recursive)."""
    if source != "-" and os.path.isdir(source):
        return [os.path.join(source, f) for f in sorted(os.listdir(source))
                if f.endswith(PUZZLE_SUFFIXES)]
    return [source]


def iter_puzzles(sources: tuple[str, ...]) -> Iterator[LocatedPuzzle]:
    """The puzzles of every source, in order (files, directories, ``-`` for stdin)."""
    for source in sources:
        for path in puzzle_paths(source):
            yield from load_puzzles(path)  # - is stdin, read as a file is


def archive_puzzles(db: str, game: str) -> Iterator[LocatedPuzzle]:
    """The puzzles stored in the archive ``db`` (``game`` an id, or ``all``), each located
    as ``DB#id``."""
    from kifu.archive import iter_puzzles as stored

    for row in stored(db=db or None, game=None if game == "all" else game):
        yield from load_puzzles(f"{db}#{row['id']}", row["text"])


def solve_one(checked: Checked, budget: Budget) -> Solution:
    return checked.question.solve(checked.state, budget)


def result_dict(checked: Checked, sol: Solution) -> dict:
    p = checked.puzzle
    return {
        "where": checked.located.where(),
        "game": p.game,
        "position": p.position,
        "question": p.question,
        "stated": p.answer,
        "answer": sol.answer,
        "agrees": None if p.answer is None else p.answer == sol.answer,
        "line": sol.line,
        "values": [{"action": v.action, "value": v.value} for v in sol.values],
        "winning": sol.winning,
        "nodes": sol.nodes,
        "seconds": round(sol.seconds, 6),
        "complete": sol.complete,
        "reason": sol.reason,
    }


def why_unknown(sol: Solution) -> str:
    """Why a search stopped before its answer (a budget ran out)."""
    return REASONS.get(sol.reason or "", "the search ran out of its budget")


def emit(checked: Checked, sol: Solution, *, as_json: bool, check: bool,
         quiet: bool = False) -> None:
    """Print one result (JSON: one object a line; ``quiet``: one line, the answer)."""
    if as_json:
        import json

        click.echo(json.dumps(result_dict(checked, sol), ensure_ascii=False))
        return
    p = checked.puzzle
    if check:
        mark = "ok" if p.answer == sol.answer else f"MISMATCH (stated {p.answer})"
        if p.answer is None:
            mark = "no stated answer"
        click.echo(f"{checked.located.where()}: {p.question}: {sol.answer}  {mark}")
        return
    if quiet:
        click.echo(f"{checked.located.where()}: {p.question}: {sol.answer}")
        return
    from kifu.notation.wording import answer_words

    click.echo(f"{checked.located.where()}: {p.question}")
    click.echo(f"  answer: {sol.answer}"
               + (f" ({why_unknown(sol)})" if not sol.complete else "")
               + ("" if p.answer is None else f"  (stated: {p.answer})"))
    if sol.complete:
        click.echo(f"  in words: {answer_words(p.question, sol.answer)}")
    if sol.line:
        click.echo(f"  line:   {'; '.join(sol.line)}")
    for v in sol.values:
        mark = "*" if sol.complete and v.value == sol.answer else " "
        click.echo(f"  {mark} {v.action:<22} {v.value}  = {answer_words(p.question, v.value)}")
    click.echo(f"  nodes {sol.nodes}, {sol.seconds:.3f}s, "
               f"{sol.winning} of {len(sol.values)} first actions reach the answer")


@click.command(cls=QuestionCommand,
               short_help="Solve puzzles, or ask a question of one position.")
@click.argument("source", metavar="FILE|DIR|-|GAME", nargs=1)
@click.argument("position", required=False)
@click.option("-Q", "--question",
              help="With GAME POSITION: the question, e.g. 'tweak-within 2'.")
@cards_option(use=False)
@click.option("--check", is_flag=True,
              help="Verify every stated Answer; exit 1 naming each puzzle that differs.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
@click.option("--budget-nodes", type=click.IntRange(1), help="Stop a search after N nodes.")
@click.option("--budget-seconds", type=click.FloatRange(0), help="Stop a search after S s.")
@max_memory_option
@click.option("--db", "db", metavar="PATH", default=None,
              help="Solve the puzzles stored in this archive (kifu archive); SOURCE is then "
                   "a game id, or 'all'.")
@quiet_option("One line a puzzle (its answer); with --check, only the puzzles that fail.")
@handle_errors
def solve(source, position, question, check, as_json, budget_nodes, budget_seconds,
          max_memory, db=None, quiet=False) -> None:
    """Solve the puzzles in FILE (or every .kifu/.json file in DIR; - for stdin), or ask
    --question of one GAME POSITION (a position line).

    Prints the answer, a principal line, the value of every legal first action, the nodes
    searched and the time. A search past its budget answers 'unknown'. Exit code 1 on bad
    input (one located line) and, with --check, when an answer differs from the stated one.
    """
    budget = Budget(budget_nodes, budget_seconds, max_memory)
    if position is not None:
        checked = check_puzzle(_single(source, position, question))
        emit(checked, solve_one(checked, budget), as_json=as_json, check=False, quiet=quiet)
        return
    if question is not None:
        raise KifuError("--question goes with GAME POSITION; a puzzle file states its own")
    count = bad = 0
    located = iter_puzzles((source,)) if db is None else archive_puzzles(db, source)
    for lp in located:
        checked = check_puzzle(lp)
        sol = solve_one(checked, budget)
        count += 1
        if not (quiet and check and not as_json):
            emit(checked, sol, as_json=as_json, check=check, quiet=quiet)
        if check and (checked.puzzle.answer is None or sol.answer != checked.puzzle.answer):
            bad += 1
            why = ("no stated answer" if checked.puzzle.answer is None else
                   why_unknown(sol) if sol.answer == UNKNOWN else
                   f"stated {checked.puzzle.answer!r}, solved {sol.answer!r}")
            click.echo(f"{lp.where()}: {checked.puzzle.question}: {why}", err=True)
    if check and not as_json and not quiet:
        click.echo(f"{count} puzzle(s), {count - bad} answer(s) verified"
                   + (f", {bad} wrong" if bad else ""))
    if bad:
        raise SystemExit(1)


def _single(game_name: str, position: str, question: str | None) -> LocatedPuzzle:
    if question is None:
        raise KifuError("give --question Q with GAME POSITION")
    game = games.get(game_name)
    rules = position.split(" ", 1)[0]
    return LocatedPuzzle(Puzzle(game.id, rules, " ".join(position.split()), question),
                         "<command line>", 1,
                         options={"Game": "GAME", "Rules": "POSITION", "Position": "POSITION",
                                  "Question": "--question"})
