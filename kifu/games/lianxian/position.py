"""Lianxian position lines: ``from_line`` reads them (``LianxianState.to_line`` writes
them with ``text.write_line``).

``<rules> <status> <stacks> <racks> <public> <bag> <track> <recent>``, e.g.::

    lianxian/1 p1 H3/T7D7/-/C2/-/-/-/-/-/-/-/- H1H2S5S9/C4C5D9T1 D3D4H8S2 T2... 3/5 p0

- status: ``deal``, ``first``, ``p1`` (p1 to play), ``p1:refill:P:R`` (the dealer refills
  ``P`` public and ``R`` rack tiles of p1), ``p1:swap:R:TILES`` (the dealer draws ``R``
  more tiles for p1's swap of ``TILES``), either with ``:recycle`` when a recycle is due,
  or ``over``;
- stacks: one per space in space order, joined by ``/``, bottom tile first (``-`` empty);
- racks: one per seat, ``/``-joined, tiles in code order; public hand; bag (``-`` empty);
- track: each seat's pawn, ``/``-joined; recent: the seats that have placed, the most
  recent first (``p2p0``), ``-`` if none.

In a seat's view the other racks (not a 2-vs-2 partner's), the bag and a swap's returned
tiles are ``?`` per tile.
"""

from __future__ import annotations

import re

from kifu.core.errors import NotationError, VariantError
from kifu.core.game import Game
from kifu.core.numbers import is_small_int
from kifu.core.variant import short
from kifu.games.lianxian.layout import DEAL, FIRST, HAND, OVER, REFILL, SWAP, TURN
from kifu.games.lianxian.state import LianxianState, seating_of
from kifu.games.lianxian.tiles import ALL_TILES, TOKEN, mask_of, scan_tiles, tiles_text
from kifu.games.lianxian.variant import LianxianVariant

FIELDS = ("status", "stacks", "racks", "public", "bag", "track", "recent")
_SEAT = re.compile(r"p(0|[1-9][0-9]{0,5})")


def _err(message: str, col: int) -> NotationError:
    return NotationError(message, line=1, col=col)


