"""The Alice state machine. Rules as implemented: ``docs/rules/alice.md`` (rulings 1-20).

Every zone is an immutable value (ints, tuples); ``push`` saves one snapshot tuple of every
mutable field and ``pop`` restores it. Chance: the role deal, the opening deal and the ♥Q
redeal are single dealer actions; every draw from a deck is a dealer action naming the card
(the decks are unordered sets, so each draw is uniform over the deck: enumerable).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations, compress, permutations

from kifu.core.errors import IllegalActionError, VariantError
from kifu.core.game import DEALER, Action, Result, State, actor_name, check_deal_size
from kifu.games.alice.actions import (
    ADJUSTS,
    CARDS,
    CHARS,
    DISCARDS,
    DRAWS,
    DRINK,
    PASS,
    PLAYS,
    SWAP_KEEP,
    SWAP_TAKE,
    Adjust,
    Buy,
    Card,
    Char,
    Deal,
    Discard,
    Draw,
    Drink,
    Pass,
    Play,
    Roles,
    Swap,
)
from kifu.games.alice.cards import (
    ADJ,
    CODE_RANK,
    CODE_SUIT,
    CODE_TYPE,
    FX_BUY,
    FX_POOL,
    FX_TELL,
    N_CODES,
    NOUN,
    SK_ALICE,
    SK_CAT,
    SK_CATERPILLAR,
    SK_HATTER,
    SK_QUEEN,
    SK_RABBIT,
    TOKEN,
    TYPE_NAMES,
    VERB,
    tables,
)
from kifu.games.alice.layout import (
    A1,
    A2,
    ADJUST,
    BARD,
    BUY,
    CHAR,
    CLEAN,
    DEAL,
    DEALER_PHASES,
    DRAW,
    FORCED,
    N1,
    N2,
    NONE,
    OVER,
    PLAY,
    POOL,
    ROLES,
    SLOT_TYPE,
    SLOTS,
    SWAP,
    SYSTEM,
    V,
    party,
)
from kifu.games.alice.layout import (
    PHASES as PHASES,  # re-exported: other modules read the phase names here
)
from kifu.games.alice.text import render as render_text
from kifu.games.alice.text import write_line
from kifu.games.alice.variant import AliceVariant

HAND = 4
HATTER_HAND = 5
DEAL_SHAPE = ((NOUN, 2), (VERB, 1), (ADJ, 2))

R_SETUP = "alice 1: setup"
R_SENTENCE = "alice 2: the sentence"
R_FILL = "alice 3: fill blanks first"
R_COVER = "alice 3: cover with the same suit or rank"
R_BARD = "alice 8: the Bard plays a verb"
R_CHECK = "alice 12: the check"
R_SWAP = "alice 13: swap"
R_BUY = "alice 16: the merchant (buy)"
R_CLEAN = "alice 17: Clean Phase"
R_HAND = "alice: play a card you hold"
R_TURN = "turn"

EMPTY5: tuple[tuple[int, ...], ...] = ((), (), (), (), ())
NOOWN = (NONE,) * 5


TYPE_BITS = tuple(((1 << 52) - 1) << 52 * t for t in range(3))
"""The bits of each deck type's codes (nouns 0-51, verbs 52-103, adjectives 104-155)."""
_NOUNS, _VERBS, _ADJS = TYPE_BITS
DRAWING = frozenset((DRAW, FORCED))
"""The phases where the dealer draws a card from a deck."""
TYPE_SLOTS = ((N1, N2), (V,), (A1, A2))
"""The sentence slots of each deck type."""
_RANGE = range(N_CODES)
_01 = bytes.maketrans(b"01", b"\0\1")
_UNIFORM: dict[int, Fraction] = {}
"""``Fraction(1, k)`` by ``k``, made once each: a uniform draw's probability
(``chance_outcomes``), equal values, one object shared."""


def bits(cards: Iterable[int]) -> int:
    """A set of card codes as an int, bit ``c`` for code ``c``."""
    x = 0
    for c in cards:
        x |= 1 << c
    return x


def selectors(x: int) -> bytes:
    """Byte ``c`` is 1 if bit ``c`` of ``x`` is set, else 0 (for ``itertools.compress``)."""
    return bin(x)[:1:-1].encode().translate(_01)


def codes(x: int) -> tuple[int, ...]:
    """The card codes in the set of bits ``x``, ascending."""
    return tuple(compress(_RANGE, selectors(x)))


def _without(hand: tuple[int, ...], code: int) -> tuple[int, ...]:
    i = hand.index(code)
    return hand[:i] + hand[i + 1:]


def _with(hand: tuple[int, ...], code: int) -> tuple[int, ...]:
    return tuple(sorted((*hand, code)))


def _set(t: tuple, i: int, v) -> tuple:
    return (*t[:i], v, *t[i + 1:])


def _cards_in(mask: str, doc: str) -> property:
    """A property reading the card mask attribute ``mask`` as sorted codes (and setting it
    from any codes): the engine keeps the mask, the text and the worlds read the codes."""

    def get(self: AliceState) -> tuple[int, ...]:
        return codes(getattr(self, mask))

    def set_(self: AliceState, cards: Iterable[int]) -> None:
        setattr(self, mask, bits(cards))

    return property(get, set_, doc=doc)


