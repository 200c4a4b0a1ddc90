"""Comparing two records: the same game? where do they first differ?"""

from __future__ import annotations

import msgspec

from kifu.core.errors import KifuError
from kifu.notation.reader import Located
from kifu.notation.record import Record
from kifu.notation.replay import replay


class MoveDiff(msgspec.Struct, frozen=True):
    ply: int
    a: str | None  # "actor text", None past the end of the record
    b: str | None
    position: str | None  # the position line before that ply (replayed from A)


class RecordDiff(msgspec.Struct, frozen=True):
    same_game: bool  # same Game, Rules and Players
    identical: bool  # same canonical text
    headers: dict[str, tuple[str | None, str | None]]  # tag -> (A's, B's) where they differ
    first: MoveDiff | None
    plies: tuple[int, int]


def diff_records(a: Located | Record, b: Located | Record) -> RecordDiff:
    ra = a.record if isinstance(a, Located) else a
    rb = b.record if isinstance(b, Located) else b
    tags = list(dict.fromkeys([*ra.headers, *rb.headers]))
    headers = {
        t: (ra.headers.get(t), rb.headers.get(t))
        for t in tags
        if ra.headers.get(t) != rb.headers.get(t)
    }
    same_game = not any(t in headers for t in ("Game", "Rules", "Players"))
    first = None
    for i in range(max(len(ra.moves), len(rb.moves))):
        ma = ra.moves[i] if i < len(ra.moves) else None
        mb = rb.moves[i] if i < len(rb.moves) else None
        ta = f"{ma.actor} {ma.text}" if ma else None
        tb = f"{mb.actor} {mb.text}" if mb else None
        if ta != tb:
            try:
                position = replay(a, upto=i, check_result=False).state.to_line()
            except KifuError:
                position = None
            first = MoveDiff(i + 1, ta, tb, position)
            break
    identical = ra.to_text() == rb.to_text()
    return RecordDiff(same_game, identical, headers, first, (len(ra.moves), len(rb.moves)))


class RulesDiff(msgspec.Struct, frozen=True):
    """One record replayed under its own rules (A) and under other rules (B)."""

    index: int
    same: bool  # B replays every action and ends with the same result
    ply: int | None  # the first ply B refuses, if any
    error: str | None  # B's error there
    result_a: tuple[int, ...] | None
    result_b: tuple[int, ...] | None


def diff_rules(loc: Located, rules: str, *, index: int = 1) -> RulesDiff:
    """Replay ``loc`` under its own rules and under ``rules`` (a rules spec); where does the
    second replay part from the first? Raises if the record is invalid under its own rules."""
    a = replay(loc, check_result=False)
    other = Record({**loc.record.headers, "Rules": rules}, loc.record.moves, loc.record.comment)
    moved = Located(other, loc.path, loc.line, loc.move_lines, loc.header_lines)
    ra = a.state.result()
    res_a = ra.scores if ra else None
    try:
        b = replay(moved, check_result=False)
    except KifuError as e:
        return RulesDiff(index, False, getattr(e, "ply", None) or None, str(e), res_a, None)
    rb = b.state.result()
    res_b = rb.scores if rb else None
    same = res_a == res_b and a.state.to_move == b.state.to_move
    return RulesDiff(index, same, None, None, res_a, res_b)
