"""Issue 21, the reading side: one regression test (or a few) per class of the third
reliability round. Each failed on the main branch before the fix (a traceback, a wrong
answer, an echo of the input, memory without bound) and is a located one-line error now.

Classes: 1 invalid UTF-8 from a file, 2 numbers past Python's 4,300-digit limit, 3
malformed trace files, 5 deeply nested JSON, 7 unbounded reads, 12 lookalikes and
normalisation, 13 reader and writer disagreeing, 14 errors echoing their input. Class 15
(a wrong TOWAI puzzle answer) is in ``tests/test_towai_puzzles.py``.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.core.errors import KifuError, NotationError
from kifu.core.game import parse_actor
from kifu.games.lianxian import board as lx_board
from kifu.notation.files import load_records
from kifu.notation.puzzle import check_puzzle, load_puzzles, puzzles_from_json, read_puzzles
from kifu.notation.reader import parse_records, read_records
from kifu.notation.record import format_record, record_from_json, records_from_json
from kifu.notation.trace import check_trace

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
CARDS = ROOT / "kifu" / "games" / "alice" / "cards" / "default.cards"
BOARD = ROOT / "kifu" / "games" / "lianxian" / "boards" / "default.board"
TOWAI_PUZZLE = (FIX / "puzzles" / "towai.kifu").read_text().split("\n\n")[0] + "\n"


def run(*args: str, stdin: bytes | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def one_line_error(res, *, where: str = "") -> str:
    """The command failed with exit code 1 and one located line, no traceback."""
    assert res.exit_code == 1, (res.exit_code, res.output[-500:], res.exception)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    found = [ln for ln in res.output.split("\n") if ln.startswith(where) and ": " in ln]
    assert found, res.output[-500:]
    return found[0]


def first_block(path: Path) -> str:
    return path.read_text(encoding="utf-8").split("\n\n", 1)[0] + "\n"


# --- class 1: invalid UTF-8 read from a file ------------------------------------------------

BAD_CARDS = CARDS.read_bytes().replace(b"set default", b"set def\xffault", 1)


@pytest.mark.parametrize("command", [
    ["play", "alice", "--cards", "{F}", "-o", "{OUT}"],
    ["record", "alice", "-n", "3", "--cards", "{F}", "-o", "{OUT}"],
    ["validate", "--cards", "{F}", "{REC}"],
    ["replay", "--cards", "{F}", "{REC}"],
    ["solve", "--cards", "{F}", "{REC}"],
])
def test_invalid_utf8_in_a_card_set_is_a_located_error(tmp_path: Path, command) -> None:
    f = tmp_path / "bad.cards"
    f.write_bytes(BAD_CARDS)
    rec = sorted((FIX / "alice").glob("*.kifu"))[0]
    args = [a.format(F=f, OUT=tmp_path / "out.kifu", REC=rec) for a in command]
    last = one_line_error(run(*args), where=f"{f}:")
    assert "invalid UTF-8 (byte 0xff)" in last and f"{f}:2:8:" in last


def test_invalid_utf8_in_puzzle_files_is_a_located_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.kifu"
    f.write_bytes(TOWAI_PUZZLE.encode().replace(b"hand-made", b"hand\xe9made"))
    line = 1 + TOWAI_PUZZLE.split("\n").index('[Source "hand-made"]')
    for args in (["solve", str(f)], ["html", str(f), "-o", str(tmp_path / "p.html")],
                 ["validate", str(f)]):
        last = one_line_error(run(*args), where=f"{f}:{line}:14:")
        assert "invalid UTF-8 (byte 0xe9)" in last
    # the same bytes on stdin: the same error, named <stdin>
    res = run("solve", "-", stdin=f.read_bytes())
    assert one_line_error(res, where=f"<stdin>:{line}:14:")
    assert not (tmp_path / "p.html").exists()


def test_invalid_utf8_in_a_trace_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "tweak.trace").write_bytes((FIX / "traces" / "tweak.trace").read_bytes()
                                           .replace(b"game tweak", b"game tw\xffeak", 1))
    res = run("trace", "check", "tweak", "--dir", str(tmp_path))
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert f"{tmp_path / 'tweak.trace'}:2:8: invalid UTF-8 (byte 0xff)" in res.output


def test_invalid_utf8_in_a_board_file_is_a_located_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.board"
    f.write_bytes(BOARD.read_bytes().replace(b"board default", b"board d\xc3efault", 1))
    with pytest.raises(NotationError, match=r"bad\.board:4:8: invalid UTF-8 \(byte 0xc3\)"):
        lx_board.read_board(f)


# --- class 2: numbers past Python's 4,300-digit limit ---------------------------------------

HUGE = "1" * 4400


def towai_record(first: str) -> str:
    return ('[Game "towai"]\n[Rules "towai/1"]\n[Players "a, b, c"]\n[Date "????.??.??"]\n'
            f'[Result "*"]\n\nd first {first}\n')


def test_a_huge_seat_number_in_an_action_is_a_located_error(tmp_path: Path) -> None:
    f = tmp_path / "huge.kifu"
    f.write_text(towai_record("p" + HUGE))
    for args in (["validate", str(f)], ["replay", str(f)],
                 ["archive", "import", str(f), "--db", str(tmp_path / "a.db")]):
        res = run(*args)
        assert res.exit_code == 1 and "Traceback" not in res.output, res.output[-300:]
        assert f"{f}:7:9:" in res.output
        assert len(res.output) < 2000  # the digits are not echoed
    state = games.get("towai").new_state(3)
    with pytest.raises(NotationError):
        games.get("towai").parse_action(state, "first p" + HUGE)


@pytest.mark.parametrize(("path", "question", "answer"), [
    ("tweak.kifu", "tweak-this-turn", f"possible p={HUGE}/{HUGE}2"),
    ("graph-t.kifu", "double-dummy", f"place 1 shared 1 tallest {HUGE} second 0"),
    ("tweak.kifu", "tweak-this-turn", f"possible p={'1' * 120}/{'1' * 121}"),
])
def test_a_huge_number_in_a_puzzle_answer_is_a_located_error(tmp_path: Path, path, question,
                                                             answer) -> None:
    block = first_block(FIX / "puzzles" / path)
    assert f'[Question "{question}"]' in block
    lines = [ln if not ln.startswith("[Answer ") else f'[Answer "{answer}"]'
             for ln in block.split("\n")]
    f = tmp_path / "p.kifu"
    f.write_text("\n".join(lines))
    last = one_line_error(run("solve", str(f)), where=f"{f}:")
    assert "bad answer" in last and len(last) < 500


# --- class 3: malformed trace files ---------------------------------------------------------

TRACE = (FIX / "traces" / "tweak.trace").read_text().split("\n")
GOOD = "\n".join(TRACE[:40]) + "\n"


@pytest.mark.parametrize("text", [
    "rules tweak/1\n",                                       # rules before game
    "game tweak\nrecord 1 seed 1 players 2 bots random\n",   # record before rules
    "game tweak\nrules tweak/1\nply 0\n",                    # ply before a record
    "game tweak\nrules tweak/1\nrecord 1 seed 1\n",          # no players
    "game tweak\nrules tweak/1\nrecord 1 seed 1 players x bots random\n",
    f"game tweak\nrules tweak/1\nrecord 1 seed 1 players {HUGE} bots random\n",
    "game tweak\nrules tweak/1\nrecord 1 seed 1 players 99 bots random\n",
    "game chess\n",
    "game tweak\nrules tweak/9\n",
    GOOD.replace("action d ", "action q9 ", 1),               # bad actor
    GOOD.replace("action d ", f"action p{HUGE} ", 1),
])
def test_a_malformed_trace_is_a_located_error(tmp_path: Path, text: str) -> None:
    f = tmp_path / "tweak.trace"
    f.write_text(text)
    with pytest.raises(KifuError) as e:
        check_trace(f)
    assert str(e.value).startswith(f"{f}:") and len(str(e.value)) < 600
    res = run("trace", "check", "tweak", "--dir", str(tmp_path))
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_a_trace_cut_short_still_checks_and_a_good_head_passes(tmp_path: Path) -> None:
    f = tmp_path / "t.trace"
    f.write_text(GOOD)
    assert check_trace(f) == 40


def test_parse_actor_raises_kifus_error() -> None:
    for bad in ("q1", "p", "p01", "p" + HUGE, "p١", ""):
        with pytest.raises(NotationError, match="bad actor"):
            parse_actor(bad)


# --- class 5: JSON nested 1,000 deep --------------------------------------------------------

DEEP_RECORDS = [
    "[" * 1000 + "]" * 1000,
    '{"a":' * 1000 + "1" + "}" * 1000,
    '[{"headers": {}, "x": ' + "[" * 1000 + "]" * 1000 + "}]",
    '{"headers": {}, "moves": ' + "[" * 1000 + "]" * 1000 + "}",
]


@pytest.mark.parametrize("doc", DEEP_RECORDS)
def test_deep_json_is_refused_by_every_record_reader(tmp_path: Path, doc: str) -> None:
    f = tmp_path / "deep.json"
    f.write_text(doc)
    for read in (lambda: record_from_json(doc, path="x"), lambda: records_from_json(doc),
                 lambda: list(load_records(str(f)))):
        with pytest.raises(NotationError):
            read()
    res = run("validate", str(f))
    assert res.exit_code == 1 and "Traceback" not in res.output
    res = run("validate", "-", stdin=doc.encode() + b"\n")
    assert res.exit_code == 1 and "Traceback" not in res.output


@pytest.mark.parametrize("doc", DEEP_RECORDS[1:])
def test_deep_json_is_refused_by_the_puzzle_reader(tmp_path: Path, doc: str) -> None:
    with pytest.raises(NotationError, match="nested more than"):
        puzzles_from_json(doc)
    f = tmp_path / "deep.json"
    f.write_text(doc)
    assert "nested more than" in one_line_error(run("solve", str(f)))


def test_json_that_is_not_deep_reads_as_before() -> None:
    text = format_record(parse_records((FIX / "tweak" / "bomb-4p.kifu").read_text())[0])
    rec = parse_records(text)[0]
    from kifu.notation.record import record_to_json

    assert record_from_json(record_to_json(rec)) == rec
    assert records_from_json(b"[" + record_to_json(rec) + b"]") == [rec]


# --- class 7: bounded reads -----------------------------------------------------------------

LIMIT_AS = 1_500_000_000
"""The address space the child may use: main grew to 20 GB on these inputs."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))


