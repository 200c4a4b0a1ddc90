"""Placement generation, the hot path: every legal placement exactly once, with the spaces
that score.

A placement puts tiles from the mover's rack and the public hand on distinct spaces the
mover may use, so that afterwards **one combo holds every placed tile** (ruling 3). A combo
is connected under links of one kind (ruling 2), so the placed tiles of a legal placement
of two or more tiles either all share a number (a *set* placement) or all share a suit (a
*run* placement); a single tile may be both. The generator therefore has three parts, which
never produce the same placement twice:

- **singles**: tile ``t`` on space ``p`` is legal iff ``p`` neighbours a top tile that links
  to ``t``: one mask test per tile (``nbrs(link mask of t) & allowed``);
- **sets** of number ``N`` (``k >= 2`` tiles): only the *spaces* matter for legality (every
  tile has number ``N``), so each ``k``-subset ``P`` of the allowed spaces is tested once
  (``P`` inside one connected component of the number-``N`` tops after placing, found by a
  bitmask flood fill) and then stands for ``k!·C(c, k)`` placements of the ``c`` candidate
  tiles;
- **runs** of a suit (``k >= 2`` tiles): grown from the lowest placed tile upwards along the
  lines, one number at a time. A number held is placed on an allowed free space next to the
  previous tile; a number lying on top of the board is walked through (its space reserved,
  never covered later); anything else ends the run. Each placement has exactly one such
  growth path, so it is produced once.

Scoring (ruling 4, 14): the spaces of every combo holding a placed tile, each once: the
set component and the run chain of each placed tile in the final position. ``count`` mode
skips scoring and building, for perft.

Spaces are bits of an int, tiles small ints (``tiles.py``); ``tops[s]`` is the top tile of
space ``s`` or -1.
"""

from __future__ import annotations

from itertools import permutations

from kifu.games.lianxian.board import Board
from kifu.games.lianxian.tiles import DOWN, NUMBER_TILES, SUIT_TILES, UP

_PERM = [[1] * 11 for _ in range(11)]
for _c in range(11):
    for _k in range(11):
        _p = 1
        for _i in range(_k):
            _p *= max(_c - _i, 0)
        _PERM[_c][_k] = _p
PERM = tuple(tuple(r) for r in _PERM)
"""``PERM[c][k]``: ordered choices of ``k`` tiles out of ``c``."""

_SUBSETS: dict[int, tuple[tuple[int, ...], ...]] = {}


def subsets_by_size(allowed: int) -> tuple[tuple[int, ...], ...]:
    """Every submask of ``allowed``, grouped by size (a table per allowed mask: each seat
    of a game has one, so this fills once per board and seat)."""
    got = _SUBSETS.get(allowed)
    if got is None:
        groups: list[list[int]] = [[] for _ in range(allowed.bit_count() + 1)]
        m = allowed
        while m:
            groups[m.bit_count()].append(m)
            m = (m - 1) & allowed
        groups[0].append(0)
        got = _SUBSETS[allowed] = tuple(tuple(sorted(g)) for g in groups)
    return got


