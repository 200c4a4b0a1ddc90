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
from kifu.bots import play_actions
from kifu.cli.main import cli
from kifu.core.game import State
from kifu.notation.views import open_seats, picture, seat_view

# Per game: which zones of the full position line `seat` may see. An entry maps
# (field, part) -> (token pattern, visible) where part is None for a whole field or a seat's
# part of a "/"-separated per-seat field, and visible is False (every token hidden) or one
# bool per token. Every zone not listed is public: the view must equal the full line there.
# The view of a zone must be the full zone with exactly the hidden tokens replaced by "?".
TWEAK_CARD = r"[ROYGBP][1-6]|![TJSB]"
GRAPH_T_CARD = r"[RYBPK][1-6]g?|G"
TOWAI_CARD = r"[DNT][1-7]"
LIANXIAN_TILE = r"[THDCS](?:10|[1-9])"
ALICE_CARD = r"[nva][SHDC](?:1[0-3]|[1-9])"


def tweak_zones(state, seat, public):
    # rules phase round/dealer target totals hands table deck T!pile piles held
    others = [s for s in range(state.n) if s != seat]
    zones = {(7, None): (TWEAK_CARD, False), (8, None): (TWEAK_CARD, False)}
    for s in others:
        zones[(5, s)] = zones[(9, s)] = (TWEAK_CARD, False)
    return zones


def graph_t_zones(state, seat, public):
    # rules hands stacks trick leader turn greyed; the AI seats' hands are open
    return {(1, s): (GRAPH_T_CARD, False) for s in range(state.n)
            if s != seat and s not in public}


def towai_zones(state, seat, public):
    # rules phase side hands field deck discards last:passes wins first/turns; during a
    # Swap the phase lists the cards set aside, each seen only by the seat it goes to
    zones = {(3, s): (TOWAI_CARD, False) for s in range(state.n) if s != seat}
    zones[(5, None)] = (TOWAI_CARD, False)
    given = getattr(state, "given", ())
    if given:
        m = state.mover
        zones[(1, None)] = (TOWAI_CARD, [(m + i) % state.n == seat
                                         for i in range(len(given))])
    return zones


def lianxian_zones(state, seat, public):
    # rules status stacks racks public bag track recent; a team partner's rack is seen;
    # the tiles being swapped back (in the status) are seen by the mover's side only
    sees = {seat, state.partner(seat)}
    zones = {(3, s): (LIANXIAN_TILE, False) for s in range(state.n) if s not in sees}
    zones[(5, None)] = (LIANXIAN_TILE, False)
    if ":swap:" in state.to_line().split()[1] and state.mover not in sees:
        zones[(1, None)] = (LIANXIAN_TILE, False)
    return zones


def alice_zones(state, seat, public):
    # rules phase to-move turns bard roles sp hands chars sentence flags discard story check
    from kifu.games.alice.state import CHAR

    n = state.n
    zones = {(7, s): (ALICE_CARD, False) for s in range(n) if s != seat}
    if state.roles:
        zones[(5, None)] = (r"[A-Za-z]", [bool(state.shown >> s & 1) or s == seat
                                          for s in range(n)])
    if state.phase == CHAR:
        for s in range(n):
            if s != seat:
                zones[(8, s)] = (ALICE_CARD, False)
    return zones


ZONES = {
    "tweak": (TWEAK_CARD, tweak_zones),
    "graph-t": (GRAPH_T_CARD, graph_t_zones),
    "towai": (TOWAI_CARD, towai_zones),
    "lianxian": (LIANXIAN_TILE, lianxian_zones),
    "alice": (ALICE_CARD, alice_zones),
}


def masked(full: str, pattern: str, visible) -> str:
    """``full`` with the tokens not visible replaced by ``?`` (``-`` stays ``-``)."""
    if visible is True:
        return full
    count = iter(range(10**6))

    def one(m: re.Match) -> str:
        i = next(count)
        return m.group(0) if visible is not False and visible[i] else "?"

    return re.sub(pattern, one, full)


