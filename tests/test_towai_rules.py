"""TOWAI rules, one test (or a few) per ruling of ``shared/rulings/towai.md`` (numbers as in
``docs/rules/towai.md``), on hand-written position lines."""

from __future__ import annotations

from fractions import Fraction

import pytest
from towai_helpers import small_hands

from kifu import games
from kifu.bots.towai import OutBot
from kifu.core.errors import IllegalActionError, KifuError, NotationError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.towai import TowaiVariant
from kifu.games.towai.bots import GreedyBot, out_line
from kifu.games.towai.cards import ALL_CARDS, COPIES, NUM, TYPE
from kifu.games.towai.state import CHAIN, DEAL, LEAD, OVER, PLAY, REBUILD, SWAP_PHASE

GAME = games.get("towai")


def S(line: str):
    state = GAME.from_line(line)
    assert state.to_line() == line, "the test's line must be canonical"
    return state


def do(state, *texts: str):
    for text in texts:
        state.apply(GAME.parse_action(state, text))
    state.check_invariants()
    return state


def legal(state) -> list[str]:
    return [GAME.format_action(state, a) for a in state.legal_actions()]


def rule_of(state, text: str) -> str:
    with pytest.raises(IllegalActionError) as info:
        state.check(GAME.parse_action(state, text))
    return info.value.rule


# --- components ---------------------------------------------------------------------------
def test_the_deck_has_sixty_cards_of_seventeen_kinds() -> None:
    assert len(ALL_CARDS) == 60 and sum(COPIES) == 60
    by_type = [sum(COPIES[c] for c in range(17) if TYPE[c] == t) for t in range(3)]
    assert by_type == [20, 20, 20]
    assert [NUM[c] for c in range(17) if TYPE[c] == 2] == [1, 2, 3, 4, 5, 6, 7]
    assert COPIES[13] == 2  # Twai 4 (Reset): two copies


# --- ruling 1: setup ----------------------------------------------------------------------
def test_r1_first_player_is_a_uniform_dealer_action_then_a_seven_card_deal() -> None:
    state = GAME.new_state(3)
    assert state.to_move == DEALER
    assert state.chance_outcomes() == [(GAME.parse_action(state, f"first p{s}"), Fraction(1, 3))
                                       for s in range(3)]
    do(state, "first p2")
    assert state.phase == DEAL and state.chance_outcomes() is None
    state.apply(GAME.chance_action(state, Rng(4)))
    assert [state.hand_size(s) for s in range(3)] == [7, 7, 7] and len(state.deck) == 39
    assert state.phase == LEAD and state.to_move == 2


def test_r1_next_round_starts_after_the_winner() -> None:
    state = do(S("towai/1 P0 day D5/D3D4/N1N2 D4 N3 - p2:0 0,0,0 f1t2"), "D5")
    assert state.wins == (1, 0, 0) and state.phase == DEAL and state.to_move == DEALER
    assert state.first == 1
    state.apply(GAME.chance_action(state, Rng(1)))
    assert state.to_move == 1 and state.phase == LEAD and state.turns == 0


def test_r1_a_deal_must_be_the_sixty_cards() -> None:
    state = do(GAME.new_state(2), "first p0")
    deal = GAME.format_action(state, GAME.chance_action(state, Rng(2)))
    bad = deal.replace("N1", "N2", 1)
    assert rule_of(state, bad) == "towai 1: setup"


# --- ruling 2: the lead -------------------------------------------------------------------
def test_r2_any_card_leads_on_either_side_and_a_lead_cannot_be_passed() -> None:
    state = S("towai/1 L0 day D5N2/D3/N1 - N3 - -:0 0,0,0 f0t0")
    assert legal(state) == ["day D5", "day N2", "night D5", "night N2"]
    assert rule_of(state, "pass") == "towai 2: lead"
    assert rule_of(state, "stop") == "towai 2: lead"
    assert rule_of(state, "D5") == "towai 2: lead"  # a lead names its side


