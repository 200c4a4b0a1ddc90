"""TOWAI's rollout policies (``kifu/games/towai/bots.py``): ``tactics`` (``greedy`` that also
sheds its Twai cards in combos) and ``finish`` (``tactics`` that first looks for a way out
this turn on a small hand), checked against naive recomputations, and ``expert``'s
``rollout`` parameter for them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from towai_helpers import one_round_decisions

from kifu import games
from kifu.bots import bot_names, make_bot
from kifu.bots.evaluate import _Rollout, policy_class
from kifu.bots.profiles import profile
from kifu.core.errors import VariantError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.towai.actions import Pass, Play, Stop
from kifu.games.towai.bots import (
    FinishPolicy,
    GreedyBot,
    TacticsPolicy,
    greedy_choice,
    out_line,
)
from kifu.games.towai.cards import NUM, TWAI, TYPE
from kifu.games.towai.state import CHAIN, LEAD, PLAY, SWAP_PHASE

GAME = games.get("towai")
VARIANT = GAME.parse_rules("towai/1;wins=1")


def _positions(seed: int | str, players: int = 4, mix: str = "tactics"):
    """Every player decision (with a choice) of one seeded one-round game; seat 0 plays
    ``mix`` (``tactics``, ``finish`` or ``greedy``), the others ``greedy`` and ``random``
    alternately."""
    first = {"tactics": TacticsPolicy, "finish": FinishPolicy, "greedy": GreedyBot}[mix]
    return one_round_decisions(f"towai-rollouts:{seed}", first, players)


def _naive_tactics(state) -> object:
    """Naive: ``greedy``'s choice, except that where it ends a combo while some card of the
    top's number still fits, that card (the lowest code) is played instead."""
    legal = state.legal_actions()
    pick = greedy_choice(state, legal)
    if state.phase != CHAIN or type(pick) is not Stop:
        return pick
    number = NUM[state.top]
    fits = sorted(a.card for a in legal if type(a) is Play and NUM[a.card] == number)
    return next(a for a in legal if type(a) is Play and a.card == fits[0]) if fits else pick


def _goes_out(state, player: int, depth: int = 40) -> bool:
    """Naive: whether ``player`` goes out before its turn ends whatever the other seats give
    in Swaps, by trying every line (no table, no budget; small hands only)."""
    if state.to_move is None:
        return state.hand_size(player) == 0 and state.wins[player] > 0
    if depth == 0:
        return False
    if state.to_move == DEALER:
        # a rebuild cannot change the player's hand: take the pool in its own order
        from kifu.games.towai.actions import Rebuild

        state.push(Rebuild(state.pool()))
        ok = _goes_out(state, player, depth - 1)
        state.pop()
        return ok
    phase, turn = state.phase, state.turn
    if phase == SWAP_PHASE and turn != player:
        for a in state.legal_actions():
            state.push(a)
            ok = _goes_out(state, player, depth - 1)
            state.pop()
            if not ok:
                return False
        return True
    if turn != player or phase not in (LEAD, PLAY, CHAIN, SWAP_PHASE):
        return False
    for a in state.legal_actions():
        if type(a) in (Stop, Pass):
            continue
        state.push(a)
        ok = _goes_out(state, player, depth - 1)
        state.pop()
        if ok:
            return True
    return False


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([3, 4, 5]))
def test_tactics_is_greedy_but_continues_every_combo_it_can(seed, players):
    for state in _positions(seed, players):
        pick = TacticsPolicy(state.to_move, Rng(0)).choose(state)
        assert pick == _naive_tactics(state)
        assert pick in state.legal_actions()


def test_tactics_departs_from_greedy_only_to_continue_a_combo_with_a_twai():
    departures = 0
    for g in range(60):
        for state in _positions(g):
            pick = TacticsPolicy(state.to_move, Rng(0)).choose(state)
            greedy = GreedyBot(state.to_move, Rng(0)).choose(state)
            if pick != greedy:
                departures += 1
                assert state.phase == CHAIN and type(greedy) is Stop
                assert type(pick) is Play and TYPE[pick.card] == TWAI
                assert NUM[pick.card] == NUM[state.top]
    assert departures > 20  # the case comes up: the test is not vacuous


class _Unbounded(FinishPolicy):
    out_nodes = 10**7


def test_finish_goes_out_where_it_departs_from_tactics():
    """Every ``finish`` choice that is not ``tactics``'s starts a way out this turn that no
    Swap gift can stop (naive search); with an unbounded search, on every hand of at most
    three cards where the naive search finds a way out, its choice starts one."""
    departures = outs = 0
    for g in range(80):
        for state in _positions(g, mix="finish"):
            seat = state.to_move
            pick = FinishPolicy(seat, Rng(0)).choose(state)
            tac = TacticsPolicy(seat, Rng(0)).choose(state)
            small = state.phase in (LEAD, PLAY, CHAIN) and state.hand_size(seat) <= 3
            if pick != tac:
                departures += 1
                assert small
                state.push(pick)
                assert _goes_out(state, seat)
                state.pop()
            if small and _goes_out(state, seat):
                outs += 1
                full = _Unbounded(seat, Rng(0)).choose(state)
                state.push(full)
                assert _goes_out(state, seat)
                state.pop()
    assert departures > 0 and outs > departures


def test_out_line_leaves_the_state_as_it_was_when_it_runs_out_of_nodes():
    """The go-out search runs in place; stopped by its node budget mid-line it must still
    undo its plays (else a rollout goes on from a corrupted world)."""
    stopped = 0
    for g in range(30):
        for state in _positions(g):
            if state.phase not in (LEAD, PLAY, CHAIN):
                continue
            before, hist = state.to_line(), list(state.history)
            for limit in (1, 3, 10):
                line = out_line(state, limit)
                assert state.to_line() == before and state.history == hist
                stopped += line is None
    assert stopped > 0


def test_policies_are_rollout_policies_not_players():
    prof = profile("towai")
    for name, cls in (("tactics", TacticsPolicy), ("finish", FinishPolicy)):
        assert name not in bot_names(GAME)
        assert name not in GAME.bots
        assert policy_class(GAME, prof, name) is cls
    assert prof.rollout == "greedy"  # the evaluator's own rollouts stay greedy's
    bot = make_bot(GAME, "expert:level=fast:rollout=tactics:others=greedy", 0, Rng(1))
    assert bot.params["rollout"] == "tactics"
    with pytest.raises(VariantError, match="no rollout policy 'finish'"):
        make_bot(games.get("tweak"), "expert:rollout=finish", 0, Rng(1))


def test_rollout_asks_the_seat_of_tactics_and_the_others_of_greedy(monkeypatch):
    seen: list[tuple[int, type]] = []
    for cls in (TacticsPolicy, GreedyBot):
        orig = cls.choose

        def spy(self, st, _orig=orig):
            seen.append((self.seat, type(self)))
            return _orig(self, st)

        monkeypatch.setattr(cls, "choose", spy)
    roll = _Rollout(GAME, profile("towai"), 4, "tactics", "greedy")
    state = next(iter(_positions(3, mix="greedy"))).copy()
    seat = state.to_move
    share = roll.run(state, 7, seat)
    assert 0.0 <= share <= 1.0
    assert {s for s, _ in seen} > {seat}
    for mover, cls in seen:
        assert cls is (TacticsPolicy if mover == seat else GreedyBot)
