"""GRAPH-T rule helpers shared by the state and the bots: legal-play sets and the trick.

A set of plays is keyed by one int: bits 0..20 are the codes played on side 0, bits
21..41 the codes played on their grey side, so its ``bit_count`` is the number of plays and
:func:`plays_of` turns it into shared :class:`Play` objects, in pid order.
"""

from __future__ import annotations

from kifu.games.graph_t.actions import PLAYS, Play
from kifu.games.graph_t.cards import (
    CMASK,
    COLOUR_CODES,
    GBIT,
    GREY,
    LAYER,
    N_CODES,
    NONTOP,
    PLAY_COLOUR,
    PLAY_HEIGHT,
)

_CACHE: dict[int, tuple[Play, ...]] = {}
_CACHE_LIMIT = 1 << 16


def plays_of(key: int) -> tuple[Play, ...]:
    """The shared plays of a play-set key (cached)."""
    r = _CACHE.get(key)
    if r is None:
        out = []
        for code in range(N_CODES):
            if key >> code & 1:
                out.append(PLAYS[2 * code])
            if key >> (LAYER + code) & 1:
                out.append(PLAYS[2 * code + 1])
        r = tuple(out)  # type: ignore[arg-type]
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = r
    return r


def all_key(p: int) -> int:
    """Every play of a hand whose present codes are ``p``."""
    return p | (p & NONTOP) << LAYER


def grey_key(p: int) -> int:
    """The grey plays of a hand: its grey sides and the grey card."""
    return (p & GBIT) | (p & NONTOP) << LAYER


def lead_key(p: int, grey_open: bool) -> int:
    """Ruling 3: the leads allowed from present codes ``p``."""
    if grey_open:
        return p | (p & NONTOP) << LAYER
    a = p & COLOUR_CODES
    return a if a else p


def follow_key(p: int, led: int, grey_in_trick: bool) -> int:
    """Rulings 4 and 5: the follows allowed from ``p`` after a lead of colour ``led``."""
    if led == GREY:
        k = (p & GBIT) | (p & NONTOP) << LAYER
        return k if k else p
    a = p & CMASK[led]
    if a:
        if grey_in_trick:
            return a | (p & GBIT) | (p & NONTOP) << LAYER
        return a
    return p | (p & NONTOP) << LAYER


def key_has(key: int, pid: int) -> bool:
    return bool(key >> ((pid >> 1) + LAYER * (pid & 1)) & 1)


def trick_winner(trick: tuple[int, ...] | list[int], trump: bool) -> int:
    """Ruling 6: the index of the winning play of a trick (pids in play order).

    Plays of the led colour and grey plays compete; the greater height wins and a later
    play wins a tie. With ``trump``, any grey play beats every led-colour play.
    """
    led = PLAY_COLOUR[trick[0]]
    best = -1
    win = 0
    for i, p in enumerate(trick):
        col = PLAY_COLOUR[p]
        if col == GREY:
            v = PLAY_HEIGHT[p] + (1000 if trump else 0)
        elif col == led:
            v = PLAY_HEIGHT[p]
        else:
            continue
        if v >= best:
            best = v
            win = i
    return win
