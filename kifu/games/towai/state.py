"""The TOWAI state machine (rulings numbered as in ``docs/rules/towai.md``).

Phases: the first player of round 1 is drawn (``FIRST``); each round starts with a shuffle
(``DEAL``); a player then leads onto an empty field (``LEAD``), the next players follow or
pass (``PLAY``), and after any play the same player may continue a combo or stop
(``CHAIN``). A Swap hands the move round the table for the choices (``SWAP``); a draw from
an empty deck waits for the dealer's rebuild (``REBUILD``). ``OVER`` ends the game.

Each hand is a count int (see ``cards.py``), one list item a seat (``hl``); the discard
pile is one count int; the field is a tuple; the deck is the tuple the last shuffle left
(top first) with the index of its next card, so a draw needs no dealer action and moves the
index. ``push`` saves what an action changes inline (a tagged tuple, see the comment above
it) and ``pop`` restores it; whose turn it is follows from the phase (``to_move``).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from kifu.core.errors import IllegalActionError, multiset_diff
from kifu.core.game import DEALER, Action, Result, State, actor_name, check_deal_size
from kifu.games.towai.actions import (
    FIRSTS,
    GIVES,
    LEADS,
    PASS,
    PLAYS,
    STOP,
    Deal,
    First,
    Give,
    Lead,
    Pass,
    Play,
    Rebuild,
    Stop,
)
from kifu.games.towai.cards import (
    ALL_CARDS,
    COMBO8,
    COMBO_ANY,
    DRAW,
    EIGHTS,
    FITS,
    FITS8,
    FOLLOW8,
    N_KINDS,
    NIB,
    NUM,
    RESET,
    SEAT_BITS,
    SEAT_MASK,
    SEVENS,
    SIDE_NAME,
    SWAP,
    TOKEN,
    TYPE,
    TYPE_NAME,
    cards_text,
    count_of,
    counts_cards,
    counts_of,
    kind_mask,
    kinds8,
    zone_of,
)
from kifu.games.towai.variant import TowaiVariant, rules_spec

FIRST, DEAL, LEAD, PLAY, CHAIN, SWAP_PHASE, REBUILD, OVER = range(8)
_MOVERLESS = {FIRST: "F", DEAL: "D", OVER: "E"}
"""The position-line tokens of the phases with no player to move."""
HAND_SIZE = 7
R_CHAIN, R_PASS = 0, 1
"""What follows the draws a rebuild interrupted: the Draw player's combo, or a pass's end."""

R_SETUP = "towai 1: setup"
R_LEAD = "towai 2: lead"
R_FOLLOW = "towai 3: follow"
R_SWAP = "towai 4: Swap"
R_COMBO = "towai 5: combo"
R_PASS = "towai 6: pass"
R_REBUILD = "towai 7: rebuild"
R_HAND = "towai hand: play a card you hold"
R_TURN = "turn"

_SHIFT = tuple(SEAT_BITS * s for s in range(6))
_NEXT = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(7))
_FULL = zone_of(ALL_CARDS)


def _by_card(rows: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``rows[8 * side + number]`` indexed ``[side][card]`` instead: one look-up less."""
    return tuple(tuple(rows[8 * side + NUM[c]] for c in range(N_KINDS)) for side in (0, 1))


_FOLLOW = _by_card(FOLLOW8)
"""``_FOLLOW[side][top]``: the presence bits of the cards that may follow ``top``."""
_COMBO = _by_card(COMBO8)
"""``_COMBO[side][top]``: the presence bits of the cards that continue a combo on ``top``."""
_COMBO_ANY = _by_card(COMBO_ANY)
"""``hand & _COMBO_ANY[side][top]`` is nonzero iff the hand can continue a combo on ``top``."""

# --- legal-action lists, shared per kind mask -------------------------------------------------
_LEAD_LISTS: dict[int, tuple[Action, ...]] = {}
_PLAY_LISTS: dict[int, tuple[Action, ...]] = {}
_CHAIN_LISTS: dict[int, tuple[Action, ...]] = {}
_GIVE_LISTS: dict[int, tuple[Action, ...]] = {}


def _lead_list(key: int) -> tuple[Action, ...]:
    """Leads for ``key = day kinds | night kinds << 17``: every Day lead, then every Night
    lead, each in code order."""
    r = _LEAD_LISTS.get(key)
    if r is None:
        r = _LEAD_LISTS[key] = tuple(
            [LEADS[0][c] for c in kinds8(key & SEAT_MASK)]
            + [LEADS[1][c] for c in kinds8(key >> SEAT_BITS)]
        )
    return r


def _play_list(mask: int) -> tuple[Action, ...]:
    r = _PLAY_LISTS.get(mask)
    if r is None:
        r = _PLAY_LISTS[mask] = (*[PLAYS[c] for c in kinds8(mask)], PASS)
    return r


def _chain_list(mask: int) -> tuple[Action, ...]:
    r = _CHAIN_LISTS.get(mask)
    if r is None:
        r = _CHAIN_LISTS[mask] = (*[PLAYS[c] for c in kinds8(mask)], STOP)
    return r


def _give_list(mask: int) -> tuple[Action, ...]:
    r = _GIVE_LISTS.get(mask)
    if r is None:
        r = _GIVE_LISTS[mask] = tuple(GIVES[c] for c in kinds8(mask))
    return r


def clear_caches() -> None:
    """Empty the legal-action memos (for cold-cache measurements)."""
    for d in (_LEAD_LISTS, _PLAY_LISTS, _CHAIN_LISTS, _GIVE_LISTS):
        d.clear()


_HAND_BYTES = (4 * N_KINDS + 7) // 8
_LOW_NIBBLES = sum(15 << (8 * k) for k in range(_HAND_BYTES))
"""The low nibble of every byte of a hand's count int (``hand_size``)."""


