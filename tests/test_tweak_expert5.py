"""``expert:default=POLICY`` (issue 33, fifth session): the choice the z-test keeps unless
clearly beaten taken as a rollout policy's most frequent choice over the seat's sampled
worlds instead of the game's ``greedy`` bot in the real position (``kifu/bots/expert.py``,
``_rollout_default``)."""

from __future__ import annotations

import pytest
from test_tweak_tactics import GAME, _positions, expert_game_actions

from kifu.bots import make_bot
from kifu.bots.evaluate import candidates
from kifu.bots.expert import POLICY_DEFAULT_WORLDS, _rollout_default
from kifu.bots.profiles import profile
from kifu.core.errors import VariantError
from kifu.core.rng import Rng
from kifu.games.tweak.actions import UseShifter
from kifu.games.tweak.bots import TacticsPolicy

PROF = profile("tweak")


def _choices(games: int):
    """Positions with a choice, their candidates (the game's default first)."""
    for state in _positions(games):
        acts = candidates(GAME, state, PROF, 12)
        if len(acts) > 1:
            yield state, acts


def test_greedy_in_the_worlds_differs_from_greedy_only_where_a_shifter_peeks():
    """``greedy`` reads only what its seat sees but for one thing: weighing a Shifter it
    pushes it and looks at the deck's top card. So over the seat's worlds its most
    frequent choice is its real one except at some decisions where a Shifter may be used,
    and the other candidates keep legal order."""
    peeks = 0
    for k, (state, acts) in enumerate(_choices(10)):
        got = _rollout_default(GAME, state, state.to_move, acts, "greedy", PROF, False,
                               Rng(k))
        legal = [a for a in state.legal_actions() if a in acts]
        assert got[1:] == [a for a in legal if a != got[0]]
        if got[0] != acts[0]:
            peeks += 1
            assert UseShifter() in acts, state.to_line()
            assert UseShifter() in (got[0], acts[0]), state.to_line()
    assert peeks >= 1  # the peek does change greedy's choice somewhere


def test_tactics_default_is_its_most_frequent_choice_in_the_seats_worlds():
    departures = 0
    for k, (state, acts) in enumerate(_choices(10)):
        seat = state.to_move
        got = _rollout_default(GAME, state, seat, acts, "tactics", PROF, False, Rng(k))
        assert sorted(map(repr, got)) == sorted(map(repr, acts))  # a reordering only
        legal = [a for a in state.legal_actions() if a in acts]
        # recount naively with the same stream
        rng = Rng(k)
        draw = GAME.world_sampler(state, seat)
        worlds = [draw(rng) for _ in range(POLICY_DEFAULT_WORLDS)]
        count: dict = {}
        for w in worlds:
            a = TacticsPolicy(seat, Rng(rng.next64())).choose(w)
            count[a] = count.get(a, 0) + 1
        top = max(count.get(a, 0) for a in acts)
        assert count.get(got[0], 0) == top
        first = next(a for a in legal if count.get(a, 0) == top)  # ties: legal order
        assert got == [first] + [a for a in legal if a != first]
        if got[0] != acts[0]:
            departures += 1
    assert departures >= 3  # it does leave greedy's choice (Thieves and Bombs)


def test_the_fair_default_never_reads_the_real_position(monkeypatch):
    """The policy is asked only of sampled worlds; with a sampler that returns the true
    position, the fair default is the cheater's."""
    real = TacticsPolicy.choose
    asked: list = []

    def spy(self, state):
        asked.append(state)
        return real(self, state)

    monkeypatch.setattr(TacticsPolicy, "choose", spy)
    checked = 0
    for k, (state, acts) in enumerate(_choices(4)):
        seat = state.to_move
        asked.clear()
        _rollout_default(GAME, state, seat, acts, "tactics", PROF, False, Rng(k))
        assert len(asked) == POLICY_DEFAULT_WORLDS
        assert all(w is not state for w in asked)
        cheat = _rollout_default(GAME, state, seat, acts, "tactics", PROF, True, Rng(k))
        with monkeypatch.context() as m:
            m.setattr(type(GAME), "world_sampler",
                      lambda self, st, s: (lambda r: st.copy()))
            fair = _rollout_default(GAME, state, seat, acts, "tactics", PROF, False, Rng(k))
        assert fair == cheat
        checked += 1
    assert checked > 10


def test_expert_default_parameter_plays_legal_actions_deterministically():
    assert make_bot(GAME, "expert", 0, Rng(1)).params["default"] == "game"
    with pytest.raises(VariantError, match="default must be one of"):
        make_bot(GAME, "expert:default=smart", 0, Rng(1))

    spec = "expert:level=fast:worlds=4:default=tactics"
    assert expert_game_actions(spec, "default-expert") == \
        expert_game_actions(spec, "default-expert")
