"""``run_moves`` (TWEAK and GRAPH-T: a stretch of plain moves played in one loop with the
position in locals, the fast replay path's inner loop) against ``step``.

At every position of whole random games under every example variant, each action tried by
the validate2 step tests (the legal ones and many near misses) is given to ``run_moves`` as
a one-move record: it must either play it exactly as ``step`` does (same ``to_line``,
``key``, ``to_move`` and history) or stop before it with the state untouched, and it must
play every legal action of the kinds it takes. A move by another actor, or whose text is
not in the memo, stops it. Whole games are also run through ``run_moves`` in stretches
(locals carried across many plies, tricks and rounds) and must reach the same positions
as ``apply``."""

from __future__ import annotations

import random

import pytest
from step_helpers import ACTORS, fwd_copy, run_whole, snapshot
from test_validate2_tweak_step import near_misses as tweak_near_misses

from kifu import games
from kifu.core.game import DEALER, actor_name
from kifu.core.rng import Rng
from kifu.games.graph_t.actions import LEADS, PLAYS, Play
from kifu.games.tweak.actions import Capture, Place, UseJoker, UseShifter
from kifu.games.tweak.cards import BOMB, FACE, JOKER, THIEF
from kifu.games.tweak.state import TURN
from kifu.notation.record import Move

