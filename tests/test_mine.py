"""``kifu puzzles mine`` (issue 25): every mined puzzle re-solves to its stated answer, has a
unique winning first action where its themes say so (``only-move``), and names a source
that exists (the record, and the position after the ply it names); duplicates are dropped;
the same puzzles on any number of workers; mining an archive stores the puzzles in it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.lab.analyze import Job
from kifu.lab.mine import mine, mine_record
from kifu.notation.files import load_records
from kifu.notation.puzzle import check_puzzle, load_puzzles, parse_puzzles
from kifu.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
SOURCES = [
    *sorted(FIX.glob("*/missed-win-*.kifu")),
    FIX / "tweak" / "single-round-3p.kifu", FIX / "towai" / "3p-draw.kifu",
    FIX / "lianxian" / "3p-combos.kifu", FIX / "graph-t" / "3p-grey-wins.kifu",
]
_SOURCE = re.compile(r"(.+)#([0-9]+)@ply([0-9]+)\Z")
_PLAYED = re.compile(r"Played in the game: (p[0-9]+ .+?) \(")


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def mined(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("mine") / "mined.kifu"
    run("puzzles", "mine", *map(str, SOURCES), "-o", str(out), "-q")
    return out


def test_every_game_gives_puzzles(mined: Path) -> None:
    found = {p.game for p in parse_puzzles(mined.read_text(encoding="utf-8"))}
    assert found == set(games.ids())


def test_mined_puzzles_resolve_to_their_answers(mined: Path) -> None:
    out = [json.loads(x) for x in run("solve", str(mined), "--check", "--json").output.split(
        "\n") if x.strip()]
    puzzles = parse_puzzles(mined.read_text(encoding="utf-8"))
    assert len(out) == len(puzzles) > 5
    for o, p in zip(out, puzzles, strict=True):
        assert o["agrees"], o
        themes = p.tags["Themes"].split()
        assert ("only-move" in themes) == (o["winning"] == 1)
        assert o["winning"] < len(o["values"])  # something to get wrong
        assert p.question in themes


def test_sources_exist_and_hold_the_position(mined: Path) -> None:
    for lp in load_puzzles(str(mined)):
        p = lp.puzzle
        m = _SOURCE.match(p.source)
        assert m, p.source
        path, index, ply = Path(m.group(1)), int(m.group(2)), int(m.group(3))
        assert path.exists()
        locs = list(load_records(str(path)))
        loc = locs[index - 1]
        state = replay(loc, upto=ply, check_result=False).state
        assert state.to_line() == p.position
        move = loc.record.moves[ply]  # the action played there
        played = _PLAYED.match(p.comment).group(1)
        game = games.get(p.game)
        action = game.parse_action(state, move.text)
        assert played == f"{move.actor} {game.format_action(state, action)}"
        checked = check_puzzle(lp)
        assert checked.question.spec == p.question
        # a missed puzzle: the move played is not the solution's first action
        assert p.solution and p.solution[0] != played


def test_found_puzzles_were_played(tmp_path: Path) -> None:
    path = FIX / "tweak" / "single-round-3p.kifu"
    (loc,) = load_records(str(path))
    puzzles = mine_record(loc, file=str(path), found=True)
    assert puzzles
    for p in puzzles:
        played = _PLAYED.match(p.comment).group(1)
        assert "found it" in p.comment
        assert p.solution[0] == played


def test_duplicates_and_workers(tmp_path: Path) -> None:
    path = str(FIX / "tweak" / "missed-win-2p.kifu")
    once = run("puzzles", "mine", path, "-q").output
    twice = run("puzzles", "mine", path, path, "-q").output
    assert once == twice and once.count("[Game ") >= 1
    files = [str(p) for p in SOURCES[:4]]
    one = run("puzzles", "mine", *files, "-q").output
    two = run("puzzles", "mine", *files, "-q", "-w", "2", "--chunk-size", "1").output
    assert one == two


def test_theme_filter() -> None:
    jobs = [Job(loc, str(p), i) for p in SOURCES for i, loc in enumerate(load_records(str(p)), 1)]
    every = list(mine(jobs))
    only = list(mine(jobs, theme="only-move"))
    assert only and len(only) < len(every)
    assert all("only-move" in p.tags["Themes"].split() for p in only)


def test_mine_an_archive_and_store_the_puzzles(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    run("archive", "import", *map(str, SOURCES[:5]), "--db", str(db), "-q")
    out = tmp_path / "m.kifu"
    r = run("puzzles", "mine", "--db", str(db), "-o", str(out))
    assert "stored" in r.output
    puzzles = parse_puzzles(out.read_text(encoding="utf-8"))
    assert puzzles
    from kifu.archive import Archive

    with Archive(str(db), readonly=True) as a:
        stored = list(a.iter_puzzles())
        ids = {row["id"] for row in a.query(columns=("id",))}
        texts = {row["id"]: row["text"] for row in a.query(columns=("id", "text"))}
    assert len(stored) == len(puzzles)
    for row, p in zip(stored, puzzles, strict=True):
        assert row["source"] == p.source
        m = re.match(r"(.+)#id=([0-9]+)@ply([0-9]+)\Z", p.source)
        assert m and m.group(1) == str(db) and int(m.group(2)) in ids
        from kifu.notation.reader import parse_record

        rec = parse_record(texts[int(m.group(2))])
        assert replay(rec, upto=int(m.group(3)), check_result=False).state.to_line() \
            == p.position
    r = run("puzzles", "mine", "--db", str(db), "-q")  # again: nothing new stored
    r = CliRunner().invoke(cli, ["puzzles", "mine", "--db", str(db)])
    assert "0 puzzle(s) stored" in r.output


def test_usage_errors() -> None:
    r = CliRunner().invoke(cli, ["puzzles", "mine"])
    assert r.exit_code != 0 and "--db ARCHIVE" in r.output


def test_several_questions_are_the_union_of_each() -> None:
    """``-Q A -Q B`` (issue 37: Lianxian's corpus is mined for ``lianxian-least-bonus K``
    beside its own questions): the puzzles of each question asked alone, merged in ply
    order, each re-solving to its answer."""
    path = FIX / "lianxian" / "3p-combos.kifu"
    (loc,) = load_records(str(path))
    specs = ["lianxian-best", "lianxian-least-bonus 4", "lianxian-least-bonus 6"]
    each = [mine_record(loc, file=str(path), question=s) for s in specs]
    both = mine_record(loc, file=str(path), question=specs)
    assert sorted(p.source + p.question for p in both) == sorted(
        p.source + p.question for ps in each for p in ps)
    plies = [int(p.source.rsplit("@ply", 1)[1]) for p in both]
    assert plies == sorted(plies)
    assert len({p.question for p in both}) >= 2
    cli_out = run("puzzles", "mine", str(path), *(x for s in specs for x in ("-Q", s)),
                  "--no-rating", "--near-duplicates", "-q").output
    assert sorted(p.position + p.question for p in parse_puzzles(cli_out)) == sorted(
        p.position + p.question for p in both)
    from kifu.puzzles import get_question

    game = games.get("lianxian")
    for p in both:
        assert get_question(p.question).solve(game.from_line(p.position)).answer == p.answer