class TowaiState(State):
    """A TOWAI position. Build one with ``kifu.games.get("towai").new_state(players)``."""

    __slots__ = (
        "_cap", "_deck", "_dtop", "_fits", "_goal", "_next", "_present", "_undo", "discards",
        "field", "first", "given", "hl", "last", "mover", "passes", "pending", "phase", "side",
        "turns", "wins",
    )

    def __init__(self, players: int, variant: TowaiVariant):
        n = players
        super().__init__(n, variant)
        self._cap = variant.cap
        self._fits = variant.lead_fits
        self._goal = variant.wins
        self._next = _NEXT[n]
        self._present = 0
        """The cards in play as a zone int (all 60 after a deal; a position may hold fewer)."""
        self.phase = FIRST
        self.mover = 0
        """The player whose turn it is (the Swap's player during the choices)."""
        self.side = 0
        """The indicator: 0 Day, 1 Night (written Day while a lead is due: the leader sets it)."""
        self.hl: list[int] = [0] * n
        """Every seat's hand as a count int (see ``cards.py``), one list item a seat: ``push``
        changes the items in place and its undo record keeps the old item."""
        self.field: tuple[int, ...] = ()
        """The field cards in play order: the last one is the top card."""
        self.discards = 0
        self._deck: tuple[int, ...] = ()
        """The deck as the last deal or rebuild left it, top first; ``_dtop`` cards of it
        are drawn (a draw moves the index instead of slicing the tuple)."""
        self._dtop = 0
        self.passes = 0
        """Consecutive passes since the last play."""
        self.last = -1
        """The last player to play (-1 while a lead is due)."""
        self.wins: tuple[int, ...] = (0,) * n
        self.turns = 0
        """Turns ended (stops and passes) in this round (ruling 14)."""
        self.first = 0
        """The round's first player (the next round's, once a round has ended)."""
        self.given: tuple[int, ...] = ()
        """The cards set aside in a Swap so far, in choice order from the Swap's player."""
        self.pending: tuple[int, ...] = ()
        """While a rebuild is due: (what follows, the seats still to draw...)."""

    # --- identity ---------------------------------------------------------------------------
    def key(self) -> Hashable:
        return (self.phase, self.mover, self.side, tuple(self.hl), self.field, self.discards,
                self._deck[self._dtop:], self.passes, self.last, self.wins, self.turns, self.first,
                self.given, self.pending)

    def copy(self) -> TowaiState:
        # written out, no shared helper (it would add a call to every copy; hot path:
        # benchmarks/test_bots.py::test_time_per_decision); pinned by
        # tests/test_properties.py::test_copy_is_independent
        new = TowaiState.__new__(TowaiState)
        new.n = self.n
        new.variant = self.variant
        new.history = []  # as GRAPH-T: a copy starts a history of its own
        new._undo = []
        new._cap = self._cap
        new._fits = self._fits
        new._goal = self._goal
        new._next = self._next
        (new.phase, new.mover, new.side, new.hl, new.field, new.discards, new._deck,
         new._dtop, new.passes, new.last, new.wins, new.turns, new.first, new.given,
         new.pending, new._present) = self._snap()
        return new

    def _snap(self) -> tuple:
        """Every field ``pop`` restores after a full snapshot (the hands list copied)."""
        return (self.phase, self.mover, self.side, self.hl[:], self.field, self.discards,
                self._deck, self._dtop, self.passes, self.last, self.wins, self.turns,
                self.first, self.given, self.pending, self._present)

    @property
    def deck(self) -> tuple[int, ...]:
        """The face-down deck, top first."""
        return self._deck[self._dtop:]

    @deck.setter
    def deck(self, cards: tuple[int, ...]) -> None:
        self._deck = tuple(cards)
        self._dtop = 0

    @property
    def hands(self) -> int:
        """Every hand in one int, seat ``s`` at bits ``68 * s`` (a read-only view of ``hl``
        for callers that want one number; setting it splits it into ``hl``)."""
        h = 0
        for s, z in enumerate(self.hl):
            h |= z << _SHIFT[s]
        return h

    @hands.setter
    def hands(self, h: int) -> None:
        self.hl = [(h >> _SHIFT[s]) & SEAT_MASK for s in range(self.n)]

    # --- whose turn, the end ----------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """Worked out from the phase (no field to keep in step on every push and pop): the
        dealer shuffles and rebuilds, the seat after the choices so far picks a Swap card,
        the mover plays."""
        phase = self.phase
        if LEAD <= phase <= CHAIN:
            return self.mover
        if phase == SWAP_PHASE:
            return (self.mover + len(self.given)) % self.n
        return None if phase == OVER else DEALER

    turn = to_move

    def turn_note(self) -> str:
        phase = self.phase
        if phase == SWAP_PHASE:
            return f"to choose a card for p{self.mover}'s Swap"
        if phase == REBUILD:
            return "to rebuild the empty deck"
        if phase == DEAL:
            return f"to shuffle and deal round {sum(self.wins) + 1}"
        if phase == FIRST:
            return "to draw the first player"
        if phase == CHAIN:
            return f"to continue a combo of {NUM[self.field[-1]]}s or stop"
        if phase == LEAD:
            return "to lead"
        return ""

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        return Result.from_keys(self.wins)

    # --- queries ----------------------------------------------------------------------------
    def hand(self, seat: int) -> int:
        """The count int of ``seat``'s hand (4 bits a kind, see ``cards.py``)."""
        return self.hl[seat]

    def held(self, seat: int) -> int:
        """The kinds ``seat`` holds, as a 17-bit mask (bit ``c`` for code ``c``)."""
        return kind_mask(self.hl[seat])

    def count(self, seat: int, c: int) -> int:
        """How many ``c`` cards ``seat`` holds."""
        return count_of(self.hl[seat], c)

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        return counts_cards(self.hl[seat])

    def hand_size(self, seat: int) -> int:
        # the nibbles summed byte-wise (each byte two counts of at most four): the length
        # of counts_cards(z) without building it (tests/test_speed9_towai.py)
        z = self.hl[seat]
        return sum(((z & _LOW_NIBBLES) + ((z >> 4) & _LOW_NIBBLES)).to_bytes(_HAND_BYTES,
                                                                           "little"))

    @property
    def round(self) -> int:
        """The round being played (or about to be dealt): 1 + the rounds won so far."""
        return sum(self.wins) + 1

    @property
    def top(self) -> int | None:
        return self.field[-1] if self.field else None

    def pool(self) -> tuple[int, ...]:
        """What a rebuild shuffles (ruling 7): the field under its top card and the
        discard pile, sorted."""
        return tuple(sorted(self.field[:-1] + counts_cards(self.discards)))

    def in_play(self) -> int:
        """Every card in a zone, as one zone int (for the conservation check)."""
        cards = list(self.field) + list(self.deck) + list(self.given)
        for s in range(self.n):
            cards += counts_cards(self.hl[s])
        return zone_of(cards + list(counts_cards(self.discards)))

    def _mask(self) -> int:
        """The playable kinds of the mover at PLAY or CHAIN (presence bits)."""
        p = (self.hl[self.mover] + SEVENS) & EIGHTS
        if self.phase == PLAY:
            return p & _FOLLOW[self.side][self.field[-1]]
        return p & _COMBO[self.side][self.field[-1]]

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            m = (self.hl[self.mover] + SEVENS) & _FOLLOW[self.side][self.field[-1]]
            r = _PLAY_LISTS.get(m)
            return list(r if r is not None else _play_list(m))
        if phase == CHAIN:
            m = (self.hl[self.mover] + SEVENS) & _COMBO[self.side][self.field[-1]]
            r = _CHAIN_LISTS.get(m)
            return list(r if r is not None else _chain_list(m))
        if phase == LEAD:
            p = (self.hl[self.mover] + SEVENS) & EIGHTS
            key = ((p & FITS8[0]) | (p & FITS8[1]) << SEAT_BITS if self._fits
                   else p | p << SEAT_BITS)
            r = _LEAD_LISTS.get(key)
            return list(r if r is not None else _lead_list(key))
        if phase == SWAP_PHASE:
            return list(_give_list(
                (self.hl[(self.mover + len(self.given)) % self.n] + SEVENS) & EIGHTS))
        if phase == FIRST:
            return list(FIRSTS[: self.n])
        return []  # DEAL and REBUILD: shuffles are not enumerable; OVER: nothing

    def legal_tuple(self) -> tuple[Action, ...]:
        """:meth:`legal_actions` as the engine's shared tuple (the memo of the kind mask,
        not a copy: the same object for the same hand and field), the same actions in the
        same order; the OpenSpiel bridge keys its action ids by it. ``legal_actions``
        repeats these lines instead of calling this (a call less on the engine's hot
        path); ``tests/test_towai_props.py`` checks the two agree."""
        phase = self.phase
        if phase == PLAY:
            m = (self.hl[self.mover] + SEVENS) & _FOLLOW[self.side][self.field[-1]]
            r = _PLAY_LISTS.get(m)
            return r if r is not None else _play_list(m)
        if phase == CHAIN:
            m = (self.hl[self.mover] + SEVENS) & _COMBO[self.side][self.field[-1]]
            r = _CHAIN_LISTS.get(m)
            return r if r is not None else _chain_list(m)
        if phase == LEAD:
            p = (self.hl[self.mover] + SEVENS) & EIGHTS
            key = ((p & FITS8[0]) | (p & FITS8[1]) << SEAT_BITS if self._fits
                   else p | p << SEAT_BITS)
            r = _LEAD_LISTS.get(key)
            return r if r is not None else _lead_list(key)
        if phase == SWAP_PHASE:
            return _give_list(
                (self.hl[(self.mover + len(self.given)) % self.n] + SEVENS) & EIGHTS)
        if phase == FIRST:
            return FIRSTS[: self.n]
        return ()

    def count_legal(self) -> int:
        phase = self.phase
        if phase == PLAY:
            return ((self.hl[self.mover] + SEVENS)
                    & _FOLLOW[self.side][self.field[-1]]).bit_count() + 1
        if phase == CHAIN:
            return ((self.hl[self.mover] + SEVENS)
                    & _COMBO[self.side][self.field[-1]]).bit_count() + 1
        if phase == SWAP_PHASE:
            return ((self.hl[(self.mover + len(self.given)) % self.n] + SEVENS)
                    & EIGHTS).bit_count()
        if phase == LEAD:
            p = self.hl[self.mover] + SEVENS
            if self._fits:
                return (p & FITS8[0]).bit_count() + (p & FITS8[1]).bit_count()
            return 2 * (p & EIGHTS).bit_count()
        if phase == FIRST:
            return self.n
        return 0

    def chance_outcomes(self) -> list[tuple[Action, Fraction]] | None:
        """Round 1's first player: each seat alike (ruling 1). Deals and rebuilds are
        shuffles (not enumerable)."""
        if self.phase == FIRST:
            return [(a, Fraction(1, self.n)) for a in FIRSTS[: self.n]]
        return None

    # --- checking ---------------------------------------------------------------------------
    def check(self, action: Action) -> None:
        """Every action is checked directly (no scan of the legal list); deals and rebuilds
        are checked as permutations of the cards they shuffle."""
        phase = self.phase
        t = type(action)
        if phase in (PLAY, CHAIN):
            if t is Play:
                c = action.card  # type: ignore[attr-defined]
                if type(c) is int and 0 <= c < N_KINDS and self._mask() >> (4 * c + 3) & 1:
                    return
            elif (t is Pass and phase == PLAY) or (t is Stop and phase == CHAIN):
                return
        elif phase == LEAD:
            if t is Lead:
                c, side = action.card, action.side  # type: ignore[attr-defined]
                if (
                    type(c) is int and 0 <= c < N_KINDS and side in (0, 1)
                    and self.count(self.mover, c)
                    and (not self._fits or FITS[side] >> c & 1)
                ):
                    return
        elif phase == SWAP_PHASE:
            if t is Give:
                c = action.card  # type: ignore[attr-defined]
                if type(c) is int and 0 <= c < N_KINDS and self.count(self.turn, c):
                    return
        elif phase == FIRST:
            if t is First and 0 <= action.seat < self.n:  # type: ignore[attr-defined]
                return
        elif phase == DEAL:
            if t is Deal:
                self._check_deal(action)  # type: ignore[arg-type]
                return
        elif phase == REBUILD and t is Rebuild:
            self._check_rebuild(action)  # type: ignore[arg-type]
            return
        self.refuse(action)

    def _check_deal(self, deal: Deal) -> None:
        n = self.n
        check_deal_size(deal.hands, n, R_SETUP)
        for s, h in enumerate(deal.hands):
            if len(h) != HAND_SIZE:
                raise IllegalActionError(
                    f"p{s} is dealt {len(h)} cards, not {HAND_SIZE}", rule=R_SETUP)
        given = sorted([c for h in deal.hands for c in h] + list(deal.deck))
        if tuple(given) != ALL_CARDS:
            raise IllegalActionError(
                "the hands and the deck must be the 60 cards; " + _diff(given, ALL_CARDS),
                rule=R_SETUP,
            )

    def _check_rebuild(self, rebuild: Rebuild) -> None:
        pool = self.pool()
        given = sorted(rebuild.deck)
        if tuple(given) != pool:
            raise IllegalActionError(
                f"the new deck must be the {len(pool)} cards of the field under its top and "
                f"the discard pile ({cards_text(pool)}) in some order; {_diff(given, pool)}",
                rule=R_REBUILD,
            )

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        phase, t = self.phase, type(action)
        if phase == OVER:
            return ("the game is over", "end")
        if phase == FIRST:
            if t is First:
                return (f"there is no seat p{action.seat} in a {self.n}-player game",
                        R_SETUP)
            return ("the dealer must draw the first player", R_SETUP)
        if phase == DEAL:
            return (f"round {self.round} starts with the dealer's deal", R_SETUP)
        if phase == REBUILD:
            return ("the deck is empty: the dealer must rebuild it from the field under its "
                    "top card and the discard pile", R_REBUILD)
        if t in (First, Deal, Rebuild):
            return ("that is a dealer action", R_TURN)
        seat = self.turn
        who = actor_name(seat)  # type: ignore[arg-type]
        card = getattr(action, "card", None)
        if phase == SWAP_PHASE:
            if t is Give:
                return (f"{who} holds no {_token(card)}", R_HAND)
            return (f"{who} must choose a hand card for p{self.mover}'s Swap (give <card>)",
                    R_SWAP)
        if t is Give:
            return ("there is no Swap to answer", R_SWAP)
        hand = self.held(seat)  # type: ignore[arg-type]
        if phase == LEAD:
            if t is Pass:
                return (f"{who} must lead: a lead cannot be passed", R_LEAD)
            if t is Stop:
                return (f"{who} has not played yet: a lead is compulsory", R_LEAD)
            if t is Play:
                return (f"the field is empty: {who} leads, naming a side first "
                        f"(day {_token(card)} or night {_token(card)})", R_LEAD)
            if t is Lead:
                if not _held(hand, card):
                    return (f"{who} holds no {_token(card)}", R_HAND)
                if action.side not in (0, 1):
                    return ("the side is day or night", R_LEAD)
                return (f"with lead_fits, a {SIDE_NAME[action.side]} lead must be a "
                        f"{TYPE_NAME[action.side]} or Twai card, not {_token(card)}", R_LEAD)
            return (f"{action!r} is not a TOWAI action", R_TURN)
        # PLAY or CHAIN
        top = self.field[-1]
        side = self.side
        if t is Lead:
            return (f"the field is not empty (top {TOKEN[top]}): no side is chosen now",
                    R_FOLLOW if phase == PLAY else R_COMBO)
        if phase == PLAY:
            if t is Stop:
                return (f"{who} has not played this turn: play a card or pass", R_COMBO)
            if t is Play:
                if not _held(hand, card):
                    return (f"{who} holds no {_token(card)}", R_HAND)
                if not FITS[side] >> card & 1:
                    return (f"the side is {SIDE_NAME[side]}: only {TYPE_NAME[side]} or Twai "
                            f"cards follow, not {TOKEN[card]}", R_FOLLOW)
                if side == 0:
                    return (f"by day a follow is numbered {NUM[top]} or more (top "
                            f"{TOKEN[top]}), not {TOKEN[card]}", R_FOLLOW)
                return (f"by night a follow is numbered {NUM[top]} or less (top "
                        f"{TOKEN[top]}), not {TOKEN[card]}", R_FOLLOW)
        else:
            if t is Pass:
                return (f"{who} has played this turn: stop ends it (a combo is not passed)",
                        R_PASS)
            if t is Play:
                if not _held(hand, card):
                    return (f"{who} holds no {_token(card)}", R_HAND)
                if NUM[card] != NUM[top]:
                    return (f"a combo continues with the same number, {NUM[top]}, not "
                            f"{TOKEN[card]}", R_COMBO)
                return (f"the side is {SIDE_NAME[side]}: a {TYPE_NAME[TYPE[card]]} card does "
                        f"not fit it (combo)", R_COMBO)
        return (f"{action!r} is not a TOWAI action here", R_TURN)

    # --- playing ----------------------------------------------------------------------------
    # ``push`` plays the common actions inline and saves only what they change, as a tuple
    # tagged by its first item; everything else (going out, the turn cap, a Draw the deck
    # cannot serve, a Reset or Draw lead, dealer actions) saves a full snapshot (tag 0) and
    # takes the general path, ``_apply``. ``tests/test_towai_push.py`` checks that every
    # shortcut reaches the general path's position and that ``pop`` undoes it. The tags,
    # most frequent first in ``pop`` (counts in the perft file):
    #   1 a Twai play (side flips: combo, turn end or Swap), 2 a lead ending the turn,
    #   3 a Day/Night play ending the turn, 4 a pass, 5 a Swap choice, 6 a lead going on
    #   (combo or Swap), 7 the pass that restarts the field, 8 a Day/Night play going on,
    #   9 a stop, 10 the last Swap choice, 11 a Reset play, 12 a Draw play.
    # Literal tags and phases (3 PLAY, 4 CHAIN ...) save global look-ups on this path, and
    # ``field + (c,)`` is about 30 ns cheaper than ``(*field, c)`` (hence the RUF005 noqa).
    # The branches repeat their stores on purpose (hot path: benchmarks/test_towai.py::
    # test_towai_perft_suite_cold; tests/test_towai_push.py pins them to ``_apply``).
    def push(self, action: Action) -> None:
        self.history.append(action)
        t = type(action)
        if t is Play:
            c = action.card  # type: ignore[attr-defined]
            m = self.mover
            hl = self.hl
            own0 = hl[m]
            own = own0 - NIB[c]
            if own:  # not going out
                field = self.field
                if c < 10:  # a Day or Night card: the side stays
                    if own & _COMBO_ANY[self.side][c]:
                        self._undo.append((8, own0, field, self.last, self.passes, self.phase))
                        hl[m] = own
                        self.field = field + (c,)  # noqa: RUF005
                        self.last = m
                        self.passes = 0
                        self.phase = 4  # CHAIN
                        return
                    turns = self.turns
                    if turns + 1 < self._cap:
                        self._undo.append((3, own0, field, self.last, self.passes, self.phase, m,
                                           turns))
                        hl[m] = own
                        self.field = field + (c,)  # noqa: RUF005
                        self.last = m
                        self.passes = 0
                        self.phase = 3  # PLAY
                        self.turns = turns + 1
                        self.mover = self._next[m]
                        return
                elif c < 12 or c > 14:  # a Twai that only flips the side
                    side = self.side
                    if own & _COMBO_ANY[side ^ 1][c]:
                        self._undo.append((1, own0, field, self.last, self.passes, self.phase, m,
                                           self.turns, side))
                        hl[m] = own
                        self.side = side ^ 1
                        self.field = field + (c,)  # noqa: RUF005
                        self.last = m
                        self.passes = 0
                        self.phase = 4  # CHAIN
                        return
                    turns = self.turns
                    if turns + 1 < self._cap:
                        self._undo.append((1, own0, field, self.last, self.passes, self.phase, m,
                                           turns, side))
                        hl[m] = own
                        self.side = side ^ 1
                        self.field = field + (c,)  # noqa: RUF005
                        self.last = m
                        self.passes = 0
                        self.phase = 3  # PLAY
                        self.turns = turns + 1
                        self.mover = self._next[m]
                        return
                elif c == SWAP:  # the choices start with the mover's (given is empty)
                    side = self.side
                    self._undo.append((1, own0, field, self.last, self.passes, self.phase, m,
                                       self.turns, side))
                    hl[m] = own
                    self.side = side ^ 1
                    self.field = field + (c,)  # noqa: RUF005
                    self.last = m
                    self.passes = 0
                    self.phase = SWAP_PHASE
                    return
                elif c == RESET:  # the field goes to the discards; the mover leads again
                    d = self.discards
                    self._undo.append((11, own0, field, self.last, self.passes, self.phase,
                                       self.side, d))
                    d += NIB[c]
                    for x in field:
                        d += NIB[x]
                    hl[m] = own
                    self.discards = d
                    self.field = ()
                    self.last = -1
                    self.passes = 0
                    self.side = 0
                    self.phase = LEAD
                    return
                elif self._draw_inline(m, own, c):
                    return
        elif t is Lead:
            c = action.card  # type: ignore[attr-defined]
            m = self.mover
            hl = self.hl
            own0 = hl[m]
            own = own0 - NIB[c]
            if own and (c < 12 or c > 13):  # not going out, not a Draw or Reset
                side = action.side  # type: ignore[attr-defined]
                if c >= 10:
                    side ^= 1
                    if c == SWAP:
                        self._undo.append((6, own0))
                        hl[m] = own
                        self.side = side
                        self.field = (c,)
                        self.last = m
                        self.phase = SWAP_PHASE
                        return
                if own & _COMBO_ANY[side][c]:
                    self._undo.append((6, own0))
                    hl[m] = own
                    self.side = side
                    self.field = (c,)
                    self.last = m
                    self.phase = 4  # CHAIN
                    return
                turns = self.turns
                if turns + 1 < self._cap:
                    self._undo.append((2, own0, m, turns))
                    hl[m] = own
                    self.side = side
                    self.field = (c,)
                    self.last = m
                    self.phase = 3  # PLAY
                    self.turns = turns + 1
                    self.mover = self._next[m]
                    return
        elif t is Pass:
            deck = self._deck
            top = self._dtop
            turns = self.turns
            if top < len(deck) and turns + 1 < self._cap:
                m = self.mover
                hl = self.hl
                own0 = hl[m]
                passes = self.passes
                if passes + 2 < self.n:
                    self._undo.append((4, m, own0, top, passes, turns))
                    self.passes = passes + 1
                    self.mover = self._next[m]
                else:  # ruling 12: the last pass; the last player leads again
                    field = self.field
                    d = self.discards
                    self._undo.append((7, m, own0, top, passes, turns, d, field, self.last,
                                       self.side))
                    for x in field:
                        d += NIB[x]
                    self.discards = d
                    self.field = ()
                    self.passes = 0
                    self.side = 0
                    self.mover = self.last
                    self.last = -1
                    self.phase = LEAD
                hl[m] = own0 + NIB[deck[top]]
                self._dtop = top + 1
                self.turns = turns + 1
                return
        elif t is Give:
            given = self.given
            n = self.n
            m = self.mover
            k = len(given)
            c = action.card  # type: ignore[attr-defined]
            hl = self.hl
            if k < n - 1:
                s = (m + k) % n
                own0 = hl[s]
                self._undo.append((5, s, own0, given))
                hl[s] = own0 - NIB[c]
                self.given = given + (c,)  # noqa: RUF005
                return
            # the last choice: every card passes to the seat before its giver (ruling 10)
            new = hl[:]
            new[(m + k) % n] -= NIB[c]
            for i, g in enumerate((*given, c)):
                new[(m + i - 1) % n] += NIB[g]
            combo = new[m] & _COMBO_ANY[self.side][SWAP]
            turns = self.turns
            if combo or turns + 1 < self._cap:
                self._undo.append((10, hl, given, m, turns))
                self.hl = new
                self.given = ()
                if combo:
                    self.phase = 4  # CHAIN
                else:
                    self.turns = turns + 1
                    self.mover = self._next[m]
                    self.phase = 3  # PLAY
                return
        elif t is Stop:
            turns = self.turns
            if turns + 1 < self._cap:
                m = self.mover
                self._undo.append((9, m, turns))
                self.turns = turns + 1
                self.mover = self._next[m]
                self.phase = 3  # PLAY
                return
        self._undo.append((0, *self._snap()))
        self._apply(action)

    def _draw_inline(self, m: int, own: int, c: int) -> bool:
        """``push``'s shortcut for a Draw played on a field when the deck serves every other
        seat (ruling 4: they draw in seat order from the next) and the play leaves the turn
        cap alone; False (nothing changed) otherwise."""
        deck = self._deck
        top = self._dtop
        n = self.n
        side = self.side
        turns = self.turns
        combo = own & _COMBO_ANY[side ^ 1][c]
        if len(deck) - top < n - 1 or not (combo or turns + 1 < self._cap):
            return False
        hl = self.hl
        new = hl[:]
        new[m] = own
        nxt = self._next
        s = m
        for k in range(top, top + n - 1):
            s = nxt[s]
            new[s] += NIB[deck[k]]
        self._undo.append((12, hl, self.field, self.last, self.passes, self.phase, m, turns,
                           side, top))
        self.hl = new
        self._dtop = top + n - 1
        self.side = side ^ 1
        self.field = (*self.field, c)
        self.last = m
        self.passes = 0
        if combo:
            self.phase = CHAIN
        else:
            self.phase = PLAY
            self.turns = turns + 1
            self.mover = nxt[m]
        return True

    def _apply(self, action: Action) -> None:
        """Play ``action`` by the general path (``push`` has saved a full snapshot). The fast
        paths of ``push`` must give the same position: ``tests/test_towai_push.py`` checks
        it."""
        t = type(action)
        if t is Play:
            self._play(action.card)  # type: ignore[attr-defined]
        elif t is Stop:
            self._end_turn()
        elif t is Pass:
            if self._draws((self.mover,), R_PASS):
                self._after_pass()
        elif t is Lead:
            self.side = action.side  # type: ignore[attr-defined]
            self._play(action.card)  # type: ignore[attr-defined]
        elif t is Give:
            self._give(action.card)  # type: ignore[attr-defined]
        elif t is Rebuild:
            self._rebuild(action.deck)  # type: ignore[attr-defined]
        elif t is Deal:
            self._deal(action)  # type: ignore[arg-type]
        elif t is First:
            self.first = action.seat  # type: ignore[attr-defined]
            self.phase = DEAL
        else:
            self.pop()
            raise TypeError(f"not a TOWAI action: {action!r}")

    def pop(self) -> Action:
        u = self._undo.pop()
        tag = u[0]
        if tag < 5:  # three levels of tests: fewer comparisons on average than one chain
            if tag == 1:
                (_, own0, self.field, self.last, self.passes, self.phase, m, self.turns,
                 self.side) = u
                self.mover = m
                self.hl[m] = own0
            elif tag == 2:
                _, own0, m, self.turns = u
                self.mover = m
                self.hl[m] = own0
                self.field = ()
                self.last = -1
                self.side = 0
                self.phase = LEAD
            elif tag == 3:
                _, own0, self.field, self.last, self.passes, self.phase, m, self.turns = u
                self.mover = m
                self.hl[m] = own0
            elif tag == 4:
                _, m, own0, self._dtop, self.passes, self.turns = u
                self.mover = m
                self.hl[m] = own0
            else:
                (
                    _, self.phase, self.mover, self.side, self.hl, self.field, self.discards,
                    self._deck, self._dtop, self.passes, self.last, self.wins, self.turns,
                    self.first, self.given, self.pending, self._present,
                ) = u  # = (0, *self._snap())
        elif tag < 9:
            if tag == 5:
                _, s, own0, self.given = u
                self.hl[s] = own0
            elif tag == 6:
                self.hl[self.mover] = u[1]
                self.field = ()
                self.last = -1
                self.side = 0
                self.phase = LEAD
            elif tag == 7:
                (_, m, own0, self._dtop, self.passes, self.turns, self.discards, self.field,
                 self.last, self.side) = u
                self.mover = m
                self.hl[m] = own0
                self.phase = PLAY
            else:
                _, own0, self.field, self.last, self.passes, self.phase = u
                self.hl[self.mover] = own0
        elif tag == 9:
            _, self.mover, self.turns = u
            self.phase = CHAIN
        elif tag == 10:
            _, self.hl, self.given, self.mover, self.turns = u
            self.phase = SWAP_PHASE
        elif tag == 11:
            _, own0, self.field, self.last, self.passes, self.phase, self.side, self.discards = u
            self.hl[self.mover] = own0
        else:
            (_, self.hl, self.field, self.last, self.passes, self.phase, self.mover, self.turns,
             self.side, self._dtop) = u
        return self.history.pop()

    def _play(self, c: int) -> None:
        """Rulings 3-5 and 8: the mover puts ``c`` on the field; an empty hand ends the
        round; a Twai flips the side and resolves its effect; then the combo goes on."""
        m = self.mover
        own = self.hl[m] - NIB[c]
        self.hl[m] = own
        self.field = (*self.field, c)
        self.last = m
        self.passes = 0
        if not own:
            self._win(m)
            return
        if c >= 10:  # a Twai
            self.side ^= 1
            if c == DRAW:
                n = self.n
                if self._draws(tuple((m + k) % n for k in range(1, n)), R_CHAIN):
                    self._chain_or_end()
                return
            if c == SWAP:
                self.phase = SWAP_PHASE
                self.given = ()
                return
            if c == RESET:
                self._clear_field()
                self.phase = LEAD
                self.side = 0
                return
        self._chain_or_end()

    def _chain_or_end(self) -> None:
        """Ruling 5: the player may go on with a card of the top card's number that fits the
        side; with none, the turn ends (the rulebook: no card to play ends the turn)."""
        if self.hl[self.mover] & _COMBO_ANY[self.side][self.field[-1]]:
            self.phase = CHAIN
        else:
            self._end_turn()

    def _clear_field(self) -> None:
        d = self.discards
        for c in self.field:
            d += NIB[c]
        self.discards = d
        self.field = ()
        self.last = -1
        self.passes = 0

    def _draws(self, seats: tuple[int, ...], resume: int) -> bool:
        """Each of ``seats`` draws the deck's top card in turn (ruling 11: an empty deck is
        rebuilt first if the pool has cards, else that draw is skipped). Returns False when
        the dealer must rebuild first (the rest waits in ``pending``)."""
        deck = self._deck
        top = self._dtop
        hl = self.hl
        for i, s in enumerate(seats):
            if top >= len(deck):
                if len(self.field) > 1 or self.discards:
                    self._dtop = top
                    self.pending = (resume, *seats[i:])
                    self.phase = REBUILD
                    return False
                continue
            hl[s] += NIB[deck[top]]
            top += 1
        self._dtop = top
        return True

    def _rebuild(self, deck: tuple[int, ...]) -> None:
        """Ruling 7: the new deck; the field keeps only its top card."""
        field = self.field
        self.field = field[-1:]
        self.discards = 0
        self.deck = deck
        resume, *seats = self.pending
        self.pending = ()
        self.phase = CHAIN if resume == R_CHAIN else PLAY
        if self._draws(tuple(seats), resume):
            if resume == R_PASS:
                self._after_pass()
            else:
                self._chain_or_end()

    def _after_pass(self) -> None:
        """Ruling 12: after the passer's draw, the pass counts; n-1 passes since the last
        play restart the field with that player's lead."""
        self.turns += 1
        if self.turns >= self._cap:
            self._cap_end()
            return
        self.passes += 1
        if self.passes >= self.n - 1:
            m = self.last
            self._clear_field()
            self.mover = m
            self.side = 0
            self.phase = LEAD
        else:
            self.mover = self._next[self.mover]
            self.phase = PLAY

    def _end_turn(self) -> None:
        """A stop: the turn ends, the next seat follows."""
        self.turns += 1
        if self.turns >= self._cap:
            self._cap_end()
            return
        self.mover = self._next[self.mover]
        self.phase = PLAY

    def _give(self, c: int) -> None:
        """Rulings 4 and 10: a Swap choice is set aside; after the last one every card
        passes at once to the seat before its giver."""
        n = self.n
        m = self.mover
        hl = self.hl
        hl[(m + len(self.given)) % n] -= NIB[c]
        given = (*self.given, c)
        if len(given) < n:
            self.given = given
            return
        for i, g in enumerate(given):
            hl[(m + i - 1) % n] += NIB[g]
        self.given = ()
        self._chain_or_end()

    def _cap_end(self) -> None:
        """Ruling 9: the fewest cards wins the round; ties go to the earliest seat counted
        from the seat after the round's first player (or from it: ``cap_tie=from``)."""
        n = self.n
        start = self.first if self.variant.cap_tie == "from" else self.first + 1
        order = [(start + k) % n for k in range(n)]
        self._win(min(order, key=self.hand_size))

    def _win(self, w: int) -> None:
        """Ruling 8: ``w`` wins the round; the game ends at the variant's round wins."""
        wins = list(self.wins)
        wins[w] += 1
        self.wins = tuple(wins)
        self.given = ()
        self.pending = ()
        self.mover = 0  # not written in the line between rounds
        if wins[w] >= self._goal:
            self.phase = OVER
        else:
            self.phase = DEAL
            self.first = (w + 1) % self.n

    def _deal(self, deal: Deal) -> None:
        self.hl = [counts_of(cards) for cards in deal.hands]
        self.deck = deal.deck
        self.field = ()
        self.discards = 0
        self.given = ()
        self.pending = ()
        self._present = _FULL
        self.phase = LEAD
        self.mover = self.first
        self.side = 0
        self.last = -1
        self.passes = 0
        self.turns = 0

    # --- invariants -----------------------------------------------------------------------
    def check_invariants(self) -> None:
        n = self.n
        assert len(self.hl) == n, "one hand a seat"
        for zone in self.hl:
            assert 0 <= zone < 1 << SEAT_BITS, "a hand out of range"
            for c in range(N_KINDS):
                assert count_of(zone, c) <= 4, "more than four copies in a hand"
        if self.phase == FIRST:
            assert not any(self.hl) and not self.field and not self.deck and not self.discards
            return
        assert self.in_play() == self._present, "a card was lost or duplicated"
        assert len(self.given) < n
        phase = self.phase
        if phase in (PLAY, CHAIN, SWAP_PHASE):
            assert (self.field and self.last == self.mover) or phase == PLAY
            assert self.field, "a follow or combo needs a field"
        if phase == CHAIN:
            assert self._mask(), "a combo goes on only with a card to continue it"
        if phase == LEAD:
            assert not self.field and self.side == 0
        if phase == REBUILD:
            assert not self.deck and self.pending
        if phase in (LEAD, PLAY, CHAIN, SWAP_PHASE, REBUILD):
            assert self.turns < self._cap
        if phase in (LEAD, PLAY, CHAIN, REBUILD):
            assert all(self.hand(s) for s in range(n)), "every player in a round holds cards"

    # --- text -----------------------------------------------------------------------------
    def _phase_token(self, seat: int | None) -> str:
        p = self.phase
        if p in _MOVERLESS:
            return _MOVERLESS[p]
        m = self.mover
        if p == LEAD:
            return f"L{m}"
        if p == PLAY:
            return f"P{m}"
        if p == CHAIN:
            return f"C{m}"
        if p == SWAP_PHASE:
            if not self.given:
                return f"S{m}"
            n = self.n
            shown = "".join(
                TOKEN[c] if seat is None or (m + i) % n == seat else "?"
                for i, c in enumerate(self.given)
            )
            return f"S{m}:{shown}"
        resume, *seats = self.pending
        if resume == R_PASS:
            return f"R{m}:p"
        return f"R{m}:d" + "".join(str(s) for s in seats)

    def _fields(self, seat: int | None) -> list[str]:
        hands = []
        for s in range(self.n):
            z = self.hand(s)
            hands.append(cards_text(counts_cards(z)) if seat is None or s == seat
                         else "?" * self.hand_size(s) or "-")
        deck = cards_text(self.deck) if seat is None else "?" * len(self.deck) or "-"
        last = f"p{self.last}" if self.last >= 0 else "-"
        return [
            rules_spec(self.variant),
            self._phase_token(seat),
            SIDE_NAME[self.side],
            "/".join(hands),
            cards_text(self.field),
            deck,
            cards_text(counts_cards(self.discards)),
            f"{last}:{self.passes}",
            ",".join(str(w) for w in self.wins),
            f"f{self.first}t{self.turns}",
        ]

    def to_line(self) -> str:
        """``towai/1 <phase> <side> <hands> <field> <deck> <discards> <last>:<passes>
        <wins> f<first>t<turns>`` (see ``docs/rules/towai.md``)."""
        return " ".join(self._fields(None))

    def view(self, seat: int) -> str:
        return " ".join(self._fields(seat))

    def render(self, seat: int | None = None) -> str:
        """The picture for people; with ``seat``, only what that seat sees (the other
        hands as ``?``, as :meth:`view` hides them)."""
        n = self.n
        seen = "" if seat is None else f", as p{seat} sees it (hidden cards are ?)"
        lines = [f"TOWAI, {n} players, rules {rules_spec(self.variant)}, round {self.round} "
                 f"(first player p{self.first}), turn {self.turns + 1} (cap {self._cap})"
                 f"{seen}"]
        phase = self.phase
        if phase in (FIRST, DEAL, OVER):
            lines.append({FIRST: "the dealer draws the first player",
                          DEAL: f"the dealer shuffles and deals round {self.round}",
                          OVER: "game over"}[phase])
        else:
            what = {LEAD: "to lead (sets Day or Night)", PLAY: "to follow or pass",
                    CHAIN: f"combo of {NUM[self.field[-1]]}s: continue or stop" if self.field
                    else "", SWAP_PHASE: f"to choose a card for p{self.mover}'s Swap",
                    REBUILD: "the dealer rebuilds the deck"}[phase]
            who = "d" if self.turn == DEALER else f"p{self.turn}"
            lines.append(f"to move: {who} {what}")
        side = SIDE_NAME[self.side].upper() if phase != LEAD else "(free: the leader sets it)"
        top = f" (top {TOKEN[self.field[-1]]})" if self.field else ""
        lines.append(f"side: {side}   field: {' '.join(TOKEN[c] for c in self.field) or '-'}"
                     f"{top}")
        lines.append(f"deck: {len(self.deck)} cards   discards: "
                     f"{len(counts_cards(self.discards))} cards   passes since the last play: "
                     f"{self.passes}")
        if self.given:
            lines.append(f"set aside for the Swap: {len(self.given)} card(s)")
        for s in range(n):
            mark = ">" if s == self.turn else " "
            cards = self.hand_cards(s)
            shown = (' '.join(TOKEN[c] for c in cards) if seat is None or s == seat
                     else ' '.join("?" * len(cards)))
            lines.append(f"{mark} p{s}: {len(cards):>2} cards  {shown or '-':<30} "
                         f"round wins {self.wins[s]}{' (you)' if s == seat else ''}")
        res = self.result()
        if res is not None:
            lines.append("result: " + " ".join(f"p{s}={res.scores[s]} (#{res.ranks[s]})"
                                              for s in range(n)))
        return "\n".join(lines)


def _held(hand: int, card) -> bool:
    return type(card) is int and 0 <= card < N_KINDS and bool(hand >> card & 1)


def _token(card) -> str:
    return TOKEN[card] if type(card) is int and 0 <= card < N_KINDS else repr(card)


def _diff(given, wanted) -> str:
    """What ``given`` has too many of and lacks against ``wanted`` (for messages)."""
    return multiset_diff(given, wanted, cards_text)


__all__ = ["TowaiState", "clear_caches"]