TWEAK_RUN_KINDS = (Place, Capture, UseJoker, UseShifter)
EVERY_PLAY = [p for p in PLAYS if p is not None]
NO_PLAYS = [Play(pid // 2, True) for pid in range(1, len(PLAYS), 2) if PLAYS[pid] is None]
"""Grey sides that do not exist (top-level cards, the grey card): never played."""


def compare_one(state, action, runs_kind: bool, invariants: bool = True) -> bool:
    """``run_moves`` on the one-move record ``action`` against ``step``; True if it ran."""
    want_state = fwd_copy(state)
    try:
        want_state.step(action)
        legal = True
    except Exception:  # the step's error: run_moves must stop before the move
        legal = False
    got = fwd_copy(state)
    before = snapshot(got, invariants)
    actor = actor_name(state.to_move)
    k = got.run_moves([Move(actor, "x")], 0, {"x": action}.get, ACTORS)
    if k == 0:
        assert snapshot(got, invariants) == before, (state.to_line(), action)
        assert not (legal and runs_kind), ("a legal plain move was not run", action)
        return False
    assert k == 1 and legal, (state.to_line(), action)
    assert snapshot(got, invariants) == snapshot(want_state, invariants), (state.to_line(), action)
    # another actor's token, or a text the memo lacks, stops the run before the move
    probe = fwd_copy(state)
    for other in ("d", "p8" if actor == "p9" else "p9", actor.upper()):
        assert probe.run_moves([Move(other, "x")], 0, {"x": action}.get, ACTORS) == 0
    assert probe.run_moves([Move(actor, "y")], 0, {"x": action}.get, ACTORS) == 0
    assert snapshot(probe, invariants) == before
    return True


def compare_after(prev, first, state, action) -> None:
    """The two-move record ``first`` (legal at ``prev``, leading to ``state``) then
    ``action``: ``run_moves`` plays ``first`` and then ``action`` only where ``step``
    accepts it, and a stop after ``first`` leaves exactly ``prev`` + ``first`` (the locals
    of a refused move never reach the state)."""
    want = fwd_copy(prev)
    want.step(first)
    after_first = snapshot(want)
    try:
        want.step(action)
        legal = True
    except Exception:
        legal = False
    got = fwd_copy(prev)
    moves = [Move(actor_name(prev.to_move), "a"), Move(actor_name(state.to_move), "b")]
    k = got.run_moves(moves, 0, {"a": first, "b": action}.get, ACTORS)
    if k == 2:
        assert legal and snapshot(got) == snapshot(want), (state.to_line(), action)
    elif k == 1:
        assert snapshot(got) == after_first, (state.to_line(), action)


def sum_right_misses(state) -> list:
    """Captures whose faces sum to the target but whose taken cards the table lacks (one
    of two missing, or a second copy of a card it holds once)."""
    if state.phase != TURN:
        return []
    table = state.table
    target = state._tops[state.dpos] + state.jdelta
    out = []
    for c in set(state.hands[state.mover]):
        for y in range(THIEF):
            if FACE[c] + FACE[y] == target and y not in table:
                out.append(Capture(c, (y,)))
            for x in set(table):
                short = y not in table or (y == x and table.count(x) < 2)
                if x <= y and short and FACE[c] + FACE[x] + FACE[y] == target:
                    out.append(Capture(c, (x, y)))
    return out


def with_t_cards(state, legal) -> list:
    """Copies of the position where the mover already holds T! cards, with each legal
    capture of the whole table (a TWEAK: the next T! card joins them, in order). The
    two T! cards are made up, so the card count of ``check_invariants`` fails there."""
    out = []
    if state.phase == TURN and state.tpos < len(state.tpile):
        for a in legal:
            if type(a) is Capture and len(a.taken) == len(state.table) > 0:
                probe = state.copy()
                held = list(probe.held)
                held[probe.mover] = (JOKER, BOMB)
                probe.held = tuple(held)
                out.append((probe, a))
    return out


def random_game(gid: str, k: int, sizes: int, seed: int) -> tuple:
    """(game, variant, players, new state, dealer rng, players' rng) of the ``k``-th random
    game of ``gid``: the default rules and then each example variant in turn, 2 to
    ``sizes + 1`` players."""
    game = games.get(gid)
    variant = (None, *game.example_variants)[k % (1 + len(game.example_variants))]
    n = 2 + k % sizes
    return game, variant, n, game.new_state(n, variant), Rng(seed + k), random.Random(k)


@pytest.mark.parametrize("k", range(5))
def test_tweak_run_matches_step(k: int) -> None:
    game, variant, n, state, chance, rng = random_game("tweak", k, 5, 300)
    played = []
    ran = tweaks = 0
    prev = None
    while state.to_move is not None and len(played) < 300:
        legal = state.legal_actions()
        if state.to_move != DEALER:
            for action in legal + tweak_near_misses(state, rng) + sum_right_misses(state):
                runs_kind = state.phase == TURN and type(action) in TWEAK_RUN_KINDS
                ran += compare_one(state, action, runs_kind)
                if prev is not None:
                    compare_after(prev, played[-1], state, action)
            for probe, action in with_t_cards(state, legal):
                tweaks += compare_one(probe, action, True, invariants=False)
        a = game.chance_action(state, chance) if state.to_move == DEALER else rng.choice(legal)
        plain = state.phase == TURN and type(a) in TWEAK_RUN_KINDS
        prev = state.copy() if plain else None
        state.apply(a)
        played.append(a)
    assert ran > 50 and tweaks > 0
    run_whole(game.new_state(n, variant), played)


@pytest.mark.parametrize("k", range(6))
def test_graph_t_run_matches_step(k: int) -> None:
    game, variant, n, state, chance, rng = random_game("graph-t", k, 3, 400)
    played = []
    ran = 0
    prev = None
    while state.to_move is not None:
        legal = state.legal_actions()
        if state.to_move != DEALER:
            for action in [*EVERY_PLAY, *NO_PLAYS, *LEADS, Play(3, False)]:
                ran += compare_one(state, action, type(action) is Play)
                if prev is not None:
                    compare_after(prev, played[-1], state, action)
        a = game.chance_action(state, chance) if state.to_move == DEALER else rng.choice(legal)
        prev = state.copy() if type(a) is Play else None
        state.apply(a)
        played.append(a)
    assert ran > 20
    run_whole(game.new_state(n, variant), played)


def test_run_needs_a_forward_only_state() -> None:
    """A state that keeps undo snapshots is left to ``step`` (``run_moves`` returns at
    once), so ``pop`` keeps working."""
    for gid in ("tweak", "graph-t"):
        game = games.get(gid)
        state = game.new_state(3)
        rng = Rng(7)
        while state.to_move == DEALER:
            state.apply(game.chance_action(state, rng))
        a = state.legal_actions()[0]
        moves = [Move(actor_name(state.to_move), "x")]
        assert state.run_moves(moves, 0, {"x": a}.get, ACTORS) == 0
        assert fwd_copy(state).run_moves(moves, 0, {"x": a}.get, ACTORS) == 1


def test_trick_codes_round_trip() -> None:
    """GRAPH-T's trick codes (``run_moves`` keys resolved tricks by them) name each trick
    once: a code decodes to its trick, pid 0 and empty tricks included."""
    from kifu.games.graph_t.cards import N_PIDS
    from kifu.games.graph_t.state import _trick_code, _trick_of

    rng = random.Random(3)
    seen = {}
    for _ in range(3000):
        trick = tuple(rng.randrange(N_PIDS) for _ in range(rng.randrange(5)))
        code = _trick_code(trick)
        assert _trick_of(code) == trick
        assert seen.setdefault(code, trick) == trick
    assert _trick_of(_trick_code((0, 0))) == (0, 0) and _trick_of(_trick_code(())) == ()


@pytest.mark.parametrize("gid", ["tweak", "graph-t"])
def test_run_parses_texts_the_memo_lacks(gid: str) -> None:
    """With an empty memo, ``run_moves`` asks ``resolve`` for each new text (which parses
    and memoises it) and plays the whole game to the same position as ``apply``; a text
    that does not parse (``resolve`` gives None) stops the run before it."""
    game = games.get(gid)
    for seed in range(4):
        state = game.new_state(2 + seed % 3)
        rng, chance = random.Random(seed), Rng(seed)
        moves, actions = [], []
        while state.to_move is not None:
            a = game.chance_action(state, chance) if state.to_move == DEALER else rng.choice(
                state.legal_actions()
            )
            moves.append(Move(actor_name(state.to_move), game.format_action(state, a)))
            actions.append(a)
            state.apply(a)
        memo: dict = {}
        asked = []

        def resolve(text: str, memo=memo, asked=asked):
            asked.append(text)
            try:
                memo[text] = game.parse_action(None, text)
            except Exception:
                return None
            return memo[text]

        fwd = fwd_copy(game.new_state(state.n))
        i = 0
        while i < len(moves):
            i = fwd.run_moves(moves, i, memo.get, ACTORS, resolve)
            if i < len(moves):  # a dealer's move
                fwd.step(actions[i])
                i += 1
        assert snapshot(fwd) == snapshot(state)
        assert len(asked) == len(set(asked)) > 0  # each new text parsed once
        # a broken text stops the run at it
        first = next(j for j, m in enumerate(moves) if m.actor != "d")
        probe = fwd_copy(game.new_state(state.n))
        for a in actions[:first]:
            probe.step(a)
        assert probe.run_moves(moves, first, {}.get, ACTORS, resolve) > first
        probe = fwd_copy(game.new_state(state.n))
        for a in actions[:first]:
            probe.step(a)
        before = snapshot(probe)
        broken = [*moves[:first], Move(moves[first].actor, "??"), *moves[first + 1 :]]
        assert probe.run_moves(broken, first, {}.get, ACTORS, resolve) == first
        assert snapshot(probe) == before
