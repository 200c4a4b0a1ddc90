"""TWEAK's posterior replay with prefix reuse (issue 33, tenth session): every replay
(:meth:`TweakHistory.replay_weighted`, which resumes from a snapshot of an earlier replay
where the new filling's deck agrees on every position read so far) equals the plain
replay from the round's deal (:meth:`TweakHistory.replay_plain`): the same number of
steps that agree, the same state (every field, its history too) and the same weight, over
random fillings, chain-like runs of swaps (kept or undone at random) and whole climbs; the
deck a filling decodes to and the slots suspected at a failure (both made cheaper in the
same session) equal their definitions."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from step_helpers import play_to

from kifu import games
from kifu.bots.posterior import consistent_start
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak.posterior import hidden_history

GAME = games.get("tweak")
ONE_ROUND = GAME.parse_rules("tweak/1;rounds=1")


def _game(seed: str, stop: int, players: int, seat_bot: str = "greedy", seat: int = 0):
    """A one-round game (``seat_bot`` in ``seat``, ``greedy`` elsewhere) to the seat's
    ``stop``-th decision or later; the state and the seat, or ``(None, None)``."""
    return play_to(GAME, ONE_ROUND, seed, stop, players, seat_bot=seat_bot, seat=seat)


def _fields(s) -> tuple:
    """Everything a TWEAK state holds but its undo stack (which a caller never pops)."""
    return (s._snap(), tuple(s.history), s.to_line(), s.n, s.variant)


def suspects_plain(h, k, s) -> list[int]:
    """:meth:`TweakHistory.suspects` as written before its memo (its definition)."""
    m = s.to_move
    if m == DEALER:
        m = s.victim
    if m is None or m < 0 or m == h.seat:
        return []
    out = [i for i, (o, at) in enumerate(zip(h.owner, h.step, strict=True))
           if o == m and at <= k]
    deck, backs = s.deck, h.backs
    mine = {h.slots[i][1] for i in out if h.slots[i][0] == "back"}
    seen: Counter[int] = Counter()
    for q in h.unknown_pos:
        b = backs[deck[q]]
        if q in mine:
            out.append(h.extra[b][seen[b]])
        seen[b] += 1
    return out


def decode_plain(h, cards) -> list[int]:
    """:meth:`TweakHistory.decode` as written before (its definition)."""
    deck = list(h._base)
    for q, i in zip(h.known_pos, h.known_slots, strict=True):
        deck[q] = cards[i]
    nxt = dict.fromkeys(h.kinds, 0)
    for q, i in zip(h.unknown_pos, h.unknown_slots, strict=True):
        b = cards[i]
        deck[q] = cards[h.extra[b][nxt[b]]]
        nxt[b] += 1
    return deck


def _same(h, cards) -> int:
    k, s, w = h.replay_weighted(cards)
    k0, s0, w0 = h.replay_plain(cards)
    assert (k, w) == (k0, w0)
    assert h.decode(cards) == decode_plain(h, cards)
    if k < h.steps:
        assert h.suspects(k, s) == suspects_plain(h, k, s0)
    assert _fields(s) == _fields(s0)
    assert s.view(h.seat) == s0.view(h.seat)
    s.check_invariants()
    return k


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40), st.integers(2, 5),
       st.sampled_from(["greedy", "random"]))
def test_every_replay_equals_the_plain_replay(seed, stop, players, seat_bot):
    state, seat = _game(f"prefix:{seed}", stop, players, seat_bot)
    if state is None:
        return  # the round ended before that decision
    h = hidden_history(state, seat, GAME)
    if h is None:
        return
    rng = Rng(seed)
    truth = h.true_cards(state)
    assert _same(h, truth) == h.steps
    used = [i for i, u in enumerate(h.used) if u]
    group_of = {i: g for g, idx in enumerate(h.groups) for i in idx}
    for start in (truth, h.start(rng), truth):
        cards = list(start)
        k = _same(h, cards)
        for _ in range(60):  # a chain's walk: swap two slots of a group, keep or undo
            a = used[rng.below(len(used))]
            group = h.groups[group_of[a]]
            b = group[rng.below(len(group))]
            cards[a], cards[b] = cards[b], cards[a]
            k2 = _same(h, cards)
            if k2 < k and rng.below(4):
                cards[a], cards[b] = cards[b], cards[a]  # refused
            else:
                k = k2
        _same(h, h.start(rng))  # a fresh filling between walks


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30))
def test_a_climb_replays_as_the_plain_replay(seed, stop):
    """A whole climb (:func:`consistent_start`) with every replay checked, and the same
    climb on the plain replay reaches the same filling by the same random numbers."""
    state, seat = _game(f"climb:{seed}", stop, 4)
    if state is None:
        return
    h = hidden_history(state, seat, GAME)
    if h is None:
        return
    fast = h.replay

    def checked(cards):
        k = _same(h, cards)
        got = fast(cards)
        assert got[0] == k
        return got

    h.replay = checked
    r1 = Rng(seed)
    got = consistent_start(h, r1, 600)
    h2 = hidden_history(state, seat, GAME)
    h2.replay = lambda cards: h2.replay_plain(cards)[:2]
    r2 = Rng(seed)
    assert consistent_start(h2, r2, 600) == got
    assert r1.next64() == r2.next64()
