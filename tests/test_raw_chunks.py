"""Workers that read their own chunks of a file (``kifu.notation.batch.RawChunk``) give,
byte for byte, what one process reading the whole file gives: wherever the parent cuts
(inside a multi-line comment, between the header lines of one record, in a puzzle block,
around CRLF line ends, a BOM, bad UTF-8, lines too long) and whatever the chunk sizes.

The cuts are driven through the real cutter: small chunk sizes put a cut at nearly every
record start, and a tiny ``MAX_CHUNK_BYTES`` forces cuts at line starts where no record
starts. The executor runs inline (the same chunk function, nothing pickled); one test runs
two real worker processes through the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kifu.cli.main import cli
from kifu.core.executor import InlineExecutor
from kifu.notation import batch
from kifu.notation import files as common
from kifu.notation.batch import Stop, iter_file, report_record
from kifu.notation.reader import Located

ROOT = Path(__file__).resolve().parent.parent

GOOD = ROOT / "fixtures" / "tweak" / "bomb-4p.kifu"


def located(_replayer: Any, loc: Located, index: int) -> tuple:
    """Everything the reader says of a record (``moves_text`` aside: it depends on where
    the reader's blocks fall, and only spares the archive a rewrite)."""
    return (index, loc.path, loc.line, loc.move_lines, loc.header_lines,
            msgspec.to_builtins(loc.record))


def shift(result: tuple, base: int) -> tuple:
    """The renumbering of :func:`located`'s results (a worker counts in its chunk)."""
    return (result[0] + base, *result[1:])


def outputs(path: str, fn=located, **kw: Any) -> list:
    if fn is located:
        kw.setdefault("renumber", shift)
    out = []
    for item in iter_file(path, fn, **kw):
        out.append(msgspec.to_builtins(item) if isinstance(item, Stop) else item)
    return out


HEADERS = ['[Game "tweak"]', '[Rules "tweak/1"]', '[Players "a, b"]', '[Result "*"]',
           '[Event "x"]']
LINES = [
    *HEADERS, "", "", "", "d deal", "p0 R3", "p1  pass", "p0 R3 {a note}", "{ a comment }",
    "{ opened", "} closed", "[Fake \"in a comment\"]", "% escape", "\t", "  ", "\x0c",
    "p0 R3\r", "\r", '[Game "tweak"]\r', "{", "}", "p9 x", "q1 R3", "[Bad", '[A "{"]',
    '[Position "x"]', '[Question "tweak-within 2"]', "p0 é", "p0 \x0b",
]
PIECES = [b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\r\n"]


def _corpus(lines: list[str], extra: list[bytes]) -> bytes:
    data = "\n".join(lines).encode("utf-8")
    for k, piece in enumerate(extra):  # a few raw bytes spliced in at line ends
        at = [i for i, b in enumerate(data) if b == 10]
        if at:
            i = at[(k * 7919) % len(at)]
            data = data[:i] + piece + data[i:]
    return data


BODY = ["d deal", "p0 R3", "p1  pass", "p0 R3 {a note}", "{ a comment }", "% escape",
        "p0 R3\r", "{ a\n\n[Fake \"header\"]\n}", "{ long\n\n\n}"]
HOSTILE = [  # layouts that read well, and fool a cutter that does not parse
    '{ opened\n\n[Fake "in a comment"]\n}',  # a blank line and a header in a comment
    '[Game "tweak"]\n%\n\n[Rules "tweak/1"]',  # an escape line, then a blank, in headers
    '[Game "tweak"]\n%\n[Rules "tweak/1"]\n\np0 R3',  # an escape line in headers
    '[Position "x"]\n[Question "tweak-within 2"]',  # a puzzle block: headers only
    '[A "{"]\n\n[B "}"]',  # braces in header values
    "\t", "  ", "% escape",
]
ERRORS = ["p0 R3 {a\n\n[B \"c\"]", "{\n\n[A \"b\"]", "}", "q1 R3", "[Bad",
          "\ufeff[Game \"tweak\"]", "\x0c", "p0 é"]
SEPARATORS = ["\n\n", "\n\n", "\n\n", "\n", "\r\n\r\n", "\n\n\n", "\n \n", "\n\r\n"]


@st.composite
def layouts(draw) -> bytes:
    """Records (headers, a blank line, actions and comments) among hostile snippets, joined
    by blank lines of several kinds, a few raw bytes spliced in."""
    parts = []
    for _ in range(draw(st.integers(0, 14))):
        kind = "record" if not parts else draw(
            st.sampled_from(["record"] * 6 + ["hostile"] * 3 + ["error", "line"]))
        if kind == "record":
            heads = draw(st.lists(st.sampled_from(HEADERS), min_size=1, max_size=4,
                                  unique=True))
            body = draw(st.lists(st.sampled_from(BODY), max_size=4))
            parts.append("\n".join(heads) + ("\n\n" + "\n".join(body) if body else ""))
        elif kind in ("hostile", "error"):
            parts.append(draw(st.sampled_from(HOSTILE if kind == "hostile" else ERRORS)))
        else:
            parts.append(draw(st.sampled_from(LINES)))
    text = ""
    for part in parts:
        text += (draw(st.sampled_from(SEPARATORS)) if text else "") + part
    if draw(st.booleans()):
        text += "\n"
    pieces = draw(st.lists(st.sampled_from(PIECES), max_size=2)) if draw(st.booleans()) else []
    return _corpus(text.split("\n"), pieces)


@settings(max_examples=400, deadline=None)
@given(layouts(), st.integers(1, 4), st.integers(1, 120), st.integers(1, 64), st.booleans())
@example(data=b'[Game "tweak"]\n\n{ opened\n\n[Fake "in a comment"]\n}\np0 R3',
         size=1, cap=1000, read=64, bom=False)
@example(data=b'[Game "tweak"]\n[Rules "tweak/1"]\n\np0 R3\n\n[Game "tweak"]\n%\n'
              b'[Rules "tweak/1"]\n\np0 R3', size=1, cap=3, read=5, bom=False)
@example(data=b'[Game "tweak"]\n\np0 R3 {a note}\n{ a\n\n[Fake "header"]\n}\n{ a\n\n'
              b'[Fake "header"]\n}\n\n[Game "tweak"]\n[Rules "tweak/1"]\n[Players "a, b"]',
         size=2, cap=45, read=22, bom=False)  # a record start found, then more bytes read
@example(data=b'[Game "tweak"]\r\n\n\n[Game "tweak"]\n\n[Game "tweak"]\r\xef\xbb\xbf\n',
         size=1, cap=1, read=4, bom=False)  # a record's first line fails before it starts
def test_text_chunks_read_as_one_reader(tmp_path_factory, data, size, cap, read,
                                        bom) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + data
    path = tmp_path_factory.mktemp("c") / "c.kifu"
    path.write_bytes(data)
    one = outputs(str(path))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "MAX_CHUNK_BYTES", cap)
        mp.setattr(batch, "READ_BYTES", read)
        got = outputs(str(path), pool=InlineExecutor(), chunk_records=size)
        assert got == one
        # the bytes travel instead of (file, offset, length), as for stdin or Dask
        mp.setattr(batch.os.path, "isfile", lambda _p: False)
        assert outputs(str(path), pool=InlineExecutor(), chunk_records=size) == one


def test_clean_cuts_need_no_second_reading(tmp_path, monkeypatch) -> None:
    """On a file of well-formed records every chunk's worker result is used: the parent
    never reads a chunk again."""
    spans: list[bool] = []
    real = batch._span
    monkeypatch.setattr(batch, "_span",
                        lambda chunks, state: spans.append(isinstance(chunks, list))
                        or real(chunks, state))
    path = tmp_path / "c.kifu"
    path.write_text(_tweak_corpus(40), encoding="utf-8")
    one = outputs(str(path), report_record)
    assert outputs(str(path), report_record, pool=InlineExecutor(), chunk_records=3) == one
    assert len(spans) == 14 and all(spans)  # 14 chunks, each read once, by its worker
    assert one[-1] == 40


JSON_LINES = ['{"headers": {"Game": "tweak"}, "moves": []}', "", " ", "{", "[1]", "{}",
              '{"headers": {"Game": "tweak", "Rules": "tweak/1"}, "moves": [["d", "x"]]}',
              "\xff", "not json"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(JSON_LINES), min_size=1, max_size=30),
       st.integers(1, 4), st.integers(1, 200))
