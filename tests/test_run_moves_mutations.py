"""A rule change cannot make the three ways of playing a turn drift apart (issue 22).

TWEAK and GRAPH-T play a turn three ways: ``check`` + ``push`` (the reference, and the
search's path), ``step`` (check and play in one call) and ``run_moves`` (the fast replay
loop, the position in locals). Each keeps its own copy of the hot part of the turn logic,
so this test changes the rules under them and checks that all three follow:

- each **rule constant** the turn logic reads (hand size, table refill, the empty deck's
  target, card faces; GRAPH-T's colours, follow masks, grey sides, heights) is
  monkeypatched in every module of the game that binds it, as an edit of its definition
  would reach them, with the game's memos emptied before and after;
- each **variant field** is set away from its default, one at a time.

Under every change, random games are played with the three side by side: at each position
every candidate action (the legal ones and near misses) must get the same verdict from the
three and leave the same position, and the whole game replayed through ``run_moves`` in
stretches must end where ``apply`` does. Each change must also be live: the reference's
game differs from the unchanged rules' game on the same seed, so no case passes because
the constant is read nowhere. A copy that kept a constant of its own (a literal, a table
built at import) fails here.
"""

from __future__ import annotations

import random
import sys
from itertools import combinations

import pytest
from step_helpers import ACTORS, fwd_copy, run_whole, snapshot

from kifu import games
from kifu.core.game import DEALER, actor_name
from kifu.core.rng import Rng
from kifu.games.graph_t import cards as gcards
from kifu.games.graph_t.actions import LEADS, PLAYS, Play
from kifu.games.tweak import cards as tcards
from kifu.games.tweak import state as tstate
from kifu.games.tweak.actions import (
    BOMB_ALL,
    JOKER_DOWN,
    JOKER_UP,
    PASS,
    PLACE,
    SHIFT,
    Capture,
    Place,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.notation.record import Move

MAX_PLIES = 160
"""Plies played per game (a whole single round of TWEAK, most of a GRAPH-T game)."""


def _faces_swapped(a: int, b: int) -> tuple[int, ...]:
    return tuple(b if f == a else a if f == b else f for f in tcards.FACE)


TWEAK_CONSTANTS = [
    ("HAND_SIZE", 2),
    ("HAND_SIZE", 4),
    ("TABLE_REFILL", 1),
    ("TABLE_REFILL", 3),
    ("EMPTY_DECK_TARGET", 9),
    ("FACE", _faces_swapped(1, 2)),
    ("FACE", _faces_swapped(3, 6)),
]
TWEAK_FIELDS = [
    {"empty_capture": True},
    {"backs": tuple(7 + (i * 3) % 4 for i in range(36))},
    {"colours": "RGBP"},
    {"t_cards": "JJSS"},
    {"threshold": 25},
]


def _swap(t: tuple, i: int, j: int) -> tuple:
    z = list(t)
    z[i], z[j] = z[j], z[i]
    return tuple(z)


GRAPH_T_CONSTANTS = [
    # the colour of each play: red and yellow plays trade colours
    ("PLAY_COLOUR", tuple({0: 1, 1: 0}.get(c, c) for c in gcards.PLAY_COLOUR)),
    # who must follow what: the red and sky masks trade places
    ("CMASK", _swap(gcards.CMASK, 0, 2)),
    # which cards have a grey side: every other one loses it
    ("NONTOP", gcards.NONTOP & ~sum(1 << c for c in range(0, gcards.N_CODES, 2))),
    # the grey card no longer counts as a grey play for the follow rule
    ("GBIT", 0),
    # what a leader must lead before grey opens: the colours without black
    ("COLOUR_CODES", gcards.COLOUR_CODES & ~gcards.CMASK[4]),
    # which plays open grey: none does
    ("PLAY_IS_GREY", (False,) * len(gcards.PLAY_IS_GREY)),
    # heights: every play is as tall as the next pid's
    ("PLAY_HEIGHT", (*gcards.PLAY_HEIGHT[1:], gcards.PLAY_HEIGHT[0])),
]
GRAPH_T_FIELDS = [
    {"grey": False},
    {"black": False, "grey": False},
    {"grey_open": "anyone"},
    {"grey_wins": "trump"},
]


def _clear(gid: str) -> None:
    if gid == "tweak":
        tstate.clear_caches()
    else:
        from kifu.games.graph_t import rules
        from kifu.games.graph_t import state as gstate

        rules._CACHE.clear()
        for memo in (gstate._TRICKS, gstate._TRICKS_TRUMP, gstate._TRICK_CODES,
                     gstate._TRICK_CODES_TRUMP):
            memo.clear()


@pytest.fixture
def mutate(monkeypatch):
    """``mutate(gid, name, value)``: rebind ``name`` in every module of the game's package
    that binds the same object (the memos emptied now and after the test)."""
    done = []

    def apply(gid: str, name: str, value) -> None:
        package = "kifu.games." + gid.replace("-", "_")
        original = getattr(tstate if gid == "tweak" else gcards, name)
        hit = 0
        for modname, module in list(sys.modules.items()):
            if modname.startswith(package) and getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, value)
                hit += 1
        assert hit, f"no module of {gid} binds {name}"
        _clear(gid)
        done.append(gid)

    yield apply
    monkeypatch.undo()
    for gid in done:
        _clear(gid)


