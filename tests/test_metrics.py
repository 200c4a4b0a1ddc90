"""Each game's own event counts (kifu/games/<game>/metrics.py) against fixture records
counted by hand (the reasoning for each count is in the comments), plus checks every
fixture must pass: every count present, whole and not negative, and a game cut halfway
counts no more than the whole game."""

from __future__ import annotations

import glob

import pytest

from kifu import games
from kifu.notation.files import load_records
from kifu.notation.replay import replay

FIXTURES = sorted(p for g in ("tweak", "graph-t", "towai", "lianxian", "alice")
                  for p in glob.glob(f"fixtures/{g}/*.kifu"))


def counts(path: str, upto: int | None = None) -> dict[str, int]:
    loc = next(iter(load_records(path)))
    r = replay(loc, upto=upto, check_result=upto is None)
    return games.metrics_of(r.game.id).metrics(r.state)


def test_tweak_bomb_4p_by_hand():
    # 35 player lines: !T p3, !J+ and !B are T! uses; p1 Y3, p2 Y5, p3 B1 answer the Bomb;
    # the other 29 are turns: 15 captures (an x) and 14 places. The table before each
    # capture (ply: taken / table) shows 5 TWEAKs: 7 B3B4/B3B4, 8 Y1Y6/Y1Y6,
    # 12 Y1G2B1/Y1G2B1, 15 O6G1/O6G1, 22 Y4G3/Y4G3 (ten T! cards: each wins one).
    assert counts("fixtures/tweak/bomb-4p.kifu") == {
        "turns": 29, "rounds": 1, "captures": 15, "tweaks": 5, "t_won": 5, "places": 14,
        "jokers": 1, "shifters": 0, "thieves": 1, "bombs": 1, "bomb_victims": 3,
        "thief_steals": 1, "passes": 0,
    }


def test_tweak_empty_t_pile_wins_one_card():
    # t_cards=J: one T! card, so only the first TWEAK wins anything
    got = counts("fixtures/tweak/tweak-empty-t-pile-2p.kifu")
    assert got["t_won"] == 1 < got["tweaks"]


def test_tweak_pass():
    got = counts("fixtures/tweak/pass-empty-hand-5p.kifu")
    assert got["passes"] == 1 and got["bombs"] >= 1


def test_graph_t_grey_wins_by_hand():
    # 51 plays, 17 tricks of 3; 25 grey plays (G or a g side). The tricks with grey in
    # them (led colour / heights in 1/60): 3 K2 20, Y2g 20, G 60: G; 4 K3 30, K1 10, B1g 45:
    # B1g; 5 G, R1g, G: the later G; 6 P1g 48, P3g 24, R1g 30; 7 B1g 45, P2g 36, K2g 40;
    # 8 B1g 45, P3g 24, Y2g 20; 9 Y1g 40, P1g 48, K1g 50; 12 Y1g 40, P4g 12, Y2g 20;
    # 13 B2g 30, P4g 12, K1g 50; 17 R1g led: a grey lead, only grey plays compete.
    # So 10 tricks won by grey, 8 led by grey (5, 6, 7, 8, 9, 12, 13, 17). Final stacks
    # (red..grey): p0 90/0/0/0/0/310, p1 0/140/0/36/240/564, p2 0/0/270/0/0/45.
    assert counts("fixtures/graph-t/3p-grey-wins.kifu") == {
        "turns": 51, "tricks": 17, "grey_plays": 25, "grey_leads": 8, "grey_tricks": 10,
        "stack_total": 90 + 310 + 140 + 36 + 240 + 564 + 270 + 45, "tallest_stack": 564,
        "grey_stack": 310 + 564 + 45,
    }


def test_towai_draw_by_hand():
    # turns: p1 day T5 (Swap, gives) +N5 | p2 N4 | p0 N3 | p1 pass | p2 T2 | p0 D3 |
    # p1 D4 | p2 D4 | p0 D7 | p1 pass | p2 pass | p0 night N2 | p1 pass | p2 pass |
    # p0 night N4 stop | p1 N3 | p2 T3 (Draw) | p0 D5 | p1 T7 stop | p2 N5 |
    # p0 T4 (Reset), day T4 (its last card: not resolved) = 21 turns, 4 leads, 1 combo
    # (+N5), 5 passes, Twai resolved: T5 T2 T3 T7 T4 = 5 flips (1 Draw, 1 Reset, 1 Swap).
    assert counts("fixtures/towai/3p-draw.kifu") == {
        "turns": 21, "rounds": 1, "leads": 4, "combos": 1, "passes": 5, "twai_flips": 5,
        "draws": 1, "resets": 1, "swaps": 1, "rebuilds": 0, "cap_rounds": 0,
    }


