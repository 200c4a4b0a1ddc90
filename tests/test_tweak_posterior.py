"""The exact posterior over TWEAK's hidden history (kifu/bots/posterior.py,
kifu/games/tweak/posterior.py; issue 33, seventh session)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from step_helpers import play_to

from kifu import games
from kifu.bots import make_bot
from kifu.bots.posterior import chain, posterior_draw, posterior_fillings
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak.actions import UseBomb, UseShifter, UseThief
from kifu.games.tweak.posterior import hidden_history

GAME = games.get("tweak")
ONE_ROUND = GAME.parse_rules("tweak/1;rounds=1")


def _game(seed: str, stop: int, players: int = 4, bot: str = "greedy",
          seat_bot: str | None = None, seat: int = 0):
    """A one-round game of ``bot`` in every seat (``seat_bot`` in ``seat``), played to
    its ``stop``-th player decision (or its end); the state and the seat to move."""
    return play_to(GAME, ONE_ROUND, seed, stop, players, bot, seat_bot, seat)


def _hidden_backs_agree(h, state, seat) -> None:
    """The coding's fixed part is what the seat saw; every hidden position is in exactly
    one slot; the true filling decodes to the true deck."""
    truth = h.true_cards(state)
    assert h.decode(truth) == list(state.deck)
    for g, idx in enumerate(h.groups):
        assert Counter(truth[i] for i in idx) == +h.pools[g]
    positions = sorted(h.known_pos + h.unknown_pos + list(h.fixed))
    assert positions == list(range(len(state.deck)))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40), st.integers(2, 5))
def test_true_history_and_every_posterior_world_agree_with_the_seat(seed, stop, players):
    state, seat = _game(f"post:{seed}", stop, players)
    if state is None:
        return  # the round ended before that decision
    h = hidden_history(state, seat, GAME)
    assert h is not None
    _hidden_backs_agree(h, state, seat)
    truth = h.true_cards(state)
    assert h.replay(truth)[0] == h.steps  # greedy played it: consistent
    fills = posterior_fillings(h, Rng(seed), 6, chains=2, burn=20, thin=3, climb=3000)
    # (late in a round the climb to a start may give up: then a chain from the truth)
    for f in fills or chain(h, truth, Rng(seed), 6, 3, 20):
        assert h.replay(f)[0] == h.steps
        w = h.world(f, Rng(1))
        assert w is not None
        assert w.view(seat) == state.view(seat)
        assert w.hands[seat] == state.hands[seat]
        assert w.to_move == state.to_move
        assert Counter(w.deck_left()) == Counter(state.deck_left()) + Counter(
            c for p in range(players) if p != seat for c in state.hands[p]) - Counter(
            c for p in range(players) if p != seat for c in w.hands[p])
        # every card an other seat drew has the back the seat saw then
        deck = h.decode(f)
        for q in h.known_pos:
            assert h.backs[deck[q]] == h.backs[state.deck[q]]


@pytest.mark.parametrize("seed,kind", [(14, UseThief), (28, UseBomb), (29, UseBomb),
                                       (33, UseThief), (36, UseShifter), (59, UseThief)])
def test_the_seats_own_t_cards_thieves_and_bombs_stay_consistent(seed, kind):
    """The seat plays ``random`` (which uses its Thieves, Bombs, Jokers and Shifters),
    the others ``greedy``: with the seat's own T! card in the round (a Thief's draw is
    replayed as the record says, the Bomb's victims give up ``greedy``'s card), the
    true filling is consistent and the worlds agree with the seat."""
    state, seat = _game(f"own:{seed}", 30, 4, seat_bot="random", seat=1)
    assert any(type(a) is kind for a in state.history)
    h = hidden_history(state, seat, GAME)
    assert h is not None
    _hidden_backs_agree(h, state, seat)
    assert h.replay(h.true_cards(state))[0] == h.steps
    # (a chain from the truth: late in a round the climb to a start may give up)
    for f in chain(h, h.true_cards(state), Rng(seed), 4, 3, 20):
        assert h.replay(f)[0] == h.steps
        assert h.world(f, Rng(2)).view(seat) == state.view(seat)


@pytest.mark.parametrize("seed,stop", [("fair:0", 12), ("fair:1", 24)])
def test_the_hook_reads_only_what_the_seat_saw(seed, stop):
    """Fairness: the round replayed with another consistent filling (other hidden cards,
    the same view at every step) gives the same hidden history: the same fixed cards,
    slots, backs, cards to place and view (so the hook read nothing else)."""
    state, seat = _game(seed, stop)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    other = None
    for f in chain(h, truth, Rng(3), 50, 5, 50):
        if h.decode(f) != h.decode(truth):
            other = f
    assert other is not None
    k, alt = h.replay(other)
    assert k == h.steps and alt.deck != state.deck
    h2 = hidden_history(alt, seat, GAME)
    assert h2 is not None
    for name in ("fixed", "slots", "known_pos", "unknown_pos", "extra", "pools", "final_view",
                 "targets", "movers", "groups", "used"):
        assert getattr(h2, name) == getattr(h, name), name


def test_a_filling_that_breaks_greedy_is_refused():
    state, seat = _game("post:refuse", 20)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    refused = 0
    for idx in h.groups:
        for a, b in itertools.combinations(idx, 2):
            if truth[a] != truth[b]:
                c = list(truth)
                c[a], c[b] = c[b], c[a]
                refused += h.replay(c)[0] < h.steps
    assert refused > 0


def _brute(h, truth, free):
    """Every filling of the ``free`` slots (all of one group) with their true cards in
    any order (the rest held at the truth), and which of them are consistent."""
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


def _free(h, truth, group, k):
    """Up to ``k`` used slots of ``group`` with at least two different true cards."""
    idx = [i for i in h.groups[group] if h.used[i]]
    return idx[:k] if len({truth[i] for i in idx[:k]}) > 1 else []


@pytest.mark.parametrize("seed,stop,group", [("bf:0", 16, 0), ("bf:0", 12, 1),
                                             ("bf:1", 16, 2), ("bf:2", 12, 4),
                                             ("bf:0", 20, 1), ("bf:1", 12, 4)])
def test_the_chain_matches_brute_force_enumeration(seed, stop, group):
    """The chain over a few slots of one group (the rest held at the truth) visits exactly
    the consistent fillings that enumeration finds, each about equally often (the
    posterior under greedy opponents is uniform over them). (Not on every position: at
    bf:1's 20th decision, group 0, one consistent filling of six slots is reached from
    the truth only through an inconsistent one, so a chain over those slots alone never
    visits it; the whole chain, with several starts, is the remedy.)"""
    state, seat = _game(seed, stop)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    free = _free(h, truth, group, 6)
    assert free
    total, ok = _brute(h, truth, free)
    assert 2 < len(ok) < total  # something to tell apart, something refused
    samples = chain(h, truth, Rng(7), 3000, 3, 200, free=free)
    seen = Counter(tuple(s[i] for i in free) for s in samples)
    assert set(seen) == ok
    tv = 0.5 * sum(abs(seen[p] / len(samples) - 1 / len(ok)) for p in ok)
    assert tv < 0.1, tv


def test_the_coding_is_one_to_one_on_the_fillings_that_respect_the_backs():
    """Brute force over a tiny part: every order of a few slots' cards in group 0 and
    one card group gives a different deck, each respecting the backs the seat saw."""
    state, seat = _game("code:0", 12)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    a = [i for i in h.groups[0] if h.slots[i][0] == "back"][:4]
    b = h.groups[1][:4]
    decks = set()
    n = 0
    for pa in set(itertools.permutations([truth[i] for i in a])):
        for pb in set(itertools.permutations([truth[i] for i in b])):
            c = list(truth)
            for i, v in zip(a + b, pa + pb, strict=True):
                c[i] = v
            deck = h.decode(c)
            assert Counter(deck) == Counter(state.deck)
            for q in h.known_pos:
                assert h.backs[deck[q]] == h.backs[state.deck[q]]
            decks.add(tuple(deck))
            n += 1
    assert len(decks) == n > 1


def test_expert_posterior_worlds_come_from_the_hook_and_need_a_history():
    state, seat = _game("post:expert", 12)
    prof = profile("tweak")
    got = posterior_draw(GAME, state, seat, prof.hidden, 5, Rng(2), chains=1, burn=10,
                         thin=2)
    assert got is not None
    draw, note = got
    for _ in range(5):
        assert draw(Rng(0)).view(seat) == state.view(seat)
    assert note["chains"] == 1
    bare = GAME.from_line(state.to_line())
    assert posterior_draw(GAME, bare, seat, prof.hidden, 5, Rng(2)) is None
    bot = make_bot(GAME, "expert:posterior=1:level=fast", seat, Rng(5))
    assert bot.choose(state) in state.legal_actions()


def test_other_players_than_greedy_are_not_explained():
    """Against ``random`` players the model (greedy) does not explain the true round."""
    state, seat = _game("post:random", 20, bot="random")
    h = hidden_history(state, seat, GAME)
    assert h.replay(h.true_cards(state))[0] < h.steps


# --- the warm start (eighth session) ------------------------------------------------


def _two(seed: str, stop: int, players: int = 4):
    """A one-round all-``greedy`` game: the position of the seat to move at its
    ``stop``-th decision and the same seat's next decision (``None`` past the end)."""
    state, seat = _game(seed, stop, players)
    if state is None:
        return None, None, None
    first = state.copy()
    rng = Rng(f"{seed}:two")
    bots = [make_bot(GAME, "greedy", s, rng.fork(s + 1)) for s in range(players)]
    state.push(bots[seat].choose(state))
    while state.to_move is not None and state.to_move != seat:
        if state.to_move == DEALER:
            state.push(GAME.chance_action(state, rng))
        else:
            state.push(bots[state.to_move].choose(state))
    if state.to_move is None:
        return None, None, None
    return first, state, seat