def clear_tables() -> None:
    """Forget the subset tables (for cold-cache benchmarks)."""
    _SUBSETS.clear()


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def generate(board: Board, tops: tuple[int, ...] | list[int], avail: int, allowed: int,
             build: bool = True):
    """Every legal placement of tiles of ``avail`` on spaces of ``allowed``.

    With ``build`` a list of ``(cells, scoring)``: ``cells`` the ``(space, tile)`` pairs
    sorted by space, ``scoring`` the mask of spaces whose top tiles score. Without it, the
    number of placements (an int)."""
    adj = board.adj
    nbl = board.nb_lo
    nbh = board.nb_hi
    pos = [-1] * 50
    nummask = [0] * 10
    for s, t in enumerate(tops):
        if t >= 0:
            pos[t] = s
            nummask[t % 10] |= 1 << s
    out: list = []
    count = 0

    # --- singles -------------------------------------------------------------------------
    m = avail
    while m:
        low = m & -m
        m ^= low
        t = low.bit_length() - 1
        link = nummask[t % 10]
        u = UP[t]
        if u >= 0 and pos[u] >= 0:
            link |= 1 << pos[u]
        d = DOWN[t]
        if d >= 0 and pos[d] >= 0:
            link |= 1 << pos[d]
        sp = allowed & (nbl[link & 255] | nbh[link >> 8])
        if not sp:
            continue
        if not build:
            count += sp.bit_count()
            continue
        while sp:
            lp = sp & -sp
            sp ^= lp
            p = lp.bit_length() - 1
            score = _set_comp(nbl, nbh, lp, nummask[t % 10] | lp) | _chain(adj, pos, t, p, lp)
            out.append((((p, t),), score))

    # --- sets ----------------------------------------------------------------------------
    subs = None
    for k0 in range(10):
        cand = avail & NUMBER_TILES[k0]
        c = cand.bit_count()
        if c < 2:
            continue
        if subs is None:
            subs = subsets_by_size(allowed)
        board_n = nummask[k0]
        ctiles = bits(cand) if build else ()
        for k in range(2, min(c, len(subs) - 1) + 1):
            per = PERM[c][k]
            for P in subs[k]:
                U = board_n | P
                comp = P & -P
                f = comp
                while f:
                    f = (nbl[f & 255] | nbh[f >> 8]) & U & ~comp
                    comp |= f
                if P & ~comp:
                    continue
                if not build:
                    count += per
                    continue
                spaces = bits(P)
                chain = {(p, t): _chain(adj, pos, t, p, P) for p in spaces for t in ctiles}
                for perm in permutations(ctiles, k):
                    cells = tuple(zip(spaces, perm, strict=True))
                    score = comp
                    for pt in cells:
                        score |= chain[pt]
                    out.append((cells, score))

    # --- runs ----------------------------------------------------------------------------
    for s in range(5):
        cand = avail & SUIT_TILES[s]
        if cand.bit_count() < 2:
            continue
        grow = _Runs(adj, pos, nummask, nbl, nbh, avail, allowed, build)
        m = cand
        while m:
            low = m & -m
            m ^= low
            lo = low.bit_length() - 1
            if not (UP[lo] >= 0 and (cand >> UP[lo] & 1 or pos[UP[lo]] >= 0)):
                continue  # nothing above lo can join it
            a = allowed
            while a:
                lp = a & -a
                a ^= lp
                p = lp.bit_length() - 1
                grow.walk(lo, p, lp, 0, ((p, lo),), p, lo)
        if build:
            out.extend(grow.out)
        else:
            count += grow.count
    return out if build else count


def _set_comp(nbl, nbh, seed: int, U: int) -> int:
    """The component of ``seed`` (one bit) in ``U``, or 0 if it is ``seed`` alone."""
    comp = f = seed
    while f:
        f = (nbl[f & 255] | nbh[f >> 8]) & U & ~comp
        comp |= f
    return comp if comp != seed else 0


def _chain(adj, pos, t: int, p: int, covered: int) -> int:
    """The run chain through tile ``t`` placed on ``p`` made of board tops (spaces in
    ``covered`` are covered by placed tiles); 0 if ``t`` links to nothing by suit."""
    out = 0
    prev = p
    u = UP[t]
    while u >= 0:
        q = pos[u]
        if q < 0 or covered >> q & 1 or not adj[prev] >> q & 1:
            break
        out |= 1 << q
        prev = q
        u = UP[u]
    prev = p
    u = DOWN[t]
    while u >= 0:
        q = pos[u]
        if q < 0 or covered >> q & 1 or not adj[prev] >> q & 1:
            break
        out |= 1 << q
        prev = q
        u = DOWN[u]
    return out | (1 << p) if out else 0


