"""How TOWAI's ``expert`` decides from its worlds (issue 33, fifth session): the fair go-out
check (:func:`kifu.games.towai.bots.sure_out_line`, ``expert:sure=1``) checked against a
naive search and against the worlds the seat's sampler draws, and ``expert``'s quiet
second-stage parameters ``refine`` and ``keep``."""

from __future__ import annotations

import msgspec
import pytest

from kifu import games
from kifu.bots import make_bot
from kifu.core.errors import VariantError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.towai.actions import Pass, Rebuild, Stop
from kifu.games.towai.bots import out_line, sure_out_line
from kifu.games.towai.state import CHAIN, LEAD, PLAY, REBUILD, SWAP_PHASE

GAME = games.get("towai")
VARIANT = msgspec.structs.replace(GAME.new_state(4).variant, wins=1)

# Positions met in 4-player one-round games against `greedy` where the mover can empty its
# hand this turn without a Swap, and `greedy`'s choice throws that away (the third:
# `expert` at its defaults threw it away too: after `day N4` its rollouts continue with
# `greedy`, which does not flip with the T4 to lead again).
LOST_BY_GREEDY = [
    "towai/1;wins=1 P0 day D5N5T4T4/N1N3N3N5T2/D3D3N2N3N5/T2 D5D5D6T6N4N4N3T3D4T6N2N2N2T1 "
    "T3T5D5D6T1T5N1T5T7N4T7T2T6D3D7T1T3D3N5D7 D4D4D4D6D6D7D7N1N1N4T7 p3:0 0,0,0,0 f2t30",
    "towai/1;wins=1 P0 day D6D6T4T6/T5T6/D3D5/T3T5 D4D7T7N4N4N2N2T2D3T5N3N2T2 "
    "D3D7N5N5D4N4T1D5T6N3N2T1D4N3N1D3D4T1T4T2D7T7T3N4N3D7T3 D5D5D6D6N1N1N1N5N5T7 p3:0 "
    "0,0,0,0 f0t24",
    "towai/1;wins=1 L0 day D3N3N4T4/D3D5N3N5T2T4/D4D5N3T3T6/D4D4D6N1N4T1T1T5 - "
    "T6N1D6T6D5D4T3D6T5N4N2N4N3D6T5N1D3T3D3N1T7D7T2N2D7T1N2 D5D7D7N2N5N5N5T2T7T7 -:0 "
    "0,0,0,0 f0t12",
]


def _naive_out(state, player: int, start: int) -> bool:
    """Whether ``player`` can empty its hand before its turn ends with no Swap in the line
    (every own action but a pass or a stop tried, no memo, no budget)."""
    if state.wins[player] > start:
        return state.hand_size(player) == 0
    if state.phase == REBUILD:
        state.push(Rebuild(state.pool()))
        ok = _naive_out(state, player, start)
        state.pop()
        return ok
    if state.phase not in (LEAD, PLAY, CHAIN) or state.turn != player:
        return False  # a Swap, or the turn is over
    for a in state.legal_actions():
        if type(a) in (Pass, Stop):
            continue
        state.push(a)
        ok = _naive_out(state, player, start)
        state.pop()
        if ok:
            return True
    return False


def _positions(games_: int, seed: str = "decide"):
    """Every position of the first ``games_`` 4-player one-round `greedy` games where a
    player leads, follows or combos with a choice."""
    for g in range(games_):
        rng = Rng(f"{seed}:{g}")
        dealer = rng.fork(0)
        bots = [make_bot(GAME, "greedy", s, rng.fork(s + 1)) for s in range(4)]
        state = GAME.new_state(4, VARIANT)
        while state.to_move is not None:
            if state.to_move == DEALER:
                state.apply(GAME.chance_action(state, dealer))
                continue
            if state.phase in (LEAD, PLAY, CHAIN) and len(state.legal_actions()) > 1:
                yield state.copy()
            state.apply(bots[state.to_move].choose(state))


def _goes_out(state, line) -> bool:
    st = state.copy()
    player = st.turn
    for a in line:
        st.push(a)
    return st.hand_size(player) == 0 and st.wins[player] == state.wins[player] + 1