def test_json_lines_chunks_read_as_one_reader(tmp_path_factory, lines, size, cap) -> None:
    data = "\n".join([JSON_LINES[0], *lines]).encode("utf-8", "surrogateescape")
    path = tmp_path_factory.mktemp("j") / "c.ndjson"
    path.write_bytes(data)
    one = outputs(str(path))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "MAX_CHUNK_BYTES", cap)
        assert outputs(str(path), pool=InlineExecutor(), chunk_records=size) == one


def _tweak_corpus(n: int) -> str:
    text = GOOD.read_text(encoding="utf-8").strip() + "\n"
    return "\n".join([text] * n)


def test_a_long_line_is_the_same_error(tmp_path, monkeypatch) -> None:
    """A line longer than a line may be, with no newline in reach of a cut: the chunk is
    cut inside it, and the error is one process's."""
    monkeypatch.setattr(common, "MAX_LINE", 50)
    monkeypatch.setattr(batch, "MAX_LINE", 50)
    monkeypatch.setattr(batch, "MAX_CHUNK_BYTES", 20)
    monkeypatch.setattr(batch, "READ_BYTES", 7)
    path = tmp_path / "long.kifu"
    path.write_bytes(b'[Game "tweak"]\n\n' + b"p0 " + b"R" * 300 + b"\np0 R3\n")
    one = outputs(str(path))
    assert "longer than 50" in one[-2]["report"]["error"]
    assert outputs(str(path), pool=InlineExecutor(), chunk_records=1) == one


def test_validate_on_two_processes_is_byte_identical(tmp_path) -> None:
    """The CLI on 2 worker processes, hostile layouts included: a blank line and a header
    line inside a comment, a header block split by an escape line, a syntax error."""
    good = _tweak_corpus(30)
    parts = good.split("\n\n[")
    parts[10] += "\n{ a comment\n\n[Looks \"like a header\"]\n}"
    parts[20] = parts[20].replace('"]\n[', '"]\n%\n[', 1)
    hostile = "\n\n[".join(parts)
    broken = hostile + "\nq1 R3\n\n" + good
    checked = []
    for name, text in (("h.kifu", hostile), ("b.kifu", broken)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        args = ["validate", "--all", "--json", str(tmp_path / name)]
        one = CliRunner().invoke(cli, args)
        for extra in (["-w", "2", "--chunk-size", "1"], ["-w", "2", "--chunk-size", "7"]):
            two = CliRunner().invoke(cli, [*args, *extra])
            assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout,
                                                                one.stderr)
        checked.append(json.loads(one.stdout)["checked"])
    assert checked == [30, 29]  # b.kifu: a syntax error in record 30 ends the reading


def test_stdin_chunks_travel_as_bytes(monkeypatch) -> None:
    data = _tweak_corpus(12).encode("utf-8")
    one = []
    for chunked in (False, True):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
        kw = {"pool": InlineExecutor(), "chunk_records": 5} if chunked else {}
        one.append(outputs("-", report_record, **kw))
    assert one[0] == one[1]
    assert one[0][-1] == 12
