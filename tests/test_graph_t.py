"""GRAPH-T rules, notation and perft (the AI is in test_graph_t_ai.py, playouts in
test_graph_t_props.py)."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest
from graph_t_helpers import GAME, position, texts

from kifu.core.errors import IllegalActionError, NotationError, VariantError
from kifu.core.game import DEALER, perft
from kifu.core.rng import Rng
from kifu.games.graph_t import Deal, GraphTVariant, Lead, Play
from kifu.games.graph_t.cards import (
    CARD_TOKEN,
    DECK_COUNT,
    N_CODES,
    PLAY_HEIGHT,
    PLAY_OK,
    PLAY_TOKEN,
    G,
    deck_codes,
)
from kifu.notation.perftfile import read_perft

ROOT = Path(__file__).resolve().parent.parent


def play(state, text: str) -> None:
    state.apply(GAME.parse_action(state, text))


# --- tables -------------------------------------------------------------------------------


def test_card_table_matches_rulebook() -> None:
    counts = {CARD_TOKEN[c]: DECK_COUNT[c] for c in range(N_CODES) if DECK_COUNT[c]}
    assert counts == {
        "R1": 4, "R2": 3, "Y1": 3, "Y2": 3, "Y3": 2, "B1": 3, "B2": 3, "B3": 2, "B4": 2,
        "P1": 3, "P2": 3, "P3": 2, "P4": 2, "P5": 1,
        "K1": 3, "K2": 3, "K3": 2, "K4": 2, "K5": 1, "K6": 1,
    }
    assert len(deck_codes(True)) == 48 and len(deck_codes(False)) == 36


def test_heights_brute_force() -> None:
    units = {"R": 30, "Y": 20, "B": 15, "P": 12, "K": 10}
    tops = {"R": 2, "Y": 3, "B": 4, "P": 5, "K": 6}
    for code in range(N_CODES):
        tok = CARD_TOKEN[code]
        if code == G:
            assert PLAY_HEIGHT[2 * code] == 60 and not PLAY_OK[2 * code + 1]
            continue
        colour, level = tok[0], int(tok[1])
        assert PLAY_HEIGHT[2 * code] == units[colour] * level
        assert PLAY_OK[2 * code + 1] == (level < tops[colour])
        if level < tops[colour]:
            assert PLAY_HEIGHT[2 * code] + PLAY_HEIGHT[2 * code + 1] == 60
        else:
            assert PLAY_HEIGHT[2 * code] == 60


def test_table_digest() -> None:
    rows = ",".join(
        f"{PLAY_TOKEN[p]}:{PLAY_HEIGHT[p]}" for p in range(2 * N_CODES) if PLAY_OK[p]
    )
    assert rows.count(":") == 36  # 20 colour sides + 15 grey sides + the grey card
    assert hashlib.md5(rows.encode()).hexdigest() == hashlib.md5(
        b"R1:30,R1g:30,R2:60,Y1:20,Y1g:40,Y2:40,Y2g:20,Y3:60,B1:15,B1g:45,B2:30,B2g:30,"
        b"B3:45,B3g:15,B4:60,P1:12,P1g:48,P2:24,P2g:36,P3:36,P3g:24,P4:48,P4g:12,P5:60,"
        b"K1:10,K1g:50,K2:20,K2g:40,K3:30,K3g:30,K4:40,K4g:20,K5:50,K5g:10,K6:60,G:60"
    ).hexdigest()


# --- deal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "rules", "size", "grey"),
    [
        (2, "graph-t/1", 24, 1), (3, "graph-t/1", 16, 1), (4, "graph-t/1", 12, 1),
        (2, "graph-t/1;grey=false", 24, 0), (3, "graph-t/1;grey=false", 16, 0),
        (2, "graph-t/1;grey=false;black=false", 18, 0),
        (3, "graph-t/1;grey=false;black=false", 12, 0),
        (4, "graph-t/1;grey=false;black=false", 9, 0),
    ],
)
def test_deal_sizes(n: int, rules: str, size: int, grey: int) -> None:
    state = GAME.new_state(n, GAME.parse_rules(rules))
    assert state.to_move == DEALER and state.legal_actions() == [] and perft(state, 1) == 0
    deal = GAME.chance_action(state, Rng(5))
    assert isinstance(deal, Deal) and all(len(h) == size for h in deal.hands)
    state.apply(deal)
    state.check_invariants()
    for s in range(n):
        codes = state.hand_codes(s)
        assert len(codes) == size + grey
        assert codes.count(G) == grey
        if "black=false" in rules:
            assert not any(CARD_TOKEN[c][0] == "K" for c in codes)
    assert state.to_move == DEALER and state.legal_actions() == [Lead(s) for s in range(n)]
    lead = GAME.chance_action(state, Rng(9))
    state.apply(lead)
    assert state.to_move == lead.seat == state.leader


def test_bad_deals_are_rejected() -> None:
    state = GAME.new_state(2)
    deck = deck_codes(True)
    with pytest.raises(IllegalActionError, match="2 players"):
        state.check(Deal((deck[:16], deck[16:32], deck[32:])))
    with pytest.raises(IllegalActionError, match="same size"):
        state.check(Deal((deck[:20], deck[20:])))
    with pytest.raises(IllegalActionError, match="missing K6"):
        state.check(Deal((deck[:24], (*deck[24:47], 0))))
    with pytest.raises(IllegalActionError) as info:
        state.check(Play(0))
    assert info.value.rule == "graph-t 1: deal"


# --- lead (rulings 2, 3) -------------------------------------------------------------------


def test_lead_colour_sides_only_until_grey_opens() -> None:
    s = position("R1R1Y2K6G")
    assert texts(s) == ["R1", "Y2", "K6"]  # identical R1s are one action
    assert s.count_legal() == 3
    with pytest.raises(IllegalActionError) as info:
        s.check(Play(0, True))
    assert info.value.rule == "graph-t 3: lead a colour until grey is open"
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.check(Play(1))


def test_lead_only_grey_card() -> None:
    s = position("G")
    assert texts(s) == ["G"]


def test_lead_grey_open_any_play() -> None:
    s = position("R1R1Y2K6G", greyed="p1")
    assert s.grey_open()
    assert texts(s) == ["R1", "R1g", "Y2", "Y2g", "K6", "G"]
    assert s.count_legal() == 6


def test_grey_open_needs_another_player() -> None:
    s = position("R1Y2G", greyed="p0")
    assert not s.grey_open() and texts(s) == ["R1", "Y2"]
    s = position("R1Y2G", greyed="p0", rules="graph-t/1;grey_open=anyone")
    assert s.grey_open() and texts(s) == ["R1", "R1g", "Y2", "Y2g", "G"]


def test_grey_opens_during_play() -> None:
    # p1 is void in red and makes a grey play that wins; p1 leads next, and grey is not
    # open for p1, since only p1 has played grey (ruling 2); it would be for p0.
    s = GAME.from_line("graph-t/1 R1Y1/B1B2 -/- - p0 p0 -")
    play(s, "R1")
    assert texts(s) == ["B1", "B1g", "B2", "B2g"]
    play(s, "B1g")  # grey 45 beats red 30
    assert s.leader == 1 and s.greyed == 0b10
    assert not s.grey_open() and s.grey_open(0)
    assert texts(s) == ["B2"]
    play(s, "B2")
    play(s, "Y1")  # void: discards; sky blue wins the last trick
    assert s.is_terminal() and s.result().scores == (0, 45)


# --- follow (rulings 4, 5) -----------------------------------------------------------------


def test_follow_led_colour() -> None:
    s = position("R2Y3Y1K6G", "Y2")
    assert texts(s) == ["Y1", "Y3"]
    with pytest.raises(IllegalActionError) as info:
        s.check(Play(1))
    assert info.value.rule == "graph-t 4: follow the led colour"
    with pytest.raises(IllegalActionError) as info:
        s.check(Play(G))
    assert info.value.rule == "graph-t 4: follow the led colour"


def test_follow_after_grey_play_allows_any_grey() -> None:
    s = position("R1Y1Y3G", "Y2K2g", n=3, greyed="p1")
    assert texts(s) == ["R1g", "Y1", "Y1g", "Y3", "G"]
    assert s.count_legal() == 5


def test_void_player_may_play_anything() -> None:
    s = position("R1Y3G", "B2")
    assert texts(s) == ["R1", "R1g", "Y3", "G"]


def test_follow_grey_lead() -> None:
    s = position("R1Y3K2G", "P1g", greyed="p0")
    assert texts(s) == ["R1g", "K2g", "G"]
    with pytest.raises(IllegalActionError) as info:
        s.check(Play(0))
    assert info.value.rule == "graph-t 5: follow a grey lead"
    s = position("R2Y3", "P1g", greyed="p0")  # no grey play possible: any play
    assert texts(s) == ["R2", "Y3"]


# --- trick winner, collect (rulings 6, 7) --------------------------------------------------


def test_highest_led_colour_wins_and_collects_its_colour_only() -> None:
    # 3 players: p0 leads Y1 (20), p1 follows Y3 (60), p2 void plays B4 (60, off colour)
    s = GAME.from_line("graph-t/1 Y1/Y3/B4 -/-/- - p0 p0 -")
    before = Counter(s.gone)
    play(s, "Y1")
    play(s, "Y3")
    play(s, "B4")
    assert s.is_terminal() and s.leader == 1
    assert s.heights[1] == (0, 80, 0, 0, 0, 0)
    assert s.stacks[1] == (4, 8)  # Y1, Y3 colour sides
    assert Counter(s.gone) - before == Counter([8])  # B4 left the game
    s.check_invariants()


def test_grey_beats_shorter_led_colour() -> None:
    s = GAME.from_line("graph-t/1 R1/K1 -/- - p0 p0 -")
    play(s, "R1")  # red 30
    play(s, "K1g")  # grey 50
    assert s.leader == 1 and s.heights[1][5] == 50 and s.heights[0] == (0,) * 6


def test_led_colour_beats_shorter_grey() -> None:
    s = GAME.from_line("graph-t/1 R2/K4 -/- - p0 p0 -")
    before = Counter(s.gone)
    play(s, "R2")  # red 60
    play(s, "K4g")  # grey 20
    assert s.leader == 0 and s.heights[0][0] == 60
    assert Counter(s.gone) - before == Counter([17])  # K4 left the game


def test_equal_heights_later_play_wins() -> None:
    s = GAME.from_line("graph-t/1 B2/Y3/R2 -/-/- - p0 p0 -")
    play(s, "B2")  # sky 30
    play(s, "Y3")  # void, off colour 60: does not compete
    play(s, "R2")  # off colour too
    assert s.leader == 0
    s = GAME.from_line("graph-t/1 R2Y1/K3B1/P4Y2 -/-/- - p0 p0 -")
    play(s, "R2")  # red 60
    play(s, "B1")  # void in red: sky, off colour
    play(s, "P4")  # void: purple, off colour
    assert s.leader == 0
    s = GAME.from_line("graph-t/1 B2/R1 -/- - p0 p0 -")
    play(s, "B2")  # sky 30
    play(s, "R1g")  # grey 30: equal height, the later play wins
    assert s.leader == 1 and s.heights[1][5] == 30


def test_trump_variant() -> None:
    s = GAME.from_line("graph-t/1;grey_wins=trump R2/K4 -/- - p0 p0 -")
    play(s, "R2")  # red 60
    play(s, "K4g")  # grey 20 is trump
    assert s.leader == 1 and s.heights[1][5] == 20
    s = GAME.from_line("graph-t/1;grey_wins=trump B3/Y1/R1 -/-/- - p0 p0 -")
    play(s, "B3")
    play(s, "Y1g")  # grey 40
    play(s, "R1g")  # grey 30: grey plays compare by height among themselves
    assert s.leader == 1 and s.heights[1] == (0, 0, 0, 0, 0, 70)


def test_grey_winner_collects_every_grey_play() -> None:
    s = GAME.from_line("graph-t/1 R1/K1/G -/-/- - p0 p0 -")
    before = Counter(s.gone)
    play(s, "R1")
    play(s, "K1g")  # grey 50
    play(s, "G")  # grey 60 wins, collects both grey plays
    assert s.leader == 2 and s.heights[2][5] == 110 and s.stacks[2] == (29, 40)
    assert Counter(s.gone) - before == Counter([0])  # R1 left the game


def test_winner_leads_next() -> None:
    s = GAME.from_line("graph-t/1 R1Y1/R2Y2 -/- - p0 p0 -")
    play(s, "R1")
    play(s, "R2")
    assert s.to_move == 1 and s.leader == 1 and s.trick == ()


# --- score (ruling 8) ----------------------------------------------------------------------


def test_score_tie_break_and_shared_win() -> None:
    s = GAME.from_line("graph-t/1 -/-/- R2Y1/R1Y3/Y1P5 - p0 - -")
    r = s.result()
    assert r is not None and s.is_terminal()
    assert r.scores == (60, 60, 60)
    assert r.ranks == (2, 1, 2)  # p1's second stack (red 30) beats 20; p0, p2 share
    assert r.to_text() == "60 60 60"
    s = GAME.from_line("graph-t/1 -/- K6K5/R2R1 - p0 - -")
    assert s.result().scores == (110, 90) and s.result().ranks == (1, 2)
    s = GAME.from_line("graph-t/1 -/- R2/B4 - p1 - -")
    assert s.result().ranks == (1, 1)


def test_result_none_while_playing() -> None:
    assert position("R1").result() is None


# --- variants ------------------------------------------------------------------------------


def test_variant_spec_round_trip() -> None:
    for v in (GraphTVariant(), *GAME.example_variants):
        assert GAME.parse_rules(GAME.rules_spec(v)) == v
    assert GAME.rules_spec(GraphTVariant(grey=False)) == "graph-t/1;grey=false"


@pytest.mark.parametrize(
    "spec",
    ["graph-t/1;black=false", "graph-t/1;grey_open=nobody", "graph-t/1;grey_wins=x",
     "graph-t/1;ai_grey=some", "graph-t/1;colour=1"],
)
def test_bad_variants(spec: str) -> None:
    with pytest.raises(VariantError):
        GAME.parse_rules(spec)


def test_new_state_validates() -> None:
    with pytest.raises(VariantError):
        GAME.new_state(2, GraphTVariant(black=False))
    with pytest.raises(VariantError):
        GAME.new_state(5)


def test_quick_game_has_no_grey_card() -> None:
    s = position("R1Y1", "B2", rules="graph-t/1;grey=false")
    assert texts(s) == ["R1", "R1g", "Y1", "Y1g"]  # grey sides exist without grey cards
    with pytest.raises(IllegalActionError, match="no grey cards"):
        s.check(Play(G))


# --- notation ------------------------------------------------------------------------------


def test_play_tokens_round_trip() -> None:
    s = GAME.new_state(2)
    for pid in range(2 * N_CODES):
        if not PLAY_OK[pid]:
            continue
        a = Play(pid >> 1, bool(pid & 1))
        text = GAME.format_action(s, a)
        assert text == PLAY_TOKEN[pid]
        assert GAME.parse_action(s, text) == a
        assert GAME.parse_action(s, text.lower()) == a


def test_dealer_tokens_round_trip() -> None:
    s = GAME.new_state(3)
    deal = GAME.chance_action(s, Rng(1))
    text = GAME.format_action(s, deal)
    assert text.startswith("deal ") and text.count("/") == 2
    assert GAME.parse_action(s, text) == deal
    assert GAME.parse_action(s, text.lower()) == deal
    shuffled = "deal " + "/".join(h[::-1] for h in text[5:].split("/"))
    assert shuffled != text  # tokens reversed: still the same deal
    reversed_hands = "/".join(
        "".join(reversed([h[i:i + 2] for i in range(0, len(h), 2)])) for h in text[5:].split("/")
    )
    assert GAME.parse_action(s, "deal " + reversed_hands) == deal
    assert GAME.parse_action(s, "lead p2") == Lead(2)
    assert GAME.format_action(s, Lead(2)) == "lead p2"
    assert GAME.parse_action(s, "LEAD P1") == Lead(1)


@pytest.mark.parametrize(
    ("text", "col", "message"),
    [
        ("Q3", 1, "expected a play"),
        ("R3", 1, "no card R3"),
        ("K", 2, "needs a level"),
        ("R1x", 3, "a play is one card"),
        ("R1 R2", 3, "one token"),
        ("deal", 5, "deal needs the hands"),
        ("deal R1/GR2", 9, "colour cards only"),
        ("deal R1//R2", 9, "empty hand"),
        ("deal R1R9", 8, "no card R9"),
        ("lead 2", 6, "lead needs a seat"),
        ("lead p01", 6, "lead needs a seat"),
    ],
)
def test_parse_errors(text: str, col: int, message: str) -> None:
    with pytest.raises(NotationError) as info:
        GAME.parse_action(GAME.new_state(2), text)
    assert info.value.col == col
    assert message in info.value.message


def test_top_card_grey_side_is_illegal_not_malformed() -> None:
    with pytest.raises(IllegalActionError) as info:
        GAME.parse_action(GAME.new_state(2), "K6g")
    assert info.value.rule.startswith("graph-t cards")


# --- position lines ------------------------------------------------------------------------


def test_position_line_phases() -> None:
    s = GAME.new_state(3)
    assert s.to_line() == "graph-t/1 -/-/- -/-/- - - d -"
    assert GAME.from_line(s.to_line()) == s
    s.apply(GAME.chance_action(s, Rng(2)))
    line = s.to_line()
    assert line.endswith(" -/-/- - - d -") and GAME.from_line(line) == s
    s.apply(Lead(1))
    assert s.to_line().endswith(" -/-/- - p1 p1 -")
    assert GAME.from_line(s.to_line()) == s


def test_from_line_normalises_order() -> None:
    s = GAME.from_line("graph-t/1 K1R1/Y2R2 -/- - p0 p0 -")
    assert s.to_line() == "graph-t/1 R1K1/R2Y2 -/- - p0 p0 -"


def test_view_masks_other_hands() -> None:
    s = position("R1Y1G", greyed="p1")
    v = s.view(0)
    assert v.split()[1].split("/")[0] == "R1Y1G"
    assert v.split()[1].split("/")[1] == "???"
    with pytest.raises(NotationError, match="hidden"):
        GAME.from_line(v)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("graph-t/1 R1/R2 -/- - p0 p0", "fields"),
        ("graph-t/1 R1/R2 -/- - p0 p1 -", "to-move"),
        ("graph-t/1 R1/R2/Y1/Y2/Y3 -/-/-/-/- - p0 p0 -", "players"),
        ("graph-t/1 R1R1R1R1R1/R2 -/- - p0 p0 -", "too many R1"),
        ("graph-t/1 R1/R2R2 -/- - p0 p0 -", "hand sizes"),
        ("graph-t/1 R1/R2 -/- K6g p0 p1 -", "no grey side"),
        ("graph-t/1 R1/R2 -/- - p2 p2 -", "no seat p2"),
        ("graph-t/1 R1 -/- - p0 p0 -", "2..4 players"),
        ("graph-t/1 -/R2 -/- R1g p0 p1 -", "grey play"),
        ("graph-t/1 R1/R2 -/- - - d -", "whole deal"),
        ("graph-t/1 R1/G -/- - p0 p0 p1p1", "once"),
        ("graph-t/1 R1/R2 K2g/- - p0 p0 -", "grey stack"),
        ("tweak/1 R1/G -/- - p0 p0 -", "not for graph-t"),
    ],
)
def test_bad_position_lines(line: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        GAME.from_line(line)
    assert message in str(info.value)


def test_render_mentions_everything() -> None:
    s = position("R1Y1G", "K1", greyed="p0")
    text = s.render()
    for needle in ("p1 hand: R1Y1G", "trick: p0 K1(0.17)", "grey for the leader: not open",
                   "p0 stacks: red 0", "to move"):
        assert needle in text


# --- perft and the reference generator ------------------------------------------------------


def naive_legal(state) -> list[str]:
    """Rulings 3-5 restated over card tokens, independent of the engine's bit tables."""
    seat = state.turn
    hand = [CARD_TOKEN[c] for c in state.hand_codes(seat)]
    tops = {"R": "2", "Y": "3", "B": "4", "P": "5", "K": "6"}
    colour_sides = {t for t in hand if t != "G"}
    grey_sides = {t + "g" for t in hand if t != "G" and t[1] != tops[t[0]]}
    grey_card = {"G"} & set(hand)
    everything = colour_sides | grey_sides | grey_card
    trick = [PLAY_TOKEN[p] for p in state.trick]

    def is_grey(tok: str) -> bool:
        return tok == "G" or tok.endswith("g")

    if not trick:
        greyed = {s for s in range(state.n) if state.greyed >> s & 1}
        anyone = state.variant.grey_open == "anyone"
        opened = bool(greyed) if anyone else bool(greyed - {seat})
        if opened:
            out = everything
        else:
            out = colour_sides or grey_card
    elif is_grey(trick[0]):
        out = (grey_sides | grey_card) or everything
    else:
        led = trick[0][0]
        mine = {t for t in colour_sides if t[0] == led}
        if mine:
            out = mine | ((grey_sides | grey_card) if any(map(is_grey, trick)) else set())
        else:
            out = everything
    order = [PLAY_TOKEN[p] for p in range(2 * N_CODES) if PLAY_OK[p]]
    return sorted(out, key=order.index)


