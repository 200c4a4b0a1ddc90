"""The generic searches on tiny hand-made trees (tests/toy.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from toy import Go, TreeState

from kifu.core.game import DEALER
from kifu.puzzles.base import Budget
from kifu.puzzles.search import SearchError, minimax, probability, prove, root_values

D = DEALER
# p0 to move at the root: "a" leads to a defence by p1, "b" to a coin flip, "c" loses.
TREE = {
    "root": (0, [("a", "def", None), ("b", "coin", None), ("c", "lose", None)]),
    "def": (1, [("x", "win", None), ("y", "p0again", None)]),
    "p0again": (0, [("u", "lose", None), ("v", "win", None)]),
    "coin": (D, [("h", "win", Fraction(1, 3)), ("t", "def2", Fraction(2, 3))]),
    "def2": (1, [("x", "win", None), ("y", "lose", None)]),
    "win": (None, 1),
    "lose": (None, 0),
}


def goal(st):
    v = st.leaf_value()
    return None if v is None else v == 1


def labels(line):
    return [a.label for a in line]


def test_prove_forced_line_and_values():
    st = TreeState(TREE)
    p = prove(st, player=0, goal=goal, values=True)
    assert p.ok and p.complete
    assert labels(p.line)[0] == "a"
    assert [(a.label, v) for a, v in p.values] == [("a", True), ("b", False), ("c", False)]
    assert st.node == "root" and not st.history


def test_prove_chance_any_and_others_with():
    st = TreeState({"root": (0, [("b", "coin", None)]), **{k: v for k, v in TREE.items()
                                                            if k != "root"}})
    assert not prove(st, player=0, goal=goal).ok
    assert prove(st, player=0, goal=goal, chance="any").ok
    st2 = TreeState({**TREE, "root": (1, [("y", "lose", None), ("x", "win", None)])})
    assert not prove(st2, player=0, goal=goal).ok
    assert prove(st2, player=0, goal=goal, others="with").ok


def test_probability_exact():
    st = TreeState(TREE)
    c = probability(st, player=0, goal=goal, values=True)
    assert c.value == 1
    assert [(a.label, v) for a, v in c.values] == [("a", 1), ("b", Fraction(1, 3)),
                                                   ("c", 0)]
    st.push(Go("b"))
    c = probability(st, player=0, goal=goal)
    assert c.value == Fraction(1, 3)
    assert labels(c.line) == ["t", "y"]  # the likelier draw, then the defence


def test_minimax_values_transposition_and_line():
    tree = {
        "root": (0, [("a", "m1", None), ("b", "m2", None), ("c", "m2", None)]),
        "m1": (1, [("x", "l3", None), ("y", "l5", None)]),
        "m2": (1, [("x", "l4", None), ("y", "l9", None)]),
        "l3": (None, 3), "l4": (None, 4), "l5": (None, 5), "l9": (None, 9),
    }
    st = TreeState(tree)
    v = minimax(st, player=0, evaluate=lambda s: s.leaf_value(), values=True)
    assert v.value == 4
    assert [(a.label, x) for a, x in v.values] == [("a", 3), ("b", 4), ("c", 4)]
    assert labels(v.line) == ["b", "x"]
    assert root_values(minimax, st, player=0, evaluate=lambda s: s.leaf_value())[0][1] == 3


def test_minimax_tuple_values_and_chance_min():
    tree = {
        "root": (D, [("h", "l1", Fraction(1, 2)), ("t", "l2", Fraction(1, 2))]),
        "l1": (None, (1, 5)), "l2": (None, (1, 2)),
    }
    st = TreeState(tree)
    assert minimax(st, player=0, evaluate=lambda s: s.leaf_value()).value == (1, 2)
    assert minimax(st, player=0, evaluate=lambda s: s.leaf_value(), chance="max").value == (1, 5)


def test_minimax_needs_a_value_at_the_end():
    tree = {"root": (0, [("a", "end", None)]), "end": (None, 1)}
    with pytest.raises(SearchError):
        minimax(TreeState(tree), player=0, evaluate=lambda s: None)


def chain(n):
    """A long line of p0 moves with two choices each: 2**n leaves, all losing."""
    tree = {f"n{i}": (0, [("a", f"n{i + 1}", None), ("b", f"m{i + 1}", None)])
            for i in range(n)}
    tree.update({f"m{i}": (0, [("a", f"n{i}", None)]) for i in range(1, n + 1)})
    tree[f"n{n}"] = (None, 0)
    return tree


def test_budget_stops_with_unknown_and_restores_the_state():
    st = TreeState(chain(30), "n0")
    p = prove(st, player=0, goal=goal, budget=Budget(nodes=10), key=lambda s: len(s.history))
    assert not p.complete and not p.ok and p.nodes == 11 and p.reason == "nodes"
    assert st.node == "n0" and not st.history
    c = probability(st, player=0, goal=goal, budget=Budget(nodes=5))
    assert not c.complete and c.reason == "nodes"
    v = minimax(st, player=0, evaluate=lambda s: s.leaf_value(), budget=Budget(seconds=0))
    assert v.value is None or v.complete
    assert prove(st, player=0, goal=goal).reason is None


def test_the_clock_and_the_memory_stop_a_long_search(monkeypatch):
    """The time and the memory are looked at every CHECK_EVERY nodes: a search longer than
    that stops with the reason and the state put back."""
    import kifu.puzzles.base as base

    st = TreeState(wide(1500))
    p = prove(st, player=0, goal=goal, budget=Budget(seconds=0))
    assert (p.complete, p.ok, p.reason) == (False, False, "seconds")
    assert st.node == "root" and not st.history
    grown = iter(range(0, 1 << 40, 1 << 20))  # the process seems to grow 1 MB a look
    monkeypatch.setattr(base, "resident_bytes", lambda: next(grown))
    v = minimax(st, player=0, evaluate=lambda s: s.leaf_value(), budget=Budget(memory=1 << 19))
    assert (v.complete, v.value, v.reason) == (False, None, "memory")
    assert st.node == "root" and not st.history


def test_a_tiny_table_stays_bounded_and_exact(monkeypatch):
    """With a cap of 64 entries (an entry priced at the whole ceiling) the table keeps at
    most what CHECK_EVERY nodes add past the cap, and the values are those of an unbounded
    search."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    import kifu.puzzles.search as search

    @settings(max_examples=60, deadline=None)
    @given(st.data())
    def check(data):
        tree = _random_tree(data)
        ev = lambda s: s.leaf_value()  # noqa: E731
        plain = minimax(TreeState(tree), player=0, evaluate=ev, values=True)
        with monkeypatch.context() as m:
            m.setattr(search, "ENTRY_BYTES", 1 << 40)
            m.setattr(search, "CHECK_EVERY", 4)
            tt: dict = {}
            sizes = []
            trim = search._Search.trim

            def watch(self):
                sizes.append(len(self.tt))
                trim(self)

            m.setattr(search._Search, "trim", watch)
            small = minimax(TreeState(tree), player=0, evaluate=ev, values=True, tt=tt)
        assert small.value == plain.value
        assert [(a.label, v) for a, v in small.values] == [(a.label, v) for a, v in plain.values]
        assert len(tt) <= 64 + 4 and all(x <= 64 + 4 for x in sizes)

    check()
    # and a search whose table would hold 1,501 entries: trimmed, same answer
    st_ = TreeState(wide(1500))
    with monkeypatch.context() as m:
        m.setattr(search, "ENTRY_BYTES", 1 << 40)
        tt = {}
        p = prove(st_, player=0, goal=goal, tt=tt)
    assert p.complete and not p.ok and len(tt) <= 64 + search.CHECK_EVERY