def test_r2_variant_lead_must_fit_the_side() -> None:
    state = S("towai/1;lead_fits=true L0 day D5N2T1/D3/N1 - N3 - -:0 0,0,0 f0t0")
    assert legal(state) == ["day D5", "day T1", "night N2", "night T1"]
    assert rule_of(state, "night D5") == "towai 2: lead"
    assert GAME.rules_spec(TowaiVariant(lead_fits=True, cap=500)) == \
        "towai/1;cap=500;lead_fits=true"


# --- ruling 3: following ------------------------------------------------------------------
def test_r3_day_follows_higher_or_equal_day_or_twai() -> None:
    state = S("towai/1 P1 day D5/D3D5D6N5T4T6/N1 D5 N3 - p0:0 0,0,0 f0t1")
    assert legal(state) == ["D5", "D6", "T6", "pass"]
    assert rule_of(state, "T4") == "towai 3: follow"  # a Twai also follows the number
    assert rule_of(state, "D3") == "towai 3: follow"  # too low
    assert rule_of(state, "N5") == "towai 3: follow"  # a Night card by Day
    assert rule_of(state, "D7") == "towai hand: play a card you hold"


def test_r3_night_follows_lower_or_equal_night_or_twai() -> None:
    state = S("towai/1 P1 night D5/D3N2N3N4T3T4/N1 N3 D4 - p0:0 0,0,0 f0t1")
    assert legal(state) == ["N2", "N3", "T3", "pass"]
    assert rule_of(state, "N4") == "towai 3: follow"
    assert rule_of(state, "T4") == "towai 3: follow"


# --- ruling 4: Twai effects ---------------------------------------------------------------
def test_r4_every_twai_flips_the_side() -> None:
    state = do(S("towai/1 P1 day D5/D3T6/N1 D5 N3 - p0:0 0,0,0 f0t1"), "T6")
    assert state.side == 1
    assert state.to_move == 2 and state.phase == PLAY  # no 6 fits Night: the turn ends


def test_r4_draw_the_others_draw_in_seat_order_from_the_next_seat() -> None:
    state = do(S("towai/1 P1 day D5/D3T3/N1 D3 N3D7N4 - p0:0 0,0,0 f0t1"), "T3")
    assert state.hand_cards(2) == GAME.from_line(
        "towai/1 P1 day D5/D3/N1N3 D3 - - p0:0 0,0,0 f0t1").hand_cards(2)  # p2 drew N3
    assert state.hand_cards(0) == (2, 4)  # p0 drew D7 (D5 and D7)
    assert state.deck == (8,)  # N4 is left
    assert state.hand_cards(1) == (0,)  # the Draw player draws nothing


def test_r4_reset_discards_the_field_and_the_same_player_leads() -> None:
    state = do(S("towai/1 P1 day D5/D3T4/N1 D3 N3 - p0:0 0,0,0 f0t1"), "T4")
    assert state.phase == LEAD and state.to_move == 1 and not state.field
    assert state.pool() == (0, 13)  # D3 and the Reset T4 are discarded
    assert legal(state) == ["day D3", "night D3"]


def test_r4_r10_swap_each_seat_chooses_then_all_pass_to_the_previous_seat() -> None:
    state = S("towai/1 P0 day D7T5/D3D4/N1N2 D3 N3 - p2:0 0,0,0 f0t1")
    do(state, "T5")
    assert state.phase == SWAP_PHASE and state.to_move == 0 and state.side == 1
    do(state, "give D7")
    assert state.to_move == 1
    do(state, "give D4")
    assert state.to_move == 2
    assert "give D7" not in legal(state)  # p2 has received nothing yet (ruling 10)
    assert rule_of(state, "D3") == "towai 4: Swap"
    do(state, "give N2")
    # p0's D7 goes to p2, p1's D4 to p0, p2's N2 to p1
    assert state.hand_cards(0) == (1,) and state.hand_cards(1) == (0, 6)
    assert state.hand_cards(2) == (4, 5)
    assert state.to_move == 1  # p0 holds no 5 that fits Night: the turn ended


def test_swap_view_shows_a_seat_only_its_own_choice() -> None:
    state = do(S("towai/1 P0 day D7T5/D3D4/N1N2 D3 N3 - p2:0 0,0,0 f0t1"), "T5", "give D7",
               "give D4")
    assert state.to_line().split()[1] == "S0:D7D4"
    assert state.view(0).split()[1] == "S0:D7?"
    assert state.view(1).split()[1] == "S0:?D4"
    assert state.view(2).split()[3] == "-/?/N1N2" and state.view(2).split()[5] == "?"