def candidates(state, rng: random.Random) -> list:
    """The actions tried at a player's position: for TWEAK every card play and capture of
    up to three table cards or the whole table, built from the position (not from
    ``legal_actions``, whose tables a changed constant may leave behind), and the T! uses;
    for GRAPH-T every play."""
    if hasattr(state, "tpile"):
        out = [PASS, JOKER_UP, JOKER_DOWN, UseJoker(2), SHIFT, BOMB_ALL]
        out += [UseThief(v) for v in range(state.n)]
        table = state.table
        subs = {sub for k in range(1, min(3, len(table)) + 1) for sub in combinations(table, k)}
        subs.add(table)
        for c in sorted(set(state.hands[state.to_move]) | {rng.randrange(36)}):
            out.append(PLACE[c])
            out.append(Capture(c, ()))
            out += [Capture(c, sub) for sub in sorted(subs)]
        return out
    return [p for p in PLAYS if p is not None] + list(LEADS)


def three_ways(state, action, plain: bool):
    """The action tried the three ways on copies of ``state``: the same verdict, the same
    position after it; ``run_moves`` may only stop before a move of a kind it does not
    take. Returns the reference's state after the action, or None when it is illegal."""
    ref = state.copy()
    try:
        ref.apply(action)
    except Exception:
        ref = None
    stepped = fwd_copy(state)
    try:
        stepped.step(action)
    except Exception:
        stepped = None
    assert (ref is None) == (stepped is None), (state.to_line(), action)
    if ref is not None:
        assert snapshot(stepped, False) == snapshot(ref, False), (state.to_line(), action)
    run = fwd_copy(state)
    before = snapshot(run, False)
    k = run.run_moves([Move(actor_name(state.to_move), "x")], 0, {"x": action}.get, ACTORS)
    if k:
        assert ref is not None, (state.to_line(), action)
        assert snapshot(run, False) == snapshot(ref, False), (state.to_line(), action)
    else:
        assert snapshot(run, False) == before, (state.to_line(), action)
        assert ref is None or not plain, ("a legal plain move was not run", action)
    return ref


def _plain(state, action) -> bool:
    if hasattr(state, "tpile"):
        return state.phase == tstate.TURN and type(action) in (Place, Capture, UseJoker,
                                                                UseShifter)
    return type(action) is Play


def play_three_ways(gid: str, n: int, variant, seed: int) -> list[str]:
    """One random game checked the three ways at every position; returns the reference's
    lines (the game's trace)."""
    game = games.get(gid)
    state = game.new_state(n, variant)
    chance, rng = Rng(seed), random.Random(seed)
    played, trace = [], []
    while state.to_move is not None and len(played) < MAX_PLIES:
        if state.to_move == DEALER:
            a = game.chance_action(state, chance)
            three_ways(state, a, False)
        else:
            legal = [a for a in candidates(state, rng)
                     if three_ways(state, a, _plain(state, a)) is not None]
            assert legal, state.to_line()
            a = rng.choice(legal)
        state.apply(a)
        played.append(a)
        trace.append(state.to_line())
    run_whole(game.new_state(n, variant), played, share=3, invariants=False)
    return trace


def _variant(gid: str, **fields):
    """The rules each game is played under here (TWEAK: one round)."""
    if gid == "tweak":
        return games.get("tweak").Variant(rounds=1, **fields)
    return games.get(gid).Variant(**fields)


SEEDS = {"tweak": (11, 12), "graph-t": (13, 14)}
"""Per game: the seed of the constant tests and of the variant-field tests."""
CONSTANTS = ([("tweak", n, v) for n, v in TWEAK_CONSTANTS]
             + [("graph-t", n, v) for n, v in GRAPH_T_CONSTANTS])
FIELDS = [("tweak", f) for f in TWEAK_FIELDS] + [("graph-t", f) for f in GRAPH_T_FIELDS]


_BASE_TRACES: dict[tuple, list[str]] = {}


def _base_trace(gid: str, n: int, variant, seed: int) -> list[str]:
    key = (gid, n, variant, seed)
    if key not in _BASE_TRACES:
        _clear(gid)
        _BASE_TRACES[key] = play_three_ways(gid, n, variant, seed)
    return _BASE_TRACES[key]


@pytest.mark.parametrize(("gid", "name", "value"), CONSTANTS,
                         ids=[f"{g}-{n}-{i}" for i, (g, n, _) in enumerate(CONSTANTS)])
def test_constant(mutate, gid: str, name: str, value) -> None:
    variant, seed = _variant(gid), SEEDS[gid][0]
    base = _base_trace(gid, 3, variant, seed)
    mutate(gid, name, value)
    assert play_three_ways(gid, 3, variant, seed) != base, f"{name} changed nothing"


@pytest.mark.parametrize(("gid", "fields"), FIELDS,
                         ids=[f"{g}-{'-'.join(f)}" for g, f in FIELDS])
def test_variant_field(gid: str, fields: dict) -> None:
    seed = SEEDS[gid][1]
    base = _base_trace(gid, 3, _variant(gid), seed)
    assert play_three_ways(gid, 3, _variant(gid, **fields), seed) != base
