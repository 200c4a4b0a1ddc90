"""Alice properties beyond the shared ones: views hide exactly what a seat cannot see,
greedy games end and replay, chance outcomes match the deck."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.alice.state import CHAR, DRAW, FORCED

GAME = games.get("alice")


@settings(max_examples=15, deadline=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32), greedy=st.booleans())
def test_views_and_chance_along_a_game(n: int, seed: int, greedy: bool) -> None:
    s = GAME.new_state(n)
    rng = Rng(seed)
    bots = [GAME.bots["greedy" if greedy else "random"](i, Rng(seed).fork(i + 1))
            for i in range(n)]
    while s.to_move is not None:
        line = s.to_line().split()
        for seat in range(n):
            view = s.view(seat).split()
            hands = view[7].split("/")
            for other in range(n):
                own = line[7].split("/")[other]
                if other == seat:
                    assert hands[other] == own
                else:
                    assert set(hands[other]) <= {"?", "-"}
                    assert len(hands[other]) == (0 if own == "-" else len(s.hands[other])) \
                        or hands[other] == "-"
            if s.roles:
                for other in range(n):
                    face_up = bool(s.shown >> other & 1)
                    shown = view[5][other]
                    assert shown.isupper() if face_up else (shown == "?" or other == seat)
            if s.phase == CHAR:
                chars = view[8].split("/")
                assert all(c in ("?", "-") for i, c in enumerate(chars) if i != seat)
        if s.phase in (DRAW, FORCED):
            out = s.chance_outcomes()
            assert out is not None and all(p == Fraction(1, len(out)) for _, p in out)
            assert len(out) == s.count_legal()
        s.apply(GAME.chance_action(s, rng) if s.to_move == DEALER
                else bots[s.to_move].choose(s))
    r = s.result()
    assert r is not None and r.scores == s.sp


def test_undo_snapshot_lists_every_mutable_field() -> None:
    """push saves ``_snap()``: it must hold every slot but the fixed ones, or undo would
    silently forget a field."""
    from kifu.games.alice.state import AliceState

    fixed = {"_tb", "_undo", "trace"}
    s = GAME.new_state(3)
    snap = s._snap()
    assert len(snap) == len(set(AliceState.__slots__) - fixed)
    names = [n for n in AliceState.__slots__ if n not in fixed]
    for name in names:  # each field round-trips through _restore on its own
        before = getattr(s, name)
        marker = object()
        setattr(s, name, marker)
        s._restore(snap)
        assert getattr(s, name) == before, name
