"""The dedicated GRAPH-T double-dummy searcher (kifu/puzzles/graph_t_dd.py) against the
generic paranoid minimax it replaced (``DoubleDummy.solve_generic``, kept as the oracle) on
random small positions: stacks already built, grey open or not, a trick in progress, the
``grey_wins=trump`` and ``grey_open=anyone`` variants, 2, 3 and 4 players. Same answer, same
value for every first play, and a principal line that replays to the answer."""

from __future__ import annotations

import brute
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.core.rng import Rng
from kifu.games.graph_t.actions import PLAYS
from kifu.games.graph_t.cards import IS_TOP, G, deck_codes, hand_text, plays_text
from kifu.puzzles import get_question
from kifu.puzzles.base import Budget
from kifu.puzzles.graph_t import final_value, value_text
from kifu.puzzles.graph_t_dd import Searcher, pack, unpack

GAME = games.get("graph-t")
Q = get_question("double-dummy")
RULES = ("graph-t/1", "graph-t/1;grey_wins=trump", "graph-t/1;grey_open=anyone",
         "graph-t/1;grey_open=anyone;grey_wins=trump")


def random_position(rng: Rng, rules: str, n: int, k: int, in_trick: int) -> str:
    """A random GRAPH-T position: ``n`` hands of ``k`` cards (the grey card among them,
    maybe), a few plays already in the stacks, random grey players, then ``in_trick``
    random legal plays of the next trick."""
    pool = rng.shuffled(list(deck_codes(True)))
    hands = []
    for _ in range(n):
        h = [pool.pop() for _ in range(k)]
        if rng.below(3) == 0:
            h[0] = G
        hands.append(h)
    stacks = []
    for _ in range(n):
        s = []
        for _ in range(rng.below(4)):
            c = pool.pop()
            s.append(2 * c + (1 if not IS_TOP[c] and rng.below(4) == 0 else 0))
        stacks.append(s)
    greyed = [s for s in range(n) if any(p & 1 for p in stacks[s]) or rng.below(3) == 0]
    lead = rng.below(n)
    line = " ".join([
        rules, "/".join(hand_text(tuple(sorted(h))) for h in hands),
        "/".join(plays_text(tuple(sorted(s))) for s in stacks), "-", f"p{lead}", f"p{lead}",
        "".join(f"p{s}" for s in greyed) or "-",
    ])
    state = GAME.from_line(line)
    for _ in range(in_trick):
        state.push(rng.choice(state.legal_actions()))
    return state.to_line()


def replay(state, line):
    s = state.copy()
    for item in line:
        actor, _, text = item.partition(" ")
        assert actor == f"p{s.to_move}"
        s.apply(GAME.parse_action(s, text))
    return s


def check_same(line: str) -> None:
    state = GAME.from_line(line)
    new = Q.solve(state)
    old = Q.solve_generic(state)
    assert new.complete and old.complete
    assert new.answer == old.answer, line
    assert new.values == old.values, line
    assert new.winning == old.winning, line
    end = replay(state, new.line)
    assert end.result() is not None, line
    assert value_text(final_value(end, state.turn)) == new.answer, line
    assert state.to_line() == line


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULES), n=st.sampled_from([2, 3, 4]),
       data=st.data())
def test_same_answers_as_the_generic_search(seed, rules, n, data) -> None:
    k = data.draw(st.integers(1, {2: 4, 3: 3, 4: 2}[n]), label="cards")
    in_trick = data.draw(st.integers(0, n - 1), label="plays in the trick")
    check_same(random_position(Rng(seed), rules, n, k, in_trick))


@pytest.mark.parametrize("seed", range(3))
def test_same_answers_on_benchmark_sized_endgames(seed) -> None:
    """Larger hands than the random test: 2 x 5 and 3 x 3 from the start of a trick."""
    rng = Rng(f"dd-larger-{seed}")
    check_same(random_position(rng, "graph-t/1", 2, 5, 0))
    check_same(random_position(rng, "graph-t/1;grey_wins=trump", 3, 3, 1))


def test_pack_orders_values_like_the_tuples() -> None:
    vals = [(p, s, t1, t2) for p in (1, 2, 4) for s in (1, 3) for t1 in (0, 60, 1200)
            for t2 in (0, 45, 1200) if t2 <= t1]
    for v in vals:
        assert unpack(pack(*v)) == v
    by_int = sorted(vals, key=lambda v: pack(*v))
    by_tuple = sorted(vals, key=lambda v: (-v[0], -v[1], v[2], v[3]))
    assert by_int == by_tuple


def test_budget_gives_unknown() -> None:
    line = random_position(Rng("budget"), "graph-t/1", 3, 4, 0)
    sol = Q.solve(GAME.from_line(line), Budget(nodes=20))
    assert not sol.complete and sol.answer == "unknown"
    assert Q.solve(GAME.from_line(line)).complete


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULES),
       shape=st.sampled_from([(4, 3), (3, 4), (2, 5)]), data=st.data())
