"""TWEAK's hidden history, for the exact posterior (:mod:`kifu.bots.posterior`): what a
seat does not see of the round so far, as cards in *slots*, and the replay that says
whether one filling of the slots agrees with everything the seat saw, assuming every other
seat plays ``greedy`` (deterministic: :class:`kifu.games.tweak.bots.GreedyBot`).

A round is fixed by its deal: the order of the round's number cards (dealt three passes
one at a time from the seat after the dealer, then two to the table, the rest the deck)
and the T! pile's order. Which deck position each card taken from the deck comes from is
public (the order of the dealing, the hand sizes, the table's refills), so the round is
one list of positions, each seen by the seat or not:

- seen (fixed at their cards): the seat's own dealt cards and draws, the table's first
  two cards and its refills, every card a Shifter turned up;
- hidden, back unknown: the other seats' dealt cards (the house model of what a seat
  sees, as :mod:`kifu.games.tweak.worlds`: the deal is one action, the backs of the cards
  dealt are never shown as a target);
- hidden, back known: every card another seat drew (its back was the target just before)
  and the deck's present top (the target now);
- hidden, nothing known: the deck below its top.

The slots code the hidden positions so that every exchange the chain proposes respects
the backs the seat saw (:class:`TweakHistory`: one group for the backs of the positions
of unknown back, one group per back for its cards). A slot is *used* when the replay may
read it: a dealt card, a card drawn so far, the deck's top and the card below it
(``greedy`` weighs a Shifter by playing it, which turns the top card up and shows the
next card's back), and every card of a back group. The rest only shuffles into the
present world's deck.

The T! pile is not a slot: the cards won so far are face up (its first ``tpos`` cards are
public), and no choice of ``greedy`` reads the rest (only whether the pile is empty), so
the rest is shuffled into each world.

A filling is consistent when, replayed from the round's deal, every action of another
seat (a turn's T! card, card played or capture, a card given up to a Bomb) is
``greedy``'s choice there, every card a Thief of the seat stole was in the victim's hand,
every position the seat saw the back of has that back, the same seat is to move at every
step and the present position looks the same from the seat (its view).

The model is exact against ``greedy`` opponents with one exception: a Thief's draw is a
chance event whose odds depend on the hidden hand (a card held twice is drawn with odds
2/size, once 1/size); the posterior is taken uniform over the consistent fillings, which
is exact when the victim held the stolen card once (the common case; ``greedy`` itself
never uses a Thief, so only the seat's own Thieves draw). :meth:`TweakHistory.
replay_weighted` gives each filling its weight (the copies), and a chain that weighs
(``expert:copies=1``) removes the exception.

A warm start (``expert:warm=1``): :meth:`TweakHistory.carry` maps a filling of the seat's
hidden history at an earlier decision of the round into the present one's slots.
"""

from __future__ import annotations

from collections import Counter

from kifu.core.game import DEALER, Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import round_start
from kifu.games.tweak.actions import Capture, Deal, Pass, Place, UseShifter
from kifu.games.tweak.bots import greedy_action
from kifu.games.tweak.cards import DEFAULT_BACKS
from kifu.games.tweak.state import HAND_SIZE, TABLE_REFILL, TURN, TweakState, _targets

DEALT, DRAWN, UNDRAWN = "dealt", "drawn", "undrawn"

GREEDY_MAX = 1 << 15
"""Choices of ``greedy`` a :class:`TweakHistory`'s replays keep (cleared when full)."""

CONSISTENT_MAX = 2048
"""States of consistent fillings a :class:`TweakHistory` keeps for :meth:`TweakHistory.world`
(cleared when full: a miss only replays again)."""


