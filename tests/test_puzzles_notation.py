"""The puzzle notation: reading, canonical writing, JSON, and the located checks."""

from __future__ import annotations

import pytest

from kifu.core.errors import NotationError
from kifu.notation.puzzle import (
    Puzzle,
    check_puzzle,
    format_puzzle,
    format_puzzles,
    load_puzzles,
    puzzle_json_schema,
    puzzle_to_json,
    puzzles_from_json,
    read_puzzles,
)
from kifu.puzzles import get_question, questions_for

POS = ("tweak/1 T0 r1d1 t7 0,0,0 R2O3/O1G4/R5O6 O1Y6 - !T!S!B!J!T!T!J!S!J!T "
       "R3O2O4O5Y4G2G5/R1R2R3O2O3Y1Y1Y3Y3G1G1G2G3G6/R1R4R6Y2Y2Y5G3 -/-/-")
TEXT = f"""[Game "tweak"]
[Rules "tweak/1"]
[Position "{POS}"]
[Question "tweak-this-turn"]
[Answer "no"]
[Solution "p0 R2"]
[Difficulty "nodes=8 line=0 failing=2"]
[Source "g.kifu#1@ply30"]
[Author "kifu tests"]

{{No capture reaches 7 with both table cards.}}
"""


def one(text: str):
    (lp,) = list(read_puzzles(text, path="p.kifu"))
    return lp


def test_round_trip_text_and_json() -> None:
    lp = one(TEXT)
    p = lp.puzzle
    assert p.tags == {"Author": "kifu tests"} and p.solution == ["p0 R2"]
    assert format_puzzle(p) == TEXT
    two = format_puzzles([p, p])
    assert [x.puzzle for x in read_puzzles(two)] == [p, p]
    back = puzzles_from_json(puzzle_to_json(p))
    assert back[0].puzzle == p
    assert "properties" in str(puzzle_json_schema()) or "$defs" in puzzle_json_schema()


def test_rules_defaults_to_the_position() -> None:
    text = TEXT.replace('[Rules "tweak/1"]\n', "")
    assert one(text).puzzle.rules == "tweak/1"


def test_check_gives_canonical_puzzle() -> None:
    checked = check_puzzle(one(TEXT.replace('"no"', '" no "')))
    assert checked.puzzle.answer == "no" and checked.question.spec == "tweak-this-turn"


@pytest.mark.parametrize(
    ("old", "new", "where", "words"),
    [
        ('"tweak-this-turn"', '"tweak-sometime"', "p.kifu:4:", "unknown question"),
        ('"tweak-this-turn"', '"double-dummy"', "p.kifu:4:", "is for graph-t"),
        ('[Answer "no"]', '[Answer "maybe"]', "p.kifu:5:10", "bad answer"),
        ('[Answer "no"]', '[Answer "possible p=1"]', "p.kifu:5:", "p = 1 is forced"),
        (f'"{POS}"', '"graph-t/1 R1Y2G/B1K6G -/- - p0 p0 -"', "p.kifu:3:",
         "position is of game 'graph-t'"),
        (f'"{POS}"', f'"{POS[:-6]}"', "p.kifu:3:", ""),
        ('[Game "tweak"]', '[Game "chess"]', "p.kifu:1:", "unknown game"),
        ('"p0 R2"', '"p1 R2"', "p.kifu:6:", "p0 is to move"),
        ('"p0 R2"', '"p0 R2; p1 Z9"', "p.kifu:6:", "item 2"),
        ('[Rules "tweak/1"]', '[Rules "tweak/1;rounds=1"]', "p.kifu:2:", "differs"),
    ],
)
def test_bad_puzzles_get_one_located_line(old, new, where, words) -> None:
    assert old in TEXT
    with pytest.raises(NotationError) as e:
        check_puzzle(one(TEXT.replace(old, new)))
    msg = str(e.value)
    assert msg.startswith(where) and words in msg and "\n" not in msg


def test_actions_and_missing_headers_are_syntax_errors() -> None:
    with pytest.raises(NotationError, match=r"p.kifu:12:1: a puzzle has no actions"):
        one(TEXT + "p0 R2\n")
    with pytest.raises(NotationError, match="no Question header"):
        one(TEXT.replace('[Question "tweak-this-turn"]\n', ""))


def test_json_errors_name_the_puzzle(tmp_path) -> None:
    p = one(TEXT).puzzle
    bad = Puzzle(p.game, p.rules, p.position, "nonsense")
    path = tmp_path / "p.json"
    path.write_bytes(b"[" + puzzle_to_json(p) + b"," + puzzle_to_json(bad) + b"]")
    lps = list(load_puzzles(str(path)))
    check_puzzle(lps[0])
    with pytest.raises(NotationError, match=r"p.json: puzzle 2: unknown question"):
        check_puzzle(lps[1])
    with pytest.raises(NotationError, match="bad JSON puzzle"):
        puzzles_from_json('{"game": 3}')


def test_registry() -> None:
    assert get_question("tweak-within 3").value == 3
    assert "tweak-this-turn" in questions_for("tweak")
    assert questions_for("graph_t") == ["double-dummy"]
    for bad in ("tweak-within", "tweak-this-turn 2", "tweak-within 0", "Tweak", "x  2"):
        with pytest.raises(NotationError):
            get_question(bad)
