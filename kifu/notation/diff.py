"""Comparing two records: the same game? where do they first differ?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from kifu import games
from kifu.core.errors import KifuError, VariantError
from kifu.core.game import DEALER, Game
from kifu.core.variant import Variant, short, variant_fields, variant_from_pairs
from kifu.notation.reader import Located
from kifu.notation.record import Record, identity_text
from kifu.notation.replay import FastReplayer, replay, replay_states, setup_of


class MoveDiff(msgspec.Struct, frozen=True):
    ply: int
    a: str | None  # "actor text", None past the end of the record
    b: str | None
    position: str | None  # the position line before that ply (replayed from A)


class RecordDiff(msgspec.Struct, frozen=True):
    same_setup: bool  # same Game, Rules and Players
    same_game: bool  # the same game as an archive counts it: same identity text
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
    same_setup = not any(t in headers for t in ("Game", "Rules", "Players"))
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
    text_a, text_b = ra.to_text(), rb.to_text()
    identical = text_a == text_b
    same_game = identical or identity_text(ra, text_a) == identity_text(rb, text_b)
    return RecordDiff(same_setup, same_game, identical, headers, first,
                      (len(ra.moves), len(rb.moves)))


KINDS = ("unchanged", "positions", "result", "sooner", "round_over", "unfinished", "refused",
         "unreplayable")
"""What the other rules do to a record (``RulesDiff.kind``): nothing; the same result by
other positions; another result at the same end; the game is over sooner (the result there
is ``result_b``); a round is over sooner (the other rules end it where the record went on:
the dealer is to deal the next round there, ``round_b`` says which round ended); not over
when the record ends; an action refused (the other rules forbid it there); a dealer's
action refused before the positions part (their deck or chance events differ: the record
cannot be replayed under them)."""

ENDS_BY: dict[str, str] = {
    "cap": "at the turn cap",
    "threshold": "at the score threshold",
    "finish": "at the finish",
    "turns": "at the turn limit",
    "rounds": "at the round limit",
    "wins": "at the rounds to win",
}
"""Why the other rules end a round or the game, by the field they change (the words of
``kifu diff``); a change of another field ends it without a reason given."""


class RulesDiff(msgspec.Struct, frozen=True):
    """One record replayed under its own rules (A) and under other rules (B)."""

    index: int
    same: bool  # B accepts every action, every position and the result are the same
    ply: int | None  # the first ply B refuses, if any
    error: str | None  # B's error there
    result_a: tuple[int, ...] | None
    result_b: tuple[int, ...] | None  # also where B's game ends before the record does
    outcome_changed: bool = False  # B refuses an action, or the game ends another way
    position_ply: int | None = None  # the first ply after which the positions differ
    position_a: str | None = None  # the positions there (without their rules token)
    position_b: str | None = None
    rules_a: str = ""
    rules_b: str = ""
    kind: str = "unchanged"  # one of KINDS
    plies_a: int = 0  # the record's length
    plies_b: int | None = None  # where B's game ends (None: refused, or not over)
    winners_a: tuple[int, ...] | None = None  # the seats placed first
    winners_b: tuple[int, ...] | None = None
    winner_changed: bool = False  # both have a result and their winners differ
    changes: str = ""  # the fields B changes, e.g. threshold=60
    players: int = 0
    round_b: int | None = None  # kind round_over: the round B ends (1 = the first dealt)
    reason: str = ""  # why B ends the round or the game there, e.g. "at the turn cap"
    names: tuple[str, ...] = ()  # the record's Players, by seat (empty: none given)


def apply_sets(game: Game, variant: Variant, sets: Sequence[str]) -> Variant:
    """``variant`` with the fields of ``sets`` (``field=value`` each) changed."""
    pairs = dict(variant_fields(variant))
    for item in sets:
        k, eq, v = item.partition("=")
        if not eq or not k:
            raise VariantError(f"bad variant field {short(item)}: expected name=value")
        pairs[k] = v
    return variant_from_pairs(game.Variant, list(pairs.items()))


def other_rules(loc: Located, rules: str | None, sets: Sequence[str] = ()) -> str:
    """The rules spec B for a record: ``rules`` (checked: same game), or the record's own
    rules with ``sets`` applied."""
    game, setup = setup_of(loc)
    if rules is not None:
        named = games.get(rules.partition(";")[0].partition("/")[0])
        if named.id != game.id:
            raise VariantError(f"the rules {short(rules)} are for {named.id}; record is {game.id}")
        variant = game.parse_rules(rules)
    else:
        variant = setup.variant
    if sets:
        variant = apply_sets(game, variant, sets)
    return game.rules_spec(variant)


def rules_diff_record(rules: str | None, sets: Sequence[str], replayer: FastReplayer,
                      loc: Located, index: int) -> RulesDiff:
    """:func:`diff_rules` as the per-record function of ``kifu.notation.batch.iter_file``
    (module level, bound with ``functools.partial``: it is pickled to workers)."""
    return diff_rules(loc, rules, index=index, sets=sets)


def renumber_rules_diff(row: RulesDiff, base: int) -> RulesDiff:
    """A worker's row for record ``index`` of its chunk, as record ``base + index``."""
    return msgspec.structs.replace(row, index=row.index + base) if base else row


def _body(line: str) -> str:
    return line.partition(" ")[2]


def changed_fields(game: Game, spec_a: str, spec_b: str) -> str:
    """The fields whose values differ from A to B, as B spells them (``threshold=60``); a
    field B sets back to its default is written ``field=default``."""
    va, vb = dict(variant_fields(game.parse_rules(spec_a))), dict(variant_fields(
        game.parse_rules(spec_b)))
    out = [f"{k}={v}" for k, v in vb.items() if va.get(k) != v]
    out += [f"{k}=default" for k in va if k not in vb]
    return ";".join(out) or spec_b


