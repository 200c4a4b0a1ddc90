"""TWEAK drawn as SVG: the deck (its top card's back is the target), the T! pile, the
table, and per seat the hand, the T! cards held face up, the won pile and the total."""

from __future__ import annotations

from collections.abc import Sequence

from kifu.core.game import DEALER
from kifu.games.tweak.cards import COLOUR, COLOUR_NAMES, FACE, T_NAMES, THIEF, TOKEN
from kifu.games.tweak.state import BOMB_PHASE, OVER, STEAL_PHASE, TURN, TweakState
from kifu.html import svg as sv
from kifu.html.svg import INK, MUTED, backs, card_back, item, rect, seat_badge_named, svg, text

FILL = ("#d62828", "#f07c00", "#f5c400", "#2a9d4f", "#1f6fd1", "#7d3fb8")
"""Card colours: red, orange, yellow, green, blue, purple."""
FACE_INK = ("#fff", "#fff", "#222", "#fff", "#fff", "#fff")
W, H = 44, 64
STEP = 50
WIDTH = 620
ROW = 96


def card_label(code: int) -> str:
    if code >= THIEF:
        return f"{TOKEN[code]}: T! card {T_NAMES[code - THIEF]}"
    return f"{TOKEN[code]}: {COLOUR_NAMES[COLOUR[code]]} {FACE[code]}"


def card(x: float, y: float, code: int) -> str:
    """One face-up card: a number card in its colour, or a black T! card."""
    if code >= THIEF:
        name = T_NAMES[code - THIEF]
        parts = [
            rect(x, y, W, H, "#15161a", stroke="#000", rx=5),
            text(x + 5, y + 15, "T!", size=12, fill="#f4b400", weight="bold"),
            text(x + W / 2, y + 42, name[0], size=24, fill="#fff", anchor="middle",
                 weight="bold"),
            text(x + W / 2, y + 58, name, size=9, fill="#ddd", anchor="middle"),
        ]
    else:
        c = COLOUR[code]
        ink = FACE_INK[c]
        parts = [
            rect(x, y, W, H, FILL[c], stroke="#222", rx=5),
            rect(x + 4, y + 4, W - 8, H - 8, "none", stroke=ink, rx=3, sw=0.8),
            text(x + 8, y + 17, TOKEN[code][0], size=11, fill=ink, weight="bold"),
            text(x + W / 2, y + 46, FACE[code], size=28, fill=ink, anchor="middle",
                 weight="bold"),
        ]
    return item(card_label(code), parts)


def cards_row(x: float, y: float, codes: tuple[int, ...], step: float = STEP) -> list[str]:
    return [card(x + i * step, y, c) for i, c in enumerate(codes)]


