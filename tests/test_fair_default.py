"""The searchers' default choice owes nothing to a card the seat cannot see: a bot that
peeks (``Bot.peeks``: TWEAK's ``greedy`` turns up the deck's top card when it weighs a
Shifter) is asked only in worlds drawn from the seat's information
(``kifu.bots.search.fair_choice``), and every other game's ``greedy`` chooses the same in
the true position as in any world its seat cannot tell from it."""

from __future__ import annotations

import pytest

from kifu import games
from kifu.bots.evaluate import candidates, default_action
from kifu.bots.profiles import profile
from kifu.bots.search import DEFAULT_WORLDS, Rollout, fair_choice, policy_first
from kifu.core.game import DEALER
from kifu.core.rng import Rng

RULES = {"tweak": "tweak/1;rounds=1", "towai": "towai/1;wins=1"}


def _decisions(gid: str, n_games: int, plies: int = 400):
    """Every greedy decision with a choice in seeded 4-player games of ``gid``."""
    game = games.get(gid)
    variant = game.parse_rules(RULES[gid]) if gid in RULES else None
    cls = game.bots["greedy"]
    for g in range(n_games):
        rng = Rng(f"fair-default:{gid}:{g}")
        state = game.new_state(4, variant) if variant else game.new_state(4)
        dealer = rng.fork(0)
        for _ in range(plies):
            if state.to_move is None:
                break
            if state.to_move == DEALER:
                state.push(game.chance_action(state, dealer))
                continue
            if len(state.legal_actions()) > 1:
                yield game, state
            state.push(cls(state.to_move, Rng(0)).choose(state))


@pytest.mark.parametrize("gid", ["graph-t", "towai", "lianxian", "alice"])
def test_greedy_that_does_not_peek_chooses_alike_in_every_world(gid):
    checked = 0
    for game, state in _decisions(gid, 2):
        cls = game.bots["greedy"]
        assert not cls.peeks
        seat = state.to_move
        real = cls(seat, Rng(0)).choose(state)
        draw = game.world_sampler(state, seat)
        rng = Rng(f"worlds:{checked}")
        for _ in range(2):
            assert cls(seat, Rng(0)).choose(draw(rng)) == real
        checked += 1
    assert checked > 20


def _tweak_peeks(limit: int):
    """TWEAK decisions where ``greedy``'s choice in the true position is not its most
    frequent one over the default's worlds (it read the deck's top card)."""
    found = []
    for game, state in _decisions("tweak", 12):
        cls = game.bots["greedy"]
        seat = state.to_move
        real = cls(seat, Rng(0)).choose(state)
        if fair_choice(game, cls, state, seat) != real:
            found.append((game, state.copy()))
            if len(found) >= limit:
                break
    return found


def test_tweak_greedy_peeks_and_the_default_does_not():
    found = _tweak_peeks(2)
    assert found, "TWEAK's greedy never chose differently from its worlds' choice"
    for game, state in found:
        cls = game.bots["greedy"]
        seat = state.to_move
        assert cls.peeks
        # naive: the most frequent choice over the same worlds, ties in legal order
        draw = game.world_sampler(state, seat)
        rng = Rng("default")
        picks = [cls(seat, Rng(0)).choose(draw(rng)) for _ in range(DEFAULT_WORLDS)]
        legal = state.legal_actions()
        naive = max(legal, key=picks.count)
        assert default_action(game, state, seat) == naive
        assert candidates(game, state, profile("tweak"), 64)[0] == naive
        rollout = Rollout(game, profile("tweak"), state.n)
        assert policy_first(list(legal), rollout, state)[0] == naive
        # all-seeing values may ask the true position
        real = cls(seat, Rng(0)).choose(state)
        assert default_action(game, state, seat, fair=False) == real != naive


def test_the_fair_default_never_asks_the_true_position(monkeypatch):
    found = _tweak_peeks(1)
    assert found
    game, state = found[0]
    cls = game.bots["greedy"]
    asked = []
    original = cls.choose

    def spy(self, st):
        asked.append(st is state)
        return original(self, st)

    monkeypatch.setattr(cls, "choose", spy)
    default_action(game, state, state.to_move)
    candidates(game, state, profile("tweak"), 64)
    policy_first(list(state.legal_actions()), Rollout(game, profile("tweak"), state.n), state)
    assert asked and not any(asked)
