"""The GRAPH-T state: hands as one packed int, the trick and stacks as tuples, push/pop with
an undo stack of immutable snapshots."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Collection
from fractions import Fraction
from itertools import chain
from operator import getitem

from kifu.core.errors import IllegalActionError
from kifu.core.game import DEALER, Action, Result, State, actor_name, check_deal_size
from kifu.games.graph_t import rules
from kifu.games.graph_t.actions import LEADS, Deal, Lead, Play
from kifu.games.graph_t.cards import (
    CARD_TOKEN,
    CMASK,
    COLOUR_CODES,
    COLOUR_NAMES,
    GBIT,
    GREY,
    HAND_BITS,
    HAND_MASK,
    LAYER,
    LAYER_BITS,
    LAYERS,
    N_CODES,
    N_PIDS,
    NONTOP,
    PLAY_COLOUR,
    PLAY_HEIGHT,
    PLAY_IS_GREY,
    PLAY_OK,
    PLAY_TOKEN,
    PRESENCE,
    G,
    deck_codes,
    hand_codes,
    hand_text,
    height_in_cards,
    plays_text,
)
from kifu.games.graph_t.variant import GraphTVariant, rules_spec

DEAL, LEAD, PLAY, OVER = range(4)
"""Phases: before the deal, before the first lead, playing, over."""

R_DEAL = "graph-t 1: deal"
R_OPEN = "graph-t 2: grey is open"
R_LEAD = "graph-t 3: lead a colour until grey is open"
R_FOLLOW = "graph-t 4: follow the led colour"
R_GREY_LEAD = "graph-t 5: follow a grey lead"
R_CARDS = "graph-t cards: a top-level card has no grey side"
R_HAND = "graph-t hand: play a card you hold"
R_TURN = "turn"

_NEXT = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(5))
_SHIFT = tuple(HAND_BITS * s for s in range(4))
_ZERO6 = (0, 0, 0, 0, 0, 0)
_UNARY = frozenset(sum(1 << (21 * j) for j in range(k)) for k in range(5))
_DISCARD: deque = deque(maxlen=0)
"""The undo stack of a forward-only state: appending to it keeps nothing."""
_DECKS = {black: deck_codes(black) for black in (False, True)}
"""The sorted colour deck with and without black (``deck_codes``), built once."""


_COUNT8 = {c: 1 << (8 * c) for c in range(N_CODES)}
"""A card code -> one copy of it in a *count int* (a byte per code)."""
_DECK_COUNT8 = {black: sum(_COUNT8[c] for c in deck) for black, deck in _DECKS.items()}
"""The count int of each colour deck."""
_FILL = tuple(
    tuple(sum(1 << (c + LAYER * j) for j in range(k)) for k in range(LAYERS + 1))
    for c in range(N_CODES)
)
"""``_FILL[code][k]``: the hand bits of ``k`` copies of ``code`` (layers fill from the
lowest). A deck holds at most ``LAYERS`` copies of a card, so a hand of a deal checked
against it does too."""


def _hand_of(codes: tuple[int, ...]) -> int:
    """The hand int of ``codes`` (any order): each card sets the lowest free layer bit."""
    h = 0
    for c in codes:
        b = 1 << c
        while h & b:  # another copy: the next layer (layers fill from the lowest)
            b <<= LAYER
        h |= b
    return h


_TRICKS: dict[tuple[int, ...], tuple[int, int, tuple[int, ...], int, tuple[int, ...]]] = {}
_TRICKS_TRUMP: dict[tuple[int, ...], tuple[int, int, tuple[int, ...], int, tuple[int, ...]]] = {}
_TRICKS_LIMIT = 1 << 16
"""Resolved tricks (``_resolve``), without and with ``grey_wins=trump``; bounded."""


_PID_BITS = 7
"""Bits a play takes in a trick code (every pid is below ``2 ** _PID_BITS``)."""
_TRICK_CODES: dict[int, tuple[int, int, tuple[int, ...], int, tuple[int, ...]]] = {}
_TRICK_CODES_TRUMP: dict[int, tuple[int, int, tuple[int, ...], int, tuple[int, ...]]] = {}
"""``_TRICKS`` keyed by trick codes (``run_moves``'s: an int hashes at no cost); bounded."""
_PLAY_BIT = tuple(
    (pid >> 1) + LAYER * (pid & 1) if PLAY_OK[pid] else HAND_BITS for pid in range(N_PIDS)
)
"""The bit of a play-set key that allows pid (``rules.key_has``); for a pid that is no
play (``PLAY_OK``), a bit above every key."""


def _trick_code(trick: tuple[int, ...]) -> int:
    """A trick (pids in play order) as one int: a leading 1, then 7 bits a play."""
    tc = 1
    for p in trick:
        tc = tc << _PID_BITS | p
    return tc


def _trick_of(tc: int) -> tuple[int, ...]:
    """The trick of a trick code (``_trick_code``'s inverse)."""
    out = []
    while tc > 1:
        out.append(tc & ((1 << _PID_BITS) - 1))
        tc >>= _PID_BITS
    return tuple(reversed(out))


def _resolve(
    trick: tuple[int, ...], trump: bool
) -> tuple[int, int, tuple[int, ...], int, tuple[int, ...]]:
    """A full trick's outcome: the index of the winning play, its colour, the plays of that
    colour (collected), their total height and the codes of the other plays (which leave)."""
    i = rules.trick_winner(trick, trump)
    wcol = PLAY_COLOUR[trick[i]]
    won = tuple(p for p in trick if PLAY_COLOUR[p] == wcol)
    lost = tuple(p >> 1 for p in trick if PLAY_COLOUR[p] != wcol)
    return i, wcol, won, sum(PLAY_HEIGHT[p] for p in won), lost


def _counted(c: Counter[int]) -> str:
    return " ".join(
        f"{CARD_TOKEN[code]}x{k}" if k > 1 else CARD_TOKEN[code] for code, k in sorted(c.items())
    )


class GraphTState(State):
    __slots__ = (
        "_anyone", "_trump", "_undo", "gone", "greyed", "hands", "heights", "leader", "phase",
        "stacks", "tgrey", "trick", "turn",
    )

    def __init__(self, n: int, variant: GraphTVariant):
        super().__init__(n, variant)
        self._trump = variant.grey_wins == "trump"
        self._anyone = variant.grey_open == "anyone"
        self.phase = DEAL
        self.hands = 0
        """Every hand in one int: seat ``s`` at bits ``HAND_BITS * s`` (see cards.py)."""
        self.trick: tuple[int, ...] = ()
        """The pids played in this trick, in play order from the leader."""
        self.leader = -1
        self.turn: int | None = DEALER
        self.greyed = 0
        """The seats that have made a grey play so far (a bitmask)."""
        self.tgrey = False
        """Whether a grey play has been made in this trick."""
        self.stacks: tuple[tuple[int, ...], ...] = ((),) * n
        """Each seat's collected plays (sorted pids); their colour says which stack."""
        self.heights: tuple[tuple[int, ...], ...] = (_ZERO6,) * n
        """Each seat's six stack heights in 1/60: red, yellow, sky, purple, black, grey."""
        self.gone: tuple[int, ...] = ()
        """Codes of the cards that left the game in play, in the order they left (a
        position read from a line lists them sorted). Only the card count of
        ``check_invariants`` reads it, so it is not kept sorted: a trick's end appends."""

    # --- whose turn, the end ----------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self.turn

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        # = Result.from_keys(scores, keys): each seat's key is its two tallest stacks, and
        # its rank 1 + how many keys are greater (the index of its first copy, best first)
        keys = []
        for hs in self.heights:
            s = sorted(hs, reverse=True)
            keys.append((s[0], s[1]))
        best_first = sorted(keys, reverse=True)
        return Result(
            tuple([k[0] for k in keys]), tuple([best_first.index(k) + 1 for k in keys])
        )

    # --- queries ----------------------------------------------------------------------
    def hand(self, seat: int) -> int:
        """The hand int of ``seat`` (see cards.py)."""
        return (self.hands >> _SHIFT[seat]) & HAND_MASK

    def hand_codes(self, seat: int) -> tuple[int, ...]:
        return hand_codes(self.hand(seat))

    def grey_open(self, seat: int | None = None) -> bool:
        """Ruling 2: whether ``seat`` (default: the leader) may lead a grey play."""
        if seat is None:
            seat = self.leader
        if seat < 0:
            return False
        if self._anyone:
            return self.greyed != 0
        return bool(self.greyed & ~(1 << seat))

    def _key_for_turn(self) -> int:
        """The play-set key of the player to move (play phase only)."""
        seat = self.turn
        p = (self.hands >> _SHIFT[seat]) & PRESENCE  # type: ignore[index]
        trick = self.trick
        if not trick:
            g = self.greyed
            if not self._anyone:
                g &= ~(1 << seat)  # type: ignore[operator]
            return rules.lead_key(p, g != 0)
        return rules.follow_key(p, PLAY_COLOUR[trick[0]], self.tgrey)

    # --- actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            return list(rules.plays_of(self._key_for_turn()))
        if phase == LEAD:
            return list(LEADS[: self.n])
        return []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]] | None:
        """The first leader: each seat alike (ruling 1). A deal is not enumerable."""
        if self.phase == LEAD:
            return [(a, Fraction(1, self.n)) for a in LEADS[: self.n]]
        return None

    def count_legal(self) -> int:
        phase = self.phase
        if phase == PLAY:
            return self._key_for_turn().bit_count()
        if phase == LEAD:
            return self.n
        return 0

    def check(self, action: Action) -> None:
        phase = self.phase
        t = type(action)
        if phase == PLAY and t is Play:
            pid = 2 * action.card + action.grey_side  # type: ignore[attr-defined]
            if 0 <= action.card < N_CODES and PLAY_OK[pid] and rules.key_has(  # type: ignore[attr-defined]
                self._key_for_turn(), pid
            ):
                return
        elif phase == LEAD and t is Lead and 0 <= action.seat < self.n:  # type: ignore[attr-defined]
            return
        elif phase == DEAL and t is Deal:
            self._check_deal(action)  # type: ignore[arg-type]
            return
        self.refuse(action)

    def _check_deal(self, deal: Deal) -> None:
        n = self.n
        check_deal_size(deal.hands, n, R_DEAL)
        sizes = set(map(len, deal.hands))
        deck = _DECKS[bool(self.variant.black)]
        if len(sizes) != 1:
            raise IllegalActionError(
                f"the hands must be the same size, not {'/'.join(str(len(h)) for h in deal.hands)}",
                rule=R_DEAL,
            )
        if tuple(sorted(chain.from_iterable(deal.hands))) == deck:
            return
        got = Counter(c for h in deal.hands for c in h)
        want = Counter(deck)
        if got != want:
            extra = got - want
            missing = want - got
            parts = []
            if extra:
                parts.append("too many " + _counted(extra))
            if missing:
                parts.append("missing " + _counted(missing))
            raise IllegalActionError(
                f"the deal must share out the {len(deck)} colour cards exactly: "
                + "; ".join(parts),
                rule=R_DEAL,
            )

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        phase = self.phase
        if phase == OVER:
            return ("the game is over", "end")
        if phase == DEAL:
            return ("the dealer must deal first", R_DEAL)
        if phase == LEAD:
            if type(action) is Lead:
                return (f"there is no seat p{action.seat} in a {self.n}-player game", R_DEAL)
            return ("the dealer must name the first leader", R_DEAL)
        if type(action) is not Play:
            return ("it is a player's turn to play a card", R_TURN)
        code, gs = action.card, action.grey_side
        if not 0 <= code < N_CODES:
            return (f"no card has code {code}", R_HAND)
        pid = 2 * code + gs
        token = PLAY_TOKEN[pid]
        if not PLAY_OK[pid]:
            what = "the grey card" if code == G else f"{CARD_TOKEN[code]} is a top-level card"
            return (f"{what}: it has no grey side", R_CARDS)
        seat = self.turn
        who = actor_name(seat)  # type: ignore[arg-type]
        hand = self.hand(seat)  # type: ignore[arg-type]
        if code == G and not self.variant.grey:
            return ("there are no grey cards in this game (rules grey=false)", R_DEAL)
        if not (hand >> code) & 1:
            return (f"{who} does not hold {CARD_TOKEN[code]}", R_HAND)
        col = PLAY_COLOUR[pid]
        if not self.trick:
            if col == GREY and not self.grey_open(seat):
                who_else = "anyone" if self._anyone else "another player"
                return (
                    f"{who} may not lead the grey play {token}: grey is not open until "
                    f"{who_else} has made a grey play",
                    R_LEAD,
                )
            return (f"{token} is not a legal lead", R_LEAD)
        led = PLAY_COLOUR[self.trick[0]]
        if led == GREY:
            return (f"a grey play was led and {who} can make one, so {token} may not be "
                    "played", R_GREY_LEAD)
        led_name = COLOUR_NAMES[led]
        extra = " (or make a grey play, as one was made in this trick)" if self.tgrey else ""
        return (
            f"{who} holds {led_name} and must follow {led_name} with its colour side"
            f"{extra}, not {token}",
            R_FOLLOW,
        )

    def push(self, action: Action) -> None:
        self._undo.append(
            (self.phase, self.hands, self.trick, self.leader, self.turn, self.greyed,
             self.tgrey, self.stacks, self.heights, self.gone)
        )
        self.history.append(action)
        t = type(action)
        if t is Play:
            self._play(2 * action.card + action.grey_side)  # type: ignore[attr-defined]
        elif t is Lead:
            self.leader = self.turn = action.seat  # type: ignore[attr-defined]
            self.phase = PLAY
        elif t is Deal:
            grey = self.variant.grey
            hands = 0
            for s, codes in enumerate(action.hands):  # type: ignore[attr-defined]
                h = _hand_of(codes)
                if grey:
                    h |= 1 << (G + LAYER * ((h >> G) & LAYER_BITS).bit_count())
                hands |= h << _SHIFT[s]
            self.hands = hands
            self.phase = LEAD
        else:
            self.pop()
            raise TypeError(f"not a GRAPH-T action: {action!r}")

    def forward_only(self) -> None:
        self._undo = _DISCARD  # type: ignore[assignment]

    def step(self, action: Action) -> int | None:
        """``check`` then ``push`` in one call. The deal (a record's first move) is checked
        and played in one run; a play goes through ``check`` and ``push``: the fast replay
        plays them in ``run_moves``, so ``step`` sees one only where that loop stops (an
        illegal play about to raise its error). ``tests/test_validate2_graph_t_step.py``
        compares the two ways."""
        if type(action) is Deal and self.phase == DEAL:
            # = _check_deal: n hands of one size sharing out the deck exactly, compared as
            # count ints (a byte per code: the hands hold len(deck) < 256 cards in all, so
            # no byte overflows); anything else goes the checked way for its error
            dealt = action.hands  # type: ignore[attr-defined]
            n = self.n
            black = bool(self.variant.black)
            if (
                len(dealt) == n
                and len(set(map(len, dealt))) == 1
                and len(dealt[0]) * n == len(_DECKS[black])
            ):
                try:
                    counts = [sum(map(_COUNT8.__getitem__, h)) for h in dealt]
                except (KeyError, TypeError):  # not card codes
                    counts = []
                if counts and sum(counts) == _DECK_COUNT8[black]:
                    undo = self._undo
                    if undo is not _DISCARD:
                        undo.append(
                            (DEAL, self.hands, self.trick, self.leader, self.turn, self.greyed,
                             self.tgrey, self.stacks, self.heights, self.gone)
                        )
                    self.history.append(action)
                    grey = self.variant.grey
                    hands = 0
                    for s, c8 in enumerate(counts):  # = push: _hand_of and the grey card
                        h = sum(map(getitem, _FILL, c8.to_bytes(N_CODES, "little")))
                        if grey:
                            h |= 1 << (G + LAYER * ((h >> G) & LAYER_BITS).bit_count())
                        hands |= h << _SHIFT[s]
                    self.hands = hands
                    self.phase = LEAD
                    return self.turn
        self.check(action)
        self.push(action)
        return self.turn

    def run_moves(
        self, moves: list, i: int, memo_get, actors: tuple[str, ...], resolve=None
    ) -> int:
        """Play ``moves[i:]`` (record moves: ``.actor``, ``.text``) while each is a plain
        legal play, and return the index of the first one not played (``len(moves)`` when
        all were). A move is plain when its actor is ``actors[mover]`` (the mover's token)
        and its action is a ``Play``: ``memo_get(text)`` (the fast replay path's memo of
        parsed texts) or, for a text the memo lacks, ``resolve(text)`` (parsed and
        memoised; None when the text does not parse). Each is checked and played exactly
        as ``step`` does, with the position in locals for the whole run (each seat's hand
        int, the stacks, heights and cards gone as lists, the won plays sorted into the
        stacks once at the end). Anything else (a text that does not parse, another
        actor, an illegal play) stops the run with the state as before that move, for the
        caller's checked step. Forward-only states only (others: returns ``i``).

        A copy of the turn logic kept for speed: ``benchmarks/test_validate.py``
        (``test_validate_over_parse_interleaved``) times it; ``tests/test_validate3_run.py``
        holds it to ``step`` (``check`` + ``push``) move by move, and
        ``tests/test_run_moves_mutations.py`` under changed rule constants and variants."""
        if self.phase != PLAY or self._undo is not _DISCARD:
            return i
        n = self.n
        nxt = _NEXT[n]
        hands = self.hands
        hl = [(hands >> _SHIFT[s]) & HAND_MASK for s in range(n)]  # each seat's hand int
        # the trick as an int code (``_trick_code``), its size and the colour led
        tc = _trick_code(self.trick)
        cnt = len(self.trick)
        led = PLAY_COLOUR[self.trick[0]] if cnt else -1
        seat: int = self.turn  # type: ignore[assignment]
        leader = self.leader
        greyed = self.greyed
        tgrey = self.tgrey
        anyone = self._anyone
        record = self.history.append
        trump = self._trump
        memo = _TRICK_CODES_TRUMP if trump else _TRICK_CODES
        play_t = Play
        keybit = _PLAY_BIT
        won_by: list[list[int]] | None = None  # per seat, the plays won in this run
        end = len(moves)
        while i < end:
            move = moves[i]
            if move.actor != actors[seat]:
                break
            action = memo_get(move.text)
            if action is None and resolve is not None:  # parsed and memoised now
                action = resolve(move.text)
            if type(action) is not play_t:
                break
            code = action.card
            pid = 2 * code + action.grey_side
            h = hl[seat]
            p = h & PRESENCE
            if cnt:  # = rules.follow_key
                if led == GREY:
                    key = (p & GBIT) | (p & NONTOP) << LAYER
                    if not key:
                        key = p
                else:
                    key = p & CMASK[led]
                    if not key:
                        key = p | (p & NONTOP) << LAYER
                    elif tgrey:
                        key |= (p & GBIT) | (p & NONTOP) << LAYER
            else:  # = rules.lead_key
                led = PLAY_COLOUR[pid] if 0 <= pid < N_PIDS else -1  # (checked below)
                g = greyed if anyone else greyed & ~(1 << seat)
                if g:
                    key = p | (p & NONTOP) << LAYER
                else:
                    key = p & COLOUR_CODES or p
            if not (0 <= code < N_CODES and key >> keybit[pid] & 1):
                break  # illegal (or no play): the caller's step raises the error
            record(action)
            hl[seat] = h ^ (1 << (code + ((h >> code) & LAYER_BITS).bit_length() - 1))
            if PLAY_IS_GREY[pid]:
                greyed |= 1 << seat
                tgrey = True
            tc = tc << _PID_BITS | pid
            cnt += 1
            i += 1
            if cnt < n:
                seat = nxt[seat]
                continue
            # the end of the trick, as _end_trick (rulings 6 and 7)
            r = memo.get(tc)
            if r is None:
                r = _resolve(_trick_of(tc), trump)
                if len(memo) >= _TRICKS_LIMIT:
                    memo.clear()
                memo[tc] = r
            k, wcol, won, add, lost = r
            if won_by is None:
                won_by = [[] for _ in range(n)]
                heights = list(map(list, self.heights))
                gone = list(self.gone)
            leader = seat = (leader + k) % n
            won_by[seat] += won
            heights[seat][wcol] += add
            if lost:
                gone += lost
            tc = 1
            cnt = 0
            tgrey = False
            if not any(hl):
                self.phase = OVER
                seat = None  # type: ignore[assignment]
                break
        hands = 0
        for s in range(n):
            hands |= hl[s] << _SHIFT[s]
        self.hands = hands
        self.trick = _trick_of(tc)
        self.turn = seat
        self.leader = leader
        self.greyed = greyed
        self.tgrey = tgrey
        if won_by is not None:
            stacks = []
            for st, w in zip(self.stacks, won_by, strict=True):
                if w:
                    w += st
                    w.sort()
                    st = tuple(w)
                stacks.append(st)
            self.stacks = tuple(stacks)
            self.heights = tuple(map(tuple, heights))
            self.gone = tuple(gone)
        return i

    def _play(self, pid: int) -> None:
        seat: int = self.turn  # type: ignore[assignment]
        shift = _SHIFT[seat] + (pid >> 1)
        x = (self.hands >> shift) & LAYER_BITS
        self.hands ^= 1 << (shift + x.bit_length() - 1)
        if PLAY_IS_GREY[pid]:
            self.greyed |= 1 << seat
            self.tgrey = True
        trick = (*self.trick, pid)
        n = self.n
        if len(trick) < n:
            self.trick = trick
            self.turn = _NEXT[n][seat]
            return
        self._end_trick(trick)

    def _end_trick(self, trick: tuple[int, ...]) -> None:
        """Rulings 6 and 7: the winner collects the plays of the winning colour, the rest
        leave the game; the winner leads next (or the game ends with the last card)."""
        memo = _TRICKS_TRUMP if self._trump else _TRICKS
        r = memo.get(trick)
        if r is None:
            r = _resolve(trick, self._trump)
            if len(memo) >= _TRICKS_LIMIT:
                memo.clear()
            memo[trick] = r
        i, wcol, won, add, lost = r
        w = (self.leader + i) % self.n
        stacks = list(self.stacks)
        stacks[w] = tuple(sorted(stacks[w] + won))
        self.stacks = tuple(stacks)
        heights = list(self.heights)
        hw = list(heights[w])
        hw[wcol] += add
        heights[w] = tuple(hw)
        self.heights = tuple(heights)
        if lost:
            self.gone += lost
        self.trick = ()
        self.tgrey = False
        self.leader = w
        if self.hands:
            self.turn = w
        else:
            self.turn = None
            self.phase = OVER

    def pop(self) -> Action:
        if not self._undo:
            raise IndexError("nothing to undo")
        (self.phase, self.hands, self.trick, self.leader, self.turn, self.greyed,
         self.tgrey, self.stacks, self.heights, self.gone) = self._undo.pop()
        return self.history.pop()

    # --- identity ---------------------------------------------------------------------
    def key(self) -> tuple:
        return (self.variant, self.n, self.phase, self.hands, self.trick, self.leader,
                self.greyed, self.stacks)

    def copy(self) -> GraphTState:
        # written out, no shared helper (it would add a call to every copy; hot path:
        # benchmarks/test_bots.py::test_time_per_decision); pinned by
        # tests/test_properties.py::test_copy_is_independent
        s = GraphTState.__new__(GraphTState)
        s.n = self.n
        s.variant = self.variant
        s.history = []
        s._undo = []
        s._trump = self._trump
        s._anyone = self._anyone
        s.phase = self.phase
        s.hands = self.hands
        s.trick = self.trick
        s.leader = self.leader
        s.turn = self.turn
        s.greyed = self.greyed
        s.tgrey = self.tgrey
        s.stacks = self.stacks
        s.heights = self.heights
        s.gone = self.gone
        return s

    def components(self) -> Counter[int]:
        """The cards in play since the deal: the colour deck and one grey card per player."""
        c = Counter(deck_codes(self.variant.black))
        if self.variant.grey:
            c[G] += self.n
        return c

    def check_invariants(self) -> None:
        n = self.n
        assert self.hands >> (HAND_BITS * n) == 0, "cards beyond the last seat"
        for s in range(n):
            h = self.hand(s)
            for code in range(N_CODES):
                x = (h >> code) & LAYER_BITS
                assert x in _UNARY, f"hand {s}: count layers of {CARD_TOKEN[code]} broken"
        if self.phase == DEAL:
            assert self.hands == 0 and not self.trick and not self.gone, "cards before the deal"
            assert all(not st for st in self.stacks), "stacks before the deal"
            return
        have: Counter[int] = Counter()
        for s in range(n):
            have.update(self.hand_codes(s))
        have.update(p >> 1 for p in self.trick)
        for st in self.stacks:
            have.update(p >> 1 for p in st)
        have.update(self.gone)
        assert have == self.components(), f"cards lost or duplicated: {have} != components"
        for s in range(n):
            hs = [0] * 6
            for p in self.stacks[s]:
                assert PLAY_OK[p], f"bad play {p} in a stack"
                hs[PLAY_COLOUR[p]] += PLAY_HEIGHT[p]
            assert tuple(hs) == self.heights[s], f"seat {s}: heights out of date"
            if hs[GREY]:
                assert self.greyed >> s & 1, f"seat {s} collected grey without a grey play"
        for p in self.trick:
            assert PLAY_OK[p], f"bad play {p} in the trick"
        assert self.tgrey == any(PLAY_IS_GREY[p] for p in self.trick), "tgrey out of date"
        sizes = [self.hand(s).bit_count() for s in range(n)]
        if self.phase in (PLAY, OVER):
            assert 0 <= self.leader < n
            played = [(s - self.leader) % n < len(self.trick) for s in range(n)]
            base = {sz + p for sz, p in zip(sizes, played, strict=True)}
            assert len(base) == 1, f"hand sizes {sizes} do not fit the trick"
            assert len(self.trick) < n
            if self.phase == OVER:
                assert self.hands == 0 and self.turn is None
            else:
                assert self.turn == (self.leader + len(self.trick)) % n
        else:
            assert len(set(sizes)) == 1 and self.turn == DEALER

    # --- text -------------------------------------------------------------------------
    def _line(self, masked: int | None, public: Collection[int] = ()) -> str:
        n = self.n
        hands = []
        for s in range(n):
            h = self.hand(s)
            if masked is not None and s != masked and s not in public:
                hands.append("?" * h.bit_count() or "-")
            else:
                hands.append(hand_text(hand_codes(h)))
        stacks = "/".join(plays_text(st) for st in self.stacks)
        leader = actor_name(self.leader) if self.leader >= 0 else "-"
        turn = "-" if self.turn is None else actor_name(self.turn)
        greyed = "".join(f"p{s}" for s in range(n) if self.greyed >> s & 1) or "-"
        return " ".join((
            rules_spec(self.variant), "/".join(hands), stacks, plays_text(self.trick),
            leader, turn, greyed,
        ))

    def to_line(self) -> str:
        return self._line(None)

    def view(self, seat: int, open_seats: Collection[int] = ()) -> str:
        """The line as ``seat`` sees it: every other hand masked, except the hands of the
        seats in ``open_seats`` (AI players, whose hands the book makes public)."""
        return self._line(seat, open_seats)

    def render(self, seat: int | None = None, open_seats: Collection[int] = ()) -> str:
        """The picture for people; with ``seat``, only what that seat sees (the other
        hands as ``?``, except those of ``open_seats``, as :meth:`view` hides them)."""
        n = self.n
        seen = "" if seat is None else f", as p{seat} sees it (hidden cards are ?)"
        lines = [f"GRAPH-T, {n} players, rules {self._line(None).split()[0]}{seen}"]
        phase = ("before the deal", "before the first lead", "playing", "over")[self.phase]
        lines.append(f"phase: {phase}")
        for s in range(n):
            mark = ""
            if self.turn == s:
                mark += " <- to move"
            if s == self.leader and self.phase == PLAY:
                mark += " (leader)"
            if s == seat:
                mark += " (you)"
            if seat is None or s == seat or s in open_seats:
                hand = hand_text(self.hand_codes(s))
            else:
                hand = "?" * self.hand(s).bit_count() or "-"
            lines.append(f"p{s} hand: {hand}{mark}")
        if self.phase in (PLAY, OVER):
            plays = [
                f"p{(self.leader + i) % n} {PLAY_TOKEN[p]}({height_in_cards(PLAY_HEIGHT[p])})"
                for i, p in enumerate(self.trick)
            ]
            lines.append("trick: " + (", ".join(plays) if plays else "-"))
            state = "open" if self.grey_open() else "not open"
            lines.append(f"grey for the leader: {state}")
        for s in range(n):
            hs = self.heights[s]
            cols = "  ".join(
                f"{COLOUR_NAMES[c]} {height_in_cards(hs[c])}" for c in range(6)
            )
            lines.append(f"p{s} stacks: {cols}")
        lines.append("heights in cards, as the rulebook counts them (the Result header "
                     "counts sixtieths of a card)")
        if self.phase == OVER:
            r = self.result()
            assert r is not None
            lines.append("result: " + " ".join(
                f"p{s} {r.scores[s]} (rank {r.ranks[s]})" for s in range(n)
            ))
        return "\n".join(lines)

