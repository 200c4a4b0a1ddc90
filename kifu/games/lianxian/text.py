"""Lianxian positions as text: the position line (``write_line``; the format is described
and read in ``position.py``) and a picture for people (``render``): the board with its
lines, then the zones.

Spaces with an ``at ROW COL`` in the board file are drawn on a grid: a line between grid
neighbours is drawn (``-`` across, ``|`` down, ``\\`` and ``/`` diagonally, ``X`` where two
diagonals cross); any other line is listed under the picture.
"""

from __future__ import annotations

from kifu.games.lianxian.layout import DEAL, FIRST, OVER, REFILL, TURN
from kifu.games.lianxian.tiles import TOKEN, seq_text, tiles_text
from kifu.games.lianxian.variant import rules_spec


def _hidden(mask: int) -> str:
    return "?" * mask.bit_count() or "-"


def write_line(state, seat: int | None) -> str:
    """The position line of ``state``, or what ``seat`` sees of it (``None``: all)."""

    def sees(s: int) -> bool:
        return seat is None or s == seat or s == state.partner(seat)

    phase = state.phase
    if phase == DEAL:
        status = "deal"
    elif phase == FIRST:
        status = "first"
    elif phase == OVER:
        status = "over"
    elif phase == TURN:
        status = f"p{state.mover}"
    elif phase == REFILL:
        status = f"p{state.mover}:refill:{state.need_pub}:{state.need_rack}"
    else:
        aside = tiles_text(state.aside) if sees(state.mover) else _hidden(state.aside)
        status = f"p{state.mover}:swap:{state.need_rack}:{aside}"
    if state.recycle_due:
        status += ":recycle"
    stacks = "/".join(seq_text(st) for st in state.stacks)
    racks = "/".join(tiles_text(r) if sees(s) else _hidden(r)
                     for s, r in enumerate(state.racks))
    bag = tiles_text(state.bag) if seat is None else _hidden(state.bag)
    track = "/".join(str(x) for x in state.scores)
    recent = "".join(f"p{s}" for s in state.recent) or "-"
    return " ".join((rules_spec(state.variant), status, stacks, racks,
                     tiles_text(state.public), bag, track, recent))


CELL = 9  # characters per grid column: "[H10 ×2]" fits
GAP = 3


def _cell(state, p: int) -> str:
    st = state.stacks[p]
    top = TOKEN[st[-1]] if st else "."
    more = f"+{len(st) - 1}" if len(st) > 1 else ""
    return f"[{top}{more}]"


def board_picture(state) -> list[str]:
    board = state.board
    placed = [p for p in range(board.size) if board.at[p] is not None]
    if not placed:
        return []
    rows = max(board.at[p][0] for p in placed) + 1
    cols = max(board.at[p][1] for p in placed) + 1
    width = cols * (CELL + GAP)
    canvas = [[" "] * width for _ in range(rows * 3)]
    where = {board.at[p]: p for p in placed}

    def put(r: int, c: int, text: str) -> None:
        for i, ch in enumerate(text):
            if 0 <= c + i < width:
                canvas[r][c + i] = ch

    def x0(c: int) -> int:
        return c * (CELL + GAP)

    for (r, c), p in where.items():
        owner = board.owner[p]
        label = board.space_names[p]
        if owner >= 0:
            seats = [s for s, side in enumerate(state.seating.sides) if side == owner]
            label += f" p{seats[0]}" if seats else ""
        put(3 * r, x0(c), label[:CELL + GAP - 1])
        put(3 * r + 1, x0(c), _cell(state, p).center(CELL))
    other = []
    for a, b in board.lines:
        pa, pb = board.at[a], board.at[b]
        if pa is None or pb is None:
            other.append((a, b))
            continue
        (ra, ca), (rb, cb) = sorted((pa, pb))
        dr, dc = rb - ra, cb - ca
        if (dr, dc) == (0, 1):
            put(3 * ra + 1, x0(ca) + CELL, "-" * GAP)
        elif (dr, dc) == (1, 0):
            canvas[3 * ra + 2][x0(ca) + CELL // 2] = "|"
        elif (dr, dc) in ((1, 1), (1, -1)):
            ch = "\\" if dc == 1 else "/"
            r = 3 * ra + 2
            c = x0(max(ca, cb)) - GAP // 2 - 1
            canvas[r][c] = "X" if canvas[r][c] in "\\/" and canvas[r][c] != ch else ch
        else:
            other.append((a, b))
    lines = ["".join(row).rstrip() for row in canvas]
    while lines and not lines[-1]:
        lines.pop()
    if other:
        names = board.space_names
        lines.append("other lines: " + " ".join(f"{names[a]}-{names[b]}" for a, b in other))
    return lines


def render(state, seat: int | None = None) -> str:
    """The picture for people; with ``seat``, only what that seat sees (the racks of the
    other seats but a 2-vs-2 partner as ``?``, as ``view`` hides them)."""
    board = state.board
    n = state.n
    mode = ", 2 vs 2 (teams p0+p2, p1+p3)" if state.variant.team else ""
    seen = "" if seat is None else f", as p{seat} sees it (hidden tiles are ?)"
    out = [f"Lianxian Jihua (SETUP), {n} players{mode}, board {board.name}, finish "
           f"{state.seating.finish}{seen}"]
    out.extend(board_picture(state))
    out.append("stacks (bottom first): " + "  ".join(
        f"{board.space_names[p]} {seq_text(st)}" for p, st in enumerate(state.stacks) if st)
        if any(state.stacks) else "stacks: none")
    for s in range(n):
        side = board.side_names[state.seating.sides[s]]
        mark = " <- to move" if state.phase == TURN and state.mover == s else ""
        if s == seat:
            mark += " (you)"
        sees = seat is None or s == seat or s == state.partner(seat)
        rack = tiles_text(state.racks[s]) if sees else "?" * state.racks[s].bit_count() or "-"
        out.append(f"p{s} ({side}): pawn {state.scores[s]:>2}  rack {rack}{mark}")
    out.append(f"public hand: {tiles_text(state.public)}   bag: {state.bag.bit_count()} tiles"
               f"   under the tops: {state.under_count()}")
    if state.phase == DEAL:
        out.append("before the deal")
    elif state.phase not in (TURN, OVER):
        out.append(f"dealer to act ({state.turn_note() or 'first player'})")
    if state.phase == OVER:
        r = state.result()
        out.append("result: " + " ".join(f"p{s} {r.scores[s]} (rank {r.ranks[s]})"
                                         for s in range(n)))
    return "\n".join(out)
