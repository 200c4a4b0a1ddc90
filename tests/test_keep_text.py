"""The archive's import writes a record's canonical text from its action lines as read
(``read_records(..., keep_text=True)`` sets ``Located.moves_text`` when they are already
canonical) and from a fast header path of ``format_record``. Both must give exactly what
``format_record`` gives from the record alone, whatever the layout of the input."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.core.errors import NotationError
from kifu.notation import files as common
from kifu.notation.reader import read_records
from kifu.notation.record import ROSTER, Move, Record, escape_value, format_record

ROOT = Path(__file__).resolve().parent.parent
VALID = sorted(p for g in games.ids() for p in (ROOT / "fixtures" / g).glob("*.kifu"))


def _reference(record: Record) -> str:
    """``format_record`` as it was written before the fast paths: roster tags first, every
    value escaped, every action line written from the move."""
    h = record.headers
    names = [k for k in ROSTER if k in h] + [k for k in h if k not in ROSTER]
    out = [f'[{k} "{escape_value(h[k])}"]' for k in names] + [""]
    if record.comment is not None:
        out.append("{" + record.comment + "}")
    for m in record.moves:
        out.append(f"{m.actor} {m.text}" + ("" if m.comment is None else f" {{{m.comment}}}"))
    return "\n".join(out) + "\n"


def _plain_records() -> list[str]:
    out = []
    for p in VALID:
        for loc in read_records(p.read_text(encoding="utf-8")):
            r = loc.record  # without its comments
            if r.moves:
                out.append(format_record(Record(r.headers,
                                                [Move(m.actor, m.text) for m in r.moves])))
    return out


PLAIN = _plain_records()


def _check(locs) -> int:
    kept = 0
    for loc in locs:
        rec = loc.record
        want = _reference(rec)
        assert format_record(rec, checked=True) == want
        assert format_record(rec, checked=True, moves_text=loc.moves_text) == want
        if loc.moves_text is not None:
            kept += 1
            assert loc.moves_text == "\n".join(f"{m.actor} {m.text}" for m in rec.moves)
    return kept


def test_canonical_input_keeps_every_records_action_lines(monkeypatch) -> None:
    """Not vacuous: canonical, comment-free records read from a string or a file (with
    blocks cut inside records) keep their action lines, all but those cut by a block."""
    assert len(PLAIN) > 20
    text = "\n".join(PLAIN)
    assert _check(read_records(text, keep_text=True)) == len(PLAIN)
    assert _check(read_records(text)) == 0  # only when asked
    monkeypatch.setattr(common, "CHUNK", 4096)
    locs = list(common.read_stream(io.BytesIO(text.encode()), "f", keep_text=True))
    kept = _check(locs)
    assert len(locs) == len(PLAIN) and len(PLAIN) - len(text) // 4096 - 1 <= kept < len(PLAIN)


# Lines that change a record's layout but not (always) its meaning, and lines that are
# not canonical: each must make the reader leave moves_text unset or still exact.
NOISE = ["", " ", "% an escape line", "{a comment}", "{", "still a comment}", "\t"]


def _perturb(line: str, how: int) -> str:
    if not line or line.startswith("["):
        return [line, " " + line, line + " ", line.replace(" ", "  ", 1), line][how % 5]
    return [line, " " + line, line + " ", line.replace(" ", "  ", 1), line + "\r",
            line.replace(" ", "\t", 1), line + " {note}", line][how % 8]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_layout_gives_the_canonical_text(data) -> None:
    """One kind of change a example, at a few lines (often the first or last action line of
    a record), so that the blocks around them stay plain when the change keeps them so."""
    picks = data.draw(st.lists(st.sampled_from(PLAIN), min_size=1, max_size=4))
    lines = "\n\n".join(picks).split("\n")
    edges = [i for i in range(len(lines)) if lines[i] and not lines[i].startswith("[")
             and (not lines[i - 1] or i + 1 == len(lines) or not lines[i + 1])]
    where = data.draw(st.sets(st.one_of(st.sampled_from(edges),
                                        st.integers(0, len(lines) - 1)), max_size=3))
    kind = data.draw(st.integers(0, 8))
    out = []
    for i, line in enumerate(lines):
        if i in where:
            if kind == 8:
                out.append(data.draw(st.sampled_from(NOISE)))
            else:
                line = _perturb(line, kind)
        out.append(line)
    text = "\n".join(out) + "\n"
    chunk = data.draw(st.sampled_from([64, 512, 4096, 1 << 18]))
    saved = common.CHUNK
    common.CHUNK = chunk  # blocks cut anywhere (a fixture would outlive one example)
    try:
        for read in (lambda: read_records(text, keep_text=True),
                     lambda: common.read_stream(io.BytesIO(text.encode()), "f",
                                                keep_text=True)):
            with contextlib.suppress(NotationError):  # refused input: nothing to write
                _check(read())
    finally:
        common.CHUNK = saved


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["v", "a b", 'q"q', "b\\s", "", "2026.01.01", '"', "\\"]),
                min_size=8, max_size=8),
       st.one_of(st.just(list(range(8))), st.permutations(range(8))), st.integers(0, 8),
       st.sampled_from([None, "a comment"]), st.sampled_from([[], [Move("d", "deal")]]),
       st.booleans())
def test_header_fast_path_matches_the_reference(values, order, n, comment, moves,
                                                kept) -> None:
    """Headers in roster order (the fast path) or not, values with or without quotes and
    backslashes, with or without a record comment and actions (given as read, or not):
    the same text as the reference."""
    names = [*ROSTER, "Seed", "Event", "X"]
    record = Record({names[i]: values[i] for i in order[:n]}, list(moves), comment)
    text = "\n".join(f"{m.actor} {m.text}" for m in moves) if kept and moves else None
    assert format_record(record, moves_text=text) == _reference(record)


@pytest.mark.parametrize("path", VALID[:8], ids=lambda p: p.name)
def test_fixture_files_read_with_kept_text(path) -> None:
    _check(common.load_records(str(path), keep_text=True))
