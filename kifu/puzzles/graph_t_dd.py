"""A dedicated GRAPH-T double-dummy searcher (the ``double-dummy`` question's engine).

The generic :func:`kifu.puzzles.search.minimax` walks the engine with ``push``/``pop`` and
compares 4-tuples; this module is DDS-like instead: its own compact state, one tight
recursion, values as single ints, bounds, and a table at trick boundaries.

- **State**: one hand int per seat (the engine's layout, ``cards.py``: four 21-bit count
  layers), the heights as one flat list (``6 * seat + colour``), the trick as a list of
  play ids, the leader, who has made a grey play and whether this trick holds one. A play
  is made and unmade with local variables; legal plays follow the engine's
  ``lead_key``/``follow_key`` (``rules.py``, inlined) and the winner ``trick_winner``.
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
  built once per hands, and only the ends are valued per heights. The last two tricks,
  where the bounds leave them open, are searched without bounds or table inside
  (:func:`two`). Plays are tried tallest first, the table's best first.
"""

from __future__ import annotations

import time
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
    NONTOP,
    PLAY_COLOUR,
    PLAY_HEIGHT,
    PLAY_IS_GREY,
    PRESENCE,
)
from kifu.games.graph_t.rules import trick_winner

SHIFT_PLACE = 40
SHIFT_T1 = 20
INF = 1 << 60


def pack(place: int, shared: int, tallest: int, second: int) -> int:
    """One int for a value: greater is better for the player."""
    return (((4 - place) * 5 + (4 - shared)) << SHIFT_PLACE) | (tallest << SHIFT_T1) | second