def from_line(game: Game, line: str) -> LianxianState:
    variant, fields, cols = game.split_fields(line, FIELDS)
    assert isinstance(variant, LianxianVariant)
    if "?" in line:
        raise _err("hidden tiles (?): a seat's view cannot be read as a position",
                   line.index("?") + 1)
    status_f, stacks_f, racks_f, public_f, bag_f, track_f, recent_f = fields
    c_status, c_stacks, c_racks, c_public, c_bag, c_track, c_recent = cols
    rparts = racks_f.split("/")
    n = len(rparts)
    try:
        game.check_players(n)
        seating_of(variant, n)
    except VariantError as e:
        raise _err(f"racks: {e}", c_racks) from None
    state = LianxianState(n, variant)
    board = state.board

    def tiles_at(text: str, col: int) -> list[int]:
        if not text:
            raise _err("empty field (use - for none)", col)
        return scan_tiles(text, col)

    seen: dict[int, int] = {}

    def claim(codes: list[int], col: int) -> int:
        m = 0
        for t in codes:
            if t in seen:
                raise _err(f"tile {TOKEN[t]} appears twice (each tile exists once)", col)
            seen[t] = col
            m |= 1 << t
        return m

    sparts = stacks_f.split("/")
    if len(sparts) != board.size:
        raise _err(f"stacks: {len(sparts)} stacks for a board of {board.size} spaces",
                   c_stacks)
    stacks = []
    col = c_stacks
    for part in sparts:
        codes = tiles_at(part, col)
        claim(codes, col)
        stacks.append(tuple(codes))
        col += len(part) + 1
    racks = []
    col = c_racks
    for part in rparts:
        codes = tiles_at(part, col)
        if sorted(codes) != codes:
            raise _err("write a rack's tiles in tile order", col)
        if len(codes) > HAND:
            raise _err(f"a rack holds at most {HAND} tiles", col)
        racks.append(claim(codes, col))
        col += len(part) + 1
    codes = tiles_at(public_f, c_public)
    if sorted(codes) != codes or len(codes) > HAND:
        raise _err(f"the public hand: at most {HAND} tiles, in tile order", c_public)
    public = claim(codes, c_public)
    codes = tiles_at(bag_f, c_bag)
    if sorted(codes) != codes:
        raise _err("write the bag's tiles in tile order", c_bag)
    bag = claim(codes, c_bag)

    # status
    parts = status_f.split(":")
    recycle = parts[-1] == "recycle"
    if recycle:
        parts = parts[:-1]
    head = parts[0]
    aside = 0
    need_pub = need_rack = 0
    mover = -1
    if head in ("deal", "first", "over") and len(parts) == 1:
        phase = {"deal": DEAL, "first": FIRST, "over": OVER}[head]
    else:
        m = _SEAT.fullmatch(head)
        if not m or int(head[1:]) >= n:
            raise _err(f"status: expected deal, first, over or a seat p0..p{n - 1}, got "
                       f"{short(status_f)}", c_status)
        mover = int(head[1:])
        if len(parts) == 1:
            phase = TURN
        elif len(parts) == 4 and parts[1] == "refill" and all(
                is_small_int(x) for x in parts[2:]):
            phase = REFILL
            need_pub, need_rack = int(parts[2]), int(parts[3])
            if need_pub > HAND or need_rack > HAND or not need_pub + need_rack:
                raise _err("status: a refill needs 1..4 public and 0..4 rack tiles",
                           c_status)
        elif len(parts) == 4 and parts[1] == "swap" and is_small_int(parts[2]):
            phase = SWAP
            need_rack = int(parts[2])
            aside_codes = scan_tiles(parts[3], c_status + len(":".join(parts[:3])) + 1)
            if sorted(aside_codes) != aside_codes or not aside_codes:
                raise _err("status: a swap's tiles, in tile order", c_status)
            aside = claim(aside_codes, c_status)
            if not 1 <= need_rack <= len(aside_codes):
                raise _err("status: the draws still due for a swap: 1..its size",
                           c_status)
        else:
            raise _err(f"status: cannot read {short(status_f)} (p1, p1:refill:P:R, "
                       "p1:swap:R:TILES, :recycle)", c_status)
    if recycle and phase not in (REFILL, SWAP):
        raise _err("status: only a refill or a swap can wait for a recycle", c_status)
    if mask_of(seen) != ALL_TILES:
        missing = ALL_TILES & ~mask_of(seen)
        raise _err(f"tiles missing (each of the 50 tiles must be somewhere): "
                   f"{tiles_text(missing)}", c_bag)

    tparts = track_f.split("/")
    if len(tparts) != n or not all(is_small_int(x) for x in tparts):
        raise _err(f"track: expected {n} numbers joined by /", c_track)
    scores = tuple(int(x) for x in tparts)
    if recent_f == "-":
        recent: tuple[int, ...] = ()
    else:
        seats = _SEAT.findall(recent_f)
        if "".join(f"p{s}" for s in seats) != recent_f:
            raise _err(f"recent: expected - or seats like p2p0, got {short(recent_f)}", c_recent)
        recent = tuple(int(s) for s in seats)
        if len(set(recent)) != len(recent) or any(s >= n for s in recent):
            raise _err("recent: each seat of the game at most once", c_recent)

    state.set_fields(phase=phase, mover=mover, stacks=tuple(stacks), racks=tuple(racks),
                     public=public, bag=bag, aside=aside, need_pub=need_pub,
                     need_rack=need_rack, recycle_due=recycle, scores=scores, recent=recent)
    finish = state.seating.finish
    if (phase == OVER) != (max(scores) >= finish):
        raise _err(f"track: the game is over exactly when a pawn reaches {finish}", c_track)
    if phase == DEAL and bag != ALL_TILES:
        raise _err("before the deal every tile is in the bag", c_bag)
    if recycle and not state.under_count():
        raise _err("status: a recycle is due but no tile lies under a top", c_status)
    if phase == REFILL and not bag and not recycle:
        raise _err("status: the bag is empty, so the refill waits for a recycle", c_status)
    if phase == SWAP and bag.bit_count() < need_rack and not recycle:
        raise _err("status: the bag is short for the swap, so it waits for a recycle",
                   c_status)
    return state
