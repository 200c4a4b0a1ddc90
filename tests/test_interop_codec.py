"""The bridge's codecs (kifu/interop/bridge.py, framework-free: no OpenSpiel or PettingZoo
needed): each game's written-out ``index`` and ``pairs`` give the ids the generic
definition gives (fixed ids from ``fixed``, ranked kinds from ``group``), at every player
node of random games."""

from __future__ import annotations

import pytest

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.interop.bridge import GAME_IDS, Codec, codec_for

SETTINGS = {"tweak": (4, "tweak/1;rounds=1"), "graph-t": (3, ""), "towai": (4, "towai/1;wins=1"),
            "lianxian": (2, "lianxian/1;finish=12"), "alice": (4, "alice/1;turns=3")}


def _nodes(gid: str, seeds: range):
    """The legal lists of every player node of random games (kifu's own loop)."""
    game = games.get(gid)
    players, rules = SETTINGS[gid]
    variant = game.parse_rules(rules) if rules else None
    for seed in seeds:
        rng = Rng(seed)
        state = game.new_state(players, variant)
        while (seat := state.to_move) is not None:
            if seat == DEALER:
                a = game.chance_action(state, rng)
            else:
                legal = state.legal_actions()
                yield legal
                a = rng.choice(legal)
            state.apply(a)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_index_agrees_with_the_generic_definition(gid: str) -> None:
    codec = codec_for(games.get(gid))
    seen = 0
    for legal in _nodes(gid, range(3 if gid == "lianxian" else 6)):
        want = Codec.index(codec, legal)  # fixed ids, then each ranked kind sorted
        assert codec.index(legal) == want
        ids, acts = codec.pairs(legal)
        assert ids == want[0] and acts == [want[1][i] for i in ids]
        seen += 1
    assert seen > 20