def check_view(game_id: str, state: State, seat: int, public: frozenset[int]) -> None:
    full = state.to_line().split()
    view = seat_view(state, seat, public).split()
    assert len(view) == len(full) and view[0] == full[0]
    card, zones_of = ZONES.get(game_id, (None, None))
    zones = zones_of(state, seat, public) if zones_of else None
    for i, (f, v) in enumerate(zip(full, view, strict=True)):
        fparts, vparts = f.split("/"), v.split("/")
        per_seat = len(fparts) == state.n and state.n > 1
        assert len(fparts) == len(vparts), (i, f, v)
        whole = zones.get((i, None)) if zones is not None else None
        if whole is not None:
            assert v == masked(f, *whole), (f"p{seat}'s view of field {i}: {f!r} shown as "
                                            f"{v!r}")
            continue
        for s, (fp, vp) in enumerate(zip(fparts, vparts, strict=True)):
            if zones is None:  # no table for this game: a difference may only be a mask
                pattern = "".join(".+?" if c == "?" else re.escape(c) for c in vp)
                assert re.fullmatch(pattern, fp), (i, fp, vp)
                continue
            zone = zones.get((i, s if per_seat else None))
            want = fp if zone is None else masked(fp, *zone)
            assert vp == want, (f"p{seat}'s view of field {i} part {s}: {fp!r} shown as "
                                f"{vp!r}, not {want!r}")
    # the picture for the seat shows no card the view line does not show
    if card is not None:
        shown = set(re.findall(card, " ".join(view)))
        drawn = set(re.findall(card, picture(state, seat, public)))
        assert drawn <= shown | {"G"}, drawn - shown


@pytest.mark.parametrize("game_id", games.ids())
def test_views_hide_exactly_what_the_seat_cannot_see(game_id) -> None:
    game = games.get(game_id)

    @settings(max_examples=12, deadline=None)
    @given(
        players=st.integers(game.min_players, game.max_players),
        seed=st.integers(0, 10_000),
        cuts=st.lists(st.floats(0, 1), min_size=1, max_size=6),
        open_mask=st.integers(0, 63),
    )
    def prop(players, seed, cuts, open_mask):
        # one game, its views checked at several random plies
        bots = [list(game.bots)[(seed + s) % len(game.bots)] for s in range(players)]
        actions = play_actions(game, bots, seed)
        public = open_seats(game, bots) if open_mask & 1 else frozenset()
        state = game.new_state(players)
        done = 0
        for cut in sorted(cuts):
            for a in actions[done: int(len(actions) * cut)]:
                state.push(a)
                done += 1
            for seat in range(players):
                check_view(game_id, state, seat, public)

    prop()


def test_every_game_has_a_hidden_zone_table() -> None:
    missing = [g for g in games.ids() if g not in ZONES]
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
    cards = re.compile(TWEAK_CARD)
    hidden = set(cards.findall(state_line[5].split("/")[0]))  # p0's hand
    public = set(cards.findall(" ".join(state_line[i] for i in (6, 10))))
    own = set(cards.findall(state_line[5].split("/")[2]))
    leak = (hidden - public - own) & set(cards.findall(text))
    pile_mine = set(cards.findall(state_line[9].split("/")[2]))
    assert not leak - pile_mine, leak


def _fixture(game_id: str):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "fixtures" / game_id
    return sorted(root.glob("*.kifu"))[0]


@pytest.mark.parametrize("game_id", games.ids())
def test_seat_picture_is_the_full_picture_with_question_marks(game_id) -> None:
    """``kifu replay --player`` prints the readable picture of the full view (the same
    lines, the same words), not numbered raw fields; hidden cards are ``?``."""
    path = str(_fixture(game_id))
    run = CliRunner()
    for ply in ("4", "-1"):
        full = run.invoke(cli, ["replay", path, "--ply", ply]).stdout.splitlines()
        seat = run.invoke(cli, ["replay", path, "--ply", ply, "--player", "p0"])
        assert seat.exit_code == 0, seat.output
        lines = seat.stdout.splitlines()
        assert not any(re.match(r"\s*1: ", line) for line in lines), seat.stdout
        assert len(lines) == len(full)
        head = lines[1]
        assert head.startswith(full[1]) and re.search(r"as p0 sees it \(hidden \w+ are \?\)$",
                                                      head), head
        # line by line, the seat's picture is the full one with some words masked
        for a, b in zip(full[2:-1], lines[2:-1], strict=True):
            b = b.removesuffix(" (you)")
            if a != b:
                assert "?" in b, (a, b)
        assert lines[-1].startswith("position: ")


def test_record_show_by_name_is_the_readable_picture(tmp_path) -> None:
    r = CliRunner().invoke(cli, ["record", "graph-t", "-n", "3", "-s", "5", "--names",
                                 "Ann,Bob,Cy", "-o", str(tmp_path / "g.kifu")],
                           input="show Ann\nquit\n")
    out = r.stdout
    assert "GRAPH-T, 3 players" in out and "as p0 sees it" in out
    assert "p0 hand: " in out and "p1 hand: ?" in out and "(you)" in out
    assert not re.search(r"^\s*1: ", out, re.M)
