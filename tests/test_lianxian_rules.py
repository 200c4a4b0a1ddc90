"""Lianxian rules: the rulebook's worked examples rebuilt on the default board, one test
group per ruling, the board loader's errors, notation and views."""

from __future__ import annotations

from fractions import Fraction

import pytest
from lianxian_helpers import GAME, make

from kifu.core.errors import IllegalActionError, NotationError, VariantError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.lianxian import placements as gen
from kifu.games.lianxian.actions import PASS, RECYCLE, Place, Swap
from kifu.games.lianxian.board import load_board, parse_board
from kifu.games.lianxian.state import OVER, REFILL, SWAP, TURN
from kifu.games.lianxian.tiles import TOKEN, parse_tile, tiles_of

BOARD = load_board("default")


def act(state, text: str):
    return state.apply(GAME.parse_action(state, text))


def placement(state, text: str):
    """The generated Placement whose action is ``text`` (it must be legal)."""
    want = GAME.parse_action(state, text)
    (pl,) = [p for p in state.placements() if p.action == want]
    return pl


# --- the rulebook's examples ------------------------------------------------------------

def three_combo_position():
    # H4 below-left of the two centre spaces to fill; a 5 to the west; two 6s to the north
    return make({"C_SW": "H4", "W_N": "D5", "N_E": "S6", "N_W": "C6"},
                ["H5H6T1T2", "S1S2S3S4"], "D9D10C9C10")


def test_two_tiles_three_combos_six_points() -> None:
    """Two placed tiles make three combos with the board (a run H4-H5-H6, the 5s, the
    6s): six tiles score, H5 and H6 once each although each is in two combos."""
    st = three_combo_position()
    pl = placement(st, "H5@C_NW,H6@C_NE")
    assert pl.points == 6
    fin = gen.final_tops(st.tops(), pl.action.cells)
    combos = {m for p, _ in pl.action.cells for m in gen.components(BOARD, fin, p) if m}
    assert len(combos) == 3
    act(st, "H5@C_NW,H6@C_NE")
    assert st.scores == (6, 2)


def test_bonus_points_to_the_owner_of_the_spaces() -> None:
    """The 6s on North's two bonus spaces score for North (p1) as a bonus."""
    st = three_combo_position()
    assert placement(st, "H5@C_NW,H6@C_NE").bonus == (0, 2)


def test_placed_tiles_may_form_the_combo_alone() -> None:
    st = make({"C_SW": "T1"}, ["H7D7S2S3", "C1C2C3C4"], "T9T10H1H2")
    assert placement(st, "H7@C_NW,D7@C_NE").points == 2


def test_combos_bend_along_the_lines() -> None:
    """A run may change direction: S_W -> C_SE -> C_NE -> E_N."""
    st = make({"S_W": "D2", "E_N": "D5"}, ["D3D4T1T2", "C1C2C3C4"], "T9T10H1H2")
    pl = placement(st, "D3@C_SE,D4@C_NE")
    assert pl.points == 4


def test_only_top_tiles_count() -> None:
    """Covering a tile takes it out of play: the H4 under D8 does not link to H5."""
    st = make({"C_SW": "D8", "C_NE": "T8"}, ["H5T1T2T3", "C1C2C3C4"], "S9S10H1H2",
              under={"C_SW": "H4"})
    assert not st.is_legal(Place(((1, parse_tile("H5")),)))
    st2 = make({"C_SW": "H4", "C_NE": "T8"}, ["H5D8T2T3", "C1C2C3C4"], "S9S10H1H2")
    # covering H4 with D8 (an 8 next to T8) scores 2; the covered H4 is gone
    pl = placement(st2, "D8@C_SW")
    assert pl.points == 2
    act(st2, "D8@C_SW")
    assert not st2.is_legal(Place(((1, parse_tile("H5")),)))


# --- ruling 2: links --------------------------------------------------------------------

def test_ten_does_not_link_to_one() -> None:
    st = make({"C_SW": "H10"}, ["H1T5T6T7", "C1C2C3C4"], "S9S10D1D2")
    with pytest.raises(IllegalActionError, match="do not link"):
        st.check(GAME.parse_action(st, "H1@C_NW"))


def test_links_need_a_line() -> None:
    """C_SW and N_E are not joined by a line: a 5 there does not link."""
    assert not BOARD.adj[0] >> BOARD.index["N_E"] & 1
    st = make({"N_E": "H5"}, ["D5T1T2T3", "C1C2C3C4"], "S9S10D1D2", mover=1)
    assert not st.is_legal(Place(((0, parse_tile("D5")),)))


