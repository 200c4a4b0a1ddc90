"""Parsing GRAPH-T position lines (``GraphTState.to_line`` writes them).

``<rules> <hands> <stacks> <trick> <leader> <to-move> <grey-players>``, e.g.::

    graph-t/1 R1Y2K6G/B1P3G/Y3K2K5G K2gK4/-/- B3 p1 p2 p0

Hands and stacks are ``/``-joined per seat, each a concatenation of tokens (``-`` if
empty); the trick lists its plays from the leader; the leader and the player to move are
``p0``.. (``-`` before the first lead / ``d`` for the dealer, ``-`` once the game is over);
the grey players are the seats that have made a grey play so far (``-`` if none).
"""

from __future__ import annotations

import re
from collections import Counter

from kifu.core.errors import NotationError, VariantError
from kifu.core.game import DEALER, Game
from kifu.core.variant import short
from kifu.games.graph_t.cards import (
    CARD_TOKEN,
    HAND_BITS,
    PLAY_COLOUR,
    PLAY_HEIGHT,
    PLAY_IS_GREY,
    hand_from_codes,
)
from kifu.games.graph_t.codec import scan_cards, scan_plays
from kifu.games.graph_t.state import DEAL, LEAD, OVER, PLAY, GraphTState
from kifu.games.graph_t.variant import GraphTVariant

FIELDS = ("hands", "stacks", "trick", "leader", "to-move", "grey players")
_SEAT = re.compile(r"p(0|[1-9][0-9]{0,5})\Z")


def _err(message: str, col: int) -> NotationError:
    return NotationError(message, line=1, col=col)


def _seat(text: str, n: int, col: int, what: str) -> int:
    m = _SEAT.match(text)
    if not m:
        raise _err(f"{what}: expected p0..p{n - 1}, got {short(text)}", col)
    s = int(m.group(1))
    if s >= n:
        raise _err(f"{what}: there is no seat {text} in a {n}-player game", col)
    return s


def from_line(game: Game, line: str) -> GraphTState:
    variant, fields, cols = game.split_fields(line, FIELDS)
    assert isinstance(variant, GraphTVariant)
    hands_f, stacks_f, trick_f, leader_f, turn_f, greyed_f = fields
    c_hands, c_stacks, c_trick, c_leader, c_turn, c_greyed = cols
    if "?" in hands_f:
        raise _err("hidden cards (?): a seat's view cannot be read as a position",
                   c_hands + hands_f.index("?"))
    parts = hands_f.split("/")
    n = len(parts)
    try:
        game.check_players(n)
    except VariantError as e:
        raise _err(f"hands: {e}", c_hands) from None
    hands = []
    col = c_hands
    for p in parts:
        if not p:
            raise _err("empty hand field (use - for an empty hand)", col)
        hands.append(sorted(scan_cards(p, col)))
        col += len(p) + 1
    sparts = stacks_f.split("/")
    if len(sparts) != n:
        raise _err(f"stacks: {len(sparts)} stacks for {n} hands", c_stacks)
    stacks = []
    col = c_stacks
    for p in sparts:
        if not p:
            raise _err("empty stack field (use - for an empty stack)", col)
        stacks.append(tuple(sorted(scan_plays(p, col))))
        col += len(p) + 1
    trick = tuple(scan_plays(trick_f, c_trick))
    if len(trick) >= n:
        raise _err(f"trick: {len(trick)} plays in a {n}-player game", c_trick)
    leader = -1 if leader_f == "-" else _seat(leader_f, n, c_leader, "leader")
    if greyed_f == "-":
        greyed = 0
    else:
        seats = re.findall(r"p[0-9]+", greyed_f)
        if "".join(seats) != greyed_f:
            raise _err(f"grey players: expected - or seats like p0p2, got {short(greyed_f)}",
                       c_greyed)
        nums = [_seat(s, n, c_greyed, "grey players") for s in seats]
        if nums != sorted(set(nums)):
            raise _err("grey players: list each seat once, in order", c_greyed)
        greyed = sum(1 << s for s in nums)

    state = GraphTState(n, variant)
    comp = state.components()
    have: Counter[int] = Counter()
    for h in hands:
        have.update(h)
    have.update(p >> 1 for p in trick)
    for st in stacks:
        have.update(p >> 1 for p in st)
    over = have - comp
    if over:
        code = min(over)
        raise _err(
            f"too many {CARD_TOKEN[code]} cards: the game has {comp[code]}", c_hands
        )
    sizes = [len(h) for h in hands]
    if leader < 0:
        if trick or greyed or any(stacks):
            raise _err("leader: - (before the first lead) needs an empty trick, stacks and "
                       "grey players", c_leader)
        if not any(hands):
            phase, turn = DEAL, DEALER
        else:
            phase, turn = LEAD, DEALER
            if have != comp or len(set(sizes)) != 1:
                raise _err("before the first lead the hands must hold the whole deal, "
                           "shared evenly", c_hands)
    else:
        played = [(s - leader) % n < len(trick) for s in range(n)]
        if len({sz + p for sz, p in zip(sizes, played, strict=True)}) != 1:
            raise _err(f"hand sizes {'/'.join(map(str, sizes))} do not fit a trick of "
                       f"{len(trick)} plays led by p{leader}", c_hands)
        if not any(hands) and not trick:
            phase, turn = OVER, None
        else:
            phase, turn = PLAY, (leader + len(trick)) % n
        for i, p in enumerate(trick):
            if PLAY_IS_GREY[p] and not greyed >> ((leader + i) % n) & 1:
                raise _err(f"grey players: p{(leader + i) % n} made a grey play in the trick",
                           c_greyed)
    for s, st in enumerate(stacks):
        if any(PLAY_IS_GREY[p] for p in st) and not greyed >> s & 1:
            raise _err(f"grey players: p{s} has a grey stack, so p{s} made a grey play",
                       c_greyed)
    want_turn = "-" if turn is None else ("d" if turn == DEALER else f"p{turn}")
    if turn_f != want_turn:
        raise _err(f"to-move: the position says {want_turn}, not {short(turn_f)}", c_turn)
    state.phase = phase
    state.turn = turn
    state.leader = leader
    state.hands = sum(hand_from_codes(h) << (HAND_BITS * s) for s, h in enumerate(hands))
    state.trick = trick
    state.tgrey = any(PLAY_IS_GREY[p] for p in trick)
    state.greyed = greyed
    state.stacks = tuple(stacks)
    heights = []
    for st in stacks:
        hs = [0] * 6
        for p in st:
            hs[PLAY_COLOUR[p]] += PLAY_HEIGHT[p]
        heights.append(tuple(hs))
    state.heights = tuple(heights)
    if phase in (PLAY, OVER):
        state.gone = tuple(sorted((comp - have).elements()))
    return state