def _respects(h, deck, state) -> None:
    """``deck`` holds every card the seat saw where it saw it, every back it saw, and
    the round's cards."""
    assert Counter(deck) == Counter(state.deck)
    for q, c in h.fixed.items():
        assert deck[q] == c
    for q in h.known_pos:
        assert h.backs[deck[q]] == h.backs[state.deck[q]]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 36), st.integers(2, 5))
def test_the_true_filling_carried_to_the_next_decision_stays_consistent(seed, stop, players):
    """The true filling at one decision, carried to the seat's next decision of the
    round, is that decision's true filling (so consistent: the warm start never loses
    the truth), and posterior fillings carried respect everything the seat saw since."""
    s1, s2, seat = _two(f"warm:{seed}", stop, players)
    if s1 is None:
        return
    h1 = hidden_history(s1, seat, GAME)
    h2 = hidden_history(s2, seat, GAME)
    assert h1 is not None and h2 is not None and h1.key == h2.key
    carried = h2.carry(h1, h1.true_cards(s1))
    assert carried == h2.true_cards(s2)
    assert h2.replay(carried)[0] == h2.steps
    for f in chain(h1, h1.true_cards(s1), Rng(seed), 5, 5, 20):
        c = h2.carry(h1, f)
        assert c is not None
        _respects(h2, h2.decode(c), s2)