def test_one_combo_must_hold_every_placed_tile() -> None:
    """Two 7s that each link to a board 7 but not through one combo are refused."""
    st = make({"S_W": "T7", "N_W": "S7"}, ["H7D7T1T2", "C1C2C3C4"], "S9S10D1D2")
    # W_S-S_W and W_N-N_W are lines; W_S-W_N too: that joins them into one set
    assert st.is_legal(GAME.parse_action(st, "H7@W_S,D7@W_N"))
    # E_S is not joined to S_W... C_SE is (S_W-C_SE), N_W is joined to C_NE, C_SE-C_NE too
    st2 = make({"S_W": "T7", "E_N": "S7"}, ["H7D7T1T2", "C1C2C3C4"], "S9S10D1D2")
    assert not st2.is_legal(GAME.parse_action(st2, "H7@W_S,D7@E_S"))


# --- ruling 3: spaces --------------------------------------------------------------------

def test_spaces_by_player_count() -> None:
    names = BOARD.space_names

    def allowed(n, seat, team=False):
        st = GAME.new_state(n, GAME.Variant(team=team))
        m = st.seating.allowed[seat]
        return {names[p] for p in range(BOARD.size) if m >> p & 1}

    centre = {"C_SW", "C_NW", "C_NE", "C_SE"}
    assert allowed(2, 0) == centre | {"S_W", "S_E", "W_N", "W_S", "E_S", "E_N"}
    assert allowed(2, 1) == centre | {"N_W", "N_E", "W_N", "W_S", "E_S", "E_N"}
    assert allowed(3, 1) == centre | {"W_N", "W_S", "E_S", "E_N"}
    assert allowed(4, 3) == centre | {"E_S", "E_N"}
    assert allowed(4, 1, team=True) == centre | {"N_W", "N_E"}  # seat 1 sits North


# --- ruling 4 and 14: scoring -----------------------------------------------------------