def draw(state: TweakState, seat: int | None, names: Sequence[str] = ()) -> str:
    n = state.n
    body: list[str] = []
    mover = state.to_move
    playing = state.phase in (TURN, BOMB_PHASE, STEAL_PHASE)

    # --- the head line ---------------------------------------------------------------
    head = f"TWEAK · round {state.round} · dealer p{state.dealer}"
    body.append(text(12, 24, head, size=18, weight="bold"))
    target = f"target {state.target}"
    if state.jdelta:
        target += f" (Joker {state.jdelta:+d})"
    body.append(item(target, text(WIDTH - 12, 24, target, size=18, anchor="end",
                                  weight="bold", fill="#b3261e")))
    if state.phase == OVER:
        status = sv.over_status(state, n)
    elif mover == DEALER:
        status = f"the dealer is {state.turn_note()}" if state.turn_note() else "the dealer acts"
    else:
        status = f"p{mover} to move" + (f" {state.turn_note()}" if state.turn_note() else "")
    body.append(item(status, text(12, 46, status, size=14, fill=MUTED)))

    # --- deck, T! pile, table ----------------------------------------------------------
    top = 66
    deck = len(state.deck_left())
    if deck:
        body.append(card_back(12, top + 14, W, H, f"deck: {deck} cards, the top card's back "
                              f"shows {state.target}", caption=str(state.target)))
    else:
        body.append(item("deck: empty, target 7", rect(12, top + 14, W, H, "none",
                                                       stroke="#aab", rx=4)))
    body.append(text(12 + W / 2, top + 10, f"deck {deck}", size=11, fill=MUTED,
                     anchor="middle"))
    tp = len(state.tpile_left())
    body.append(backs(76, top + 14, W, H, tp, "T! pile", most=4))
    body.append(text(76 + W / 2, top + 10, "T! pile", size=11, fill=MUTED, anchor="middle"))
    tx = 150
    per_row = (WIDTH - tx - 8) // STEP
    table = state.table
    rows = max(1, -(-len(table) // per_row))
    body.append(rect(tx - 8, top, WIDTH - tx, rows * (H + 8) + 20, "#e7f1e7", rx=8))
    body.append(text(tx, top + 14, f"table ({len(table)})", size=11, fill=MUTED))
    for r in range(rows):
        body += cards_row(tx, top + 18 + r * (H + 8), table[r * per_row:(r + 1) * per_row])
    if not table:
        body.append(text(tx + 4, top + 54, "empty", size=13, fill=MUTED))

    # --- the seats ---------------------------------------------------------------------
    y = top + rows * (H + 8) + 32
    for s in range(n):
        active = playing and s == mover
        if active or (state.phase == BOMB_PHASE and s in state.queue):
            body.append(rect(4, y - 4, WIDTH - 8, ROW - 6, "#fff6d6", rx=8))
        body += seat_badge_named(12, y + 4, s, names, seat == s, active, chars=12)
        if s == state.dealer:
            body.append(item(f"p{s} is the dealer", text(14, y + 62, "dealer", size=11,
                                                         fill=MUTED)))
        hand = state.hands[s]
        hx = 110
        body.append(text(hx, y + 2, "hand", size=10, fill=MUTED))
        if seat is None or seat == s:
            body += cards_row(hx, y + 6, hand, step=W + 4)
            if not hand:
                body.append(text(hx, y + 40, "empty", size=12, fill=MUTED))
        else:
            body.append(backs(hx, y + 10, W, H - 4, len(hand), f"p{s}'s hand", most=3, step=9))
        held = state.held[s]
        ux = 262
        body.append(text(ux, y + 2, "T! held", size=10, fill=MUTED))
        body += cards_row(ux, y + 6, held, step=W + 4)
        if not held:
            body.append(text(ux, y + 40, "-", size=12, fill=MUTED))
        px = max(ux + len(held) * (W + 4) + 12, 420)
        pile = state.piles[s]
        body.append(text(px, y + 2, "won pile", size=10, fill=MUTED))
        if seat is None or seat == s:
            pts = state.round_points(s)
            label = f"p{s} has won {len(pile)} cards, {pts} points this round"
            body.append(backs(px, y + 10, W, H - 4, len(pile), f"p{s}'s won pile", most=5))
            body.append(item(label, text(WIDTH - 12, y + 56, f"this round {pts} pts",
                                         size=12, fill=MUTED, anchor="end")))
        else:
            body.append(backs(px, y + 10, W, H - 4, len(pile), f"p{s}'s won pile", most=5))
        total = f"total {state.totals[s]}"
        body.append(item(f"p{s} {total}", text(WIDTH - 12, y + 34, total, size=15,
                                              anchor="end", fill=INK, weight="bold")))
        y += ROW
    who = "the whole position" if seat is None else f"p{seat}'s view"
    return svg(WIDTH, y + 4, body, f"TWEAK, {who}: {status}")


def public_move(state: TweakState, actor: str, action_text: str, seat: int) -> str:
    """What ``seat`` sees of an action: only the shuffled deck and T! pile stay hidden (a
    Thief's draw goes face up to the table, the first dealer is drawn in the open)."""
    if actor == "d" and action_text.startswith("deal "):
        return "deal (shuffled, hidden)"
    return action_text


SCORE_TITLE = "points (totals + this round's)"


def scores(state: TweakState, seat: int | None) -> list[float]:
    """Each seat's total plus, while a round is played, the points it has won in it (a
    round's points join the totals when it ends); in a seat's view only the totals of the
    others (their won piles are face down) and its own running points."""
    playing = state.phase in (TURN, BOMB_PHASE, STEAL_PHASE)
    return [float(state.totals[s] + (state.round_points(s) if playing and seat in (None, s)
                                     else 0))
            for s in range(state.n)]
