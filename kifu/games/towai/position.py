"""Reading a TOWAI position line (``TowaiState.to_line`` writes it)::

    towai/1 P1 night D3D5T3/N1N2T6/D7D7 D5T5N4 T2D3N1 D6N5 p0:0 0,1,0 f2t14

Fields: rules, phase, side, hands (``/`` per seat), field (bottom first, top last), deck
(top first), discards, ``<last player>:<passes since>``, round wins, ``f<first>t<turns>``.
A position may hold fewer than the 60 cards (a puzzle), never more copies than exist.
"""

from __future__ import annotations

import re

from kifu.core.errors import NotationError, VariantError
from kifu.core.game import Game
from kifu.core.variant import clip, short
from kifu.games.towai.cards import (
    DRAW,
    SWAP,
    TOKEN,
    cards_text,
    counts_of,
    split_cards,
    too_many,
    zone_of,
)
from kifu.games.towai.state import (
    CHAIN,
    DEAL,
    FIRST,
    LEAD,
    OVER,
    PLAY,
    R_CHAIN,
    R_PASS,
    REBUILD,
    SWAP_PHASE,
    TowaiState,
)

FIELDS = ("rules", "phase", "side", "hands", "field", "deck", "discards", "last:passes",
          "wins", "first+turns")
_PHASE = re.compile(
    r"(?:([FDE])|([LPC])([0-5])|S([0-5])(?::((?:[DNT][1-7])+))?|R([0-5]):(p|d[0-5]+))\Z"
)
# at most 18 digits: Python refuses to convert (or print) ints of over 4,300 digits, and no
# pass or turn count comes near 10**18
_LAST = re.compile(r"(-|p[0-5]):(0|[1-9][0-9]{0,17})\Z")
_META = re.compile(r"f([0-5])t(0|[1-9][0-9]{0,17})\Z")


def from_line(game: Game, line: str) -> TowaiState:
    variant, fields = game.split_line(line)
    cols = [m.start() + 1 for m in re.finditer(r"\S+", line)]
    if len(fields) != len(FIELDS) - 1:
        raise NotationError(
            f"a TOWAI position has {len(FIELDS)} fields ({', '.join(FIELDS)}), "
            f"not {len(fields) + 1}", line=1, col=1)

    def err(i: int, msg: str) -> NotationError:
        return NotationError(f"{FIELDS[i]}: {msg}", line=1, col=cols[i])

    if "?" in line:
        raise NotationError("hidden cards (?): a seat's view cannot be read as a position",
                            line=1, col=line.index("?") + 1)

    def cards(i: int, text: str, *, sort: bool) -> list[int]:
        got = split_cards(text)
        if got is None:
            raise err(i, f"bad cards {short(text)}")
        if sort and got != sorted(got):
            raise err(i, f"cards must be in canonical order: {clip(cards_text(sorted(got)), 200)}")
        return got

    phase_t, side_t, hands_t, field_t, deck_t, disc_t, last_t, wins_t, meta_t = fields
    hand_parts = hands_t.split("/")
    n = len(hand_parts)
    try:
        game.check_players(n)
    except VariantError as e:
        raise err(3, str(e)) from None
    hands = [cards(3, h, sort=True) for h in hand_parts]
    field = cards(4, field_t, sort=False)
    deck = cards(5, deck_t, sort=False)
    discards = cards(6, disc_t, sort=True)
    if side_t not in ("day", "night"):
        raise err(2, f"expected day or night, got {short(side_t)}")
    m = _LAST.match(last_t)
    if not m:
        raise err(7, f"expected <last player>:<passes> like p1:0 or -:0, got {short(last_t)}")
    last = -1 if m.group(1) == "-" else int(m.group(1)[1:])
    passes = int(m.group(2))
    try:
        wins = tuple(int(w) for w in wins_t.split(","))
    except ValueError:
        raise err(8, f"bad round wins {short(wins_t)}") from None
    if len(wins) != n or any(w < 0 for w in wins):
        raise err(8, f"expected {n} round-win counts, got {short(wins_t)}")
    mm = _META.match(meta_t)
    if not mm:
        raise err(9, f"expected f<first player>t<turns>, got {short(meta_t)}")
    first, turns = int(mm.group(1)), int(mm.group(2))
    pm = _PHASE.match(phase_t)
    if not pm:
        raise err(1, f"bad phase {short(phase_t)} (F, D, E, L<seat>, P<seat>, C<seat>, "
                     "S<seat>[:<cards>], R<seat>:p, R<seat>:d<seats>)")
    simple, kind, kseat, sseat, sgiven, rseat, rwhat = pm.groups()
    given: list[int] = []
    pending: tuple[int, ...] = ()
    mover = 0
    if simple:
        phase = {"F": FIRST, "D": DEAL, "E": OVER}[simple]
    elif kind:
        phase, mover = {"L": LEAD, "P": PLAY, "C": CHAIN}[kind], int(kseat)
    elif sseat is not None:
        phase, mover = SWAP_PHASE, int(sseat)
        given = cards(1, sgiven, sort=False) if sgiven else []
    else:
        phase, mover = REBUILD, int(rseat)
        pending = (R_PASS, mover) if rwhat == "p" else (R_CHAIN, *(int(x) for x in rwhat[1:]))
    for seat in (mover, last, first, *pending[1:]):
        if seat >= n:
            raise NotationError(f"there is no seat p{seat} in a {n}-player game", line=1, col=1)
    every = [c for h in hands for c in h] + field + deck + discards + given
    extra = too_many(every)
    if extra:
        raise NotationError(f"more copies than the game has: {cards_text(extra)}", line=1,
                            col=1)

    state = TowaiState(n, variant)
    state.set_fields(phase=phase, mover=mover, side=0 if side_t == "day" else 1,
                     hl=[counts_of(hand) for hand in hands], field=tuple(field),
                     deck=tuple(deck), discards=counts_of(discards), last=last, passes=passes,
                     wins=wins, first=first, turns=turns, given=tuple(given), pending=pending,
                     _present=zone_of(every))
    _check(state, err)
    return state


