"""Lianxian Jihua drawn as SVG: the board (its spaces where the board file places them,
the lines between them, each space's top tile and stack height), the score track with its
finish line, the public hand, the bag and each seat's rack.

The game's tables are imported inside the functions, so this module imports (for the
doctest collector) even where the game is not installed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kifu.core.game import DEALER
from kifu.html import svg as sv
from kifu.html.svg import INK, MUTED, backs, fit, item, rect, seat_badge_named, svg, text

SUIT_FILL = ("#b8860b", "#d62828", "#1f6fd1", "#2a9d4f", "#26272b")
"""Star (gold), heart (red), diamond (blue), club (green), spade (black)."""
SUIT_SYMBOL = "★♥♦♣♠"
SIDE_TINT = ("#fde2e1", "#e0ecfb", "#e3f4e6", "#fbf0d6", "#eee4f7", "#e4f2f2")
T = 44
"""A tile's side."""
CELL = 92
WIDTH = 900


def legend(state: Any, names: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(tint, text) per group of spaces: the centre, then each side with the seat that sits
    there (or none: then its spaces are bonus spaces anyone may use)."""
    board = state.board
    sides = state.seating.sides
    centre = [board.space_names[p] for p in range(board.size) if board.owner[p] < 0]
    out = []
    if centre:
        out.append(("#f1f3f4", f"centre, anyone's: {' '.join(centre)}"))
    for side, side_name in enumerate(board.side_names):
        spaces = [board.space_names[p] for p in range(board.size) if board.owner[p] == side]
        if not spaces:
            continue
        seats = [s for s, sd in enumerate(sides) if sd == side]
        if seats:
            s = seats[0]
            who = f"p{s}" + (f" {names[s]}" if s < len(names) and names[s] else "")
            owner = f"{who}'s bonus spaces"
        else:
            owner = "no one sits here: bonus spaces anyone may use"
        out.append((SIDE_TINT[side % len(SIDE_TINT)],
                    f"{side_name} side, {owner}: {' '.join(spaces)}"))
    return out


def tile_label(code: int) -> str:
    from kifu.games.lianxian.tiles import NUMBER, SUIT, SUIT_NAMES, TOKEN

    return f"{TOKEN[code]}: {SUIT_NAMES[SUIT[code]]} {NUMBER[code]}"


def tile(x: float, y: float, code: int, extra: str = "") -> str:
    from kifu.games.lianxian.tiles import NUMBER, SUIT

    s = SUIT[code]
    return item(tile_label(code) + extra, [
        rect(x, y, T, T, "#fffdf7", stroke="#444", rx=6, sw=1.2),
        text(x + T / 2, y + 22, NUMBER[code], size=18, fill=SUIT_FILL[s], anchor="middle",
             weight="bold"),
        text(x + T / 2, y + 39, SUIT_SYMBOL[s], size=14, fill=SUIT_FILL[s],
             anchor="middle"),
    ])


def tiles_row(x: float, y: float, codes: list[int], step: float = T + 4) -> list[str]:
    return [tile(x + i * step, y, c) for i, c in enumerate(codes)]


def draw(state: Any, seat: int | None, names: Sequence[str] = ()) -> str:
    from kifu.games.lianxian.state import OVER, TURN
    from kifu.games.lianxian.tiles import tiles_of

    n = state.n
    board = state.board
    sides = state.seating.sides
    body: list[str] = []
    mover = state.to_move
    body.append(text(12, 24, f"Lianxian Jihua · {n} players"
                     + (" (2 vs 2)" if state.variant.team else ""), size=18, weight="bold"))
    if state.phase == OVER:
        status = sv.over_status(state, n)
    elif mover == DEALER:
        status = f"the dealer is {state.turn_note()}" if state.turn_note() else "the dealer acts"
    else:
        status = f"p{mover} to move"
    body.append(item(status, text(12, 46, status, size=14, fill=MUTED)))

    # --- the board ---------------------------------------------------------------------
    top = 62
    placed = [p for p in range(board.size) if board.at[p] is not None]
    cols = max([board.at[p][1] for p in placed] or [0]) + 1
    rows = max([board.at[p][0] for p in placed] or [0]) + 1
    bx = 12

    def centre(p: int) -> tuple[float, float]:
        r, c = board.at[p]
        return bx + c * CELL + CELL / 2, top + r * CELL + CELL / 2

    for a, b in board.lines:
        if board.at[a] is None or board.at[b] is None:
            continue
        (x1, y1), (x2, y2) = centre(a), centre(b)
        body.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                    'stroke="#9aa3ad" stroke-width="2"/>')
    for p in placed:
        cx, cy = centre(p)
        owner = board.owner[p]
        seats = [s for s, side in enumerate(sides) if side == owner] if owner >= 0 else []
        fill = SIDE_TINT[owner % len(SIDE_TINT)] if owner >= 0 else "#f1f3f4"
        name = board.space_names[p]
        whose = f" (p{seats[0]}'s side)" if seats else ""
        stack = state.stacks[p]
        parts = [rect(cx - 34, cy - 34, 68, 68, fill, stroke="#667", rx=10),
                 text(cx, cy - 38, name + (f" · p{seats[0]}" if seats else ""), size=11,
                      fill=INK, anchor="middle")]
        body.append(item(f"space {name}{whose}: " + (f"{len(stack)} tile(s)" if stack
                                                     else "empty"), parts))
        if stack:
            extra = f", on {name}" + (f" over {len(stack) - 1} more" if len(stack) > 1 else "")
            body.append(tile(cx - T / 2, cy - T / 2, stack[-1], extra))
            if len(stack) > 1:
                body.append(text(cx + 30, cy + 31, f"×{len(stack)}", size=11, fill=INK,
                                 anchor="end", weight="bold"))
    board_w = cols * CELL + 24

    # --- beside the board: the track, the public hand, the bag, the racks ---------------
    sx = board_w + 16
    finish = state.seating.finish
    body.append(text(sx, top + 6, f"score track (finish {finish})", size=11, fill=MUTED))
    track_w = WIDTH - sx - 60
    for s in range(n):
        y = top + 16 + s * 24
        score = state.scores[s]
        frac = min(1.0, score / finish) if finish else 0
        body.append(item(f"p{s} has {score} points of {finish}", [
            text(sx, y + 14, f"p{s}", size=12, weight="bold",
                 fill="#b3261e" if s == mover else INK),
            rect(sx + 26, y + 4, track_w, 12, "#e8eaed", rx=6),
            rect(sx + 26, y + 4, max(4, track_w * frac), 12, "#0b57d0", rx=6),
            text(WIDTH - 10, y + 15, score, size=12, anchor="end", weight="bold"),
        ]))
    py = top + 24 + n * 24 + 14
    public = tiles_of(state.public)
    body.append(text(sx, py, f"public hand ({len(public)})", size=11, fill=MUTED))
    body += tiles_row(sx, py + 6, public)
    bag = bin(state.bag).count("1")
    bag_x = WIDTH - 12 - T - 8
    body.append(text(bag_x, py, "bag", size=11, fill=MUTED))
    body.append(backs(bag_x, py + 6, T, T, bag, "bag", most=5))
    y = py + T + 24
    for s in range(n):
        sees = seat is None or s == seat or s == state.partner(seat)
        active = state.phase == TURN and s == mover
        if active:
            body.append(rect(sx - 8, y - 4, WIDTH - sx + 4, T + 24, "#fff6d6", rx=8))
        body += seat_badge_named(sx, y + 4, s, names, seat == s, active, chars=11)
        rack = tiles_of(state.racks[s])
        rx = sx + 98
        body.append(text(rx, y + 6, f"rack ({len(rack)})", size=10, fill=MUTED))
        if sees:
            body += tiles_row(rx, y + 10, rack)
        else:
            body.append(backs(rx, y + 10, T, T, len(rack), f"p{s}'s rack", most=4))
        y += T + 30
    right_end = y

    # --- under the board: whose spaces are which ---------------------------------------
    y = top + rows * CELL + 16
    body.append(text(12, y, "spaces (a placement names one: H7@C_NW):", size=11, fill=MUTED))
    groups = legend(state, names)
    for k, (tint, line) in enumerate(groups):
        ly = y + 8 + 20 * k
        body.append(item(line, [rect(12, ly, 14, 14, tint, stroke="#667", rx=3),
                                text(32, ly + 12, fit(line, 58), size=12, fill=INK)]))
    y = max(right_end, y + 8 + 20 * len(groups) + 8)
    who = "the whole position" if seat is None else f"p{seat}'s view"
    return svg(WIDTH, y, body, f"Lianxian Jihua, {who}: {status}")


def public_move(state: Any, actor: str, action_text: str, seat: int) -> str:
    """What ``seat`` sees of an action: placements, passes, recycling and the first player
    are public; the dealer's deal and draws are hidden (a draw may go to a rack), and so
    are the tiles a swap returns, except from the swapper (and a partner)."""
    if actor == "d":
        if action_text.startswith(("first ", "recycle")):
            return action_text
        return "(hidden draw)" if action_text.startswith("draw ") else "(hidden deal)"
    if action_text.startswith("swap "):
        mover = int(actor[1:])
        if seat not in (mover, state.partner(mover)):
            return "swap (hidden tiles)"
    return action_text


SCORE_TITLE = "pawn on the score track"


def scores(state: Any, seat: int | None) -> list[float]:
    """Each seat's pawn on the score track (public)."""
    return [float(x) for x in state.scores]
