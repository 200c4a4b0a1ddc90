"""A dedicated GRAPH-T double-dummy searcher (the ``double-dummy`` question's engine).

The generic :func:`kifu.puzzles.search.minimax` walks the engine with ``push``/``pop`` and
compares 4-tuples; this module is DDS-like instead: its own compact state, one tight
recursion, values as single ints, bounds, and a table at trick boundaries. It comes in two
implementations of one search:

- the **reference**, in this module (pure Python), described below;
- the **compiled core**, ``kifu/puzzles/_ddcore.c``, built when kifu is installed where a C
  compiler is (``setup.py``; without one the build goes on and the reference is used). It
  searches the same tree with the same bounds and table key; it keeps the trick's winner
  as the trick goes, builds each last trick's choices once per hands, tries the player's
  plays that beat the trick's winning play first and a killer lead (the lead that last
  cut a search off at that seat and depth) second, and its table has a fixed most size
  (docs/perf/dd.md). :class:`Searcher` uses it when it is built (``KIFU_DD_PURE=1`` or
  ``core=False`` turns it off); both give the same values, values of every first play and
  principal lines (``tests/test_graph_t_dd.py``), the line and the value driver
  (:meth:`Searcher.value`, :meth:`Searcher.line`) being the same Python code for both.

The reference:

- **State**: one hand int per seat (the engine's layout, ``cards.py``: four 21-bit count
  layers), the heights as one flat list (``6 * seat + colour``), the trick as a list of
  play ids, the leader, who has made a grey play and whether this trick holds one. A play
  is made and unmade with local variables; legal plays are the engine's ``lead_key`` /
  ``follow_key`` (``rules.py``) and the winner its ``trick_winner``.
- **Values** are ints: ``(place, shared, tallest, second)`` packed so that a greater int is
  better for the player (:func:`pack`/:func:`unpack`).
- **Search**: fail-soft alpha-beta, the player maximising and every other seat minimising
  ("paranoid"); each first play's value comes from null-window tests upwards from the
  least value, a wider window only to settle the heights within one place
  (:meth:`Searcher.value`), all sharing one table.
- **Transposition table** at trick boundaries (lower/upper bound and best play), keyed by
  the hands, the leader, who may lead grey, and the heights normalised: per seat, the top
  two of the stacks that can no longer grow (the owner holds no card of that colour), the
  others only if they can still reach the top two; a seat that ends below (or above) the
  player whatever happens is just "below" (or "above"). The play never depends on the
  heights, only the value does, so positions with one key have one value.
- **Quick bounds** at trick boundaries. A stack grows only in a trick its owner wins with
  that colour, by its own play and, from each other seat, one play of that colour no
  taller (each card once); a trick grows one stack. *Worst case* for the player: it may
  first cash its sure leads (plays no other seat can beat) when on lead; then the others
  that may end above its pair, and then those that may end equal to it, are counted
  together: each needs tricks of its own out of those left and height in some colour,
  and the seats growing one colour cannot need more than the plays of that colour left.
  *Best case*: the player grows its stacks with the tricks it has, the others stay, a
  seat of the coalition on lead first cashing its sure leads. A node whose window lies
  outside the bounds is cut.
- **Merged plays**: identical cards are one code; at the last play of a trick, plays that
  leave the same card, winner, gain and grey state are searched once. The last trick (one
  card a hand) is solved directly: its choices form a small tree over its distinct ends,
  built once per hands, and only the ends are valued per heights. At the last two tricks
  the best play is not kept in the table. Plays are tried tallest first, the table's best
  first.
- **Memory**: every table (the transposition table and the memos) counts towards the
  budget's memory ceiling (:class:`kifu.puzzles.base.Meter`); past its share the memos
  are emptied and the table drops its entries with the fewest tricks left first.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from kifu.games.graph_t.cards import (
    CARD_COLOUR,
    CMASK,
    CODE_ALL,
    GBIT,
    GREY,
    HAND_BITS,
    HAND_MASK,
    LAYER,
    LAYER_BITS,
    N_CODES,
    N_PIDS,
    NONTOP,
    PLAY_COLOUR,
    PLAY_HEIGHT,
    PLAY_IS_GREY,
    PLAY_OK,
    PRESENCE,
    remove_card,
)
from kifu.games.graph_t.rules import follow_key, lead_key, trick_winner
from kifu.puzzles.base import Budget, Meter, OutOfBudget
from kifu.puzzles.search import bounds_after, narrow

try:
    from kifu.puzzles import _ddcore
except ImportError:  # pragma: no cover - built without a C compiler: the reference only
    _ddcore = None

SHIFT_PLACE = 40
SHIFT_T1 = 20
INF = 1 << 60
CHECK_EVERY = 1 << 10
"""The reference checks the clock, the memory and its tables every this many nodes."""
CORE_CHECK_EVERY = 1 << 14
"""The compiled core calls :meth:`Meter.check` every this many nodes (about 2 ms)."""
TABLE_SHARE = 0.5
"""The share of the budget's memory ceiling the tables may take (the rest is headroom)."""
ENTRY_BYTES = 700
"""About what one entry of the reference's tables costs: 4 x 5 seeds 9 and 17 held 124k
and 91k entries for 78 and 58 MB more resident memory, about 634 bytes an entry."""
MEMO_LIMIT = 1 << 16
"""The module's own memos (play sets, hand lists) are emptied past this many entries."""


def pack(place: int, shared: int, tallest: int, second: int) -> int:
    """One int for a value: greater is better for the player."""
    return (((4 - place) * 5 + (4 - shared)) << SHIFT_PLACE) | (tallest << SHIFT_T1) | second