def kifu(*args: str, stdin=None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "kifu.cli.main", *args], stdin=stdin,
                          capture_output=True, timeout=300, preexec_fn=_limited, env=env,
                          cwd=cwd)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("args", [
    ["solve", "/dev/zero"],
    ["solve", "-"],
    ["validate", "--cards", "/dev/zero", "x.kifu"],
    ["record", "--resume", "/dev/zero"],
    ["html", "-"],
    ["html", "/dev/zero"],
])
def test_reading_dev_zero_is_a_clear_error_in_bounded_memory(tmp_path: Path, args) -> None:
    with open("/dev/zero", "rb") as zero:
        res = kifu(*args, stdin=zero, cwd=tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 1, err[-500:]
    assert "Traceback" not in err and "MemoryError" not in err
    assert err.count("\n") == 1 and ("at most" in err or "longer than" in err), err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_board_or_trace_file_that_never_ends_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "zero.board").symlink_to("/dev/zero")
    (tmp_path / "tweak.trace").symlink_to("/dev/zero")
    code = (  # in a child with a memory limit: main read both whole
        "import sys\n"
        "from kifu.core.errors import KifuError\n"
        "from kifu.games.lianxian.board import read_board\n"
        "from kifu.notation.trace import check_trace\n"
        "for read, path in ((read_board, 'zero.board'), (check_trace, 'tweak.trace')):\n"
        "    try:\n"
        "        read(path)\n"
        "    except KifuError as e:\n"
        "        print(e)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300,
                         preexec_fn=_limited, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         cwd=tmp_path)
    assert res.returncode == 0, res.stderr.decode()[-500:]
    assert res.stdout.decode().split("\n")[:2] == [
        "zero.board:1:1000001: a board file may have at most 1,000,000 bytes",
        "tweak.trace:1:4000001: a trace file may have at most 4,000,000 bytes"]
    res = kifu("trace", "check", "tweak", "--dir", str(tmp_path))
    assert res.returncode == 1 and b"Traceback" not in res.stderr