def test_own_bonus_spaces_give_no_extra() -> None:
    st = make({"S_W": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S9S10D1D2")
    pl = placement(st, "H7@S_E")
    assert pl.points == 2 and pl.bonus == (0, 0)


# --- ruling 5, 10: swap and pass --------------------------------------------------------

def test_swap_draws_first_then_returns() -> None:
    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S9S10D1D2")
    act(st, "swap T1T2")
    assert st.phase == SWAP and st.to_move == DEALER
    assert not st.bag >> parse_tile("T1") & 1, "returned tiles cannot be drawn back"
    outcomes = st.chance_outcomes()
    assert len(outcomes) == st.bag.bit_count()
    act(st, "draw S1")
    act(st, "draw S2")
    assert st.phase == TURN and st.mover == 1
    assert st.bag >> parse_tile("T1") & 1 and st.bag >> parse_tile("T2") & 1
    assert tiles_of(st.racks[0]) == [parse_tile(x) for x in ("T3", "H7", "S1", "S2")]


def bury(st, keep: int, space: str = "C_SW") -> None:
    """Move every bag tile but ``keep`` of them under the top of ``space``."""
    bag = tiles_of(st.bag)
    p = BOARD.index[space]
    st.stacks = tuple((*bag[keep:], *s) if i == p else s for i, s in enumerate(st.stacks))
    st.bag = sum(1 << t for t in bag[:keep])
    st.check_invariants()


def test_swap_recycles_a_short_bag_first() -> None:
    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S9S10D1D2")
    bury(st, 1)
    assert st.max_swap() == 4
    act(st, "swap T1T2T3")
    assert st.recycle_due and st.legal_actions() == [RECYCLE]
    assert st.chance_outcomes() == [(RECYCLE, Fraction(1))]
    act(st, "recycle")
    assert st.under_count() == 0 and st.bag.bit_count() >= 3
    assert not st.bag >> parse_tile("T1") & 1


def test_swap_limited_by_rack_and_supply() -> None:
    """At most min(4, rack, bag + under-tiles). On the default board bag + under-tiles is
    never below 18 (12 tops, 4 public, at most 16 on racks), so the rack limits here."""
    st = make({"C_SW": "T7"}, ["H7T1", "C1C2C3C4"], "S9S10D1D2")
    assert st.max_swap() == 2
    assert len([a for a in st.legal_actions() if isinstance(a, Swap)]) == 3
    with pytest.raises(IllegalActionError, match="at most 4"):
        st.check(Swap(tuple(sorted(parse_tile(x) for x in ("H7", "T1", "S9", "S10", "D1")))))


def test_pass_only_without_a_possible_swap() -> None:
    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S9S10D1D2")
    assert PASS not in st.legal_actions()
    with pytest.raises(IllegalActionError, match="may not pass"):
        st.check(PASS)
    st.racks = (0, st.racks[1])
    st.bag |= (1 << 50) - 1 & ~(st.racks[1] | st.public | (1 << parse_tile("T7")))
    st.check_invariants()
    assert st.max_swap() == 0 and PASS in st.legal_actions()
    with pytest.raises(IllegalActionError, match="at most 4"):
        make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S9S10D1D2").check(
            Swap(tuple(sorted(parse_tile(x) for x in ("H7", "T1", "T2", "T3", "S9")))))


# --- ruling 6, 11: refill ---------------------------------------------------------------

def test_refill_public_first_then_rack() -> None:
    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S7S10D1D2")
    act(st, "H7@C_NW,S7@C_NE")
    assert st.phase == REFILL and (st.need_pub, st.need_rack) == (1, 1)
    act(st, "draw D9")
    assert st.public >> parse_tile("D9") & 1
    act(st, "draw D8")
    assert st.racks[0] >> parse_tile("D8") & 1
    assert st.phase == TURN and st.mover == 1


def test_recycle_when_the_bag_runs_out_during_a_refill() -> None:
    st = make({"C_SW": "T7", "C_SE": "H3"}, ["H7T1T2T3", "C1C2C3C4"], "S7S10D1D2",
              under={"C_SE": "D5D6"})
    rest = st.bag & ~(1 << parse_tile("D9"))
    st.stacks = tuple((*tiles_of(rest), *s) if i == 4 else s for i, s in enumerate(st.stacks))
    st.bag = 1 << parse_tile("D9")
    st.check_invariants()
    act(st, "H7@C_NW,S7@C_NE")
    act(st, "draw D9")
    assert st.recycle_due and st.legal_actions() == [RECYCLE]
    with pytest.raises(IllegalActionError, match="recycle"):
        st.check(GAME.parse_action(st, "draw D5"))
    act(st, "recycle")
    assert st.bag >> parse_tile("D5") & 1 and st.under_count() == 0
    act(st, "draw D5")
    assert st.phase == TURN


# --- ruling 7, 12, 13: the end ----------------------------------------------------------

def test_game_ends_right_after_the_scoring() -> None:
    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S9S10D1D2", scores=(44, 10))
    act(st, "H7@C_NW")
    assert st.phase == OVER and st.to_move is None and st.scores == (46, 10)
    assert st.racks[0].bit_count() == 3, "no refill after the end"
    assert st.result().ranks == (1, 2)


def test_tie_goes_to_the_most_recent_placer() -> None:
    st2 = make({"C_SW": "T7", "N_W": "S7"}, ["H7T1T2T3", "C1C2C3C4"], "S9S10D1D2",
               scores=(42, 44))
    st2.recent = (1,)
    act(st2, "H7@C_NW")  # T7, H7, S7 score 3 for p0; S7 on p1's N_W: +1 for p1
    assert st2.scores == (45, 45)
    assert st2.result().ranks == (1, 2), "p0 placed most recently"


def test_tie_without_a_placer_is_shared() -> None:
    from kifu.core.game import Result

    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4", "D3D4D5D6"], "S9S10D1D2")
    st.scores = (40, 40, 3)
    st.phase = OVER
    st.recent = (0,)  # p0 placed, p1 never did (p1 got there by bonus)
    assert st.result().ranks == (1, 2, 3)
    st.recent = ()
    assert st.result() == Result((40, 40, 3), (1, 1, 3))


# --- ruling 8: 2 vs 2 -------------------------------------------------------------------

def team_over(scores, recent=(0,)):
    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4", "D3D4D5D6", "S3S4S5S6"],
              "S9S10D1D2", team=True)
    st.scores = scores
    st.recent = recent
    st.phase = OVER
    return st.result().ranks


def test_team_result() -> None:
    assert team_over((35, 10, 12, 20)) == (1, 2, 1, 2)  # p1's team has the last pawn
    assert team_over((35, 10, 10, 20)) == (1, 2, 1, 2)  # last tied: the first pawn wins
    assert team_over((35, 10, 10, 35), recent=(3, 0)) == (2, 1, 2, 1)  # most recent placer
    assert team_over((35, 10, 10, 35), recent=(0, 3)) == (1, 2, 1, 2)


