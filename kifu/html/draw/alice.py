"""unoAlice drawn as SVG: the sentence's five slots (each top card as its word, with its
suit, rank and owner), the story so far, the decks, and per seat the role (face up, or
face down: seen only by its owner), the SP, the Character and the hand.

The game's tables are imported inside the functions, so this module imports (for the
doctest collector) even where the game is not installed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kifu.core.game import DEALER
from kifu.html import svg as sv
from kifu.html.svg import INK, MUTED, backs, card_back, item, rect, seat_badge_named, svg, text

TYPE_FILL = ("#e3efff", "#ffe9d6", "#e6f5e6")
"""Noun (blue paper), verb (orange paper), adjective (green paper)."""
TYPE_EDGE = ("#1f6fd1", "#d9730d", "#2a9d4f")
SUIT_INK = ("#222", "#d62828", "#d62828", "#222")
W, H = 40, 58
WIDTH = 640
RANK = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _tables() -> Any:
    from kifu.games.alice import cards

    return cards


def card_label(code: int, word: str = "") -> str:
    c = _tables()
    kind = c.TYPE_NAMES[c.CODE_TYPE[code]]
    suit = ("spade", "heart", "diamond", "club")[c.CODE_SUIT[code]]
    return f"{c.TOKEN[code]}: {kind}, {suit} {c.CODE_RANK[code]}" + (f", {word}" if word
                                                                        else "")


def card(x: float, y: float, code: int, word: str = "", w: float = W,
         h: float = H) -> str:
    c = _tables()
    t, s, r = c.CODE_TYPE[code], c.CODE_SUIT[code], c.CODE_RANK[code]
    parts = [rect(x, y, w, h, TYPE_FILL[t], stroke=TYPE_EDGE[t], rx=5, sw=1.6),
             text(x + 5, y + 13, c.TYPE_LETTERS[t], size=10, fill=TYPE_EDGE[t],
                  weight="bold"),
             text(x + w / 2, y + 34, RANK.get(r, r), size=18, fill=SUIT_INK[s],
                  anchor="middle", weight="bold"),
             text(x + w / 2, y + 51, c.SUIT_SYMBOLS[s], size=14, fill=SUIT_INK[s],
                  anchor="middle")]
    return item(card_label(code, word), parts)


def draw(state: Any, seat: int | None, names: Sequence[str] = ()) -> str:
    from kifu.games.alice.cards import card_set
    from kifu.games.alice.state import CHAR, NONE, OVER, PHASES, SLOTS

    n = state.n
    cs = card_set(state.variant.cards)
    word = state._tb.word
    body: list[str] = []
    turn = state.to_move
    head = f"unoAlice · turn {min(state.turns + 1, state.variant.turns)} of " \
        f"{state.variant.turns}"
    if state.bard != NONE:
        head += f" · Bard p{state.bard}"
    body.append(text(12, 24, head, size=18, weight="bold"))
    body.append(item(f"system SP {state.sys_sp}", text(WIDTH - 12, 24,
                                                       f"system SP {state.sys_sp}", size=14,
                                                       anchor="end", fill=MUTED)))
    if state.phase == OVER:
        status = sv.over_status(state, n)
    elif turn == DEALER:
        status = f"the dealer acts ({PHASES[state.phase]} phase)"
    else:
        status = f"p{turn} to move ({PHASES[state.phase]} phase)"
    body.append(item(status, text(12, 46, status, size=14, fill=MUTED)))

    # --- the sentence ----------------------------------------------------------------
    top = 60
    sw, sh = 112, 104
    body.append(rect(4, top, WIDTH - 8, sh + 30, "#f4eefb", rx=8))
    body.append(text(12, top + 16, "the sentence", size=11, fill=MUTED))
    for i, pile in enumerate(state.slots):
        x = 14 + i * (sw + 12)
        y = top + 22
        if not pile:
            body.append(item(f"slot {SLOTS[i]}: empty", [
                rect(x, y, sw, sh, "none", stroke="#aab", rx=6),
                text(x + sw / 2, y + sh / 2 + 5, SLOTS[i], size=14, fill=MUTED,
                     anchor="middle")]))
            continue
        code = pile[-1]
        body.append(card(x, y, code, word[code]))
        owner = state.owners[i]
        who = f"p{owner}" if 0 <= owner < n else "-"
        more = f" over {len(pile) - 1}" if len(pile) > 1 else ""
        body.append(item(f"slot {SLOTS[i]}: {word[code]}, played by {who}{more}", [
            text(x + W + 6, y + 14, SLOTS[i], size=11, fill=MUTED),
            text(x + W + 6, y + 32, word[code][:12], size=12, fill=INK, weight="bold"),
            text(x + W + 6, y + 50, who + more, size=11, fill=MUTED)]))
    y = top + sh + 46
    if state.story:
        lines = sv.wrap(" ".join(word[c] for c in state.story), 86)
        body.append(text(12, y, "the story so far", size=11, fill=MUTED))
        for k, ln in enumerate(lines[-3:]):
            body.append(text(12, y + 18 + 17 * k, ln, size=13, fill=INK))
        y += 18 + 17 * min(3, len(lines)) + 8
    body.append(backs(12, y + 14, 34, 48, len(state.deck), "deck", most=4))
    body.append(text(12, y + 8, "deck", size=10, fill=MUTED))
    body.append(text(70, y + 8, f"discard ({len(state.discard)})", size=10, fill=MUTED))
    if state.discard:
        body.append(card(70, y + 14, state.discard[-1], word[state.discard[-1]], 34, 50))
    y += 80

    # --- the seats ---------------------------------------------------------------------
    for s in range(n):
        row_h = H + 30
        active = turn == s
        if active:
            body.append(rect(4, y - 4, WIDTH - 8, row_h, "#fff6d6", rx=8))
        body += seat_badge_named(12, y + 4, s, names, seat == s, active, chars=9)
        body.append(item(f"p{s} has {state.sp[s]} SP", text(14, y + 64, f"SP {state.sp[s]}",
                                                           size=14, weight="bold")))
        if state.out >> s & 1:
            body.append(text(62, y + 64, "out", size=11, fill=MUTED))
        # the role
        rx = 84
        body.append(text(rx, y + 6, "role", size=10, fill=MUTED))
        if state.roles:
            role = cs.roles[state.roles[s]]
            up = bool(state.shown >> s & 1)
            if up or seat is None or seat == s:
                words = role.title.split()
                short = words[0] if len(words) > 2 and words[1] == "of" else words[-1]
                label = f"p{s}'s role: {role.title}, " + ("face up" if up else "face down")
                body.append(item(label, [
                    rect(rx, y + 10, 64, H, "#fdf3d0" if up else "#ece7f6", stroke="#7a5c00"
                         if up else "#6b5ca5", rx=5),
                    text(rx + 32, y + 32, short[:11], size=9, fill=INK,
                         anchor="middle", weight="bold"),
                    text(rx + 32, y + 48, f"wins at {role.win}", size=9, fill=MUTED,
                         anchor="middle"),
                    text(rx + 32, y + 62, "face up" if up else "face down", size=9,
                         fill=MUTED, anchor="middle")]))
            else:
                body.append(card_back(rx, y + 10, 64, H, f"p{s}'s role: face down"))
        # the Character
        cx = 160
        body.append(text(cx, y + 6, "character", size=10, fill=MUTED))
        ch = state.chars[s]
        if ch != NONE:
            if seat is not None and seat != s and state.phase == CHAR:
                body.append(card_back(cx, y + 10, W, H, f"p{s}'s Character: face down"))
            else:
                body.append(card(cx, y + 10, ch, word[ch]))
        # the hand
        hx = 220
        hand = state.hands[s]
        body.append(text(hx, y + 6, f"hand ({len(hand)})", size=10, fill=MUTED))
        if seat is None or seat == s:
            step = min(W + 4, (WIDTH - hx - W - 8) / max(1, len(hand) - 1))
            for i, code in enumerate(hand):
                body.append(card(hx + i * step, y + 10, code, word[code]))
        else:
            body.append(backs(hx, y + 10, W, H, len(hand), f"p{s}'s hand", most=5))
        y += row_h + 4
    who = "the whole position" if seat is None else f"p{seat}'s view"
    return svg(WIDTH, y, body, f"unoAlice, {who}: {status}")


def public_move(state: Any, actor: str, action_text: str, seat: int) -> str:
    """What ``seat`` sees of an action: every dealer action is hidden (the role and card
    deals, the draws); a Character chosen face down is hidden from the others; plays,
    discards and the rest are in the open."""
    if actor == "d":
        return "(hidden)"
    return sv.hidden_from_others(action_text, actor, seat, "char")


SCORE_TITLE = "SP"


def scores(state: Any, seat: int | None) -> list[float]:
    """Each seat's SP (public)."""
    return [float(x) for x in state.sp]
