"""Lianxian's perft paths held to the reference ones (issue 26).

Perft reads the engine through memos and shortcuts kept for speed (``tools/perft_ratio.py
lianxian lianxian-turns``, ``benchmarks/test_perft.py``): whole-position counts
(``placements.count``), the set tables per number, the run counts per suit, the placements
a turn lists with their scores (``state._places``), the swaps and draws per rack and bag,
``count_legal``'s own swap count, and ``push`` reading a placement's score from the last
listing. Each is checked here against the plain path: the generator run afresh, ``max_swap``
and ``legal_actions``, ``score_mask``; and both perft suites are counted again with every
memo switched off.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lianxian_helpers import GAME, random_position

from kifu.core.game import DEALER, perft
from kifu.core.rng import Rng
from kifu.games.lianxian import placements as gen
from kifu.games.lianxian import state as lstate
from kifu.games.lianxian.actions import Place
from kifu.games.lianxian.state import TURN, clear_caches
from kifu.notation.perftfile import read_perft

PERFT = Path(__file__).resolve().parent.parent / "fixtures" / "perft"
MEMOS = [(gen, "_SUBSETS"), (gen, "_SET_TABLES"), (gen, "_RUN_COUNTS"), (gen, "_COUNTS"),
         (lstate, "_PLACES"), (lstate, "_SWAPS"), (lstate, "_DRAWS")]


class NoMemo(dict):
    """A memo that keeps nothing: every lookup misses, so the engine works afresh."""

    def __setitem__(self, key, value) -> None:
        pass


def positions(seed: int, k: int):
    rng = Rng(seed)
    for i in range(k):
        yield random_position(rng, 2 + i % 3, team=(i % 6 == 2), fill=0.3 + (i % 7) / 10,
                              rack=1 + i % 4, public=i % 5)


def test_count_is_the_generator_s_count_cold_and_warm() -> None:
    clear_caches()
    for _ in range(2):  # the second pass reads every memo
        for st in positions(5, 150):
            seat = st.mover
            args = (st.board, st._tops, st.racks[seat] | st.public, st.seating.allowed[seat])
            got = gen.count(*args)
            assert got == gen.generate(*args, build=False) == len(gen.generate(*args))


def test_set_and_run_memos_give_the_fresh_count(monkeypatch) -> None:
    """The per-number set tables and per-suit run counts, filled by one position and read by
    another, give what the generator computes with no memo at all."""
    clear_caches()
    warm = []
    for st in positions(6, 150):
        seat = st.mover
        args = (st.board, st._tops, st.racks[seat] | st.public, st.seating.allowed[seat])
        warm.append((args, gen.generate(*args, build=False), gen.generate(*args)))
    for name in ("_SUBSETS", "_SET_TABLES", "_RUN_COUNTS"):
        monkeypatch.setattr(gen, name, NoMemo())
    for args, count, built in warm:
        assert gen.generate(*args, build=False) == count
        assert gen.generate(*args) == built


def test_count_legal_is_the_length_of_legal_actions() -> None:
    """At turns (short bags included: the swap count then reads the tiles under the tops,
    as ``max_swap`` does) and at the dealer's draws."""
    rng = Rng(8)
    clear_caches()
    for st in positions(9, 120):
        for bag_left in (None, 0, 1, 2):
            probe = st.copy()
            if bag_left is not None:  # tiles out of the bag go under the tops
                bag = lstate.tiles_of(probe.bag)
                keep, under = bag[:bag_left], bag[bag_left:]
                stacks = list(probe.stacks)
                for i, t in enumerate(under):
                    p = i % len(stacks)
                    stacks[p] = (t, *stacks[p])
                probe.stacks = tuple(stacks)
                probe.bag = sum(1 << t for t in keep)
            probe.check_invariants()
            legal = probe.legal_actions()
            assert probe.count_legal() == len(legal)
            k = probe.max_swap()
            swaps = [a for a in legal if type(a) is lstate.Swap]
            assert (len(swaps) > 0) == (k > 0)
            assert all(1 <= len(a.tiles) <= k for a in swaps)
            a = rng.choice(legal)
            probe.push(a)
            if probe.to_move == DEALER:
                assert probe.count_legal() == len(probe.legal_actions())
            probe.pop()


def test_push_reads_the_listed_score_right() -> None:
    """A placement pushed after ``legal_actions`` (its score read from the listing) leaves
    the same position as an equal ``Place`` built afresh (its score worked out by
    ``score_mask``), and the listed scores are ``score_mask``'s."""
    clear_caches()
    for st in positions(10, 80):
        legal = st.legal_actions()
        tops, places, scores = st._last
        assert tops == st._tops and list(places) == [a for a in legal if type(a) is Place]
        for a in places:
            assert scores[id(a)] == gen.score_mask(st.board, st._tops, a.cells)
            st.push(a)
            listed = (st.to_line(), st.key())
            st.pop()
            st.push(Place(a.cells))
            assert (st.to_line(), st.key()) == listed
            st.pop()
            st.check_invariants()


def test_a_listing_for_other_tops_is_not_read() -> None:
    """``push`` after the board changed (the listing was for other tops) works the score
    out again: the same Place object can score differently."""
    clear_caches()
    for st in positions(11, 60):
        places = [a for a in st.legal_actions() if type(a) is Place]
        if not places:
            continue
        a = places[0]
        other = st.copy()
        other.stacks = tuple(() for _ in other.stacks)  # other tops (tiles lost: no check)
        fresh = other.copy()
        other._last = st._last  # the listing for st's tops
        other.push(a)
        fresh.push(Place(a.cells))
        assert other.to_line() == fresh.to_line()


def test_clear_caches_empties_every_memo() -> None:
    case = read_perft(PERFT / "lianxian-turns.perft")[1]
    perft(GAME.from_line(case.position), 3)
    assert all(getattr(mod, name) for mod, name in MEMOS)
    clear_caches()
    assert not any(getattr(mod, name) for mod, name in MEMOS)


@pytest.mark.parametrize("suite", ["lianxian", "lianxian-turns"])
def test_perft_counts_with_every_memo_off(monkeypatch, suite: str) -> None:
    """The perft files' counts (depths up to 3) from an engine that remembers nothing."""
    for mod, name in MEMOS:
        monkeypatch.setattr(mod, name, NoMemo())
    for case in read_perft(PERFT / f"{suite}.perft"):
        state = GAME.from_line(case.position)
        for depth, nodes in case.counts:
            if depth <= 3:
                assert perft(state, depth) == nodes, (case.id, depth)


def _leaves(state, depth: int, acc: list[int]) -> None:
    if depth == 1:
        acc[state.to_move == DEALER] += state.count_legal()
        return
    for a in state.legal_actions():
        state.push(a)
        _leaves(state, depth - 1, acc)
        state.pop()


def test_turns_suite_is_player_turns() -> None:
    """What ``lianxian-turns.perft`` promises: each position is a player's turn and at
    least 80% of the leaves at its deepest depth are player decisions."""
    clear_caches()
    for case in read_perft(PERFT / "lianxian-turns.perft"):
        state = GAME.from_line(case.position)
        assert state.phase == TURN, case.id
        depth, nodes = max(case.counts)
        acc = [0, 0]
        _leaves(state, depth, acc)
        assert sum(acc) == nodes and acc[0] >= 0.8 * nodes, (case.id, acc)
