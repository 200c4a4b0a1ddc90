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
from kifu.games.lianxian.tiles import DOWN, NUMBER_TILES, SUIT_TILES, UP, bits

_PERM = [[1] * 11 for _ in range(11)]
for _c in range(11):
    for _k in range(11):
        _p = 1
        for _i in range(_k):
            _p *= max(_c - _i, 0)
        _PERM[_c][_k] = _p
PERM = tuple(tuple(r) for r in _PERM)
"""``PERM[c][k]``: ordered choices of ``k`` tiles out of ``c``."""

_LIMIT = 1 << 16
"""Entries a memo below keeps before it starts again (each is small)."""
_SUBSETS: dict[int, tuple[tuple[int, ...], ...]] = {}
_SET_TABLES: dict[tuple, tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]]] = {}
_RUN_COUNTS: dict[tuple, int] = {}
_COUNTS: dict[tuple, int] = {}


def clear_caches() -> None:
    """Forget every memo of this module (for cold-cache benchmarks)."""
    for memo in (_SUBSETS, _SET_TABLES, _RUN_COUNTS, _COUNTS):
        memo.clear()


def _remember(memo: dict, key, value):
    if len(memo) >= _LIMIT:
        memo.clear()
    memo[key] = value
    return value


def subsets_by_size(allowed: int) -> tuple[tuple[int, ...], ...]:
    """Every submask of ``allowed``, grouped by size, each group ascending (a table per
    allowed mask: each seat of a game has one)."""
    got = _SUBSETS.get(allowed)
    if got is None:
        groups: list[list[int]] = [[] for _ in range(allowed.bit_count() + 1)]
        m = allowed
        while m:
            groups[m.bit_count()].append(m)
            m = (m - 1) & allowed
        groups[0].append(0)
        got = _remember(_SUBSETS, allowed, tuple(tuple(sorted(g)) for g in groups))
    return got


def index(tops) -> tuple[list[int], list[int]]:
    """Where each tile lies on top (``pos[tile]``: its space, or -1) and, for each number,
    the spaces whose top tile has it (``nummask[number - 1]``)."""
    pos = [-1] * 50
    nummask = [0] * 10
    for s, t in enumerate(tops):
        if t >= 0:
            pos[t] = s
            nummask[t % 10] |= 1 << s
    return pos, nummask


def component(nbl, nbh, seed: int, within: int) -> int:
    """The spaces of ``within`` connected to the space set ``seed`` by lines (a bitmask
    flood fill over the board's byte-indexed neighbour tables ``nbl``/``nbh``)."""
    comp = f = seed
    while f:
        f = (nbl[f & 255] | nbh[f >> 8]) & within & ~comp
        comp |= f
    return comp


def _set_comp(nbl, nbh, seed: int, within: int) -> int:
    """The set component of the one-space ``seed`` in ``within``, or 0 if it is alone."""
    comp = component(nbl, nbh, seed, within)
    return comp if comp != seed else 0


def through(adj, pos, step, t: int, p: int, blocked: int) -> tuple[int, int, int]:
    """Follow a run from tile ``t`` on space ``p`` along ``step`` (``UP`` or ``DOWN``)
    through the board tops: the next tile of the suit on top of a space joined to the
    previous one and not in ``blocked``, and so on. Returns the first tile not passed
    (-1 past the end of the suit), the last space reached and the spaces passed."""
    out = 0
    u = step[t]
    while u >= 0:
        q = pos[u]
        if q < 0 or blocked >> q & 1 or not adj[p] >> q & 1:
            break
        out |= 1 << q
        p = q
        u = step[u]
    return u, p, out


def ray(adj, pos, step, t: int, p: int, blocked: int) -> int:
    """The spaces :func:`through` passes."""
    return through(adj, pos, step, t, p, blocked)[2]


def _chain(adj, pos, t: int, p: int, covered: int) -> int:
    """The run chain through tile ``t`` placed on ``p`` made of board tops (spaces in
    ``covered`` are covered by placed tiles); 0 if ``t`` links to nothing by suit."""
    out = ray(adj, pos, UP, t, p, covered) | ray(adj, pos, DOWN, t, p, covered)
    return out | (1 << p) if out else 0


def set_table(board: Board, allowed: int, board_n: int):
    """The set placements of one number, by spaces: for each size ``k`` the ``(P, comp)``
    of every ``k``-subset ``P`` of ``allowed`` that lies in one connected component
    ``comp`` of ``board_n | P`` (``board_n``: the spaces whose top has the number), and
    how many there are of each size (memoised per board, allowed mask and ``board_n``)."""
    key = (board, allowed, board_n)
    got = _SET_TABLES.get(key)
    if got is None:
        nbl, nbh = board.nb_lo, board.nb_hi
        subs = subsets_by_size(allowed)
        table: list[tuple[tuple[int, int], ...]] = [(), ()]
        for k in range(2, len(subs)):
            row = []
            for P in subs[k]:
                comp = component(nbl, nbh, P & -P, board_n | P)
                if not P & ~comp:
                    row.append((P, comp))
            table.append(tuple(row))
        got = _remember(_SET_TABLES, key, (tuple(table), tuple(map(len, table))))
    return got