def test_team_turn_order_and_views() -> None:
    st = GAME.new_state(4, GAME.Variant(team=True))
    assert [BOARD.side_names[s] for s in st.seating.sides] == [
        "South", "North", "West", "East"]
    rng = Rng(3)
    st.apply(GAME.chance_action(st, rng))
    st.apply(GAME.parse_action(st, "first p0"))
    racks = st.to_line().split()[3].split("/")
    view = st.view(0).split()[3].split("/")
    assert view[0] == racks[0] and view[2] == racks[2], "partners see each other's racks"
    assert set(view[1]) == {"?"} and set(view[3]) == {"?"}
    assert set(st.view(1).split()[5]) == {"?"}, "the bag is hidden in a view"
    with pytest.raises(VariantError):
        GAME.new_state(2, GAME.Variant(team=True))


def test_team_playouts_end() -> None:
    for seed in range(4):
        st = GAME.new_state(4, GAME.Variant(team=True))
        rng = Rng(seed)
        while st.to_move is not None:
            a = (GAME.chance_action(st, rng) if st.to_move == DEALER
                 else rng.choice(st.legal_actions()))
            st.apply(a)
            st.check_invariants()
        r = st.result()
        assert sorted(r.ranks) == [1, 1, 2, 2] and r.ranks[0] == r.ranks[2]


# --- ruling 9: chance -------------------------------------------------------------------

def test_draw_probabilities_are_exact() -> None:
    st = make({"C_SW": "T7"}, ["H7T1T2T3", "C1C2C3C4"], "S7S10D1D2")
    act(st, "H7@C_NW")
    out = st.chance_outcomes()
    assert {p for _, p in out} == {Fraction(1, st.bag.bit_count())}
    assert sum(p for _, p in out) == 1
    with pytest.raises(IllegalActionError, match="not in the bag"):
        st.check(GAME.parse_action(st, "draw T1"))


# --- notation ---------------------------------------------------------------------------

def test_tile_tokens_and_unicode_suits() -> None:
    assert [TOKEN[parse_tile(x)] for x in ("★7", "♥10", "♦1", "♣5", "♠2", "s2")] == [
        "T7", "H10", "D1", "C5", "S2", "S2"]
    with pytest.raises(NotationError):
        parse_tile("X3")
    with pytest.raises(NotationError):
        parse_tile("H11")


def test_placement_text_is_canonical() -> None:
    st = three_combo_position()
    a = GAME.parse_action(st, "♥6@c_ne,H5@1")
    assert GAME.format_action(st, a) == "H5@C_NW,H6@C_NE"


# --- the board file ---------------------------------------------------------------------

GOOD = """side S
side N
side W
side E
space C centre
space A S
space B N
line C-A C-B
finish 2 10
finish 3 10
finish 4 10
seats 2 S N
seats 3 S W N
seats 4 S W N E
"""


@pytest.mark.parametrize(("edit", "where", "what"), [
    (("line C-A C-B", "line C-A C-Q"), "8:12", "unknown space 'Q'"),
    (("line C-A C-B", "line C-A A-C"), "8:10", "given twice"),
    (("line C-A C-B", "line C-A B-B"), "8:10", "joins a space to itself"),
    (("space A S", "space A X"), "6:9", "unknown side 'X'"),
    (("space B N", "space A N"), "7:7", "declared twice"),
    (("finish 3 10\n", ""), "14:1", "no finish line for 3 players"),
    (("seats 2 S N", "seats 2 S S"), "12:11", "seated twice"),
    (("seats 2 S N", "seats 2 S"), "12:9", "expected 2 sides"),
    (("finish 2 10", "finish 5 10"), "9:8", "player count"),
    (("side N\n", "side N\nbogus 1\n"), "3:1", "unknown keyword"),
])
def test_board_loader_errors(edit, where, what) -> None:
    parse_board(GOOD, "t.board")
    with pytest.raises(NotationError) as info:
        parse_board(GOOD.replace(*edit), "t.board")
    assert str(info.value).startswith(f"t.board:{where}: "), str(info.value)
    assert what in str(info.value)


def test_default_board_is_the_rulings_board() -> None:
    want = ("0-1 0-2 0-3 1-2 1-3 2-3 4-5 0-4 3-5 3-4 0-5 4-7 6-7 1-6 0-7 0-6 1-7 6-9 8-9 "
            "2-8 1-9 1-8 2-9 8-11 10-11 3-10 2-11 2-10 3-11 5-10")
    lines = sorted(tuple(sorted(map(int, x.split("-")))) for x in want.split())
    assert sorted(BOARD.lines) == lines
    assert BOARD.finish == {2: 45, 3: 40, 4: 35, 0: 35}


def test_unknown_board_variant() -> None:
    with pytest.raises(VariantError, match="no board"):
        GAME.parse_rules("lianxian/1;board=nosuch")
