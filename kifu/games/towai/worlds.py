"""TOWAI worlds: the other hands, the deck's order and the cards others have set aside in
a Swap, drawn to agree with what a seat has seen.

Known to ``seat``: its own hand, the field, the discards, the side, the counts (its view),
its own choice in a Swap under way, and, from ``state.history`` when it starts at the
beginning of the game, what its Swap gifts revealed: the previous seat received each card ``seat``
gave it (ruling 10). That is kept as a lower bound, "the previous seat holds at least k
copies of X", lowered by one for each X that seat has played since and for every later
Swap in which it gave a card away unseen (it may have passed the gift on). The cards
nobody sees are exactly those of the other hands, of the deck and of the others' Swap
choices (the 60 cards are known).

Drawn: the previous seat's copies of each bounded kind, with the right weights
(:func:`kifu.core.worlds.at_least`); then every other unseen card uniformly into the rest
of that hand, the other hands and the deck; a seat that has chosen in the Swap under way
set aside one of its cards, each equally likely.

After a rebuild (ruling 7) the deck is a shuffle of the pool, which everybody saw: from
then on the deck holds only cards of that pool, less those drawn from it since
(:func:`rebuilt_pool`: the pool less the cards ``seat`` itself drew since; which cards the
others drew is unseen). The sampler deals the deck within those copies, per kind an upper
bound, together with the previous seat's lower bounds, uniformly
(:class:`kifu.core.worlds.BoundedDeal`).

Not used (a simplification): which other seats drew the rebuilt pool's cards. A card of
the pool can only be in a hand that drew since the rebuild, or received it in a Swap since;
with copies of every kind, which copy in a hand came from the pool cannot be told, so
the sampler does not bound it. Likewise a turn that ended by itself showed that its
player held no card to go on with *then*; only the present is used: a seat to move in a
combo holds a card that continues it (the position line requires it), which a world
drawn without one is redrawn to respect. ``docs/bots.md`` (Worlds) gives the measured
share of worlds that contradict each of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import msgspec

from kifu.core.codes import field_codes, field_text
from kifu.core.errors import KifuError, NotationError
from kifu.core.game import Action, Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import BoundedDeal, from_start
from kifu.games.towai.actions import Deal, Give, Lead, Pass, Play, Rebuild, Stop
from kifu.games.towai.cards import (
    COPIES,
    N_KINDS,
    NIB,
    NUM,
    TOKEN,
    TWAI,
    TYPE,
    count_of,
    counts_cards,
    kind_mask,
    split_cards,
)
from kifu.games.towai.position import _check
from kifu.games.towai.state import LEAD, PLAY, SWAP_PHASE, TowaiState

TRIES = 1000
"""Draws tried before giving up on a world the position line accepts."""

VOID_TRIES = 400
"""Draws tried for a world that also respects every :class:`Void`; past them (a position
where almost no deal does), the voids are let go for that world (``docs/bots.md``)."""


def _refused(_field: int, message: str) -> NotationError:
    """The reader's error for a world it would refuse (the draw only tries again)."""
    return NotationError(message, line=1, col=1)


def _cards(text: str) -> list[int]:
    return field_codes(text, split_cards)


def _text(codes: list[int]) -> str:
    return field_text(codes, TOKEN)


class Void(msgspec.Struct):
    """A turn of ``seat`` that ended by itself showed it held none of ``kinds`` (the cards
    that would have continued its combo); ``budget`` is how many such cards it can hold
    now: the cards it has taken in since (draws, Swap receipts) less those of ``kinds`` it
    has played since (each must have come in after)."""

    seat: int
    kinds: frozenset
    budget: int = 0


_NIBBLES = sum(15 << (4 * c) for c in range(0, 2 * N_KINDS, 2))


def _size(z: int) -> int:
    """The cards in a packed hand (4 bits a kind): its nibbles added."""
    pairs = (z & _NIBBLES) + ((z >> 4) & _NIBBLES)  # a byte per two kinds
    return sum(pairs.to_bytes(N_KINDS, "little"))


def voids(state: State, seat: int, game: Game) -> list[Void]:
    """What the turns of the other seats that ended by themselves showed ``seat``, this
    round (:class:`Void`); empty without a history from the beginning."""
    return _replay(state, seat, game)[2]


