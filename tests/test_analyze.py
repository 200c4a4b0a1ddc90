"""``kifu analyze`` (issue 25): the analysis fixtures (one missed win each, one clean game),
values equal to ``kifu solve`` and to the naive brute forces, the marks, the summary, the
annotated records (validate, round trip, the same game in an archive), the JSON lines and
their schema, and the same output on any number of workers."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import brute
import msgspec
import pytest
from click.testing import CliRunner
from conftest import FIXTURES as FIX
from conftest import ROOT

from kifu import games
from kifu.cli.main import cli
from kifu.lab.analyze import (
    DEFAULT_QUESTIONS,
    SCALES,
    Limits,
    PlyReport,
    RecordSummary,
    analyze_record,
    judge,
    scale_of,
    worst_mark,
)
from kifu.notation.files import load_records
from kifu.notation.puzzle import Puzzle, format_puzzles
from kifu.notation.reader import parse_record, read_records
from kifu.notation.record import format_record, identity_text, record_from_json, record_to_json
from kifu.puzzles import QUESTIONS, ActionValue, Solution, get_question

MISSED = sorted(FIX.glob("*/missed-win-*.kifu"))
CLEAN = sorted(FIX.glob("*/no-blunder-*.kifu"))
ANALYSED = MISSED + CLEAN


def rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def json_lines(*args: str) -> list[dict]:
    return [json.loads(line) for line in run("analyze", *args, "--json", "-q").splitlines()
            if line.strip()]


EXACT = Limits(level=None)
"""The exact questions alone (no value judgement): what the checks of exact values need."""


@pytest.fixture(scope="module")
def analyses() -> dict[Path, list]:
    """Each analysis fixture's analysis by the exact questions alone (by the library; the
    CLI is checked against it)."""
    out = {}
    for path in ANALYSED:
        (loc,) = load_records(str(path))
        out[path] = analyze_record(loc, file=rel(path), limits=EXACT)
    return out


def exact_marks(plies, mark: str) -> list[int]:
    """The plies where an exact question (not the value judgement) gives ``mark``."""
    return [p["ply"] if isinstance(p, dict) else p.ply for p in plies
            if any((j["question"] if isinstance(j, dict) else j.question) != "value"
                   and (j.get("mark") if isinstance(j, dict) else j.mark) == mark
                   for j in (p["judgements"] if isinstance(p, dict) else p.judgements))]


def test_every_game_has_its_analysis_fixtures() -> None:
    for gid in games.ids():
        assert (FIX / gid).glob("missed-win-*.kifu"), gid
        names = {p.parent.name for p in MISSED} & {p.parent.name for p in CLEAN}
        assert gid in names, f"{gid}: no missed-win / no-blunder record"
        readme = (FIX / gid / "README.md").read_text(encoding="utf-8")
        for p in FIX.glob(f"{gid}/*-*p.kifu"):
            if p.name.startswith(("missed-win-", "no-blunder-")):
                assert f"`{p.name}`" in readme, f"{p.name} is not in its README"


@pytest.mark.parametrize("path", MISSED, ids=rel)
def test_the_missed_win_is_the_only_double_question_mark(path: Path) -> None:
    rec = parse_record(path.read_text(encoding="utf-8"))
    ply = int(re.search(r"missed win at ply ([0-9]+)", rec.comment or "").group(1))
    lines = json_lines(str(path))  # the default: the value judgement and the exact questions
    plies = [o for o in lines if o["kind"] == "ply"]
    assert exact_marks(plies, "??") == [ply]  # as before the value judgement
    (missed,) = [o for o in plies if o["ply"] == ply]
    assert missed["mark"] == "??" and missed["mark_from"] != "value"  # the proven one
    j = next(j for j in missed["judgements"] if j.get("mark") == "??"
             and j["question"] != "value")
    scale = scale_of(j["question"].split(" ")[0])
    assert scale.win(j["value"]) and not scale.win(j["played"])  # a forced win, thrown away
    assert not j.get("is_best", True) and j["best"]
    summary = lines[-1]
    assert summary["kind"] == "summary"
    seat = summary["seats"][missed["seat"]]
    assert seat["wins_missed"] >= 1 and seat["judged"] >= 1
    exact = [o for o in json_lines(str(path), "--level", "off") if o["kind"] == "ply"]
    assert [o["ply"] for o in exact if o.get("mark") == "??"] == [ply]


@pytest.mark.parametrize("path", CLEAN, ids=rel)
def test_a_clean_record_gets_no_double_question_mark(path: Path, analyses) -> None:
    """No exact question proves a thrown-away win (the value judgement may still find
    blunders by its own measure: these are bot games)."""
    a = analyses[path]
    assert all(p.mark != "??" for p in a.plies)
    assert any(scale_of(j.question.split(" ")[0]).win(j.value) and j.is_best
               for p in a.plies for j in p.judgements
               if scale_of(j.question.split(" ")[0]).win is not None)
    assert sum(s.wins_missed for s in a.summary.seats) == 0


@pytest.mark.parametrize("path", ANALYSED, ids=rel)
def test_every_judged_value_is_what_kifu_solve_says(path: Path, analyses, tmp_path) -> None:
    """Each judged position, asked by `kifu solve` as a puzzle (the value stated as its
    answer): the answers agree, and the action played has the value the analysis gives."""
    a = analyses[path]
    game = a.summary.game
    puzzles, played = [], []
    for p in a.plies:
        for j in p.judgements:
            puzzles.append(Puzzle(game, p.position.split(" ")[0], p.position, j.question,
                                  answer=j.value))
            played.append((f"{p.actor} {p.action}", j.played, j))
    assert puzzles, "nothing judged"
    file = tmp_path / "judged.kifu"
    file.write_text(format_puzzles(puzzles), encoding="utf-8")
    out = [json.loads(x) for x in run("solve", str(file), "--check", "--json").splitlines()]
    assert len(out) == len(puzzles)
    for o, (action, value, j) in zip(out, played, strict=True):
        assert o["agrees"], o
        values = {v["action"]: v["value"] for v in o["values"]}
        assert values[action] == value
        assert j.best_count == o["winning"]
        assert j.legal == len(o["values"])


SMALL = 9
"""Cards in play (hands and table) up to which the brute force checks a TWEAK or GRAPH-T
position."""


def _brute(game_id: str, question: str, state, action):
    """(the position's value, the action's) by the naive brute force of tests/brute.py."""
    child = state.copy()
    child.apply(action)
    if question == "tweak-this-turn":
        value, per = brute.this_turn_answer(state)
        return value, per[state.legal_actions().index(action)]
    if question == "best-points":
        player, start, rnd = state.mover, state.totals[state.mover], state.round
        v = brute.best_points(state, player, start, rnd)
        c = brute.best_points(child, player, start, rnd)
        return f"points={v}", f"points={c}"
    if question == "double-dummy":
        player = state.to_move

        def text(v):
            return f"place {-v[0]} shared {-v[1]} tallest {v[2]} second {v[3]}"

        return text(brute.dd_value(state, player)), text(brute.dd_value(child, player))
    return None


def _cards(game_id: str, state) -> int:
    if game_id == "tweak":
        return sum(len(h) for h in state.hands) + len(state.table) + len(state.deck_left())
    return sum(state.hand(s).bit_count() for s in range(state.n))


@pytest.mark.parametrize("path", [p for p in ANALYSED if p.parent.name in ("tweak", "graph-t")],
                         ids=rel)
def test_small_positions_agree_with_the_brute_force(path: Path, analyses) -> None:
    a = analyses[path]
    game = games.get(a.summary.game)
    checked = 0
    for p in a.plies:
        state = game.from_line(p.position)
        if _cards(game.id, state) > SMALL:
            continue
        action = game.parse_action(state, p.action)
        for j in p.judgements:
            got = _brute(game.id, j.question, state, action)
            if got is None:
                continue
            assert got == (j.value, j.played), (p.ply, j.question)
            checked += 1
    assert checked, "no small position in the record"


# --- the marks ---------------------------------------------------------------------------


def _sol(answer: str, values: list[tuple[str, str]]) -> Solution:
    avs = [ActionValue(a, v) for a, v in values]
    return Solution(answer, avs, [], 1, 0.0, True, sum(v == answer for _, v in values))


@pytest.mark.parametrize("answer, values, played, mark, loss", [
    ("forced", [("p0 A", "forced"), ("p0 B", "no")], "p0 B", "??", 1.0),
    ("forced", [("p0 A", "forced"), ("p0 B", "possible p=1/2")], "p0 B", "??", 0.5),
    ("forced", [("p0 A", "forced"), ("p0 B", "no")], "p0 A", "!", 0.0),
    ("forced", [("p0 A", "forced"), ("p0 B", "forced")], "p0 A", None, 0.0),
    ("possible p=2/3", [("p0 A", "possible p=2/3"), ("p0 B", "possible p=1/3")], "p0 B", "?",
     1 / 3),
    ("possible p=1/3", [("p0 A", "possible p=1/3"), ("p0 B", "no")], "p0 B", "?", 1 / 3),
    ("possible p=0", [("p0 A", "possible p=0"), ("p0 B", "no")], "p0 B", None, 0.0),
    ("no", [("p0 A", "no"), ("p0 B", "no")], "p0 B", None, 0.0),
])
def test_marks_of_tweak_this_turn(answer, values, played, mark, loss) -> None:
    j = judge(get_question("tweak-this-turn"), _sol(answer, values), played, 2)
    assert j is not None and j.mark == mark and j.loss == pytest.approx(loss, abs=1e-6)
    assert j.is_best == (mark in (None, "!")) or (answer, played) == ("possible p=0", "p0 B")
    assert (j.note is not None) == (mark is not None or not j.is_best)  # every verdict in words


def test_zero_loss_and_trivial_only_moves_get_words_not_marks() -> None:
    q = get_question("tweak-this-turn")
    j = judge(q, _sol("possible p=0", [("p0 A", "possible p=0"), ("p0 B", "no")]), "p0 B", 2)
    assert j.mark is None and not j.is_best and "help" in j.note and j.loss == 0
    only = _sol("forced", [("p0 A", "forced"), ("p0 B", "no")])
    assert judge(q, only, "p0 A", 2).mark == "!"
    assert judge(q, only, "p0 A", 2, default="p0 A").mark is None  # greedy finds it too
    assert judge(q, only, "p0 A", 2, default="p0 B").mark == "!"


def test_marks_of_points_and_places() -> None:
    q = get_question("best-points")
    j = judge(q, _sol("points=12", [("p0 A", "points=12"), ("p0 B", "points=9")]), "p0 B", 3)
    assert (j.mark, j.loss, j.unit, j.best) == ("?", 3.0, "points", ["p0 A"])
    j = judge(q, _sol("points=12", [("p0 A", "points=12"), ("p0 B", "points=9")]), "p0 A", 3)
    assert j.mark is None  # no win in best-points: no ! either
    dd = get_question("double-dummy")
    first = "place 1 shared 1 tallest 300 second 60"
    shared = "place 1 shared 2 tallest 240 second 60"
    second = "place 2 shared 1 tallest 240 second 120"
    j = judge(dd, _sol(first, [("p0 A", first), ("p0 B", shared), ("p0 C", second)]), "p0 C",
              4)
    assert (j.mark, j.loss, j.unit) == ("??", 1.0, "places")  # 3 seats below -> 2
    j = judge(dd, _sol(first, [("p0 A", first), ("p0 B", shared)]), "p0 B", 4)
    assert (j.mark, j.loss) == ("?", 0.5)  # a shared first place is still a win
    lower = "place 1 shared 1 tallest 240 second 60"
    j = judge(dd, _sol(first, [("p0 A", first), ("p0 B", lower)]), "p0 B", 4)
    assert (j.mark, j.loss, j.is_best) == (None, 0.0, False) and "stack" in j.note
    assert judge(dd, _sol(first, [("p0 A", first)]), "p0 Z", 4) is None
    assert worst_mark(["!", None, "?", "??"]) == "??" and worst_mark([None]) is None
    assert worst_mark(["!", "?!"]) == "?!" and worst_mark(["?!", "?"]) == "?"


def test_every_question_has_a_scale_that_orders_its_answers() -> None:
    assert set(SCALES) == set(QUESTIONS)
    for game_id, names in DEFAULT_QUESTIONS.items():
        assert all(get_question(n).game == game_id for n in names)
    s = SCALES["tweak-this-turn"]
    order = ["no", "possible p=0", "possible p=1/3", "possible p=1/2", "forced"]
    assert sorted(order, key=s.key) == order
    s = SCALES["tweak-within"]
    order = ["no", "yes turns=3", "yes turns=1"]
    assert sorted(order, key=s.key) == order
    s = SCALES["lianxian-least-bonus"]
    assert sorted(["bonus=0", "none", "bonus=4"], key=s.key) == ["none", "bonus=4", "bonus=0"]


# --- the command -------------------------------------------------------------------------


def test_json_lines_follow_the_schema_and_match_the_library() -> None:
    path = MISSED[0]
    lines = run("analyze", str(path), "--json", "-q").splitlines()
    decoder = msgspec.json.Decoder(PlyReport | RecordSummary)
    objs = [msgspec.structs.replace(decoder.decode(line), file=rel(path)) for line in lines]
    (loc,) = load_records(str(path))
    a = analyze_record(loc, file=rel(path))
    assert objs[:-1] == a.plies and objs[-1] == a.summary
    schema = json.loads(run("schema", "analysis"))
    assert set(schema["discriminator"]["mapping"]) == {"ply", "summary"}
    assert schema["discriminator"]["propertyName"] == "kind"


def test_the_annotated_record_is_the_same_game(tmp_path: Path) -> None:
    path = MISSED[0]
    out = tmp_path / "annotated.kifu"
    run("analyze", str(path), "-o", str(out), "-q")
    text = out.read_text(encoding="utf-8")
    rec = parse_record(text)
    orig = parse_record(path.read_text(encoding="utf-8"))
    (loc,) = load_records(str(path))
    assert rec == analyze_record(loc, file=rel(path)).record
    assert "??" in [m.mark for m in rec.moves] and "[%value " in text
    assert "[%value value: " in text and "[%shares " in text and "[%markby " in text
    assert identity_text(rec) == identity_text(orig) and rec.content_hash() == orig.content_hash()
    assert format_record(rec) == text and record_from_json(record_to_json(rec)) == rec
    run("validate", str(out))
    # analysing the annotated record again changes nothing (tokens replaced, not added)
    again = tmp_path / "again.kifu"
    run("analyze", str(out), "-o", str(again), "-q")
    assert again.read_text(encoding="utf-8") == text
    # an archive stores the game once
    db = tmp_path / "a.db"
    run("archive", "import", str(path), "--db", str(db))
    res = CliRunner().invoke(cli, ["archive", "import", str(out), "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "1 duplicate" in res.output or "duplicate" in res.output
    from kifu.archive import Archive

    with Archive(str(db), readonly=True) as arch:
        assert arch.stats()["records"] == 1


def test_the_same_output_on_two_workers(tmp_path: Path) -> None:
    files = [str(p) for p in CLEAN[:2]]
    one = run("analyze", *files, "--json", "-q")
    two = run("analyze", *files, "--json", "-q", "--workers", "2", "--chunk-size", "1")
    assert one == two
    text_one = run("analyze", *files, "-q", "-o", str(tmp_path / "a.kifu"))
    text_two = run("analyze", *files, "-q", "-w", "2", "-o", str(tmp_path / "b.kifu"))
    assert text_one == text_two
    assert (tmp_path / "a.kifu").read_bytes() == (tmp_path / "b.kifu").read_bytes()


def test_text_report_question_index_and_errors(tmp_path: Path) -> None:
    path = str(FIX / "tweak" / "missed-win-2p.kifu")
    out = run("analyze", path, "-q")
    assert "??" in out and "seat" in out and "open hands" in out
    only = json_lines(path, "-Q", "best-points")
    assert {j["question"] for o in only if o["kind"] == "ply" for j in o["judgements"]} \
        <= {"best-points"}
    assert json_lines(path, "--index", "1") == json_lines(path, "--records", "all")
    other = json_lines(path, "-Q", "double-dummy")  # not a TWEAK question: nothing asked
    assert [o["kind"] for o in other] == ["summary"] and other[0]["questions"] == []
    r = CliRunner().invoke(cli, ["analyze", path, "--index", "2"])
    assert r.exit_code == 1 and "no record #2" in r.output
    r = CliRunner().invoke(cli, ["analyze", path, "--index", "1", "--records", "all"])
    assert r.exit_code == 1 and "give one of them" in r.output
    r = CliRunner().invoke(cli, ["analyze", path, "-o", path])
    assert r.exit_code == 1 and "also an input" in r.output
    r = CliRunner().invoke(cli, ["analyze", path, "-Q", "no-such-question"])
    assert r.exit_code == 1 and "unknown question" in r.output


def test_a_small_budget_leaves_plies_unjudged() -> None:
    (loc,) = load_records(str(FIX / "tweak" / "no-blunder-2p.kifu"))
    a = analyze_record(loc, limits=Limits(budget_nodes=1, level=None))
    assert a.summary.unsolved > 0
    for p in a.plies:
        assert not {j.question for j in p.judgements} & set(p.unsolved)


def test_open_hand_questions_say_so() -> None:
    (loc,) = load_records(str(FIX / "graph-t" / "missed-win-3p.kifu"))
    a = analyze_record(loc, limits=EXACT)
    assert "double dummy" in a.summary.open_hands["double-dummy"]
    assert all(j.open_hands for p in a.plies for j in p.judgements)
    (loc,) = load_records(str(FIX / "lianxian" / "missed-win-2p.kifu"))
    a = analyze_record(loc, limits=EXACT)
    assert a.summary.open_hands == {}  # Lianxian's questions use the player's own rack


def test_probability_loss_is_exact() -> None:
    s = SCALES["tweak-this-turn"]
    assert s.worth("possible p=2/3", 2) == float(Fraction(2, 3))
    (loc,) = read_records(FIX.joinpath("tweak", "missed-win-2p.kifu").read_text("utf-8"))
    assert loc.record.moves


def test_graph_t_judges_from_k_cards() -> None:
    path = str(FIX / "graph-t" / "missed-win-3p.kifu")
    default = [o for o in json_lines(path, "--level", "off") if o["kind"] == "ply"]
    fewer = [o for o in json_lines(path, "--dd-cards", "3", "--level", "off")
             if o["kind"] == "ply"]
    assert 0 < len(fewer) < len(default)
    game = games.get("graph-t")
    from kifu.lab.analyze import dd_cards

    for o in default:
        state = game.from_line(o["position"])
        assert max(state.hand(s).bit_count() for s in range(state.n)) <= dd_cards(3)
    assert (dd_cards(2), dd_cards(3), dd_cards(4)) == (8, 6, 5)