def test_towai_cap_and_rebuild():
    assert counts("fixtures/towai/3p-turn-cap.kifu")["cap_rounds"] == 1
    assert counts("fixtures/towai/4p-rebuild.kifu")["rebuilds"] == 2  # two 'd rebuild'


def test_lianxian_tie_short_by_hand():
    # finish=12, centre C_SW 0 C_NW 1 C_NE 2 C_SE 3; W_N, W_S unseated, N_W is p1's.
    # ply 3 C4@NW C5@NE: run C4C5, set C5+H5 (SW) -> 1 set 1 run, 3 points
    # ply 6 C2@SW C3@SE: run C2..C5 -> 0 set 1 run, 4
    # ply 9 D2@NW: set D2+C2 -> 1 set, 2
    # ply 11 T7@SW D7@NW C7@NE: set of 7s -> 1 set, 3
    # ply 15 T8@W_N D8@W_S C8@N_W: set of 8s; runs T7T8, D7D8, C7C8 -> 1 set 3 runs, 6
    # ply 19 H8@SW H9@NW: run H8H9, set H8 T8 D8 C8 -> 1 set 1 run, 5; p1's N_W holds C8:
    #   1 bonus point. Bonus tiles: the three of ply 15.
    assert counts("fixtures/lianxian/2p-tie-short.kifu") == {
        "turns": 6, "placements": 6, "tiles_placed": 13, "set_combos": 5, "run_combos": 6,
        "swaps": 0, "passes": 0, "recycles": 0, "bonus_tiles": 3, "bonus_points": 1,
    }


def test_lianxian_swap_and_recycle():
    got = counts("fixtures/lianxian/2p-swap.kifu")
    assert got["swaps"] == 1 and got["recycles"] == 1


def test_alice_turn_limit_by_hand():
    # roles QHR; check 1: the Bard p2 against the system, system wins; check 2: the Bard p0
    # against p1, p1 wins; check 3: the Bard p2 against p1, p2 wins. One drink (p1). The
    # turn limit (3) ends it with p1 (Mad Hatter) and p2 (White Rabbit) sharing first.
    got = counts("fixtures/alice/3p-turns3-limit.kifu")
    assert {k: v for k, v in got.items() if v} == {
        "turns": 3, "checks": 3, "bard_wins": 1, "system_checks": 1, "drinks": 1,
        "wins_hatter": 1, "wins_rabbit": 1,
    }


def test_alice_void_and_goal():
    assert counts("fixtures/alice/5p-void.kifu")["void_turns"] == 3
    got = counts("fixtures/alice/3p-role-win.kifu")
    assert got["goal_win"] == 1 and got["wins_hatter"] == 1


@pytest.mark.parametrize("path", FIXTURES)
def test_every_fixture_counts(path):
    loc = next(iter(load_records(path)))
    gid = games.get(loc.record.headers["Game"]).id
    module = games.metrics_of(gid)
    assert all(m and "\n" not in m for m in module.METRICS.values())
    whole = counts(path)
    assert list(whole) == list(module.METRICS)
    assert all(isinstance(v, int) and v >= 0 for v in whole.values())
    rates = getattr(module, "RATES", frozenset())
    assert rates <= set(module.METRICS) and all(whole[k] in (0, 1) for k in rates)
    # a game cut halfway (not finished) is counted too, and never counts more events
    half = counts(path, upto=len(loc.record.moves) // 2)
    assert list(half) == list(module.METRICS)
    cumulative = [k for k in module.METRICS
                  if k not in ("stack_total", "tallest_stack", "grey_stack", "goal_win")
                  and not k.startswith("wins_")]
    assert all(half[k] <= whole[k] for k in cumulative)


@pytest.mark.parametrize("gid", ["tweak", "graph-t", "towai", "lianxian", "alice"])
def test_a_game_not_dealt_counts_nothing(gid):
    game = games.get(gid)
    module = games.metrics_of(gid)
    assert module.metrics(game.new_state(game.min_players)) == dict.fromkeys(module.METRICS, 0)