def idle_since_rebuild(state: State, seat: int, game: Game) -> tuple[list[int], Counter[int]]:
    """The other seats that have taken no card in since the deck was last rebuilt this
    round, and the copies of each kind that were outside the pool then: those seats hold
    only cards they held at the rebuild, so together at most those copies. Empty when the
    deck was not rebuilt (or without a history from the beginning)."""
    return _replay(state, seat, game)[3]


def gifts(state: State, seat: int, game: Game) -> Counter[int]:
    """Copies of each kind the previous seat surely holds (hand or Swap choice), as ``seat``
    knows from its gifts; empty when the history does not start at the beginning."""
    return _replay(state, seat, game)[0]


def rebuilt_pool(state: State, seat: int, game: Game) -> Counter[int] | None:
    """The copies of each kind the deck can still hold when it was rebuilt this round: the
    pool that was shuffled (public) less the cards ``seat`` drew from it since; ``None``
    when the deck has not been rebuilt this round (or the history does not start at the
    beginning of the game)."""
    return _replay(state, seat, game)[1]


def _replay(state: State, seat: int, game: Game, passes: bool = False
            ) -> tuple[Counter[int], Counter[int] | None,
                                                          list[Void],
                                                          tuple[list[int], Counter[int]]]:
    """One pass over the history: (:func:`gifts`, :func:`rebuilt_pool`, :func:`voids`,
    :func:`idle_since_rebuild`). ``passes``: every pass of another seat is read as a void
    too (it held no card that could follow): not a fact, since a seat may pass with a
    playable card, but what a player that passes only when it must would show
    (:func:`assumed_sampler`)."""
    history = state.history
    bound: Counter[int] = Counter()
    pool: Counter[int] | None = None
    lacks: list[Void] = []
    s = from_start(game, state)
    n = state.n
    prev = (seat - 1) % n
    if s is None:
        return bound, None, lacks, ([], Counter())
    pending = None
    owner = -1  # whose turn is under way after a lead or a play
    taken = [0] * n  # cards each seat has taken into its hand this round
    took_since: list[int] | None = None  # ... since the last rebuild (None: no rebuild)
    outside: Counter[int] = Counter()
    since: list[int] = []  # per void, its seat's ``taken`` when it was shown
    hl = s.hl  # type: ignore[attr-defined]
    for a in history:
        mover = s.to_move
        counting = lacks or took_since is not None or isinstance(a, Rebuild)
        sizes = [_size(z) for z in s.hl] if counting else None  # type: ignore[attr-defined]
        if isinstance(a, Deal):
            bound.clear()
            pending = None
            pool = None
            lacks = []
            since = []
            owner = -1
            took_since = None
        elif prev != seat and mover == seat and isinstance(a, Give):
            pending = a.card
        elif prev != seat and mover == prev:
            if isinstance(a, Give):  # a card given away unseen: perhaps the gift
                for k in list(bound):
                    bound[k] -= 1
            elif isinstance(a, (Lead, Play)) and bound[a.card] > 0:
                bound[a.card] -= 1
            bound = +bound
        if passes and isinstance(a, Pass) and mover != seat and s.field:  # type: ignore[attr-defined]
            top, side = s.field[-1], s.side  # type: ignore[attr-defined]
            lacks.append(Void(mover, frozenset(  # type: ignore[arg-type]
                c for c in range(N_KINDS) if TYPE[c] in (TWAI, side) and
                (NUM[c] >= NUM[top] if side == 0 else NUM[c] <= NUM[top]))))
            since.append(taken[mover])  # type: ignore[index]
        if isinstance(a, (Stop, Pass)):
            owner = -1
        elif isinstance(a, (Lead, Play)):
            owner = mover
            for v in lacks:
                if v.seat == mover and a.card in v.kinds:
                    v.budget -= 1  # it came in after the void
        dtop, deck = s._dtop, s._deck  # type: ignore[attr-defined]
        mine = s.hl[seat]  # type: ignore[attr-defined]  # (packed: decoded only if it drew)
        s.push(a)
        if isinstance(a, Rebuild):
            pool = Counter(a.deck)
            outside = Counter({c: COPIES[c] - pool[c] for c in range(N_KINDS)})
            took_since = [0] * n  # (the draws the rebuild serves are counted below)
        if pool is not None and s.hl[seat] != mine and (  # type: ignore[attr-defined]
                s._deck is not deck or s._dtop > dtop):  # type: ignore[attr-defined]
            drew = Counter(s.hand_cards(seat)) - Counter(counts_cards(mine))
            pool.subtract(drew)  # what seat drew from the rebuilt deck
            pool = +pool
        if pending is not None and s.phase != SWAP_PHASE:  # type: ignore[attr-defined]
            bound[pending] += 1  # the Swap is over: the gift is in the previous hand
            pending = None
        hl = s.hl  # type: ignore[attr-defined]
        if sizes is not None:
            for p in range(n):
                # (a Give sets a card aside: the last giver's receipt comes in the same action)
                grew = _size(hl[p]) - sizes[p] + (isinstance(a, Give) and p == mover)
                if grew > 0:
                    taken[p] += grew
                    if took_since is not None:
                        took_since[p] += grew
        if owner >= 0 and owner != seat and s.field and s.phase in (LEAD, PLAY) and \
                s.to_move != owner and hl[owner]:  # type: ignore[attr-defined]
            k = NUM[s.field[-1]]  # type: ignore[attr-defined]
            side = s.side  # type: ignore[attr-defined]
            lacks.append(Void(owner, frozenset(c for c in range(N_KINDS) if NUM[c] == k and
                                               TYPE[c] in (TWAI, side))))
            since.append(taken[owner])
            owner = -1
    if s.key() != state.key():
        return Counter(), None, [], ([], Counter())
    tightest: dict[tuple[int, frozenset], Void] = {}
    for v, t in zip(lacks, since, strict=True):
        v.budget += taken[v.seat] - t
        key = (v.seat, v.kinds)
        if v.budget < _size(hl[v.seat]) and (key not in tightest or
                                             v.budget < tightest[key].budget):
            tightest[key] = v  # (a budget as large as the hand says nothing)
    idle = [p for p in range(n) if p != seat and took_since is not None and not took_since[p]]
    return bound, pool, list(tightest.values()), (idle, outside if idle else Counter())