def _check(state: TowaiState, err) -> None:
    """Refuse positions play can never reach (they would break the engine)."""
    n, phase, mover = state.n, state.phase, state.mover
    goal = state.variant.wins
    if phase == OVER:
        if max(state.wins) < goal:
            raise err(8, f"the game is over only once a player has {goal} round wins")
    elif max(state.wins) >= goal:
        raise err(8, f"a player has {goal} round wins: the phase must be E (over)")
    if phase == FIRST and (state._present or any(state.wins) or state.turns or state.first):
        raise err(1, "before the first player is drawn there are no cards, wins or turns "
                     "(f0t0)")
    if phase in (FIRST, DEAL, OVER):
        if state.given or state.pending:
            raise err(1, "no Swap or rebuild is due between rounds")
        return
    if state.turns >= state.variant.cap:
        raise err(9, f"the round has reached the turn cap ({state.variant.cap})")
    waiting = (mover + len(state.given)) % n
    for s in range(n):
        if not state.hand(s) and (phase != SWAP_PHASE or s in
                                  [(waiting + k) % n for k in range(n - len(state.given))]):
            raise err(3, f"p{s} has no cards: the round would be over")
    if phase == LEAD:
        if state.field or state.side or state.last != -1 or state.passes:
            raise err(1, "a lead is due: the field is empty, the side day and the last "
                         "player - with 0 passes")
        return
    if not state.field:
        raise err(4, "a follow, a combo, a Swap or a rebuild needs cards on the field")
    top = state.field[-1]
    if phase == PLAY:
        if state.last < 0 or state.last == mover or (mover - state.last) % n != state.passes + 1:
            raise err(7, f"p{mover} follows p{state.last} after {state.passes} pass(es): the "
                         "seats do not fit")
        if state.passes >= n - 1:
            raise err(7, "every other player has passed: the field would restart")
        return
    if phase == REBUILD and state.pending[0] == R_PASS:
        if state.last < 0 or state.last == mover or (mover - state.last) % n != state.passes + 1:
            raise err(7, f"p{mover} passes after p{state.last}'s play: the seats do not fit")
        if not state.pool():
            raise err(5, "nothing to rebuild the deck from")
        if state.deck:
            raise err(5, "a rebuild is due only with an empty deck")
        return
    if state.last != mover or state.passes:
        raise err(7, f"p{mover} has just played: the last player is p{mover} with 0 passes")
    if phase == CHAIN and not state._mask():
        raise err(3, f"p{mover} has no card to continue the combo: the turn would be over")
    if phase == SWAP_PHASE and top != SWAP:
        raise err(4, f"a Swap is being chosen, so the top card is {TOKEN[SWAP]}")
    if phase == REBUILD:
        seats = state.pending[1:]
        if top != DRAW or not seats or mover in seats or len(set(seats)) != len(seats):
            raise err(1, f"a rebuild during a Draw: the top card is {TOKEN[DRAW]} and the seats "
                         "still to draw are distinct others")
        if state.deck or not state.pool():
            raise err(5, "a rebuild is due only with an empty deck and cards to rebuild from")