def test_carry_refuses_another_seat_or_round():
    s1, s2, seat = _two("warm:other", 8)
    h1 = hidden_history(s1, seat, GAME)
    other = hidden_history(s2, (seat + 1) % 4, GAME)
    assert other.carry(h1, h1.true_cards(s1)) is None
    t1, _t2, seat_t = _two("warm:round", 8)
    g1 = hidden_history(t1, seat_t, GAME)
    h2 = hidden_history(s2, seat, GAME)
    assert g1.key != h2.key and h2.carry(g1, g1.true_cards(t1)) is None


def test_a_warm_start_starts_from_a_consistent_candidate_else_climbs_from_one():
    s1, s2, seat = _two("warm:start", 12)
    h1 = hidden_history(s1, seat, GAME)
    h2 = hidden_history(s2, seat, GAME)
    truth = h2.carry(h1, h1.true_cards(s1))
    bad = None
    for idx in h2.groups:  # a candidate the replay refuses
        for a, b in itertools.combinations(idx, 2):
            c = list(truth)
            c[a], c[b] = c[b], c[a]
            if h2.replay(c)[0] < h2.steps:
                bad = c
                break
        if bad:
            break
    assert bad is not None
    stats: dict = {}
    fills = posterior_fillings(h2, Rng(1), 4, chains=1, burn=5, thin=2, climb=3000,
                               stats=stats, starts=[None, bad, truth])
    assert stats["warm"] == 1 and stats["carried"] == 2 and "climb" not in stats
    assert fills and all(h2.replay(f)[0] == h2.steps for f in fills)
    stats = {}
    posterior_fillings(h2, Rng(1), 4, chains=1, burn=5, thin=2, climb=3000, stats=stats,
                       starts=[bad])
    assert "warm" not in stats and "climb" not in stats
    assert stats.get("warm_climb", 0) == stats.get("chains", 0)  # climbed from it
    # posterior_draw keeps the round's fillings and carries them (expert:warm=1)
    warm = {h1.key: (h1, [h1.true_cards(s1)], 0)}
    note: dict = {}
    got = posterior_draw(GAME, s2, seat, profile("tweak").hidden, 6, Rng(2), chains=1,
                         burn=5, thin=2, climb=3000, warm=warm, note=note)
    assert got is not None and note["why"] == "ok" and note["warm"] == 1
    assert list(warm) == [h2.key] and len(warm[h2.key][1]) == 6
    bot = make_bot(GAME, "expert:posterior=1:warm=1:level=fast:chains=1:burn=5:thin=2",
                   seat, Rng(5))
    assert bot.choose(s1) in s1.legal_actions()