def _reason(changes: str) -> str:
    """Why the rules changed by ``changes`` (``cap=40``) end a round or the game: the words
    of :data:`ENDS_BY` for the first changed field that has some."""
    for item in changes.split(";"):
        words = ENDS_BY.get(item.partition("=")[0])
        if words:
            return words
    return ""


def _winners(result) -> tuple[int, ...] | None:
    return None if result is None else tuple(s for s, r in enumerate(result.ranks) if r == 1)


def _moved(wa: tuple[int, ...] | None, wb: tuple[int, ...] | None) -> bool:
    return wa is not None and wb is not None and wa != wb


def diff_rules(loc: Located, rules: str | None, *, index: int = 1,
               sets: Sequence[str] = ()) -> RulesDiff:
    """Replay ``loc`` under its own rules (A) and under ``rules`` (a rules spec) and/or its
    own rules changed by ``sets`` (B); compare the legality of each action, every
    intermediate position and the result, and say what B does to the record (``kind``,
    :data:`KINDS`). Raises if the record is invalid under A."""
    spec_b = other_rules(loc, rules, sets)
    game, setup = setup_of(loc)
    positions_a = [_body(st.to_line()) for st in replay_states(loc)]
    a = replay(loc, check_result=False)
    ra = a.state.result()
    res_a = ra.scores if ra else None
    spec_a = loc.record.headers["Rules"]
    moves = loc.record.moves
    common: dict[str, Any] = {"plies_a": len(moves), "winners_a": _winners(ra),
                              "players": setup.players,
                              "names": tuple(loc.record.players),
                              "changes": changed_fields(game, spec_a, spec_b)}
    other = Record({**loc.record.headers, "Rules": spec_b}, moves, loc.record.comment)
    moved = Located(other, loc.path, loc.line, loc.move_lines, loc.header_lines)
    first_pos: tuple[int, str, str] | None = None
    ply = 0
    state_b = None
    try:
        for ply, st in enumerate(replay_states(moved)):
            state_b = st
            if first_pos is None and _body(st.to_line()) != positions_a[ply]:
                first_pos = (ply, positions_a[ply], _body(st.to_line()))
    except KifuError as e:
        refused = getattr(e, "ply", None) or ply + 1
        where = first_pos or (None, None, None)
        reason = _reason(common["changes"])
        if state_b is not None and state_b.to_move is None:
            # B's game is over before the record's end: its result is there
            rb = state_b.result()
            wb = _winners(rb)
            return RulesDiff(index, False, None, None, res_a, rb.scores if rb else None,
                             True, *where, spec_a, spec_b, kind="sooner",
                             plies_b=refused - 1, winners_b=wb,
                             winner_changed=_moved(_winners(ra), wb), reason=reason, **common)
        if state_b is not None and state_b.to_move == DEALER and refused <= len(moves) \
                and moves[refused - 1].actor != "d":
            # B wants the dealer (the next deal) where the record has a seat playing on:
            # B's rules ended the round there
            deals = sum(1 for x in state_b.history if type(x).__name__ == "Deal")
            return RulesDiff(index, False, refused, str(e), res_a, None, True, None, None,
                             None, spec_a, spec_b, kind="round_over", plies_b=None,
                             round_b=deals or None, reason=reason, **common)
        # a dealer's action refused while the positions are still the record's: the
        # chance events themselves (a deck, a pile) are not those of the other rules
        dealer = refused <= len(moves) and moves[refused - 1].actor == "d" and first_pos is None
        return RulesDiff(index, False, refused, str(e), res_a, None, True, *where, spec_a,
                         spec_b, kind="unreplayable" if dealer else "refused", **common)
    assert state_b is not None
    rb = state_b.result()
    res_b = rb.scores if rb else None
    changed = res_a != res_b or (ra.ranks if ra else None) != (rb.ranks if rb else None)
    same = not changed and first_pos is None
    if rb is None and ra is not None:
        kind = "unfinished"
    elif changed:
        kind = "result"
    else:
        kind = "unchanged" if same else "positions"
    wb = _winners(rb)
    return RulesDiff(index, same, None, None, res_a, res_b, changed,
                     *(first_pos or (None, None, None)), spec_a, spec_b, kind=kind,
                     plies_b=len(moves) if rb is not None else None, winners_b=wb,
                     winner_changed=_moved(_winners(ra), wb), **common)


class RulesSummary(msgspec.Struct, frozen=True):
    """A corpus under other rules, in numbers: records of each kind (:data:`KINDS`), the
    records whose winners change (of those with a result under both), and the mean length
    before and after over the records that end under both rule sets."""

    records: int
    kinds: dict[str, int]
    winners_changed: int
    with_results: int
    mean_plies_a: float | None
    mean_plies_b: float | None


def summarize_rules(rows: Sequence[RulesDiff]) -> RulesSummary:
    """The closing summary of ``kifu diff --rules/--set``."""
    kinds = dict.fromkeys(KINDS, 0)
    for r in rows:
        kinds[r.kind] += 1
    both = [r for r in rows if r.winners_a is not None and r.winners_b is not None]
    ended = [r for r in rows if r.result_a is not None and r.plies_b is not None]
    mean_a = round(sum(r.plies_a for r in ended) / len(ended), 1) if ended else None
    mean_b = round(sum(r.plies_b or 0 for r in ended) / len(ended), 1) if ended else None
    return RulesSummary(len(rows), kinds, sum(1 for r in both if r.winner_changed),
                        len(both), mean_a, mean_b)