def wide(n: int) -> dict:
    """p0 chooses among ``n`` moves, each to a node of p0's with one move to a loss: ``2 n +
    1`` nodes, ``n + 1`` of them in the table, two deep."""
    tree = {"root": (0, [(f"e{i}", f"x{i}", None) for i in range(n)]), "lose": (None, 0)}
    tree.update({f"x{i}": (0, [("a", "lose", None)]) for i in range(n)})
    return tree


def test_transpositions_are_searched_once():
    # with the table keyed by node, the chain of 30 is linear, not 2**30
    st = TreeState(chain(30), "n0")
    p = prove(st, player=0, goal=goal)
    assert p.complete and not p.ok and p.nodes < 200


def _random_tree(data) -> dict:
    """A random game tree of depth <= 4, movers 0/1, leaves valued 0..9 (shared leaves
    make transpositions)."""
    from hypothesis import strategies as st

    tree: dict = {f"l{v}": (None, v) for v in range(10)}

    def node(name: str, depth: int) -> str:
        if depth == 0 or data.draw(st.integers(0, 4)) == 0:
            return f"l{data.draw(st.integers(0, 9))}"
        kids = [node(f"{name}.{i}", depth - 1) for i in range(data.draw(st.integers(1, 3)))]
        edges = [(f"e{i}", k, None) for i, k in enumerate(kids)]
        tree[name] = (data.draw(st.integers(0, 1)), edges)
        return name

    tree["root"] = (0, [(f"e{i}", node(f"r{i}", 3), None) for i in range(3)])
    return tree