class TweakHistory:
    """The hidden history of the current round as ``seat`` sees it (module docstring).

    The hidden positions are coded so that every exchange the chain proposes respects
    the backs the seat saw (a swap of two cards of different backs into positions of
    known backs would only be refused): group 0 holds one slot per position of unknown
    back (an other seat's dealt card, the deck below its top), its "card" the back of
    the card there; group ``1 + j`` (the ``j``-th back of ``kinds``) holds the cards of
    that back, one slot per position of that known back, then one slot per card of that
    back at a position of unknown back (in position order: the ``i``-th position whose
    group-0 slot says that back holds the ``i``-th of these). That is a one-to-one coding
    of the fillings that respect the backs, so the chain's uniform target is still the
    uniform posterior over consistent fillings.

    ``slots[i]``: ``("back", pos, owner)`` (group 0), ``("card", pos, owner)`` (a known
    back) or ``("extra", back, j)``; ``owner``: the seat the position went to (``-1``
    undrawn); ``step[i]``: the round step it enters a hand at (0 the deal);
    ``used[i]``: the replay may read slot ``i``; ``steps``: the round's actions after the
    deal; ``pools[g]``: the cards of group ``g``."""

    def __init__(self, pre: TweakState, seat: int, deck_len: int, fixed: dict[int, int],
                 hidden: list[tuple[str, int, int, int | None, int]], tknown: tuple[int, ...],
                 trest: tuple[int, ...], actions: list, movers: list, targets: list[int],
                 present_dpos: int, pool: Counter[int]):
        self.pre = pre
        self.seat = seat
        self.n = pre.n
        self.backs = backs = pre.variant.backs or DEFAULT_BACKS
        self.deck_len = deck_len
        self.fixed = fixed
        self.actions = actions
        self.movers = movers
        self.targets = targets
        self.steps = len(actions)
        self.tknown = tknown
        self.trest = trest
        self.present_dpos = present_dpos
        kinds = sorted({backs[c] for c in pool})
        self.kinds = kinds
        gid = {b: 1 + j for j, b in enumerate(kinds)}
        by_back: Counter[int] = Counter()
        for c, k in pool.items():
            by_back[backs[c]] += k
        known_count = Counter(b for _k, _p, _o, b, _st in hidden if b is not None)
        slots: list[tuple] = []
        owner: list[int] = []
        step: list[int] = []
        used: list[bool] = []
        groups: list[list[int]] = [[] for _ in range(1 + len(kinds))]
        self.unknown_pos: list[int] = []  # group 0's positions, in order
        self.known_pos: list[int] = []  # the slot of each known position: its deck position
        self.known_slots: list[int] = []
        for kind, q, o, b, st in hidden:
            g = 0 if b is None else gid[b]
            groups[g].append(len(slots))
            slots.append(("back" if b is None else "card", q, o))
            owner.append(o)
            step.append(st)
            used.append(kind != UNDRAWN or q < present_dpos + 2)
            if b is None:
                self.unknown_pos.append(q)
            else:
                self.known_pos.append(q)
                self.known_slots.append(len(slots) - 1)
        self.extra: dict[int, list[int]] = {}
        pools: list[Counter[int]] = [Counter()] + [Counter() for _ in kinds]
        for b in kinds:
            extra = by_back[b] - known_count[b]
            pools[0][b] += extra
            self.extra[b] = []
            for j in range(extra):
                groups[gid[b]].append(len(slots))
                self.extra[b].append(len(slots))
                slots.append(("extra", b, j))
                owner.append(-2)
                step.append(0)
                used.append(True)
        for c, k in pool.items():
            pools[gid[backs[c]]][c] += k
        self.slots = slots
        self.owner = owner
        self.step = step
        self.used = used
        self.groups = groups
        self.pools = pools
        self.unknown_slots = groups[0]
        self.final_view = ""
        self.key: tuple = ()
        """The round (the deal's index in the history, the seat, the deal itself)."""
        base = [-1] * deck_len
        for p, c in fixed.items():
            base[p] = c
        self._base = base
        self._tpile = tknown + trest
        self._known_pairs = list(zip(self.known_pos, self.known_slots, strict=True))
        self._unknown_pairs = list(zip(self.unknown_pos, self.unknown_slots, strict=True))
        self._suspects: dict[tuple[int, int], tuple[list[int], set[int]]] = {}
        self._trails: list[tuple[tuple[int, ...], list[tuple], list[int]]] = []
        """The replay's trails (:meth:`replay_weighted`): (the deck, the snapshot and
        weight before each step it passed, how deep into the deck each may have read)."""
        self._chosen: dict[tuple, object] = {}
        """``greedy``'s choice in the replays by everything it reads (:meth:`replay_weighted`)."""
        self._views: dict[tuple, bool] = {}
        """Whether a present position looks as the seat saw it, by what its view reads."""
        self._consistent: dict[tuple[int, ...], TweakState] = {}
        """The state each consistent filling replayed to (by its cards; bounded): a chain
        replays every filling it keeps when it accepts it, so :meth:`world` need not
        replay it again (the replay is deterministic: the same state)."""

    # --- the prior -------------------------------------------------------------------
    def start(self, rng: Rng) -> list[int]:
        """A filling drawn from the prior given the backs the seat saw: every group's
        cards shuffled into its slots (uniform over the fillings that respect the
        backs: the coding is one-to-one)."""
        cards = [0] * len(self.slots)
        for g, idx in enumerate(self.groups):
            bag = rng.shuffled(list(self.pools[g].elements()))
            for i, c in zip(idx, bag, strict=True):
                cards[i] = c
        return cards

    # --- the replay ------------------------------------------------------------------
    def decode(self, cards: list[int], where: dict[int, int] | None = None) -> list[int]:
        """The round's deck (every position) with ``cards`` in the slots; ``where`` (when
        given) is filled with the slot holding the card of each hidden position."""
        deck = self._base[:]
        for q, i in self._known_pairs:
            deck[q] = cards[i]
        # the r-th position of unknown back b holds the r-th extra card of back b
        nxt = {b: iter(e).__next__ for b, e in self.extra.items()}
        if where is None:
            for q, i in self._unknown_pairs:
                deck[q] = cards[nxt[cards[i]]()]
            return deck
        for q, i in self._unknown_pairs:
            j = nxt[cards[i]]()
            deck[q] = cards[j]
            where[q] = j
        return deck

    def deal(self, cards: list[int]) -> Deal:
        """The round's deal with ``cards`` in the slots (the T! pile: its public part,
        then the rest in a fixed order the replay never reads)."""
        return Deal(tuple(self.decode(cards)), self._tpile)

    def replay(self, cards: list[int]) -> tuple[int, TweakState]:
        """Replays the round with ``cards`` in the slots: (the number of round steps that
        agree with what the seat saw, the state reached). All of them (``steps``) when the
        filling is consistent; else the state just before the first that does not. The
        state of a consistent filling is kept for :meth:`world`: read it, never change it."""
        k, s, _w = self.replay_weighted(cards)
        return k, s

    def replay_weighted(self, cards: list[int]) -> tuple[int, TweakState, int]:
        """:meth:`replay`, and the filling's weight: the product, over the seat's own
        Thief draws, of the copies of the stolen card the victim held (the draw's odds
        up to the hand's size, which the seat saw). A chain that accepts by these weights
        (:func:`kifu.bots.posterior.chain`) samples the exact posterior against
        ``greedy`` (the module's one inexactness, removed).

        Prefix reuse (issue 33, tenth session): the replay keeps a *trail* of the states
        it passed (a snapshot of the state's fields before every round step, with the
        weight so far, and how deep into the deck the replay may have read by then) for
        the last two decks it replayed from (the one it started from and the new one: a
        chain's proposal is refused more often than not, and the next proposal starts
        again from the filling before it). A filling whose deck agrees with a trail's on
        every position read before step ``c`` resumes from that trail's snapshot at
        ``c`` with its own deck set in (the steps before ``c`` read nothing else, so
        they went the same way and left the same state); :meth:`replay_plain` is the
        replay from the deal, which this equals (``tests/test_tweak_prefix.py``).

        ``greedy``'s choices are memoised by everything they read: on a turn, the mover,
        its hand, the table, its T! cards, whether it used one this turn, the Joker's
        shift, the target, the deck's top card and the back below it (a Shifter weighed),
        whether the T! pile has a card left (a TWEAK's bonus) and, when it may use a T!
        card, which hands are empty (a Thief's victims count among the legal actions:
        one legal action is played as it is); a Bomb's victim, its hand (its cheapest
        card). Most replays of a chain re-ask the same choices."""
        deck = tuple(self.decode(cards))
        deal = Deal(deck, self._tpile)
        best = -1
        base = None
        for trail in self._trails:
            c = _resume_at(trail, deck)
            if c > best:
                best, base = c, trail
        seat = self.seat
        movers = self.movers
        targets = self.targets
        actions = self.actions
        if base is None:
            s = self.pre.copy()
            s.push(deal)
            w = 1
            snaps: list[tuple] = []
            reach: list[int] = []
            at = 0
            snaps.append((s._snap(), w))
            reach.append(s.dpos)  # the deal read the positions before its dpos
        else:
            at = best
            snaps = base[1][:at + 1]
            reach = base[2][:at + 1]
            snap, w = snaps[at]
            s = self.pre.copy()
            s._restore(snap)
            s._deck = deck
            s._tops = _targets(s._backs, deck)
            s.history = [*self.pre.history, deal, *actions[:at]]
        prev = s.dpos  # the deck position on top before step ``at``
        self._trails = [(deck, snaps, reach), base] if base is not None else \
            [(deck, snaps, reach), *self._trails[:1]]
        steps = self.steps
        chosen = self._chosen
        tops = s._tops
        ndeck = len(deck)
        ntpile = len(self._tpile)
        for i in range(at, steps):
            if i > at:  # the snapshot before step i, and what was read by then
                d = s.dpos
                snaps.append((s._snap(), w))
                reach.append(d + 1 if d + 1 > prev + 2 else prev + 2)
                prev = d
            a = actions[i]
            m = s.to_move
            if m != movers[i]:
                return i, s, 0
            if m == DEALER:  # a Thief's draw: the card must be in the victim's hand
                w *= s.hands[s.victim].count(a.card)  # type: ignore[attr-defined]
                if not w:
                    return i, s, 0
            elif m != seat:
                if s.phase == TURN:  # every input of greedy's choice (_greedy_key)
                    q = s.dpos
                    hands = s.hands
                    held = s.held[m]
                    tused = s.tused
                    key = (m, hands[m], s.table, held, tused, s.jdelta, tops[q],
                           deck[q] if q < ndeck else -1, tops[q + 1] if q < ndeck else -1,
                           s.tpos < ntpile,
                           tuple(map(bool, hands)) if held and not tused else None)
                else:  # a Bomb's victim: its cheapest card
                    key = s.hands[m]
                g = chosen.get(key)
                if g is None:
                    if len(chosen) >= GREEDY_MAX:
                        chosen.clear()
                    g = chosen[key] = greedy_action(s)
                if g != a:
                    return i, s, 0
            s.push(a)
            if s.target != targets[i]:
                s.pop()
                return i, s, 0
        if at < steps:
            d = s.dpos
            snaps.append((s._snap(), w))
            reach.append(d + 1 if d + 1 > prev + 2 else prev + 2)
        # the present view, memoised by a superset of what it shows: the phase's token
        # (phase, mover, Bomb queue, Thief victim, Joker shift, T! card used), the round
        # and dealer, the target, the totals, the seat's hand and every hand's size, the
        # table, the deck's and the T! pile's sizes, the won piles and the T! cards held
        views = self._views
        vk = (s.phase, s.mover, s.queue, s.victim, s.jdelta, s.tused, s.round, s.dealer,
              s.target, s.totals, s.hands[seat], tuple(map(len, s.hands)), s.table,
              s.dpos, s.tpos, s._pbits, s.held)
        same = views.get(vk)
        if same is None:
            if len(views) >= GREEDY_MAX:
                views.clear()
            same = views[vk] = s.view(seat) == self.final_view
        if not same:
            return steps - 1, s, 0
        memo = self._consistent
        if len(memo) >= CONSISTENT_MAX:
            memo.clear()
        memo[tuple(cards)] = s
        return steps, s, w

    def replay_plain(self, cards: list[int]) -> tuple[int, TweakState, int]:
        """:meth:`replay_weighted` the plain way, every time from the round's deal (no
        trail kept, nothing memoised): the definition the prefix reuse is checked
        against (``tests/test_tweak_prefix.py``)."""
        w = 1
        s = self.pre.copy()
        s.push(self.deal(cards))
        seat = self.seat
        movers = self.movers
        targets = self.targets
        for i, a in enumerate(self.actions):
            m = s.to_move
            if m != movers[i]:
                return i, s, 0
            if m == DEALER:
                w *= s.hands[s.victim].count(a.card)  # type: ignore[attr-defined]
                if not w:
                    return i, s, 0
            elif m != seat and greedy_action(s) != a:
                return i, s, 0
            s.push(a)
            if s.target != targets[i]:
                s.pop()
                return i, s, 0
        if s.view(seat) != self.final_view:
            return self.steps - 1, s, 0
        return self.steps, s, w

    def suspects(self, k: int, s: TweakState | None) -> list[int]:
        """The slots that may explain a failure at round step ``k`` (``s``: the state just
        before it): the backs of the failing seat's dealt cards, its draws by then and
        every card at a position of unknown back; for a Thief's draw, the victim's."""
        m = s.to_move
        if m == DEALER:
            m = s.victim
        if m is None or m < 0 or m == self.seat:
            return []
        got = self._suspects.get((m, k))
        if got is None:  # what depends on the seat and the step alone
            first = [i for i, (o, at) in enumerate(zip(self.owner, self.step, strict=True))
                     if o == m and at <= k]
            got = self._suspects[(m, k)] = (
                first, {self.slots[i][1] for i in first if self.slots[i][0] == "back"})
        first, mine = got
        out = list(first)
        # the slots holding its dealt cards (group 0 says only their backs): the r-th
        # position of unknown back b holds the r-th extra card of back b
        deck, backs = s.deck, self.backs
        extra = self.extra
        seen = dict.fromkeys(self.kinds, 0)
        for q in self.unknown_pos:
            b = backs[deck[q]]
            if q in mine:
                out.append(extra[b][seen[b]])
            seen[b] += 1
        return out

    def world(self, cards: list[int], rng: Rng) -> TweakState | None:
        """The present world of a consistent filling (``None`` if it is not): the deck
        below the card under its top drawn again, and the T! pile's unwon cards
        shuffled (the seat has no clue to their order)."""
        s = self._consistent.get(tuple(cards))
        if s is None:
            k, s = self.replay(cards)
            if k < self.steps:
                return None
        w = s.copy()
        w.history = []  # as the sampler's worlds: no history of their own
        cut = min(w.dpos + 2, len(w.deck))
        w.deck = w.deck[:cut] + tuple(rng.shuffled(list(w.deck[cut:])))
        w.tpile = w.tpile[:w.tpos] + tuple(rng.shuffled(list(w.tpile[w.tpos:])))
        return w

    def carry(self, prev: TweakHistory, cards: list[int]) -> list[int] | None:
        """A warm start (:func:`kifu.bots.posterior.posterior_draw`'s ``warm``): the
        filling ``cards`` of ``prev`` (this seat's hidden history of the same round at an
        earlier decision) mapped into this history's slots, or ``None`` (another round,
        seat or deck). The round's deck it decodes to is mended where the seat has seen
        more since (a card drawn or turned up, a back shown): the card seen is swapped
        in from the hidden position holding it, a card of the back shown from a position
        of unknown back, the deepest first (the replay reads them least). The result
        respects every card and back the seat saw; whether the replay agrees is left to
        the caller (one replay; if not, a climb starts from it)."""
        if prev.key != self.key or prev.deck_len != self.deck_len or prev.seat != self.seat:
            return None
        deck = prev.decode(cards)
        backs = self.backs
        fixed = self.fixed
        deepest = range(len(deck) - 1, -1, -1)
        for q, c in fixed.items():
            if deck[q] != c:
                for q2 in deepest:  # (not a position that must hold this card)
                    if deck[q2] == c and fixed.get(q2) != c:
                        deck[q], deck[q2] = deck[q2], deck[q]
                        break
                else:
                    return None
        hidden = sorted(self.known_pos + self.unknown_pos, reverse=True)
        group_back = {1 + j: b for j, b in enumerate(self.kinds)}
        known = {q: group_back[g] for g, idx in enumerate(self.groups) if g
                 for i in idx if self.slots[i][0] == "card"
                 for q in (self.slots[i][1],)}
        for q, b in known.items():
            if backs[deck[q]] == b:
                continue
            for q2 in hidden:
                if backs[deck[q2]] == b and (q2 not in known or known[q2] != b):
                    deck[q], deck[q2] = deck[q2], deck[q]
                    break
            else:
                return None
        if any(backs[deck[q]] != b for q, b in known.items()):
            return None
        return self.encode(deck)

    def true_cards(self, state: TweakState) -> list[int]:
        """The filling of the true round (all-seeing: for tests and diagnostics only)."""
        return self.encode(state.deck)

    def encode(self, deck: tuple[int, ...] | list[int]) -> list[int]:
        """The filling that decodes to the round's ``deck`` (which must hold the seen
        cards at their positions and the seen backs at theirs)."""
        backs = self.backs
        cards = [0] * len(self.slots)
        for q, i in zip(self.known_pos, self.known_slots, strict=True):
            cards[i] = deck[q]
        nxt = dict.fromkeys(self.kinds, 0)
        for q, i in zip(self.unknown_pos, self.unknown_slots, strict=True):
            b = backs[deck[q]]
            cards[i] = b
            cards[self.extra[b][nxt[b]]] = deck[q]
            nxt[b] += 1
        return cards


