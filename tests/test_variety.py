"""Generator variety (issue 25): no near-duplicates unless asked, --theme, balanced kinds of
answer, Themes on every generated puzzle; the same batch on any number of workers."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.lab.generate import generate_puzzles
from kifu.lab.variety import answer_class, balanced, varied
from kifu.notation.puzzle import LocatedPuzzle, check_puzzle, parse_puzzles, puzzle_themes

SOURCE = re.compile(r"generate \S+ seed=\S+ game=([0-9]+)@ply([0-9]+)\Z")
PLAYERS = 3


def gen(*extra: str, n: int = 10) -> list:
    r = CliRunner().invoke(cli, ["puzzles", "generate", "tweak", "-Q", "tweak-this-turn",
                                 "-n", str(n), "--players", str(PLAYERS), "-q", *extra])
    assert r.exit_code == 0, r.output
    return parse_puzzles(r.output)


@pytest.fixture(scope="module")
def raw() -> list:
    """The generator's own stream (what the fixtures use), unfiltered."""
    return list(generate_puzzles("tweak", "tweak-this-turn", count=40, seed=0,
                                 players=PLAYERS))


def _near(puzzles: list) -> list[tuple[int, int, int]]:
    out = []
    where = [tuple(map(int, SOURCE.match(p.source).groups())) for p in puzzles]
    for i, (g, ply) in enumerate(where):
        for g2, ply2 in where[:i]:
            if g == g2 and abs(ply - ply2) < 2 * PLAYERS:
                out.append((g, ply, ply2))
    return out


def test_no_near_duplicates_unless_asked(raw) -> None:
    assert _near(raw), "the raw stream has neighbouring plies (else this test proves nothing)"
    batch = gen(n=12)
    assert not _near(batch)
    assert len({p.position for p in batch}) == len(batch)
    loose = list(varied(iter(raw), count=40, players=PLAYERS, near_duplicates=True,
                        balance=False))
    assert _near(loose) and len(loose) == len(raw)


def test_every_puzzle_has_valid_themes_and_theme_selects() -> None:
    batch = gen(n=8)
    for k, p in enumerate(batch, 1):
        words = puzzle_themes(p)
        assert "tweak-this-turn" in words and "only-move" in words
        check_puzzle(LocatedPuzzle(p, "gen", k))
    thief = gen("--theme", "thief", n=5)
    assert thief and all("thief" in puzzle_themes(p) for p in thief)


def test_answers_are_balanced(raw) -> None:
    count = 8
    first = Counter(answer_class(p.question, p.answer) for p in raw[:count])
    batch = gen(n=count)
    kinds = Counter(answer_class(p.question, p.answer) for p in batch)
    assert len(kinds) >= len(first)
    assert max(kinds.values()) <= max(first.values())
    unbalanced = gen("--no-balance", n=count)
    assert Counter(answer_class(p.question, p.answer) for p in unbalanced) != kinds or \
        len(kinds) == 1


def test_balanced_takes_kinds_in_turn() -> None:
    from kifu.notation.puzzle import Puzzle

    def p(answer: str, i: int) -> Puzzle:
        return Puzzle("tweak", "tweak/1", f"pos{i}", "tweak-this-turn", answer=answer)

    pool = [p("forced", 0), p("forced", 1), p("forced", 2), p("possible p=1/2", 3),
            p("forced", 4), p("possible p=1/3", 5)]
    assert [x.position for x in balanced(pool, 4)] == ["pos0", "pos1", "pos3", "pos5"]
    assert answer_class("double-dummy", "place 1 shared 2 tallest 90 second 30") == \
        "place 1 shared 2"


def test_the_same_batch_on_two_workers() -> None:
    assert gen(n=6) == gen("--workers", "2", n=6)
