"""Alice position lines and the text picture for ``kifu replay``.

``<rules> <phase> <to-move> <turns> <bard> <roles> <sp> <hands> <chars> <sentence> <flags>
<discard> <story> <check>``, e.g. (one line)::

    alice/1 play p2 0 p0 aqRc 0,0,0,1:1 nS2aD5vH3/aC1aS9nH11/aH4nC7vS2vD9/nD2nH8vC3
      nS5/nS9/nC12/nH6 -/nS5@p0/vC8@p0/aH7@p1/- 01/2/0 - - -,-,-,0,0,0,-,0,0,-,-,-

- phase: ``roles deal char bard forced play adjust swap pool buy clean draw over``;
  to-move: ``p0``.., ``d`` (dealer) or ``-`` (game over); turns: Clean Phases done;
  bard: ``p0``.. or ``-`` before the first turn;
- roles: one letter per seat, upper case = face up, lower case = face down (``-`` before the
  role deal); sp: the seats' SP, comma-separated, then ``:`` and the system's SP;
- hands, chars: ``/`` per seat, tokens concatenated (``-`` for none);
- sentence: the slots A1/N1/V/A2/N2, each ``-`` or its pile bottom first, ``@``, the owner
  of the top card (N1's bottom card is the Bard's Character);
- flags: seats that have acted / seats out (seat digits or ``-``) / Cheshire skill spent
  (``0``/``1``);
- discard (sorted), story (in the order told);
- check: the last check's winner, loser, opponent (``p1``, ``sys`` or ``-``; all ``-``
  after a void turn), whether that loser was already face up
  (0/1), Caterpillar adjustments of the Bard's and the opponent's side, pending effects
  (``P`` = ♥Q redeal, ``B2`` = ♦4 owned by p2; ``-`` none), Clean Phase start seat and
  seats done, deck being drawn (``n v a -``), next Bard, winners (seat digits or ``-``).

The decks are not written: a deck holds every card of the set found in no other zone.
``view(seat)`` replaces the other seats' hands, face-down roles and (while Characters are
being chosen) Characters by ``?``.
"""

from __future__ import annotations

import re
from collections import Counter

from kifu.core.errors import NotationError, VariantError
from kifu.core.game import DEALER, Game
from kifu.core.numbers import is_small_int
from kifu.core.variant import short
from kifu.games.alice.cards import (
    CODE_RANK,
    CODE_TYPE,
    SUIT_SYMBOLS,
    TOKEN,
    TYPE_LETTERS,
    card_set,
    cards_text,
    scan_cards,
)
from kifu.games.alice.state import (
    CHAR,
    DEALER_PHASES,
    NONE,
    OVER,
    PHASES,
    PLAY,
    SLOT_TYPE,
    SLOTS,
    SYSTEM,
    AliceState,
    party,
)
from kifu.games.alice.variant import AliceVariant, rules_spec

FIELDS = ("phase", "to-move", "turns", "bard", "roles", "sp", "hands", "chars", "sentence",
          "flags", "discard", "story", "check")


def _digits(mask: int, n: int) -> str:
    return "".join(str(s) for s in range(n) if mask >> s & 1) or "-"


def write_line(st: AliceState, seat: int | None) -> str:
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


_SEAT = re.compile(r"p([0-9])\Z")