def _resume_at(trail: tuple[tuple[int, ...], list[tuple], list[int]],
               deck: tuple[int, ...]) -> int:
    """The last step of ``trail`` (a :class:`TweakHistory` replay's trail) whose snapshot
    holds for ``deck``: the deck agrees with the trail's on every position read before
    it (the reads only deepen, step by step); -1 for none."""
    old, _snaps, reach = trail
    lo, hi = 0, len(reach) - 1
    r = reach[0]
    if deck[:r] != old[:r]:
        return -1
    while lo < hi:  # the last i with deck[:reach[i]] == old[:reach[i]]
        mid = (lo + hi + 1) // 2
        r = reach[mid]
        if deck[:r] == old[:r]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def hidden_history(state: State, seat: int, game: Game) -> TweakHistory | None:
    """``seat``'s hidden history of the current round (:class:`TweakHistory`), worked out
    from what it saw; ``None`` without a history from the beginning of the game, before
    the round's deal, or with nothing hidden."""
    got = round_start(game, state, Deal)
    if got is None:
        return None
    pre, s, d = got
    history = state.history
    assert isinstance(s, TweakState)
    deck = s.deck  # read only at the positions the seat sees (below)
    backs = s._backs
    n = s.n
    first = (pre.dealer + 1) % n
    # where each position went: ("dealt", owner) / ("seen",) ...
    fixed: dict[int, int] = {}
    info: dict[int, tuple[str, int, int | None, int]] = {}  # pos -> (kind, owner, back, step)
    pos = 0
    for _ in range(HAND_SIZE):
        for k in range(n):
            if pos < len(deck):
                p = (first + k) % n
                if p == seat:
                    fixed[pos] = deck[pos]
                else:
                    info[pos] = (DEALT, p, None, 0)
                pos += 1
    for q in range(pos, min(len(deck), pos + TABLE_REFILL)):
        fixed[q] = deck[q]
    actions = list(history[d + 1:])
    movers: list = []
    targets: list[int] = []
    for i, a in enumerate(actions):
        m = s.to_move
        movers.append(m)
        drawer = s.mover
        dpos0 = s.dpos
        phase = s.phase
        before = len(s.hands[drawer]) if s.hands else 0
        s.push(a)
        targets.append(s.target)
        drawn = range(dpos0, s.dpos)
        if not drawn:
            continue
        t = type(a)
        if t is UseShifter:
            mine = 0  # the top card goes face up to the table
        elif phase == TURN and t in (Place, Capture, Pass):
            mine = len(s.hands[drawer]) - before + (t is not Pass)
        else:
            return None  # a draw the model does not explain (should not happen)
        for j, q in enumerate(drawn):
            if j < mine and drawer != seat:
                info[q] = (DRAWN, drawer, backs[deck[q]], i + 1)  # its back was shown
            else:
                fixed[q] = deck[q]  # the seat's own draw, or a card face up on the table
    if s.key() != state.key():
        return None
    present = s.dpos
    for q in range(present, len(deck)):
        info[q] = (UNDRAWN, -1, s.target if q == present else None, len(actions) + 1)
    hidden = [(kind, q, o, b, st) for q, (kind, o, b, st) in sorted(info.items())]
    if not hidden:
        return None
    pool = Counter(deck) - Counter(fixed.values())  # the round's cards less the seen
    tpos = s.tpos
    h = TweakHistory(pre, seat, len(deck), fixed, hidden, tuple(s.tpile[:tpos]),
                     tuple(sorted(s.tpile[tpos:])), actions, movers, targets, present, pool)
    h.final_view = state.view(seat)
    h.key = (d, seat, history[d])
    return h


__all__ = ["TweakHistory", "hidden_history"]