# --- ruling 5: combos ---------------------------------------------------------------------
def test_r5_combo_same_number_fitting_the_side_twai_flips_and_may_go_on() -> None:
    state = do(S("towai/1 P1 day D5/D6D6N3T6/N1 D5 N3 - p0:0 0,0,0 f0t1"), "D6")
    assert state.phase == CHAIN and legal(state) == ["+D6", "+T6", "stop"]
    assert rule_of(state, "+N3") == "towai 5: combo"
    assert rule_of(state, "pass") == "towai 6: pass"
    assert rule_of(state, "D6") == "towai 5: combo"  # a continuation is written +D6
    do(state, "+T6")  # flips to Night: no Night 6 exists, D6 no longer fits: turn over
    assert state.side == 1 and state.to_move == 2


def test_r5_combo_continues_after_a_draw_and_stop_ends_the_turn() -> None:
    state = do(S("towai/1 P1 day D5/D3N3T3/N1 D3 N4N5 - p0:0 0,0,0 f0t1"), "T3")
    assert state.side == 1 and legal(state) == ["+N3", "stop"]
    do(state, "stop")
    assert state.to_move == 2 and state.phase == PLAY and state.turns == 2


def test_r5_reset_ends_the_combo_and_starts_a_lead() -> None:
    state = do(S("towai/1 P1 day D5/D4D4N2T4/N1 D3 N3 - p0:0 0,0,0 f0t1"), "D4", "+T4")
    assert state.phase == LEAD and state.to_move == 1 and state.turns == 1


# --- ruling 6 and 12: passing ---------------------------------------------------------------
def test_r6_pass_draws_one_and_all_others_passing_restarts_the_field() -> None:
    state = S("towai/1 P1 day D5/D3/N1 D7 N3N4 - p0:0 0,0,0 f0t1")
    do(state, "pass")
    assert state.hand_size(1) == 2 and state.to_move == 2 and state.passes == 1
    do(state, "pass")
    assert state.phase == LEAD and state.to_move == 0 and not state.field
    assert state.pool() == (4,) and state.turns == 3


def test_r6_pass_is_allowed_with_a_playable_card() -> None:
    assert "pass" in legal(S("towai/1 P1 day D5/D7/N1 D3 N3 - p0:0 0,0,0 f0t1"))


def test_r7_r11_r12_empty_deck_rebuild_then_draw_then_restart() -> None:
    state = S("towai/1 P1 day D5/D3/N1 N5D7 - N2N4 p0:0 1,0,0 f0t4")
    do(state, "pass")
    assert state.phase == REBUILD and state.to_move == DEALER  # the passer draws first
    assert rule_of(state, "rebuild N2N4") == "towai 7: rebuild"  # N5 is in the pool
    do(state, "rebuild N4N2N5")
    assert state.field == (4,)  # D7 stays on the field
    assert state.hand_cards(1) == (0, 8)  # p1 drew N4
    assert state.deck == (6, 9) and state.phase == PLAY and state.to_move == 2


def test_r11_empty_pool_the_draw_is_skipped() -> None:
    state = do(S("towai/1 P1 day D5/D3/N1 D7 - - p0:0 0,0,0 f0t1"), "pass")
    assert state.hand_size(1) == 1 and state.to_move == 2


def test_r11_rebuild_during_a_draw_then_the_combo_resumes() -> None:
    state = do(S("towai/1 P0 day D3D5T3/D4/N1 D3 N2 N4 p2:0 0,0,0 f0t1"), "T3")
    assert state.phase == REBUILD and state.to_line().split()[1] == "R0:d2"
    do(state, "rebuild N4D3")
    assert state.hand_cards(2) == (5, 8) and state.deck == (0,)
    assert state.to_move == 1  # p0 holds no 3 that fits Night: the turn ended


