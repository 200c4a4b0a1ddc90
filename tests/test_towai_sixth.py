"""TOWAI's ``shed`` and ``flex`` policies (issue 33, sixth session;
``kifu/games/towai/bots.py``): ``tactics`` that leads and follows with the card that sheds
the most cards this turn, and ``shed`` that keeps its flexible cards (Swap gifts and ties).
Checked against naive recomputations over state copies, for fairness (the same choice in
every world the seat's sampler draws), and as ``expert``'s rollout policy and default."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from towai_helpers import one_round_decisions

from kifu import games
from kifu.bots import make_bot
from kifu.bots.evaluate import policy_class
from kifu.bots.profiles import profile
from kifu.core.rng import Rng
from kifu.games.towai.actions import GIVES, LEADS, Give, Pass, Stop
from kifu.games.towai.bots import (
    FlexPolicy,
    ShedPolicy,
    flex_choice,
    greedy_choice,
    number_counts,
    shed_choice,
    tactics_choice,
    turn_shed,
)
from kifu.games.towai.cards import CODE_OF, DAY, NIGHT, NUM, TWAI, TYPE
from kifu.games.towai.state import CHAIN, LEAD, PLAY, SWAP_PHASE

GAME = games.get("towai")
VARIANT = GAME.parse_rules("towai/1;wins=1")

# A lead of seat 0 holding D4 N3 N4 N4 (made from a position of a seeded game by moving
# cards between hands, the 60 cards kept): `greedy` leads `day D4` (its most-held number,
# the lower card code, on that card's side) and cannot go on with the two N4; led by Night
# the D4 takes both N4 with it.
LEAD_D4_N4_N4 = (
    "towai/1;wins=1 L0 day D4N3N4N4/D3D5N3N5T2T4/D4D5N3T3T6/D3D4D6N1T1T1T4T5 - "
    "T6N1D6T6D5D4T3D6T5N4N2N4N3D6T5N1D3T3D3N1T7D7T2N2D7T1N2 D5D7D7N2N5N5N5T2T7T7 -:0 "
    "0,0,0,0 f0t12"
)


def _positions(seed: int | str, players: int = 4, first=ShedPolicy):
    """Every player decision with a choice of one seeded one-round game: seat 0 plays
    ``first`` (``shed``), the others ``greedy`` and ``random`` alternately."""
    return one_round_decisions(f"towai-shed:{seed}", first, players)


def _naive_shed(state, action) -> int:
    """Cards the mover sheds by ``action`` and its own ``tactics`` combo, on a copy."""
    st_ = state.copy()
    seat = st_.turn
    before = st_.hand_size(seat)
    st_.push(action)
    while st_.to_move == seat and st_.phase == CHAIN:
        legal = st_.legal_actions()
        st_.push(legal[0] if len(legal) == 1 else tactics_choice(st_, legal))
    if st_.to_move is None:
        return 99
    return before - st_.hand_size(seat)


def _naive_choice(state):
    """Naive: ``tactics``' choice, except at a lead or a follow, where the playing action
    that sheds strictly the most (``tactics``' own first, then legal order) is taken."""
    legal = state.legal_actions()
    pick = tactics_choice(state, legal)
    if state.phase not in (LEAD, PLAY) or type(pick) is Pass:
        return pick
    scored = [(_naive_shed(state, pick), 0, pick)] + [
        (_naive_shed(state, a), 1 + i, a) for i, a in enumerate(legal)
        if a != pick and type(a) not in (Pass, Stop)]
    best = max(scored, key=lambda t: (t[0], -t[1]))
    return best[2]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 5))
def test_shed_agrees_with_a_naive_recomputation(seed, players):
    for state in _positions(seed, players):
        key, depth = state.key(), len(state.history)
        legal = state.legal_actions()
        pick = shed_choice(state, legal)
        assert state.key() == key and len(state.history) == depth  # left as it was
        assert pick == _naive_choice(state)
        tac = tactics_choice(state, legal)
        if pick != tac:
            assert state.phase in (LEAD, PLAY)
            assert type(pick) not in (Pass, Stop)
            assert turn_shed(state, pick) > turn_shed(state, tac)


def test_shed_departs_from_tactics_somewhere():
    """The property test above could pass with a policy that never departs: over a few
    seeded games it does, at leads and at follows."""
    phases = set()
    for g in range(12):
        for state in _positions(f"some:{g}"):
            legal = state.legal_actions()
            if shed_choice(state, legal) != tactics_choice(state, legal):
                phases.add(state.phase)
    assert phases == {LEAD, PLAY}


