"""The dedicated GRAPH-T double-dummy searcher (kifu/puzzles/graph_t_dd.py) against the
generic paranoid minimax it replaced (``DoubleDummy.solve_generic``, kept as the oracle) on
random small positions: stacks already built, grey open or not, a trick in progress, the
``grey_wins=trump`` and ``grey_open=anyone`` variants, 2, 3 and 4 players. Same answer, same
value for every first play, and a principal line that replays to the answer.

Both implementations are checked: the compiled core (when it is built) against the
reference, position by position (values, every first play's value, lines), and each
against the naive brute force (bounds, windows); then the budgets: nodes, time and memory
stop a search with the reason, and a tiny table keeps the answers exact."""

from __future__ import annotations

import subprocess
import sys

import brute
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.core.rng import Rng
from kifu.games.graph_t.actions import PLAYS
from kifu.puzzles import get_question
from kifu.puzzles import graph_t_dd as dd
from kifu.puzzles.base import Budget
from kifu.puzzles.graph_t import final_value, value_text
from kifu.puzzles.graph_t_dd import Searcher, pack, unpack

GAME = games.get("graph-t")
Q = get_question("double-dummy")
RULES = ("graph-t/1", "graph-t/1;grey_wins=trump", "graph-t/1;grey_open=anyone",
         "graph-t/1;grey_open=anyone;grey_wins=trump")
CORE = pytest.mark.skipif(dd._ddcore is None, reason="the compiled core is not built here")
IMPLS = [pytest.param(False, id="reference"), pytest.param(True, id="core", marks=CORE)]


def searcher(state, player: int, core: bool, budget: Budget | None = None) -> Searcher:
    v = state.variant
    return Searcher(state.n, state.hands, state.heights, state.trick, state.leader,
                    state.greyed, player, trump=v.grey_wins == "trump",
                    anyone=v.grey_open == "anyone", budget=budget, core=core)


def solved(state, core: bool, budget: Budget | None = None) -> tuple:
    """Every first play's value, and the principal line, as DoubleDummy.solve gets them."""
    s = searcher(state, state.turn, core, budget)
    assert s.compiled == core
    vals = [_value_of(s, 2 * a.card + a.grey_side) for a in state.legal_actions()]
    best = max(vals)
    first = state.legal_actions()[vals.index(best)]
    line = s.line(best, 2 * first.card + first.grey_side)
    s.close()
    return vals, line


def random_position(rng: Rng, rules: str, n: int, k: int, in_trick: int) -> str:
    """A random GRAPH-T position: ``n`` hands of ``k`` cards (the grey card among them,
    maybe), a few plays already in the stacks, random grey players, then ``in_trick``
    random legal plays of the next trick."""
    line = brute.graph_t_trick_start(rng, rules, n, k)
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


@pytest.mark.parametrize("core", IMPLS)
def test_budget_gives_unknown(core, monkeypatch) -> None:
    monkeypatch.setenv("KIFU_DD_PURE", "" if core else "1")
    line = random_position(Rng("budget"), "graph-t/1", 3, 4, 0)
    sol = Q.solve(GAME.from_line(line), Budget(nodes=20))
    assert not sol.complete and sol.answer == "unknown" and sol.reason == "nodes"
    assert Q.solve(GAME.from_line(line)).complete
    # the clock: checked every few thousand nodes, so a position that takes more
    big = GAME.from_line(_endgame(4, 5, 9))
    sol = Q.solve(big, Budget(seconds=0))
    assert (sol.complete, sol.answer, sol.reason) == (False, "unknown", "seconds")


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
    bounds hold the exact value of the naive brute force, and so does the search (both
    implementations: the same bounds)."""
    n, k = shape
    state = GAME.from_line(random_position(Rng(seed), rules, n, k, 0))
    player = data.draw(st.integers(0, n - 1), label="player")
    place, shared, t1, t2 = brute.dd_value(state, player)
    exact = pack(-place, -shared, t1, t2)
    cores = [False, True] if dd._ddcore is not None else [False]
    bounds = set()
    for core in cores:
        s = searcher(state, player, core)
        lo, hi = s.bounds()
        bounds.add((lo, hi))
        assert lo <= exact <= hi, (state.to_line(), player, unpack(lo), unpack(hi))
        assert s.value() == exact, state.to_line()
    assert len(bounds) == 1


@settings(max_examples=80, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULES),
       shape=st.sampled_from([(4, 2), (3, 2), (2, 2), (4, 3), (3, 3)]), data=st.data())
def test_windows_are_fail_soft(seed, rules, shape, data) -> None:
    """Any window, any seat as the player, at a trick boundary or inside a trick: the
    search's answer is exact inside the window and a true bound outside it (what the
    null-window tests of ``Searcher.value`` and the direct search of the last two tricks
    rely on). Several windows in a row share one table, as in a solve. The reference or
    the core, drawn."""
    n, k = shape
    in_trick = data.draw(st.integers(0, n - 1), label="plays in the trick")
    state = GAME.from_line(random_position(Rng(seed), rules, n, k, in_trick))
    player = data.draw(st.integers(0, n - 1), label="player")
    core = data.draw(st.booleans(), label="core") and dd._ddcore is not None
    s = searcher(state, player, core)
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


@pytest.mark.parametrize("core", IMPLS)
@pytest.mark.parametrize("seed", range(4))
def test_the_line_does_not_depend_on_the_table(seed, core) -> None:
    """The principal line follows the static order of the plays: a fresh searcher,
    whose table holds nothing, gives the line of the solve, whose table holds every
    first play's search."""
    state = GAME.from_line(random_position(Rng(f"dd-line-{seed}"), RULES[seed], 4, 3, 0))
    sol = Q.solve(state)
    s = searcher(state, state.turn, core)
    # the solve's first play: the first legal action (the engine's order) of best value
    pids = [2 * a.card + a.grey_side for a in state.legal_actions()]
    vals = [_value_of(s, p) for p in pids]
    best = max(vals)
    first = pids[vals.index(best)]
    fresh = searcher(state, state.turn, core)
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