# --- ruling 8: going out --------------------------------------------------------------------
def test_r8_the_last_card_ends_the_round_and_its_effect_is_not_resolved() -> None:
    state = do(S("towai/1 P0 day T3/D3D4/N1N2 D3 N3N4 - p2:0 0,0,0 f0t1"), "T3")
    assert state.wins == (1, 0, 0) and state.deck == (7, 8)  # nobody drew
    assert state.phase == DEAL


def test_r8_two_round_wins_win_the_game() -> None:
    state = do(S("towai/1 P0 day D5/D3D4/N1N2 D4 N3 - p2:0 1,0,0 f2t2"), "D5")
    assert state.phase == OVER and state.to_move is None
    assert state.result().scores == (2, 0, 0) and state.result().ranks == (1, 2, 2)


# --- ruling 9 and 14: the turn cap --------------------------------------------------------------
def test_r9_r14_cap_fewest_cards_wins_ties_from_the_seat_after_the_first() -> None:
    line = "towai/1;cap=5 P1 day D5D6/D3D4/N1N2 D7 N3 - p0:0 0,0,0 f0t4"
    state = do(S(line), "pass")  # the 5th turn end: p1 has 3 cards, p0 and p2 have 2
    assert state.wins == (0, 0, 1)  # the tie p0/p2 counted from p1 (after the first, p0)
    state = do(S(line.replace("cap=5", "cap=5;cap_tie=from")), "pass")
    assert state.wins == (1, 0, 0)  # counted from the first player p0 itself


def _cap_ties(cap_tie: str, seed: int) -> int:
    """Random positions one pass short of the cap (2-4 players, any first player, hands of
    1-3 cards): the round's winner is checked against ruling 9 written out directly."""
    from kifu.games.towai.cards import cards_text

    rng = Rng(seed)
    checked = 0
    for _ in range(400):
        n = 2 + rng.below(3)
        first, mover = rng.below(n), rng.below(n)
        hands, cards = small_hands(rng, n)
        rules = "towai/1;cap=5" + (";cap_tie=from" if cap_tie == "from" else "")
        line = " ".join([rules, f"P{mover}", "day", "/".join(cards_text(h) for h in hands),
                         cards_text(cards[:1]), cards_text(cards[1:2]), "-",
                         f"p{(mover - 1) % n}:0", ",".join("0" * n), f"f{first}t4"])
        try:
            state = GAME.from_line(line)
        except NotationError:
            continue
        state = do(state, "pass")  # the passer draws, then the fifth turn end: the cap
        sizes = [state.hand_size(s) for s in range(n)]
        fewest = [s for s in range(n) if sizes[s] == min(sizes)]
        # "after": counted from the seat after the first player, who comes last among
        # equals; "from": counted from the first player
        shift = 1 if cap_tie == "after" else 0
        want = min(fewest, key=lambda s: (s - first - shift) % n)
        assert state.wins[want] == 1 and sum(state.wins) == 1, line
        if len(fewest) > 1 and first in fewest:
            checked += 1
            # the first player is in the tie: "after" puts it last, "from" first
            assert (want == first) == (cap_tie == "from")
    return checked


@pytest.mark.parametrize("cap_tie", ["after", "from"])
def test_r9_cap_ties_follow_the_clarified_ruling(cap_tie: str) -> None:
    """Ruling 9 (clarified): by default a tie at the cap goes to the earliest seat counted
    from the seat after the round's first player, the first player last; ``cap_tie=from``
    is the variant counting from the first player."""
    assert TowaiVariant().cap_tie == "after"
    assert _cap_ties(cap_tie, 9) > 10  # ties that hold the first player, each way


# --- ruling 13: leading a Twai --------------------------------------------------------------
def test_r13_a_led_twai_flips_the_chosen_side_a_led_reset_leads_again() -> None:
    state = do(S("towai/1 L0 day D5T2/D3/N1 - N3 - -:0 0,0,0 f0t0"), "day T2")
    assert state.side == 1 and state.to_move == 1
    state = do(S("towai/1 L0 day D5T4/D3/N1 - N3 - -:0 0,0,0 f0t0"), "night T4")
    assert state.phase == LEAD and state.to_move == 0 and state.pool() == (13,)


