"""Alice position lines: the format, and the reader (``from_line``). The writer
(``AliceState.to_line``/``view``) and the table for people (``render``) are in
``kifu/games/alice/text.py``, below the state machine.

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
from kifu.games.alice import layout as lay
from kifu.games.alice.cards import (
    CODE_TYPE,
    NOUN,
    SK_CATERPILLAR,
    TOKEN,
    TYPE_LETTERS,
    VERB,
    scan_cards,
)
from kifu.games.alice.layout import N1, N2, NONE, PHASES, SLOT_TYPE, SLOTS, SYSTEM, V
from kifu.games.alice.state import AliceState
from kifu.games.alice.variant import AliceVariant

FIELDS = ("phase", "to-move", "turns", "bard", "roles", "sp", "hands", "chars", "sentence",
          "flags", "discard", "story", "check")


_SEAT = re.compile(r"p([0-9])\Z")


def from_line(game: Game, line: str) -> AliceState:
    variant, fields, cols = game.split_fields(line, FIELDS)
    assert isinstance(variant, AliceVariant)
    f = dict(zip(FIELDS, fields, strict=True))
    c = dict(zip(FIELDS, cols, strict=True))

    def err(msg: str, name: str, off: int = 0) -> NotationError:
        return NotationError(f"{name}: {msg}", line=1, col=c[name] + off)

    def cards(text: str, name: str, off: int = 0) -> list[int]:
        try:
            return scan_cards(text, c[name] + off)
        except NotationError as e:
            raise NotationError(f"{name}: {e.message}", line=1, col=e.col) from None

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
    if st.phase == lay.OVER:
        want = "-"
    elif st.phase in lay.DEALER_PHASES:
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
        hands.append(tuple(sorted(cards(p, "hands", col))))
        col += len(p) + 1
    st.hands = tuple(hands)
    cparts = f["chars"].split("/")
    if len(cparts) != n:
        raise err(f"{len(cparts)} Characters for {n} seats", "chars")
    chars = []
    col = 0
    for p in cparts:
        got = cards(p, "chars", col)
        if len(got) > 1 or (got and CODE_TYPE[got[0]] != 0):
            raise err("each seat has one noun as Character, or -", "chars", col)
        chars.append(got[0] if got else NONE)
        col += len(p) + 1
    st.chars = tuple(chars)
    sparts = f["sentence"].split("/")
    if len(sparts) != 5:
        raise err("five slots A1/N1/V/A2/N2", "sentence")
    slots, owners = [], []
    col = 0
    for i, p in enumerate(sparts):
        pile, at, who = p.partition("@")
        if p == "-":
            slots.append(())
            owners.append(NONE)
        else:
            got = tuple(cards(pile, "sentence", col))
            if not at or not got or any(CODE_TYPE[x] != SLOT_TYPE[i] for x in got):
                raise err(f"slot {SLOTS[i]}: expected - or its cards then @owner", "sentence",
                          col)
            slots.append(got)
            owners.append(seat_of(who, "sentence"))
        col += len(p) + 1
    st.slots = tuple(slots)
    st.owners = tuple(owners)
    fl = f["flags"].split("/")
    if len(fl) != 3 or fl[2] not in ("0", "1"):
        raise err("expected acted/out/cat, like 01/2/0", "flags")
    st.acted = mask_of(fl[0], "flags")
    st.out = mask_of(fl[1], "flags")
    st.cat_used = fl[2] == "1"
    st.discard = tuple(sorted(cards(f["discard"], "discard")))
    st.story = tuple(cards(f["story"], "story"))
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
    if st.phase == lay.PLAY and st.out >> st.turn & 1:  # type: ignore[operator]
        raise err("the seat to move is out (said Drink me!)", "to-move")
    bad = playable(st)
    if bad is not None:
        raise err(bad[1], bad[0])
    try:
        st.check_invariants()
    except AssertionError as e:
        raise NotationError(f"inconsistent position: {e}", line=1, col=1) from None
    return st


def playable(st: AliceState) -> tuple[str, str] | None:
    """None if the engine can play on from ``st``, else (field, why not): what every phase
    needs of the fields the engine reads there (issue 21: a line the reader accepts must
    play without anything but kifu's own errors). The rules hold in every reachable position;
    ``tests/test_alice_position_play.py`` mutates lines to look for ones they miss."""
    n, ph, b = st.n, st.phase, st.bard
    slots = st.slots
    setup = ph in (lay.ROLES, lay.DEAL, lay.CHAR)
    in_turn = ph in (lay.BARD, lay.FORCED, lay.PLAY, lay.ADJUST)
    if (ph == lay.ROLES) != (not st.roles):
        return "roles", "the roles are dealt after the roles phase, and only then (- before)"
    if ph != lay.OVER and st.turns >= st.variant.turns:
        return "turns", f"{st.turns} turns of {st.variant.turns} played: the game is over"
    if setup != (b == NONE):
        return "bard", "the first Bard is known once every Character is chosen (- before)"
    if ph != lay.OVER and st.winners:
        return "check", "winners before the game is over"
    if st.fx and ph not in (lay.POOL, lay.BUY, lay.OVER):
        return "check", "pending effects wait in the pool and buy phases only"
    if (st.dtype != NONE) != (ph in (lay.DRAW, lay.FORCED)):
        return "check", "a deck being drawn is named in the draw and forced phases, and only then"
    if (setup or in_turn) and (st.nextbard != NONE or st.cstart or st.cidx):
        return "check", "the next Bard and the Clean Phase bookkeeping are -,0,0 until the check"
    if not (setup or in_turn or ph == lay.OVER) and st.nextbard == NONE:
        return "check", "after the check the next Bard is known"
    # the sentence
    if ph in (lay.ROLES, lay.DEAL, lay.CHAR, lay.POOL, lay.BUY, lay.CLEAN, lay.DRAW):
        if any(slots):
            return "sentence", f"the sentence is empty in the {PHASES[ph]} phase"
    elif ph in (lay.BARD, lay.FORCED):
        if [bool(p) for p in slots] != [False, True, False, False, False] or len(slots[N1]) > 1:
            return "sentence", "before the verb the sentence is the Bard's Character alone"
    elif ph == lay.PLAY:
        if not slots[V]:
            return "sentence", "the Bard's verb opens the sentence"
    elif ph in (lay.ADJUST, lay.SWAP) and not all(slots):
        return "sentence", f"the sentence is complete in the {PHASES[ph]} phase"
    # phase by phase
    if ph in (lay.ROLES, lay.DEAL):
        if any(st.hands) or any(c != NONE for c in st.chars):
            return "hands", "nothing is dealt before the deal"
    elif ph == lay.CHAR:
        t: int = st.turn  # type: ignore[assignment]
        if any((st.chars[s] == NONE) != (s >= t) for s in range(n)):
            return "chars", "the seats before the one to move have chosen their Characters"
        for s in range(t, n):
            if not any(CODE_TYPE[x] == NOUN for x in st.hands[s]):
                return "hands", f"p{s} holds no noun to choose as its Character"
    elif ph == lay.BARD:
        if st.turn != b or st.acted or st.out:
            return "flags", "the Bard opens the sentence before anyone acts"
    elif ph == lay.FORCED:
        if st.dtype != VERB or not st._deck_of(VERB):
            return "check", "the dealer draws the Bard's verb from a verb deck that has one"
        if st.acted != 1 << b or st.out != 1 << b:
            return "flags", "the Bard who drank is the only one out"
    elif ph == lay.ADJUST:
        opp = SYSTEM if st.owners[N2] == b else st.owners[N2]
        t = st.turn  # type: ignore[assignment]
        if st.opp != opp:
            return "check", "the opponent is the owner of N2 (sys if the Bard)"
        if t not in (b, opp) or st.skill(t) != SK_CATERPILLAR:
            return "to-move", "a face-up Caterpillar in the check chooses grow, stay or shrink"
    elif ph == lay.SWAP:
        w, lo = st.win, st.lose
        if not (0 <= w < n and 0 <= lo < n and w != lo and {w, lo} == {b, st.opp}):
            return "check", "a swap follows a check between two players, one the Bard"
        if st.turn != w or not st.prerev or not st.shown >> lo & 1:
            return "check", "the winner chooses a swap when the loser was already face up"
    elif ph == lay.BUY:
        if len(st.hands[st.turn]) < 3:  # type: ignore[index]
            return "hands", "the merchant's owner buys with three cards or more"
    elif ph in (lay.CLEAN, lay.DRAW):
        seat = (st.cstart + st.cidx) % n
        k, lim = len(st.hands[seat]), st.limit(seat)
        if st.cidx >= n or (ph == lay.CLEAN and st.turn != seat):
            return "check", "the seat to refill is the Clean Phase start plus the seats done"
        if ph == lay.CLEAN and not (k > lim or (k < lim and (st.deck or st.discard))):
            return "hands", f"p{seat} has nothing to do in the Clean Phase"
        if ph == lay.DRAW and (k >= lim or not st._deck_of(st.dtype)):
            return "check", "the dealer draws for a seat below its hand size, from a deck " \
                "that has a card"
    return None
