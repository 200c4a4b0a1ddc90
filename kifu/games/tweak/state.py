"""The TWEAK state machine (rulings numbered as in ``docs/rules/tweak.md``).

Phases: the first round's dealer is drawn (``FIRST``), each round starts with a shuffle
(``DEAL``), then players take turns (``TURN``); a Bomb hands the move to its victims
(``BOMB``) and a Thief to the dealer (``STEAL``); ``OVER`` ends the game.

Every zone is an immutable tuple of card codes (sorted, so equal multisets are equal
tuples); the deck and the T! pile are fixed for the round and read through a position
pointer. ``push`` saves a snapshot of the fields and ``pop`` restores it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections import deque
from collections.abc import Hashable
from fractions import Fraction
from struct import Struct

from kifu.core.errors import IllegalActionError, multiset_diff
from kifu.core.game import DEALER, Action, Result, State
from kifu.core.memo import trim
from kifu.core.variant import rules_spec
from kifu.games.tweak.actions import (
    BOMB_ALL,
    DEALER_IS,
    JOKER_DOWN,
    JOKER_UP,
    PASS,
    PLACE,
    SHIFT,
    STEAL,
    THIEF_ON,
    Capture,
    ChooseDealer,
    Deal,
    Pass,
    Place,
    Steal,
    UseBomb,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.games.tweak.cards import (
    BOMB,
    DEFAULT_BACKS,
    FACE,
    JOKER,
    N_CODES,
    SHIFTER,
    T_LETTERS,
    THIEF,
    THRESHOLDS,
    TOKEN,
    cards_text,
    colours_for,
    number_deck,
)
from kifu.games.tweak.variant import GAME_ID, RULES_VERSION, TweakVariant

FIRST, DEAL, TURN, BOMB_PHASE, STEAL_PHASE, OVER = range(6)
_MOVERLESS = {FIRST: "F", DEAL: "D", OVER: "E"}
"""The position-line tokens of the phases with no player to move."""
HAND_SIZE = 3
TABLE_REFILL = 2
EMPTY_DECK_TARGET = 7

# --- capture enumeration ------------------------------------------------------------------

_SUBSETS: dict[tuple[int, ...], list[int]] = {}
"""``subsets``' memo: table -> its sub-multisets as sorted int codes (:func:`_sum_codes`)."""
_SUBSETS_MAX = 250_000
"""Entries each of the engine's memos of small entries holds before it is cleared."""
_TABLES_MAX = 1 << 16
"""Tables :data:`_SUBSETS` and :data:`_CAPTURES` hold before their older half is dropped
(:func:`kifu.core.memo.trim`): their entries are about 1.1 KB and 1.8 KB (a list of codes, a
dict of action tuples), so 250,000 of each could come to 700 MB (``docs/performance.md``,
*Memory of the memos*)."""
_CAPTURES: dict[tuple[int, ...], dict[int, tuple[Action, ...]]] = {}
"""``legal_actions``' memo: table -> {hand card + 64 * sum: its Place and Capture actions
(shared, frozen)}. Keyed by the table first, so a position hashes its table once, and a
cold search makes one small dict per table rather than a key tuple per hand card."""

# A sub-multiset of a table of at most _CODE_MAX cards is an int code: its faces' sum times
# 2**_CODE_BITS plus its *card key*, a 4-bit count of copies for each number card code, the
# lowest code in the highest bits. A card key names the multiset whatever the table, so a
# search builds each taken tuple and each Capture once (far fewer than its tables' sub-
# multisets: a cold perft pass meets 21,876 sub-multisets but 1,476 distinct ones), and of
# one sum, the codes sorted as ints are in :func:`_enumerate`'s order (by the copies taken
# of the lowest card, then of the next ...): one sort per table puts each sum's sub-
# multisets in a run found by bisection.
_CARD_BITS = 4
_CODE_MAX = (1 << _CARD_BITS) - 1
_CODE_BITS = _CARD_BITS * THIEF
_CODE_MASK = (1 << _CODE_BITS) - 1
_CODE_SUM = 1 << _CODE_BITS
_CARD_KEY = tuple(1 << (_CARD_BITS * (THIEF - 1 - c)) for c in range(THIEF))
"""``_CARD_KEY[code]``: one copy of a number card in a card key."""
_TAKEN: dict[int, tuple[int, ...]] = {}
"""Card key -> the sorted tuple of codes it names (shared by every table)."""
_CAPTURE_OF: tuple[dict[int, Capture], ...] = tuple({} for _ in range(THIEF))
"""``_CAPTURE_OF[card]``: sub-multiset code -> the shared ``Capture(card, taken)`` (the
code's sum is its card key's, so the code names the taken cards alone)."""


def clear_caches() -> None:
    """Empty every memo of the engine (a cold start; for benchmarks)."""
    for memo in (_SUBSETS, _CAPTURES, _POLYS, _PLAYS, _PLAY_ROWS, _TAKEN, _POINTS_OF,
                 *_CAPTURE_OF):
        memo.clear()


