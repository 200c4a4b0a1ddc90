"""GRAPH-T drawn as SVG: each card is a bar graph (its colour part from the bottom, the rest
grey), the trick shows each play at its height, and each seat's six stacks are a bar chart."""

from __future__ import annotations

from collections.abc import Sequence

from kifu.games.graph_t.cards import (
    CARD_COLOUR,
    CARD_LEVEL,
    CARD_TOKEN,
    COLOUR_NAMES,
    FULL,
    GREY,
    MAX_LEVEL,
    PLAY_COLOUR,
    PLAY_HEIGHT,
    PLAY_IS_GREY,
    PLAY_TOKEN,
    height_in_cards,
)
from kifu.games.graph_t.state import LEAD, OVER, PLAY, GraphTState
from kifu.html import svg as sv
from kifu.html.svg import INK, MUTED, fit, item, rect, seat_badge_named, svg, text

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}

FILL = ("#d62828", "#f5c400", "#4cb8e8", "#7d3fb8", "#26272b", "#a3a3a3")
"""Red, yellow, sky blue, purple, black, grey."""
PAPER = "#fbfaf6"
WIDTH = 860
W, H = 26, 56
STEP = 29
HAND_X = 100
CHART_X = 680
BAR = 20
CHART_H = 52
"""The height of a seat's stack chart: the tallest stack there is reaches it."""


def _bar_card(x: float, y: float, w: float, h: float, colour: int, height: int,
              token: str) -> list[str]:
    """A card of size w×h whose bar (``height`` of 60 in ``colour``) rises from the bottom;
    the part above it is grey (the card's grey side) unless the bar is grey itself."""
    bar = h * height / FULL
    parts = [rect(x, y, w, h, PAPER, stroke="#333", rx=3)]
    if colour != GREY and bar < h:
        parts.append(rect(x + 2, y + 2, w - 4, h - bar - 2, "#d8d8d8", rx=1))
    parts.append(rect(x + 2, y + h - bar, w - 4, bar - 2, FILL[colour], rx=1))
    ink = "#222" if colour in (1, 2, GREY) else "#fff"
    label_y = y + h - 5 if bar >= 16 else y + 13
    if bar < 16:
        ink = INK
    parts.append(text(x + w / 2, label_y, token, size=11 if w < 30 else 13, fill=ink,
                      anchor="middle", weight="bold"))
    return parts


def card_label(code: int) -> str:
    if CARD_COLOUR[code] == GREY:
        return f"{CARD_TOKEN[code]}: pure grey card"
    c = CARD_COLOUR[code]
    return (f"{CARD_TOKEN[code]}: {COLOUR_NAMES[c]} level {CARD_LEVEL[code]} of "
            f"{MAX_LEVEL[c]}")


def card(x: float, y: float, code: int) -> str:
    colour = CARD_COLOUR[code]
    height = FULL if colour == GREY else FULL * CARD_LEVEL[code] // MAX_LEVEL[colour]
    return item(card_label(code), _bar_card(x, y, W, H, colour, height, CARD_TOKEN[code]))


def play_label(pid: int) -> str:
    kind = "grey side" if PLAY_IS_GREY[pid] and pid // 2 != 20 else (
        "grey card" if PLAY_IS_GREY[pid] else "colour side")
    return (f"{PLAY_TOKEN[pid]}: {kind}, {COLOUR_NAMES[PLAY_COLOUR[pid]]}, "
            f"{height_in_cards(PLAY_HEIGHT[pid])} card high")


def _places(state: GraphTState, names: Sequence[str]) -> list[tuple[int, int, str]]:
    """(rank, seat, text) of each seat at the end, best first: its tallest and second
    tallest stacks in cards."""
    result = state.result()
    if result is None:
        return []
    out = []
    for s in range(state.n):
        tall = sorted(state.heights[s], reverse=True)
        who = f"p{s}" + (f" {fit(names[s], 10)}" if s < len(names) and names[s] else "")
        out.append((result.ranks[s], s, f"{who}: tallest {height_in_cards(tall[0])}, second "
                                        f"{height_in_cards(tall[1])}"))
    return sorted(out)


LEGEND = ("Heights in cards, as the rulebook counts them: a whole card is 1; a level is 1/2 "
          "of a card in red, 1/3 yellow, 1/4 sky blue, 1/5 purple, 1/6 black. (The Result "
          "header counts sixtieths of a card.)")


