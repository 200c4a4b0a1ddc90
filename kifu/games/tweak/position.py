"""Reading a TWEAK position line (``TweakState.to_line`` writes it)."""

from __future__ import annotations

import re

from kifu.core.errors import NotationError
from kifu.core.game import Game
from kifu.core.variant import clip, short
from kifu.games.tweak.cards import THIEF, cards_text, split_cards
from kifu.games.tweak.state import (
    BOMB_PHASE,
    DEAL,
    FIRST,
    OVER,
    STEAL_PHASE,
    TURN,
    TweakState,
)

FIELDS = ("rules", "phase", "round", "target", "totals", "hands", "table", "deck", "T! pile",
          "piles", "held T!")
_PHASE = re.compile(r"(?:([FDE])|T([0-9])([u+-]?)|B([0-9]):([0-9](?:,[0-9])*)|S([0-9]):([0-9]))\Z")
_ROUND = re.compile(r"r([0-9]{1,6})d([0-9])\Z")
_TOTAL = re.compile(r"-?[0-9]{1,9}\Z")


def from_line(game: Game, line: str) -> TweakState:
    variant, fields = game.split_line(line)
    cols = []
    col = 1
    for part in line.split(" "):
        cols.append(col)
        col += len(part) + 1
    if len(fields) != len(FIELDS) - 1:
        raise NotationError(
            f"a TWEAK position has {len(FIELDS)} fields ({', '.join(FIELDS)}), "
            f"not {len(fields) + 1}", line=1, col=1,
        )

    def err(i: int, msg: str) -> NotationError:
        return NotationError(f"{FIELDS[i]}: {msg}", line=1, col=cols[i] if i < len(cols) else 1)

    def zones(
        i: int, text: str, n: int | None, *, t_cards: bool | None = False
    ) -> list[tuple[int, ...]]:
        parts = text.split("/")
        if n is not None and len(parts) != n:
            raise err(i, f"expected {n} zones separated by /, got {len(parts)}")
        out = []
        for p in parts:
            cards = split_cards(p)
            if cards is None or (
                t_cards is not None and any((c >= THIEF) != t_cards for c in cards)
            ):
                raise err(i, f"bad cards {short(p)}")
            if sorted(cards) != cards:
                raise err(i, "cards must be in canonical order: "
                          f"{clip(cards_text(sorted(cards)), 200)}")
            out.append(tuple(cards))
        return out

    phase_t, round_t, target_t, totals_t, hands_t, table_t, deck_t, tp_t, piles_t, held_t = fields
    if not all(_TOTAL.match(x) for x in totals_t.split(",")):
        raise err(4, f"bad totals {short(totals_t)} (integers of at most 9 digits)")
    totals = tuple(int(x) for x in totals_t.split(","))
    n = len(totals)
    try:
        game.check_players(n)
    except Exception as e:
        raise err(4, str(e)) from None
    state = TweakState(n, variant)
    state.totals = totals
    m = _ROUND.match(round_t)
    if not m or int(m.group(2)) >= n:
        raise err(2, f"expected r<round>d<dealer seat>, got {short(round_t)}")
    state.round, state.dealer = int(m.group(1)), int(m.group(2))
    state.hands = tuple(zones(5, hands_t, n))
    (table,) = zones(6, table_t, 1)
    state.table = table
    deck = split_cards(deck_t)
    if deck is None or any(c >= THIEF for c in deck):
        raise err(7, f"bad deck {short(deck_t)}")
    state.deck, state.dpos = tuple(deck), 0
    tpile = split_cards(tp_t)
    if tpile is None or any(c < THIEF for c in tpile):
        raise err(8, f"bad T! pile {short(tp_t)}")
    state.tpile, state.tpos = tuple(tpile), 0
    piles = tuple(zones(9, piles_t, n, t_cards=None))
    try:
        state.piles = piles
    except ValueError as e:  # the packed piles' limit: far above any real game
        raise err(9, str(e)) from None
    state.held = tuple(zones(10, held_t, n, t_cards=True))
    pm = _PHASE.match(phase_t)
    if not pm:
        raise err(1, f"bad phase {short(phase_t)} (F, D, E, T<seat>[u+-], B<seat>:<queue>, "
                     "S<seat>:<victim>)")
    simple, tseat, tmark, bseat, bqueue, sseat, svictim = pm.groups()
    if simple:
        state.phase = {"F": FIRST, "D": DEAL, "E": OVER}[simple]
    elif tseat is not None:
        state.phase, state.mover = TURN, int(tseat)
        state.tused = 1 if tmark else 0
        state.jdelta = {"+": 1, "-": -1}.get(tmark, 0)
    elif bseat is not None:
        state.phase, state.mover, state.tused = BOMB_PHASE, int(bseat), 1
        state.queue = tuple(int(x) for x in bqueue.split(","))
    else:
        state.phase, state.mover, state.tused = STEAL_PHASE, int(sseat), 1
        state.victim = int(svictim)
    if state.mover >= n or any(s >= n for s in state.queue) or state.victim >= n:
        raise err(1, f"seat out of range in {short(phase_t)}")
    _check_phase(state, err)
    if target_t != f"t{state.target}":
        raise err(3, f"the target is t{state.target} (the back of the deck's top card), "
                     f"not {short(target_t)}")
    if state.round:
        present = state.in_play()
        extra = list(present)
        for c in state.components():
            if c in extra:
                extra.remove(c)
        if extra:
            raise NotationError(
                f"more copies than the game has: {cards_text(sorted(set(extra)))}", line=1, col=1
            )
        state._present = present
        try:
            state.check_invariants()
        except AssertionError as e:
            raise NotationError(f"inconsistent position: {e}", line=1, col=1) from None
    return state


def _check_phase(state: TweakState, err) -> None:
    """Refuse phases that play can never reach (they would leave nobody able to act)."""
    hands, mover = state.hands, state.mover
    if state.phase == STEAL_PHASE and (state.victim == mover or not hands[state.victim]):
        raise err(1, f"the Thief's victim p{state.victim} must be an opponent with cards")
    if state.phase == BOMB_PHASE:
        q = state.queue
        if len(set(q)) != len(q) or mover in q or not all(hands[s] for s in q):
            raise err(1, "the Bomb's queue lists distinct opponents with cards")
    if state.phase in (TURN, BOMB_PHASE, STEAL_PHASE):
        if not hands[mover] and state.dpos >= len(state.deck):
            raise err(1, f"p{mover} has no cards and there is no deck: the turn passes on")
        if state.tused and state.phase == TURN and not hands[mover]:
            raise err(1, f"p{mover} used a T! card with no card to play")