def _endgame(n: int, k: int, seed: int) -> str:
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    from benchmarks.test_solver import endgame

    return endgame(n, k, seed)


# --- the compiled core against the reference -----------------------------------------------


@CORE
@settings(max_examples=150, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULES),
       shape=st.sampled_from([(2, 4), (2, 5), (3, 3), (3, 4), (4, 2), (4, 3)]), data=st.data())
def test_core_and_reference_agree(seed, rules, shape, data) -> None:
    """The same value of every first play and the same principal line (which the values
    alone decide: the line follows the reference's static order) on random positions:
    stacks built, grey open or not, a trick in progress, every variant."""
    n, k = shape
    in_trick = data.draw(st.integers(0, n - 1), label="plays in the trick")
    state = GAME.from_line(random_position(Rng(seed), rules, n, k, in_trick))
    assert solved(state, True) == solved(state, False), state.to_line()


@CORE
@pytest.mark.parametrize("seed", range(8))
def test_core_and_reference_agree_on_the_benchmark_endgames(seed) -> None:
    """4 players x 5 cards (benchmarks/test_solver.py), where the core searches a
    different tree (its move order) to the same values and lines; and the answer of the
    question, which uses the core, is the reference's."""
    line = _endgame(4, 5, seed)
    state = GAME.from_line(line)
    vals, pv = solved(state, False)
    assert solved(state, True) == (vals, pv)
    sol = Q.solve(state)
    assert sol.answer == value_text(unpack(max(vals)))
    assert sol.values == [v.__class__(v.action, value_text(unpack(x)))
                          for v, x in zip(sol.values, vals, strict=True)]


@CORE
def test_the_core_refuses_what_it_cannot_hold() -> None:
    """A contrived stack taller than the core's key holds: the reference takes over."""
    state = GAME.from_line("graph-t/1 R2/Y3 -/- - p0 p0 -")
    tall = ((9000, 0, 0, 0, 0, 0), (0,) * 6)
    s = Searcher(2, state.hands, tall, (), 0, 0, 0)
    assert not s.compiled and s.value() == pack(1, 1, 9060, 0)
    with pytest.raises(ValueError):
        Searcher(2, state.hands, tall, (), 0, 0, 0, core=True)


def test_without_the_core_the_reference_answers() -> None:
    """Where no C compiler built the core, kifu imports and answers with the reference."""
    code = (
        "import sys; sys.modules['kifu.puzzles._ddcore'] = None\n"
        "from kifu.puzzles import graph_t_dd, get_question\n"
        "from kifu import games\n"
        "assert graph_t_dd._ddcore is None and not graph_t_dd.compiled()\n"
        "st = games.get('graph-t').from_line('graph-t/1 R1/Y1 -/- - p0 p0 -')\n"
        "print(get_question('double-dummy').solve(st).answer)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "place 2 shared 1 tallest 0 second 0"


# --- memory ------------------------------------------------------------------------------------


@pytest.mark.parametrize("core", IMPLS)
def test_a_tiny_table_stays_bounded_and_exact(core, monkeypatch) -> None:
    """With the tables' share of the ceiling cut to almost nothing, the core's table has
    16 buckets of 4 and the reference's tables and memos together stay near their least
    cap of 64 entries (looked at every 16 nodes here); the values and the line stay
    exact (the resident-memory check keeps its full ceiling)."""
    state = GAME.from_line(_endgame(4, 5, 9) if core else _endgame(4, 4, 0))
    expected = solved(state, core)
    free = searcher(state, state.turn, core)
    for a in state.legal_actions():
        _value_of(free, 2 * a.card + a.grey_side)
    assert free.table[0] > 1000  # what the search holds without a cap
    monkeypatch.setattr(dd, "TABLE_SHARE", 1e-9)
    monkeypatch.setattr(dd, "CHECK_EVERY", 16)
    s = searcher(state, state.turn, core)
    sizes = []
    check = s.meter.check

    def watch() -> None:
        sizes.append(s.table[0])
        check()

    s.meter.check = watch  # type: ignore[method-assign]
    vals = [_value_of(s, 2 * a.card + a.grey_side) for a in state.legal_actions()]
    best = max(vals)
    first = state.legal_actions()[vals.index(best)]
    assert (vals, s.line(best, 2 * first.card + first.grey_side)) == expected
    entries, most = s.table
    assert most == 64
    if core:
        assert entries <= 64
    else:  # at most what 16 nodes add (a few dozen memo entries each) past the cap
        assert sizes and max(sizes) <= 64 + 16 * 40


@pytest.mark.parametrize("core", IMPLS)
def test_a_tiny_ceiling_gives_the_answer_or_unknown_with_the_reason(core, monkeypatch) -> None:
    """A memory ceiling of a few kilobytes: the process grows past it at the first check,
    so the answer is 'unknown' because of memory, or (a search too small to be checked)
    the exact answer; never another."""
    monkeypatch.setenv("KIFU_DD_PURE", "" if core else "1")
    for line in (_endgame(4, 5, 9), _endgame(3, 3, 0)):
        state = GAME.from_line(line)
        exact = Q.solve(state).answer
        sol = Q.solve(state, Budget(memory=4096))
        assert (sol.answer, sol.reason) in ((exact, None), ("unknown", "memory"))
    assert sol.answer == exact  # the small one finishes before its first check