def world_sampler(state: State, seat: int, game: Game, *, by_line: bool = False
                  ) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    return _sampler(state, seat, game, False, by_line)


def assumed_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """:func:`world_sampler` with every pass of another seat this round read as a void
    (it held no card that could follow the top then, less the cards it took in since): the
    proposal of soft inference (:mod:`kifu.bots.inference`), which then weighs the worlds
    by the other actions. Not the seat's knowledge: a player may pass with a playable card
    (ruling 6); the worlds of a player that passes only when it must."""
    return _sampler(state, seat, game, True)


def _sampler(state: State, seat: int, game: Game, passes: bool, by_line: bool = False
             ) -> Callable[[Rng], State]:
    """The draw function of both samplers. Its first world is read from a position line
    (with every check of the reader); the next ones are copies of it with the drawn hands,
    Swap choices and deck set, checked as the reader checks a position (issue 33, ninth
    session: the same worlds, field by field, and the same draws refused; ``by_line=True``
    reads every world from its line, the reference tests/test_speed9_towai.py compares
    with)."""
    n = state.n
    fields = state.to_line().split(" ")
    hands = [_cards(h) for h in fields[3].split("/")]
    deck = _cards(fields[5])
    phase = fields[1]
    swap_mover, given = -1, []
    if phase.startswith("S"):
        head, _, chosen = phase.partition(":")
        swap_mover = int(head[1:])
        given = _cards(chosen) if chosen else []
    chooser = [(swap_mover + i) % n for i in range(len(given))]
    others = [p for p in range(n) if p != seat]
    hidden = {p: hands[p] + [c for c, q in zip(given, chooser, strict=True) if q == p]
              for p in others}
    unseen = [c for p in others for c in hidden[p]] + deck
    prev = (seat - 1) % n
    bound, pool, lacks, (idle, outside) = _replay(state, seat, game, passes)
    lacks = [v for v in lacks if v.seat != seat]
    kinds: dict[int, list[int]] = {}
    for c in unseen:
        kinds.setdefault(c, []).append(c)
    # places: the other seats' hidden cards, then the deck
    sizes = [len(hidden[p]) for p in others] + [len(deck)]
    lower = {(others.index(prev), k): min(b, len(kinds.get(k, ()))) for k, b in bound.items()
             if prev != seat}
    upper = {(len(others), k): pool.get(k, 0) for k in kinds} if pool is not None and deck \
        else {}
    deal = BoundedDeal(kinds, sizes, lower, upper)

    place = {p: i for i, p in enumerate(others)}
    checks = [(place[v.seat], v.kinds, v.budget) for v in lacks]

    idle_places = [place[p] for p in idle]

    def kept(parts: list[list[int]]) -> bool:
        """Every void kept (counted over the seat's hidden cards, its Swap choice too: a
        card it set aside since was in its hand after the void), and the seats idle since
        the rebuild within the copies outside the pool."""
        if not all(sum(1 for c in parts[i] if c in kinds) <= budget
                   for i, kinds, budget in checks):
            return False
        if idle_places:
            held = Counter(c for i in idle_places for c in parts[i])
            return all(k <= outside[c] for c, k in held.items())
        return True

    first: list[TowaiState] = []  # the first world, as read (kept unchanged)

    def draw(rng: Rng) -> State:
        for i in range(TRIES):
            parts = deal.sample(rng)
            if (lacks or idle) and i < VOID_TRIES and not kept(parts):
                continue  # a turn that ended by itself says otherwise (see above)
            if first and not by_line:
                w = built(rng, parts)
                try:
                    _check(w, _refused)
                except NotationError:  # as the reader refuses it (below)
                    continue
                return w
            try:
                w = game.from_line(one(rng, parts))
            except NotationError:  # the seat to move must be able to go on (see above)
                continue
            if not first:
                assert isinstance(w, TowaiState)
                first.append(w.copy())
            return w
        raise KifuError(f"no world for p{seat} found in {TRIES} tries")

    def built(rng: Rng, parts: list[list[int]]) -> TowaiState:
        """:func:`one`'s world as a copy of the first (the same draws from ``rng``): the
        cards in play are the same multiset in every world, so only the hands, the Swap's
        choices and the deck differ."""
        w = first[0].copy()
        new_given = list(given)
        hl = w.hl
        for i, p in enumerate(others):
            cards = parts[i]
            for j, q in enumerate(chooser):
                if q == p:
                    new_given[j] = cards.pop(rng.below(len(cards)))
            hl[p] = sum([NIB[c] for c in cards])
        if swap_mover >= 0 and given:
            w.given = tuple(new_given)
        w.deck = tuple(rng.shuffled(parts[-1]))
        return w

    def one(rng: Rng, parts: list[list[int]]) -> str:
        new_given = list(given)
        new_hands = list(hands)
        for i, p in enumerate(others):
            cards = parts[i]
            for j, q in enumerate(chooser):
                if q == p:  # its Swap choice: one of its cards, each equally likely
                    new_given[j] = cards.pop(rng.below(len(cards)))
            new_hands[p] = sorted(cards)
        if swap_mover >= 0 and given:
            fields[1] = f"S{swap_mover}:" + _text(new_given)
        fields[3] = "/".join(_text(h) for h in new_hands)
        fields[5] = _text(rng.shuffled(parts[-1]))
        return " ".join(fields)

    return draw


