"""TWEAK rules, one at a time, on positions written as position lines.

Rule numbers are those of ``docs/rules/tweak.md`` (the rulings' numbers). Each position is
built by :func:`pos`, which writes a complete line: every card of the round that the test
does not place is put in a *filler* pile (by default the last seat's) so that the position
is consistent; tests that score compare with the points that pile is worth.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from kifu import games
from kifu.bots import play_actions
from kifu.core.errors import IllegalActionError, NotationError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak import actions as act
from kifu.games.tweak.actions import JOKER_DOWN, PASS, PLACE, THIEF_ON, Capture
from kifu.games.tweak.cards import (
    CODE_OF,
    DEFAULT_BACKS,
    FACE,
    POINTS,
    THIEF,
    cards_text,
    number_deck,
    split_cards,
)
from kifu.games.tweak.state import BOMB_PHASE, DEAL, OVER, STEAL_PHASE, TURN, TweakState

G = games.get("tweak")


def cs(text: str) -> tuple[int, ...]:
    """Card codes of a token string (``R1O3`` or ``-``), sorted."""
    codes = split_cards(text)
    assert codes is not None, text
    return tuple(sorted(codes))


def c(token: str) -> int:
    return CODE_OF[token]


def pos(
    hands: list[str],
    table: str = "-",
    deck: str = "-",
    *,
    tpile: str = "-",
    held: list[str] | None = None,
    piles: list[str] | None = None,
    phase: str = "T0",
    rules: str = "tweak/1;rounds=1",
    totals: list[int] | None = None,
    rd: str = "r1d1",
    filler: int | None = None,
) -> TweakState:
    """The position with these zones (the deck top first); the round's other cards go to
    the pile of ``filler`` (default: the last seat)."""
    n = len(hands)
    variant = G.parse_rules(rules)
    colours = variant.colours or ("ROYG" if n <= 3 else "ROYGB" if n == 4 else "ROYGBP")
    every = Counter(number_deck(colours))
    every.update(THIEF + "TJSB".index(t) for t in variant.t_cards)
    held = held or ["-"] * n
    piles = list(piles or ["-"] * n)
    deck_codes = split_cards(deck)
    assert deck_codes is not None
    used = Counter(deck_codes)
    for zone in [*hands, table, tpile, *held, *piles]:
        used.update(cs(zone))
    rest = every - used
    assert not used - every, f"cards not in this round: {cards_text(sorted(used - every))}"
    seat = n - 1 if filler is None else filler
    piles[seat] = cards_text(tuple(sorted(cs(piles[seat]) + tuple(rest.elements()))))
    backs = variant.backs or DEFAULT_BACKS
    target = backs[deck_codes[0]] if deck_codes else 7
    line = " ".join([
        rules, phase, rd, f"t{target}", ",".join(str(t) for t in (totals or [0] * n)),
        "/".join(cards_text(cs(h)) for h in hands), cards_text(cs(table)), deck,
        tpile, "/".join(cards_text(cs(p)) for p in piles),
        "/".join(cards_text(cs(h)) for h in held),
    ])
    state = G.from_line(line)
    assert state.to_line() == line
    return state


def texts(state: TweakState) -> list[str]:
    return [G.format_action(state, a) for a in state.legal_actions()]


def capture_set(state: TweakState) -> list[tuple[int, tuple[int, ...]]]:
    return [(a.card, a.taken) for a in state.legal_actions() if type(a) is Capture]


# --- captures (ruling 5) ----------------------------------------------------------------------


def test_identical_table_cards_are_one_choice() -> None:
    # target 10 (the back of R3). R3 needs 7: Y2+G5, O2+G5, O1+O1+G5; "O1+..." with either
    # O1 is the same capture, so each appears once.
    s = pos(["R3G1", "-"], table="O1O1Y2O2G5", deck="R3R4")
    caps = capture_set(s)
    assert len(caps) == len(set(caps)), "a capture listed twice"
    assert sorted(t for card, t in caps if card == c("R3")) == sorted(
        [cs("Y2G5"), cs("O2G5"), cs("O1O1G5")]
    )
    # G1 needs 9: O1+O1+Y2+G5, O1+O1+O2+G5, Y2+O2+G5
    assert sorted(t for card, t in caps if card == c("G1")) == sorted(
        [cs("O1O1O2G5"), cs("O1O1Y2G5"), cs("Y2O2G5")]
    )


def test_identical_hand_cards_are_one_choice() -> None:
    s = pos(["O1O1Y1", "-"], table="R4", deck="R3")  # target 10, 1+4 = 5: no capture
    assert texts(s) == ["O1", "Y1"]


def brute_force(hand: tuple[int, ...], table: tuple[int, ...], target: int,
                low: int = 1) -> set[tuple[int, tuple[int, ...]]]:
    out = set()
    for card in set(hand):
        for k in range(low, len(table) + 1):
            for idx in combinations(range(len(table)), k):
                taken = tuple(sorted(table[i] for i in idx))
                if FACE[card] + sum(FACE[t] for t in taken) == target:
                    out.add((card, taken))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_captures_match_brute_force_on_a_12_card_table(seed: int) -> None:
    rng = Rng(seed)
    cards = rng.shuffled(number_deck("ROYG"))
    hand, table, deck = cards[:3], cards[3:15], cards[15:17]
    s = pos([cards_text(hand), "-"], table=cards_text(sorted(table)), deck=cards_text(deck))
    want = brute_force(s.hands[0], s.table, s.target)
    got = capture_set(s)
    assert len(got) == len(set(got)), "each distinct capture once"
    assert set(got) == want
    assert s.count_legal() == len(s.legal_actions())


def test_placing_is_legal_even_when_a_capture_is_possible() -> None:
    s = pos(["R3", "-"], table="R4G3", deck="R3")  # 3 + 4 + 3 = 10
    assert set(texts(s)) == {"R3", "R3xR4G3"}
    s.apply(PLACE[c("R3")])
    assert c("R3") in s.table


def test_capture_needs_a_table_card_unless_the_variant_allows_none() -> None:
    # target 7, 6 with the Joker: G6 alone makes it
    base = dict(hands=["Y1G6", "-"], table="R1", deck="Y6", held=["!J", "-"])
    s = pos(**base)
    s.apply(JOKER_DOWN)
    assert "G6x" not in texts(s)
    with pytest.raises(IllegalActionError) as e:
        s.check(Capture(c("G6"), ()))
    assert e.value.rule == "tweak 5: non-empty capture"
    s = pos(**base, rules="tweak/1;empty_capture=true;rounds=1")
    s.apply(JOKER_DOWN)
    assert "G6x" in texts(s)
    s.apply(Capture(c("G6"), ()))
    assert s.table == cs("R1") and c("G6") in s.piles[0]
    assert s.held[0] == ()  # not a TWEAK: the table is still there


def test_capture_moves_cards_to_the_pile() -> None:
    s = pos(["R3Y1", "-"], table="R4G3O1", deck="R3O4O5O6")
    s.apply(Capture(c("R3"), cs("R4G3")))
    assert s.table == cs("O1")
    assert set(cs("R3R4G3")) <= set(s.piles[0])
    assert s.hands[0] == cs("Y1R3O4")  # refilled to 3 from the deck top
    assert s.mover == 1


# --- TWEAK (ruling 5) and end of turn (ruling 6) -----------------------------------------------


def test_tweak_wins_the_top_t_card_and_the_table_is_refilled() -> None:
    s = pos(["R3Y1", "O1O1G1"], table="R4G3", deck="R3O4O5O6", tpile="!J!S!T")
    s.apply(Capture(c("R3"), cs("R4G3")))  # 3 + 4 + 3 = 10, the whole table
    assert s.held[0] == (c("!J"),)
    assert s.tpile_left() == (c("!S"), c("!T"))
    # the hand first (R3, O4), then 2 cards to the empty table (O5, O6)
    assert s.hands[0] == cs("Y1R3O4")
    assert s.table == cs("O5O6")
    assert s.deck_left() == ()


def test_tweak_with_an_empty_t_pile_wins_nothing() -> None:
    s = pos(["R3Y1", "O1O1G1"], table="R4G3", deck="R3O4O5O6",
            piles=["!J!S!T", "-"], filler=1)
    s.apply(Capture(c("R3"), cs("R4G3")))
    assert s.held[0] == ()
    assert s.table == cs("O5O6")


def test_short_deck_refills_the_hand_before_the_table() -> None:
    s = pos(["R3Y1G1", "O1O1G1"], table="R4G3", deck="R3O4", tpile="!J")
    s.apply(Capture(c("R3"), cs("R4G3")))
    assert s.hands[0] == cs("Y1G1R3")
    assert s.table == cs("O4")  # one card was left for the table
    assert s.deck_left() == () and s.target == 7


def test_a_tweak_of_identical_cards() -> None:
    s = pos(["R5", "Y2"], table="O1O1", deck="G1", tpile="!B")  # target 7: 5 + 1 + 1
    assert texts(s) == ["R5", "R5xO1O1"]
    s.apply(Capture(c("R5"), cs("O1O1")))
    assert s.held[0] == (c("!B"),)


# --- T! cards (ruling 7) ----------------------------------------------------------------------


def test_joker_plus_and_minus_change_which_captures_are_legal() -> None:
    s = pos(["R3", "O1"], table="R4Y2G4", deck="R3O4", held=["!J", "-"])  # target 10
    assert capture_set(s) == []
    assert "!J+" in texts(s) and "!J-" in texts(s)
    s.apply(act.JOKER_UP)  # 11 = 3 + 4 + 4
    assert s.to_line().split()[1] == "T0+"
    assert capture_set(s) == [(c("R3"), cs("R4G4"))]
    assert c("!J") in s.piles[0] and s.held[0] == ()
    s.pop()
    s.apply(JOKER_DOWN)  # 9 = 3 + 4 + 2 = 3 + 2 + 4
    assert s.to_line().split()[1] == "T0-"
    assert sorted(capture_set(s)) == [(c("R3"), cs("R4Y2")), (c("R3"), cs("Y2G4"))]
    s.apply(PLACE[c("R3")])
    assert s.jdelta == 0 and s.tused == 0  # the Joker lasts one turn


def test_shifter_moves_the_deck_top_to_the_table_and_changes_the_target() -> None:
    s = pos(["G1", "O1"], table="Y4", deck="R2O3Y1", held=["!S", "-"])
    assert s.target == 9 and capture_set(s) == []
    s.apply(act.SHIFT)
    assert s.table == cs("R2Y4")
    assert s.deck_left() == (c("O3"), c("Y1"))
    assert s.target == 7  # the back of O3
    assert s.to_line().split()[1] == "T0u"
    assert capture_set(s) == [(c("G1"), cs("R2Y4"))]  # 1 + 2 + 4


def test_shifter_needs_a_deck() -> None:
    s = pos(["R1", "O1"], table="Y5", deck="-", held=["!S", "-"])
    assert "!S" not in texts(s)
    with pytest.raises(IllegalActionError) as e:
        s.check(act.SHIFT)
    assert e.value.rule == "tweak 7: Shifter"


def test_thief_then_dealer_steal_puts_the_card_on_the_table() -> None:
    s = pos(["R1", "O1O1Y4", "G2"], table="Y5", deck="R3", held=["!T", "-", "-"])
    assert {"!T p1", "!T p2"} <= set(texts(s))
    s.apply(THIEF_ON[1])
    assert s.phase == STEAL_PHASE and s.to_move == DEALER
    assert s.to_line().split()[1] == "S0:1"
    assert texts(s) == ["steal O1", "steal Y4"]  # the two O1 are one outcome
    with pytest.raises(IllegalActionError):
        s.check(act.STEAL[c("G2")])
    s.apply(act.STEAL[c("Y4")])
    assert s.hands[1] == cs("O1O1") and s.table == cs("Y4Y5")
    assert s.to_move == 0 and s.to_line().split()[1] == "T0u"
    assert not any(type(a) is act.UseThief for a in s.legal_actions())


def test_thief_needs_an_opponent_with_cards() -> None:
    s = pos(["R1", "-", "G2"], table="Y5", deck="-", held=["!T", "-", "-"])
    assert [t for t in texts(s) if t.startswith("!T")] == ["!T p2"]
    with pytest.raises(IllegalActionError) as e:
        s.check(THIEF_ON[1])
    assert e.value.rule == "tweak 7: Thief"
    with pytest.raises(IllegalActionError):
        s.check(THIEF_ON[0])  # not on oneself


def test_bomb_victims_answer_in_turn_order_from_the_next_seat() -> None:
    # p2 bombs; p3 and p1 hold cards, p0 holds none: the queue is p3, p1
    s = pos(["-", "O1O2", "R1", "G2G3Y1"], table="Y5", deck="R3", phase="T2",
            held=["-", "-", "!B", "-"])
    s.apply(act.BOMB_ALL)
    assert s.phase == BOMB_PHASE and s.to_line().split()[1] == "B2:3,1"
    assert s.to_move == 3
    assert texts(s) == ["Y1", "G2", "G3"]  # the victim chooses
    s.apply(PLACE[c("G3")])
    assert s.to_move == 1
    s.apply(PLACE[c("O2")])
    assert s.phase == TURN and s.to_move == 2 and s.tused
    assert s.table == cs("O2G3Y5")
    assert s.hands[1] == cs("O1") and s.hands[3] == cs("Y1G2")
    assert not any(t.startswith("!") for t in texts(s))


def test_bomb_with_no_victim_is_spent() -> None:
    s = pos(["R1", "-", "-"], table="Y5", deck="-", held=["!B", "-", "-"])
    s.apply(act.BOMB_ALL)
    assert s.phase == TURN and s.to_move == 0
    assert c("!B") in s.piles[0] and s.held[0] == ()


def test_one_t_card_per_turn() -> None:
    s = pos(["R1", "O1"], table="Y5", deck="R3O4O5O6G6G5Y6", held=["!J!S!T", "-"])
    s.apply(act.JOKER_UP)
    assert all(not t.startswith("!") for t in texts(s))
    for a in (act.SHIFT, THIEF_ON[1], JOKER_DOWN):
        with pytest.raises(IllegalActionError) as e:
            s.check(a)
        assert e.value.rule == "tweak 5: one T! a turn"
    s.apply(PLACE[c("R1")])
    s.apply(PLACE[c("O1")])  # p1's turn
    assert "!S" in texts(s)  # p0 may use another one next turn


def test_a_t_card_is_not_usable_with_an_empty_hand() -> None:
    s = pos(["-", "O1"], table="Y5", deck="R3O4O5", held=["!J!B", "-"])
    assert s.legal_actions() == [PASS]
    with pytest.raises(IllegalActionError) as e:
        s.check(act.BOMB_ALL)
    assert e.value.rule == "tweak 8: empty hand"


# --- empty hands (ruling 8) ---------------------------------------------------------------


def test_empty_hand_passes_and_refills() -> None:
    s = pos(["-", "O1G1G2"], table="Y5", deck="R3O4O5O6")
    assert s.legal_actions() == [PASS]
    s.apply(PASS)
    assert s.hands[0] == cs("R3O4O5") and s.table == cs("Y5") and s.to_move == 1


def test_pass_with_cards_is_illegal() -> None:
    s = pos(["R1", "O1"], table="Y5", deck="R3")
    with pytest.raises(IllegalActionError) as e:
        s.check(PASS)
    assert e.value.rule == "tweak 5: play one card"


def test_empty_hands_are_skipped_once_the_deck_is_gone() -> None:
    s = pos(["R1R2", "-", "G2", "-"], table="Y5", deck="-")
    s.apply(PLACE[c("R1")])
    assert s.to_move == 2  # p1 is skipped
    s.apply(PLACE[c("G2")])
    assert s.to_move == 0  # p3 and p1 are skipped
    assert s.hands[0] == cs("R2")  # no refill without a deck


def test_the_deck_running_out_makes_the_target_7() -> None:
    s = pos(["R1R2", "O1O2O3"], table="Y5", deck="R3")
    assert s.target == 10
    s.apply(PLACE[c("R1")])
    assert s.deck_left() == () and s.target == 7 and s.hands[0] == cs("R2R3")


# --- end of round, scoring, game (rulings 9-11) ------------------------------------------------

RED_ORANGE = "tweak/1;colours=RO;t_cards=TJ;rounds=1"


def test_round_end_scores_by_card_values_and_leftovers_score_nobody() -> None:
    # p0: R5 5, O5 4, R1 3, O1 1, a used Thief 2, an unused Joker 2 = 17; then O2 is placed
    s = pos(["O2", "-"], table="R2", deck="-", piles=["R5O5R1O1!T", "-"], held=["!J", "-"],
            rules=RED_ORANGE)
    assert s.round_points(0) == 17
    # p1 has the rest: R1R2R3R3R4R6 (6 red x 3) and O1O2O3O3O4O6 (6 x 1)
    assert s.piles[1] == cs("R1R2R3R3R4R6O1O2O3O3O4O6")
    assert s.round_points(1) == 24
    s.apply(PLACE[c("O2")])
    assert s.phase == OVER
    assert s.totals == (17, 24)
    assert s.table == cs("R2O2")  # left on the table, for nobody
    assert s.result().scores == (17, 24) and s.result().ranks == (2, 1)


@pytest.mark.parametrize(
    ("token", "points"),
    [("O1", 1), ("G6", 1), ("!T", 2), ("!B", 2), ("R1", 3), ("R6", 3), ("O5", 4), ("P5", 4),
     ("R5", 5)],
)
def test_card_values(token: str, points: int) -> None:
    assert POINTS[c(token)] == points


def test_next_round_is_dealt_by_the_seat_before_the_dealer() -> None:
    s = pos(["O2", "-", "-"], table="R2", deck="-", rules="tweak/1;rounds=2", rd="r1d1")
    s.apply(PLACE[c("O2")])
    assert s.phase == DEAL and s.to_move == DEALER
    assert s.dealer == 0 and s.to_line().split()[1:3] == ["D", "r1d0"]
    s2 = pos(["O2", "-", "-"], table="R2", deck="-", rules="tweak/1;rounds=2", rd="r1d0")
    s2.apply(PLACE[c("O2")])
    assert s2.dealer == 2  # the seat before p0 is p2


def test_deal_order_round_robin_from_the_seat_after_the_dealer() -> None:
    s = G.new_state(3)
    s.apply(act.ChooseDealer(1))
    deck = tuple(Rng(5).shuffled(s._components))
    tpile = tuple(Rng(6).shuffled(s._t_components))
    s.apply(act.Deal(deck, tpile))
    assert s.to_move == 2  # the seat after the dealer plays first
    assert s.hands[2] == tuple(sorted(deck[0:9:3]))
    assert s.hands[0] == tuple(sorted(deck[1:9:3]))
    assert s.hands[1] == tuple(sorted(deck[2:9:3]))
    assert s.table == tuple(sorted(deck[9:11]))
    assert s.deck_left() == deck[11:]
    assert s.target == DEFAULT_BACKS[deck[11]]
    assert s.tpile_left() == tpile


def test_deal_must_be_the_rounds_cards() -> None:
    s = G.new_state(2)
    s.apply(act.ChooseDealer(0))
    deck = list(s._components)
    deck[0] = deck[-1]
    with pytest.raises(IllegalActionError) as e:
        s.check(act.Deal(tuple(deck), s._t_components))
    assert e.value.rule == "tweak 2: the cards of the round"
    with pytest.raises(IllegalActionError) as e:
        s.check(act.Deal(s._components, s._t_components[1:]))
    assert e.value.rule == "tweak 3: the T! pile"


@pytest.mark.parametrize(("players", "colours", "threshold"),
                         [(2, "ROYG", 140), (3, "ROYG", 120), (4, "ROYGB", 100),
                          (5, "ROYGBP", 80), (6, "ROYGBP", 60)])
def test_colours_and_thresholds_by_player_count(players: int, colours: str,
                                                threshold: int) -> None:
    s = G.new_state(players)
    assert s._components == number_deck(colours)
    assert len(s._components) == 9 * len(colours)
    assert s._threshold == threshold


def test_the_game_ends_at_the_threshold() -> None:
    # 2 players, threshold 140: p1 gets 24 this round
    s = pos(["O2", "-"], table="R2", deck="-", piles=["R5O5R1O1!T", "-"], held=["!J", "-"],
            rules="tweak/1;colours=RO;t_cards=TJ", totals=[100, 116])
    s.apply(PLACE[c("O2")])
    assert s.phase == OVER and s.totals == (117, 140)
    s = pos(["O2", "-"], table="R2", deck="-", piles=["R5O5R1O1!T", "-"], held=["!J", "-"],
            rules="tweak/1;colours=RO;t_cards=TJ", totals=[100, 115])
    s.apply(PLACE[c("O2")])
    assert s.phase == DEAL and s.totals == (117, 139)


def test_a_threshold_variant() -> None:
    s = pos(["O2", "-"], table="R2", deck="-", piles=["R5O5R1O1!T", "-"], held=["!J", "-"],
            rules="tweak/1;colours=RO;t_cards=TJ;threshold=17")
    s.apply(PLACE[c("O2")])
    assert s.phase == OVER


def test_equal_totals_share_the_rank() -> None:
    s = pos(["O2", "-"], table="R2", deck="-", piles=["R5O5R1O1!T", "-"], held=["!J", "-"],
            rules=RED_ORANGE, totals=[7, 0])
    s.apply(PLACE[c("O2")])
    r = s.result()
    assert r.scores == (24, 24) and r.ranks == (1, 1)


# --- the machinery: undo, lines, views, explanations -------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_undo_restores_the_line_exactly(players: int) -> None:
    bots = ["random"] * players
    actions = play_actions(G, bots, 11, G.parse_rules("tweak/1;rounds=2"))
    s = G.new_state(players, G.parse_rules("tweak/1;rounds=2"))
    lines = [s.to_line()]
    for a in actions:
        s.apply(a)
        s.check_invariants()
        lines.append(s.to_line())
    assert s.phase == OVER
    for want in reversed(lines[:-1]):
        s.pop()
        assert s.to_line() == want
    assert s.history == []


def test_from_line_round_trips_every_position_of_a_game() -> None:
    v = G.parse_rules("tweak/1;rounds=1")
    actions = play_actions(G, ["random", "greedy", "random"], 3, v)
    s = G.new_state(3, v)
    for a in actions:
        s.apply(a)
        line = s.to_line()
        back = G.from_line(line)
        assert back.to_line() == line
        assert back.key() == s.key()


def test_from_line_rejects_a_wrong_target() -> None:
    s = pos(["R1", "O1"], table="Y5", deck="R3")
    line = s.to_line().replace(" t10 ", " t9 ")
    with pytest.raises(NotationError, match="target"):
        G.from_line(line)


def test_view_hides_hands_piles_deck_and_t_pile_of_others() -> None:
    s = pos(["R1", "O1O2"], table="Y5", deck="R3O4", tpile="!J", held=["!S", "-"],
            piles=["G1", "-"])
    fields = s.view(0).split()
    assert fields[5].split("/")[0] == "R1" and fields[5].split("/")[1] == "??"
    assert fields[6] == "Y5"  # the table is face up
    assert fields[7] == "??" and fields[8] == "?"
    assert fields[9].split("/")[0] == "G1" and set(fields[9].split("/")[1]) == {"?"}
    assert fields[10] == "!S/-"  # T! cards held are face up


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (PLACE[c("G6")], "tweak 5: play a hand card"),
        (Capture(c("G6"), cs("Y5")), "tweak 5: play a hand card"),
        (Capture(c("R1"), cs("Y6")), "tweak 5: capture table cards"),
        (Capture(c("R1"), cs("Y5")), "tweak 5: capture sum"),
        (Capture(c("R1"), ()), "tweak 5: non-empty capture"),
        (PASS, "tweak 5: play one card"),
        (act.JOKER_UP, "tweak 7: use a T! card you hold"),
        (act.UseShifter(), "tweak 7: Shifter"),
        (THIEF_ON[0], "tweak 7: Thief"),
        (act.STEAL[c("R1")], "turn"),
    ],
)
def test_explain_illegal_rule_ids(action, rule: str) -> None:
    s = pos(["R1O1", "O2"], table="Y5", deck="-", held=["!S!T", "-"])
    with pytest.raises(IllegalActionError) as e:
        s.check(action)
    assert e.value.rule == rule
    assert action not in s.legal_actions()


def test_explain_illegal_in_other_phases() -> None:
    s = G.new_state(2)
    with pytest.raises(IllegalActionError) as e:
        s.check(act.ChooseDealer(2))
    assert e.value.rule == "tweak 3: setup"
    s = pos(["-", "O1O2", "R1", "G2G3Y1"], table="Y5", deck="R3", phase="B2:3,1",
            held=["-", "-", "-", "-"], piles=["-", "-", "!B", "-"])
    with pytest.raises(IllegalActionError) as e:
        s.check(act.Place(c("O1")))
    assert e.value.rule == "tweak 7: Bomb"
    with pytest.raises(IllegalActionError) as e:
        s.check(act.UseJoker(1))
    assert e.value.rule == "tweak 7: Bomb"