# --- class 12: lookalikes and normalisation -------------------------------------------------

SPACES = [chr(c) for c in range(0x80, 0x3100) if chr(c).isspace()]


def test_towai_refuses_unicode_spaces_in_actions() -> None:
    game = games.get("towai")
    state = game.from_line("towai/1 L0 day D4D5/D3/N1 - N3 - -:0 0,0,0 f0t0")
    assert len(SPACES) >= 16
    assert game.parse_action(state, "day D4") is not None
    for sp in SPACES:
        with pytest.raises(NotationError, match="printable ASCII"):
            game.parse_action(state, f"day{sp}D4")


def test_lianxian_refuses_long_s_in_space_names_and_board_files() -> None:
    game = games.get("lianxian")
    state = game.new_state(2)
    board = state.board
    assert game.parse_action  # the codec's lookup of a space name
    from kifu.games.lianxian.codec import space_index

    assert space_index(board, "s_w", 1) == board.index["S_W"]
    with pytest.raises(NotationError, match="unknown space"):
        space_index(board, "\u017f_W", 1)
    text = BOARD.read_text()
    with pytest.raises(NotationError, match="unknown space"):
        lx_board.parse_board(text.replace("line S_W-S_E", "line \u017f_W-S_E"), path="b")
    with pytest.raises(NotationError):  # U+00A0 is no space between words
        lx_board.parse_board(text.replace("space C_SW centre", "space\u00a0C_SW centre"),
                             path="b")


