"""Helpers for the Lianxian tests: random positions and a naive rule checker written from
the rules' definitions (explicit link graph, breadth-first search), independent of the
bitmask generator in ``kifu/games/lianxian/placements.py``."""

from __future__ import annotations

from itertools import combinations, permutations

from kifu import games
from kifu.core.rng import Rng
from kifu.games.lianxian.state import TURN, LianxianState
from kifu.games.lianxian.tiles import NUMBER, SUIT, mask_of, tiles_of

GAME = games.get("lianxian")


def random_position(rng: Rng, n: int, *, team: bool = False, fill: float = 0.8,
                    rack: int = 4, public: int = 4) -> LianxianState:
    """A position with the mover to play: random stacks (each space covered with
    probability ``fill``, sometimes twice), full or partial racks and public hand."""
    v = GAME.Variant(team=team)
    st = GAME.new_state(n, v)
    tiles = rng.shuffled(range(50))
    i = 0
    stacks = []
    for _ in range(st.board.size):
        h = 0
        if rng.below(100) < fill * 100:
            h = 1 + (rng.below(3) == 0)
        stacks.append(tuple(tiles[i:i + h]))
        i += h
    racks = []
    for _ in range(n):
        racks.append(mask_of(tiles[i:i + rack]))
        i += rack
    st.public = mask_of(tiles[i:i + public])
    i += public
    st.bag = mask_of(tiles[i:])
    st.stacks = tuple(stacks)
    st.racks = tuple(racks)
    st.phase = TURN
    st.mover = rng.below(n)
    st.check_invariants()
    return st


def _links(a: int, b: int, kind: str) -> bool:
    if kind == "set":
        return NUMBER[a] == NUMBER[b]
    return SUIT[a] == SUIT[b] and abs(NUMBER[a] - NUMBER[b]) == 1


_NEIGHBOURS: dict[int, list[list[int]]] = {}


def neighbours(board) -> list[list[int]]:
    """Each space's list of spaces joined to it by a line (from ``board.lines``)."""
    got = _NEIGHBOURS.get(id(board))
    if got is None:
        got = [[] for _ in range(board.size)]
        for x, y in board.lines:
            got[x].append(y)
            got[y].append(x)
        _NEIGHBOURS[id(board)] = got
    return got


def component(board, tops: list[int], p: int, kind: str) -> set[int]:
    """The spaces reachable from ``p`` along lines whose two top tiles link by ``kind``."""
    nbrs = neighbours(board)
    seen = {p}
    todo = [p]
    while todo:
        a = todo.pop()
        for w in nbrs[a]:
            if w not in seen and tops[w] >= 0 and _links(tops[a], tops[w], kind):
                seen.add(w)
                todo.append(w)
    return seen


def naive_check(board, tops: list[int], cells) -> int | None:
    """The scoring mask of ``cells`` if the rule allows them, else None."""
    fin = list(tops)
    for p, t in cells:
        fin[p] = t
    placed = {p for p, _ in cells}
    for kind in ("set", "run"):
        comp = component(board, fin, cells[0][0], kind)
        if len(comp) >= 2 and placed <= comp:
            break
    else:
        return None
    score: set[int] = set()
    for kind in ("set", "run"):
        for p in placed:
            c = component(board, fin, p, kind)
            if len(c) >= 2:
                score |= c
    return sum(1 << p for p in score)


def naive_placements(state: LianxianState, *, prune: bool = True) -> dict:
    """Every (cells -> scoring mask) of the mover: every subset of the held tiles on every
    injective choice of allowed spaces, filtered by the rule. With ``prune``, tile subsets
    of two or more that share neither a number nor a suit are skipped (no combo of one link
    kind can hold them: every link keeps the number, or the suit)."""
    board = state.board
    seat = state.mover
    tiles = tiles_of(state.racks[seat] | state.public)
    spaces = [p for p in range(board.size) if state.seating.allowed[seat] >> p & 1]
    tops = state.tops()
    out = {}
    for k in range(1, len(tiles) + 1):
        for sub in combinations(tiles, k):
            if prune and k > 1 and len({NUMBER[t] for t in sub}) > 1 and len(
                    {SUIT[t] for t in sub}) > 1:
                continue
            for sp in permutations(spaces, k):
                cells = tuple(sorted(zip(sp, sub, strict=True)))
                got = naive_check(board, tops, cells)
                if got is not None:
                    out[cells] = got
    return out


def make(tops: dict[str, str], racks: list[str], public: str = "", *, mover: int = 0,
         under: dict[str, str] | None = None, scores: tuple[int, ...] | None = None,
         team: bool = False) -> LianxianState:
    """A position with the given top tiles (space name -> tile), racks and public hand;
    every other tile in the bag; ``mover`` to play."""
    from kifu.games.lianxian.tiles import ALL_TILES, parse_tile, scan_tiles

    n = len(racks)
    st = GAME.new_state(n, GAME.Variant(team=team))
    b = st.board
    stacks = [()] * b.size
    used = 0
    for name, tok in tops.items():
        below = tuple(scan_tiles(under[name])) if under and name in under else ()
        t = parse_tile(tok)
        stacks[b.index[name.upper()]] = (*below, t)
        used |= mask_of((*below, t))
    st.stacks = tuple(stacks)
    st.racks = tuple(mask_of(scan_tiles(r or "-")) for r in racks)
    st.public = mask_of(scan_tiles(public or "-"))
    for m in (*st.racks, st.public):
        used |= m
    st.bag = ALL_TILES & ~used
    st.phase = TURN
    st.mover = mover
    if scores is not None:
        st.scores = scores
    st.check_invariants()
    return st
