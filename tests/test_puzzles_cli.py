"""``kifu solve`` and ``kifu puzzles generate``: the bundled puzzles verify, generated
puzzles re-solve with a unique winning first action, output does not depend on --workers,
and bad puzzle input is one located line with exit code 1."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kifu.notation.puzzle import check_puzzle, load_puzzles, puzzle_json_schema

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "fixtures" / "puzzles"


def test_bundled_puzzles_check(run) -> None:
    r = run("solve", "--check", str(PUZZLES))
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().split("\n")
    count = sum(1 for _ in load_puzzles(str(PUZZLES / "tweak.kifu")))
    assert count >= 20 and sum(1 for _ in load_puzzles(str(PUZZLES / "graph-t.kifu"))) >= 20
    assert lines[-1].endswith("answer(s) verified") and "wrong" not in lines[-1]
    assert all(ln.endswith("  ok") for ln in lines[:-1])


def test_bundled_puzzles_cover_what_the_issue_asks() -> None:
    answers = {}
    players = set()
    for f in ("tweak.kifu", "graph-t.kifu"):
        for lp in load_puzzles(str(PUZZLES / f)):
            c = check_puzzle(lp)
            answers.setdefault(c.puzzle.question, set()).add(c.puzzle.answer)
            if c.game.id == "graph-t":
                players.add(c.state.n)
            for tok in ("!J", "!S", "!T", "!B"):
                if c.puzzle.solution and any(tok in x for x in c.puzzle.solution[:1]):
                    answers.setdefault("t-kinds", set()).add(tok)
    assert answers["t-kinds"] == {"!J", "!S", "!T", "!B"}
    tt = answers["tweak-this-turn"]
    assert {"forced", "no", "possible p=0"} <= tt
    assert any(a.startswith("possible p=") and a != "possible p=0" for a in tt)
    assert players == {2, 3, 4}


def test_a_wrong_stated_answer_fails_by_file_and_line(run, tmp_path) -> None:
    text = (PUZZLES / "tweak.kifu").read_text().replace('[Answer "possible p=2/3"]',
                                                         '[Answer "possible p=1/3"]', 1)
    (tmp_path / "p.kifu").write_text(text)
    r = run("solve", "--check", "p.kifu")
    assert r.exit_code == 1
    assert "p.kifu:34: tweak-this-turn: stated 'possible p=1/3', solved 'possible p=2/3'" \
        in r.stderr


@pytest.mark.parametrize(("old", "new", "where"), [
    ('[Question "tweak-this-turn"]', '[Question "tweak-somehow"]', "p.kifu:4:"),
    ('[Answer "forced"]', '[Answer "sure"]', "p.kifu:5:"),
    ('[Position "tweak/1 T0', '[Position "graph-t/1 T0', "p.kifu:3:"),
])
def test_bad_puzzle_input_is_one_located_line(run, tmp_path, old, new, where) -> None:
    text = (PUZZLES / "tweak.kifu").read_text().replace(old, new, 1)
    (tmp_path / "p.kifu").write_text(text)
    r = run("solve", "p.kifu")
    assert r.exit_code == 1
    err = r.stderr.strip()
    assert err.startswith(where) and "\n" not in err and "Traceback" not in r.output


def test_solve_one_position_json_and_budget(run) -> None:
    pos = "tweak/1 T0 r1d2 t7 0,0,0 G3/R3O3O5/Y3Y5G5 Y1 - !J -/-/- !T/-/-"
    r = run("solve", "tweak", pos, "--question", "tweak-this-turn", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["answer"] == "possible p=2/3" and out["winning"] == 1
    assert {v["action"]: v["value"] for v in out["values"]}["p0 !T p2"] == "possible p=1/3"
    r = run("solve", "tweak", pos, "--question", "tweak-within 3", "--budget-nodes", "3")
    assert r.exit_code == 0 and "answer: unknown" in r.stdout
    r = run("solve", "graph-t", pos, "--question", "tweak-this-turn")
    assert r.exit_code == 1 and "position is of game 'tweak'" in r.stderr


def test_generated_puzzles_resolve_unique_and_ignore_workers(run, tmp_path) -> None:
    args = ("puzzles", "generate", "tweak", "-Q", "tweak-this-turn", "-n", "3", "--seed", "5")
    r1 = run(*args, "-o", "a.kifu")
    r2 = run(*args, "-o", "b.kifu", "--workers", "2")
    assert r1.exit_code == 0 and r2.exit_code == 0, r1.output + r2.output
    a, b = (tmp_path / "a.kifu").read_text(), (tmp_path / "b.kifu").read_text()
    assert a == b
    found = list(load_puzzles(str(tmp_path / "a.kifu")))
    assert len(found) == 3
    for lp in found:
        c = check_puzzle(lp)
        sol = c.question.solve(c.state)
        assert sol.answer == c.puzzle.answer and sol.winning == 1
    r = run("solve", "--check", "a.kifu")
    assert r.exit_code == 0


def test_generate_double_dummy(run, tmp_path) -> None:
    r = run("puzzles", "generate", "graph-t", "-Q", "double-dummy", "-n", "2", "--seed", "3",
            "--players", "2", "-o", "g.kifu")
    assert r.exit_code == 0, r.output
    for lp in load_puzzles(str(tmp_path / "g.kifu")):
        c = check_puzzle(lp)
        assert c.question.solve(c.state).winning == 1


def test_schema_puzzle(run) -> None:
    r = run("schema", "puzzle")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == puzzle_json_schema()
    assert "position" in json.loads(r.stdout)["$defs"]["Puzzle"]["properties"]
    assert run("schema").exit_code == 0


def _exit_process(n: int) -> int:
    os._exit(3)


def test_crashed_local_worker_names_its_chunk() -> None:
    from kifu.core.errors import KifuError
    from kifu.core.executor import map_chunks

    with pytest.raises(KifuError, match=r"chunk 0 failed: BrokenProcessPool"):
        list(map_chunks(_exit_process, range(3), workers=2))


def test_dask_without_the_extra_says_how_to_install(monkeypatch) -> None:
    import sys

    from kifu.core.errors import KifuError
    from kifu.core.executor import map_chunks

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(KifuError, match=r"pip install 'kifu\[dask\]'"):
        list(map_chunks(abs, [1], dask="local"))


def test_validate_reads_puzzle_files(run, tmp_path) -> None:
    """Puzzles without comments (no body) are still separate blocks for kifu validate."""
    import msgspec

    from kifu.notation.puzzle import format_puzzles

    bare = [msgspec.structs.replace(lp.puzzle, comment=None)
            for lp in load_puzzles(str(PUZZLES / "tweak.kifu"))][:3]
    text = format_puzzles(bare)
    assert "{" not in text
    (tmp_path / "bare.kifu").write_text(text)
    r = run("validate", "bare.kifu")
    assert r.exit_code == 0 and "3 of 3 record(s) valid" in r.stdout, r.output
    (tmp_path / "bad.kifu").write_text(text.replace('"tweak-this-turn"', '"tweak-this-tun"', 1))
    r = run("validate", "bad.kifu")
    assert r.exit_code == 1 and r.stderr.startswith("bad.kifu:4:"), r.output


def test_every_question_is_documented_in_docs_puzzles() -> None:
    """Each registered question has its own section in docs/puzzles.md, whatever its game
    (not only in docs/rules/<game>.md)."""
    import re
    from pathlib import Path

    from kifu.puzzles import QUESTIONS, question_class

    doc = (Path(__file__).resolve().parent.parent / "docs" / "puzzles.md").read_text()
    headings = re.findall(r"^### `([a-z0-9-]+)", doc, re.M)
    missing = [q for q in QUESTIONS if q not in headings]
    assert not missing, f"docs/puzzles.md has no section for {missing}"
    for name in QUESTIONS:
        game = question_class(name).game
        row = next(line for line in doc.splitlines() if line.startswith("| ")
                   and f"`{name}" in line)
        assert row, (name, game)