def test_legal_actions_match_reference_on_random_games() -> None:
    rng = Rng(2024)
    seen = Counter()
    for game_no in range(60):
        n = 2 + game_no % 3
        variants = (GraphTVariant(), *GAME.example_variants)
        s = GAME.new_state(n, variants[game_no % len(variants)])
        while not s.is_terminal():
            if s.to_move == DEALER:
                s.apply(GAME.chance_action(s, rng))
                continue
            got = texts(s)
            assert got == naive_legal(s), s.to_line()
            assert s.count_legal() == len(got)
            seen["grey lead" if not s.trick and s.grey_open() else "other"] += 1
            s.apply(rng.choice(s.legal_actions()))
    assert seen["grey lead"] > 0


def test_perft_file() -> None:
    cases = read_perft(ROOT / "fixtures" / "perft" / "graph-t.perft")
    assert len(cases) >= 3
    assert {GAME.from_line(c.position).n for c in cases} == {2, 3, 4}
    for case in cases:
        state = GAME.from_line(case.position)
        for depth, nodes in case.counts:
            assert perft(state, depth) == nodes, (case.id, depth)
        assert state.to_line() == case.position


def _naive_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in state.legal_actions():
        c = state.copy()
        c.apply(a)
        total += _naive_perft(c, depth - 1)
    return total


def test_perft_matches_copy_based_walk() -> None:
    for case in read_perft(ROOT / "fixtures" / "perft" / "graph-t.perft")[:4]:
        state = GAME.from_line(case.position)
        depth, nodes = case.counts[min(3, len(case.counts) - 1)]
        assert _naive_perft(state, depth) == nodes