@pytest.mark.parametrize("line", LOST_BY_GREEDY)
def test_sure_out_line_finds_the_lines_greedy_throws_away(line):
    state = GAME.from_line(line)
    found = sure_out_line(state.copy())
    assert found is not None and _goes_out(state, found)
    assert not any(type(a).__name__ == "Give" for a in found)
    greedy = make_bot(GAME, "greedy", state.to_move, Rng(0)).choose(state)
    after = state.copy()
    after.push(greedy)
    assert after.to_move != state.to_move or sure_out_line(after) is None
    bot = make_bot(GAME, "expert:level=fast:sure=1", state.to_move, Rng(0))
    assert bot.choose(state) == found[0]


def test_sure_out_line_agrees_with_a_naive_search_and_implies_out_line():
    seen = found = 0
    for state in _positions(12):
        seen += 1
        player = state.turn
        line = sure_out_line(state.copy(), node_limit=10**6)
        assert (line is not None) == _naive_out(state.copy(), player, state.wins[player])
        if line is not None:
            found += 1
            assert _goes_out(state, line)
            assert out_line(state.copy(), node_limit=10**6) is not None
    assert seen > 100 and found > 0  # the check met both answers


def test_sure_out_line_is_the_same_in_every_world_the_seat_can_imagine():
    """Fair: the answer reads only the mover's hand and the public field, so it is the same
    in the true position and in every world its sampler draws."""
    rng = Rng("worlds")
    checked = 0
    for state in _positions(6, "fair"):
        seat = state.turn
        truth = sure_out_line(state.copy(), node_limit=10**6)
        draw = GAME.world_sampler(state, seat)
        for _ in range(3):
            world = draw(rng)
            assert world.hand(seat) == state.hand(seat)
            assert sure_out_line(world, node_limit=10**6) == truth
            checked += 1
    assert checked > 50


def test_a_swap_is_never_part_of_a_sure_line():
    for state in _positions(8, "swap"):
        line = sure_out_line(state.copy(), node_limit=10**6)
        if line is None:
            continue
        st = state.copy()
        for a in line:
            assert st.phase != SWAP_PHASE
            st.push(a)


def test_expert_sure_is_off_by_default_and_checked():
    assert make_bot(GAME, "expert", 0, Rng(1)).params["sure"] == 0
    with pytest.raises(VariantError, match="sure"):
        make_bot(GAME, "expert:sure=2", 0, Rng(1))
    # a game whose profile has no check: the parameter changes nothing
    tweak = games.get("tweak")
    assert make_bot(tweak, "expert:sure=1", 0, Rng(1)).profile.sure is None


def test_expert_refine_and_keep_set_the_second_stage(monkeypatch):
    import kifu.bots.expert as expert_mod

    seen: list[tuple[int, int]] = []
    real = expert_mod.sample_rows

    def spy(game, state, seat, acts, lvl, rng, *args, **kw):
        seen.append((lvl.worlds, len(acts)))
        return real(game, state, seat, acts, lvl, rng, *args, **kw)

    monkeypatch.setattr(expert_mod, "sample_rows", spy)
    state = next(s for s in _positions(3, "stage") if len(s.legal_actions()) >= 6)
    n = len(state.legal_actions())
    make_bot(GAME, "expert:level=fast", state.to_move, Rng(3)).choose(state)
    assert seen[0] == (8, n) and seen[1][0] == 8 and seen[1][1] >= max(2, -(-n // 3))
    seen.clear()
    make_bot(GAME, "expert:level=fast:refine=0", state.to_move, Rng(3)).choose(state)
    assert seen == [(8, n)]
    seen.clear()
    make_bot(GAME, "expert:level=fast:refine=20:keep=1", state.to_move, Rng(3)).choose(state)
    assert seen[0] == (8, n) and seen[1][0] == 20 and seen[1][1] in (1, 2)
    seen.clear()
    make_bot(GAME, "expert:worlds=10:refine=7", state.to_move, Rng(3)).choose(state)
    assert seen[0] == (10, n) and seen[1][0] == 7


def test_expert_defaults_play_as_the_explicit_defaults():
    def actions(spec):
        rng = Rng("same")
        dealer = rng.fork(0)
        bots = [make_bot(GAME, spec if s == 0 else "greedy", s, rng.fork(s + 1))
                for s in range(4)]
        state = GAME.new_state(4, VARIANT)
        out = []
        while state.to_move is not None and len(out) < 60:
            a = (GAME.chance_action(state, dealer) if state.to_move == DEALER
                 else bots[state.to_move].choose(state))
            out.append(GAME.format_action(state, a))
            state.apply(a)
        return out

    assert actions("expert:level=fast") == actions(
        "expert:level=fast:refine=-1:keep=0:sure=0")