@pytest.mark.parametrize("seed,stop,group", [("bf:0", 16, 0), ("bf:1", 16, 2),
                                             ("bf:1", 12, 4)])
def test_a_chain_from_another_consistent_start_has_the_same_target(seed, stop, group):
    """Exactness of a warm start: started from a consistent filling other than the
    truth, the chain over a few slots visits the same consistent fillings as
    enumeration, each about equally often."""
    state, seat = _game(seed, stop)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    free = _free(h, truth, group, 6)
    _total, ok = _brute(h, truth, free)
    other = sorted(p for p in ok if p != tuple(truth[i] for i in free))[0]
    start = list(truth)
    for i, v in zip(free, other, strict=True):
        start[i] = v
    samples = chain(h, start, Rng(11), 3000, 3, 200, free=free)
    seen = Counter(tuple(s[i] for i in free) for s in samples)
    assert set(seen) == ok
    tv = 0.5 * sum(abs(seen[p] / len(samples) - 1 / len(ok)) for p in ok)
    assert tv < 0.1, tv


def test_persist_keeps_the_carried_fillings_over_one_failure_and_gives_up_at_two():
    """``warm=2``: a decision whose chains find no start although fillings were carried
    keeps them for the next decision and does not give the round up; a second failure
    in a row does (``warm=1``: the first)."""
    s1, s2, seat = _two("warm:persist", 12)
    h1 = hidden_history(s1, seat, GAME)
    truth = h1.true_cards(s1)
    bad = None
    for idx in h1.groups:  # a filling the replay refuses at once
        for a, b in itertools.combinations(idx, 2):
            c = list(truth)
            c[a], c[b] = c[b], c[a]
            if h1.replay(c)[0] < h1.steps // 2:
                bad = c
                break
        if bad:
            break
    assert bad is not None
    hook = profile("tweak").hidden
    for persist in (True, False):
        warm = {h1.key: (h1, [bad], 0)}
        memo: set = set()
        for round_ in (1, 2):
            note: dict = {}
            got = posterior_draw(GAME, s2, seat, hook, 4, Rng(round_), chains=1, burn=5,
                                 thin=2, climb=1, give_up=True, memo=memo, warm=warm,
                                 persist=persist, note=note)
            assert got is None and note["why"] == ("no start" if persist or round_ == 1
                                                   else "given up")
            if persist and round_ == 1:
                assert not memo and warm[h1.key] == (h1, [bad], 1)
            else:
                assert memo == {h1.key}


