"""Bounded memos (:mod:`kifu.core.memo`; thirteenth session of issue 33): ``trim`` keeps
the newest half, and TWEAK's table memos, capped far below their defaults, stay under
their caps while every game plays exactly as with the defaults (a memo only caches a pure
function)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kifu import games
from kifu.bots import play_actions
from kifu.core.memo import trim
from kifu.games.tweak import bots as tbots
from kifu.games.tweak import state as tstate


@given(st.lists(st.integers(-50, 50), unique=True, max_size=60), st.integers(1, 40))
def test_trim_keeps_the_newest_half(keys, limit) -> None:
    memo = {k: str(k) for k in keys}
    trim(memo, limit)
    if len(keys) < limit:
        assert list(memo) == keys  # below the cap: untouched
    else:
        assert list(memo) == keys[len(keys) - limit // 2:]
        assert all(memo[k] == str(k) for k in memo)


def _clear() -> None:
    tstate.clear_caches()
    tbots._BEST.clear()


GAME = games.get("tweak")
CASES = [(["greedy", "random", "greedy"], "s1", ""), (["greedy"] * 4, "s2", ""),
         (["random", "greedy"], "s3", ";rounds=1"), (["pimc:worlds=2", "greedy"], "s4",
                                                     ";rounds=1")]


@pytest.mark.parametrize(("bots", "seed", "rules"), CASES)
def test_tweak_plays_the_same_with_tiny_memos(monkeypatch, bots, seed, rules) -> None:
    variant = GAME.parse_rules(GAME.rules_spec() + rules)
    _clear()
    wide = play_actions(GAME, bots, seed, variant)
    _clear()
    monkeypatch.setattr(tbots, "_BEST_MAX", 16)
    monkeypatch.setattr(tstate, "_TABLES_MAX", 16)
    narrow = play_actions(GAME, bots, seed, variant)
    assert narrow == wide
    # the caps were reached (so trimming ran) and held
    assert 8 <= len(tbots._BEST) <= 16
    assert 8 <= len(tstate._SUBSETS) <= 16
    assert len(tstate._CAPTURES) <= 16  # greedy alone never lists the legal actions
    assert len(tstate._CAPTURES) >= 8 or set(bots) == {"greedy"}
    _clear()
