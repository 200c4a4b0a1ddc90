"""A seat's view shows no card that seat cannot see (``kifu replay --player``).

Random positions of every game: ``view(seat)`` is compared zone by zone with the full
position line. Every zone hidden from the seat must be all ``?`` (one per card), every
public zone must equal the full one; the text picture for the seat shows no card that the
view does not show.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.cli.main import cli
from kifu.cli.views import open_seats, picture, seat_view
from kifu.core.game import State
from kifu.play import play_actions

# Per game: a card-token pattern, and the zones hidden from `seat` as (field, part) pairs,
# part None = the whole field, else one seat's part of a "/"-separated per-seat field.
TWEAK_CARD = re.compile(r"[ROYGBP][1-6]|![TJSB]")
GRAPH_T_CARD = re.compile(r"[RYBPK][1-6]g?|G")


def tweak_hidden(n: int, seat: int, public: frozenset[int]):
    # fields: rules phase round/dealer target totals hands table deck T!pile piles held
    others = [s for s in range(n) if s != seat]
    return {(5, s) for s in others} | {(7, None), (8, None)} | {(9, s) for s in others}


def graph_t_hidden(n: int, seat: int, public: frozenset[int]):
    # fields: rules hands stacks trick leader turn greyed; the AI seats' hands are open
    return {(1, s) for s in range(n) if s != seat and s not in public}


HIDDEN = {
    "tweak": (TWEAK_CARD, tweak_hidden),
    "graph-t": (GRAPH_T_CARD, graph_t_hidden),
}


def random_position(game_id: str, players: int, seed: int, cut: float) -> tuple[State, list]:
    game = games.get(game_id)
    bots = [list(game.bots)[(seed + s) % len(game.bots)] for s in range(players)]
    actions = play_actions(game, bots, seed)
    state = game.new_state(players)
    for a in actions[: int(len(actions) * cut)]:
        state.push(a)
    return state, bots


def check_view(game_id: str, state: State, seat: int, public: frozenset[int]) -> None:
    full = state.to_line().split()
    view = seat_view(state, seat, public).split()
    assert len(view) == len(full) and view[0] == full[0]
    card, hidden_of = HIDDEN.get(game_id, (None, None))
    hidden = hidden_of(state.n, seat, public) if hidden_of else None
    for i, (f, v) in enumerate(zip(full, view, strict=True)):
        fparts, vparts = f.split("/"), v.split("/")
        per_seat = len(fparts) == state.n and state.n > 1
        assert len(fparts) == len(vparts), (i, f, v)
        for s, (fp, vp) in enumerate(zip(fparts, vparts, strict=True)):
            key = (i, s if per_seat else None)
            if hidden is None:  # no table for this game: a difference may only be a mask
                assert vp == fp or set(vp) <= {"?", "-"}, (i, fp, vp)
                continue
            if key in hidden or (i, None) in hidden:
                cards = card.findall(fp) if fp != "-" else []
                assert vp == ("?" * len(cards) if cards else "-") or (
                    not cards and set(vp) <= {"?"}), (f"field {i} part {s} is hidden from "
                                                      f"p{seat}: {fp!r} shown as {vp!r}")
            else:
                assert vp == fp, f"field {i} part {s} is public: {fp!r} shown as {vp!r}"
    # the picture for the seat shows no card the view line does not show
    if card is not None:
        shown = set(card.findall(" ".join(view)))
        drawn = set(card.findall(picture(state, seat, public)))
        assert drawn <= shown | {"G"}, drawn - shown


@pytest.mark.parametrize("game_id", games.ids())
def test_views_hide_exactly_what_the_seat_cannot_see(game_id) -> None:
    game = games.get(game_id)

    @settings(max_examples=40, deadline=None)
    @given(
        players=st.integers(game.min_players, game.max_players),
        seed=st.integers(0, 10_000),
        cut=st.floats(0, 1),
        open_mask=st.integers(0, 63),
    )
    def prop(players, seed, cut, open_mask):
        state, bots = random_position(game_id, players, seed, cut)
        public = open_seats(game, bots) if open_mask & 1 else frozenset()
        for seat in range(players):
            check_view(game_id, state, seat, public)

    prop()


def test_every_game_has_a_hidden_zone_table() -> None:
    missing = [g for g in games.ids() if g not in HIDDEN]
    assert not missing, f"tests/test_views.py: add the hidden zones of {missing}"


def test_graph_t_ai_hands_are_public(tmp_path) -> None:
    r = CliRunner().invoke(cli, ["play", "graph-t", "-n", "3", "-s", "4", "--bots",
                                 "ai,random,graph-t-ai", "-o", str(tmp_path / "g.kifu")])
    assert r.exit_code == 0
    full = CliRunner().invoke(cli, ["replay", str(tmp_path / "g.kifu"), "--ply", "3", "-f",
                                    "position"]).stdout.split()
    seen = CliRunner().invoke(cli, ["replay", str(tmp_path / "g.kifu"), "--ply", "3", "-f",
                                    "position", "--player", "1"]).stdout.split()
    hands_full, hands_seen = full[1].split("/"), seen[1].split("/")
    assert hands_seen[0] == hands_full[0] and hands_seen[2] == hands_full[2]  # the AIs
    assert hands_seen[1] == hands_full[1]  # its own
    # a random player's hand stays hidden from the AI seats
    seen0 = CliRunner().invoke(cli, ["replay", str(tmp_path / "g.kifu"), "--ply", "3", "-f",
                                     "position", "--player", "p0"]).stdout.split()
    assert set(seen0[1].split("/")[1]) == {"?"}


def test_replay_player_text_picture_hides_cards(tmp_path) -> None:
    run = CliRunner()
    assert run.invoke(cli, ["play", "tweak", "-n", "3", "-s", "9", "-o",
                            str(tmp_path / "t.kifu")]).exit_code == 0
    state_line = run.invoke(cli, ["replay", str(tmp_path / "t.kifu"), "--ply", "6", "-f",
                                  "position"]).stdout.split()
    text = run.invoke(cli, ["replay", str(tmp_path / "t.kifu"), "--ply", "6", "--player",
                            "2"]).stdout
    assert "as p2 sees it" in text and "?" in text
    hidden = set(TWEAK_CARD.findall(state_line[5].split("/")[0]))  # p0's hand
    public = set(TWEAK_CARD.findall(" ".join(state_line[i] for i in (6, 10))))
    own = set(TWEAK_CARD.findall(state_line[5].split("/")[2]))
    leak = (hidden - public - own) & set(TWEAK_CARD.findall(text))
    pile_mine = set(TWEAK_CARD.findall(state_line[9].split("/")[2]))
    assert not leak - pile_mine, leak