class AliceState(State):
    __slots__ = (
        "_dc", "_dk", "_tb", "_undo", "acted", "adj", "bard", "cat_used", "chars", "cidx",
        "cstart", "dtype", "fx", "hands", "lose", "nextbard", "opp", "out", "owners", "phase",
        "prerev", "roles", "shown", "slots", "sp", "story", "sys_sp", "trace", "turn", "turns",
        "win", "winners",
    )

    def __init__(self, n: int, variant: AliceVariant):
        super().__init__(n, variant)
        self._tb = tables(variant.cards)
        need = {NOUN: 2 * n, VERB: n, ADJ: 2 * n}
        for t, k in need.items():
            have = sum(1 for c in self._tb.deck_all if CODE_TYPE[c] == t)
            if have < k:
                raise VariantError(f"card set {variant.cards!r} has {have} {TYPE_NAMES[t]} "
                                   f"cards; {n} players need at least {k}")
        if len(self._tb.role_letters) < n:
            raise VariantError(f"card set {variant.cards!r} has {len(self._tb.role_letters)} "
                               f"roles; {n} players need {n}")
        self.phase = ROLES
        self.turn: int | None = DEALER
        self.roles: tuple[int, ...] = ()
        self.shown = 0
        """Seats whose role is face up (a bitmask)."""
        self.sp: tuple[int, ...] = (0,) * n
        self.sys_sp = 0
        self.hands: tuple[tuple[int, ...], ...] = ((),) * n
        self.chars: tuple[int, ...] = (NONE,) * n
        self.bard = NONE
        self.slots = EMPTY5
        """Each slot's pile, bottom first; N1's bottom is the Bard's Character."""
        self.owners = NOOWN
        self.acted = 0
        self.out = 0
        self.cat_used = False
        self._dc = 0
        """The discard pile as a set of bits (bit ``c`` for card code ``c``)."""
        self.story: tuple[int, ...] = ()
        self._dk = self._tb.deck_bits
        """The decks as a set of bits; a type's cards are 52 bits (``TYPE_BITS``)."""
        self.turns = 0
        # the check and what follows it
        self.win = NONE
        self.lose = NONE
        self.opp = NONE
        self.prerev = False
        self.adj = (0, 0)
        self.fx: tuple[tuple[int, int], ...] = ()
        self.cstart = 0
        self.cidx = 0
        self.dtype = NONE
        self.nextbard = NONE
        self.winners = 0
        self.trace: list[tuple[int, str, str]] | None = None
        """If a list, the engine appends (ply, tag, text) for each rule event (for fixture
        comments and tests; ``pop`` does not undo it)."""

    def _note(self, tag: str, text: str) -> None:
        if self.trace is not None:
            self.trace.append((len(self.history), tag, text))

    def _role_title(self, seat: int) -> str:
        from kifu.games.alice.cards import card_set

        return card_set(self.variant.cards).roles[self.roles[seat]].title

    # --- snapshots ----------------------------------------------------------------------
    def _snap(self) -> tuple:
        return (self.phase, self.turn, self.roles, self.shown, self.sp, self.sys_sp,
                self.hands, self.chars, self.bard, self.slots, self.owners, self.acted,
                self.out, self.cat_used, self._dc, self.story, self._dk, self.turns,
                self.win, self.lose, self.opp, self.prerev, self.adj, self.fx, self.cstart,
                self.cidx, self.dtype, self.nextbard, self.winners)

    def _restore(self, s: tuple) -> None:
        (self.phase, self.turn, self.roles, self.shown, self.sp, self.sys_sp,
         self.hands, self.chars, self.bard, self.slots, self.owners, self.acted,
         self.out, self.cat_used, self._dc, self.story, self._dk, self.turns,
         self.win, self.lose, self.opp, self.prerev, self.adj, self.fx, self.cstart,
         self.cidx, self.dtype, self.nextbard, self.winners) = s

    # --- whose turn, the end ------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self.turn

    def turn_note(self) -> str:
        return {
            CHAR: "to choose a Character", BARD: "as the Bard, to open the sentence",
            ADJUST: "to use the Caterpillar's +-1", SWAP: "to choose whether to swap roles",
            BUY: "to use the merchant (buy or pass)", CLEAN: "in the Clean Phase",
        }.get(self.phase, "")

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        if self.winners:
            keys = tuple((1, 0) if self.winners >> s & 1 else (0, self.sp[s])
                         for s in range(self.n))
            return Result.from_keys(self.sp, keys)
        return Result.from_keys(self.sp)

    # --- queries ------------------------------------------------------------------------
    def skill(self, seat: int) -> int:
        """The skill of ``seat``'s role if it is revealed, else -1 (skills need a face-up
        role)."""
        if seat >= self.n or not self.shown >> seat & 1:
            return -1
        return self._tb.role_skill[self.roles[seat]]

    def limit(self, seat: int) -> int:
        return HATTER_HAND if self.skill(seat) == SK_HATTER else HAND

    def top(self, slot: int) -> int:
        pile = self.slots[slot]
        return pile[-1] if pile else NONE

    def complete(self) -> bool:
        return all(self.slots)

    deck = _cards_in("_dk", "The cards in the decks (every type), sorted.")
    discard = _cards_in("_dc", "The discard pile, sorted.")

    def can_draw(self, t: int) -> bool:
        return bool((self._dk | self._dc) & TYPE_BITS[t])

    def _deck_of(self, t: int) -> tuple[int, ...]:
        return codes(self._dk & TYPE_BITS[t])

    def totals(self) -> tuple[int, int]:
        """The two sides' 21 totals with the Caterpillar's adjustments chosen so far."""
        r = CODE_RANK
        s = self.slots
        return (r[s[A1][-1]] + r[s[N1][-1]] + self.adj[0],
                r[s[A2][-1]] + r[s[N2][-1]] + self.adj[1])

    def _cover_ok(self, code: int, slot: int) -> bool:
        top = self.slots[slot][-1]
        return CODE_SUIT[code] == CODE_SUIT[top] or CODE_RANK[code] == CODE_RANK[top]

    def _cat_free(self, seat: int) -> bool:
        return not self.cat_used and self.skill(seat) == SK_CAT

    # --- legal actions ------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == PLAY:
            return self._plays(self.turn)  # type: ignore[arg-type]
        if ph == CLEAN:
            seat: int = self.turn  # type: ignore[assignment]
            hand = self.hands[seat]
            if len(hand) > self.limit(seat):
                return [DISCARDS[c] for c in hand]
            return [DRAWS[t] for t in range(3) if self.can_draw(t)]
        if ph in (DRAW, FORCED):
            return list(compress(CARDS, selectors(self._dk & TYPE_BITS[self.dtype])))
        if ph == BARD:
            verbs = [PLAYS[c][V] for c in self.hands[self.bard] if CODE_TYPE[c] == VERB]
            return verbs or [DRINK]  # type: ignore[list-item]
        if ph == CHAR:
            return [CHARS[c] for c in self.hands[self.turn] if CODE_TYPE[c] == NOUN]  # type: ignore[index]
        if ph == ADJUST:
            return [ADJUSTS[-1], ADJUSTS[0], ADJUSTS[1]]
        if ph == SWAP:
            return [SWAP_TAKE, SWAP_KEEP]
        if ph == BUY:
            hand = self.hands[self.turn]  # type: ignore[index]
            return [*(Buy(c) for c in combinations(hand, 3)), PASS]
        if ph == ROLES:
            return [Roles(p) for p in permutations(range(len(self._tb.role_letters)), self.n)]
        return []  # DEAL, POOL (not enumerable), OVER

    def _plays(self, seat: int) -> list[Action]:
        out: list[Action] = []
        slots = self.slots
        hand = self.hands[seat]
        if not all(slots):
            for c in hand:
                t = CODE_TYPE[c]
                for i in range(5):
                    if not slots[i] and SLOT_TYPE[i] == t:
                        out.append(PLAYS[c][i])
        else:
            cat = self._cat_free(seat)
            for c in hand:
                t = CODE_TYPE[c]
                su, rk = CODE_SUIT[c], CODE_RANK[c]
                for i in range(5):
                    if SLOT_TYPE[i] == t:
                        top = slots[i][-1]
                        if cat or CODE_SUIT[top] == su or CODE_RANK[top] == rk:
                            out.append(PLAYS[c][i])
        out.append(DRINK)
        return out

    def _count_plays(self, seat: int) -> int:
        """``len(self._plays(seat))``, counted without building the actions: the leaves of
        the playing-phase positions of benchmarks/test_perft.py (fixtures/perft/alice.perft);
        tests/test_alice_push.py checks it against ``_plays``."""
        slots = self.slots
        hand = self.hands[seat]
        if not all(slots):
            free = (not slots[N1]) + (not slots[N2]), not slots[V], \
                (not slots[A1]) + (not slots[A2])
            k = 1
            for c in hand:
                k += free[CODE_TYPE[c]]
            return k
        if self._cat_free(seat):
            return 1 + sum(2 - (CODE_TYPE[c] == VERB) for c in hand)
        k = 1
        for c in hand:
            su, rk = CODE_SUIT[c], CODE_RANK[c]
            for i in TYPE_SLOTS[CODE_TYPE[c]]:
                top = slots[i][-1]
                if CODE_SUIT[top] == su or CODE_RANK[top] == rk:
                    k += 1
        return k

    def count_legal(self) -> int:
        ph = self.phase
        # The Clean Phase first, ``limit`` inline: nearly every leaf of benchmarks/
        # test_perft.py (the 3p-clean position); tests/test_alice_push.py compares the count
        # with legal_actions() at every node it visits.
        if ph == CLEAN:
            seat: int = self.turn  # type: ignore[assignment]
            k = len(self.hands[seat])
            if k > (HATTER_HAND if self.shown >> seat & 1 and
                    self._tb.role_skill[self.roles[seat]] == SK_HATTER else HAND):
                return k
            x = self._dk | self._dc
            return (x & _NOUNS != 0) + (x & _VERBS != 0) + (x & _ADJS != 0)
        if ph == PLAY:
            return self._count_plays(self.turn)  # type: ignore[arg-type]
        if ph in DRAWING:
            return (self._dk & TYPE_BITS[self.dtype]).bit_count()
        return len(self.legal_actions())

    def chance_outcomes(self) -> list[tuple[Action, Fraction]] | None:
        ph = self.phase
        if ph in (DRAW, FORCED, ROLES):
            acts = self.legal_actions()
            k = len(acts)
            p = _UNIFORM.get(k)
            if p is None:
                p = _UNIFORM[k] = Fraction(1, k)
            return [(a, p) for a in acts]
        return None

    # --- checking -----------------------------------------------------------------------
    def check(self, action: Action) -> None:
        ph = self.phase
        if ph == OVER:
            raise IllegalActionError("the game is over", rule="end")
        if type(action) is Deal and ph in (DEAL, POOL):
            self._check_deal(action)
            return
        if ph == ROLES and type(action) is Roles:
            rs = action.roles
            k = len(self._tb.role_letters)
            if len(rs) == self.n and len(set(rs)) == self.n and all(0 <= r < k for r in rs):
                return
        elif ph in (DRAW, FORCED) and type(action) is Card:
            if self._dk >> action.code & 1 and CODE_TYPE[action.code] == self.dtype:
                return
        elif ph == BUY and type(action) is Buy:
            hand = self.hands[self.turn]  # type: ignore[index]
            cs = action.cards
            if len(set(cs)) == 3 and all(c in hand for c in cs) and list(cs) == sorted(cs):
                return
        elif action in self.legal_actions():
            return
        self.refuse(action)

    def _check_deal(self, deal: Deal) -> None:
        n = self.n
        hands = deal.hands
        check_deal_size(hands, n, R_SETUP)
        got = Counter(c for h in hands for c in h)
        if self.phase == DEAL:
            for s, h in enumerate(hands):
                shape = tuple(sum(1 for c in h if CODE_TYPE[c] == t) for t in range(3))
                if shape != (2, 1, 2):
                    raise IllegalActionError(
                        f"p{s}'s hand has {shape[0]} nouns, {shape[1]} verbs, {shape[2]} "
                        "adjectives: each player gets 2 nouns, 1 verb, 2 adjectives",
                        rule=R_SETUP)
            bad = [c for c in got if got[c] > 1 or not self._dk >> c & 1]
            if bad:
                raise IllegalActionError(
                    f"{TOKEN[min(bad)]} is not in the deck (or is dealt twice)", rule=R_SETUP)
            return
        pool = Counter(c for h in self.hands for c in h)
        total = sum(pool.values())
        start = self.cstart
        for s, h in enumerate(hands):
            want = total // n + (1 if (s - start) % n < total % n else 0)
            if len(h) != want:
                raise IllegalActionError(
                    f"the redeal gives p{s} {len(h)} cards, not {want}: {total} pooled cards "
                    f"are dealt evenly, the remainder one each from p{start}",
                    rule="alice 16: the pool (♥Q)")
        if got != pool:
            extra = sorted((got - pool).elements())
            missing = sorted((pool - got).elements())
            raise IllegalActionError(
                "the redeal must share out exactly the pooled hands: "
                + "; ".join(p for p in (
                    ("not pooled " + "".join(TOKEN[c] for c in extra)) if extra else "",
                    ("missing " + "".join(TOKEN[c] for c in missing)) if missing else "")
                    if p),
                rule="alice 16: the pool (♥Q)")

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        ph = self.phase
        t = type(action)
        if ph == OVER:
            return ("the game is over", "end")
        if ph in DEALER_PHASES:
            if ph == ROLES:
                if t is Roles:
                    return (f"deal {self.n} distinct roles of {self._tb.role_letters}, one "
                            "per seat", R_SETUP)
                return ("the dealer deals the roles first", R_SETUP)
            if ph in (DEAL, POOL):
                return ("the dealer must deal the hands (deal h0/h1/...)", R_SETUP)
            if t is Card:
                return (f"{TOKEN[action.code]} is not in the {TYPE_NAMES[self.dtype]} deck",
                        R_CLEAN if ph == DRAW else R_BARD)
            return (f"the dealer must name the {TYPE_NAMES[self.dtype]} drawn", R_CLEAN)
        seat: int = self.turn  # type: ignore[assignment]
        who = actor_name(seat)
        hand = self.hands[seat]
        code = getattr(action, "code", NONE)
        if t in (Char, Play, Discard) and code not in hand:
            return (f"{who} does not hold {TOKEN[code]}", R_HAND)
        if ph == CHAR:
            if t is Char:
                return (f"a Character is a noun, not {TOKEN[code]}", R_SETUP)
            return (f"{who} must choose a Character (char nS1)", R_SETUP)
        if ph == BARD:
            if t is Drink:
                return (f"the Bard {who} holds a verb and must play one", R_BARD)
            if t is Play:
                if CODE_TYPE[code] != VERB:
                    return (f"the Bard opens with a verb, not {TOKEN[code]}", R_BARD)
                return (f"the Bard's verb goes to V, not {SLOTS[action.slot]}", R_BARD)
            return (f"the Bard {who} must play a verb (vC8@V) or drink", R_BARD)
        if ph == PLAY:
            if t is Play:
                slot = action.slot
                if SLOT_TYPE[slot] != CODE_TYPE[code]:
                    return (f"{SLOTS[slot]} takes a {TYPE_NAMES[SLOT_TYPE[slot]]}, not "
                            f"{TOKEN[code]}", R_SENTENCE)
                if not self.complete():
                    blanks = [SLOTS[i] for i in range(5) if not self.slots[i]]
                    return (f"the sentence has blanks ({', '.join(blanks)}): fill a blank "
                            f"before covering {SLOTS[slot]}", R_FILL)
                top = TOKEN[self.slots[slot][-1]]
                return (f"{TOKEN[code]} cannot cover {top} on {SLOTS[slot]}: neither the same "
                        "suit nor the same rank", R_COVER)
            return (f"{who} must play a card (aH3@A1) or drink", R_TURN)
        if ph == ADJUST:
            return ("the Caterpillar chooses grow, stay or shrink", R_CHECK)
        if ph == SWAP:
            return (f"{who} won and chooses swap or keep", R_SWAP)
        if ph == BUY:
            if t is Buy:
                missing = [c for c in action.cards if c not in hand]
                if missing:
                    return (f"{who} does not hold {TOKEN[missing[0]]}", R_HAND)
                return ("buy names three different cards", R_BUY)
            return (f"{who} owns the merchant: buy three cards or pass", R_BUY)
        if ph == CLEAN:
            lim = self.limit(seat)
            if len(hand) > lim:
                return (f"{who} holds {len(hand)} cards and must discard down to {lim}",
                        R_CLEAN)
            if t is Draw:
                return (f"the {TYPE_NAMES[action.deck]} deck and its discards are empty",
                        R_CLEAN)
            return (f"{who} holds {len(hand)} cards and must draw up to {lim} (draw n/v/a)",
                    R_CLEAN)
        return (f"{action!r} is not legal here", "")

    # --- playing ------------------------------------------------------------------------
    def push(self, action: Action) -> None:
        t = type(action)
        ph = self.phase
        # Perft's hot path (benchmarks/test_perft.py, fixtures/perft/alice.perft: the
        # 3p-clean position makes ~97% of the suite's pushes, each a Clean Phase draw: Draw,
        # then the dealer's Card): both run inline with a short undo record (4 items for a
        # Card, 2 for a Draw; ``pop`` tells them by length) unless the Card ends the turn or
        # the Draw rebuilds a deck. tests/test_alice_push.py pins them to the general path.
        if t is Card and ph == DRAW and self.trace is None:
            code = action.code
            n = self.n
            i = self.cidx
            cs = self.cstart
            seat = (cs + i) % n
            hands = self.hands
            hand = hands[seat]
            j = bisect_left(hand, code)
            h = list(hands)
            h[seat] = hand[:j] + (code,) + hand[j:]  # noqa: RUF005 (cheaper than unpacking)
            dk = self._dk ^ 1 << code
            more = dk or self._dc
            shown = self.shown
            skills = self._tb.role_skill
            roles = self.roles
            j = i
            while j < n:  # _clean_next
                s = (cs + j) % n
                k = len(h[s])
                lim = HATTER_HAND if shown >> s & 1 and skills[roles[s]] == SK_HATTER \
                    else HAND
                if k > lim or (k < lim and more):
                    self._undo.append((self._dk, hands, self.dtype, i))
                    self.history.append(action)
                    self._dk = dk
                    self.hands = tuple(h)
                    self.dtype = NONE
                    self.cidx = j
                    self.phase = CLEAN
                    self.turn = s
                    return
                j += 1
        elif t is Draw and ph == CLEAN and self._dk & TYPE_BITS[action.deck]:
            self._undo.append((self.turn, self.dtype))
            self.history.append(action)
            self.phase = DRAW
            self.dtype = action.deck
            self.turn = DEALER
            return
        self._undo.append(self._snap())
        self.history.append(action)
        try:
            self._apply(action)
        except TypeError:
            self.pop()
            raise

    def _apply(self, action: Action) -> None:
        """The general path of ``push`` (after its snapshot): every action, every case."""
        t = type(action)
        ph = self.phase
        if t is Play:
            if ph == BARD:
                self._bard_verb(action.code)
            else:
                self._play(action.code, action.slot)
        elif t is Drink:
            self._drink()
        elif t is Card:
            self._card(action.code)
        elif t is Discard:
            seat = self.turn
            self.hands = _set(self.hands, seat, _without(self.hands[seat], action.code))
            self._dc |= 1 << action.code
            self._clean_next()
        elif t is Draw:
            self._draw(action.deck)
        elif t is Char:
            self._char(action.code)
        elif t is Roles:
            self.roles = action.roles
            self.phase = DEAL
        elif t is Deal:
            self._deal(action.hands)
        elif t is Adjust:
            self._adjust(action.delta)
        elif t is Swap:
            self._swap(action.take)
        elif t is Buy:
            self._buy(action.cards)
        elif t is Pass:
            self._run_fx()
        else:
            raise TypeError(f"not an Alice action: {action!r}")

    def pop(self) -> Action:
        undo = self._undo
        if not undo:
            raise IndexError("nothing to undo")
        u = undo.pop()
        k = len(u)
        if k == 4:  # push's Card shortcut
            self._dk, self.hands, self.dtype, self.cidx = u
            self.phase = DRAW
            self.turn = DEALER
        elif k == 2:  # push's Draw shortcut
            self.turn, self.dtype = u
            self.phase = CLEAN
        else:
            self._restore(u)
        return self.history.pop()

    # setup
    def _deal(self, hands: tuple[tuple[int, ...], ...]) -> None:
        if self.phase == DEAL:
            dealt = {c for h in hands for c in h}
            self._dk &= ~bits(dealt)
            self.hands = tuple(tuple(sorted(h)) for h in hands)
            self.phase = CHAR
            self.turn = 0
        else:  # the ♥Q redeal
            self._note("pool", f"pool: every hand pooled and dealt again from p{self.cstart}")
            self.hands = tuple(tuple(sorted(h)) for h in hands)
            self._run_fx()

    def _char(self, code: int) -> None:
        seat: int = self.turn  # type: ignore[assignment]
        self.hands = _set(self.hands, seat, _without(self.hands[seat], code))
        self.chars = _set(self.chars, seat, code)
        if seat + 1 < self.n:
            self.turn = seat + 1
            return
        # ruling 1: the lowest Character is the first Bard, ties by suit order
        self.bard = min(range(self.n), key=lambda s: (CODE_RANK[self.chars[s]],
                                                      CODE_SUIT[self.chars[s]]))
        self._start_turn()

    def _start_turn(self) -> None:
        b = self.bard
        self.slots = ((), (self.chars[b],), (), (), ())
        self.owners = (NONE, b, NONE, NONE, NONE)
        self.acted = 0
        self.out = 0
        self.cat_used = False
        # win, lose, opp and prerev keep the last check's outcome until the next check
        self.adj = (0, 0)
        self.fx = ()
        self.cstart = self.cidx = 0  # last turn's bookkeeping, cleared: one line per position
        self.nextbard = NONE
        self.phase = BARD
        self.turn = b

    # the playing phase
    def _bard_verb(self, code: int) -> None:
        b = self.bard
        self.hands = _set(self.hands, b, _without(self.hands[b], code))
        self.slots = _set(self.slots, V, (code,))
        self.owners = _set(self.owners, V, b)
        self.acted |= 1 << b
        self.phase = PLAY
        self._after_act(b)

    def _reveal_pay(self, seat: int) -> None:
        """Ruling 11: reveal, then lose 1 SP to the system unless a White Rabbit."""
        self.shown |= 1 << seat
        if self.skill(seat) == SK_RABBIT:
            self._note("rabbit", f"White Rabbit: p{seat}'s Drink me! costs no SP")
        elif self.sp[seat] > 0:
            self.sp = _set(self.sp, seat, self.sp[seat] - 1)
            self.sys_sp += 1

    def _drink(self) -> None:
        seat: int = self.turn  # type: ignore[assignment]
        self._reveal_pay(seat)
        self.out |= 1 << seat
        self.acted |= 1 << seat
        if self.phase == BARD:
            # ruling 8: the verb deck's top card fills V for the Bard
            if not self._dk & TYPE_BITS[VERB]:
                self._rebuild(VERB)
            self.phase = PLAY
            self._note("forced", f"the Bard p{seat} holds no verb: Drink me!, and the verb "
                       "deck's top card opens the sentence")
            if self._dk & TYPE_BITS[VERB]:
                self.phase = FORCED
                self.dtype = VERB
                self.turn = DEALER
            else:
                self._void()  # no verb anywhere: nothing can open the sentence
            return
        self._after_act(seat)

    def _play(self, code: int, slot: int) -> None:
        seat: int = self.turn  # type: ignore[assignment]
        pile = self.slots[slot]
        if pile and not self._cover_ok(code, slot):
            self.cat_used = True  # ruling 10: spent only when needed
            self._note("cat", f"Cheshire Cat: p{seat} covers {TOKEN[pile[-1]]} with "
                       f"{TOKEN[code]}, ignoring suit and rank")
        self.hands = _set(self.hands, seat, _without(self.hands[seat], code))
        self.slots = _set(self.slots, slot, (*pile, code))
        self.owners = _set(self.owners, slot, seat)
        self.acted |= 1 << seat
        self._after_act(seat)

    def _after_act(self, seat: int) -> None:
        n = self.n
        full = (1 << n) - 1
        if all(self.slots) and (self.acted | self.out) == full:
            self._start_check()
            return
        out = self.out
        for k in range(1, n + 1):
            s = (seat + k) % n
            if not out >> s & 1:
                self.phase = PLAY
                self.turn = s
                return
        self._void()

    def _card(self, code: int) -> None:
        self._dk ^= 1 << code
        self.dtype = NONE
        if self.phase == FORCED:
            b = self.bard
            self.slots = _set(self.slots, V, (code,))
            self.owners = _set(self.owners, V, b)
            self.phase = PLAY
            self._after_act(b)
        else:
            seat = (self.cstart + self.cidx) % self.n
            self.hands = _set(self.hands, seat, _with(self.hands[seat], code))
            self._clean_next()

    def _rebuild(self, t: int) -> None:
        """Ruling 5/17: an empty deck takes its type's discards (the deck is unordered)."""
        moved = self._dc & TYPE_BITS[t]
        self._dc ^= moved
        self._dk |= moved

    # the check
    def _start_check(self) -> None:
        b = self.bard
        o = self.owners[N2]
        self.opp = SYSTEM if o == b else o
        self.adj = (0, 0)
        if self.skill(b) == SK_CATERPILLAR:
            self.phase = ADJUST
            self.turn = b
        elif self.opp != SYSTEM and self.skill(self.opp) == SK_CATERPILLAR:
            self.phase = ADJUST
            self.turn = self.opp
        else:
            self._resolve()

    def _adjust(self, delta: int) -> None:
        seat = self.turn
        if delta:
            how = "adds 1 to" if delta > 0 else "takes 1 from"
            self._note("caterpillar", f"Caterpillar: p{seat} {how} its side's total")
        if seat == self.bard:
            self.adj = (delta, 0)
            if self.opp != SYSTEM and self.skill(self.opp) == SK_CATERPILLAR:
                self.turn = self.opp
                return
        else:
            self.adj = (self.adj[0], delta)
        self._resolve()

    def _gain(self, seat: int) -> bool:
        """``seat`` gains 1 SP and hides (ruling 4); the win test (ruling 20)."""
        self.sp = _set(self.sp, seat, self.sp[seat] + 1)
        self.shown &= ~(1 << seat)
        return self._win_test()

    def _lose1(self, seat: int) -> None:
        if self.sp[seat] > 0:
            self.sp = _set(self.sp, seat, self.sp[seat] - 1)
            self.sys_sp += 1

    def _win_test(self) -> bool:
        win = self._tb.role_win
        w = 0
        for s in range(self.n):
            if self.sp[s] >= win[self.roles[s]]:
                w |= 1 << s
        if w:
            self._note("role-win", "game over: " + ", ".join(
                f"p{s} ({self._role_title(s)}) reaches SP {self.sp[s]}"
                for s in range(self.n) if w >> s & 1))
            self.winners = w
            self.phase = OVER
            self.turn = None
            return True
        return False

    def _resolve(self) -> None:
        b, o = self.bard, self.opp
        t1, t2 = self.totals()
        ok1, ok2 = t1 <= 21, t2 <= 21
        if ok1 and (not ok2 or t1 > t2):
            w, lo = b, o
        elif ok2 and (not ok1 or t2 > t1):
            w, lo = o, b
        else:
            w = lo = NONE
        self.win, self.lose = w, lo
        if self.trace is not None:
            res = "no winner" if w == NONE else f"{party(w)} wins"
            self._note("check", f"check: the Bard p{b} {t1} against {party(o)} {t2}: {res}")
        # ruling 19: the next Bard
        if w != NONE:
            base = lo if lo != SYSTEM else b
        else:
            base = o if o != SYSTEM else b
        nb = (base + 1) % self.n
        while nb in (b, o):
            nb = (nb + 1) % self.n
        self.nextbard = nb
        self.cstart = w if w not in (NONE, SYSTEM) else b
        if w == NONE:
            self._after_swap()
            return
        # ruling 12: the winner gains, a revealed Queen's victim loses at the same moment
        if w == SYSTEM:
            self.sys_sp += 1
        else:
            if self.skill(w) == SK_QUEEN and lo != SYSTEM:
                self._note("queen", f"Queen of Hearts: p{w}'s victim p{lo} loses 1 SP")
                self._lose1(lo)
            if self._gain(w):
                return
        if lo != SYSTEM:
            self.prerev = bool(self.shown >> lo & 1)
            self.shown |= 1 << lo
            if self.prerev and w != SYSTEM:
                self.phase = SWAP
                self.turn = w
                return
        self._after_swap()

    def _swap(self, take: bool) -> None:
        if take:
            w, lo = self.win, self.lose
            r = list(self.roles)
            r[w], r[lo] = r[lo], r[w]
            self.roles = tuple(r)
            self.shown = (self.shown | 1 << w) & ~(1 << lo)
            self._note("swap", f"swap: p{w} takes p{lo}'s face-up {self._role_title(w)}")
            if self._win_test():
                return
        self._after_swap()

    def _after_swap(self) -> None:
        w, lo = self.win, self.lose
        eff = self._tb.effect
        tops = [p[-1] for p in self.slots]
        # ♣8 (tell), in sentence order, only with a winner (ruling 14)
        if w != NONE:
            for c in tops:
                if eff[c] == FX_TELL:
                    self._note("tell", f"{TOKEN[c]} (tell): the loser {party(lo)} also "
                               f"gives the winner {party(w)} 1 SP")
                    if lo == SYSTEM:
                        if self._gain(w):
                            return
                    elif self.sp[lo] > 0:
                        self._lose1(lo)
                        if w != SYSTEM:
                            self.sys_sp -= 1  # the SP goes to the winner, not the system
                            if self._gain(w):
                                return
        # Alice's skill (ruling 15)
        if len({CODE_SUIT[c] for c in tops}) == 4:
            for s in range(self.n):
                if self.skill(s) == SK_ALICE:
                    self._note("alice", f"Alice: the sentence shows four suits, p{s} "
                               "gains 1 SP")
                    if self._gain(s):
                        return
        # the sentence goes to the story; covered cards are discarded; the Character returns
        fx: list[tuple[int, int]] = []
        for c in tops:
            if eff[c] == FX_POOL:
                fx.append((FX_POOL, NONE))
        for i, c in enumerate(tops):
            if eff[c] == FX_BUY:
                fx.append((FX_BUY, self.owners[i]))
        self._clear_sentence(to_story=True)
        self.fx = tuple(fx)
        self._run_fx()

    def _clear_sentence(self, *, to_story: bool) -> None:
        story = list(self.story)
        gone = []
        char = self.chars[self.bard]
        for pile in self.slots:
            for j, c in enumerate(pile):
                if c == char:
                    continue
                if to_story and j == len(pile) - 1:
                    story.append(c)
                else:
                    gone.append(c)
        self.story = tuple(story)
        self._dc |= bits(gone)
        self.slots = EMPTY5
        self.owners = NOOWN

    def _void(self) -> None:
        """Ruling 18: no check; the sentence is discarded (the Character returns)."""
        self._note("void", "void turn: every active player is out and the sentence has "
                   "blanks")
        self._clear_sentence(to_story=False)
        self.win = self.lose = self.opp = NONE
        self.cstart = self.bard
        self.nextbard = (self.bard + 1) % self.n
        self.fx = ()
        self._start_clean()

    def _run_fx(self) -> None:
        while self.fx:
            kind, owner = self.fx[0]
            self.fx = self.fx[1:]
            if kind == FX_POOL:
                self.phase = POOL
                self.turn = DEALER
                return
            if len(self.hands[owner]) >= 3:
                self.phase = BUY
                self.turn = owner
                return
        self._start_clean()

    def _buy(self, cards: tuple[int, ...]) -> None:
        seat: int = self.turn  # type: ignore[assignment]
        self._note("buy", f"buy: p{seat} discards three cards for 1 SP")
        self.hands = _set(self.hands, seat, tuple(c for c in self.hands[seat] if c not in cards))
        self._dc |= bits(cards)
        if self._gain(seat):
            return
        self._run_fx()

    # the Clean Phase
    def _start_clean(self) -> None:
        self.cidx = 0
        self.dtype = NONE
        self._clean_next()

    def _clean_next(self) -> None:
        n = self.n
        shown = self.shown
        skills = self._tb.role_skill
        roles = self.roles
        while self.cidx < n:
            seat = (self.cstart + self.cidx) % n
            k = len(self.hands[seat])
            lim = HATTER_HAND if shown >> seat & 1 and skills[roles[seat]] == SK_HATTER \
                else HAND
            if lim == HATTER_HAND and k == lim and self.trace is not None and \
                    self.trace[-1][1] != "hatter":
                self._note("hatter", f"Mad Hatter: p{seat} keeps 5 cards")
            # some deck can be drawn iff a deck or the discard pile holds a card
            if k > lim or (k < lim and (self._dk or self._dc)):
                self.phase = CLEAN
                self.turn = seat
                return
            self.cidx += 1
        self._end_turn()

    def _draw(self, t: int) -> None:
        if not self._dk & TYPE_BITS[t]:
            self._rebuild(t)
        self.phase = DRAW
        self.dtype = t
        self.turn = DEALER

    def _end_turn(self) -> None:
        self.turns += 1
        self.dtype = NONE
        if self.turns >= self.variant.turns:
            self._note("limit", f"turn limit: {self.turns} turns played, the highest SP wins")
            self.phase = OVER
            self.turn = None
            self.winners = 0
            return
        self.bard = self.nextbard
        self._start_turn()

    # --- identity -----------------------------------------------------------------------
    def key(self) -> tuple:
        return (self.variant, self.n, *self._snap())

    def copy(self) -> AliceState:
        # written out, no shared helper (it would add a call to every copy; hot path:
        # benchmarks/test_bots.py::test_time_per_decision); pinned by
        # tests/test_properties.py::test_copy_is_independent
        s = AliceState.__new__(AliceState)
        s.n = self.n
        s.variant = self.variant
        s.history = []
        s._undo = []
        s._tb = self._tb
        s.trace = None
        s._restore(self._snap())
        return s

    def check_invariants(self) -> None:
        n = self.n
        have: Counter[int] = Counter()
        for h in self.hands:
            assert list(h) == sorted(h), "hand not sorted"
            have.update(h)
        have.update(c for c in self.chars if c != NONE)
        char = self.chars[self.bard] if self.bard != NONE else NONE
        for i, pile in enumerate(self.slots):
            for j, c in enumerate(pile):
                assert CODE_TYPE[c] == SLOT_TYPE[i], f"{TOKEN[c]} in slot {SLOTS[i]}"
                if i == N1 and j == 0:
                    assert c == char, "N1's bottom card is not the Bard's Character"
                    continue
                have[c] += 1
            assert bool(pile) == (self.owners[i] != NONE), f"slot {SLOTS[i]} owner"
        have.update(self.discard)
        have.update(self.story)
        have.update(self.deck)
        want = Counter(self._tb.deck_all)
        assert have == want, f"cards lost or duplicated: {sorted((have - want) + (want - have))}"
        assert all(v >= 0 for v in self.sp) and self.sys_sp >= 0, "negative SP"
        assert not self._dk & self._dc, "a card both in a deck and in the discard pile"
        if self.phase not in (ROLES, DEAL, CHAR):
            assert all(c != NONE and CODE_TYPE[c] == NOUN for c in self.chars)
        if self.phase in (PLAY, BARD, FORCED, ADJUST):
            assert self.slots[N1] and self.slots[N1][0] == char
        if self.phase == PLAY:
            assert not self.out >> self.turn & 1, "an out player to move"  # type: ignore[operator]
        assert 0 <= self.turns <= self.variant.turns
        assert len(self.roles) in (0, n) and len(set(self.roles)) == len(self.roles)

    # --- text ---------------------------------------------------------------------------
    def to_line(self) -> str:
        return write_line(self, None)

    view = write_line  # view(seat): the line with what ``seat`` cannot see hidden
    render = render_text