class _Toy:
    """A hook of five slots in one group (cards 0, 0, 1, 2, 3): consistent unless slot 0
    holds a 3, weighted 1 + [slot 1 holds a 0] + 2 [slot 2 holds the 1]."""

    def __init__(self):
        self.groups = [[0, 1, 2, 3, 4]]
        self.used = [True] * 5
        self.slots = [("toy", i) for i in range(5)]
        self.steps = 1

    def replay_weighted(self, cards):
        if cards[0] == 3:
            return 0, None, 0
        return 1, None, 1 + (cards[1] == 0) + 2 * (cards[2] == 1)

    def replay(self, cards):
        return self.replay_weighted(cards)[:2]


def test_a_weighed_chain_samples_in_proportion_to_the_weights():
    """``weigh`` (TWEAK: a Thief's draw as likely as the copies the victim held): over
    every distinct filling of a toy hook, the chain's visits match the weights found by
    enumeration (total variation < 0.05); unweighed, they are uniform."""
    h = _Toy()
    fills = set(itertools.permutations([0, 0, 1, 2, 3]))
    weight = {p: h.replay_weighted(list(p))[2] for p in fills}
    total = sum(weight.values())
    for weigh in (True, False):
        samples = chain(h, [0, 0, 1, 2, 3], Rng(4), 20_000, 2, 200, weigh=weigh)
        seen = Counter(tuple(s) for s in samples)
        assert set(seen) == {p for p in fills if weight[p]}
        want = {p: (weight[p] / total if weigh else 1 / sum(1 for q in fills if weight[q]))
                for p in fills if weight[p]}
        tv = 0.5 * sum(abs(seen[p] / len(samples) - want[p]) for p in want)
        assert tv < 0.05, (weigh, tv)


@pytest.mark.parametrize("seed", [14, 33, 59])
def test_the_seats_own_thief_draw_weighs_the_filling_by_copies(seed):
    """The true filling's weight is the product, over the seat's Thief draws, of the
    copies the victim held (at least 1); a refused filling weighs 0; a weighed chain
    keeps every world consistent."""
    state, seat = _game(f"own:{seed}", 30, 4, seat_bot="random", seat=1)
    h = hidden_history(state, seat, GAME)
    truth = h.true_cards(state)
    k, _s, w = h.replay_weighted(truth)
    replayed = h.pre.copy()
    replayed.push(h.deal(truth))
    want, draws = 1, 0
    for a in h.actions:
        if replayed.to_move == DEALER:
            want *= list(replayed.hands[replayed.victim]).count(a.card)
            draws += 1
        replayed.push(a)
    assert draws and k == h.steps and w == want >= 1
    for idx in h.groups:
        for a, b in itertools.combinations(idx, 2):
            c = list(truth)
            c[a], c[b] = c[b], c[a]
            if h.replay(c)[0] < h.steps:
                assert h.replay_weighted(c)[2] == 0
    for f in chain(h, truth, Rng(seed), 4, 3, 20, weigh=True):
        assert h.replay(f)[0] == h.steps


def test_share_lets_the_chains_with_a_start_give_every_filling():
    """``share``: when one chain of two finds no start, the other gives all the
    fillings (without it, half: the caller fills the rest from the sampler)."""
    s1, s2, seat = _two("warm:start", 12)
    h1 = hidden_history(s1, seat, GAME)
    h2 = hidden_history(s2, seat, GAME)
    truth = h2.carry(h1, h1.true_cards(s1))
    for share, size in ((True, 8), (False, 4)):
        stats: dict = {}
        fills = posterior_fillings(h2, Rng(1), 8, chains=2, burn=5, thin=2, climb=1,
                                   stats=stats, starts=[truth], share=share)
        assert stats["chains"] == 1 and len(fills) == size
        assert all(h2.replay(f)[0] == h2.steps for f in fills)