def test_minimax_bound_cuts_but_never_changes_a_value():
    """With ``bound`` (here the exact range of the leaves below a node, or a looser one)
    the values, the first-action values and the line's value are those found without it."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None)
    @given(st.data(), st.integers(0, 3))
    def check(data, slack):
        tree = _random_tree(data)

        def leaves(name):
            mover, rest = tree[name]
            return [rest] if mover is None else [v for _, k, _ in rest for v in leaves(k)]

        def bound(s):
            vs = leaves(s.node)
            return min(vs) - slack, max(vs) + slack

        ev = lambda s: s.leaf_value()  # noqa: E731
        plain = minimax(TreeState(tree), player=0, evaluate=ev, values=True)
        cut = minimax(TreeState(tree), player=0, evaluate=ev, values=True, bound=bound)
        assert cut.value == plain.value
        assert [(a.label, v) for a, v in cut.values] == [(a.label, v) for a, v in plain.values]
        assert cut.nodes <= plain.nodes
        end = TreeState(tree)
        for a in cut.line:
            end.push(a)
        assert end.leaf_value() == cut.value

    check()


def test_the_tables_cap_follows_the_measured_memory(monkeypatch):
    """Meter.full: past the estimated cap, or the first time the process has grown past
    the tables' share of the ceiling; then the cap becomes what the tables hold (freed
    memory is reused, so the growth does not fall back and must not trim again)."""
    import kifu.puzzles.base as base

    rss = iter([0, 100, 600, 700, 1100])
    monkeypatch.setattr(base, "resident_bytes", lambda: next(rss))
    m = base.Meter(Budget(memory=1000))
    assert m.entries(1, 0.5) == 500 and m.full(501) and not m.full(500)
    m.check()  # grown 100
    assert not m.full(400)
    m.check()  # grown 600 > 500
    assert m.full(300) and m.cap == 300
    m.check()  # grown 700: the cap stays
    assert not m.full(150) and m.full(301) and m.cap == 300
    with pytest.raises(base.OutOfBudget) as e:
        m.check()  # grown 1100 > the ceiling
    assert e.value.reason == "memory"


def _child_resident(q) -> None:  # in a forked child: its own memory, after growing 64 MiB
    import mmap

    from kifu.puzzles.base import resident_bytes

    before = resident_bytes()
    # fresh anonymous pages: a bytearray may reuse free heap pages the parent left resident
    # (a full run of the suite grows the parent past 1 GB; the child then saw no growth)
    block = mmap.mmap(-1, 64 << 20)
    for i in range(0, 64 << 20, 4096):  # touch every page
        block[i] = 120
    q.put((before, resident_bytes()))
    block.close()


def test_resident_bytes_reads_this_process_after_a_fork() -> None:
    """``resident_bytes`` keeps ``/proc/self/statm`` open; a forked child (local workers on
    Linux) must read its own memory, not its parent's through the inherited descriptor."""
    import multiprocessing
    import os

    from kifu.puzzles.base import resident_bytes

    if not os.path.exists("/proc/self/statm"):
        pytest.skip("no /proc/self/statm (not Linux): resident_bytes falls back to getrusage")
    parent = resident_bytes()  # opens the file in this process
    assert parent is not None and parent > 0
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child_resident, args=(q,))
    p.start()
    before, after = q.get(timeout=60)
    p.join(60)
    assert after - before >= 60 << 20  # the child saw its own growth
    assert resident_bytes() < parent + (32 << 20)  # and the parent did not grow
