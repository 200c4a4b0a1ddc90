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
