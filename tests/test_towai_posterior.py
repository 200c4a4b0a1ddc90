"""The exact posterior over TOWAI's hidden history (kifu/bots/posterior.py,
kifu/games/towai/posterior.py; issue 33, seventh session)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from step_helpers import play_to

from kifu import games
from kifu.bots import make_bot
from kifu.bots.posterior import chain, consistent_start, posterior_draw, posterior_fillings
from kifu.bots.profiles import profile
from kifu.core.rng import Rng
from kifu.games.towai.posterior import hidden_history

GAME = games.get("towai")
ONE_ROUND = GAME.parse_rules("towai/1;wins=1")


def _greedy_game(seed: str, stop: int, players: int = 4, bot: str = "greedy"):
    """A one-round game of ``bot`` in every seat, played to its ``stop``-th player
    decision (or its end); the state and the seat to move."""
    return play_to(GAME, ONE_ROUND, seed, stop, players, bot)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 40), st.integers(3, 5))
def test_true_history_and_every_posterior_world_agree_with_the_seat(seed, stop, players):
    state, seat = _greedy_game(f"post:{seed}", stop, players)
    if state is None:
        return  # the round ended before that decision
    h = hidden_history(state, seat, GAME)
    assert h is not None
    truth = h.true_cards(state)
    assert h.replay(truth)[0] == h.steps  # greedy played it: consistent
    # each group holds exactly its cards
    for g, idx in enumerate(h.groups):
        assert Counter(truth[i] for i in idx) == +h.pools[g]
    fills = posterior_fillings(h, Rng(seed), 6, chains=2, burn=20, thin=3)
    assert fills
    for f in fills:
        assert h.replay(f)[0] == h.steps
        w = h.world(f, Rng(1))
        assert w is not None
        assert w.view(seat) == state.view(seat)
        # the phase (a Swap's cards set aside by others are hidden: not compared)
        assert w.to_line().split(" ")[1].split(":")[0] == \
            state.to_line().split(" ")[1].split(":")[0]
        assert Counter(w.hand_cards(seat)) == Counter(state.hand_cards(seat))


def test_a_filling_that_breaks_greedy_is_refused():
    state, seat = _greedy_game("post:refuse", 20)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    # move every dealt card of another seat to the undrawn deck's slots, and back: some
    # exchange of two of its dealt cards with the rest must break a step
    refused = 0
    hand = [i for i, s in enumerate(h.slots) if s[0] == "hand"]
    rest = [i for i in h.groups[0] if i not in hand]
    for a in hand:
        for b in rest:
            if truth[a] != truth[b]:
                c = list(truth)
                c[a], c[b] = c[b], c[a]
                refused += h.replay(c)[0] < h.steps
    assert refused > 0


def _brute(h, truth, free):
    """Every filling of the ``free`` slots with their true cards in any order (the rest
    held at the truth), and which of them are consistent."""
    vals = [truth[i] for i in free]
    ok = set()
    total = 0
    for perm in set(itertools.permutations(vals)):
        total += 1
        c = list(truth)
        for i, v in zip(free, perm, strict=True):
            c[i] = v
        if h.replay(c)[0] == h.steps:
            ok.add(perm)
    return total, ok


@pytest.mark.parametrize("seed,stop", [("bf:0", 8), ("bf:1", 16)])
def test_the_chain_matches_brute_force_enumeration(seed, stop):
    """The chain over a few slots (the rest held at the truth) visits exactly the
    consistent fillings that enumeration finds, each about equally often (the posterior
    under greedy opponents is uniform over them)."""
    state, seat = _greedy_game(seed, stop)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    free = [i for i, s in enumerate(h.slots) if s[0] == "hand" and s[2] < 2]
    free += [i for i, s in enumerate(h.slots) if s[0] == "deck" and h.used[i]][:2]
    total, ok = _brute(h, truth, free)
    assert 2 < len(ok) < total  # something to tell apart, something refused
    samples = chain(h, truth, Rng(7), 3000, 3, 200, free=free)
    seen = Counter(tuple(s[i] for i in free) for s in samples)
    assert set(seen) <= ok
    assert set(seen) == ok
    # total variation from uniform over the consistent fillings
    tv = 0.5 * sum(abs(seen[p] / len(samples) - 1 / len(ok)) for p in ok)
    assert tv < 0.1, tv


class _Toy:
    """A tiny hidden history for the generic chain: four slots in one group holding
    0, 0, 1, 2; consistent when slot 0 holds no 2 and slots 1 and 2 differ."""

    def __init__(self):
        self.slots = [("deck", 0, i) for i in range(4)]
        self.groups = [[0, 1, 2, 3]]
        self.used = [True] * 4
        self.steps = 1

    def start(self, rng):
        return rng.shuffled([0, 0, 1, 2])

    def replay(self, cards):
        return int(cards[0] != 2 and cards[1] != cards[2]), None

    def suspects(self, k, s):
        return [0, 1, 2]


def test_the_generic_chain_is_uniform_over_consistent_fillings():
    toy = _Toy()
    good = {p for p in set(itertools.permutations([0, 0, 1, 2]))
            if toy.replay(list(p))[0] == 1}
    start = consistent_start(toy, Rng(3))
    assert start is not None and tuple(start) in good
    out = chain(toy, start, Rng(4), 4000, 2)
    seen = Counter(tuple(c) for c in out)
    assert set(seen) == good
    assert max(abs(v / len(out) - 1 / len(good)) for v in seen.values()) < 0.03


def test_expert_posterior_worlds_come_from_the_hook_and_need_a_history():
    state, seat = _greedy_game("post:expert", 12)
    prof = profile("towai")
    got = posterior_draw(GAME, state, seat, prof.hidden, 5, Rng(2), chains=1, burn=10,
                         thin=2)
    assert got is not None
    draw, note = got
    for _ in range(5):
        assert draw(Rng(0)).view(seat) == state.view(seat)
    assert note["chains"] == 1
    # a position without a history from the beginning: nothing to condition on
    bare = GAME.from_line(state.to_line())
    assert posterior_draw(GAME, bare, seat, prof.hidden, 5, Rng(2)) is None
    bot = make_bot(GAME, "expert:posterior=1:level=fast", seat, Rng(5))
    assert bot.choose(state) in state.legal_actions()


def test_other_players_than_greedy_leave_no_history_and_the_round_is_not_searched_again():
    """Against ``random`` players the model (greedy) explains no history of a long enough
    round: the search gives up, and with a memo the round is not searched again."""
    state, seat = _greedy_game("post:random", 30, bot="random")
    prof = profile("towai")
    memo: set = set()
    got = posterior_draw(GAME, state, seat, prof.hidden, 4, Rng(1), chains=2, climb=300,
                         give_up=True, memo=memo)
    assert got is None
    assert len(memo) == 1
    h = hidden_history(state, seat, GAME)
    assert h.replay(h.true_cards(state))[0] < h.steps  # the truth is not greedy's play
    assert posterior_draw(GAME, state, seat, prof.hidden, 4, Rng(1), chains=2, climb=300,
                          give_up=True, memo=memo) is None
