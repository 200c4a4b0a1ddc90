"""TOWAI drawn as SVG: the Day/Night indicator, the field in play order (its top card
marked), the deck and the discards, and per seat the hand and the rounds won.

The game's tables are imported inside the functions, so this module imports (for the
doctest collector) even where the game is not installed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kifu.core.game import DEALER
from kifu.html import svg as sv
from kifu.html.svg import (
    HIGHLIGHT,
    INK,
    MUTED,
    backs,
    item,
    rect,
    seat_badge_named,
    svg,
    text,
)

TWAI = 2
TYPE_NAME = ("Day", "Night", "Twai")

FILL = ("#f6b21a", "#23386b", "#2f9e88")
"""Day (sun yellow), Night (navy), Twai (teal)."""
FACE_INK = ("#3b2a00", "#f3f5ff", "#ffffff")
W, H = 36, 54
STEP = 40
WIDTH = 640
HAND_X = 96


def card_label(code: int) -> str:
    from kifu.games.towai.cards import EFFECT, NUM, TOKEN, TYPE

    kind = f"{TYPE_NAME[TYPE[code]]} {NUM[code]}"
    effect = EFFECT.get(code)
    return f"{TOKEN[code]}: {kind}" + (f" ({effect})" if effect else "")


def card(x: float, y: float, code: int, *, top: bool = False) -> str:
    from kifu.games.towai.cards import EFFECT, NUM, TYPE

    t = TYPE[code]
    ink = FACE_INK[t]
    parts = [rect(x, y, W, H, FILL[t], stroke=HIGHLIGHT if top else "#222", rx=4,
                  sw=3 if top else 1),
             text(x + 5, y + 13, TYPE_NAME[t][0], size=10, fill=ink, weight="bold"),
             text(x + W / 2, y + 38, NUM[code], size=22, fill=ink, anchor="middle",
                  weight="bold")]
    effect = EFFECT.get(code)
    if t == TWAI and effect:
        parts.append(text(x + W / 2, y + H - 4, effect, size=8, fill=ink, anchor="middle"))
    return item(card_label(code) + (", the top card" if top else ""), parts)


def draw(state: Any, seat: int | None, names: Sequence[str] = ()) -> str:
    from kifu.games.towai.cards import TOKEN, counts_cards
    from kifu.games.towai.state import LEAD, OVER, SWAP_PHASE

    n = state.n
    body: list[str] = []
    turn = state.to_move
    phase = state.phase
    body.append(text(12, 24, f"TOWAI · round {state.round} · turn {state.turns + 1}",
                     size=18, weight="bold"))
    if phase == LEAD:
        side_text, side_fill, side_ink = "the leader sets Day or Night", "#e8eaed", INK
    else:
        side_text = ("DAY", "NIGHT")[state.side]
        side_fill, side_ink = FILL[state.side], FACE_INK[state.side]
    sw = 24 + 8 * len(side_text)
    body.append(item(f"indicator: {side_text}", [
        rect(WIDTH - 12 - sw, 8, sw, 26, side_fill, rx=13, stroke="#222"),
        text(WIDTH - 12 - sw / 2, 26, side_text, size=13, fill=side_ink, anchor="middle",
             weight="bold")]))
    if phase == OVER:
        status = sv.over_status(state, n)
    elif turn == DEALER:
        status = "the dealer acts (shuffle, deal or rebuild)"
    else:
        status = f"p{turn} to move" + (f", for p{state.mover}'s Swap"
                                       if phase == SWAP_PHASE else "")
    body.append(item(status, text(12, 46, status, size=14, fill=MUTED)))

    top = 60
    body.append(backs(12, top + 20, W, H, len(state.deck), "deck", most=5))
    body.append(text(12, top + 14, "deck", size=10, fill=MUTED))
    discards = len(counts_cards(state.discards))
    body.append(backs(64, top + 20, W, H, discards, "discard pile", most=5))
    body.append(text(64, top + 14, "discards", size=10, fill=MUTED))
    fx = 124
    per_row = (WIDTH - fx - 8) // STEP
    field = state.field
    rows = max(1, -(-len(field) // per_row))
    body.append(rect(fx - 8, top, WIDTH - fx, rows * (H + 6) + 22, "#e7f1e7", rx=8))
    passes = f", {state.passes} pass(es) since p{state.last}'s play" if state.last >= 0 else ""
    body.append(text(fx, top + 14, f"field ({len(field)}){passes}", size=10, fill=MUTED))
    for i, code in enumerate(field):
        r, c = divmod(i, per_row)
        body.append(card(fx + c * STEP, top + 20 + r * (H + 6), code, top=i == len(field) - 1))
    if not field:
        body.append(text(fx + 4, top + 50, "empty", size=13, fill=MUTED))
    if state.given:
        shown = "".join(TOKEN[c] if seat is None else "?" for c in state.given)
        body.append(text(fx, top + rows * (H + 6) + 18, f"set aside for the Swap: {shown}",
                         size=11, fill=MUTED))

    y = top + rows * (H + 6) + 36
    per_hand = (WIDTH - HAND_X - 80) // STEP
    for s in range(n):
        cards = state.hand_cards(s)
        hidden = seat is not None and seat != s
        rows_s = 1 if hidden else max(1, -(-len(cards) // per_hand))
        row_h = max(rows_s * (H + 6) + 16, 76)
        active = turn == s
        if active:
            body.append(rect(4, y - 4, WIDTH - 8, row_h, "#fff6d6", rx=8))
        body += seat_badge_named(12, y + 4, s, names, seat == s, active, chars=12)
        if s == state.first:
            body.append(text(14, y + 60, "first player", size=10, fill=MUTED))
        body.append(text(HAND_X, y + 6, f"hand ({len(cards)})", size=10, fill=MUTED))
        body += sv.hand(HAND_X, y + 10, cards, card, hidden=hidden, w=W, h=H,
                        per_row=per_hand, step=STEP, who=f"p{s}", empty=("out", 30, 13))
        wins = f"wins {state.wins[s]}"
        body.append(item(f"p{s} has won {state.wins[s]} round(s)",
                         text(WIDTH - 12, y + 30, wins, size=15, anchor="end",
                              weight="bold")))
        y += row_h + 6
    who = "the whole position" if seat is None else f"p{seat}'s view"
    return svg(WIDTH, y + 4, body, f"TOWAI, {who}: {status}")


def public_move(state: Any, actor: str, action_text: str, seat: int) -> str:
    """What ``seat`` sees of an action: the shuffles (deal, rebuild) stay hidden, and so
    does a card set aside for a Swap, except from the player who gave it."""
    if actor == "d":
        return action_text if action_text.startswith("first ") else "(hidden shuffle)"
    return sv.hidden_from_others(action_text, actor, seat, "give")


SCORE_TITLE = "rounds won"


def scores(state: Any, seat: int | None) -> list[float]:
    """Rounds won by each seat (public)."""
    return [float(w) for w in state.wins]
