"""``format_record`` checks moves in bulk (``_moves_ok``) before writing; it must refuse
exactly what ``check_record`` refuses, with the same error."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.core.errors import NotationError
from kifu.notation.record import Move, Record, check_record, format_record

TOKENS = ["R3", "xO1", " ", "  ", "\n", "{", "}", "\t", "é", "!J+", "p2", ""]
ACTORS = ["d", "p0", "p1", "p12", "p01", "q", "p 1", "", "p1234567", "d\n"]
COMMENTS = [None, None, None, "ok", "two words", " lead", "a{b", "a\nb", "", "x  y"]


def _outcome(fn, record: Record) -> str:
    try:
        fn(record)
    except NotationError as e:
        return f"error {e}"
    return "ok"


texts = st.lists(st.sampled_from(TOKENS), min_size=0, max_size=4).map("".join)
moves = st.builds(Move, st.sampled_from(ACTORS), texts, st.sampled_from(COMMENTS))


@settings(max_examples=400, deadline=None)
@given(st.lists(moves, max_size=6), st.sampled_from(COMMENTS),
       st.sampled_from([{"Game": "tweak"}, {"Game": "a\x01"}, {"1x": "v"}, {}]))
def test_format_refuses_what_check_refuses(ms, comment, headers) -> None:
    record = Record(dict(headers), ms, comment)
    want = _outcome(check_record, record)
    got = _outcome(format_record, record)
    assert got.startswith("error") == want.startswith("error")
    if want != "ok":
        assert got == want


HEADER_LINES = ['[Game "tweak"]', '[Rules "tweak/1"]', '[Players "a, b"]', '[Result "*"]',
                '[X "a\\"b"]', '[1x "v"]', '[Event "é"]', '[Seed "4"]']
LINES = ["", "d dealer p1", "p0 R3", "p1 xO1 {a comment}", "{a record comment}", "p12 !J+",
         "p01 R3", "q R3", "p0 R3 {", "p0", "d", "p0  R3", "\t", "p0 R3 {a}{b}", "p0 é"]


GOOD = ['[Game "tweak"]', '[Players "a, b"]', "", "d dealer p1", "p0 R3", "p1 xO1 {c}"]
line = st.one_of(st.sampled_from(GOOD), st.sampled_from(HEADER_LINES + LINES))


@settings(max_examples=400, deadline=None)
@given(st.lists(line, max_size=14))
def test_every_record_the_reader_yields_passes_check_record(lines) -> None:
    """What ``format_record(record, checked=True)`` (the archive's import) relies on: the
    reader refuses everything ``check_record`` refuses, so a record it yields passes."""
    from kifu.notation.reader import read_records

    got = 0
    try:
        for loc in read_records("\n".join(lines) + "\n"):
            check_record(loc.record)  # raises if the reader let a bad record through
            assert format_record(loc.record, checked=True) == format_record(loc.record)
            got += 1
    except NotationError:
        pass  # the reader refused the text: nothing is formatted
