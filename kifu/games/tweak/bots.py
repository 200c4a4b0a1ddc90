"""TWEAK bots. They read what their seat can see: their hand, their T! cards, the table,
the target and the deck's size (legal actions depend on nothing else), with two
exceptions. ``greedy`` weighs a Shifter by playing it and looking at the capture it makes,
so it sees the deck's top card the Shifter turns up: it *peeks* there (``Bot.peeks``; the
searchers ask it for their default choice only in sampled worlds). It is kept as it is:
it is the ladders' fixed opponent. :class:`TacticsPolicy` is a rollout policy for the
searchers' sampled worlds, never a player: it reads a Thief's victim's hand."""

from __future__ import annotations

from bisect import insort
from collections import Counter
from math import comb

from kifu.core.game import Action, Bot, State
from kifu.core.memo import trim
from kifu.games.tweak.actions import (
    JOKER_DOWN,
    JOKER_UP,
    PASS,
    PLACE,
    SHIFT,
    STEAL,
    Capture,
    Place,
    UseBomb,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.games.tweak.cards import BOMB, FACE, JOKER, POINTS, SHIFTER, THIEF
from kifu.games.tweak.state import BOMB_PHASE, EMPTY_DECK_TARGET, TURN, TweakState, _captures


def capture_value(state: TweakState, action: Capture) -> int:
    """Points won by a capture, plus 2 for the T! card a TWEAK earns."""
    value = POINTS[action.card] + sum(POINTS[c] for c in action.taken)
    if action.taken and len(action.taken) == len(state.table) and state.tpile_left():
        value += POINTS[THIEF]
    return value


_CARDS_POINTS: dict[Capture, int] = {}
"""Capture -> the points of its cards (``capture_value`` without the TWEAK's T! card),
memoised for the rollouts' hot path (bounded: cleared past ``_CARDS_POINTS_MAX``)."""
_CARDS_POINTS_MAX = 1 << 16


def best_capture(state: TweakState) -> tuple[int, Action | None]:
    """The capture worth most (:func:`capture_value`; the first of equals, legal order)
    and its value; ``(0, None)`` without one."""
    return _best_of(state, state.legal_actions())


def _best_of(state: TweakState, legal: list[Action]) -> tuple[int, Action | None]:
    """:func:`best_capture` over ``legal`` (the state's legal actions, already listed):
    each capture's card points read from a memo, the TWEAK's 2 added where it takes the
    whole table and the T! pile is not empty, as :func:`capture_value` counts."""
    best, pick = 0, None
    whole = len(state.table)
    bonus = POINTS[THIEF] if state.tpos < len(state.tpile) else 0
    memo = _CARDS_POINTS
    for a in legal:
        if type(a) is Capture:
            v = memo.get(a)  # type: ignore[call-overload]
            if v is None:
                if len(memo) >= _CARDS_POINTS_MAX:
                    memo.clear()
                v = memo[a] = POINTS[a.card] + sum([POINTS[c] for c in a.taken])  # type: ignore[attr-defined]
            taken = a.taken  # type: ignore[attr-defined]
            if bonus and taken and len(taken) == whole:
                v += bonus
            if v > best:
                best, pick = v, a
    return best, pick


_KEEP_ORDER = sorted(range(len(POINTS)), key=lambda c: (POINTS[c], FACE[c], c))
_KEEP_RANK = tuple(_KEEP_ORDER.index(c) for c in range(len(POINTS)))
"""Each card code's rank by (points, face, code): :func:`cheapest_place`'s order as one
int a card (distinct codes, distinct ranks: the same minimum as the tuple key)."""


def cheapest_place(state: TweakState, hand: tuple[int, ...]) -> Action:
    """The hand card worth least to keep: fewest points, then the lowest face."""
    return PLACE[min(hand, key=_KEEP_RANK.__getitem__)]


def _greedy(state: TweakState, legal: list[Action]) -> tuple[int | None, Action]:
    """``greedy``'s choice in a turn or the Thief's draw (``legal``: the state's legal
    actions) and the points its capture makes (after its Joker or Shifter; 0 for a card
    placed), ``None`` where the only action was forced."""
    if len(legal) == 1:
        return None, legal[0]
    value, action = _best_of(state, legal)
    if not state.tused:
        for t in legal:
            tt = type(t)
            if tt is Place or tt is Capture:
                break  # a turn lists its T! cards' uses first (_t_uses)
            if tt is UseJoker or tt is UseShifter:
                state.push(t)
                v = _best_of(state, state.legal_actions())[0]
                state.pop()
                if v > value:
                    value, action = v, t
    if action is not None:
        return value, action
    return value, cheapest_place(state, state.hands[state.to_move])  # type: ignore[index]


def greedy_action(state: TweakState) -> Action:
    """``greedy``'s choice for the seat to move (:class:`GreedyBot`'s, without a bot; the
    exact posterior's model of the other seats, :mod:`kifu.games.tweak.posterior`).

    On a turn it is worked out without listing the legal actions (issue 33, tenth
    session): the best capture of each distinct hand card at the target is read from a
    memo by table, card and sum (:func:`_best_in`), and a Joker or a Shifter is weighed
    by the capture it would make at the target it would set (the Shifter: with the
    deck's top on the table and the next card's back as the target), without playing
    it. The same choice as :func:`greedy_plain` (the definition:
    ``tests/test_tweak_greedy_fast.py``); ties go to the first in legal order, as there."""
    phase = state.phase
    if phase == BOMB_PHASE:
        return cheapest_place(state, state.hands[state.to_move])  # type: ignore[index]
    if phase != TURN or not state._low:
        return _greedy(state, state.legal_actions())[1]  # (a capture of the card alone)
    m = state.mover
    hand = state.hands[m]
    if not hand:
        return PASS
    table = state.table
    tops = state._tops
    dpos = state.dpos
    bonus = state.tpos < len(state.tpile)
    value, action = _best_in(hand, table, tops[dpos] + state.jdelta, bonus)
    if not state.tused:
        held = state.held[m]
        if held:
            prev = -1
            for t in held:  # the T! cards' uses in legal order (_t_actions)
                if t == prev:
                    continue
                prev = t
                if t == JOKER:
                    v = _best_in(hand, table, tops[dpos] + 1, bonus)[0]
                    if v > value:
                        value, action = v, JOKER_UP
                    v = _best_in(hand, table, tops[dpos] - 1, bonus)[0]
                    if v > value:
                        value, action = v, JOKER_DOWN
                elif t == SHIFTER and dpos < len(state._deck):
                    z = list(table)
                    insort(z, state._deck[dpos])
                    v = _best_in(hand, tuple(z), tops[dpos + 1] + state.jdelta, bonus)[0]
                    if v > value:
                        value, action = v, SHIFT
    if action is not None:
        return action
    return cheapest_place(state, hand)


def greedy_plain(state: TweakState) -> Action:
    """:func:`greedy_action` by its definition: the legal actions listed, the best
    capture among them (:func:`_best_of`), each Joker or Shifter played and the best
    capture after it taken, else the cheapest card placed."""
    if state.phase == BOMB_PHASE:
        return cheapest_place(state, state.hands[state.to_move])  # type: ignore[index]
    return _greedy(state, state.legal_actions())[1]


_BEST: dict[tuple[int, ...], dict[int, tuple]] = {}
""":func:`_best_in`'s memo: table -> {hand card + 64 * sum: (points, capture) of the first
capture worth most, without and with the TWEAK's bonus, ``(0, None)`` for none}."""
_BEST_MAX = 1 << 16
"""Tables :data:`_BEST` holds before its older half is dropped (:func:`kifu.core.memo.trim`;
about 2.5 KB a table: ``docs/performance.md``, *Memory of the memos*). At 2^17 tables and
cleared whole, a 100-deal V ladder grew past 1 GB resident."""


def _best_in(hand: tuple[int, ...], table: tuple[int, ...], target: int,
             bonus: bool) -> tuple[int, Action | None]:
    """:func:`_best_of` over the legal actions a turn lists for ``hand`` and ``table`` at
    ``target`` (each distinct card: its Place, then its captures, in order), without
    listing them: the first capture worth most (points of its cards, plus the TWEAK's 2
    when it takes the whole table and ``bonus``: the T! pile not empty), and its value;
    ``(0, None)`` without one. For the rules' ``empty_capture`` off (a card alone never
    captures)."""
    per = _BEST.get(table)
    if per is None:
        if len(_BEST) >= _BEST_MAX:
            trim(_BEST, _BEST_MAX)
        per = _BEST[table] = {}
    best, pick = 0, None
    prev = -1
    flag = 1 if bonus else 0
    for c in hand:
        if c == prev:
            continue
        prev = c
        s = target - FACE[c]
        if s <= 0:
            continue  # its Place alone (legal_actions)
        key = c + (s << 6)
        got = per.get(key)
        if got is None:
            got = per[key] = _first_best(table, _captures(table, c, s))
        v, a = got[flag]
        if v > best:
            best, pick = v, a
    return best, pick


def _first_best(table: tuple[int, ...], caps: tuple[Capture, ...]) -> tuple:
    """The first capture of ``caps`` worth most and its points (as :func:`_best_of`
    counts), without and with the TWEAK's bonus; ``(0, None)`` where none is worth more
    than 0."""
    whole = len(table)
    plain = with_bonus = _NONE
    for a in caps:
        v = POINTS[a.card] + sum([POINTS[c] for c in a.taken])
        if v > plain[0]:
            plain = (v, a)
        if a.taken and len(a.taken) == whole:
            v += POINTS[THIEF]
        if v > with_bonus[0]:
            with_bonus = plain if v == plain[0] and a is plain[1] else (v, a)
    if plain is _NONE and with_bonus is _NONE:
        return _NO_CAPTURE
    return plain, with_bonus


_NONE = (0, None)
_NO_CAPTURE = (_NONE, _NONE)
"""Shared by every :data:`_BEST` entry without a capture worth points (most of them)."""


class GreedyBot(Bot):
    """Takes the capture worth most points now (a TWEAK's T! card counts 2); uses a Joker or
    a Shifter only when that makes a strictly better capture; otherwise places its least
    valuable card. As a Bomb victim it gives up its least valuable card.

    It peeks: to weigh a Shifter it plays it, which turns up the deck's top card, a card
    its seat cannot see (``peeks``; module docstring)."""

    name = "greedy"
    peeks = True

    def choose(self, state: State) -> Action:
        assert isinstance(state, TweakState)
        return greedy_action(state)


class TacticsPolicy(GreedyBot):
    """A rollout policy, not a bot: ``greedy`` that also uses its Thief and its Bomb. It
    reads the world it plays in (the victim's hand gives the Thief's odds), so it is never
    offered as a player (``Tweak.bots`` does not list it).

    ``greedy`` never uses a Thief or a Bomb, so in its rollouts a T! card won is worth its
    2 points and nothing more, and no opponent ever steals from the seat or bombs it. This
    policy plays ``greedy``'s choice unless a Thief (on one opponent: the mean over the
    cards it may draw) or a Bomb (the victims giving up their least valuable card, as
    ``greedy`` does) leaves it a capture worth strictly more (as ``greedy`` values it) than
    ``greedy``'s best with a Joker or a Shifter or none; then it uses the best of them
    (ties: legal order)."""

    name = "tactics"

    def choose(self, state: State) -> Action:
        assert isinstance(state, TweakState)
        if state.phase == BOMB_PHASE:
            return cheapest_place(state, state.hands[state.to_move])  # type: ignore[index]
        if state.phase == TURN and (state.tused or (
                THIEF not in state.held[state.mover] and BOMB not in state.held[state.mover])):
            # no Thief or Bomb to use: greedy's choice (what the rest below comes to
            # then), worked out without listing the legal actions (greedy_action)
            return greedy_action(state)
        legal = state.legal_actions()
        value, pick = _greedy(state, legal)
        if state.tused:
            return pick
        tees = _t_uses(legal, UseThief, UseBomb)
        if not tees:
            return pick
        best = _value_of(state, pick) if value is None else value
        for t in tees:
            v = _thief_value(state, t) if type(t) is UseThief else _bomb_value(state, t)
            if v > best:
                best, pick = v, t
        return pick


def _t_uses(legal: list[Action], *kinds: type) -> list[Action]:
    """The actions of ``legal`` (a turn's legal actions) of the T! kinds ``kinds``, in
    order. A turn lists its T! cards' uses before any card placed or capture
    (``TweakState.legal_actions``), so the scan stops at the first of those
    (tests/test_speed9_towai.py checks the order)."""
    out = []
    for a in legal:
        t = type(a)
        if t is Place or t is Capture:
            break
        if t in kinds:
            out.append(a)
    return out


def _value_of(state: TweakState, action: Action) -> float:
    """The points ``greedy``'s choice ``action`` captures (after its Joker or Shifter)."""
    if type(action) is Capture:
        return capture_value(state, action)
    if type(action) in (UseJoker, UseShifter):
        state.push(action)
        v = best_capture(state)[0]
        state.pop()
        return v
    return 0.0


def _best_value(state: TweakState) -> int:
    """``best_capture(state)[0]``: on a turn (the rules' ``empty_capture`` off) by
    :func:`_best_in`, without listing the legal actions (a turn's T! card uses are no
    captures, and an empty hand passes: 0 either way)."""
    if state.phase == TURN and state._low:
        return _best_in(state.hands[state.mover], state.table,
                        state._tops[state.dpos] + state.jdelta,
                        state.tpos < len(state.tpile))[0]
    return _best_of(state, state.legal_actions())[0]


def _thief_value(state: TweakState, thief: Action) -> float:
    """The mean best capture after the Thief's draw (the victim's hand as it is): over
    each distinct card of it (``chance_outcomes``' order), weighted by its copies
    (``copies / size`` is ``float(Fraction(copies, size))``: both correctly rounded).

    On a turn (``empty_capture`` off) without playing it (issue 33, tenth session): after
    the Thief and its draw the mover's hand, the target and the T! pile are as now and
    the table has the card drawn, so each draw's best capture is :func:`_best_in`'s."""
    if state.phase == TURN and state._low:
        hand = state.hands[thief.victim]  # type: ignore[attr-defined]
        size = len(hand)
        own = state.hands[state.mover]
        table = state.table
        target = state._tops[state.dpos] + state.jdelta
        bonus = state.tpos < len(state.tpile)
        total = 0.0
        prev = -1
        for c in hand:
            if c == prev:
                continue
            prev = c
            z = list(table)
            insort(z, c)
            total += hand.count(c) / size * _best_in(own, tuple(z), target, bonus)[0]
        return total
    state.push(thief)
    total = 0.0
    hand = state.hands[state.victim]
    size = len(hand)
    prev = -1
    for c in hand:
        if c == prev:
            continue
        prev = c
        state.push(STEAL[c])
        total += hand.count(c) / size * _best_value(state)
        state.pop()
    state.pop()
    return total


def _bomb_value(state: TweakState, bomb: Action) -> float:
    """The best capture after a Bomb, each victim giving up its least valuable card."""
    me = state.to_move
    state.push(bomb)
    pushed = 1
    while state.phase == BOMB_PHASE and state.to_move is not None:
        state.push(cheapest_place(state, state.hands[state.to_move]))
        pushed += 1
    v = _best_value(state) if state.to_move == me else 0.0
    for _ in range(pushed):
        state.pop()
    return v


# --- blind: tactics without peeking ---------------------------------------------------


def unseen_pool(state: TweakState, seat: int) -> list[int]:
    """The number cards ``seat`` cannot locate, as a sorted multiset: the deck left and
    every other seat's hand. It is the same in every world the seat's view allows (the
    hidden cards permuted among the deck and the other hands, their sizes kept)."""
    pool = list(state.deck_left())
    for s, hand in enumerate(state.hands):
        if s != seat:
            pool += hand
    pool.sort()
    return pool


def _best_with(state: TweakState, extra: tuple[int, ...], target: int | None = None
               ) -> int:
    """The best capture (:func:`_best_of`) with the cards ``extra`` added to the table and,
    where ``target`` is given, the deck's top target set to it; the state is restored."""
    table = state.table
    tops = state._tops
    lst = list(table)
    for c in extra:
        insort(lst, c)
    state.table = tuple(lst)
    if target is not None:
        i = state.dpos
        state._tops = (*tops[:i], target, *tops[i + 1:])
    try:
        return _best_of(state, state.legal_actions())[0]
    finally:
        state.table = table
        state._tops = tops


def _blind_shifter_value(state: TweakState, pool: list[int]) -> float:
    """A Shifter's capture as the seat can expect it: the card turned up is one of the
    unseen cards whose back is today's target (each copy alike), and the new target the
    back of one of the rest (7 when the deck then is empty); the mean best capture."""
    backs = state._backs
    target = state.target
    fits = Counter(c for c in pool if backs[c] == target)
    if not fits:  # the seat's pool cannot hold the top card (a puzzle position)
        fits = Counter(pool)
    size = sum(fits.values())
    last = state.dpos + 1 >= len(state.deck)
    all_backs = Counter(backs[c] for c in pool)
    total = 0.0
    for c, k in sorted(fits.items()):
        if last:
            total += k / size * _best_with(state, (c,), EMPTY_DECK_TARGET)
            continue
        rest = all_backs.copy()
        rest[backs[c]] -= 1
        left = len(pool) - 1
        if left <= 0:
            total += k / size * _best_with(state, (c,), EMPTY_DECK_TARGET)
            continue
        inner = 0.0
        for b, m in sorted(rest.items()):
            if m:
                inner += m / left * _best_with(state, (c,), b)
        total += k / size * inner
    return total


def _blind_thief_value(state: TweakState, pool: list[int]) -> float:
    """A Thief's capture as the seat can expect it: the card drawn from the victim's hand
    is one of the unseen cards (each copy alike, whichever victim); the mean best capture
    with it on the table."""
    counts = Counter(pool)
    size = len(pool)
    return sum(k / size * _best_with(state, (c,)) for c, k in sorted(counts.items()))


def _gift_key(c: int) -> tuple[int, int, int]:
    """:func:`cheapest_place`'s order: fewest points, then the lowest face, then code."""
    return (POINTS[c], FACE[c], c)


def _likely_gift(pool: list[int], k: int) -> int:
    """The most likely least valuable card (:func:`cheapest_place`'s) of a hand of ``k``
    cards drawn from ``pool`` without replacement (ties: the cheapest)."""
    distinct = sorted(set(pool), key=_gift_key)
    n = len(pool)
    whole = comb(n, k)
    above = n  # cards at or above the current key
    best, pick = -1.0, distinct[0]
    for c in distinct:
        cnt = pool.count(c)
        p = (comb(above, k) - comb(above - cnt, k)) / whole
        if p > best:
            best, pick = p, c
        above -= cnt
    return pick


def _blind_bomb_value(state: TweakState, pool: list[int]) -> float:
    """A Bomb's capture as the seat can expect it: each victim (every other seat with
    cards) gives up the least valuable card its hand most likely holds, by its size
    (:func:`_likely_gift`); the best capture with those on the table."""
    me = state.to_move
    n = state.n
    gifts = tuple(
        _likely_gift(pool, len(state.hands[s]))
        for s in ((me + k) % n for k in range(1, n))  # type: ignore[operator]
        if state.hands[s]
    )
    return float(_best_with(state, gifts))


class BlindPolicy(GreedyBot):
    """A rollout policy, not a bot: :class:`TacticsPolicy`'s choices made from what the
    seat can see at that point of the world it plays in, for the seat's own rollouts
    (strategy fusion: a rollout that reads the world's hidden cards adapts the seat's
    future play to them, which the real seat cannot).

    Where ``greedy`` and ``tactics`` read hidden cards it values instead over the seat's
    unseen pool (:func:`unseen_pool`: the deck left and the other hands, a multiset): a
    Shifter by the mean over the cards of the target's back and the new target
    (:func:`_blind_shifter_value`), a Thief by the mean over the pool, whichever victim
    (:func:`_blind_thief_value`), a Bomb by each victim's most likely cheapest card
    (:func:`_blind_bomb_value`). Everything else, and the order of the comparisons
    (strictly better; ties: legal order), is ``tactics``'s; where no Shifter, Thief or
    Bomb may be used its choice is ``tactics``'s."""

    name = "blind"
    peeks = False

    def choose(self, state: State) -> Action:
        assert isinstance(state, TweakState)
        mover = state.to_move
        if state.phase == BOMB_PHASE:
            return cheapest_place(state, state.hands[mover])  # type: ignore[index]
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        value: float
        value, action = _best_of(state, legal)
        if state.tused:
            return action if action is not None else cheapest_place(
                state, state.hands[mover])  # type: ignore[index]
        pool: list[int] | None = None
        for t in legal:
            tt = type(t)
            if tt is UseJoker:
                state.push(t)
                v: float = _best_of(state, state.legal_actions())[0]
                state.pop()
            elif tt is UseShifter:
                if pool is None:
                    pool = unseen_pool(state, mover)  # type: ignore[arg-type]
                v = _blind_shifter_value(state, pool)
            else:
                continue
            if v > value:
                value, action = v, t
        if action is None:
            action = cheapest_place(state, state.hands[mover])  # type: ignore[index]
        tees = [a for a in legal if type(a) in (UseThief, UseBomb)]
        if not tees:
            return action
        if pool is None:
            pool = unseen_pool(state, mover)  # type: ignore[arg-type]
        thief = None
        for t in tees:
            if type(t) is UseThief:
                if thief is None:
                    thief = _blind_thief_value(state, pool)
                v = thief
            else:
                v = _blind_bomb_value(state, pool)
            if v > value:
                value, action = v, t
        return action


POLICIES: dict[str, type[Bot]] = {"tactics": TacticsPolicy, "blind": BlindPolicy}
"""TWEAK's rollout policies beside its bots (for the searchers' profiles: they read the
world they play in, so they are never players)."""


__all__ = ["POLICIES", "BlindPolicy", "GreedyBot", "Place", "TacticsPolicy"]