def test_the_record_prompt_refuses_lookalikes(tmp_path: Path) -> None:
    out = tmp_path / "r.kifu"
    res = run("record", "towai", "-n", "3", "--seed", "1", "-o", str(out),
              stdin="p1 day\u00a0D3\n".encode())
    assert "is not ASCII" in res.output
    assert "day D3" not in out.read_text()  # nothing stored


def test_puzzle_headers_refuse_lookalikes() -> None:
    for old, new in (("p0 T4; p0 day N2", "p0 T4; p0 day\u00a0N2"),
                     ("p0 T4; p0 day N2", "p0 T4; p0 d\u0430y N2"),  # Cyrillic a
                     ('[Answer "yes"]', '[Answer "y\u0435s"]'),
                     ('[Question "towai-out-this-turn"]',
                      '[Question "towai-out-this-turn\u00a0"]')):
        (lp,) = read_puzzles(TOWAI_PUZZLE.replace(old, new), path="p.kifu")
        with pytest.raises(NotationError, match="is ASCII"):
            check_puzzle(lp)
    (lp,) = read_puzzles(TOWAI_PUZZLE, path="p.kifu")
    assert check_puzzle(lp).puzzle.solution == ["p0 T4", "p0 day N2"]


NFC, NFD = "Jos\u00e9", "Jose\u0301"


def record_with(players: str) -> str:
    text = (FIX / "tweak" / "bomb-4p.kifu").read_text()
    old = text.split("[Players ", 1)[1].split("]", 1)[0]
    names = ", ".join([players] + [f"x{i}" for i in range(1, old.count(",") + 1)])
    return text.replace(f"[Players {old}]", f'[Players "{names}"]')


def test_player_names_are_read_in_nfc(tmp_path: Path) -> None:
    a, b = tmp_path / "a.kifu", tmp_path / "b.kifu"
    a.write_text(record_with(NFC))
    b.write_text(record_with(NFD))
    (ra,), (rb,) = parse_records(a.read_text()), parse_records(b.read_text())
    assert ra.players[0] == rb.players[0] == NFC
    from kifu.notation.record import record_to_json

    assert record_from_json(record_to_json(rb).replace(NFC.encode(), NFD.encode())).players[0] \
        == NFC
    assert run("diff", str(a), str(b)).output.strip() == "identical"
    db = str(tmp_path / "a.db")
    assert run("archive", "import", str(a), str(b), "--db", db).exit_code == 0
    for name in (NFC, NFD):
        res = run("archive", "query", "--db", db, "--player", name, "-f", "json")
        rows = [json.loads(ln) for ln in res.output.split("\n") if ln.strip()]
        assert res.exit_code == 0 and len(rows) == 1 and rows[0]["players"].startswith(NFC)


# --- class 13: what the reader accepts, the writer writes -----------------------------------

def test_a_closing_brace_before_a_comment_is_refused(tmp_path: Path) -> None:
    text = '[Game "tweak"]\n\np0 } {x}\n'
    with pytest.raises(NotationError, match=r"3:4: \} without \{"):
        list(read_records(text))
    f = tmp_path / "f.kifu"
    f.write_text(text)
    assert one_line_error(run("diff", str(f), str(f)), where=f"{f}:3:4: ")


