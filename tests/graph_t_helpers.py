"""Build GRAPH-T positions for tests: the mover's hand and the trick, the rest filled in."""

from __future__ import annotations

from collections import Counter

from kifu import games
from kifu.games.graph_t import GraphTState
from kifu.games.graph_t.cards import CARD_TOKEN, G, deck_codes
from kifu.games.graph_t.codec import scan_cards, scan_plays

GAME = games.get("graph-t")


def position(
    me: str,
    trick: str = "-",
    *,
    n: int = 2,
    greyed: str = "-",
    rules: str = "graph-t/1",
    stacks: str | None = None,
) -> GraphTState:
    """A position where p0 led ``trick`` (``-`` = p0 to lead) and the mover holds ``me``.

    The other hands are filled with unused cards (sizes that fit the trick), never with the
    grey card, so they only matter as opponents' hands."""
    variant = GAME.parse_rules(rules)
    mine = scan_cards(me)
    played = scan_plays(trick)
    k = len(played)
    mover = k % n
    left = Counter(deck_codes(variant.black))
    left.subtract(mine)
    left.subtract(p >> 1 for p in played)
    pool = sorted(left.elements(), reverse=True)  # black first: rarely in tests' hands
    hands = []
    for s in range(n):
        if s == mover:
            hands.append(me)
            continue
        size = len(mine) - 1 if s < k else len(mine)
        take, pool = pool[:size], pool[size:]
        hands.append("".join(CARD_TOKEN[c] for c in sorted(take)) or "-")
    assert G not in [c for h in hands[:mover] + hands[mover + 1:] for c in scan_cards(h)]
    stacks = stacks or "/".join(["-"] * n)
    line = f"{rules} {'/'.join(hands)} {stacks} {trick} p0 p{mover} {greyed}"
    return GAME.from_line(line)


def texts(state: GraphTState) -> list[str]:
    return [GAME.format_action(state, a) for a in state.legal_actions()]