def _taken(key: int) -> tuple[int, ...]:
    """The sorted codes a card key names (memoised)."""
    found = _TAKEN.get(key)
    if found is None:
        if len(_TAKEN) >= _SUBSETS_MAX:
            _TAKEN.clear()
        out: list[int] = []
        k = key
        while k:  # the highest field left is the lowest code left
            shift = (k.bit_length() - 1) // _CARD_BITS * _CARD_BITS
            out += [THIEF - 1 - shift // _CARD_BITS] * (k >> shift)
            k &= (1 << shift) - 1
        found = _TAKEN[key] = tuple(out)
    return found


def _codes(table: tuple[int, ...]) -> list[int] | None:
    """The table's sorted sub-multiset codes (memoised), or None for a table beyond them."""
    codes = _SUBSETS.get(table)
    if codes is None:
        if len(table) > _CODE_MAX or (table and table[-1] >= THIEF):
            return None
        if len(_SUBSETS) >= _TABLES_MAX:
            trim(_SUBSETS, _TABLES_MAX)
        codes = _SUBSETS[table] = _sum_codes(table)
    return codes


def subsets(table: tuple[int, ...], s: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct sub-multiset of ``table`` (a sorted tuple of codes) whose faces sum to
    ``s``, each as a sorted tuple; identical cards are one choice. The order is that of a
    depth-first search over the groups of identical cards, each tried without the card
    first, then with 1, 2.. copies (:func:`_enumerate`). The first ask for a table lists
    every sub-multiset of it up to ``MAX_SUM`` as sorted int codes (:func:`_sum_codes`);
    each ask cuts one sum's run out of them.

    >>> subsets((0, 0, 1, 6), 4)   # R1 R1 R2 O1
    ((0, 1, 6), (0, 0, 1))
    """
    codes = _codes(table) if 0 <= s <= MAX_SUM else None
    if codes is None:
        return _enumerate(table, s)  # beyond the rules (see MAX_SUM)
    lo = s << _CODE_BITS
    i = bisect_left(codes, lo)
    j = bisect_left(codes, lo + _CODE_SUM, i)
    taken = _TAKEN.get
    out = []
    for m in codes[i:j]:
        sub = taken(m - lo)
        out.append(_taken(m - lo) if sub is None else sub)
    return tuple(out)


def _captures(table: tuple[int, ...], c: int, s: int) -> tuple[Capture, ...]:
    """``Capture(c, sub)`` for each ``sub`` of ``subsets(table, s)``, in order, shared."""
    codes = _SUBSETS.get(table)
    if codes is None:
        codes = _codes(table)
    if codes is None or not 0 <= s <= MAX_SUM or c >= THIEF:
        return tuple([Capture(c, sub) for sub in subsets(table, s)])
    lo = s << _CODE_BITS
    i = bisect_left(codes, lo)
    j = bisect_left(codes, lo + _CODE_SUM, i)
    memo = _CAPTURE_OF[c]
    if len(memo) >= _SUBSETS_MAX:
        memo.clear()
    get = memo.get
    out = []
    for m in codes[i:j]:
        cap = get(m)
        if cap is None:
            cap = memo[m] = Capture(c, _taken(m - lo))
        out.append(cap)
    return tuple(out)


def _sum_codes(table: tuple[int, ...]) -> list[int]:
    """Every sub-multiset of ``table`` (number cards, at most ``_CODE_MAX``) with faces
    summing to at most ``MAX_SUM``, as int codes (see ``_CODE_BITS``), sorted.

    They are built from the last group of identical cards to the first: with 0 copies of a
    group, then 1, 2.. copies, each added to every sub-multiset of the groups after it; sums
    above ``MAX_SUM`` are dropped as they appear."""
    limit = (MAX_SUM + 1) << _CODE_BITS
    codes = [0]
    i = len(table)
    while i:
        c = table[i - 1]
        j = i - 1
        while j and table[j - 1] == c:
            j -= 1
        step = FACE[c] << _CODE_BITS
        one = step + _CARD_KEY[c]
        if j == i - 1:  # a single copy
            top = limit - step
            codes += [x + one for x in codes if x < top]
        else:
            base = codes
            codes = list(base)
            inc = 0
            top = limit
            for _ in range(j, i):
                inc += one
                top -= step
                if top <= 0:
                    break
                codes += [x + inc for x in base if x < top]
        i = j
    codes.sort()
    return codes


def _enumerate(table: tuple[int, ...], s: int) -> tuple[tuple[int, ...], ...]:
    """The sub-multisets of ``table`` summing to ``s`` by a plain search (the reference
    order, and the path for sums beyond ``MAX_SUM``): by the first group of identical
    cards, those without it (the rest's own sub-multisets), then those with 1, 2.. copies
    of it followed by a sub-multiset of the rest."""
    if s < 0:
        return ()
    if s == 0:
        return ((),)
    n = len(table)
    if not n:
        return ()
    c = table[0]
    g = 1
    while g < n and table[g] == c:
        g += 1
    rest = table[g:]
    out = list(_enumerate(rest, s)) if rest else []
    face = FACE[c]
    prefix: tuple[int, ...] = ()
    for k in range(1, g + 1):
        need = s - k * face
        if need < 0:
            break
        prefix += (c,)
        if need == 0:
            out.append(prefix)
            break
        if rest:
            out += [prefix + sub for sub in _enumerate(rest, need)]
    return tuple(out)


# --- counting captures without building them ------------------------------------------------
# perft's leaves only need *how many* captures each hand card has. The number of
# sub-multisets of the table whose faces sum to s is the coefficient of x^s in
#     prod over distinct table cards c (with m copies) of (1 + x^f(c) + ... + x^(m f(c)))
# kept as one Python int with a 64-bit field per power of x (sums 0..MAX_SUM): multiplying by
# (1 + x^f) is a shift and an add, so a 12-card table costs a dozen big-int operations and
# no tuples, and the fields unpack in one ``struct`` call. 64 bits hold any count (there are
# fewer than 2^48 sub-multisets of 10 or fewer cards of a 54-card deck); a sum above MAX_SUM
# (impossible under the rules: the target is at most 10 + 1 and a hand card's face at least
# 1) falls back to counting ``subsets``.

_W = 64
_FIELD = (1 << _W) - 1
MAX_SUM = 10
_MASK = (1 << (_W * (MAX_SUM + 1))) - 1
_SHIFTS = tuple(_W * f for f in FACE)
_COUNTS_BYTES = (MAX_SUM + 1) * 8
_UNPACK_COUNTS = Struct(f"<{MAX_SUM + 1}Q").unpack
_POLYS: dict[tuple[int, ...], int] = {}
"""``subset_poly``'s memo: table -> its packed subset-sum polynomial."""
_PLAYS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""``count_legal``'s memo: table -> ``(1, 1 + count(1), .., 1 + count(MAX_SUM))``: for a
hand card whose face lacks ``s`` of the target, its legal plays (its Place and a Capture
per non-empty sub-multiset summing to ``s``) at index ``s`` (see :func:`_plays`)."""
_PLAY_ROWS: dict[bytes, tuple[int, ...]] = {}
"""The distinct small-table entries of :data:`_PLAYS`, by their bytes: one shared tuple
each, so a cold search makes far fewer tuples for the garbage collector to track."""
_PLUS_ONE = sum(1 << (_W * s) for s in range(MAX_SUM + 1)) - 1
"""Added to a table's polynomial: every field one more, but field 0 (the empty
sub-multiset: no capture) one less."""
_SMALL_TABLE = 8
"""Tables of at most this many cards count in 8-bit fields (see :func:`_plays`). No field
overflows: all fields together (every sum, not only up to MAX_SUM) count at most the 2**8
sub-multisets of 8 cards, field 0 the empty one, so a field holds at most 255 while the
polynomial is built; the 1 added for the Place would overflow only if every non-empty
sub-multiset had one sum, and a card alone and with another differ."""
_MASK8 = (1 << (8 * (MAX_SUM + 1))) - 1
_SHIFTS8 = tuple(8 * f for f in FACE)
_PLUS_ONE8 = sum(1 << (8 * s) for s in range(MAX_SUM + 1)) - 1
_GAPS = {t: tuple(t - f for f in FACE) for t in range(6, MAX_SUM + 2)}
"""``_GAPS[target][code]``: what a hand card lacks of a target of the rules (6..11); its
faces 1..6 lack 0..MAX_SUM."""


def subset_poly(table: tuple[int, ...]) -> int:
    """The packed polynomial whose field ``s`` counts the sub-multisets of ``table`` (a
    sorted tuple of codes) with faces summing to ``s`` (``0 <= s <= MAX_SUM``). Memoised.

    >>> p = subset_poly((0, 0, 1))   # R1 R1 R2: sums 1 (R1), 2 (R1R1, R2), 3 (R1R2), 4
    >>> [subset_count(p, s) for s in range(6)]
    [1, 1, 2, 1, 1, 0]
    """
    found = _POLYS.get(table)
    if found is not None:
        return found
    if len(_POLYS) >= _SUBSETS_MAX:
        _POLYS.clear()
    p = _POLYS[table] = _poly(table, 1, _MASK)
    return p


def _poly(
    table: tuple[int, ...], p: int, mask: int, shifts: tuple[int, ...] = _SHIFTS
) -> int:
    """``p`` times the subset-sum factors of ``table``'s cards, cut to ``mask`` (fields of
    the width ``shifts`` is made for)."""
    prev = -1
    run = p
    for c in table:
        if c == prev:  # another copy: extend the last factor by one more power
            run = (run << shifts[c]) & mask
            p += run
        else:
            prev = c
            run = (p << shifts[c]) & mask
            p += run
    return p


def sum_counts(table: tuple[int, ...]) -> tuple[int, ...]:
    """``(0, count(1), .., count(MAX_SUM))`` for ``table``: the number of its non-empty
    sub-multisets summing to each ``s`` (at index ``s``; the empty one is left out, so
    index 0 reads 0). Memoised (as :func:`_plays`).

    >>> sum_counts((0, 0, 1))[:6]
    (0, 1, 2, 1, 1, 0)
    """
    plays = _PLAYS.get(table)
    if plays is None:
        plays = _plays(table)
    return (0, *[k - 1 for k in plays[1:]])


def _plays(table: tuple[int, ...]) -> tuple[int, ...]:
    """:data:`_PLAYS`' entry for ``table``, made and memoised. A table of at most
    ``_SMALL_TABLE`` cards has at most 2**8 sub-multisets, so its counts fit bytes: its
    polynomial is built with 8-bit fields (a 3-digit int rather than 24) and read by one
    ``to_bytes``. (Kept as a tuple: indexing ``bytes`` is slower on the hot path.)"""
    if len(_PLAYS) >= _SUBSETS_MAX:
        _PLAYS.clear()
    if len(table) <= _SMALL_TABLE and not (table and table[-1] >= THIEF):
        # _poly inline (faces 1 or more), cut to MAX_SUM only at the end
        shifts = _SHIFTS8
        p = run = 1
        prev = -1
        for c in table:
            if c == prev:  # another copy: extend the last factor by one more power
                run <<= shifts[c]
            else:
                prev = c
                run = p << shifts[c]
            p += run
        row = ((p & _MASK8) + _PLUS_ONE8).to_bytes(MAX_SUM + 1, "little")
        found = _PLAY_ROWS.get(row)
        if found is None:  # tables share rows (a perft pass: 11,388 tables, 1,030 rows)
            if len(_PLAY_ROWS) >= _SUBSETS_MAX:
                _PLAY_ROWS.clear()
            found = _PLAY_ROWS[row] = tuple(row)
        _PLAYS[table] = found
        return found
    p = _poly(table, 1, _MASK) + _PLUS_ONE
    found = _PLAYS[table] = _UNPACK_COUNTS(p.to_bytes(_COUNTS_BYTES, "little"))
    return found


def subset_count(poly: int, s: int) -> int:
    """Field ``s`` of a :func:`subset_poly` (0 for a negative sum)."""
    if s < 0:
        return 0
    return (poly >> (_W * s)) & _FIELD


# --- won piles as one packed int --------------------------------------------------------------
# A won pile only grows during a round and is read for points, text and keys, never searched,
# so every seat's pile lives in one int: 8 bits per (seat, card code) count copies of that card.
# A capture adds a few table entries (no sort, no tuple rebuilt) and undo restores one int.

_PILE_WIDTH = 8
_PILE_MAX = (1 << _PILE_WIDTH) - 1
_PILE_SEAT = N_CODES * _PILE_WIDTH
_PILE_SEAT_MASK = (1 << _PILE_SEAT) - 1
_PILE_BIT = tuple(
    tuple(1 << (seat * _PILE_SEAT + c * _PILE_WIDTH) for c in range(N_CODES)) for seat in range(8)
)
"""``_PILE_BIT[seat][code]``: what one more ``code`` in ``seat``'s pile adds to the int."""


_RED = slice(0, 6)
"""The red number cards' codes (colour 0)."""
_FIVES = slice(4, THIEF, 6)
"""The 5s' codes (face 5 is code 4 of each colour)."""
_RED_FIVE = 4
_T_CARDS = slice(THIEF, N_CODES)


_POINTS_OF: dict[bytes, int] = {}
"""A won pile's count bytes -> :func:`pile_points` (``_end_round``'s memo; bounded)."""
_POINTS_OF_MAX = 1 << 16


def pile_points(counts: bytes) -> int:
    """The points of a won pile given as its count bytes (one a code): ``POINTS``
    (ruling 10) as a sum of slices. Each card is 1; a red card 2 more; a 5 3 more; the red
    5, counted as both, 1 less; a T! card 1 more. ``sum(map(mul, counts, POINTS))``, which
    costs a multiplication per code (``tests/test_validate3_points.py`` checks the two
    on every code: the sum is linear in the counts)."""
    return (
        sum(counts)
        + 2 * sum(counts[_RED])
        + 3 * sum(counts[_FIVES])
        - counts[_RED_FIVE]
        + sum(counts[_T_CARDS])
    )


def pack_piles(piles: tuple[tuple[int, ...], ...]) -> int:
    """The packed int of a tuple of won piles (each a sorted tuple of codes).

    >>> unpack_piles(pack_piles(((0, 0, 37), (), (5,))), 3)
    ((0, 0, 37), (), (5,))
    """
    bits = 0
    for seat, pile in enumerate(piles):
        if any(pile.count(c) > _PILE_MAX for c in set(pile)):
            raise ValueError(f"a won pile holds at most {_PILE_MAX} copies of a card")
        bit = _PILE_BIT[seat]
        for c in pile:
            bits += bit[c]
    return bits


def unpack_piles(bits: int, n: int) -> tuple[tuple[int, ...], ...]:
    """The ``n`` won piles (sorted tuples of codes) packed in ``bits``."""
    out = []
    for seat in range(n):
        counts = ((bits >> (seat * _PILE_SEAT)) & _PILE_SEAT_MASK).to_bytes(N_CODES, "little")
        out.append(tuple([c for c, k in enumerate(counts) if k for _ in range(k)]))
    return tuple(out)


def tops(backs: tuple[int, ...], deck: tuple[int, ...]) -> tuple[int, ...]:
    """The target with the deck drawn down to each position: the back of the card on top,
    then 7 for the empty deck (ruling 4). A state keeps it beside its deck (``_tops``, set
    by the ``deck`` property and restored with the deck by the whole snapshot)."""
    return (*[backs[c] for c in deck], EMPTY_DECK_TARGET)


_TARGET_TABLES: dict[int, tuple[tuple[int, ...], bytes]] = {}
"""id(backs) -> (backs, a 256-byte table code -> back), for ``_targets`` (bounded)."""


def _targets(backs: tuple[int, ...], deck: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`tops` for a deck of card codes, the backs read by one ``bytes.translate``
    (the table kept per backs tuple, 255 for a code without a back); anything else goes
    to ``tops``, which gives the same tuple or raises the same error."""
    found = _TARGET_TABLES.get(id(backs))
    if found is None or found[0] is not backs:
        if len(backs) > 256 or not all(type(b) is int and 0 <= b < 255 for b in backs):
            return tops(backs, deck)
        if len(_TARGET_TABLES) >= 64:
            _TARGET_TABLES.clear()
        found = _TARGET_TABLES[id(backs)] = (backs, bytes(backs) + b"\xff" * (256 - len(backs)))
    try:
        got = bytes(deck).translate(found[1])
    except (TypeError, ValueError):  # not codes 0..255
        return tops(backs, deck)
    if 255 in got:  # a code with no back: tops() raises what it raises
        return tops(backs, deck)
    return (*got, EMPTY_DECK_TARGET)


def _refill(h: list[int], c: int, deck: tuple[int, ...], dpos: int) -> int:
    """Ruling 6 at the end of a turn, for ``run_moves``: the mover's sorted hand ``h``
    (edited in place) loses the card ``c`` it played and draws back up to ``HAND_SIZE``
    from ``deck[dpos:]``; returns the new ``dpos``. (``push`` does the same inline, on
    perft's hot path; tests/test_validate3_run.py and tests/test_run_moves_mutations.py
    hold the two to one another.)"""
    left = len(deck) - dpos
    if left > 0 and len(h) == HAND_SIZE:  # one short: the deck's top takes its place
        h[h.index(c)] = deck[dpos]
        h.sort()
        return dpos + 1
    h.remove(c)
    if left > 0:  # short by more (after a Bomb or a Thief)
        k = HAND_SIZE - len(h)
        if k > left:
            k = left
        h += deck[dpos : dpos + k]
        h.sort()
        dpos += k
    return dpos


def _next_holder(hands, m: int, n: int) -> int:
    """Ruling 8, the deck empty: the first seat after ``m`` whose hand (a tuple or list in
    ``hands``) holds cards; some hand must."""
    m = (m + 1) % n
    while not hands[m]:
        m = (m + 1) % n
    return m


def _without(t: tuple[int, ...], c: int) -> tuple[int, ...]:
    i = t.index(c)
    return t[:i] + t[i + 1 :]


def _with(t: tuple[int, ...], c: int) -> tuple[int, ...]:
    lst = list(t)
    insort(lst, c)
    return tuple(lst)


def _without_all(t: tuple[int, ...], cs: tuple[int, ...]) -> tuple[int, ...]:
    lst = list(t)
    for c in cs:
        lst.remove(c)
    return tuple(lst)


def _contains_all(t: tuple[int, ...], cs: tuple[int, ...]) -> bool:
    lst = list(t)
    try:
        for c in cs:
            lst.remove(c)
    except ValueError:
        return False
    return True


def _replace(t: tuple, i: int, v) -> tuple:
    return (*t[:i], v, *t[i + 1 :])


def _distinct(t: tuple[int, ...]):
    prev = -1
    for c in t:
        if c != prev:
            prev = c
            yield c


def _multiset_diff(given, wanted) -> str:
    """What ``given`` has too many of and lacks against ``wanted`` (for messages)."""
    return multiset_diff(given, wanted, cards_text)


_NEXT = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(9))
"""``_NEXT[n][seat]``: the seat after ``seat`` at a table of ``n``."""
_DISCARD: deque = deque(maxlen=0)
"""The undo stack of a forward-only state (``TweakState.forward_only``): appending to it
keeps nothing, and ``pop`` finds it empty (``IndexError``)."""


class TweakState(State):
    """A TWEAK position. Build one with ``Tweak().new_state(players)``."""

    __slots__ = (
        "_backs", "_components", "_deck", "_gaps", "_low", "_pbits", "_present",
        "_t_components", "_threshold", "_tops", "_undo", "dealer", "dpos", "hands", "held",
        "jdelta", "mover", "phase", "queue", "round", "table", "totals", "tpile", "tpos",
        "tused", "victim",
    )

    def __init__(self, players: int, variant: TweakVariant):
        n = players
        super().__init__(n, variant)
        self._backs = variant.backs or DEFAULT_BACKS
        self._low = 0 if variant.empty_capture else 1  # the smallest sum a capture may take
        self._gaps = _GAPS if self._low else {}  # count_legal's fast targets (none: a variant)
        self._threshold = variant.threshold or THRESHOLDS.get(n, 100)
        self._components = number_deck(variant.colours or colours_for(n))
        self._t_components = tuple(sorted(THIEF + T_LETTERS.index(t) for t in variant.t_cards))
        self._present: tuple[int, ...] = ()  # the cards in play this round (see components)
        self.phase = FIRST
        self.round = 0
        self.dealer = 0
        self.mover = 0
        self.tused = 0
        self.jdelta = 0
        self.queue: tuple[int, ...] = ()
        self.victim = 0
        self._deck: tuple[int, ...] = ()  # see the deck property
        self._tops: tuple[int, ...] = (EMPTY_DECK_TARGET,)
        self.dpos = 0
        self.tpile: tuple[int, ...] = ()
        self.tpos = 0
        empty: tuple[tuple[int, ...], ...] = ((),) * n
        self.hands = empty
        self.table: tuple[int, ...] = ()
        self._pbits = 0
        self.held = empty
        self.totals: tuple[int, ...] = (0,) * n

    # --- snapshots ----------------------------------------------------------------------
    # The undo stack holds two sizes of snapshot. The common turn actions (a card played, a
    # capture, a pass, a Joker or Shifter) change only the first ten fields, so they push
    # the *short* snapshot; every other action, and a turn that ends the round
    # (``_end_round`` widens the snapshot on top), pushes the whole of ``_snap()``.
    SHORT = 10
    SNAP_PHASE, SNAP_MOVER, SNAP_TABLE = 0, 1, 7
    """Where a snapshot (short or whole) keeps the phase, the mover and the table before
    the action on top of the stack (the solver reads them to see how a turn ended)."""

    def _snap(self) -> tuple:
        return (
            self.phase, self.mover, self.tused, self.jdelta, self.dpos, self.tpos,
            self.hands, self.table, self._pbits, self.held,
            self.round, self.dealer, self.queue, self.victim, self._deck, self.tpile,
            self.totals, self._present, self._tops,
        )

    def _rare(self) -> tuple:
        """The last nine fields of ``_snap()``: the ones a common turn action leaves alone."""
        return (
            self.round, self.dealer, self.queue, self.victim, self._deck, self.tpile,
            self.totals, self._present, self._tops,
        )

    def _restore(self, s: tuple) -> None:
        (
            self.phase, self.mover, self.tused, self.jdelta, self.dpos, self.tpos,
            self.hands, self.table, self._pbits, self.held,
        ) = s[:10]
        if len(s) > 10:
            (
                self.round, self.dealer, self.queue, self.victim, self._deck, self.tpile,
                self.totals, self._present, self._tops,
            ) = s[10:]

    def key(self) -> Hashable:
        return (
            self.phase, self.round, self.dealer, self.mover, self.tused, self.jdelta,
            self.queue, self.victim, self._deck[self.dpos :], self.tpile[self.tpos :],
            self.hands, self.table, self._pbits, self.held, self.totals,
        )

    def copy(self) -> TweakState:
        # written out, no shared helper (it would add a call to every copy; hot path:
        # benchmarks/test_bots.py::test_time_per_decision); pinned by
        # tests/test_properties.py::test_copy_is_independent
        new = TweakState.__new__(TweakState)
        new.n = self.n
        new.variant = self.variant
        new.history = list(self.history)
        new._undo = []
        new._backs = self._backs
        new._low = self._low
        new._gaps = self._gaps
        new._threshold = self._threshold
        new._components = self._components
        new._t_components = self._t_components
        new._restore(self._snap())
        return new

    # --- derived --------------------------------------------------------------------------
    @property
    def piles(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's won pile this round, a sorted tuple of codes (kept packed: see
        :func:`pack_piles`)."""
        return unpack_piles(self._pbits, self.n)

    @piles.setter
    def piles(self, piles: tuple[tuple[int, ...], ...]) -> None:
        self._pbits = pack_piles(piles)

    @property
    def deck(self) -> tuple[int, ...]:
        """The round's deck, top first (cards before ``dpos`` are drawn). Setting it also
        sets each deck position's target (``_tops``: see :func:`tops`), which the hot paths
        read in one index."""
        return self._deck

    @deck.setter
    def deck(self, deck: tuple[int, ...]) -> None:
        self._deck = deck
        self._tops = tops(self._backs, deck)

    @property
    def to_move(self) -> int | None:
        phase = self.phase
        if phase == TURN:
            return self.mover
        if phase == BOMB_PHASE:
            return self.queue[0]
        if phase == OVER:
            return None
        return DEALER

    def turn_note(self) -> str:
        phase = self.phase
        if phase == BOMB_PHASE:
            return f"to answer p{self.mover}'s Bomb"
        if phase == STEAL_PHASE:
            return f"to draw the Thief's card from p{self.victim}'s hand"
        if phase == DEAL:
            return f"to shuffle and deal round {self.round + 1}"
        if phase == FIRST:
            return "to draw the first dealer"
        return ""

    @property
    def target(self) -> int:
        """The back of the deck's top card; 7 once the deck is empty (ruling 4)."""
        if self.dpos < len(self._deck):
            return self._backs[self._deck[self.dpos]]
        return EMPTY_DECK_TARGET

    def deck_left(self) -> tuple[int, ...]:
        return self._deck[self.dpos :]

    def tpile_left(self) -> tuple[int, ...]:
        return self.tpile[self.tpos :]

    def round_points(self, seat: int) -> int:
        """Points of the cards ``seat`` has won this round (pile and unused T! cards), read
        straight from the packed piles (each card's count byte times its points)."""
        counts = ((self._pbits >> (seat * _PILE_SEAT)) & _PILE_SEAT_MASK).to_bytes(
            N_CODES, "little"
        )
        return pile_points(counts) + 2 * len(self.held[seat])

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        # = Result.from_keys(self.totals): a seat's rank is 1 + how many totals are greater
        # (the index of its total's first copy, best first)
        totals = self.totals
        best_first = sorted(totals, reverse=True)
        return Result(tuple(totals), tuple([best_first.index(t) + 1 for t in totals]))

    def components(self) -> tuple[int, ...]:
        """Every card of a round, sorted (number cards of the round's colours + T! cards)."""
        return tuple(sorted(self._components + self._t_components))

    def in_play(self) -> tuple[int, ...]:
        """The cards in play this round, sorted: every card after a deal; a position line
        (a puzzle) may leave some out."""
        every = [c for h in self.hands for c in h]
        every += self.table
        every += [c for p in self.piles for c in p]
        every += [c for h in self.held for c in h]
        every += self._deck[self.dpos :]
        every += self.tpile[self.tpos :]
        return tuple(sorted(every))

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        # A turn's actions inline (a search asks at every inner node): the T! cards'
        # actions, then for each distinct hand card its Place and its Captures, memoised
        # per table and (card, sum) as one tuple.
        if self.phase != TURN:
            return self._other_actions()
        mover = self.mover
        hand = self.hands[mover]
        if not hand:
            return [PASS]
        out: list[Action] = []
        if not self.tused and self.held[mover]:
            self._t_actions(out)
        target = self._tops[self.dpos] + self.jdelta
        table = self.table
        memo = _CAPTURES.get(table)
        if memo is None:
            if len(_CAPTURES) >= _TABLES_MAX:
                trim(_CAPTURES, _TABLES_MAX)
            memo = _CAPTURES[table] = {}
        prev = -1
        for c in hand:
            if c == prev:
                continue
            prev = c
            s = target - FACE[c]
            if s:
                key = c + (s << 6)
                acts = memo.get(key)
                if acts is None:
                    acts = memo[key] = (
                        (PLACE[c], *_captures(table, c, s)) if s > 0 else (PLACE[c],)
                    )
                out += acts
            else:  # the card alone makes the target: a capture of no table card (a variant)
                out.append(PLACE[c])
                if not self._low:
                    out.append(Capture(c, ()))
        return out

    def _other_actions(self) -> list[Action]:
        """``legal_actions`` outside a turn."""
        phase = self.phase
        if phase == BOMB_PHASE:
            return [PLACE[c] for c in _distinct(self.hands[self.queue[0]])]
        if phase == STEAL_PHASE:
            return [STEAL[c] for c in _distinct(self.hands[self.victim])]
        if phase == FIRST:
            return list(DEALER_IS[: self.n])
        return []  # DEAL: a shuffle is not enumerable; OVER: nothing

    def chance_outcomes(self) -> list[tuple[Action, Fraction]] | None:
        """The Thief's draw: each distinct card of the victim's hand, weighted by its copies
        (ruling 7); the first dealer: each seat alike. A deal is not enumerable."""
        phase = self.phase
        if phase == STEAL_PHASE:
            hand = self.hands[self.victim]
            size = len(hand)
            return [(STEAL[c], Fraction(hand.count(c), size)) for c in _distinct(hand)]
        if phase == FIRST:
            return [(a, Fraction(1, self.n)) for a in DEALER_IS[: self.n]]
        return None

    def _t_actions(self, out: list[Action]) -> None:
        mover = self.mover
        for t in _distinct(self.held[mover]):
            if t == JOKER:
                out.append(JOKER_UP)
                out.append(JOKER_DOWN)
            elif t == SHIFTER:
                if self.dpos < len(self._deck):
                    out.append(SHIFT)
            elif t == THIEF:
                hands = self.hands
                for v in range(self.n):
                    if v != mover and hands[v]:
                        out.append(THIEF_ON[v])
            else:
                out.append(BOMB_ALL)

    def count_legal(self) -> int:
        # The hot path of perft (every leaf's parent): ``len(self.legal_actions())`` without
        # building the actions: each distinct hand card gives one Place and as many
        # Captures as the table has sub-multisets summing to what it lacks, read from the
        # table's packed subset-sum polynomial (:data:`_PLAYS`).
        if self.phase != TURN:
            return len(self.legal_actions())
        mover = self.mover
        hand = self.hands[mover]
        if not hand:
            return 1
        count = 0
        if not self.tused:
            held = self.held[mover]
            if held:
                count = self._t_count(held)
        target = self._tops[self.dpos] + self.jdelta
        table = self.table
        plays = _PLAYS.get(table)
        if plays is None:
            plays = _plays(table)
        gap = self._gaps.get(target)
        if gap is not None:
            # the rules' case: faces 1..6 against a target of 6..11 lack 0..MAX_SUM, and
            # index 0 reads the Place alone (no capture may take no table card)
            if len(hand) == 3:  # sorted: a repeated card is next to its copy
                a, b, c = hand
                count += plays[gap[a]]
                if b != a:
                    count += plays[gap[b]]
                if c != b:
                    count += plays[gap[c]]
                return count
            prev = -1
            for c in hand:
                if c != prev:
                    prev = c
                    count += plays[gap[c]]
            return count
        low = self._low
        prev = -1
        for c in hand:
            if c == prev:
                continue
            prev = c
            s = target - FACE[c]
            if 0 < s <= MAX_SUM:
                count += plays[s]
            elif s > MAX_SUM:
                count += 1 + len(subsets(table, s))
            elif s == 0 and not low:  # the hand card alone (a variant)
                count += 2
            else:
                count += 1
        return count

    def _t_count(self, held: tuple[int, ...]) -> int:
        """``len`` of what ``_t_actions`` would add for ``held`` (the mover's T! cards)."""
        count = 0
        prev = -1
        for t in held:
            if t == prev:
                continue
            prev = t
            if t == JOKER:
                count += 2
            elif t == SHIFTER:
                if self.dpos < len(self._deck):
                    count += 1
            elif t == THIEF:
                mover = self.mover
                for v, h in enumerate(self.hands):
                    if h and v != mover:
                        count += 1
            else:
                count += 1
        return count

    def captures(self) -> list[Capture]:
        """Every distinct capture available now (T! cards aside)."""
        return [a for a in self.legal_actions() if type(a) is Capture]

    # --- checking ---------------------------------------------------------------------------
    def check(self, action: Action) -> None:
        """As the base ``check``, but a deal is checked as a permutation of the round's
        cards, and a turn's card play is checked directly (no scan of every legal action)."""
        t = type(action)
        phase = self.phase
        if phase == TURN and (t is Place or t is Capture):
            hand = self.hands[self.mover]
            if action.card in hand:
                if t is Place:
                    return
                taken = action.taken
                if (
                    (taken or self.variant.empty_capture)
                    and list(taken) == sorted(taken)
                    and _contains_all(self.table, taken)
                    and FACE[action.card] + sum([FACE[c] for c in taken])
                    == self.target + self.jdelta
                ):
                    return
            self.refuse(action)
        if phase == TURN and self._turn_other_ok(t, action):
            return
        if phase == FIRST and t is ChooseDealer:
            seat = action.seat  # type: ignore[attr-defined]
            if type(seat) is int and 0 <= seat < self.n and seat < len(DEALER_IS):
                return
        if phase == DEAL and t is Deal:
            deck, tpile = action.deck, action.tpile
            if tuple(sorted(deck)) != self._components:
                raise IllegalActionError(
                    f"the deck must be the {len(self._components)} number cards of the round "
                    f"in some order; {_multiset_diff(deck, self._components)}",
                    rule="tweak 2: the cards of the round",
                )
            if tuple(sorted(tpile)) != self._t_components:
                raise IllegalActionError(
                    f"the T! pile must be {cards_text(self._t_components)} in some order; "
                    f"{_multiset_diff(tpile, self._t_components)}",
                    rule="tweak 3: the T! pile",
                )
            return
        super().check(action)

    def _turn_other_ok(self, t: type, action: Action) -> bool:
        """Whether a pass or a T! card's use is in ``legal_actions()`` on a turn, worked out
        directly (as ``_turn_actions`` and ``_t_actions`` list them). False sends the action
        to the base ``check`` (the scan and the error)."""
        m = self.mover
        hands = self.hands
        if not hands[m]:
            return t is Pass  # an empty hand may only pass
        if t is Pass or self.tused:
            return False
        held = self.held[m]
        if t is UseJoker:
            d = action.delta  # type: ignore[attr-defined]
            return JOKER in held and (d == 1 or d == -1)
        if t is UseShifter:
            return SHIFTER in held and self.dpos < len(self.deck)
        if t is UseThief:
            v = action.victim  # type: ignore[attr-defined]
            return (
                THIEF in held and type(v) is int and 0 <= v < self.n and v != m and bool(hands[v])
            )
        if t is UseBomb:
            return BOMB in held
        return False

    def forward_only(self) -> None:
        """Keep no undo snapshots from now on (the fast replay path plays forward only):
        ``pop`` then raises ``IndexError``; a ``copy()`` keeps snapshots again."""
        self._undo = _DISCARD  # type: ignore[assignment]

    def step(self, action: Action) -> int | None:
        """``check`` then ``push`` in one call, returning the new ``to_move``. The dealer's
        first-dealer choice and deal are checked and played in one run (a record's first
        two moves; the deal is checked as a permutation of the round's cards). A turn's
        play goes through ``check`` and ``push``: the fast replay plays turns in
        ``run_moves``, so ``step`` sees them only where that loop stops (an illegal move
        about to raise its error, or a T! card it does not take).
        ``tests/test_validate2_tweak_step.py`` compares the two ways."""
        t = type(action)
        if t is ChooseDealer and self.phase == FIRST:
            seat = action.seat  # type: ignore[attr-defined]
            if not (type(seat) is int and 0 <= seat < self.n and seat < len(DEALER_IS)):
                self.check(action)  # as check: the base check's verdict, or its error
            undo = self._undo
            if undo is not _DISCARD:
                undo.append(self._snap())
            self.history.append(action)
            self.dealer = action.seat  # type: ignore[attr-defined]
            self.phase = DEAL
            return DEALER
        if t is Deal and self.phase == DEAL:
            if (
                tuple(sorted(action.deck)) != self._components  # type: ignore[attr-defined]
                or tuple(sorted(action.tpile)) != self._t_components  # type: ignore[attr-defined]
            ):
                self.check(action)  # as check: the error naming what is wrong
            undo = self._undo
            if undo is not _DISCARD:
                undo.append(self._snap())
            self.history.append(action)
            self._deal(action.deck, action.tpile)  # type: ignore[attr-defined]
            return self.mover
        self.check(action)
        self.push(action)
        return self.to_move

    def run_moves(
        self, moves: list, i: int, memo_get, actors: tuple[str, ...], resolve=None
    ) -> int:
        """Play ``moves[i:]`` (record moves: ``.actor``, ``.text``) while each is a plain
        move, and return the index of the first one not played (``len(moves)`` when all
        were). A move is plain when its actor is ``actors[mover]`` (the mover's token) and
        its action is a card play, a capture, or a Joker or Shifter use on a turn. The
        action is ``memo_get(text)`` (the fast replay path's memo of parsed texts) or, for
        a text the memo lacks, ``resolve(text)`` (parsed and memoised; None when the text
        does not parse). Each is checked as ``check`` does and played as ``push`` does,
        with the position in locals for the whole run (the hands and the table as sorted
        lists, edited in place, made tuples again at the end). Anything else (another T!
        card, a text that does not parse, another actor, an illegal move) stops the run
        with the state as before that move, for the caller's checked step; the end of a
        round stops it after the move. Forward-only states only (others: returns ``i``).

        A copy of the turn logic kept for speed: ``benchmarks/test_validate.py``
        (``test_validate_over_parse_interleaved``) times it; ``tests/test_validate3_run.py``
        holds it to ``step`` (``check`` + ``push``) move by move, and
        ``tests/test_run_moves_mutations.py`` under changed rule constants and variants."""
        if self.phase != TURN or self._undo is not _DISCARD:
            return i
        start = i
        m = self.mover
        hl = list(map(list, self.hands))
        tl = list(self.table)
        deck = self._deck
        ndeck = len(deck)
        dpos = self.dpos
        targets = self._tops
        jdelta = self.jdelta
        tused = self.tused
        pbits = self._pbits
        n = self.n
        empty_ok = self.variant.empty_capture
        record = self.history.append
        nxt = _NEXT[n]
        face, pile_bit = FACE, _PILE_BIT
        capture_t, place_t, joker_t, shifter_t = Capture, Place, UseJoker, UseShifter
        end = len(moves)
        while i < end:
            move = moves[i]
            if move.actor != actors[m]:
                break
            action = memo_get(move.text)
            if action is None and resolve is not None:  # parsed and memoised now
                action = resolve(move.text)
            t = type(action)
            if t is capture_t:
                c = action.card
                if c not in hl[m]:
                    break
                # check (as ``check``): the faces summing to the target, the taken cards
                # sorted and on the table (each removed as it is found)
                taken = action.taken
                k = len(taken)
                target = targets[dpos] + jdelta
                bit = pile_bit[m]
                if k == 1:
                    x = taken[0]
                    if face[c] + face[x] != target or x not in tl:
                        break
                    tl.remove(x)
                    pbits += bit[c] + bit[x]
                elif k == 2:
                    x, y = taken
                    if x > y or face[c] + face[x] + face[y] != target or x not in tl:
                        break
                    tl.remove(x)
                    if y not in tl:
                        insort(tl, x)  # the table as it was
                        break
                    tl.remove(y)
                    pbits += bit[c] + bit[x] + bit[y]
                else:
                    if not (k or empty_ok) or list(taken) != sorted(taken) or FACE[c] + sum(
                        [FACE[x] for x in taken]
                    ) != target:
                        break
                    z = tl[:]
                    try:
                        for x in taken:
                            z.remove(x)
                    except ValueError:  # a taken card the table lacks
                        break
                    tl = z
                    pbits += bit[c] + sum([bit[x] for x in taken])
                record(action)
                if not tl and k:  # a TWEAK (ruling 5): _tweak inline (about 7 a record)
                    tpos = self.tpos
                    tpile = self.tpile
                    if tpos < len(tpile):
                        z = list(self.held)
                        hm = z[m]
                        if hm:
                            y = list(hm)
                            insort(y, tpile[tpos])
                            z[m] = tuple(y)
                        else:
                            z[m] = (tpile[tpos],)
                        self.held = tuple(z)
                        self.tpos = tpos + 1
            elif t is place_t:
                c = action.card
                if c not in hl[m]:
                    break
                record(action)
                insort(tl, c)
            elif (t is joker_t or t is shifter_t) and not tused and hl[m]:
                # as _turn_other_ok and push: the card leaves the T! hand for the pile
                held = self.held
                hm = held[m]
                if t is joker_t:
                    d = action.delta
                    if JOKER not in hm or (d != 1 and d != -1):
                        break
                    code = JOKER
                    jdelta = d
                else:
                    if SHIFTER not in hm or dpos >= ndeck:
                        break
                    code = SHIFTER
                    insort(tl, deck[dpos])
                    dpos += 1
                record(action)
                self._pbits = pbits
                self._spend(code, m)
                pbits = self._pbits
                tused = 1
                i += 1
                continue
            else:
                break
            # the end of the turn, as push: the hand loses the card and refills
            i += 1
            jdelta = tused = 0
            h = hl[m]
            dpos = _refill(h, c, deck, dpos)
            left = ndeck - dpos
            if not tl and left > 0:  # as push, inline (about 7 a record)
                k = TABLE_REFILL if left >= TABLE_REFILL else left
                tl = sorted(deck[dpos : dpos + k])
                dpos += k
                left -= k
            if left > 0:
                m = nxt[m]
                continue
            if not any(hl):
                self.hands = tuple(map(tuple, hl))
                self.table = tuple(tl)
                self.dpos = dpos
                self._pbits = pbits
                self.tused = tused
                self.jdelta = jdelta
                self._end_round()
                return i
            m = nxt[m]
            if not hl[m]:  # ruling 8: empty hands are skipped
                m = _next_holder(hl, m, n)
        if i > start:
            self.hands = tuple(map(tuple, hl))
            self.table = tuple(tl)
            self.dpos = dpos
            self._pbits = pbits
            self.mover = m
            self.tused = tused
            self.jdelta = jdelta
        return i

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        phase, t = self.phase, type(action)
        if phase == DEAL:
            return ("a round starts with the dealer's deal", "tweak 3: setup")
        if phase == FIRST:
            if t is ChooseDealer:
                return (f"there is no seat {action.seat}", "tweak 3: setup")
            return ("the first dealer must be chosen first", "tweak 3: setup")
        if phase == STEAL_PHASE:
            if t is Steal:
                return (
                    f"p{self.victim} holds no {TOKEN[action.card]}",
                    "tweak 7: the Thief takes a card of the victim's hand",
                )
            return ("the dealer must draw the Thief's card", "tweak 7: Thief")
        if phase == BOMB_PHASE:
            seat = self.queue[0]
            if t is Place:
                return (f"p{seat} holds no {TOKEN[action.card]}", "tweak 7: Bomb")
            return (f"p{seat} must put a hand card on the table for p{self.mover}'s Bomb",
                    "tweak 7: Bomb")
        # TURN
        mover = self.mover
        hand = self.hands[mover]
        if t in (ChooseDealer, Deal, Steal):
            return ("that is a dealer action", "turn")
        if not hand:
            return (f"p{mover} has no cards and loses this turn (pass)", "tweak 8: empty hand")
        if t is Pass:
            return (f"p{mover} holds cards and must play one", "tweak 5: play one card")
        if t in (UseJoker, UseShifter, UseThief, UseBomb):
            code = {UseJoker: JOKER, UseShifter: SHIFTER, UseThief: THIEF, UseBomb: BOMB}[t]
            name = {JOKER: "Joker", SHIFTER: "Shifter", THIEF: "Thief", BOMB: "Bomb"}[code]
            if self.tused:
                return ("only one T! card may be used in a turn", "tweak 5: one T! a turn")
            if code not in self.held[mover]:
                return (f"p{mover} holds no {name}", "tweak 7: use a T! card you hold")
            if t is UseJoker:
                return ("the Joker changes the target by +1 or -1", "tweak 7: Joker")
            if t is UseShifter:
                return ("the Shifter needs a card in the deck", "tweak 7: Shifter")
            if t is UseThief:
                v = action.victim
                if v == mover or not 0 <= v < self.n:
                    return (f"p{v} is not an opponent", "tweak 7: Thief")
                return (f"p{v} has no cards to steal", "tweak 7: Thief")
        if t in (Place, Capture):
            if action.card not in hand:
                return (f"p{mover} holds no {TOKEN[action.card]}", "tweak 5: play a hand card")
            if t is Place:
                return ("cannot place that card", "tweak 5")
            taken = action.taken
            if list(taken) != sorted(taken):
                return ("captured cards must be listed in order", "notation")
            if not taken and not self.variant.empty_capture:
                return (
                    "a capture must take at least one table card",
                    "tweak 5: non-empty capture",
                )
            if not _contains_all(self.table, taken):
                return (
                    f"the table ({cards_text(self.table)}) does not hold "
                    f"{cards_text(taken[:40])}"
                    + (f"... ({len(taken)} cards)" if len(taken) > 40 else ""),
                    "tweak 5: capture table cards",
                )
            total = FACE[action.card] + sum(FACE[c] for c in taken)
            target = self.target + self.jdelta
            return (
                f"the faces sum to {total}, the target is {target}",
                "tweak 5: capture sum",
            )
        return (f"{action!r} is not a TWEAK action here", "tweak")

    # --- playing ----------------------------------------------------------------------------
    def push(self, action: Action) -> None:
        # The hot path of every search, a card played or a capture on a turn, runs inline:
        # the short snapshot, the play, and the end of the turn (as ``_finish_turn``) in one
        # straight run, editing the sorted tuples directly (bisect, slicing) and adding a
        # capture to the packed piles. No comprehension or generator here reads a local:
        # that would make the local a cell, created on every call (4 cells cost ~5%). The
        # general path below (and ``_finish_turn``) computes the same: the property tests
        # compare both through ``to_line`` after every action and its undo.
        t = type(action)
        if (t is Capture or t is Place) and self.phase == TURN:
            m = self.mover
            dpos = self.dpos
            hands = self.hands
            table = self.table
            tused = self.tused
            jdelta = self.jdelta
            self._undo.append((
                TURN, m, tused, jdelta, dpos, self.tpos, hands, table, self._pbits, self.held,
            ))  # = self._snap()[:SHORT]
            self.history.append(action)
            # Each zone is edited as a list and made a tuple again: on CPython 3.11 that is
            # about twice as fast as slicing and re-joining the tuple.
            c = action.card
            if t is Place:
                z = list(table)
                insort(z, c)
                table = tuple(z)
            else:
                taken = action.taken
                bit = _PILE_BIT[m]
                k = len(taken)
                if k == len(table) and k:  # a TWEAK (ruling 5)
                    self._pbits += bit[c] + sum(map(bit.__getitem__, taken))
                    table = self._tweak(m)
                elif k == 1:
                    x = taken[0]
                    self._pbits += bit[c] + bit[x]
                    z = list(table)
                    z.remove(x)
                    table = tuple(z)
                elif k == 2:
                    x, y = taken
                    self._pbits += bit[c] + bit[x] + bit[y]
                    z = list(table)
                    z.remove(x)
                    z.remove(y)
                    table = tuple(z)
                elif k == 3:
                    x, y, w = taken
                    self._pbits += bit[c] + bit[x] + bit[y] + bit[w]
                    z = list(table)
                    z.remove(x)
                    z.remove(y)
                    z.remove(w)
                    table = tuple(z)
                elif k:
                    self._pbits += bit[c] + sum(map(bit.__getitem__, taken))
                    z = list(table)
                    for x in taken:
                        z.remove(x)
                    table = tuple(z)
                else:  # the hand card alone (a variant)
                    self._pbits += bit[c]
            # the end of the turn, as _finish_turn: the hand loses the card and refills
            # (_refill inlined, a hot-path copy: benchmarks/test_perft.py::test_perft_suite;
            # tests/test_validate3_run.py holds push, step and run_moves to one another)
            deck = self._deck
            left = len(deck) - dpos
            h = list(hands[m])
            if left > 0 and len(h) == HAND_SIZE:  # one short: the deck's top takes its place
                h[h.index(c)] = deck[dpos]
                h.sort()
                dpos += 1
                left -= 1
            else:
                h.remove(c)
                if left > 0:  # short by more (after a Bomb or a Thief)
                    k = HAND_SIZE - len(h)
                    if k > left:
                        k = left
                    h += deck[dpos : dpos + k]
                    h.sort()
                    dpos += k
                    left -= k
            z = list(hands)
            z[m] = tuple(h)
            self.hands = hands = tuple(z)
            if not table and left > 0:
                k = TABLE_REFILL if left >= TABLE_REFILL else left
                table = tuple(sorted(deck[dpos : dpos + k]))
                dpos += k
                left -= k
            self.table = table
            self.dpos = dpos
            if tused:
                self.tused = 0
            if jdelta:
                self.jdelta = 0
            if left > 0:
                self.mover = (m + 1) % self.n
                return
            if not any(hands):
                self._end_round()
                return
            n = self.n
            s = (m + 1) % n
            while not hands[s]:
                s = (s + 1) % n
            self.mover = s
            return
        hands, table = self.hands, self.table
        phase = self.phase
        if phase == TURN and (t is Pass or t is UseJoker or t is UseShifter):
            self._undo.append((
                phase, self.mover, self.tused, self.jdelta, self.dpos, self.tpos,
                hands, table, self._pbits, self.held,
            ))  # = self._snap()[:SHORT]
        else:
            self._undo.append((
                phase, self.mover, self.tused, self.jdelta, self.dpos, self.tpos,
                hands, table, self._pbits, self.held,
                self.round, self.dealer, self.queue, self.victim, self._deck, self.tpile,
                self.totals, self._present, self._tops,
            ))  # = self._snap()
        self.history.append(action)
        if t is Place:
            c = action.card
            if phase == BOMB_PHASE:
                q = self.queue
                seat = q[0]
                self.hands = _replace(self.hands, seat, _without(self.hands[seat], c))
                self.table = _with(self.table, c)
                self.queue = q = q[1:]
                if not q:
                    self.phase = TURN
                return
            m = self.mover
            hand = hands[m]
            i = hand.index(c)
            j = bisect_right(table, c)
            self.table = (*table[:j], c, *table[j:])
            self._finish_turn(m, hand[:i] + hand[i + 1 :], hands)
        elif t is Capture:
            m = self.mover
            c, taken = action.card, action.taken
            hand = hands[m]
            i = hand.index(c)
            bit = _PILE_BIT[m]
            self._pbits += bit[c] + sum(map(bit.__getitem__, taken))
            if taken and len(taken) == len(table):  # a TWEAK (ruling 5)
                self.table = ()
                if self.tpos < len(self.tpile):
                    self.held = _replace(self.held, m, _with(self.held[m], self.tpile[self.tpos]))
                    self.tpos += 1
            elif taken:
                self.table = _without_all(table, taken)
            self._finish_turn(m, hand[:i] + hand[i + 1 :], hands)
        elif t is Steal:
            v = self.victim
            self.hands = _replace(self.hands, v, _without(self.hands[v], action.card))
            self.table = _with(self.table, action.card)
            self.phase = TURN
            self.victim = 0
        elif t is Pass:
            m = self.mover
            self._finish_turn(m, hands[m], hands)
        elif t is UseJoker:
            self._spend(JOKER, self.mover)
            self.jdelta = action.delta
        elif t is UseShifter:
            self._spend(SHIFTER, self.mover)
            self.table = _with(self.table, self._deck[self.dpos])
            self.dpos += 1
        elif t is UseThief:
            self._spend(THIEF, self.mover)
            self.victim = action.victim
            self.phase = STEAL_PHASE
        elif t is UseBomb:
            self._spend(BOMB, self.mover)
            q = self._bomb_queue()
            if q:
                self.queue = q
                self.phase = BOMB_PHASE
        elif t is ChooseDealer:
            self.dealer = action.seat
            self.phase = DEAL
        elif t is Deal:
            self._deal(action.deck, action.tpile)
        else:
            raise TypeError(f"not a TWEAK action: {action!r}")

    def pop(self) -> Action:
        snap = self._undo.pop()
        if len(snap) == 10:  # = self._restore(snap), inline
            (
                self.phase, self.mover, self.tused, self.jdelta, self.dpos, self.tpos,
                self.hands, self.table, self._pbits, self.held,
            ) = snap
        else:
            (
                self.phase, self.mover, self.tused, self.jdelta, self.dpos, self.tpos,
                self.hands, self.table, self._pbits, self.held,
                self.round, self.dealer, self.queue, self.victim, self._deck, self.tpile,
                self.totals, self._present, self._tops,
            ) = snap
        return self.history.pop()

    def _bomb_queue(self) -> tuple[int, ...]:
        """The Bomb's victims in turn order from the mover: every other seat with cards."""
        n, m, hands = self.n, self.mover, self.hands
        return tuple(s for s in ((m + k) % n for k in range(1, n)) if hands[s])

    def _tweak(self, m: int) -> tuple[int, ...]:
        """A TWEAK (ruling 5) by ``m``: the top T! card, if any, joins their T! cards; the
        table is now empty (returned)."""
        tpos = self.tpos
        if tpos < len(self.tpile):
            held = self.held
            self.held = (*held[:m], _with(held[m], self.tpile[tpos]), *held[m + 1 :])
            self.tpos = tpos + 1
        return ()

    def _spend(self, code: int, m: int) -> None:
        """``m`` uses a T! card: it leaves their hand of T! cards for their pile."""
        self.held = _replace(self.held, m, _without(self.held[m], code))
        self._pbits += _PILE_BIT[m][code]
        self.tused = 1

    def _finish_turn(
        self, m: int, hand: tuple[int, ...], hands: tuple[tuple[int, ...], ...]
    ) -> None:
        """Ruling 6, after the mover ``m`` played: their hand becomes ``hand`` refilled to
        ``HAND_SIZE`` (``hands`` is the tuple of hands to update), then an empty table gets
        ``TABLE_REFILL`` cards; then
        the next player (ruling 8: with no deck, empty hands are skipped), or the round
        ends when every hand is empty."""
        deck, dpos = self._deck, self.dpos
        left = len(deck) - dpos
        if left > 0 and len(hand) < HAND_SIZE:
            k = min(HAND_SIZE - len(hand), left)
            if k == 1:
                c = deck[dpos]
                j = bisect_right(hand, c)
                hand = (*hand[:j], c, *hand[j:])
            else:
                hand = tuple(sorted(hand + deck[dpos : dpos + k]))
            dpos += k
            left -= k
        self.hands = hands = (*hands[:m], hand, *hands[m + 1:])
        if not self.table and left > 0:
            k = min(TABLE_REFILL, left)
            self.table = tuple(sorted(deck[dpos : dpos + k]))
            dpos += k
            left -= k
        self.dpos = dpos
        self.tused = 0
        self.jdelta = 0
        if left <= 0:
            if not any(hands):
                self._end_round()
                return
            self.mover = _next_holder(hands, m, self.n)
        else:
            self.mover = (m + 1) % self.n

    def _end_round(self) -> None:
        undo = self._undo
        if undo and len(undo[-1]) == 10:  # the turn that ends the round: widen its snapshot
            undo[-1] = undo[-1] + self._rare()
        # every seat's points at once: the packed piles' count bytes (pile_points)
        # (each seat's pile points memoised by its count bytes: a search ends the round
        # again and again with the same piles; issue 33, ninth session)
        n = self.n
        counts = self._pbits.to_bytes(n * N_CODES, "little")
        held = self.held
        memo = _POINTS_OF
        totals = []
        for s, t in enumerate(self.totals):
            pile = counts[s * N_CODES : (s + 1) * N_CODES]
            p = memo.get(pile)
            if p is None:
                if len(memo) >= _POINTS_OF_MAX:
                    memo.clear()
                p = memo[pile] = pile_points(pile)
            totals.append(t + p + 2 * len(held[s]))
        self.totals = tuple(totals)
        self.mover = 0
        rounds = self.variant.rounds
        if rounds:
            over = self.round >= rounds
        else:
            over = max(self.totals) >= self._threshold
        if over:
            self.phase = OVER
        else:
            self.phase = DEAL
            self.dealer = (self.dealer - 1) % self.n  # ruling 3: the seat before the dealer

    def _deal(self, deck: tuple[int, ...], tpile: tuple[int, ...]) -> None:
        """Ruling 3: 3 cards each, one at a time from the seat after the dealer, then 2 to
        the table; that seat plays first."""
        n = self.n
        self.round += 1
        self._deck = deck = tuple(deck)
        self.tpile = tuple(tpile)
        self._tops = _targets(self._backs, deck)  # = tops(), as the deck property sets it
        self.tpos = 0
        first = (self.dealer + 1) % n
        pos = HAND_SIZE * n
        if HAND_SIZE == 3 and len(deck) >= pos:  # every hand full: the k-th seat after the
            # dealer gets every n-th card from the k-th, three cards sorted by three swaps
            hands = [()] * n
            for k in range(n):
                a, b, c = deck[k:pos:n]
                if a > b:
                    a, b = b, a
                if b > c:
                    b, c = c, b
                    if a > b:
                        a, b = b, a
                hands[(first + k) % n] = (a, b, c)
            self.hands = tuple(hands)
        else:
            dealt: list[list[int]] = [[] for _ in range(n)]
            pos = 0
            for _ in range(HAND_SIZE):
                for k in range(n):
                    if pos < len(deck):
                        dealt[(first + k) % n].append(deck[pos])
                        pos += 1
            self.hands = tuple(tuple(sorted(h)) for h in dealt)
        self.table = tuple(sorted(deck[pos : pos + TABLE_REFILL]))
        self.dpos = min(len(deck), pos + TABLE_REFILL)
        self._pbits = 0
        self.held = ((),) * n
        # = self.components(): the number cards (codes below THIEF) and the T! cards (THIEF
        # and up) are each sorted, so their concatenation is sorted
        self._present = self._components + self._t_components
        self.queue = ()
        self.tused = self.jdelta = 0
        self.mover = first
        self.phase = TURN

    # --- invariants ---------------------------------------------------------------------------
    def check_invariants(self) -> None:
        n = self.n
        assert len(self.hands) == n and len(self.piles) == n and len(self.held) == n
        assert self._tops == tops(self._backs, self._deck), "the targets follow the deck"
        for zone in (*self.hands, self.table, *self.piles, *self.held):
            assert list(zone) == sorted(zone), "zones are sorted"
        if self.round == 0:
            assert not any(self.hands) and not self.table
            return
        assert self.in_play() == self._present, "a card was lost or duplicated"
        assert all(len(h) <= HAND_SIZE for h in self.hands)
        assert all(c < THIEF for h in self.hands for c in h), "T! cards never enter a hand"
        assert all(c >= THIEF for h in self.held for c in h)

    # --- text -----------------------------------------------------------------------------------
    def _phase_token(self) -> str:
        p = self.phase
        if p in _MOVERLESS:
            return _MOVERLESS[p]
        m = self.mover
        if p == BOMB_PHASE:
            return f"B{m}:" + ",".join(str(s) for s in self.queue)
        if p == STEAL_PHASE:
            return f"S{m}:{self.victim}"
        if self.jdelta:
            return f"T{m}{'+' if self.jdelta > 0 else '-'}"
        return f"T{m}u" if self.tused else f"T{m}"

    def _fields(self, seat: int | None) -> list[str]:
        def hidden(zone: tuple[int, ...]) -> str:
            return "?" * len(zone) or "-"

        hands = "/".join(
            cards_text(h) if seat is None or s == seat else hidden(h)
            for s, h in enumerate(self.hands)
        )
        piles = "/".join(
            cards_text(p) if seat is None or s == seat else hidden(p)
            for s, p in enumerate(self.piles)
        )
        deck = self.deck_left()
        tpile = self.tpile_left()
        return [
            rules_spec(GAME_ID, RULES_VERSION, self.variant),
            self._phase_token(),
            f"r{self.round}d{self.dealer}",
            f"t{self.target}",
            ",".join(str(t) for t in self.totals),
            hands,
            cards_text(self.table),
            cards_text(deck) if seat is None else hidden(deck),
            cards_text(tpile) if seat is None else hidden(tpile),
            piles,
            "/".join(cards_text(h) for h in self.held),
        ]

    def to_line(self) -> str:
        """``tweak/1 <phase> r<round>d<dealer> t<target> <totals> <hands> <table> <deck>
        <T! pile> <piles> <held T!>`` (see ``docs/rules/tweak.md``)."""
        return " ".join(self._fields(None))

    def view(self, seat: int) -> str:
        return " ".join(self._fields(seat))

    def render(self, seat: int | None = None) -> str:
        """The picture for people; with ``seat``, only what that seat sees (the other
        hands and won piles as ``?``, as :meth:`view` hides them)."""
        phase_names = {
            FIRST: "the dealer draws the first dealer",
            DEAL: "the dealer shuffles and deals",
            OVER: "game over",
        }
        seen = "" if seat is None else f", as p{seat} sees it (hidden cards are ?)"
        lines = [
            f"TWEAK, {self.n} players, round {self.round}, dealer p{self.dealer}{seen}",
            f"target {self.target}" + (f" (Joker {self.jdelta:+d})" if self.jdelta else "")
            + f", deck {len(self.deck_left())} cards, T! pile {len(self.tpile_left())}",
        ]
        if self.phase in phase_names:
            lines.append(phase_names[self.phase])
        else:
            who = self.to_move
            lines.append("to move: " + ("dealer (Thief's draw)" if who == DEALER else f"p{who}"))
        lines.append(f"table: {' '.join(TOKEN[c] for c in self.table) or '-'}")
        for s in range(self.n):
            mark = ">" if self.phase in (TURN, BOMB_PHASE, STEAL_PHASE) and s == self.mover else " "
            mine = seat is None or s == seat
            hand = self.hands[s] if mine else "?" * len(self.hands[s])
            points = f"{self.round_points(s):>3}" if mine else "  ?"
            you = " (you)" if s == seat else ""
            lines.append(
                f"{mark} p{s}: hand {' '.join(TOKEN[c] if mine else c for c in hand) or '-':<9} "
                f"T! {' '.join(TOKEN[c] for c in self.held[s]) or '-':<6} "
                f"won {len(self.piles[s]):>2} cards = {points} pts, "
                f"total {self.totals[s]}{you}"
            )
        res = self.result()
        if res is not None:
            lines.append("result: " + " ".join(f"p{s}={res.scores[s]} (#{res.ranks[s]})"
                                              for s in range(self.n)))
        return "\n".join(lines)