def draw(state: GraphTState, seat: int | None, public: frozenset[int] = frozenset(),
         names: Sequence[str] = ()) -> str:
    """The position; with ``seat``, as that seat sees it (``public``: the seats whose hands
    are open to all, as ``kifu.notation.views.open_seats`` finds them)."""
    n = state.n
    body: list[str] = []
    turn = state.turn
    phase = state.phase
    body.append(text(12, 24, f"GRAPH-T · {n} players", size=18, weight="bold"))
    if phase == OVER:
        status = "game over: " + ", ".join(f"#{rank} p{s}" for rank, s, _ in
                                           _places(state, names))
    elif phase == PLAY:
        status = f"p{turn} to move" + ("" if state.trick else " (to lead)")
    elif phase == LEAD:
        status = "the dealer draws the first leader"
    else:
        status = "the dealer shuffles and deals"
    body.append(item(status, text(12, 46, status, size=14, fill=MUTED)))
    if phase in (PLAY, OVER) and state.leader >= 0:
        open_ = "open" if state.grey_open() else "not open"
        g = f"grey leads: {open_}"
        body.append(item(f"grey leads are {open_} for the leader",
                         text(WIDTH - 12, 24, g, size=14, anchor="end", fill=MUTED)))

    # --- the trick ---------------------------------------------------------------------
    top = 60
    tw, th = 36, 72
    body.append(rect(4, top, WIDTH - 8, th + 30, "#e7f1e7", rx=8))
    lead = f"trick, led by p{state.leader}" if state.leader >= 0 else "trick"
    body.append(text(12, top + 16, lead, size=11, fill=MUTED))
    if not state.trick and phase == OVER:
        body.append(text(12, top + 40, "game over", size=17, weight="bold"))
        for k, (rank, _seat, line) in enumerate(_places(state, names)):
            body.append(item(f"place {rank}: {line}",
                             text(12 + 420 * (k // 2), top + 64 + 22 * (k % 2),
                                  f"{_ORDINAL[rank]}  {line}", size=12, fill=INK)))
    elif not state.trick:
        waiting = f"p{turn} to lead" if phase == PLAY else "no trick yet"
        body.append(text(12, top + 56, waiting, size=13, fill=MUTED))
    for i, pid in enumerate(state.trick):
        x = 12 + i * (tw + 26)
        who = (state.leader + i) % n
        label = f"p{who} played {play_label(pid)}"
        body.append(item(label, _bar_card(x, top + 22, tw, th, PLAY_COLOUR[pid],
                                          PLAY_HEIGHT[pid], PLAY_TOKEN[pid])))
        body.append(text(x + tw + 3, top + 40, f"p{who}", size=11, fill=MUTED))

    # --- the seats ---------------------------------------------------------------------
    y = top + th + 44
    per_row = (CHART_X - HAND_X - 10) // STEP
    top_height = max([1, *(h for hs in state.heights for h in hs)])
    for s in range(n):
        codes = state.hand_codes(s)
        hidden = seat is not None and seat != s and s not in public
        rows = 1 if hidden else max(1, -(-len(codes) // per_row))
        row_h = max(rows * (H + 6) + 22, CHART_H + 40)
        active = turn == s and phase == PLAY
        if active:
            body.append(rect(4, y - 6, WIDTH - 8, row_h, "#fff6d6", rx=8))
        body += seat_badge_named(12, y, s, names, seat == s, active, chars=10)
        notes = [("leader", "leader")] if s == state.leader and phase == PLAY else []
        if state.greyed >> s & 1:
            notes.append(("grey played", f"p{s} has made a grey play"))
        for k, (note, label) in enumerate(notes):
            body.append(item(label, text(14, y + 58 + 14 * k, note, size=11, fill=MUTED)))
        body.append(text(HAND_X, y + 8, f"hand ({len(codes)})", size=10, fill=MUTED))
        body += sv.hand(HAND_X, y + 14, codes, card, hidden=hidden, w=W + 8, h=H,
                        per_row=per_row, step=STEP, who=f"p{s}", empty=("empty", 26, 12))
        body.append(_stacks(CHART_X, y, s, state.heights[s], top_height))
        y += row_h + 8
    lines = sv.wrap(LEGEND, 130)
    body.append(item(LEGEND, [text(12, y + 10 + 15 * k, ln, size=11, fill=MUTED)
                              for k, ln in enumerate(lines)]))
    y += 16 + 15 * len(lines)
    who = "the whole position" if seat is None else f"p{seat}'s view"
    return svg(WIDTH, y, body, f"GRAPH-T, {who}: {status}")


def _stacks(x: float, y: float, s: int, heights: tuple[int, ...], top: int) -> str:
    """A seat's six stacks as a bar chart (heights in cards, printed below)."""
    chart_h = CHART_H
    parts = [text(x, y + 8, "stacks (height in cards)", size=10, fill=MUTED),
             rect(x - 2, y + 14 + chart_h, 6 * (BAR + 6), 1, "#888")]
    for c, h in enumerate(heights):
        bx = x + c * (BAR + 6)
        bh = chart_h * h / top
        if h:
            parts.append(rect(bx, y + 14 + chart_h - bh, BAR, bh, FILL[c], stroke="#333",
                              sw=0.6))
        parts.append(text(bx + BAR / 2, y + 14 + chart_h + 13, height_in_cards(h), size=9, fill=INK,
                          anchor="middle"))
    desc = ", ".join(f"{COLOUR_NAMES[c]} {height_in_cards(h)}" for c, h in enumerate(heights))
    return item(f"p{s}'s stacks in cards: {desc}", parts)


def public_move(state: GraphTState, actor: str, action_text: str, seat: int) -> str:
    """The deal stays hidden from a seat's view (it lists every hand); the first leader
    and every play are public."""
    if actor == "d" and action_text.startswith("deal "):
        return "deal (shuffled, hidden)"
    return action_text


SCORE_TITLE = "tallest stack (cards)"


def scores(state: GraphTState, seat: int | None) -> list[float]:
    """Each seat's tallest stack, in cards (public: stacks lie face up)."""
    return [round(max(hs) / FULL, 2) for hs in state.heights]
