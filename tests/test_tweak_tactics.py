"""TWEAK's ``tactics`` rollout policy (``kifu/games/tweak/bots.py``) and ``expert``'s
``rollout`` parameter: ``greedy`` that also uses its Thief and Bomb, checked against a
naive recomputation of what each use leaves to capture."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kifu import games
from kifu.bots import bot_names, make_bot
from kifu.bots.evaluate import policy_class
from kifu.bots.profiles import profile
from kifu.core.errors import VariantError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak.actions import (
    PLACE,
    STEAL,
    Capture,
    UseBomb,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.games.tweak.bots import GreedyBot, TacticsPolicy, capture_value
from kifu.games.tweak.cards import POINTS
from kifu.games.tweak.state import BOMB_PHASE

GAME = games.get("tweak")
VARIANT = GAME.parse_rules("tweak/1;rounds=1")


def _best(state) -> float:
    """The most points a capture of the mover takes now (naive: every legal capture)."""
    return max([capture_value(state, a) for a in state.legal_actions() if type(a) is Capture],
               default=0)


def _after(state, action) -> float:
    """Naive: the points the mover captures after ``action`` (a Thief: the mean over the
    victim's cards, each copy alike; a Bomb: each victim gives up its least valuable
    card; a Joker or Shifter: the best capture then; a capture: its value)."""
    st = state.copy()
    me = st.to_move
    if type(action) is Capture:
        return capture_value(st, action)
    if type(action) is UseThief:
        hand = st.hands[action.victim]
        st.push(action)
        total = Fraction(0)
        for card in hand:  # every copy apart
            st2 = st.copy()
            st2.push(STEAL[card])
            total += Fraction(int(_best(st2)), len(hand))
        return float(total)
    if type(action) is UseBomb:
        st.push(action)
        while st.phase == BOMB_PHASE:
            hand = st.hands[st.to_move]
            card = min(hand, key=lambda c: (POINTS[c], c % 6, c))
            st.push(PLACE[card])
        return _best(st) if st.to_move == me else 0
    if type(action) in (UseJoker, UseShifter):
        st.push(action)
        return _best(st)
    return 0


def _positions(games: int):
    """Every player decision of seeded 4-player one-round games, T! cards used by the
    ``tactics`` policy in every seat (so Thieves and Bombs are held and played)."""
    for g in range(games):
        rng = Rng(f"tactics:{g}")
        state = GAME.new_state(4, VARIANT)
        bots = [TacticsPolicy(s, rng.fork(s + 1)) for s in range(4)]
        dealer = rng.fork(0)
        while state.to_move is not None:
            if state.to_move == DEALER:
                state.push(GAME.chance_action(state, dealer))
                continue
            yield state
            state.push(bots[state.to_move].choose(state))


def test_tactics_is_greedy_unless_a_thief_or_bomb_captures_strictly_more():
    departures = 0
    for state in _positions(40):
        greedy = GreedyBot(state.to_move, Rng(0)).choose(state)
        pick = TacticsPolicy(state.to_move, Rng(0)).choose(state)
        assert pick in state.legal_actions()
        if pick == greedy:
            continue
        departures += 1
        assert type(pick) in (UseThief, UseBomb), state.to_line()
        assert _after(state, pick) > _after(state, greedy), state.to_line()
    assert departures >= 5  # the policy does use its Thieves and Bombs


def test_tactics_never_passes_up_a_thief_or_bomb_that_captures_more():
    checked = 0
    for state in _positions(20):
        if state.phase == BOMB_PHASE or state.tused:
            continue
        pick = TacticsPolicy(state.to_move, Rng(0)).choose(state)
        for a in state.legal_actions():
            if type(a) in (UseThief, UseBomb):
                checked += 1
                assert _after(state, a) <= _after(state, pick) + 1e-9, state.to_line()
    assert checked > 0


def test_tactics_is_a_rollout_policy_not_a_player():
    assert "tactics" not in bot_names(GAME)
    assert "tactics" not in GAME.bots
    assert policy_class(GAME, profile("tweak"), "tactics") is TacticsPolicy
    assert policy_class(GAME, profile("tweak"), "greedy") is GreedyBot


def test_expert_rollout_parameter():
    bot = make_bot(GAME, "expert:level=fast:rollout=tactics", 0, Rng(1))
    assert bot.params["rollout"] == "tactics"
    with pytest.raises(VariantError, match="no rollout policy 'tactics'"):
        make_bot(games.get("graph-t"), "expert:rollout=tactics", 0, Rng(1))
    with pytest.raises(VariantError, match="rollout must be one of"):
        make_bot(GAME, "expert:rollout=smart", 0, Rng(1))


def expert_game_actions(spec: str, seed: str) -> list:
    """The first 40 actions of a seeded 4-player one-round game, ``spec`` in seat 0 and
    ``greedy`` in the others; every player action checked legal."""
    state = GAME.new_state(4, VARIANT)
    rng = Rng(seed)
    bots = [make_bot(GAME, spec if s == 0 else "greedy", s, rng.fork(s + 1))
            for s in range(4)]
    dealer = rng.fork(0)
    out = []
    while state.to_move is not None and len(out) < 40:
        if state.to_move == DEALER:
            a = GAME.chance_action(state, dealer)
        else:
            a = bots[state.to_move].choose(state)
            assert a in state.legal_actions()
        out.append(GAME.format_action(state, a))
        state.push(a)
    return out


def test_expert_with_tactics_rollouts_plays_legal_actions_deterministically():
    spec = "expert:level=fast:rollout=tactics:worlds=4"
    assert expert_game_actions(spec, "tactics-expert") == \
        expert_game_actions(spec, "tactics-expert")


def test_tweak_expert_defaults_to_tactics_rollouts_at_its_own_normal_level(monkeypatch):
    import kifu.bots.expert as expert_mod

    seen: list[tuple[int, str | None]] = []
    others: list[tuple[str | None, int]] = []
    real = expert_mod.sample_rows

    def spy(game, state, seat, acts, lvl, rng, *args, **kw):
        seen.append((lvl.worlds, kw.get("policy")))
        others.append((kw.get("others"), lvl.exact_nodes))
        return real(game, state, seat, acts, lvl, rng, *args, **kw)

    monkeypatch.setattr(expert_mod, "sample_rows", spy)
    state = next(s for s in _positions(1) if len(s.legal_actions()) > 2)
    make_bot(GAME, "expert", state.to_move, Rng(3)).choose(state)
    # since the fifth session: the others rolled out with greedy, 96 + 192 worlds
    assert seen[0] == (96, "tactics") and seen[1] == (192, "tactics")
    assert others[0] == ("greedy", 45000)
    seen.clear()
    make_bot(GAME, "expert:level=fast:rollout=profile", state.to_move, Rng(3)).choose(state)
    assert seen[0] == (8, None)
    seen.clear()
    make_bot(GAME, "expert:worlds=6", state.to_move, Rng(3)).choose(state)
    assert seen[0] == (6, "tactics") and seen[1] == (12, "tactics")


def test_expert_others_parameter_rolls_out_the_other_seats_with_their_own_policy():
    """``expert:others=greedy``: in each rollout the seat valued plays the rollout policy
    (``tactics``), every other seat ``greedy``; each mover is asked of the right one."""
    from kifu.bots.evaluate import _Rollout

    bot = make_bot(GAME, "expert:level=fast:others=greedy", 0, Rng(1))
    assert bot.params["others"] == "greedy"
    with pytest.raises(VariantError, match="others=tactics"):
        make_bot(games.get("graph-t"), "expert:others=tactics", 0, Rng(1))
    roll = _Rollout(GAME, profile("tweak"), 4, "tactics", "greedy")
    asked: list[tuple[int, type]] = []
    for group in (roll.policy, roll.others):
        for b in group:
            real = b.choose

            def spy(state, real=real, b=b):
                asked.append((state.to_move, type(b)))
                return real(state)
            b.choose = spy
    state = GAME.new_state(4, VARIANT)
    rng = Rng("others")
    while state.to_move == DEALER:
        state.push(GAME.chance_action(state, rng))
    seat = state.to_move
    share = roll.run(state.copy(), 12345, seat)
    assert 0.0 <= share <= 1.0
    assert {m for m, _ in asked} == {0, 1, 2, 3}
    for mover, cls in asked:
        assert cls is (TacticsPolicy if mover == seat else GreedyBot)
