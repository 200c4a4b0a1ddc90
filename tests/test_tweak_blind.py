"""TWEAK's ``blind`` rollout policy (``kifu/games/tweak/bots.py``, issue 33, eighth
session): ``tactics``'s choices made from what the mover can see. Its choice does not move
when the hidden cards (the deck's order below the target, the other hands) are permuted
(where ``tactics``'s does), it is ``tactics``'s where no Shifter, Thief or Bomb may be
used, and its Shifter, Thief and Bomb values are recomputed naively."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.bots import make_bot
from kifu.bots.evaluate import policy_class
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak.actions import STEAL, Capture, UseBomb, UseShifter, UseThief
from kifu.games.tweak.bots import (
    BlindPolicy,
    TacticsPolicy,
    _blind_shifter_value,
    _blind_thief_value,
    _gift_key,
    _likely_gift,
    capture_value,
    unseen_pool,
)
from kifu.games.tweak.cards import BOMB, JOKER, SHIFTER, THIEF
from kifu.games.tweak.state import BOMB_PHASE, TURN

GAME = games.get("tweak")
VARIANT = GAME.parse_rules("tweak/1;rounds=1")
TEES = (UseShifter, UseThief, UseBomb)


def _position(seed: int, steps: int, held: tuple[int, ...]):
    """A 4-player one-round position: ``steps`` player decisions of seeded ``tactics``
    play from the deal, then (on a turn) the mover given the T! cards ``held`` as well."""
    rng = Rng(f"blind:{seed}")
    state = GAME.new_state(4, VARIANT)
    bots = [TacticsPolicy(s, rng.fork(s + 1)) for s in range(4)]
    dealer = rng.fork(0)
    k = 0
    while state.to_move is not None:
        if state.to_move == DEALER:
            state.push(GAME.chance_action(state, dealer))
            continue
        if k >= steps and state.phase == TURN:
            break
        state.push(bots[state.to_move].choose(state))
        k += 1
    if state.to_move is None or state.phase != TURN:
        return None
    m = state.mover
    if held and not state.tused:
        mine = tuple(sorted(set(state.held[m]) | set(held)))
        state.held = (*state.held[:m], mine, *state.held[m + 1:])
    return state


def _permuted(state, rng: Rng):
    """``state`` with its hidden cards (the deck below the top card, the other hands)
    shuffled among those places, every size kept, and the top card swapped for a card of
    the same back (the target stays: the mover sees it)."""
    m = state.mover
    new = state.copy()
    deck = list(state.deck_left())
    top = deck[0] if deck else None
    hidden = deck[1:] + [c for s, h in enumerate(state.hands) if s != m for c in h]
    if top is not None:  # a card of the top's back from anywhere hidden becomes the top
        hidden.append(top)
        backs = state._backs
        fits = [i for i, c in enumerate(hidden) if backs[c] == backs[top]]
        i = fits[rng.below(len(fits))]
        top = hidden.pop(i)
    order = list(range(len(hidden)))
    for i in range(len(order) - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    hidden = [hidden[i] for i in order]
    hands = list(state.hands)
    for s in range(state.n):
        if s != m:
            size = len(hands[s])
            hands[s] = tuple(sorted(hidden[:size]))
            hidden = hidden[size:]
    new.hands = tuple(hands)
    rest = ([top] if top is not None else []) + hidden
    new.deck = state.deck[: state.dpos] + tuple(rest)
    assert new.target == state.target
    assert unseen_pool(new, m) == unseen_pool(state, m)
    return new


def _tees_usable(state) -> bool:
    return not state.tused and any(type(a) in TEES for a in state.legal_actions())


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30),
       held=st.sets(st.sampled_from((THIEF, JOKER, SHIFTER, BOMB))), perm=st.integers(0, 10**6))
def test_blind_choice_ignores_the_hidden_cards(seed, steps, held, perm):
    state = _position(seed, steps, tuple(held))
    if state is None:
        return
    blind = BlindPolicy(state.mover, Rng(0))
    want = blind.choose(state)
    rng = Rng(f"perm:{perm}")
    for _ in range(3):
        other = _permuted(state, rng)
        assert blind.choose(other) == want


def test_tactics_reads_the_hidden_cards_where_blind_does_not():
    """The invariance above can fail: over seeded positions with every T! card held,
    ``tactics``'s choice moves under the permutation at some, ``blind``'s at none."""
    moved_tactics = moved_blind = tried = 0
    for seed in range(40):
        state = _position(seed, 4 + seed % 20, (THIEF, SHIFTER, BOMB))
        if state is None or not _tees_usable(state):
            continue
        tried += 1
        tac, bl = TacticsPolicy(state.mover, Rng(0)), BlindPolicy(state.mover, Rng(0))
        t0, b0 = tac.choose(state), bl.choose(state)
        rng = Rng(f"perm:{seed}")
        for _ in range(4):
            other = _permuted(state, rng)
            moved_tactics += tac.choose(other) != t0
            moved_blind += bl.choose(other) != b0
    assert tried >= 20
    assert moved_tactics > 0
    assert moved_blind == 0


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30),
       held=st.sets(st.sampled_from((JOKER,))))
def test_blind_is_tactics_without_a_shifter_thief_or_bomb(seed, steps, held):
    state = _position(seed, steps, tuple(held))
    if state is None:
        return
    if _tees_usable(state):  # the seat won a Shifter, Thief or Bomb itself: not this case
        return
    assert BlindPolicy(state.mover, Rng(0)).choose(state) == \
        TacticsPolicy(state.mover, Rng(0)).choose(state)


def test_blind_is_tactics_in_whole_games_without_tees():
    """Whole seeded games where no player holds a Shifter, Thief or Bomb usable at a
    decision: ``blind`` and ``tactics`` agree at every decision (and a Bomb victim's card
    is the same cheapest card)."""
    agree = 0
    for g in range(6):
        rng = Rng(f"blind-games:{g}")
        state = GAME.new_state(4, VARIANT)
        bots = [TacticsPolicy(s, rng.fork(s + 1)) for s in range(4)]
        dealer = rng.fork(0)
        while state.to_move is not None:
            if state.to_move == DEALER:
                state.push(GAME.chance_action(state, dealer))
                continue
            a = bots[state.to_move].choose(state)
            if state.phase == BOMB_PHASE or not _tees_usable(state):
                assert BlindPolicy(state.to_move, Rng(0)).choose(state) == a
                agree += 1
            state.push(a)
    assert agree > 100


def _best(state) -> int:
    return max([capture_value(state, a) for a in state.legal_actions() if type(a) is Capture],
               default=0)


def _world(state, cards: list[int]):
    """``state`` with the deck below the drawn part starting with ``cards`` (taken from
    wherever they are hidden), the rest of the hidden cards kept in their places where
    possible (a hand that gave one up takes the deck's next spare card)."""
    m = state.mover
    new = state.copy()
    deck = list(state.deck_left())
    hands = [list(h) for h in state.hands]
    for c in cards:
        if c in deck:
            deck.remove(c)
        else:
            s = next(s for s in range(state.n) if s != m and c in hands[s])
            hands[s].remove(c)
            hands[s].append(deck.pop())
    new.hands = tuple(tuple(sorted(h)) for h in hands)
    new.deck = state.deck[: state.dpos] + tuple(cards) + tuple(deck)
    return new


def test_shifter_value_is_the_mean_over_worlds():
    """The Shifter's blind value equals a naive mean: every (top, next) pair of unseen
    cards, the top of the target's back, each copy alike, played out by the Shifter in a
    world that has them there."""
    checked = 0
    for seed in range(60):
        state = _position(seed, 3 + seed % 25, (SHIFTER,))
        if state is None or state.tused or len(state.deck_left()) < 2:
            continue
        m = state.mover
        shifter = next((a for a in state.legal_actions() if type(a) is UseShifter), None)
        if shifter is None:
            continue
        pool = unseen_pool(state, m)
        backs = state._backs
        tops = [i for i, c in enumerate(pool) if backs[c] == state.target]
        total = Fraction(0)
        for i in tops:
            rest = [j for j in range(len(pool)) if j != i]
            for j in rest:
                w = _world(state, [pool[i], pool[j]])
                w.push(shifter)
                total += Fraction(_best(w), len(tops) * len(rest))
        assert abs(_blind_shifter_value(state, pool) - float(total)) < 1e-9
        checked += 1
    assert checked >= 10


def test_thief_value_is_the_mean_over_the_pool():
    """The Thief's blind value: the mean over every unseen card (each copy alike) of the
    best capture once that card is on the table, naively by a world where the victim
    holds it and the Thief draws it."""
    checked = 0
    for seed in range(60):
        state = _position(seed, 3 + seed % 25, (THIEF,))
        if state is None or state.tused:
            continue
        thief = next((a for a in state.legal_actions() if type(a) is UseThief), None)
        if thief is None:
            continue
        pool = unseen_pool(state, state.mover)
        total = Fraction(0)
        for c in pool:
            w = state.copy()
            v = thief.victim
            hands = [list(h) for h in w.hands]
            if c not in hands[v]:  # the victim holds c (only the table counts for a capture)
                hands[v][-1] = c
            w.hands = tuple(tuple(sorted(h)) for h in hands)
            w.push(thief)
            w.push(STEAL[c])
            total += Fraction(_best(w), len(pool))
        assert abs(_blind_thief_value(state, pool) - float(total)) < 1e-9
        checked += 1
    assert checked >= 10


@settings(max_examples=200, deadline=None)
@given(pool=st.lists(st.integers(0, 35), min_size=1, max_size=9), k=st.integers(1, 4))
def test_likely_gift_against_a_brute_force(pool, k):
    """The most likely cheapest card of k drawn from the pool, by every k-subset of the
    pool's copies (ties: the cheapest)."""
    from itertools import combinations

    if k > len(pool):
        return
    pool = sorted(pool)
    counts: Counter = Counter()
    for hand in combinations(range(len(pool)), k):
        counts[min((pool[i] for i in hand), key=_gift_key)] += 1
    assert sum(counts.values()) == comb(len(pool), k)
    best = max(counts.values())
    want = min((c for c in counts if counts[c] == best), key=_gift_key)
    assert _likely_gift(pool, k) == want


def test_blind_is_a_rollout_policy_of_tweaks_profile():
    """``blind`` is one of TWEAK's profile's policies (never a player) and ``expert``
    takes it as its own rollouts."""
    prof = profile("tweak")
    assert policy_class(GAME, prof, "blind") is BlindPolicy
    assert "blind" not in GAME.bots
    bot = make_bot(GAME, "expert:rollout=blind", 0, Rng(0))
    assert bot.params["rollout"] == "blind"