def test_shed_leads_a_number_on_the_side_that_takes_the_most_cards():
    state = GAME.from_line(LEAD_D4_N4_N4)
    legal = state.legal_actions()
    assert greedy_choice(state, legal) == LEADS[DAY][CODE_OF["D4"]]
    assert turn_shed(state, LEADS[DAY][CODE_OF["D4"]]) == 1
    pick = shed_choice(state, legal)
    assert pick == LEADS[NIGHT][CODE_OF["D4"]]
    assert turn_shed(state, pick) == 3


def test_shed_is_the_same_in_every_world_the_seat_can_imagine():
    """Fair: it reads the mover's hand and the public field only."""
    rng = Rng("shed-worlds")
    checked = 0
    for g in range(4):
        for state in _positions(f"fair:{g}"):
            seat = state.turn
            if state.phase not in (LEAD, PLAY):
                continue
            truth = shed_choice(state, state.legal_actions())
            draw = GAME.world_sampler(state, seat)
            for _ in range(2):
                world = draw(rng)
                assert world.hand(seat) == state.hand(seat)
                assert shed_choice(world, world.legal_actions()) == truth
                checked += 1
    assert checked > 40


def test_shed_is_a_rollout_policy_and_an_expert_default_not_a_player():
    assert policy_class(GAME, profile("towai"), "shed") is ShedPolicy
    assert "shed" not in GAME.bots
    state = GAME.from_line(LEAD_D4_N4_N4)
    # expert's default choice from shed (asked over sampled worlds: shed is fair, so every
    # world agrees); with z large the z-test keeps it
    bot = make_bot(GAME, "expert:level=fast:default=shed:z=10", 0, Rng(1))
    assert bot.choose(state) == LEADS[NIGHT][CODE_OF["D4"]]
    plain = make_bot(GAME, "expert:level=fast:z=10", 0, Rng(1))
    assert plain.choose(state) == LEADS[DAY][CODE_OF["D4"]]
    make_bot(GAME, "expert:rollout=shed:others=greedy", 0, Rng(0))


def _naive_flexibility(card: int) -> int:
    """The tops 1..7 a card can follow on its own side, counted (a Twai: 9)."""
    if TYPE[card] == TWAI:
        return 9
    if TYPE[card] == DAY:
        return sum(1 for top in range(1, 8) if NUM[card] >= top)
    return sum(1 for top in range(1, 8) if NUM[card] <= top)


def _naive_flex(state):
    """Naive ``flex``: at a Swap the Day/Night card that follows the fewest tops (then the
    least-held number, then the highest code), else a Twai as ``greedy`` gives it; at a
    lead or a follow the playing action that sheds the most, then the least flexible, then
    ``tactics``' own, then legal order; else ``tactics``."""
    legal = state.legal_actions()
    if state.phase == SWAP_PHASE:
        counts = number_counts(state.hand(state.turn))
        plain = [a.card for a in legal if type(a) is Give and TYPE[a.card] != TWAI]
        if not plain:
            return greedy_choice(state, legal)
        return GIVES[sorted(plain, key=lambda c: (_naive_flexibility(c), counts[NUM[c]],
                                                  -c))[0]]
    pick = tactics_choice(state, legal)
    if state.phase not in (LEAD, PLAY) or type(pick) is Pass:
        return pick
    plays = [a for a in legal if type(a) not in (Pass, Stop)]
    if len(plays) < 2:
        return pick
    scored = sorted(range(len(plays)), key=lambda i: (
        -_naive_shed(state, plays[i]), _naive_flexibility(plays[i].card),
        plays[i] != pick, i))
    return plays[scored[0]]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 5))
def test_flex_agrees_with_a_naive_recomputation(seed, players):
    for state in _positions(seed, players, FlexPolicy):
        key = state.key()
        legal = state.legal_actions()
        pick = flex_choice(state, legal)
        assert state.key() == key
        assert pick == _naive_flex(state)
        if state.phase not in (LEAD, PLAY, SWAP_PHASE):
            assert pick == tactics_choice(state, legal)


def test_flex_departs_from_shed_at_gifts_leads_and_follows():
    phases = set()
    for g in range(20):
        for state in _positions(f"flex:{g}", 4, FlexPolicy):
            legal = state.legal_actions()
            if flex_choice(state, legal) != shed_choice(state, legal):
                phases.add(state.phase)
    assert phases == {LEAD, PLAY, SWAP_PHASE}


def test_flex_is_the_same_in_every_world_the_seat_can_imagine():
    rng = Rng("flex-worlds")
    checked = 0
    for g in range(4):
        for state in _positions(f"flexfair:{g}", 4, FlexPolicy):
            seat = state.turn
            truth = flex_choice(state, state.legal_actions())
            draw = GAME.world_sampler(state, seat)
            world = draw(rng)
            assert world.hand(seat) == state.hand(seat)
            assert flex_choice(world, world.legal_actions()) == truth
            checked += 1
    assert checked > 40
    assert policy_class(GAME, profile("towai"), "flex") is FlexPolicy
    assert "flex" not in GAME.bots
