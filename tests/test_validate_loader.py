"""The loader's block reader (``_Lines.__iter__``) gives exactly the lines and the errors
of reading one line at a time (``_Lines.raw`` + strict UTF-8), whatever the block size (a
line may come without its final newline: the reader takes it the same); and the reader's
``blocks`` mode reads as ``_end_blocks`` did."""

from __future__ import annotations

import io

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kifu.core.errors import NotationError
from kifu.notation import files as common

PIECES = [b"a", b"p0 R3", b" ", b"\n", b"\r", b"\r\n", b"\x0b", b"\x0c", b"\x1c", b"\xc2\x85",
          b"\xe2\x80\xa8", b"\xff", b"\xc3", b"\xc3\xa9", b"\xef\xbb\xbf", b"[Game \"tweak\"]"]


def one_by_one(data: bytes, limit: int) -> list[str]:
    src = common._Lines(io.BytesIO(data), "f")
    out: list[str] = []
    try:
        while raw := src.raw(limit):
            out.append(common._decode(raw, src.lineno, "f"))
    except NotationError as e:
        out.append(f"error {e}")
    return out


def in_blocks(data: bytes, limit: int, chunk: int, monkeypatch) -> list[str]:
    monkeypatch.setattr(common, "MAX_LINE", limit)
    monkeypatch.setattr(common, "CHUNK", chunk)
    out: list[str] = []
    try:
        for line in common._Lines(io.BytesIO(data), "f"):
            out.append(line)
    except NotationError as e:
        out.append(f"error {e}")
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.integers(4, 30), st.integers(1, 40))
def test_blocks_read_as_lines_do(pieces, limit, chunk) -> None:
    data = b"".join(pieces)
    with pytest.MonkeyPatch.context() as mp:
        got = in_blocks(data, limit, chunk, mp)
    assert [_bare(x) for x in got] == [_bare(x) for x in one_by_one(data, limit)]


def _bare(line: str) -> str:
    return line[:-1] if line.endswith("\n") else line


def test_a_long_line_after_good_ones(monkeypatch) -> None:
    data = b"ab\ncd\n" + b"x" * 50 + b"\nef\n"
    got = in_blocks(data, 20, 8, monkeypatch)
    assert [_bare(x) for x in got[:2]] == ["ab", "cd"]
    assert got[2] == "error f:3:21: line longer than 20 bytes"


LINES = ['[Game "tweak"]', '[Rules "tweak/1"]', '[Players "a, b"]', '[Result "*"]',
         '[Event "a{b"]', '[Event "x}"]', "", " ", "\x0c", "  \t", "d dealer p1", "p0 R3",
         "p0  R3", "p1 R3 {ok}", "{ a comment", "more }", "{}", "}", "%escape", "\x0c[Game x]",
         " [Game \"tweak\"]", "p0 R3\r", "\r", " " * 30]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=14), st.booleans(),
       st.sampled_from(["default", "headers", "puzzles"]))
def test_blocks_mode_reads_as_end_blocks_does(lines, newline, kind) -> None:
    """``read_records(lines, blocks=True)`` gives what ``read_records(_end_blocks(lines))``
    gives: the same records, or the same error after the same records."""
    from kifu.notation import reader
    from kifu.notation.puzzle import PuzzleBuilder, _end_blocks

    raw = [line + "\n" for line in lines] if newline else lines

    def run(source, blocks: bool) -> list:
        vis = {"default": None, "headers": reader.HeadersOnly,
               "puzzles": PuzzleBuilder("f")}[kind]
        out: list = []
        try:
            for rec in reader.read_records(source, path="f", visitor=vis, blocks=blocks):
                out.append(rec)
        except NotationError as e:
            out.append(f"error {e}")
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "MAX_LINE", 20)  # a long blank line after headers counts too
        assert run(iter(raw), True) == run(_end_blocks(iter(raw)), False)


PLAIN_LINES = ['[Game "tweak"]', '[Rules "tweak/1"]', '[Players "a, b"]', '[Result "*"]', "",
               "d dealer p1", "p0 R3", "p0 R3 ", "p1 !T p2", "p100 R3", "q R3", "p0", "p0 ",
               "d deal R1O3 !T", "%x", "p0 R3 x", "[Event \"a b\"]", " p0 R3", "p00 R3"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PLAIN_LINES), max_size=16), st.booleans())
def test_plain_text_reads_as_lines_do(lines, as_blocks) -> None:
    """A plain text (``plain_text``: its action lines take a two-test fast path) reads to
    the same records and errors as the same lines given one by one (the general path)."""
    from kifu.notation import reader

    text = "\n".join(lines)
    assert reader.plain_text(text, text.split("\n"))

    def run(source) -> list:
        out: list = []
        try:
            out.extend(reader.read_records(source, path="f"))
        except NotationError as e:
            out.append(f"error {e}")
        return out

    if as_blocks:  # the loader's form: blocks of lines, each plain
        half = len(lines) // 2
        fast = run(reader.Blocks([(lines[:half], True), (lines[half:], True)]))
    else:
        fast = run(text)
    assert fast == run(iter(text.split("\n")))


def test_plain_text() -> None:
    from kifu.notation.reader import plain_text

    for bad in ["p0 R3 {c}", "p0  R3", "p0\tR3", "p0 R3\r", "p0 é", "p0 \x0b"]:
        assert not plain_text(bad, bad.split("\n"))
    assert plain_text("p0 R3\n[A \"b\"]", ["p0 R3", '[A "b"]'])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 25), max_size=12), st.integers(1, 12))
def test_no_long_line_is_max_of_lengths(lengths, limit) -> None:
    from kifu.notation import reader

    text = "\n".join("x" * n for n in lengths)
    lines = text.split("\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "MAX_LINE", limit)
        assert reader._no_long_line(text, lines) == (max(map(len, lines)) <= limit)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES + PLAIN_LINES + ["p0 \xe9", "\udcff"]), max_size=16),
       st.integers(1, 64))
@example(lines=["\x0c", "\udcff"], chunk=1)  # a form feed is no blank line (found by CI)
def test_read_stream_reads_as_before(lines, chunk) -> None:
    """The whole loader (blocks, plain blocks, blocks mode in the reader) gives the records
    and the error that reading line by line through ``_end_blocks`` gave."""
    from kifu.notation.puzzle import _end_blocks
    from kifu.notation.reader import read_records

    data = "\n".join(lines).encode("utf-8", "surrogateescape")
    first = next((x for x in lines if x.strip()), None)
    if first is None or common.is_json(first):
        return  # nothing to read, or JSON (read another way)

    def old_lines():
        src = common._Lines(io.BytesIO(data), "f")
        while raw := src.raw():
            yield common._decode(raw, src.lineno, "f")

    def run(make) -> list:
        out: list = []
        try:
            out.extend(make())
        except NotationError as e:
            out.append(f"error {e}")
        return out

    want = run(lambda: read_records(_end_blocks(old_lines()), path="f"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(common, "CHUNK", chunk)
        got = run(lambda: common.read_stream(io.BytesIO(data), "f"))
    assert got == want