class _Runs:
    """The run growth of one suit (see the module docstring)."""

    __slots__ = ("adj", "allowed", "avail", "build", "count", "nbh", "nbl", "nummask", "out",
                 "pos")

    def __init__(self, adj, pos, nummask, nbl, nbh, avail, allowed, build):
        self.adj = adj
        self.pos = pos
        self.nummask = nummask
        self.nbl = nbl
        self.nbh = nbh
        self.avail = avail
        self.allowed = allowed
        self.build = build
        self.count = 0
        self.out: list = []

    def walk(self, t: int, prev: int, used: int, res: int, cells: tuple, p_lo: int,
             lo: int) -> None:
        """``t`` was just placed on ``prev``; try every way to place the next tile up."""
        adj = self.adj
        pos = self.pos
        u = UP[t]
        pv = prev
        while u >= 0:
            if self.avail >> u & 1:
                free = self.allowed & adj[pv] & ~used & ~res
                while free:
                    lq = free & -free
                    free ^= lq
                    q = lq.bit_length() - 1
                    cells2 = (*cells, (q, u))
                    used2 = used | lq
                    if self.build:
                        self._record(cells2, used2, res, p_lo, lo, q, u)
                    else:
                        self.count += 1
                    self.walk(u, q, used2, res, cells2, p_lo, lo)
                return
            q = pos[u]
            if q < 0 or used >> q & 1 or not adj[pv] >> q & 1:
                return
            res |= 1 << q
            pv = q
            u = UP[u]

    def _record(self, cells, used, res, p_lo, lo, p_hi, hi) -> None:
        adj = self.adj
        pos = self.pos
        score = used | res
        prev = p_lo
        u = DOWN[lo]
        while u >= 0:
            q = pos[u]
            if q < 0 or used >> q & 1 or not adj[prev] >> q & 1:
                break
            score |= 1 << q
            prev = q
            u = DOWN[u]
        prev = p_hi
        u = UP[hi]
        while u >= 0:
            q = pos[u]
            if q < 0 or used >> q & 1 or not adj[prev] >> q & 1:
                break
            score |= 1 << q
            prev = q
            u = UP[u]
        nbl, nbh, nummask = self.nbl, self.nbh, self.nummask
        for p, t in cells:
            lp = 1 << p
            score |= _set_comp(nbl, nbh, lp, (nummask[t % 10] & ~used) | lp)
        self.out.append((tuple(sorted(cells)), score))


def final_tops(tops, cells) -> list[int]:
    out = list(tops)
    for p, t in cells:
        out[p] = t
    return out


def components(board: Board, tops, p: int) -> tuple[int, int]:
    """The set component and the run component of space ``p`` in ``tops`` (each a mask,
    0 where it would be the tile alone): the general rule, used by ``check`` and push."""
    t = tops[p]
    num = t % 10
    U = 0
    pos = [-1] * 50
    for s, x in enumerate(tops):
        if x >= 0:
            pos[x] = s
            if x % 10 == num:
                U |= 1 << s
    set_comp = _set_comp(board.nb_lo, board.nb_hi, 1 << p, U)
    return set_comp, _chain(board.adj, pos, t, p, 0)


def score_mask(board: Board, tops, cells) -> int:
    """The spaces scoring for placing ``cells`` (every tile of every combo holding a placed
    tile, once): computed from the final position."""
    fin = final_tops(tops, cells)
    pos = [-1] * 50
    nummask = [0] * 10
    for s, x in enumerate(fin):
        if x >= 0:
            pos[x] = s
            nummask[x % 10] |= 1 << s
    nbl, nbh, adj = board.nb_lo, board.nb_hi, board.adj
    out = 0
    for p, t in cells:
        lp = 1 << p
        out |= _set_comp(nbl, nbh, lp, nummask[t % 10]) | _chain(adj, pos, t, p, 0)
    return out


def one_combo(board: Board, tops, cells) -> bool:
    """Ruling 3: after placing ``cells``, does one combo hold every placed tile?"""
    fin = final_tops(tops, cells)
    placed = 0
    for p, _t in cells:
        placed |= 1 << p
    p0 = cells[0][0]
    set_comp, run_comp = components(board, fin, p0)
    return bool(set_comp and not placed & ~set_comp) or bool(run_comp and not placed & ~run_comp)