def rewind(state: State, seat: int, game: Game, window: int
           ) -> Callable[[State, Rng], list[list[tuple[State, Action, float]]]] | None:
    """The past positions of a world, for soft inference (:mod:`kifu.bots.inference`):
    for the last ``window`` leads, follows, passes and stops of the other seats since the
    round's deal and its last Swap, the position each was chosen in, as the world says it
    was. ``None`` without a history from the beginning, during a Swap, or with no such
    action.

    Walking back from the world's present hands: a card a seat played returns to its hand;
    the cards a seat drew leave it (which ones, the world does not say: a card of its hand
    drawn uniformly; at a pass, the card drawn is among those that could have been played
    on the top when the hand holds any, since a pass most plausibly means nothing to play,
    and the pass itself is judged over every card the hand could have drawn, each an
    alternative weighted by its copies). The seat's own hand, the field, the side and the
    discards are the true ones; the deck of a past position is left empty (nothing that
    judges a choice may read it)."""
    if state.phase == SWAP_PHASE:  # type: ignore[attr-defined]
        return None
    s = from_start(game, state)
    if s is None:
        return None
    history = state.history
    start = 0
    for j, a in enumerate(history):
        if isinstance(a, (Deal, Give)):
            start = j + 1
    movers: list[int | None] = []
    sizes: list[list[int]] = []
    snaps: dict[int, State] = {}
    decisions: list[int] = []
    for j, a in enumerate(history):
        if j >= start:
            mover = s.to_move
            movers.append(mover)
            sizes.append([_size(z) for z in s.hl])  # type: ignore[attr-defined]
            if mover is not None and mover >= 0 and mover != seat and \
                    isinstance(a, (Lead, Play, Pass, Stop)):
                decisions.append(j)
                snaps[j] = s.copy()
                if len(decisions) > window:
                    del snaps[decisions.pop(0)]
        s.push(a)
    if s.key() != state.key() or not decisions:
        return None
    sizes.append([_size(z) for z in s.hl])  # type: ignore[attr-defined]
    first = decisions[0]
    steps_at = set(decisions)

    def pick(rng: Rng, z: int, among: int | None = None) -> int:
        """A card of count int ``z``, uniformly by copies (within the kinds of ``among``
        when it holds any)."""
        cards = counts_cards(z)
        if among:
            fit = [c for c in cards if among >> c & 1]
            cards = fit or cards
        return cards[rng.below(len(cards))]

    def past(world: State, rng: Rng) -> list[list[tuple[State, Action, float]]]:
        hands = list(world.hl)  # type: ignore[attr-defined]
        steps: list[list[tuple[State, Action, float]]] = []
        for j in range(len(history) - 1, first - 1, -1):
            a = history[j]
            m = movers[j - start]
            before, after = sizes[j - start], sizes[j - start + 1]
            played = isinstance(a, (Lead, Play))
            passed = isinstance(a, Pass) and j in steps_at
            for p in range(len(hands)):
                if p == seat:
                    continue
                grew = after[p] - before[p] + (played and p == m)
                if passed and p == m and grew > 0:
                    grew -= 1  # the pass's own draw: below
                for _ in range(grew):
                    hands[p] -= NIB[pick(rng, hands[p])]
            if played:
                hands[m] += NIB[a.card]  # type: ignore[union-attr]
            if j not in steps_at:
                continue
            snap = snaps[j]
            if passed and after[m] > before[m]:  # type: ignore[index]
                alts = []
                for c in set(counts_cards(hands[m])):  # type: ignore[index]
                    alts.append((_past(snap, hands, seat, m, hands[m] - NIB[c]), a,  # type: ignore[index]
                                 float(count_of(hands[m], c))))  # type: ignore[index]
                steps.append(alts)
                playable = kind_mask(hands[m]) & _playable(snap, hands[m])  # type: ignore[index]
                hands[m] -= NIB[pick(rng, hands[m], playable)]  # type: ignore[index]
            else:
                steps.append([(_past(snap, hands, seat, m, hands[m]), a, 1.0)])  # type: ignore[index]
        return steps

    return past


def _past(snap: State, hands: list[int], seat: int, mover: int, own: int) -> State:
    """``snap`` with the other seats' hands of the world (``mover``'s as ``own``) and no
    deck."""
    st = snap.copy()
    hl = st.hl  # type: ignore[attr-defined]
    for p in range(len(hl)):
        if p != seat:
            hl[p] = hands[p]
    hl[mover] = own
    st._deck, st._dtop = (), 0  # type: ignore[attr-defined]
    return st


def _playable(snap: State, hand: int) -> int:
    """The kinds (a 17-bit mask) of ``hand`` the mover of ``snap`` could play there."""
    st = snap.copy()
    st.hl[st.mover] = hand  # type: ignore[attr-defined]
    mask = 0
    for a in st.legal_actions():
        if isinstance(a, (Play, Lead)):
            mask |= 1 << a.card
    return mask


__all__ = ["Void", "assumed_sampler", "gifts", "idle_since_rebuild", "rebuilt_pool", "rewind",
           "voids", "world_sampler"]