def test_same_answers_on_medium_endgames(seed, rules, shape, data) -> None:
    """Hands long enough for the bounds to matter (several tricks left, stacks built,
    the sure leads, the tricks and heights the others need to pass or tie)."""
    n, k = shape
    in_trick = data.draw(st.integers(0, n - 1), label="plays in the trick")
    check_same(random_position(Rng(seed), rules, n, k, in_trick))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULES),
       shape=st.sampled_from([(4, 2), (3, 3), (2, 4), (3, 2)]), data=st.data())
def test_bounds_hold_for_every_seat(seed, rules, shape, data) -> None:
    """At a trick boundary, for any seat as the player (on lead or not), the quick
    bounds hold the exact value of the naive brute force, and so does the search."""
    n, k = shape
    state = GAME.from_line(random_position(Rng(seed), rules, n, k, 0))
    player = data.draw(st.integers(0, n - 1), label="player")
    v = state.variant
    s = Searcher(state.n, state.hands, state.heights, state.trick, state.leader,
                 state.greyed, player, trump=v.grey_wins == "trump",
                 anyone=v.grey_open == "anyone")
    place, shared, t1, t2 = brute.dd_value(state, player)
    exact = pack(-place, -shared, t1, t2)
    lo, hi = s.bounds()
    assert lo <= exact <= hi, (state.to_line(), player, unpack(lo), unpack(hi))
    assert s.value() == exact, state.to_line()


@settings(max_examples=80, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULES),
       shape=st.sampled_from([(4, 2), (3, 2), (2, 2), (4, 3), (3, 3)]), data=st.data())
def test_windows_are_fail_soft(seed, rules, shape, data) -> None:
    """Any window, any seat as the player, at a trick boundary or inside a trick: the
    search's answer is exact inside the window and a true bound outside it (what the
    null-window tests of ``Searcher.value`` and the direct search of the last two tricks
    rely on). Several windows in a row share one table, as in a solve."""
    n, k = shape
    in_trick = data.draw(st.integers(0, n - 1), label="plays in the trick")
    state = GAME.from_line(random_position(Rng(seed), rules, n, k, in_trick))
    player = data.draw(st.integers(0, n - 1), label="player")
    v = state.variant
    s = Searcher(state.n, state.hands, state.heights, state.trick, state.leader,
                 state.greyed, player, trump=v.grey_wins == "trump",
                 anyone=v.grey_open == "anyone")
    place, shared, t1, t2 = brute.dd_value(state, player)
    exact = pack(-place, -shared, t1, t2)
    assert s.value() == exact, state.to_line()
    for _ in range(4):
        a = pack(data.draw(st.integers(1, n), label="place a"), 1,
                 data.draw(st.sampled_from([0, 30, 60, 90, 120]), label="t1 a"), 0)
        b = a + data.draw(st.sampled_from([1, 2, 45, 1 << 20, 1 << 40]), label="width")
        r = s.visit(a, b)
        if r <= a:
            assert exact <= r, (state.to_line(), player, unpack(a), unpack(r))
        elif r >= b:
            assert exact >= r, (state.to_line(), player, unpack(b), unpack(r))
        else:
            assert r == exact, (state.to_line(), player, unpack(r))


@pytest.mark.parametrize("seed", range(4))
def test_the_line_does_not_depend_on_the_table(seed) -> None:
    """The principal line follows the static order of the plays: a fresh searcher,
    whose table holds nothing, gives the line of the solve, whose table holds every
    first play's search."""
    state = GAME.from_line(random_position(Rng(f"dd-line-{seed}"), RULES[seed], 4, 3, 0))
    sol = Q.solve(state)
    v = state.variant
    s = Searcher(state.n, state.hands, state.heights, state.trick, state.leader,
                 state.greyed, state.turn, trump=v.grey_wins == "trump",
                 anyone=v.grey_open == "anyone")
    # the solve's first play: the first legal action (the engine's order) of best value
    pids = [2 * a.card + a.grey_side for a in state.legal_actions()]
    vals = [_value_of(s, p) for p in pids]
    best = max(vals)
    first = pids[vals.index(best)]
    fresh = Searcher(state.n, state.hands, state.heights, state.trick, state.leader,
                     state.greyed, state.turn, trump=v.grey_wins == "trump",
                     anyone=v.grey_open == "anyone")
    line = fresh.line(best, first)
    assert [f"p{m} {t}" for m, t in _texts(state, line)] == sol.line
    assert value_text(unpack(best)) == sol.answer


def _value_of(s: Searcher, pid: int) -> int:
    undo = s.push(pid)
    try:
        return s.value()
    finally:
        s.pop(undo)


def _texts(state, pids):
    st_ = state.copy()
    out = []
    for p in pids:
        a = PLAYS[p]
        out.append((st_.to_move, GAME.format_action(st_, a)))
        st_.apply(a)
    return out