def count(board: Board, tops: tuple[int, ...], avail: int, allowed: int) -> int:
    """``generate(board, tops, avail, allowed, False)``, memoised per position (``tops`` a
    tuple): perft asks it at every leaf's parent, often for one board and hand again."""
    key = (board, tops, avail, allowed)
    got = _COUNTS.get(key)
    if got is None:
        got = _remember(_COUNTS, key, generate(board, tops, avail, allowed, False))
    return got


def generate(board: Board, tops: tuple[int, ...] | list[int], avail: int, allowed: int,
             build: bool = True):
    """Every legal placement of tiles of ``avail`` on spaces of ``allowed``.

    With ``build`` a list of ``(cells, scoring)``: ``cells`` the ``(space, tile)`` pairs
    sorted by space, ``scoring`` the mask of spaces whose top tiles score. Without it, the
    number of placements (an int)."""
    adj = board.adj
    nbl = board.nb_lo
    nbh = board.nb_hi
    pos, nummask = index(tops)
    out: list = []
    n = 0

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
            n += sp.bit_count()
            continue
        for p in bits(sp):
            lp = 1 << p
            score = _set_comp(nbl, nbh, lp, nummask[t % 10] | lp) | _chain(adj, pos, t, p, lp)
            out.append((((p, t),), score))

    # --- sets ----------------------------------------------------------------------------
    for k0 in range(10):
        cand = avail & NUMBER_TILES[k0]
        c = cand.bit_count()
        if c < 2:
            continue
        table, sizes = set_table(board, allowed, nummask[k0])
        top = min(c, len(table) - 1)
        if not build:
            perm = PERM[c]
            for k in range(2, top + 1):
                n += perm[k] * sizes[k]
            continue
        ctiles = bits(cand)
        for k in range(2, top + 1):
            for P, comp in table[k]:
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
        if not build:
            key = (board, allowed, cand, tuple(pos[10 * s:10 * s + 10]))
            got = _RUN_COUNTS.get(key)
            if got is None:
                grow = _Runs(adj, pos, nummask, nbl, nbh, avail, allowed, False)
                grow.all_from(cand)
                got = _remember(_RUN_COUNTS, key, grow.count)
            n += got
            continue
        grow = _Runs(adj, pos, nummask, nbl, nbh, avail, allowed, True)
        grow.all_from(cand)
        out.extend(grow.out)
    return out if build else n


class _Runs:
    """The run growth of one suit (see the module docstring)."""

    __slots__ = ("adj", "allowed", "avail", "build", "count", "nbh", "nbl", "nummask", "out",
                 "pos")

    def __init__(self, adj, pos, nummask, nbl, nbh, avail, allowed, build):
        self.adj, self.pos, self.nummask, self.nbl, self.nbh = adj, pos, nummask, nbl, nbh
        self.avail, self.allowed, self.build = avail, allowed, build
        self.count = 0
        self.out: list = []

    def all_from(self, cand: int) -> None:
        """Every run of two or more tiles of ``cand`` (one suit), from each lowest tile
        that something above can join, on each allowed space."""
        pos = self.pos
        for lo in bits(cand):
            u = UP[lo]
            if not (u >= 0 and (cand >> u & 1 or pos[u] >= 0)):
                continue  # nothing above lo can join it
            for p in bits(self.allowed):
                self.walk(lo, p, 1 << p, 0, ((p, lo),), p, lo)

    def walk(self, t: int, prev: int, used: int, res: int, cells: tuple, p_lo: int,
             lo: int) -> None:
        """``t`` was just placed on ``prev``; try every way to place the next tile up."""
        # the tops above t that the run walks through (reserved: never covered later), then
        # the next tile up, which must be held
        u, pv, passed = through(self.adj, self.pos, UP, t, prev, used)
        if u < 0 or not self.avail >> u & 1:
            return
        res |= passed
        free = self.allowed & self.adj[pv] & ~used & ~res
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

    def _record(self, cells, used, res, p_lo, lo, p_hi, hi) -> None:
        adj, pos = self.adj, self.pos
        score = (used | res | ray(adj, pos, DOWN, lo, p_lo, used)
                 | ray(adj, pos, UP, hi, p_hi, used))
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
    0 where it would be the tile alone): the general rule, used by ``check``."""
    t = tops[p]
    pos, nummask = index(tops)
    set_comp = _set_comp(board.nb_lo, board.nb_hi, 1 << p, nummask[t % 10])
    return set_comp, _chain(board.adj, pos, t, p, 0)


def score_mask(board: Board, tops, cells) -> int:
    """The spaces scoring for placing ``cells`` (every tile of every combo holding a placed
    tile, once): computed from the final position."""
    pos, nummask = index(final_tops(tops, cells))
    nbl, nbh, adj = board.nb_lo, board.nb_hi, board.adj
    out = 0
    for p, t in cells:
        out |= _set_comp(nbl, nbh, 1 << p, nummask[t % 10]) | _chain(adj, pos, t, p, 0)
    return out


def one_combo(board: Board, tops, cells) -> bool:
    """Ruling 3: after placing ``cells``, does one combo hold every placed tile?"""
    fin = final_tops(tops, cells)
    placed = 0
    for p, _t in cells:
        placed |= 1 << p
    set_comp, run_comp = components(board, fin, cells[0][0])
    return bool(set_comp and not placed & ~set_comp) or bool(run_comp and not placed & ~run_comp)
