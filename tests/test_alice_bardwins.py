"""Ruling 21: "can the Bard win this turn's check?" — the search with a table against a
naive recursion on 200 seeded positions, and the winning line replays to a Bard win."""

from __future__ import annotations

from alice_helpers import GAME, make, run

from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.alice.bardwins import (
    applies,
    bard_wins,
    bard_wins_naive,
    decided,
    root_values,
)
from kifu.games.alice.state import BARD, PLAY


def positions(count: int):
    """Playing-phase positions of seeded random games (3..6 players)."""
    for seed in range(count):
        n = 3 + seed % 4
        s = GAME.new_state(n)
        r = Rng(seed)
        stop = r.below(12)
        while s.to_move is not None:
            if s.phase in (PLAY, BARD):
                if stop == 0:
                    yield s
                    break
                stop -= 1
            s.apply(GAME.chance_action(s, r) if s.to_move == DEALER
                    else r.choice(s.legal_actions()))


def test_table_search_agrees_with_naive_recursion_and_lines_replay() -> None:
    seen = wins = 0
    for s in positions(200):
        line0 = s.to_line()
        res = bard_wins(s)
        assert s.to_line() == line0, "the search leaves the position unchanged"
        assert res.ok == bard_wins_naive(s), line0
        seen += 1
        wins += res.ok
        bard, turns = s.bard, s.turns
        for a in res.line:
            s.apply(a)
        assert decided(s, bard, turns) is res.ok, line0
    assert seen == 200 and 0 < wins < seen


def test_a_forced_win_and_its_best_covers() -> None:
    # p0 (Bard) 13+5 = 18 once it fills A1 with aS13; p1 and p2 hold only low cards
    s = make(hands="nS1aS13aS2/nC2aH1aD1/nH3aC1vD2", chars="nS5/nH7/nD9", roles="aqr",
             sentence="-/nS5@p0/vC3@p0/-/-", flags="0/-/0", turn="p1")
    assert applies(s) is None
    res = bard_wins(s)
    assert res.ok
    assert res.line[0] in s.legal_actions()
    for a in res.line:
        s.apply(a)
    assert s.sp[0] == 1, "the line ends with the Bard's check win"


def test_the_bards_choice_matters() -> None:
    # 3 players, p2 already filled N2 with nH10 and A2 is still blank
    s = make(hands="nS1aS13aS2/nC4aD6/aC1vD2", chars="nS5/nH7/nD9", roles="aqr",
             sentence="aH4@p1/nS5@p0/vC3@p0/-/nH10@p2", flags="012/-/0", turn="p0")
    vals = {GAME.format_action(s, a): v for a, v in root_values(s)}
    # A2 + 10 against 4 + 5 = 9: aS13 busts the object's side (23), aS2 gives 12
    assert vals == {"aS13@A2": True, "aS2@A2": False, "drink": False}
    run(s, "aS13@A2")
    assert s.sp[0] == 1


def test_not_asked_outside_a_playing_phase() -> None:
    s = GAME.new_state(3)
    assert applies(s) is not None