# --- notation -------------------------------------------------------------------------------
def test_position_lines_refuse_impossible_positions() -> None:
    bad = [
        "towai/1 P1 day D5/D3/N1 D7 - - p1:0 0,0,0 f0t1",  # follows its own play
        "towai/1 L0 day D5/-/N1 - - - -:0 0,0,0 f0t0",  # an empty hand in a round
        "towai/1 P1 day D5D5D5D5D5/D3/N1 D7 - - p0:0 0,0,0 f0t1",  # five D5
        "towai/1 P1 day D5/D3/N1 D7 - - p0:0 0,2,0 f0t1",  # a winner but not over
        "towai/1 C1 day D5/D3/N1 D7 - - p1:0 0,0,0 f0t1",  # a combo with nothing to play
        "towai/1 P1 day D5/D3/?? D7 - - p0:0 0,0,0 f0t1",  # a view
    ]
    for line in bad:
        with pytest.raises(NotationError):
            GAME.from_line(line)


def test_actions_round_trip_through_their_text() -> None:
    state = GAME.new_state(3)
    rng = Rng(3)
    seen = set()
    while state.to_move is not None:
        for a in state.legal_actions() or [GAME.chance_action(state.copy(), rng)]:
            text = GAME.format_action(state, a)
            assert GAME.parse_action(state, text) == a
            assert GAME.parse_action(state, text.lower()) == a  # case-insensitive input
            seen.add(text.split()[0] if " " in text else text[0])
        state.apply(GAME.chance_action(state, rng) if state.to_move == DEALER
                    else rng.choice(state.legal_actions()))
    assert {"day", "night", "first", "deal", "p", "+", "give", "s"} <= seen


def test_bad_action_text_is_a_notation_error() -> None:
    state = S("towai/1 P1 day D5/D3/N1 D3 N3 - p0:0 0,0,0 f0t1")
    for text in ("D8", "X3", "day", "give", "first", "first q1", "D3 D4", "", "pass now"):
        with pytest.raises(KifuError):
            GAME.parse_action(state, text)


# --- bots -----------------------------------------------------------------------------------
def test_out_line_finds_a_reset_lead_and_the_out_bot_takes_it() -> None:
    state = S("towai/1 P0 day N2T4/D3D4/N1N2 D3 N3 - p2:0 0,0,0 f0t1")
    line = out_line(state)
    assert line is not None and [GAME.format_action(state, line[0])] == ["T4"]
    assert OutBot(0, Rng(1)).choose(state) == line[0]
    for a in line:
        state.apply(a)
    assert state.wins == (1, 0, 0)
    assert out_line(S("towai/1 P0 day N2T6/D3D4/N1N2 D7 N3 - p2:0 0,0,0 f0t1")) is None


def test_out_line_plays_swaps_against_the_player() -> None:
    # p0 leads the Swap, gives N2 and needs a Night 5 back from p1 (who gives to p0)
    state = S("towai/1 L0 day N2T5/D3N5/N1N2 - N3 - -:0 0,0,0 f0t0")
    assert out_line(state) is None  # p1 gives D3
    state = S("towai/1 L0 day N2T5/N5N5/N1N2 - N3 - -:0 0,0,0 f0t0")
    line = out_line(state)
    assert line is not None and GAME.format_action(state, line[0]) == "day T5"


def test_greedy_keeps_twai_and_sheds_its_most_held_number() -> None:
    state = S("towai/1 P1 day D5/D5D6D6T6T7/N1 D5 N3 - p0:0 0,0,0 f0t1")
    assert GAME.format_action(state, GreedyBot(1, Rng(0)).choose(state)) == "D6"
    state = S("towai/1 P1 day D5/N3T6/N1 D5 N3 - p0:0 0,0,0 f0t1")
    assert GAME.format_action(state, GreedyBot(1, Rng(0)).choose(state)) == "T6"


def test_render_names_the_side_the_field_and_who_moves() -> None:
    text = S("towai/1 P1 night D5/D3N2/N1 N3 D4 - p0:0 0,1,0 f0t1").render()
    assert "NIGHT" in text and "top N3" in text and "> p1" in text and "round 2" in text
    assert PLAY != CHAIN
