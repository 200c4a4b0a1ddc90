"""The loader's block reader (``_Lines.__iter__``) gives exactly the lines and the errors
of reading one line at a time (``_Lines.raw`` + strict UTF-8), whatever the block size."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.cli import common
from kifu.core.errors import NotationError

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
    assert got == one_by_one(data, limit)


def test_a_long_line_after_good_ones(monkeypatch) -> None:
    data = b"ab\ncd\n" + b"x" * 50 + b"\nef\n"
    got = in_blocks(data, 20, 8, monkeypatch)
    assert got[:2] == ["ab\n", "cd\n"]
    assert got[2] == "error f:3:21: line longer than 20 bytes"
