"""Alice's text: the position line (``write_line``; the format is described in
``kifu/games/alice/position.py``, which reads it back) and the table for people (``render``,
for ``kifu replay``).

This module sits below the state machine: it reads a state's fields but imports nothing of
``state``, so ``AliceState.to_line``/``view``/``render`` call it without an import cycle.
"""

from __future__ import annotations

from typing import Any, Protocol

from kifu.core.game import DEALER, Result
from kifu.games.alice.cards import (
    CODE_RANK,
    SUIT_SYMBOLS,
    TOKEN,
    TYPE_LETTERS,
    card_set,
    cards_text,
)
from kifu.games.alice.layout import CHAR, NONE, OVER, PHASES, SLOTS, party
from kifu.games.alice.variant import rules_spec


class Position(Protocol):
    """What the writer reads of a state (``AliceState`` has all of it)."""

    n: int
    variant: Any
    _tb: Any
    phase: int
    turn: int | None
    turns: int
    bard: int
    roles: tuple[int, ...]
    shown: int
    sp: tuple[int, ...]
    sys_sp: int
    hands: tuple[tuple[int, ...], ...]
    chars: tuple[int, ...]
    slots: tuple[tuple[int, ...], ...]
    owners: tuple[int, ...]
    acted: int
    out: int
    cat_used: bool
    story: tuple[int, ...]
    win: int
    lose: int
    opp: int
    prerev: bool
    adj: tuple[int, int]
    fx: tuple[tuple[int, int], ...]
    cstart: int
    cidx: int
    dtype: int
    nextbard: int
    winners: int

    @property
    def deck(self) -> tuple[int, ...]: ...

    @property
    def discard(self) -> tuple[int, ...]: ...

    def totals(self) -> tuple[int, int]: ...

    def result(self) -> Result | None: ...


def _digits(mask: int, n: int) -> str:
    return "".join(str(s) for s in range(n) if mask >> s & 1) or "-"


def write_line(st: Position, seat: int | None) -> str:
    n = st.n
    letters = st._tb.role_letters
    if st.roles:
        roles = "".join(
            (letters[r] if st.shown >> s & 1 else
             ("?" if seat is not None and seat != s else letters[r].lower()))
            for s, r in enumerate(st.roles))
    else:
        roles = "-"
    hands = "/".join(
        ("?" * len(h) or "-") if seat is not None and seat != s else cards_text(h)
        for s, h in enumerate(st.hands))
    chars = "/".join(
        "-" if c == NONE else
        ("?" if seat is not None and seat != s and st.phase == CHAR else TOKEN[c])
        for s, c in enumerate(st.chars))
    sentence = "/".join(
        f"{cards_text(p)}@p{st.owners[i]}" if p else "-" for i, p in enumerate(st.slots))
    flags = f"{_digits(st.acted, n)}/{_digits(st.out, n)}/{int(st.cat_used)}"
    fx = "".join("P" if k == 1 else f"B{o}" for k, o in st.fx) or "-"
    check = ",".join((
        party(st.win), party(st.lose), party(st.opp), str(int(st.prerev)),
        str(st.adj[0]), str(st.adj[1]), fx, str(st.cstart), str(st.cidx),
        "-" if st.dtype == NONE else TYPE_LETTERS[st.dtype], party(st.nextbard),
        _digits(st.winners, n)))
    turn = "-" if st.turn is None else ("d" if st.turn == DEALER else f"p{st.turn}")
    sp = ",".join(map(str, st.sp)) + f":{st.sys_sp}"
    return " ".join((
        rules_spec(st.variant), PHASES[st.phase], turn, str(st.turns), party(st.bard), roles,
        sp, hands, chars, sentence, flags, cards_text(st.discard), cards_text(st.story),
        check))


def render(st: Position, seat: int | None = None) -> str:
    """The table for people: roles, SP, hands, the sentence as words with owners. With
    ``seat``, only what that seat sees: the other hands, the face-down roles of the others
    and, while Characters are chosen, their Characters as ``?`` (as ``view`` hides them)."""
    n = st.n
    cs = card_set(st.variant.cards)
    word = st._tb.word
    seen = "" if seat is None else f", as p{seat} sees it (hidden cards are ?)"
    lines = [f"Alice, {n} players, rules {rules_spec(st.variant)}, card set {cs.name}{seen}",
             f"turn {st.turns + 1} of {st.variant.turns}, phase {PHASES[st.phase]}"
             + (f", Bard p{st.bard}" if st.bard != NONE else "")]
    for s in range(n):
        other = seat is not None and s != seat
        role = "?"
        if st.roles and not (other and not st.shown >> s & 1):
            r = cs.roles[st.roles[s]]
            role = f"{r.title} ({'face up' if st.shown >> s & 1 else 'face down'}, wins at "\
                f"SP {r.win})"
        elif st.roles:
            role = "role ? (face down)"
        mark = " <- to move" if st.turn == s else ""
        if s == seat:
            mark += " (you)"
        out = " (out)" if st.out >> s & 1 else ""
        ch = TOKEN[st.chars[s]] if st.chars[s] != NONE else "-"
        if other and st.chars[s] != NONE and st.phase == CHAR:
            ch = "?"
        hand = ("?" * len(st.hands[s]) or "-") if other else cards_text(st.hands[s])
        lines.append(f"p{s}: SP {st.sp[s]}, {role}, Character {ch}, hand {hand}{out}{mark}")
    lines.append(f"system SP {st.sys_sp}")
    if any(st.slots):
        shown = []
        for i, p in enumerate(st.slots):
            if not p:
                shown.append(f"{SLOTS[i]} ____")
                continue
            top = p[-1]
            w = word[top]
            text = f"{w} ({TOKEN[top]} {SUIT_SYMBOLS[top // 13 % 4]}{CODE_RANK[top]}, " \
                f"p{st.owners[i]}"
            if len(p) > 1:
                text += f", over {cards_text(p[:-1])}"
            shown.append(f"{SLOTS[i]} {text})")
        words = " ".join(word[p[-1]] if p else "___" for p in st.slots)
        lines.append(f"sentence: {words}")
        lines.extend("  " + s for s in shown)
        if all(st.slots):
            t1, t2 = st.totals()
            lines.append(f"21 totals: Bard's side {t1}, object's side {t2}")
    if st.story:
        lines.append("story: " + " ".join(word[x] for x in st.story))
    lines.append(f"discard {cards_text(st.discard)}; deck {len(st.deck)} cards")
    if st.phase == OVER:
        r = st.result()
        assert r is not None
        lines.append("result: " + " ".join(f"p{s} {r.scores[s]} (rank {r.ranks[s]})"
                                           for s in range(n)))
    return "\n".join(lines)