def unpack(v: int) -> tuple[int, int, int, int]:
    top = v >> SHIFT_PLACE
    return (4 - top // 5, 4 - top % 5, (v >> SHIFT_T1) & 0xFFFFF, v & 0xFFFFF)


_FLOOR = pack(4, 1, 0, 0)  # the least value: fourth, alone, no stack

__all__ = ["OutOfBudget", "Searcher", "compiled", "pack", "unpack"]


def compiled() -> bool:
    """Whether the compiled core is built (and not turned off with ``KIFU_DD_PURE=1``)."""
    return _ddcore is not None and not os.environ.get("KIFU_DD_PURE")


# --- rules, as the search uses them ----------------------------------------------------------


def _play_order(p: int) -> tuple[int, int]:
    return (-PLAY_HEIGHT[p], p)


ORDER = tuple(sorted((p for p in range(N_PIDS) if PLAY_OK[p]), key=_play_order))
"""Every play, tallest first (the static order of a seat's plays)."""

_PIDS: dict[int, tuple[int, ...]] = {}


def _pids(key: int) -> tuple[int, ...]:
    """The play ids of a play-set key (rules.py), tallest first (cached)."""
    r = _PIDS.get(key)
    if r is None:
        out = [2 * c for c in range(N_CODES) if key >> c & 1]
        out += [2 * c + 1 for c in range(N_CODES) if key >> (LAYER + c) & 1]
        out.sort(key=_play_order)
        r = tuple(out)
        if len(_PIDS) >= MEMO_LIMIT:
            _PIDS.clear()
        _PIDS[key] = r
    return r


def grey_open(greyed: int, seat: int, anyone: bool) -> bool:
    """Ruling 2: may ``seat`` lead a grey play, the seats in ``greyed`` having made one
    (with ``grey_open=anyone`` its own counts too)."""
    return greyed != 0 if anyone else (greyed & ~(1 << seat)) != 0


def grey_key(greyed: int, anyone: bool) -> int:
    """What of ``greyed`` the rest of the game depends on: nobody has made a grey play (0),
    one seat has (its bit: everyone but it may lead grey) or more (-1); with
    ``grey_open=anyone``, nobody or somebody."""
    if anyone:
        return -1 if greyed else 0
    return greyed if not greyed & (greyed - 1) else -1


def legal_plays(hand: int, trick: list[int] | tuple[int, ...], tgrey: bool, open_: bool,
                ) -> tuple[int, ...]:
    """The legal play ids from ``hand`` (tallest first): a lead (grey open or not) or a
    follow of the trick's led colour (``tgrey``: a grey play is in the trick)."""
    p = hand & PRESENCE
    if not trick:
        return _pids(lead_key(p, open_))
    return _pids(follow_key(p, PLAY_COLOUR[trick[0]], tgrey))


def trick_result(t: tuple[int, ...] | list[int], trump: bool) -> tuple[int, int, int]:
    """The index of a full trick's winning play, its colour and what the winner collects
    (the heights of the trick's plays of that colour)."""
    i = trick_winner(t, trump)
    wc = PLAY_COLOUR[t[i]]
    return i, wc, sum(PLAY_HEIGHT[q] for q in t if PLAY_COLOUR[q] == wc)


def coalition_order(t: tuple[int, ...], pids: tuple[int, ...], pi: int, trump: bool,
                    ) -> tuple[int, ...]:
    """A seat of the coalition mid-trick (the trick so far ``t``, the player's play at
    index ``pi``): if the player's play is winning the trick, the plays that beat it first
    (tallest first), then the rest shortest first; otherwise shortest first (keep the tall
    cards for later). Measured: a refutation of 4 x 5 seed 3 went from 450k to 47k nodes."""
    k = len(t)
    if pi < k and trick_winner(t, trump) == pi:
        beat = [q for q in pids if trick_winner((*t, q), trump) == k]
        rest = [q for q in pids if q not in beat]
        return (*beat, *rest[::-1])
    return pids[::-1]


# --- what a hand can do ----------------------------------------------------------------------

_LISTS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _lists(hand: int) -> tuple[tuple[int, ...], ...]:
    """Per colour (0..4) the colour-side heights a hand holds, and (index 5) its grey
    heights (grey sides and the grey card), each tallest first (cached)."""
    r = _LISTS.get(hand)
    if r is None:
        out: list[list[int]] = [[] for _ in range(6)]
        for c in range(N_CODES):
            k = (hand & CODE_ALL[c]).bit_count()
            if not k:
                continue
            if c == 20:
                out[GREY] += [60] * k
                continue
            out[CARD_COLOUR[c]] += [PLAY_HEIGHT[2 * c]] * k
            if NONTOP >> c & 1:
                out[GREY] += [PLAY_HEIGHT[2 * c + 1]] * k
        r = tuple(tuple(sorted(x, reverse=True)) for x in out)
        if len(_LISTS) >= MEMO_LIMIT:
            _LISTS.clear()
        _LISTS[hand] = r
    return r


_MOST: dict[int, int] = {}


def _most(hand: int) -> int:
    """The most a hand's cards can add to the stacks: each card on its taller side
    (cached)."""
    r = _MOST.get(hand)
    if r is None:
        r = 0
        for c in range(N_CODES):
            k = (hand & CODE_ALL[c]).bit_count()
            if k:
                g = PLAY_HEIGHT[2 * c + 1] if NONTOP >> c & 1 else 0
                r += k * max(PLAY_HEIGHT[2 * c], g)
        if len(_MOST) >= MEMO_LIMIT:
            _MOST.clear()
        _MOST[hand] = r
    return r


def _gains(own: tuple[int, ...], others: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The most a stack gains in 0, 1, 2 ... tricks its owner wins with its plays ``own``
    of that colour (tallest first), the other seats holding ``others`` of it: each trick
    collects the owner's play and, from each other seat, its tallest play left no taller
    than it (the owner's tallest plays first), the gains summed tallest first."""
    gains = list(own)
    for ys in others:
        j = 0
        ny = len(ys)
        for i, x in enumerate(own):
            while j < ny and ys[j] > x:
                j += 1
            if j == ny:
                break
            gains[i] += ys[j]
            j += 1
    gains.sort(reverse=True)
    acc = 0
    p = [0]
    for g in gains:
        acc += g
        p.append(acc)
    return tuple(p)


def _top2(a: list[int] | tuple[int, ...]) -> tuple[int, int]:
    t1 = t2 = 0
    for x in a:
        if x > t1:
            t2 = t1
            t1 = x
        elif x > t2:
            t2 = x
    return t1, t2


def _grown(pair: tuple[int, int], x: int, y: int) -> tuple[int, int]:
    """A seat's pair after one of its stacks grows from ``x`` to ``y``: the stack that
    grows becomes its tallest or its second."""
    t1, t2 = pair
    if x == t1:
        return (y, t2)
    if y > t1:
        return (y, t1)
    return (t1, y if y > t2 else t2)


class Searcher:
    """One double-dummy search from a position, for ``player``; the table lives as long as
    the searcher, so the root, every first play and the principal line share it.

    ``budget`` bounds the nodes, the time and the memory (:class:`~kifu.puzzles.base.Meter`;
    past it :class:`OutOfBudget` is raised with the reason); ``core``: the compiled core
    (``None``: when it is built, :func:`compiled`), or the reference (``False``)."""

    def __init__(self, n: int, hands: int, heights: tuple[tuple[int, ...], ...],
                 trick: tuple[int, ...], leader: int, greyed: int, player: int, *,
                 trump: bool = False, anyone: bool = False, budget: Budget | None = None,
                 core: bool | None = None) -> None:
        self.n = n
        self.player = player
        self.hands = [(hands >> (HAND_BITS * s)) & HAND_MASK for s in range(n)]
        self.heights = [h for hs in heights for h in hs]
        self.trick = list(trick)
        self.leader = leader
        self.greyed = greyed
        self.tgrey = any(PLAY_IS_GREY[p] for p in trick)
        self.trump = trump
        self.anyone = anyone
        self.meter = Meter(budget)
        self._closed = 0
        self._core = self._compiled(core)
        if self._core is None:
            self._build()

    def _compiled(self, core: bool | None) -> Any:
        """The compiled core for this position, or ``None`` for the reference."""
        if core is False or (core is None and not compiled()):
            return None
        if _ddcore is None:
            raise RuntimeError("the compiled double-dummy core is not built")
        m = self.meter
        counts = [[(h & CODE_ALL[c]).bit_count() for c in range(N_CODES)] for h in self.hands]
        table = (1 << 62) if m.memory is None else int(m.memory * TABLE_SHARE)
        try:
            c = _ddcore.Core(self.n, counts, self.heights, self.trick, self.leader,
                             self.greyed, self.player, self.trump, self.anyone,
                             -1 if m.max_nodes is None else m.max_nodes, m.check,
                             CORE_CHECK_EVERY, table, OutOfBudget("nodes"))
        except ValueError:  # a position it does not take (a stack taller than 8,000)
            if core:
                raise
            return None
        self.visit: Callable[[int, int], int] = c.visit
        self._evaluate: Callable[[], int] = c.evaluate
        self._bounds: Callable[[], tuple[int, int]] = c.bounds
        self._count: Callable[[], int] | None = lambda: c.nodes
        return c

    @property
    def compiled(self) -> bool:
        """Whether this search runs in the compiled core."""
        return self._core is not None

    @property
    def table(self) -> tuple[int, int]:
        """(entries now, the most there may be): the reference's tables and memos
        together, checked every :data:`CHECK_EVERY` nodes; the core's table."""
        if self._core is not None:
            entries, _, most = self._core.table
            return entries, most
        return sum(map(len, self._tables)), self.meter.cap

    # --- the reference search --------------------------------------------------------------
    def _build(self) -> None:
        n = self.n
        player = self.player
        hands = self.hands
        H = self.heights
        trump = self.trump
        anyone = self.anyone
        meter = self.meter
        seat_at = [[(ld + i) % n for i in range(n)] for ld in range(n)]
        bit = [1 << s for s in range(n)]
        ppos = [seat_at[ld].index(player) for ld in range(n)]
        others = [s for s in range(n) if s != player]
        colour = PLAY_COLOUR
        height = PLAY_HEIGHT
        is_grey = PLAY_IS_GREY
        gkt = tuple(grey_key(g, anyone) for g in range(1 << n))
        six = range(0, 6 * n, 6)
        max_nodes = INF if meter.max_nodes is None else meter.max_nodes
        state = self  # leader, greyed, tgrey, trick live on self between calls

        # The tables: the transposition table, one dict per number of cards a hand holds
        # (so that the shallowest entries can go first), and memos of pure functions.
        tts: list[dict[tuple, tuple[int, int, int | None]]] = [{} for _ in range(26)]
        wins: dict[tuple[int, ...], tuple[int, int, int]] = {}
        finals: dict[tuple[int, ...], int] = {}
        binfo: dict[tuple[int, ...], tuple] = {}
        gains_of: dict[tuple, tuple] = {}
        bcache: dict[tuple, tuple] = {}
        rcache: dict[tuple, tuple[int, int]] = {}
        mass_of: dict[tuple[int, ...], tuple[int, ...]] = {}
        sure_of: dict[tuple[tuple[int, ...], int], tuple[tuple[int, int], ...]] = {}
        pairs_memo: dict[tuple, tuple[int, int]] = {}
        trees: dict[tuple, tuple] = {}
        pair_of: dict[tuple[int, ...], tuple[int, int]] = {}
        lasts: dict[tuple, int] = {}
        ordc: dict[tuple, tuple[int, ...]] = {}
        memos = (wins, finals, binfo, gains_of, bcache, rcache, mass_of, sure_of, pairs_memo,
                 trees, pair_of, lasts, ordc)
        tables = (*tts, *memos)
        meter.entries(ENTRY_BYTES, TABLE_SHARE)

        def trim() -> None:
            """Over the cap (:meth:`Meter.full`): the memos are emptied (they only save
            work) and the table drops its entries with the fewest tricks left first (the
            cheapest to find again) until it holds half the cap."""
            for m in memos:
                m.clear()
            total = sum(map(len, tts))
            for t in tts:
                if total <= meter.cap // 2:
                    break
                total -= len(t)
                t.clear()

        def result(t: tuple[int, ...]) -> tuple[int, int, int]:
            r = wins.get(t)
            if r is None:
                r = wins[t] = trick_result(t, trump)
            return r

        def value_of(pairs: list[tuple[int, int]]) -> int:
            """The value of the end of the game from the seats' pairs."""
            mine = pairs[player]
            place = shared = 1
            for s in others:
                q = pairs[s]
                if q > mine:
                    place += 1
                elif q == mine:
                    shared += 1
            return pack(place, shared, mine[0], mine[1])

        def evaluate() -> int:
            """The value of the end of the game (memoised on the heights)."""
            ht = tuple(H)
            v = finals.get(ht)
            if v is None:
                v = finals[ht] = value_of([_top2(ht[b:b + 6]) for b in six])
            return v

        def hands_info(hk: tuple[int, ...]) -> tuple:
            """Per seat, which of its stacks can still grow and by how much at most. A
            stack grows only in a trick its owner wins with a play of its colour, so the
            owner must hold such cards; a trick won with a play of height ``x`` collects
            from each other seat at most one play of that colour, no taller than ``x``
            (a taller one would win), and each of their cards once. So the owner's
            ``m`` tricks in that colour gain at most its ``m`` tallest plays of it, each
            with, from each other seat, the tallest of its plays of that colour left no
            taller than it (the owner's tallest first): the gains, tallest first."""
            lists = [_lists(h) for h in hk]
            per_colour = []
            for c in range(6):
                lc = tuple([ls[c] for ls in lists])
                r = gains_of.get(lc)
                if r is None:
                    r = gains_of[lc] = tuple(
                        _gains(lc[s], lc[:s] + lc[s + 1:]) if lc[s] else None
                        for s in range(n))
                per_colour.append(r)
            out = []
            for s in range(n):
                grow = []
                fixed = []
                pref: list[tuple[int, ...]] = [(0,)] * 6
                for c in range(6):
                    p = per_colour[c][s]
                    if p is None:
                        fixed.append(c)
                    else:
                        grow.append((c, p[-1]))
                        pref[c] = p
                out.append((tuple(grow), tuple(fixed), tuple(pref)))
            return tuple(out)

        def masses(hk: tuple[int, ...]) -> tuple[int, ...]:
            """Per colour (0..5) the total height of the plays of that colour the hands
            can still make, and (index 6) the most all the cards can add to the stacks
            (each card on its taller side)."""
            r = mass_of.get(hk)
            if r is None:
                m = [0] * 7
                for h in hk:
                    lists = _lists(h)
                    for c in range(6):
                        m[c] += sum(lists[c])
                    m[6] += _most(h)
                r = mass_of[hk] = tuple(m)
            return r

        def worst(hk: tuple[int, ...], seats: list[tuple[int, bool]], mc: tuple[int, int],
                  tricks: int, info: tuple) -> tuple[int, int]:
            """How many of ``seats`` (none above the player's pair ``mc`` now; the flag
            says whether the seat can reach above it) can end above the player's pair
            together, and then how many more can end equal to it: the most of the first,
            then the most of the second. To end above, a seat must bring a stack of some
            colour to the player's tallest (or hold one that tall already, and win a
            trick to change its pair); to end equal, also a second stack to the
            player's second tallest, which takes one more trick if its tallest is short
            of that. That takes tricks (``hands_info``'s gains) out of the ``tricks``
            left, each won by one seat, and height: every collected play lands in one
            stack, so the seats growing one colour need together no more than the plays
            of that colour left in the hands (``masses``), and all of them no more than
            every card on its taller side."""
            target = mc[0]
            opts = []
            for s, can_pass in seats:
                base = 6 * s
                hs = H[base:base + 6]
                t1, t2 = _top2(hs)
                if t1 >= target:
                    o = [(1, 6, 0)]
                else:
                    o = []
                    pref = info[s][2]
                    for c, r in info[s][0]:
                        d = target - hs[c]
                        if d > r:
                            continue
                        m = bisect_left(pref[c], d)
                        if m <= tricks:
                            o.append((m, c, d))
                if (t1, t2) == mc:
                    tie = [(0, 6, 0)]
                else:
                    more = 1 if t1 < mc[1] else 0
                    tie = [(m + more, c, d) for m, c, d in o if m + more <= tricks]
                o.sort()
                tie.sort()
                opts.append((tuple(o) if can_pass else (), tuple(tie)))
            mass = masses(hk)
            k = len(opts)
            full = 4 * k
            best = 0
            dem = [0] * 7
            all_mass = mass[6]

            def fit(i: int, left: int, score: int, total: int) -> None:
                nonlocal best
                if score > best:
                    best = score
                if i == k or score + 4 * (k - i) <= best:
                    return
                # a pass scores 4, a tie 1: the most passes first, then the most ties
                for ways, gain in zip(opts[i], (4, 1), strict=True):
                    for m, c, d in ways:
                        if m <= left and total + d <= all_mass:
                            x = dem[c] + d
                            if x <= mass[c]:
                                dem[c] = x
                                fit(i + 1, left - m, score + gain, total + d)
                                dem[c] = x - d
                                if best == full:
                                    return
                fit(i + 1, left, score, total)

            fit(0, tricks, 0, 0)
            # it refers to itself: a cycle that only the cyclic collector would free
            fit = None  # type: ignore[assignment]
            return best >> 2, best & 3

        def sure(hk: tuple[int, ...], s: int) -> tuple[tuple[int, int], ...]:
            """The sure leads of seat ``s``: (colour, height) of each colour card (each
            copy) whose colour side no other seat can beat with any play it holds (a
            play of that colour as tall or taller, a grey play as tall or taller, with
            ``grey_wins=trump`` any grey play). Led by ``s``, each wins its trick
            whatever the others do, and ``s`` leads again."""
            r = sure_of.get((hk, s))
            if r is None:
                out = []
                h = hk[s]
                lists = [_lists(x) for x in hk]
                for c in range(20):
                    k = (h & CODE_ALL[c]).bit_count()
                    if not k:
                        continue
                    col = CARD_COLOUR[c]
                    x = height[2 * c]
                    for t in range(n):
                        if t == s:
                            continue
                        lt = lists[t]
                        if lt[col] and lt[col][0] >= x:
                            break
                        if lt[GREY] and (trump or lt[GREY][0] >= x):
                            break
                    else:
                        out += [(col, x)] * k
                r = sure_of[hk, s] = tuple(out)
            return r

        def cashed(hk: tuple[int, ...], s: int) -> tuple[list[int], int, int]:
            """Seat ``s``'s stacks after it cashes its sure leads, how many there are,
            and the colour of the first (-1: none)."""
            gain = sure(hk, s)
            hs = H[6 * s:6 * s + 6]
            for c, x in gain:
                hs[c] += x
            return hs, len(gain), gain[0][0] if gain else -1

        def forced(hk: tuple[int, ...], col: int) -> int:
            """What the seats after the player must add to its first sure lead, of
            colour ``col``: each holding that colour follows with one (its shortest, at
            least), until a seat that may make a grey play (void in it, holding one)
            lets the rest make grey plays instead."""
            add = 0
            for s in seat_at[player][1:]:
                ls = _lists(hk[s])
                if ls[col]:
                    add += ls[col][-1]
                elif ls[GREY]:
                    break
            return add

        def pair_max(hs: list[int], pref: tuple, tricks: int) -> tuple[int, int]:
            """The most (tallest, second) a seat can reach from stacks ``hs`` in
            ``tricks`` tricks (``pref``: its gains per colour, summed): a trick grows one
            stack, so the tallest takes the fewest tricks that bring some stack there,
            and the second grows in the others."""
            most = [x + (p[tricks] if tricks < len(p) else p[-1])
                    for x, p in zip(hs, pref, strict=True)]
            u1 = max(most)
            u2 = 0
            for a in range(6):
                if most[a] != u1:
                    continue
                left = tricks - bisect_left(pref[a], u1 - hs[a])
                for b in range(6):
                    if b != a:
                        p = pref[b]
                        x = hs[b] + (p[left] if left < len(p) else p[-1])
                        if x > u2:
                            u2 = x
            return u1, u2

        def best_of(hk: tuple[int, ...], info: tuple, tricks: int,
                    pairs: list) -> tuple[tuple[int, int], int]:
            """The player's best pair in ``tricks`` tricks from its stacks now
            (:func:`pair_max`, memoised), and the upper bound it gives: its place counts
            the other seats whose pair in ``pairs`` is already above it."""
            hs_p = H[6 * player:6 * player + 6]
            pk = (hk, tuple(hs_p), tricks)
            mu = pairs_memo.get(pk)
            if mu is None:
                mu = pairs_memo[pk] = pair_max(hs_p, info[player][2], tricks)
            place = 1
            for s in others:
                if pairs[s] > mu:
                    place += 1
            return mu, pack(place, 1, mu[0], mu[1])

        def base_of(hk: tuple[int, ...]) -> tuple:
            """The quick bounds that do not depend on the leader, and the heights part
            of the table key: (lower, upper, key, cur, up, best), where ``cur`` and
            ``up`` are each seat's pair now and at most, and ``best`` the player's best
            pair. The lower bound here only counts tricks (each seat not above the
            player must win one at least, and as many as its gains need, to pass it);
            :func:`refine` sharpens both."""
            info = binfo.get(hk)
            if info is None:
                info = binfo[hk] = hands_info(hk)
            cur = []
            up = []
            norm = []
            for s in range(n):
                hs = H[6 * s:6 * s + 6]
                grow, fixed, _ = info[s]
                # the top two of the stacks that cannot grow, and each one that can
                # unless it can never be among the top two
                f1, f2 = _top2([hs[c] for c in fixed])
                part = [f1, f2]
                most = [f1, f2]
                for c, r in grow:
                    x = hs[c]
                    if x + r > f2:
                        part.append(8 * x + c)
                    most.append(x + r)
                cur.append(_top2(hs))
                up.append(_top2(most))
                norm.append(tuple(part))
            tricks = hk[player].bit_count()
            mu, hi = best_of(hk, info, tricks, cur)
            mc = cur[player]
            above = 0
            reach = 0
            needs = []
            target = mc[0]
            for s in others:
                q = up[s]
                if q >= mc:
                    reach += 1
                    if cur[s] > mc:
                        above += 1
                    elif q > mc:
                        if cur[s][0] >= target:
                            needs.append(1)
                            continue
                        pref = info[s][2]
                        base = 6 * s
                        fewest = INF
                        for c, r in info[s][0]:
                            d = target - H[base + c]
                            if d <= r:
                                m = bisect_left(pref[c], d)
                                if m < fewest:
                                    fewest = m
                        needs.append(fewest)
            passing = 0
            if needs:
                needs.sort()
                left = tricks
                for m in needs:
                    left -= m
                    if left < 0:
                        break
                    passing += 1
            place = 1 + above + passing
            lo = pack(place, 1 + reach - (place - 1), mc[0], mc[1])
            # a seat that ends below the player whatever happens (or above) matters
            # only as that: the play does not depend on the heights, only the value
            for s in others:
                if up[s] < mc:
                    norm[s] = (-1,)
                elif cur[s] > mu:
                    norm[s] = (-2,)
            return lo, hi, (hk, tuple(norm)), cur, up, mu

        def refine(hk: tuple[int, ...], leader: int, base: tuple) -> tuple[int, int]:
            """Sharper (lower, upper) bounds than ``base`` (:func:`base_of`): a seat on
            lead may first cash its sure leads (the player: its worst case rises; one of
            the coalition: the player's best falls), and the seats that may pass or tie
            the player are counted together against the tricks and the heights of
            plays left (:func:`worst`)."""
            info = binfo[hk]
            _, _, _, cur, up, _ = base
            tricks = hk[player].bit_count()
            hi = INF
            mc = cur[player]
            hs, cash, first = cashed(hk, leader)
            if cash and leader != player:
                above_cur = list(cur)
                above_cur[leader] = _top2(hs)
                _, hi = best_of(hk, info, tricks - cash, above_cur)
            elif cash:
                hs[first] += forced(hk, first)
                mc = _top2(hs)
                tricks -= cash
            above = 0
            needs = []
            for s in others:
                q = up[s]
                if q >= mc:
                    if cur[s] > mc:
                        above += 1
                    else:
                        needs.append((s, q > mc))
            passing = tying = 0
            if needs:
                passing, tying = worst(hk, needs, mc, tricks, info)
            return pack(1 + above + passing, 1 + tying, mc[0], mc[1]), hi

        def bounds() -> tuple[int, int]:
            """(lower, upper) bounds of the value at a trick boundary."""
            hk = tuple(hands)
            base = base_of(hk)
            lo, hi = refine(hk, state.leader, base)
            return max(lo, base[0]), min(hi, base[1])

        def last_tree(hk: tuple[int, ...], leader: int, op: bool) -> tuple:
            """The last trick as a tree (built once per hands, leader and grey open for
            the leader): its ways to end, each (winner, stack index, gain) once, and the
            choices, a leaf being the index of a way to end and a node (player's?,
            children); a choice whose children are all one leaf is that leaf."""
            seats = seat_at[leader]
            outs: list[tuple[int, int, int]] = []
            index: dict[tuple[int, int, int], int] = {}

            def leaf(t: tuple[int, ...]) -> int:
                j, wc, add = result(t)
                w = (seats[j], 6 * seats[j] + wc, add)
                i = index.get(w)
                if i is None:
                    i = index[w] = len(outs)
                    outs.append(w)
                return i

            def choice(maxi: bool, kids: list) -> Any:
                first = kids[0]
                if all(k == first for k in kids):
                    return first
                return (maxi, tuple(kids))

            def rest(tr: tuple[int, ...], tg: bool) -> Any:
                i = len(tr)
                s = seats[i]
                opts = legal_plays(hk[s], tr, tg, op)
                if i + 1 == n:
                    kids = [leaf((*tr, q)) for q in opts]
                else:
                    kids = [rest((*tr, q), tg or is_grey[q]) for q in opts]
                return choice(s == player, kids)

            tree = rest((), False)
            # it refers to itself: a cycle that only the cyclic collector would free
            rest = None  # type: ignore[assignment]
            return tuple(outs), tree

        def minimax(node: tuple, vals: list[int]) -> int:
            maxi, kids = node
            best = -INF if maxi else INF
            for k in kids:
                v = vals[k] if k.__class__ is int else minimax(k, vals)
                if v > best if maxi else v < best:
                    best = v
            return best

        def last_trick(hk: tuple[int, ...], ht: tuple[int, ...]) -> int:
            """The exact value when every hand (``hk``) holds one card (the last
            trick), the stacks being ``ht``: each way it can end is valued once, from
            the seats' pairs before it."""
            leader = state.leader
            op = grey_open(state.greyed, leader, anyone)
            tk = (hk, leader, op)
            r = trees.get(tk)
            if r is None:
                r = trees[tk] = last_tree(hk, leader, op)
            pairs = []
            for b in six:
                q = ht[b:b + 6]
                pr = pair_of.get(q)
                if pr is None:
                    pr = pair_of[q] = _top2(q)
                pairs.append(pr)
            # each way to end valued once, from the seats' pairs before the trick: the
            # stack that grows changes its seat's pair in one step
            outs, tree = r
            vals = []
            for ws, wi, add in outs:
                x = H[wi]
                after = pairs.copy()
                after[ws] = _grown(pairs[ws], x, x + add)
                vals.append(value_of(after))
            return vals[tree] if tree.__class__ is int else minimax(tree, vals)

        def last_value() -> int:
            """The last trick, solved directly (cheaper than its bounds), memoised."""
            hk = tuple(hands)
            ht = tuple(H)
            ck = (hk, ht, state.leader, gkt[state.greyed])
            v = lasts.get(ck)
            if v is None:
                v = lasts[ck] = last_trick(hk, ht)
            return v

        nodes = 0

        def count() -> int:
            return nodes

        def order(trick: list[int], pids: tuple[int, ...], pk: int, leader: int) -> tuple:
            ok = (tuple(trick), pk, ppos[leader])
            ordered = ordc.get(ok)
            if ordered is None:
                ordered = ordc[ok] = coalition_order(ok[0], pids, ok[2], trump)
            return ordered

        def visit(alpha: int, beta: int) -> int:
            """The value of the current position for ``player``, fail-soft within
            (alpha, beta)."""
            nonlocal nodes
            nodes += 1
            if nodes > max_nodes:
                raise OutOfBudget("nodes")
            if not nodes & (CHECK_EVERY - 1):
                meter.check()
                if meter.full(sum(map(len, tables))):
                    trim()
            trick = state.trick
            k = len(trick)
            leader = state.leader
            entry = key = None
            if k == 0:
                cl = hands[leader].bit_count()
                if cl <= 1:
                    return last_value() if cl else evaluate()
                hk = tuple(hands)
                ht = tuple(H)
                bk = (hk, ht)
                base = bcache.get(bk)
                if base is None:
                    base = bcache[bk] = base_of(hk)
                lo, hi, norm = base[0], base[1], base[2]
                v, alpha, beta = narrow(lo, hi, alpha, beta)
                if v is not None:
                    return v
                tt = tts[cl]
                key = (norm, leader, gkt[state.greyed])
                entry = tt.get(key)
                if entry is not None:
                    v, alpha, beta = narrow(entry[0], entry[1], alpha, beta)
                    if v is not None:
                        return v
                # the sharper bounds, only for a node the quick ones leave open
                rk = (hk, ht, leader)
                rr = rcache.get(rk)
                if rr is None:
                    rr = rcache[rk] = refine(hk, leader, base)
                v, alpha, beta = narrow(rr[0], rr[1], alpha, beta)
                if v is not None:
                    return v
            mover = seat_at[leader][k]
            h0 = hands[mover]
            g0 = state.greyed
            tg0 = state.tgrey
            p = h0 & PRESENCE
            if k:
                pk = follow_key(p, colour[trick[0]], tg0)
            else:
                pk = lead_key(p, grey_open(g0, mover, anyone))
            pids = _PIDS.get(pk) or _pids(pk)
            if k and mover != player:
                pids = order(trick, pids, pk, leader)
            if entry is not None and entry[2] is not None and entry[2] in pids:
                f = entry[2]
                pids = (f, *[x for x in pids if x != f])
            maxi = mover == player
            best = -INF if maxi else INF
            best_pid = None
            a0 = alpha
            b0 = beta
            last = k + 1 == n
            if last:
                seen: set[tuple[int, int, int, int]] = set()
            for pid in pids:
                c = pid >> 1
                x = (h0 >> c) & LAYER_BITS
                hands[mover] = h0 ^ (1 << (c + x.bit_length() - 1))
                if is_grey[pid]:
                    state.greyed = g0 | bit[mover]
                    state.tgrey = True
                trick.append(pid)
                if last:
                    i, wc, add = result(tuple(trick))
                    ws = seat_at[leader][i]
                    wi = 6 * ws + wc
                    # the last play of a trick: two plays that leave the same card, the
                    # same winner and gain and the same grey state reach one position
                    sig = (c, wi, add, gkt[state.greyed])
                    if sig in seen:
                        trick.pop()
                        state.greyed = g0
                        state.tgrey = tg0
                        continue
                    seen.add(sig)
                    H[wi] += add
                    state.trick = []
                    state.tgrey = False
                    state.leader = ws
                    v = visit(alpha, beta)
                    H[wi] -= add
                    state.trick = trick
                    state.leader = leader
                else:
                    v = visit(alpha, beta)
                trick.pop()
                state.greyed = g0
                state.tgrey = tg0
                if maxi:
                    if v > best:
                        best = v
                        best_pid = pid
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                elif v < best:
                    best = v
                    best_pid = pid
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
            hands[mover] = h0
            if key is not None:
                # at the last two tricks the best play is not kept (measured: no gain)
                elo, ehi = (-INF, INF) if entry is None else (entry[0], entry[1])
                tt[key] = (*bounds_after(best, a0, b0, elo, ehi),
                           best_pid if cl > 2 else None)
            return best

        self.visit = visit
        self._bounds = bounds
        self._tables = tables
        self._count = count
        self._evaluate = evaluate

    @property
    def nodes(self) -> int:
        """Positions visited so far."""
        return self._closed if self._count is None else self._count()

    def close(self) -> None:
        """Empty the search's tables and drop its functions. The reference's functions
        refer to themselves and to the searcher (cycles only the cyclic collector finds),
        so without this a finished search's tables would live until its next pass."""
        self._closed = self.nodes
        if self._core is not None:
            self._core.close()
        else:
            for table in self._tables:
                table.clear()
        self.visit = self._evaluate = self._bounds = None  # type: ignore[assignment]
        self._count = None

    def bounds(self) -> tuple[int, int]:
        """The quick (lower, upper) bounds of the value at a trick boundary (for tests:
        the exact value lies between them)."""
        assert not self.trick and any(self.hands)
        return self._bounds()

    # --- driving it ------------------------------------------------------------------------
    def mover(self) -> int | None:
        if not self.trick and not any(self.hands):
            return None
        return (self.leader + len(self.trick)) % self.n

    def legal(self) -> tuple[int, ...]:
        """The legal play ids of the player to move, tallest first."""
        mover = (self.leader + len(self.trick)) % self.n
        return legal_plays(self.hands[mover], self.trick, self.tgrey,
                           grey_open(self.greyed, mover, self.anyone))

    def _order(self, pids: tuple[int, ...]) -> tuple[int, ...]:
        """The legal plays ``pids`` in the reference's static order (without the table's
        best play first, so that the principal line depends on the position only, not on
        what earlier searches left in the table)."""
        k = len(self.trick)
        seats = [(self.leader + i) % self.n for i in range(self.n)]
        if k and seats[k] != self.player:
            return coalition_order(tuple(self.trick), pids, seats.index(self.player),
                                   self.trump)
        return pids

    def value(self) -> int:
        """The exact value of the current position, by null-window tests upwards from
        the least value there is (the player fourth, alone, with nothing): each test
        "at least ``lo + 1``?" either fails, and the value is ``lo``, or returns a
        better lower bound. Once two tests in a row stayed at one place and number of
        seats sharing it (only the heights rose), one search with the window from
        ``lo`` to the next place settles the heights at once.

        Measured on 4 x 5 seeds 0..7 (nodes): a refutation such as "the player cannot
        get a second stack over 60" is cheap with a null window and dear with a wide
        one (seed 0: 35k nodes full-window, 8.0k here); plain MTD(f) steps through
        the heights one achievable total at a time (seed 5: 85k); this keeps both
        near their best (seed 5: 57k, the full window 55k). Testing each place and
        sharing count with a null window before settling the heights in it was measured
        too with the compiled core (4 x 5 seeds 0-23: 1.12M -> 1.23M nodes)."""
        if self.mover() is None:
            return self._evaluate()
        visit = self.visit
        lo = -INF
        beta = _FLOOR
        same = False
        while True:
            if same:
                top = ((lo >> SHIFT_PLACE) + 1) << SHIFT_PLACE
                r = visit(lo, top)
                if r <= lo:
                    return lo
                if r < top:
                    return r
                lo = r
                same = False
            else:
                r = visit(beta - 1, beta)
                if r < beta:
                    # beta == lo + 1 here (the first test, at the floor, cannot fail)
                    return lo if r <= lo else r
                same = lo >> SHIFT_PLACE == r >> SHIFT_PLACE
                lo = r
            beta = lo + 1

    def line(self, v: int, first: int | None = None) -> list[int]:
        """A principal line (play ids) from the current position, whose value is ``v``,
        starting with ``first`` if given (a play known to keep the value). At each node
        the first play, in the reference's static order, that keeps the value, each
        tried with one null-window test: at the player's node a child's value is at most
        ``v``, so it keeps it if it is at least ``v``; at another seat's node, if it is at
        most ``v``. The line depends on the values only, so both implementations give
        the same one."""
        out: list[int] = []
        undos = []
        try:
            if first is not None:
                undos.append(self.push(first))
                out.append(first)
            while self.mover() is not None:
                mine = self.mover() == self.player
                for pid in self._order(self.legal()):
                    undo = self.push(pid)
                    if self.mover() is None:
                        ok = self._evaluate() == v
                    elif mine:
                        ok = self.visit(v - 1, v) >= v
                    else:
                        ok = self.visit(v, v + 1) <= v
                    if ok:
                        out.append(pid)
                        undos.append(undo)
                        break
                    self.pop(undo)
                else:  # pragma: no cover - some play keeps the value
                    raise AssertionError("no play keeps the value")
        finally:
            for undo in reversed(undos):
                self.pop(undo)
        return out

    def push(self, pid: int) -> tuple:
        """Make a play of the player to move (no legality check); returns the undo data."""
        n = self.n
        mover = (self.leader + len(self.trick)) % n
        undo = (mover, self.hands[mover], self.greyed, self.tgrey, list(self.trick),
                self.leader, list(self.heights))
        self.hands[mover] = remove_card(self.hands[mover], pid >> 1)
        if PLAY_IS_GREY[pid]:
            self.greyed |= 1 << mover
            self.tgrey = True
        self.trick.append(pid)
        if len(self.trick) == n:
            i, wc, add = trick_result(self.trick, self.trump)
            ws = (self.leader + i) % n
            self.heights[6 * ws + wc] += add
            self.trick = []
            self.tgrey = False
            self.leader = ws
        if self._core is not None:
            self._core.push(pid)
        return undo

    def pop(self, undo: tuple) -> None:
        mover, h, self.greyed, self.tgrey, trick, self.leader, heights = undo
        self.hands[mover] = h
        self.trick = trick
        self.heights[:] = heights
        if self._core is not None:
            self._core.pop()


if _ddcore is not None:
    _ddcore.set_tables(PLAY_COLOUR, PLAY_HEIGHT, PLAY_IS_GREY, PLAY_OK, CARD_COLOUR, NONTOP,
                       GBIT, CMASK, ORDER)