def unpack(v: int) -> tuple[int, int, int, int]:
    top = v >> SHIFT_PLACE
    return (4 - top // 5, 4 - top % 5, (v >> SHIFT_T1) & 0xFFFFF, v & 0xFFFFF)


_FLOOR = pack(4, 1, 0, 0)  # the least value: fourth, alone, no stack


class OutOfBudget(Exception):
    """The node or time budget of a search is spent."""


# --- tables ----------------------------------------------------------------------------------

_PIDS: dict[int, tuple[int, ...]] = {}


def _pids(key: int) -> tuple[int, ...]:
    """The play ids of a play-set key (rules.py), tallest first (cached)."""
    r = _PIDS.get(key)
    if r is None:
        out = [2 * c for c in range(N_CODES) if key >> c & 1]
        out += [2 * c + 1 for c in range(N_CODES) if key >> (LAYER + c) & 1]
        out.sort(key=lambda p: (-PLAY_HEIGHT[p], p))
        r = tuple(out)
        _PIDS[key] = r
    return r


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


class Searcher:
    """One double-dummy search from a position, for ``player``; the table lives as long as
    the searcher, so the root, every first play and the principal line share it."""

    def __init__(self, n: int, hands: int, heights: tuple[tuple[int, ...], ...],
                 trick: tuple[int, ...], leader: int, greyed: int, player: int, *,
                 trump: bool = False, anyone: bool = False, max_nodes: int | None = None,
                 deadline: float | None = None) -> None:
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
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.tt: dict = {}
        self._build()

    # --- the search ------------------------------------------------------------------------
    def _build(self) -> None:
        n = self.n
        player = self.player
        hands = self.hands
        H = self.heights
        tt = self.tt
        trump = self.trump
        anyone = self.anyone
        seat_at = [[(ld + i) % n for i in range(n)] for ld in range(n)]
        bit = [1 << s for s in range(n)]
        ppos = [seat_at[ld].index(player) for ld in range(n)]
        others = [s for s in range(n) if s != player]
        pids_of = _PIDS
        colour = PLAY_COLOUR
        height = PLAY_HEIGHT
        is_grey = PLAY_IS_GREY
        cmask = CMASK
        wins: dict[tuple[int, ...], tuple[int, int, int]] = {}
        max_nodes = self.max_nodes if self.max_nodes is not None else INF
        deadline = self.deadline
        state = self  # leader, greyed, tgrey, trick live on self between calls

        finals: dict[tuple[int, ...], int] = {}

        def evaluate() -> int:
            """The value of the end of the game (memoised on the heights)."""
            ht = tuple(H)
            v = finals.get(ht)
            if v is None:
                v = finals[ht] = final(ht)
            return v

        def final(ht: tuple[int, ...]) -> int:
            pairs = [_top2(ht[6 * s:6 * s + 6]) for s in range(n)]
            mine = pairs[player]
            place = 1
            shared = 1
            for s in others:
                q = pairs[s]
                if q > mine:
                    place += 1
                elif q == mine:
                    shared += 1
            return pack(place, shared, mine[0], mine[1])

        binfo: dict[tuple[int, ...], tuple] = {}
        gains_of: dict[tuple, tuple[int, ...]] = {}

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

        bcache: dict[tuple, tuple] = {}
        rcache: dict[tuple, tuple[int, int]] = {}

        def bounds() -> tuple[int, int, tuple]:
            """(lower, upper) bounds of the value at a trick boundary, and the heights
            part of the table key."""
            return bounds_of(tuple(hands), state.leader)

        mass_of: dict[tuple[int, ...], tuple[int, ...]] = {}

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
                passes, ties = opts[i]
                for m, c, d in passes:
                    if m <= left and total + d <= all_mass:
                        x = dem[c] + d
                        if x <= mass[c]:
                            dem[c] = x
                            fit(i + 1, left - m, score + 4, total + d)
                            dem[c] = x - d
                            if best == full:
                                return
                for m, c, d in ties:
                    if m <= left and total + d <= all_mass:
                        x = dem[c] + d
                        if x <= mass[c]:
                            dem[c] = x
                            fit(i + 1, left - m, score + 1, total + d)
                            dem[c] = x - d
                fit(i + 1, left, score, total)

            fit(0, tricks, 0, 0)
            # it refers to itself: a cycle that only the cyclic collector would free
            fit = None  # type: ignore[assignment]
            return best >> 2, best & 3

        sure_of: dict[tuple[tuple[int, ...], int], tuple[tuple[int, int], ...]] = {}

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

        pairs_memo: dict[tuple, tuple[int, int]] = {}

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
                f1 = f2 = 0
                for c in fixed:
                    x = hs[c]
                    if x > f1:
                        f2 = f1
                        f1 = x
                    elif x > f2:
                        f2 = x
                c1 = f1
                c2 = f2
                u1 = f1
                u2 = f2
                part = [f1, f2]
                for c, r in grow:
                    x = hs[c]
                    if x + r > f2:  # else it can never be among the top two
                        part.append(8 * x + c)
                    if x > c1:
                        c2 = c1
                        c1 = x
                    elif x > c2:
                        c2 = x
                    x += r
                    if x > u1:
                        u2 = u1
                        u1 = x
                    elif x > u2:
                        u2 = x
                cur.append((c1, c2))
                up.append((u1, u2))
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
            if leader != player:
                gain = sure(hk, leader)
                if gain:
                    hs = H[6 * leader:6 * leader + 6]
                    for c, x in gain:
                        hs[c] += x
                    above_cur = list(cur)
                    above_cur[leader] = _top2(hs)
                    _, hi = best_of(hk, info, tricks - len(gain), above_cur)
            mc = cur[player]
            if leader == player:
                gain = sure(hk, player)
                if gain:
                    hs = H[6 * player:6 * player + 6]
                    for c, x in gain:
                        hs[c] += x
                    hs[gain[0][0]] += forced(hk, gain[0][0])
                    mc = _top2(hs)
                    tricks -= len(gain)
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

        def bounds_of(hk: tuple[int, ...], leader: int) -> tuple[int, int, tuple]:
            """All the quick bounds of a position at a trick boundary, and its key."""
            base = base_of(hk)
            lo, hi = refine(hk, leader, base)
            return max(lo, base[0]), min(hi, base[1]), base[2]

        trees: dict[tuple, tuple] = {}
        pair_of: dict[tuple[int, ...], tuple[int, int]] = {}
        six = range(0, 6 * n, 6)

        def last_tree(hk: tuple[int, ...], leader: int, g0: int) -> tuple:
            """The last trick as a tree (built once per hands, leader and grey state):
            its ways to end, each (winner, stack index, gain) once, and the choices,
            a leaf being the index of a way to end and a node (player's?, children);
            a choice whose children are all one leaf is that leaf."""
            seats = seat_at[leader]
            codes = [hk[s].bit_length() - 1 for s in seats]
            outs: list[tuple[int, int, int]] = []
            index: dict[tuple[int, int, int], int] = {}

            def leaf(t: tuple[int, ...]) -> int:
                r = wins.get(t)
                if r is None:
                    j = trick_winner(t, trump)
                    wc = colour[t[j]]
                    r = wins[t] = (j, wc, sum(height[q] for q in t if colour[q] == wc))
                j, wc, add = r
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

            def rest(tr: tuple[int, ...], led: int, tg: bool) -> Any:
                i = len(tr)
                c = codes[i]
                nt = NONTOP >> c & 1
                if led == GREY:
                    opts = (2 * c + 1,) if nt else (2 * c,)
                elif c != 20 and CARD_COLOUR[c] == led:
                    opts = (2 * c, 2 * c + 1) if tg and nt else (2 * c,)
                else:
                    opts = (2 * c, 2 * c + 1) if nt else (2 * c,)
                if i + 1 == n:
                    kids = [leaf((*tr, q)) for q in opts]
                else:
                    kids = [rest((*tr, q), led, tg or is_grey[q]) for q in opts]
                return choice(seats[i] == player, kids)

            ms = seats[0]
            c = codes[0]
            op = (g0 != 0) if anyone else (g0 & ~bit[ms]) != 0
            firsts = (2 * c, 2 * c + 1) if op and NONTOP >> c & 1 else (2 * c,)
            tree = choice(ms == player, [rest((f,), colour[f], is_grey[f]) for f in firsts])
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
            the seats' pairs before it (a stack that grows changes its seat's pair in
            one step: it becomes the tallest or the second)."""
            leader = state.leader
            g0 = state.greyed
            tk = (hk, leader, (g0 != 0) if anyone else (g0 & ~bit[leader]) != 0)
            r = trees.get(tk)
            if r is None:
                r = trees[tk] = last_tree(hk, leader, g0)
            pairs = []
            for b in six:
                q = ht[b:b + 6]
                pr = pair_of.get(q)
                if pr is None:
                    pr = pair_of[q] = _top2(q)
                pairs.append(pr)
            return ends_value(r, pairs)

        def ends_value(r: tuple, pairs: list[tuple[int, int]]) -> int:
            """The value of a last trick ``r`` (:func:`last_tree`) from the stacks ``H``
            and the seats' ``pairs`` before it."""
            outs, tree = r
            mine = pairs[player]
            above = tie = 0
            for s in others:
                q = pairs[s]
                if q > mine:
                    above += 1
                elif q == mine:
                    tie += 1
            vals = []
            low = (mine[0] << SHIFT_T1) | mine[1]
            for ws, wi, add in outs:
                x = H[wi]
                y = x + add
                t1, t2 = pairs[ws]
                if x == t1:
                    won = (y, t2)
                elif y > t1:
                    won = (y, t1)
                else:
                    won = (t1, y if y > t2 else t2)
                if ws == player:
                    place = shared = 1
                    for s in others:
                        q = pairs[s]
                        if q > won:
                            place += 1
                        elif q == won:
                            shared += 1
                    vals.append((((4 - place) * 5 + 4 - shared) << SHIFT_PLACE)
                                | (won[0] << SHIFT_T1) | won[1])
                    continue
                old = pairs[ws]
                place = 1 + above
                shared = 1 + tie
                if old > mine:
                    place -= 1
                elif old == mine:
                    shared -= 1
                if won > mine:
                    place += 1
                elif won == mine:
                    shared += 1
                vals.append((((4 - place) * 5 + 4 - shared) << SHIFT_PLACE) | low)
            if tree.__class__ is int:
                return vals[tree]
            return minimax(tree, vals)

        def two(alpha: int, beta: int) -> int:
            """The value (fail-soft within (alpha, beta)) of a trick boundary where every
            hand holds two cards: the first of the two tricks searched directly, without
            bounds or table (few positions, each reached once), and at each of its ends
            the last trick valued from the seats' pairs (:func:`ends_value`)."""
            pairs = []
            for b in six:
                q = tuple(H[b:b + 6])
                pr = pair_of.get(q)
                if pr is None:
                    pr = pair_of[q] = _top2(q)
                pairs.append(pr)
            return first_trick(0, alpha, beta, pairs, state.greyed, False, -1)

        def first_trick(k: int, alpha: int, beta: int, pairs: list, g0: int, tg0: bool,
                        led: int) -> int:
            """Seat ``k`` of the leader's trick plays in :func:`two` (the trick so far in
            ``state.trick``, grey plays so far ``g0``, one in this trick ``tg0``)."""
            nonlocal nodes
            nodes += 1
            trick = state.trick
            leader = state.leader
            mover = seat_at[leader][k]
            h0 = hands[mover]
            p = h0 & PRESENCE
            if k == 0:
                if anyone:
                    op = g0 != 0
                else:
                    op = (g0 & ~bit[mover]) != 0
                if op:
                    pk = p | (p & NONTOP) << LAYER
                else:
                    pk = p & 0xFFFFF or p
            elif led == GREY:
                pk = (p & GBIT) | (p & NONTOP) << LAYER or p
            else:
                a = p & cmask[led]
                if a:
                    pk = a | (p & GBIT) | (p & NONTOP) << LAYER if tg0 else a
                else:
                    pk = p | (p & NONTOP) << LAYER
            pids = pids_of.get(pk) or _pids(pk)
            maxi = mover == player
            if k and not maxi:
                ok = (tuple(trick), pk, ppos[leader])
                ordered = ordc.get(ok)
                if ordered is None:
                    ordered = ordc[ok] = coalition_order(ok[0], pids, ok[2])
                pids = ordered
            best = -INF if maxi else INF
            last = k + 1 == n
            if last:
                seen: set[tuple[int, int, int, int]] = set()
                seats = seat_at[leader]
            for pid in pids:
                c = pid >> 1
                x = (h0 >> c) & LAYER_BITS
                hands[mover] = h0 ^ (1 << (c + x.bit_length() - 1))
                g = g0 | bit[mover] if is_grey[pid] else g0
                trick.append(pid)
                if last:
                    t = tuple(trick)
                    w = wins.get(t)
                    if w is None:
                        i = trick_winner(t, trump)
                        wc = colour[t[i]]
                        w = (i, wc, sum(height[q] for q in t if colour[q] == wc))
                        wins[t] = w
                    i, wc, add = w
                    ws = seats[i]
                    wi = 6 * ws + wc
                    sig = (c, wi, add, gkt[g])
                    trick.pop()
                    if sig in seen:
                        continue
                    seen.add(sig)
                    nodes += 1
                    # the last trick, after this one: ``ws`` leads it
                    hk = tuple(hands)
                    tk = (hk, ws, (g != 0) if anyone else (g & ~bit[ws]) != 0)
                    r = trees.get(tk)
                    if r is None:
                        r = trees[tk] = last_tree(hk, ws, g)
                    xw = H[wi]
                    y = xw + add
                    t1, t2 = pairs[ws]
                    if xw == t1:
                        won = (y, t2)
                    elif y > t1:
                        won = (y, t1)
                    else:
                        won = (t1, y if y > t2 else t2)
                    after = pairs.copy()
                    after[ws] = won
                    H[wi] = y
                    v = ends_value(r, after)
                    H[wi] = xw
                else:
                    v = first_trick(k + 1, alpha, beta, pairs, g,
                                    tg0 or is_grey[pid], colour[pid] if k == 0 else led)
                    trick.pop()
                if maxi:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
            hands[mover] = h0
            return best

        gkt = tuple((-1 if g else 0) if anyone else (g if not g & (g - 1) else -1)
                    for g in range(1 << n))
        nodes = 0
        lasts: dict[tuple, int] = {}

        def count() -> int:
            return nodes

        ordc: dict = {}

        def coalition_order(t: tuple[int, ...], pids: tuple[int, ...], pi: int) -> tuple:
            """A seat of the coalition mid-trick: if the player's play is winning the
            trick, the plays that beat it first (tallest first), then the rest shortest
            first; otherwise shortest first (keep the tall cards for later). Measured:
            a refutation of 4 x 5 seed 3 went from 450k to 47k nodes."""
            k = len(t)
            if pi < k and trick_winner(t, trump) == pi:
                beat = [q for q in pids if trick_winner((*t, q), trump) == k]
                rest = [q for q in pids if q not in beat]
                return (*beat, *rest[::-1])
            return pids[::-1]

        def grey_key() -> int:
            """Who may lead grey: nobody (0), everyone but one seat (its bit) or everyone
            (-1); with ``grey_open=anyone``, nobody or everyone."""
            g = state.greyed
            if anyone:
                return -1 if g else 0
            return g if not g & (g - 1) else -1

        def visit(alpha: int, beta: int) -> int:
            """The value of the current position for ``player``, fail-soft within
            (alpha, beta)."""
            nonlocal nodes
            nodes += 1
            if nodes > max_nodes:
                raise OutOfBudget
            if deadline is not None and not nodes & 1023 and time.perf_counter() > deadline:
                raise OutOfBudget
            trick = state.trick
            k = len(trick)
            leader = state.leader
            entry = None
            key = None
            if k == 0:
                hk = tuple(hands)
                if hands[leader].bit_count() == 1:
                    # the last trick: solved directly, cheaper than its bounds
                    ht = tuple(H)
                    ck = (hk, ht, leader, gkt[state.greyed])
                    v = lasts.get(ck)
                    if v is None:
                        v = lasts[ck] = last_trick(hk, ht)
                    return v
                ht = tuple(H)
                bk = (hk, ht)
                base = bcache.get(bk)
                if base is None:
                    base = bcache[bk] = base_of(hk)
                lo, hi, norm = base[0], base[1], base[2]
                if hi <= alpha or lo == hi:
                    return hi
                if lo >= beta:
                    return lo
                key = (norm, leader, gkt[state.greyed])
                entry = tt.get(key)
                if entry is not None:
                    elo, ehi, _ = entry
                    if elo > lo:
                        lo = elo
                    if ehi < hi:
                        hi = ehi
                    if lo >= beta or lo == hi:
                        return lo
                    if hi <= alpha:
                        return hi
                # the sharper bounds, only for a node the quick ones leave open
                rk = (hk, ht, leader)
                rr = rcache.get(rk)
                if rr is None:
                    rr = rcache[rk] = refine(hk, leader, base)
                if rr[0] > lo:
                    lo = rr[0]
                if rr[1] < hi:
                    hi = rr[1]
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                if hands[leader].bit_count() == 2:
                    best = two(alpha, beta)
                    elo, ehi = (-INF, INF) if entry is None else (entry[0], entry[1])
                    if best <= alpha:
                        if best < ehi:
                            ehi = best
                    elif best >= beta:
                        if best > elo:
                            elo = best
                    else:
                        elo = ehi = best
                    tt[key] = (elo, ehi, None)
                    return best
            mover = seat_at[leader][k]
            h0 = hands[mover]
            p = h0 & PRESENCE
            g0 = state.greyed
            tg0 = state.tgrey
            if k == 0:
                if anyone:
                    op = g0 != 0
                else:
                    op = (g0 & ~bit[mover]) != 0
                if op:
                    pk = p | (p & NONTOP) << LAYER
                else:
                    pk = p & 0xFFFFF or p
            else:
                led = colour[trick[0]]
                if led == GREY:
                    pk = (p & GBIT) | (p & NONTOP) << LAYER or p
                else:
                    a = p & cmask[led]
                    if a:
                        pk = a | (p & GBIT) | (p & NONTOP) << LAYER if tg0 else a
                    else:
                        pk = p | (p & NONTOP) << LAYER
            pids = pids_of.get(pk) or _pids(pk)
            if k and mover != player:
                ok = (tuple(trick), pk, ppos[leader])
                ordered = ordc.get(ok)
                if ordered is None:
                    ordered = ordc[ok] = coalition_order(ok[0], pids, ok[2])
                pids = ordered
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
                lastnext = h0.bit_count() == 2
            for pid in pids:
                c = pid >> 1
                x = (h0 >> c) & LAYER_BITS
                hands[mover] = h0 ^ (1 << (c + x.bit_length() - 1))
                if is_grey[pid]:
                    state.greyed = g0 | bit[mover]
                    state.tgrey = True
                trick.append(pid)
                if last:
                    t = tuple(trick)
                    w = wins.get(t)
                    if w is None:
                        i = trick_winner(t, trump)
                        wc = colour[t[i]]
                        w = (i, wc, sum(height[q] for q in t if colour[q] == wc))
                        wins[t] = w
                    i, wc, add = w
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
                    if lastnext:
                        # the next trick is the last: as ``visit`` would, inline
                        nodes += 1
                        hk = tuple(hands)
                        ht = tuple(H)
                        ck = (hk, ht, ws, gkt[state.greyed])
                        v = lasts.get(ck)
                        if v is None:
                            v = lasts[ck] = last_trick(hk, ht)
                    elif hands[0]:
                        v = visit(alpha, beta)
                    else:
                        nodes += 1
                        v = evaluate()
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
                elo, ehi = (-INF, INF) if entry is None else (entry[0], entry[1])
                if best <= a0:
                    if best < ehi:
                        ehi = best
                elif best >= b0:
                    if best > elo:
                        elo = best
                else:
                    elo = ehi = best
                tt[key] = (elo, ehi, best_pid)
            return best

        def search_order(pids: tuple[int, ...]) -> tuple[int, ...]:
            """The legal plays ``pids`` in the search's static order (without the
            table's best play first, so that the principal line depends on the position
            only, not on what earlier searches left in the table)."""
            trick = state.trick
            k = len(trick)
            leader = state.leader
            if k and seat_at[leader][k] != player:
                pids = coalition_order(tuple(trick), pids, seat_at[leader].index(player))
            return pids

        self.visit: Callable[[int, int], int] = visit
        self._bounds = bounds
        self._tables = (tt, wins, finals, binfo, gains_of, bcache, rcache, mass_of, sure_of,
                        pairs_memo, trees, pair_of, lasts, ordc)
        self._order = search_order
        self._count = count
        self._evaluate = evaluate

    @property
    def nodes(self) -> int:
        """Positions visited so far."""
        return self._closed if self._count is None else self._count()

    def close(self) -> None:
        """Empty the search's tables and drop its functions. The functions refer to
        themselves and to the searcher (cycles only the cyclic collector finds), so
        without this a finished search's tables would live until its next pass."""
        self._closed = self._count()
        for table in self._tables:
            table.clear()
        self.visit = self._order = self._evaluate = self._bounds = None  # type: ignore[assignment]
        self._count = None  # type: ignore[assignment]

    def bounds(self) -> tuple[int, int]:
        """The quick (lower, upper) bounds of the value at a trick boundary (for tests:
        the exact value lies between them)."""
        assert not self.trick and any(self.hands)
        lo, hi, _ = self._bounds()
        return lo, hi

    # --- driving it ------------------------------------------------------------------------
    def mover(self) -> int | None:
        if not self.trick and not self.hands[0] and not any(self.hands):
            return None
        return (self.leader + len(self.trick)) % self.n

    def legal(self) -> tuple[int, ...]:
        """The legal play ids of the player to move, tallest first."""
        mover = (self.leader + len(self.trick)) % self.n
        p = self.hands[mover] & PRESENCE
        if not self.trick:
            g = self.greyed if self.anyone else self.greyed & ~(1 << mover)
            if g:
                return _pids(p | (p & NONTOP) << LAYER)
            return _pids(p & 0xFFFFF or p)
        led = PLAY_COLOUR[self.trick[0]]
        if led == GREY:
            return _pids((p & GBIT) | (p & NONTOP) << LAYER or p)
        a = p & CMASK[led]
        if a:
            return _pids(a | (p & GBIT) | (p & NONTOP) << LAYER if self.tgrey else a)
        return _pids(p | (p & NONTOP) << LAYER)

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
        near their best (seed 5: 57k, the full window 55k)."""
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
        the first play, in the search's order, that keeps the value, each tried with one
        null-window test: at the player's node a child's value is at most ``v``, so it
        keeps it if it is at least ``v``; at another seat's node, if it is at most ``v``."""
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
        c = pid >> 1
        h0 = self.hands[mover]
        x = (h0 >> c) & LAYER_BITS
        self.hands[mover] = h0 ^ (1 << (c + x.bit_length() - 1))
        if PLAY_IS_GREY[pid]:
            self.greyed |= 1 << mover
            self.tgrey = True
        self.trick.append(pid)
        if len(self.trick) == n:
            t = tuple(self.trick)
            i = trick_winner(t, self.trump)
            wc = PLAY_COLOUR[t[i]]
            ws = (self.leader + i) % n
            self.heights[6 * ws + wc] += sum(PLAY_HEIGHT[q] for q in t if PLAY_COLOUR[q] == wc)
            self.trick = []
            self.tgrey = False
            self.leader = ws
        return undo

    def pop(self, undo: tuple) -> None:
        mover, h, self.greyed, self.tgrey, trick, self.leader, heights = undo
        self.hands[mover] = h
        self.trick = trick
        self.heights[:] = heights


__all__ = ["OutOfBudget", "Searcher", "pack", "unpack"]
