"""Alice rules, one ruling at a time, on positions written as position lines.

Rule numbers are the rulings' (``docs/rules/alice.md``). Roles of the default set by
letter: A Alice, C Cheshire Cat, H Mad Hatter, P Caterpillar, Q Queen of Hearts, R White
Rabbit; lower case = face down.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from alice_helpers import GAME, legal, make, run

from kifu.core.errors import IllegalActionError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.alice.cards import CODE_OF
from kifu.games.alice.state import (
    BARD,
    BUY,
    CLEAN,
    DRAW,
    FORCED,
    OVER,
    PLAY,
    POOL,
    SWAP,
    SYSTEM,
)

# p0 is the Bard and has opened with vC3; p1 and p2 still to act (3 players).
OPENED = dict(
    hands="nS1aS2aS3/nC4aH4aD6/nH10aC1vD2", chars="nS5/nH7/nD9", roles="aqr",
    sentence="-/nS5@p0/vC3@p0/-/-", flags="0/-/0", turn="p1",
)


def opened(**kw) -> object:
    return make(**{**OPENED, **kw})


# --- ruling 1: setup --------------------------------------------------------------------

def test_first_bard_is_the_lowest_character_ties_by_suit() -> None:
    s = make(phase="char", turn="p0", bard="-", roles="aqr",
             hands="nH3nC9vS1aS2aS3/nS3nC8vS4aS5aS6/nD2nC7vS7aS8aS9", chars="-/-/-")
    run(s, "char nH3", "char nS3")
    assert "?" in s.view(0).split()[8], "a Character chosen face down is hidden (ruling 7)"
    run(s, "char nC7")
    assert s.bard == 1 and s.phase == BARD, "rank 3 twice: ♠ comes before ♥"


def test_first_bard_tie_break() -> None:
    s = make(phase="char", turn="p0", bard="-", roles="aqr",
             hands="nH2nC9vS1aS2aS3/nS3nC8vS4aS5aS6/nD4nC7vS7aS8aS9", chars="-/-/-")
    run(s, "char nH2", "char nS3", "char nD4")
    assert s.bard == 0, "the rank decides before the suit"


def test_roles_chance_outcomes_are_exact() -> None:
    s = GAME.new_state(4)
    out = s.chance_outcomes()
    assert out is not None and len(out) == 6 * 5 * 4 * 3
    assert sum(p for _, p in out) == 1 and {p for _, p in out} == {Fraction(1, 360)}


def test_opening_deal_shape_is_checked() -> None:
    s = GAME.new_state(3)
    run(s, "roles AQR")
    with pytest.raises(IllegalActionError, match="2 nouns, 1 verb, 2 adjectives"):
        s.apply(GAME.parse_action(s, "deal nS1nS2nS3aS1aS2/nH1nH2vH1aH1aH2/nD1nD2vD1aD1aD2"))


def test_sp_never_below_zero() -> None:
    s = opened()
    run(s, "drink")
    assert s.sp[1] == 0 and s.sys_sp == 0


# --- ruling 8: the Bard -----------------------------------------------------------------

def test_bard_with_a_verb_must_play_it() -> None:
    s = make(phase="bard", turn="p0", hands="nS1vS2aS3aS4/nC4aH4aD6vH1/nH10aC1vD2aC2",
             chars="nS5/nH7/nD9", roles="aqr", sentence="-/nS5@p0/-/-/-")
    assert legal(s) == ["vS2@V"]
    with pytest.raises(IllegalActionError, match="must play one"):
        s.apply(GAME.parse_action(s, "drink"))


def test_bard_without_a_verb_drinks_and_the_deck_opens() -> None:
    s = make(phase="bard", turn="p0", hands="nS1aS2aS3aS4/nC4aH4aD6vH1/nH10aC1vD2aC2",
             chars="nS5/nH7/nD9", roles="aqr", sentence="-/nS5@p0/-/-/-", sp="1,0,0:0")
    assert legal(s) == ["drink"]
    run(s, "drink")
    assert s.phase == FORCED and s.to_move == DEALER
    assert s.sp[0] == 0 and s.sys_sp == 1 and s.shown & 1
    out = s.chance_outcomes()
    assert out is not None and len(out) == 52 - 2  # vH1 and vD2 are held
    assert sum(p for _, p in out) == 1
    run(s, "vC8")
    assert s.slots[2] == (CODE_OF["vC8"],) and s.owners[2] == 0
    assert s.phase == PLAY and s.to_move == 1 and s.out == 1


# --- ruling 9: order of play; ruling 3: fill blanks first --------------------------------

def test_fills_while_blanks_remain() -> None:
    s = opened()
    assert legal(s) == ["nC4@N2", "aH4@A1", "aH4@A2", "aD6@A1", "aD6@A2", "drink"]


def test_second_lap_goes_back_to_the_bard_and_skips_the_out() -> None:
    s = opened()
    run(s, "drink")                 # p1 out
    run(s, "nH10@N2")               # p2 fills
    assert s.to_move == 0, "blanks left: the lap goes on with the Bard"
    run(s, "aS2@A1")
    assert s.to_move == 2, "p1 is out"
    run(s, "aC1@A2")                # complete: the check follows at once
    assert s.phase != PLAY


def test_cover_only_when_complete_and_same_suit_or_rank() -> None:
    s = make(hands="nS1aS2aS3/nC4aH4aD6/nH10aC1vD2/nD3aC5aH9vS6/nH11aC8vH2aD1",
             chars="nS5/nH7/nD9/nS8/nC13", roles="aqrch",
             sentence="aH5@p1/nS5@p0/vC3@p0/aD7@p2/nD12@p3", flags="0123/-/0", turn="p4")
    got = set(legal(s))
    assert "nH11@N1" not in got, "♥J on ♠5: neither suit nor rank"
    assert "aD1@A2" in got and "aD1@A1" not in got, "same suit ♦ on aD7; not on aH5"
    assert "vH2@V" not in got and "aC8@A1" not in got
    with pytest.raises(IllegalActionError, match="neither the same suit nor the same rank"):
        s.apply(GAME.parse_action(s, "nH11@N1"))


def test_cover_of_the_character_and_own_card() -> None:
    s = make(hands="nS1aS2aS3/nC4aH4aD6/nH10aC1vD2/nD3aC5aH9vS6/nS11aC8vH2aD1",
             chars="nS5/nH7/nD9/nS8/nC13", roles="aqrch",
             sentence="aH5@p4/nS5@p0/vC3@p0/aD7@p2/nD12@p3", flags="0123/-/0", turn="p4")
    run(s, "nS11@N1")  # the last to act: the check follows, with ♠J shown as the subject
    assert CODE_OF["nS11"] in s.story and s.chars[0] == CODE_OF["nS5"]
    assert CODE_OF["nS5"] not in s.discard + s.story, "the Character returns to its owner"


def test_cheshire_cat_spends_its_skill_only_when_needed() -> None:
    base = dict(hands="nS1aS2aS3/nC4aH4aD6/nH10aC1vD2/nD3aC5aH9vS6/nH11aC8vH2aD1aH13",
                chars="nS5/nH7/nD9/nS8/nC13", roles="aqrhC",
                sentence="aH5@p1/nS5@p0/vC3@p0/aD7@p2/nD12@p3", flags="0123/-/0", turn="p4")
    s = make(**base)
    got = set(legal(s))
    assert {"nH11@N1", "aC8@A1", "vH2@V"} <= got, "a face-up Cat covers ignoring suit/rank"
    run(s, "aH13@A1")  # same suit: the skill is not needed
    assert not s.cat_used
    s = make(**base)
    run(s, "nH11@N1")
    assert s.cat_used
    s = make(**{**base, "roles": "aqrhc"})
    assert "nH11@N1" not in set(legal(s)), "a face-down Cat has no skill"


# --- ruling 11: Drink me! ----------------------------------------------------------------

def test_drink_costs_one_and_reveals() -> None:
    s = opened(sp="0,2,0:0")
    run(s, "drink")
    assert s.sp[1] == 1 and s.sys_sp == 1 and s.shown >> 1 & 1 and s.out >> 1 & 1


def test_white_rabbit_drinks_free_even_when_hidden() -> None:
    s = opened(roles="aqr", sp="0,0,2:0", turn="p1")
    run(s, "drink", "drink")  # p1 then p2 (the Rabbit, face down)
    assert s.sp[2] == 2 and s.shown >> 2 & 1


# --- ruling 4 and 12: the check ---------------------------------------------------------

def test_check_winner_gains_and_hides_loser_reveals() -> None:
    s = opened(roles="aQr")
    run(s, "aH4@A1", "nH10@N2", "aS2@A2")
    # Bard side: aH4 + nS5 = 9; object side: aS2 + nH10 = 12: p2 wins
    assert s.sp == (0, 0, 1)
    assert s.shown & 1, "the loser reveals"
    assert not s.shown >> 2 & 1
    assert s.shown >> 1 & 1, "a face-up bystander stays face up"
    assert CODE_OF["nS5"] not in s.story and len(s.story) == 4
    assert s.phase == CLEAN and s.to_move == 2, "the Clean Phase starts at the winner"


@pytest.mark.parametrize(("adj", "noun", "winner"), [
    ("aS13", "nH10", 0),     # 23 is over 21: the Bard (9) wins
    ("aS4", "nH10", 2),      # 14 against 9
])
def test_bust_and_higher(adj: str, noun: str, winner: int) -> None:
    s = opened(hands=f"nS1aS2{adj}/nC4aH4aD6/{noun}aC1vD2")
    run(s, "aH4@A1", f"{noun}@N2", f"{adj}@A2")
    assert s.sp[winner] == 1 and sum(s.sp) == 1


def test_equal_totals_no_winner_and_next_bard_after_the_opponent() -> None:
    s = opened(hands="nS1aS2aS6/nC4aH4aD6/nH3aC1vD2")
    run(s, "aH4@A1", "nH3@N2", "aS6@A2")  # 9 against 9
    assert s.sp == (0, 0, 0) and s.sys_sp == 0 and s.shown == 0, "no winner, no reveal"
    assert s.nextbard == 1, "after the opponent p2 comes p0, the Bard: skipped"


def test_system_opponent_when_the_bard_owns_the_object() -> None:
    s = opened()
    run(s, "drink", "drink")  # everyone else out: the Bard fills alone
    run(s, "nS1@N2", "aS2@A1", "aS3@A2")
    # Bard 2+5 = 7 against the system 3+1 = 4
    assert s.sp[0] == 1 and s.sys_sp == 0


def test_caterpillar_adjusts_its_side() -> None:
    s = opened(roles="pqr", sp="0,0,0:0")
    s.shown = 1  # the Bard is a face-up Caterpillar
    run(s, "aH4@A1", "nH10@N2", "aS3@A2")   # 9 against 13
    assert s.to_move == 0 and legal(s) == ["shrink", "stay", "grow"]
    run(s, "grow")
    assert s.sp == (0, 0, 1), "+1 is not enough (10 < 13)"


def test_queen_victim_loses_one() -> None:
    s = opened(roles="arQ", sp="1,0,0:0")
    run(s, "aH4@A1", "nH10@N2", "aS2@A2")
    assert s.sp == (0, 0, 1) and s.sys_sp == 1


# --- ruling 13: swap ---------------------------------------------------------------------

def test_swap_offered_only_if_the_loser_was_face_up() -> None:
    s = opened(roles="AqR")
    run(s, "aH4@A1", "nH10@N2", "aS2@A2")
    assert s.phase == SWAP and s.to_move == 2 and legal(s) == ["swap", "keep"]
    run(s, "swap")
    assert s.roles[2] == 0 and s.roles[0] == 5, "the winner takes the face-up Alice"
    assert s.shown >> 2 & 1 and not s.shown & 1
    s = opened(roles="aqR")
    run(s, "aH4@A1", "nH10@N2", "aS2@A2")
    assert s.phase != SWAP


# --- ruling 14: ♣8 -----------------------------------------------------------------------

def test_tell_moves_one_sp_from_loser_to_winner() -> None:
    s = opened(sentence="-/nS5@p0/vC8@p0/-/-", hands="nS1aS2aS3/nC4aH4aD6/nH10aC1vD2",
               sp="1,0,0:0")
    run(s, "aH4@A1", "nH10@N2", "aS2@A2")
    assert s.sp == (0, 0, 2)


def test_tell_loser_with_no_sp_gives_nothing() -> None:
    s = opened(sentence="-/nS5@p0/vC8@p0/-/-")
    run(s, "aH4@A1", "nH10@N2", "aS2@A2")
    assert s.sp == (0, 0, 1) and s.sys_sp == 0


def test_tell_against_the_system() -> None:
    s = opened(sentence="-/nS5@p0/vC8@p0/-/-")
    run(s, "drink", "drink", "nS1@N2", "aS2@A1", "aS3@A2")  # 7 against 4: system loses
    assert s.sp[0] == 2 and s.sys_sp == 0
    s = opened(sentence="-/nS5@p0/vC8@p0/-/-", sp="1,0,0:0",
               hands="nS13aS2aS1/nC4aH4aD6/nH10aC1vD2")
    run(s, "drink", "drink", "nS13@N2", "aS1@A1", "aS2@A2")  # 6 against 15: system wins
    assert s.sp[0] == 0 and s.sys_sp == 2  # 1 for the check, 1 from the tell


# --- ruling 15: Alice --------------------------------------------------------------------

def test_alice_four_suits_even_as_a_bystander() -> None:
    s = make(hands="nS1aS2aS3/nC4aH4aD6/nH10aC1vD2/aC9nH2vS9",
             chars="nS5/nH7/nD9/nC11", roles="qrpA",
             sentence="-/nS5@p0/vC3@p0/-/-", flags="0/-/0", turn="p1")
    run(s, "aD6@A1", "nH10@N2", "aC9@A2")
    # suits: ♦ ♠ ♣ ♣ ♥: all four; Bard 11 vs 19: p2 wins; p3 (Alice, face up) +1
    assert s.sp == (0, 0, 1, 1)


# --- rulings 16, 17: the pool, the merchant, the Clean Phase ------------------------------

def test_pool_redeal_from_the_winner() -> None:
    s = opened(sentence="-/nS5@p0/vC3@p0/-/-", hands="nS1aS2aH12/nC4aH4aD6/nH10aC1vD2")
    run(s, "aH4@A1", "nH10@N2", "aH12@A2")  # 9 against 22: the Bard wins
    assert s.phase == POOL and s.to_move == DEALER and s.chance_outcomes() is None
    pooled = sorted(c for h in s.hands for c in h)
    assert len(pooled) == 6
    with pytest.raises(IllegalActionError, match="not 2"):
        s.apply(GAME.parse_action(s, "deal nS1aS2aC1/nC4aD6/vD2"))
    run(s, "deal nS1aS2/nC4aD6/aC1vD2")
    assert s.phase == CLEAN and s.to_move == 0


def test_merchant_buys_one_sp() -> None:
    s = opened(hands="nD4aS2aS3aS7/nC4aH4aD6/nH10aC1vD2", roles="qar")
    run(s, "aH4@A1", "drink")      # p2 drinks; lap 2: the Bard, then p1
    run(s, "nD4@N2", "aD6@A2")     # 9 against the system's 10
    assert s.phase == BUY and s.to_move == 0, "the owner of the slot showing ♦4"
    assert legal(s)[-1] == "pass" and len(legal(s)) == 2  # C(3,3) + pass
    assert s.shown & 1
    run(s, "buy aS2aS3aS7")
    assert s.sp[0] == 1 and not s.shown & 1 and s.hands[0] == ()
    assert s.phase == CLEAN


def test_merchant_needs_three_cards() -> None:
    s = opened(hands="nD4aS2aS3/nC4aH4aD6/nH10aC1vD2")
    run(s, "aH4@A1", "drink", "nD4@N2", "aD6@A2")
    assert s.phase == CLEAN, "two cards left: the merchant cannot buy"


def test_clean_phase_one_card_per_action_and_rebuild() -> None:
    s = make(phase="clean", turn="p0", hands="nS1/nC4aH4aD6vS3/nH10aC1vD2aC2",
             chars="nS5/nH7/nD9", roles="aqr",
             check="p0,p1,p1,0,0,0,-,0,0,-,p2,-")
    assert legal(s) == ["draw n", "draw v", "draw a"]
    run(s, "draw v")
    assert s.phase == DRAW and s.to_move == DEALER
    assert len(s.chance_outcomes()) == 52 - 2  # vS3 and vD2 are held
    run(s, "vH13", "draw a", "aS13", "draw n", "nS13")
    assert s.phase == BARD and s.bard == 2 and s.turns == 1


def test_hatter_keeps_five() -> None:
    s = make(phase="clean", turn="p0", hands="nS1nS2vS4aS5/nC4aH4aD6vS3/nH10aC1vD2aC2",
             chars="nS5/nH7/nD9", roles="Hqr",
             check="p0,p1,p1,0,0,0,-,0,0,-,p2,-")
    run(s, "draw n", "nS13")
    assert len(s.hands[0]) == 5 and s.phase == BARD, "a face-up Hatter refills to 5"
    s = make(phase="clean", turn="p0", hands="nS1nS2nS3vS4aS5/nC4aH4aD6vS3/nH10aC1vD2aC2",
             chars="nS5/nH7/nD9", roles="hqr",
             check="p0,p1,p1,0,0,0,-,0,0,-,p2,-")
    assert legal(s)[0] == "discard nS1" and len(legal(s)) == 5


# --- ruling 18: the void turn; ruling 19: next Bard; ruling 20: the end -------------------

def test_void_turn() -> None:
    s = opened()
    run(s, "drink", "drink")
    assert s.to_move == 0
    run(s, "drink")
    assert s.turns == 0 and s.phase == CLEAN and s.to_move == 0
    assert s.discard == (CODE_OF["vC3"],), "the sentence is discarded but the Character"
    assert s.nextbard == 1


def test_turn_limit_highest_sp_wins_ties_share() -> None:
    s = make(phase="clean", turn="p0", hands="nS1aS2aS3/nC4aH4aD6vS3/nH10aC1vD2aC2",
             chars="nS5/nH7/nD9", roles="aqr", sp="2,2,1:0", turns=9,
             check="p0,p1,p1,0,0,0,-,0,0,-,p2,-")
    run(s, "draw n", "nS13")
    assert s.phase == OVER
    r = s.result()
    assert r is not None and r.ranks == (1, 1, 3)


def test_role_win_is_immediate_and_shared() -> None:
    s = opened(roles="aqr", sp="0,0,2:0")
    run(s, "aH4@A1", "nH10@N2", "aS2@A2")
    assert s.phase == OVER and s.winners == 4
    r = s.result()
    assert r is not None and r.ranks == (2, 2, 1) and r.scores == (0, 0, 3)


def test_next_bard_after_the_bard_when_the_system_loses() -> None:
    s = make(hands="nS1aS2aS3/nC4aH4aD6/nH10aC1vD2/aC9nH2vS9",
             chars="nS5/nH7/nD9/nC11", roles="qrpa",
             sentence="-/nS5@p0/vC3@p0/-/-", flags="0/-/0", turn="p1")
    run(s, "aD6@A1", "drink", "aC9@A2")  # p2 out; p3 A2; lap 2: p0 then p1
    run(s, "nS1@N2")                     # the Bard owns the object: the system
    assert s.opp == SYSTEM and s.sp[0] == 1, "11 against the system's 10"
    assert s.nextbard == 1


def test_views_hide_hands_and_face_down_roles() -> None:
    s = opened(roles="aQr")
    v = s.view(0).split()
    assert v[5] == "aQ?" and v[7].split("/")[1] == "???" and v[7].split("/")[0] == "nS1aS2aS3"


def test_seeded_game_is_deterministic() -> None:
    def play() -> str:
        s = GAME.new_state(4)
        rng = Rng(3)
        bots = [GAME.bots["greedy"](i, Rng(3).fork(i + 1)) for i in range(4)]
        while s.to_move is not None:
            s.apply(GAME.chance_action(s, rng) if s.to_move == DEALER
                    else bots[s.to_move].choose(s))
        return s.to_line()
    assert play() == play()


def test_rebuild_only_when_a_draw_finds_the_deck_empty() -> None:
    from kifu.games.alice.cards import TOKEN

    held = {"nS1", "nC4", "nH10", "nS5", "nH7", "nD9", "nS2", "nS3"}
    story = "".join(TOKEN[c] for c in range(52) if TOKEN[c] not in held)
    s = make(phase="clean", turn="p0", hands="nS1/nC4aH4aD6vS3/nH10aC1vD2aC2",
             chars="nS5/nH7/nD9", roles="aqr", discard="nS2nS3", story=story,
             check="p0,p1,p1,0,0,0,-,0,0,-,p2,-")
    assert not any(c < 52 for c in s.deck), "the noun deck is empty"
    assert "draw n" in legal(s)
    run(s, "draw n")
    assert s.discard == () and s.deck[:2] == (CODE_OF["nS2"], CODE_OF["nS3"])
    assert [GAME.format_action(s, a) for a, _ in s.chance_outcomes()] == ["nS2", "nS3"]