def test_json_puzzles_read_as_their_text_reads() -> None:
    (lp,) = read_puzzles(TOWAI_PUZZLE)
    from kifu.notation.puzzle import format_puzzle, puzzle_to_json

    doc = json.loads(puzzle_to_json(lp.puzzle))
    doc["comment"] = "two  spaces"  # a comment the text cannot hold
    with pytest.raises(NotationError, match="single spaces"):
        puzzles_from_json(json.dumps(doc))
    doc["comment"] = None
    doc["tags"] = {"Game": "x"}  # a tag that is a puzzle field
    with pytest.raises(NotationError, match="puzzle field"):
        puzzles_from_json(json.dumps(doc))
    doc["tags"] = {}
    doc["position"] = "  " + doc["position"].replace(" ", "   ")
    (got,) = puzzles_from_json(json.dumps(doc))
    assert got.puzzle == next(read_puzzles(format_puzzle(got.puzzle))).puzzle
    assert got.puzzle.position == lp.puzzle.position


# --- class 14: errors quote a short piece of their input ------------------------------------

def test_a_trace_with_a_huge_bad_line_gives_a_short_error(tmp_path: Path) -> None:
    for size in (3_000_000, 10_000_000):
        (tmp_path / "tweak.trace").write_text(GOOD + "x" * size + "\n")
        res = subprocess.run([sys.executable, "-m", "kifu.cli.main", "trace", "check", "tweak",
                              "--dir", str(tmp_path)], capture_output=True,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
        assert res.returncode == 1
        assert len(res.stderr) < 5_000, len(res.stderr)
    lines = GOOD.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("position "))
    lines[at] = lines[at] + "Z" * 500_000
    (tmp_path / "tweak.trace").write_text("\n".join(lines))
    with pytest.raises(KifuError) as e:
        check_trace(tmp_path / "tweak.trace")
    assert len(str(e.value)) < 1000 and "(500" in str(e.value)


@pytest.mark.parametrize("bad", [
    ("[Answer ", "[Answer \"" + "x" * 100_000 + "\"]"),
    ("[Question ", "[Question \"" + "x" * 100_000 + "\"]"),
    ("[Solution ", "[Solution \"p0 " + "x" * 100_000 + "\"]"),
    ("[Game ", "[Game \"" + "x" * 100_000 + "\"]"),
    ("[Rules ", "[Rules \"" + "x" * 100_000 + "\"]"),
    ("[Position ", "[Position \"towai/1 " + "x" * 100_000 + "\"]"),
])
def test_puzzle_errors_quote_a_short_excerpt(bad) -> None:
    prefix, line = bad
    text = "\n".join(line if ln.startswith(prefix) else ln for ln in TOWAI_PUZZLE.split("\n"))
    (lp,) = read_puzzles(text, path="p.kifu")
    with pytest.raises(NotationError) as e:
        check_puzzle(lp)
    assert len(str(e.value)) < 600


def test_error_messages_are_bounded_whatever_the_source() -> None:
    from kifu.core.errors import MAX_MESSAGE

    assert len(str(KifuError("x" * 10**6))) <= MAX_MESSAGE
    assert len(str(NotationError("x" * 10**6, line=1, col=1, path="f"))) <= MAX_MESSAGE
    rec = ('[Game "towai"]\n[Rules "towai/1"]\n[Players "a, b, c"]\n[Date "????.??.??"]\n'
           f'[Result "*"]\n\nd first p1\nd deal {"D3" * 200_000}\n')
    from kifu.notation.replay import replay

    with pytest.raises(KifuError) as e:
        replay(next(read_records(rec, path="r.kifu")))
    assert len(str(e.value)) < 1200 and "[message clipped" not in str(e.value)


def test_lookalike_puzzle_in_a_file_is_refused_by_solve(tmp_path: Path) -> None:
    f = tmp_path / "p.kifu"
    f.write_text(TOWAI_PUZZLE.replace("p0 day N2", "p0 day\u2003N2"))
    assert "is ASCII" in one_line_error(run("solve", str(f)), where=f"{f}:6:")
    assert list(load_puzzles(str(f)))  # it reads; the check refuses it