def from_line(game: Game, line: str) -> AliceState:
    variant, fields = game.split_line(line)
    assert isinstance(variant, AliceVariant)
    cols = [m.start() + 1 for m in re.finditer(r"\S+", line)][1:]
    if len(fields) != len(FIELDS):
        raise NotationError(
            f"an alice position has {len(FIELDS) + 1} fields (rules, {', '.join(FIELDS)}), "
            f"not {len(fields) + 1}", line=1,
            col=cols[len(FIELDS)] if len(fields) > len(FIELDS) else len(line) + 1)
    f = dict(zip(FIELDS, fields, strict=True))
    c = dict(zip(FIELDS, cols, strict=True))

    def err(msg: str, name: str, off: int = 0) -> NotationError:
        return NotationError(f"{name}: {msg}", line=1, col=c[name] + off)

    if "?" in line:
        raise NotationError("hidden cards or roles (?): a seat's view cannot be read as a "
                            "position", line=1, col=line.index("?") + 1)
    hand_parts = f["hands"].split("/")
    n = len(hand_parts)
    try:
        game.check_players(n)
        st = AliceState(n, variant)
    except VariantError as e:
        raise err(str(e), "hands") from None

    def seat_of(text: str, name: str, *, sys_ok: bool = False) -> int:
        if text == "-":
            return NONE
        if sys_ok and text == "sys":
            return SYSTEM
        m = _SEAT.match(text)
        if not m or int(m.group(1)) >= n:
            raise err(f"expected p0..p{n - 1}{', sys' if sys_ok else ''} or -, got {short(text)}",
                      name)
        return int(m.group(1))

    def mask_of(text: str, name: str) -> int:
        if text == "-":
            return 0
        if not re.fullmatch(r"[0-9]+", text) or any(int(d) >= n for d in text) or \
                list(text) != sorted(set(text)):
            raise err(f"expected seat digits in order (0..{n - 1}) or -, got {short(text)}", name)
        return sum(1 << int(d) for d in text)

    if f["phase"] not in PHASES:
        raise err(f"expected one of {', '.join(PHASES)}", "phase")
    st.phase = PHASES.index(f["phase"])
    tm = f["to-move"]
    if st.phase == OVER:
        want = "-"
    elif st.phase in DEALER_PHASES:
        want = "d"
    else:
        want = tm if _SEAT.match(tm) and int(tm[1:]) < n else f"p0..p{n - 1}"
    if tm != want:
        raise err(f"the position needs {want}, not {short(tm)}", "to-move")
    st.turn = None if tm == "-" else (DEALER if tm == "d" else int(tm[1:]))
    if not is_small_int(f["turns"]) or \
            int(f["turns"]) > variant.turns:
        raise err(f"expected 0..{variant.turns}", "turns")
    st.turns = int(f["turns"])
    st.bard = seat_of(f["bard"], "bard")
    letters = st._tb.role_letters
    if f["roles"] != "-":
        r = f["roles"]
        if len(r) != n or any(ch.upper() not in letters for ch in r):
            raise err(f"expected {n} role letters of {letters} (lower case = face down)",
                      "roles")
        st.roles = tuple(letters.index(ch.upper()) for ch in r)
        if len(set(st.roles)) != n:
            raise err("each role is dealt once", "roles")
        st.shown = sum(1 << s for s, ch in enumerate(r) if ch.isupper())
    m = re.fullmatch(r"([0-9]{1,9}(?:,[0-9]{1,9})*):([0-9]{1,9})", f["sp"])
    if not m or len(m.group(1).split(",")) != n:
        raise err(f"expected {n} SP counts and the system's, like 0,1,0:2", "sp")
    st.sp = tuple(int(x) for x in m.group(1).split(","))
    st.sys_sp = int(m.group(2))
    col = 0
    hands = []
    for p in hand_parts:
        if not p:
            raise err("empty hand (use - for none)", "hands", col)
        hands.append(tuple(sorted(scan_cards(p, c["hands"] + col))))
        col += len(p) + 1
    st.hands = tuple(hands)
    cparts = f["chars"].split("/")
    if len(cparts) != n:
        raise err(f"{len(cparts)} Characters for {n} seats", "chars")
    chars = []
    for p in cparts:
        got = scan_cards(p, c["chars"])
        if len(got) > 1 or (got and CODE_TYPE[got[0]] != 0):
            raise err("each seat has one noun as Character, or -", "chars")
        chars.append(got[0] if got else NONE)
    st.chars = tuple(chars)
    sparts = f["sentence"].split("/")
    if len(sparts) != 5:
        raise err("five slots A1/N1/V/A2/N2", "sentence")
    slots, owners = [], []
    for i, p in enumerate(sparts):
        if p == "-":
            slots.append(())
            owners.append(NONE)
            continue
        pile, at, who = p.partition("@")
        got = tuple(scan_cards(pile, c["sentence"]))
        if not at or not got or any(CODE_TYPE[x] != SLOT_TYPE[i] for x in got):
            raise err(f"slot {SLOTS[i]}: expected - or its cards then @owner", "sentence")
        slots.append(got)
        owners.append(seat_of(who, "sentence"))
    st.slots = tuple(slots)
    st.owners = tuple(owners)
    fl = f["flags"].split("/")
    if len(fl) != 3 or fl[2] not in ("0", "1"):
        raise err("expected acted/out/cat, like 01/2/0", "flags")
    st.acted = mask_of(fl[0], "flags")
    st.out = mask_of(fl[1], "flags")
    st.cat_used = fl[2] == "1"
    st.discard = tuple(sorted(scan_cards(f["discard"], c["discard"])))
    st.story = tuple(scan_cards(f["story"], c["story"]))
    ck = f["check"].split(",")
    if len(ck) != 12:
        raise err("expected 12 comma-separated check fields", "check")
    st.win = seat_of(ck[0], "check", sys_ok=True)
    st.lose = seat_of(ck[1], "check", sys_ok=True)
    st.opp = seat_of(ck[2], "check", sys_ok=True)
    if ck[3] not in ("0", "1") or ck[4] not in ("-1", "0", "1") or \
            ck[5] not in ("-1", "0", "1"):
        raise err("bad loser-revealed flag or Caterpillar adjustment", "check")
    st.prerev = ck[3] == "1"
    st.adj = (int(ck[4]), int(ck[5]))
    fx = []
    if ck[6] != "-":
        for m2 in re.finditer(r"P|B([0-9])|(.)", ck[6]):
            if m2.group(2) is not None or (m2.group(1) and int(m2.group(1)) >= n):
                raise err("pending effects: P or B<seat>", "check")
            fx.append((1, NONE) if m2.group(0) == "P" else (2, int(m2.group(1))))
    st.fx = tuple(fx)
    if not (is_small_int(ck[7]) and is_small_int(ck[8]) and int(ck[7]) < n and int(ck[8]) <= n):
        raise err("bad Clean Phase start or count", "check")
    st.cstart, st.cidx = int(ck[7]), int(ck[8])
    if ck[9] not in ("-", *TYPE_LETTERS):
        raise err("the deck drawn is n, v, a or -", "check")
    st.dtype = NONE if ck[9] == "-" else TYPE_LETTERS.index(ck[9])
    st.nextbard = seat_of(ck[10], "check")
    st.winners = mask_of(ck[11], "check")
    # the decks: every card of the set found nowhere else
    have: Counter[int] = Counter()
    for h in st.hands:
        have.update(h)
    have.update(x for x in st.chars if x != NONE)
    for i, p in enumerate(st.slots):
        have.update(p[1:] if i == 1 else p)
    have.update(st.discard)
    have.update(st.story)
    in_set = set(st._tb.deck_all)
    for code, k in have.items():
        if code not in in_set:
            raise err(f"{TOKEN[code]} is not in card set {variant.cards!r}", "hands")
        if k > 1:
            raise err(f"{TOKEN[code]} appears {k} times", "hands")
    st.deck = tuple(x for x in st._tb.deck_all if x not in have)
    if st.slots[1] and (st.bard == NONE or st.slots[1][0] != st.chars[st.bard]):
        raise err("N1's bottom card must be the Bard's Character", "sentence")
    if st.phase == PLAY and st.out >> st.turn & 1:  # type: ignore[operator]
        raise err("the seat to move is out (said Drink me!)", "to-move")
    try:
        st.check_invariants()
    except AssertionError as e:
        raise NotationError(f"inconsistent position: {e}", line=1, col=1) from None
    return st


def render(st: AliceState, seat: int | None = None) -> str:
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
