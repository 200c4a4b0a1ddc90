"""Lianxian action text.

- a placement: ``tile@space`` items joined by ``,`` and written in space order, e.g.
  ``H5@C_NW,H6@S_W`` (spaces by name, any case, or by number; any order on input);
- ``swap H3D4`` (rack tiles returned, written in tile order), ``pass``;
- dealer: ``deal <centre>/<rack p0>/.../<public>`` (the centre tiles in space order),
  ``first p2``, ``draw H7``, ``recycle``.

Tiles are ``T H D C S`` + 1..10 (``★♥♦♣♠`` read too). Columns in errors are 1-based.
"""

from __future__ import annotations

import re

from kifu.core.errors import NotationError
from kifu.core.game import Action
from kifu.core.numbers import is_small_int
from kifu.core.variant import short
from kifu.games.lianxian import actions as act
from kifu.games.lianxian.actions import DRAWS, FIRSTS, PASS, RECYCLE, Deal, First, Place, Swap
from kifu.games.lianxian.board import Board
from kifu.games.lianxian.tiles import TOKEN, parse_tile, scan_tiles, seq_text

EXAMPLES = "H5@C_NW,H6@S_W, swap H3D4, pass, or a dealer action (deal, first p0, draw H7, recycle)"
_SEAT = re.compile(r"p(0|[1-9][0-9]{0,5})\Z")


def parse_action(board: Board, text: str) -> Action:
    word, sp, rest = text.partition(" ")
    low = word.lower()
    if low in ("pass", "recycle"):
        if sp:
            raise NotationError(f"{low} takes nothing after it", col=len(word) + 1)
        return PASS if low == "pass" else RECYCLE
    if low == "draw":
        if not rest:
            raise NotationError("draw needs the tile drawn: draw H7", col=5)
        return DRAWS[parse_tile(rest, 6)]
    if low == "swap":
        if not rest:
            raise NotationError("swap needs the rack tiles returned: swap H3D4", col=5)
        if " " in rest:
            raise NotationError("the tiles of a swap are one token", col=6 + rest.index(" "))
        tiles = scan_tiles(rest, 6)
        if not tiles:
            raise NotationError("a swap returns at least one tile", col=6)
        return Swap(tuple(sorted(tiles)))
    if low == "first":
        if not _SEAT.match(rest):
            raise NotationError(f"first needs a seat p0, p1, ..., got {short(rest)}", col=7)
        seat = int(rest[1:])
        return FIRSTS[seat] if seat < len(FIRSTS) else First(seat)
    if low == "deal":
        return _parse_deal(rest, 6)
    if sp:
        raise NotationError(f"a placement is one token (tile@space,...), got {short(text)}",
                            col=len(word) + 1)
    if not text:
        raise NotationError(f"expected an action ({EXAMPLES})", col=1)
    if "@" not in text:
        raise NotationError(f"expected an action ({EXAMPLES}), got {short(text)}", col=1)
    cells = []
    col = 1
    for item in text.split(","):
        tile_text, at, space_text = item.partition("@")
        if not at:
            raise NotationError(f"a placed tile is tile@space, got {short(item)}", col=col)
        if not tile_text:
            raise NotationError("missing tile before @", col=col)
        t = parse_tile(tile_text, col)
        p = space_index(board, space_text, col + len(tile_text) + 1)
        cells.append((p, t))
        col += len(item) + 1
    return Place(tuple(sorted(cells)))


def space_index(board: Board, text: str, col: int) -> int:
    if is_small_int(text):
        p = int(text)
        if p < board.size:
            return p
        raise NotationError(f"the board has spaces 0..{board.size - 1}, not {p}", col=col)
    p = board.index.get(text.upper()) if text.isascii() else None  # "ſ".upper() == "S"
    if p is None:
        raise NotationError(
            f"unknown space {short(text)} (spaces: {' '.join(board.space_names)})", col=col)
    return p


def _parse_deal(rest: str, col0: int) -> Deal:
    if not rest:
        raise NotationError("deal needs <centre>/<rack p0>/.../<public>", col=col0 - 1)
    if " " in rest:
        raise NotationError("the parts of a deal are one token, joined by /",
                            col=col0 + rest.index(" "))
    parts = rest.split("/")
    if len(parts) < 4:
        raise NotationError("deal needs <centre>/<rack p0>/<rack p1>/.../<public>", col=col0)
    got = []
    col = col0
    for part in parts:
        if not part:
            raise NotationError("empty part in the deal", col=col)
        got.append(scan_tiles(part, col))
        col += len(part) + 1
    return Deal(tuple(got[0]), tuple(tuple(sorted(r)) for r in got[1:-1]),
                tuple(sorted(got[-1])))


def format_action(board: Board, action: Action) -> str:
    t = type(action)
    if t is Place:
        names = board.space_names
        return ",".join(f"{TOKEN[x]}@{names[p]}" for p, x in action.cells)  # type: ignore[attr-defined]
    if t is act.Draw:
        return "draw " + TOKEN[action.tile]  # type: ignore[attr-defined]
    if t is Swap:
        return "swap " + seq_text(action.tiles)  # type: ignore[attr-defined]
    if t is act.Pass:
        return "pass"
    if t is act.Recycle:
        return "recycle"
    if t is First:
        return f"first p{action.seat}"  # type: ignore[attr-defined]
    if t is Deal:
        parts = [seq_text(action.centre), *(seq_text(r) for r in action.racks),  # type: ignore[attr-defined]
                 seq_text(action.public)]  # type: ignore[attr-defined]
        return "deal " + "/".join(parts)
    raise TypeError(f"not a Lianxian action: {action!r}")
