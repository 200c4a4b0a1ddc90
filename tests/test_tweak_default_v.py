"""Issue 33, ninth session (branch i33x): TWEAK's bare ``expert`` is the eighth session's
V, ``expert:posterior=1:thin=2:burn=100:chains=2:climb=20000:giveup=1:warm=1``
(``kifu/bots/profiles.py``, ``TWEAK_POSTERIOR``).

``tests/data/tweak_expert_v.json`` was recorded at a230c8b, before the switch: the
actions the bare ``expert``, ``expert:cheat=1`` and ``expert:cheat=hands`` played in three
seeded one-round games (2, 3 and 4 players, against ``greedy``), and the parameters the
bare ``expert`` had in every game. The old default is now ``expert:posterior=0`` and must
play exactly those actions; the cheater and the hands rung never ask the posterior and
must play exactly as before (every stored cheater report, ``docs/bots/i33-tw-*-c-*.json``,
stays a report of today's cheater); no other game's ``expert`` changes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kifu.bots.expert as expert_mod
from kifu import games
from kifu.bots import bot_descriptions, make_bot
from kifu.core.game import DEALER
from kifu.core.rng import Rng

GAME = games.get("tweak")
RULES = GAME.parse_rules("tweak/1;rounds=1")
STORED = json.loads((Path(__file__).parent / "data" / "tweak_expert_v.json").read_text())
V = "expert:posterior=1:thin=2:burn=100:chains=2:climb=20000:giveup=1:warm=1"
V_PARAMS = {"posterior": 1, "thin": 2, "burn": 100, "chains": 2, "climb": 20000,
            "giveup": 1, "warm": 1}


def _actions(spec: str, seed: str, players: int, limit: int = 40) -> list[str]:
    """The actions ``spec`` plays in seat 0 of a seeded one-round game against
    ``greedy`` (the recording's play: seat ``s`` draws from ``Rng(seed).fork(s + 1)``,
    the dealer from ``Rng(seed)`` itself), at most ``limit``."""
    rng = Rng(seed)
    state = GAME.new_state(players, RULES)
    bots = [make_bot(GAME, spec if s == 0 else "greedy", s, rng.fork(s + 1))
            for s in range(players)]
    out: list[str] = []
    while state.to_move is not None and len(out) < limit:
        mover = state.to_move
        if mover == DEALER:
            state.push(GAME.chance_action(state, rng))
            continue
        a = bots[mover].choose(state)
        if mover == 0:
            out.append(GAME.format_action(state, a))
        state.push(a)
    return out


def test_bare_expert_is_v_and_nothing_else_changed():
    bare = make_bot(GAME, "expert", 0, Rng(1)).params  # type: ignore[attr-defined]
    assert bare == make_bot(GAME, V, 0, Rng(1)).params  # type: ignore[attr-defined]
    old = STORED["params"]["tweak"]
    assert old["posterior"] == 0  # (the recording is of the bot before the switch)
    assert {k for k in bare if bare[k] != old[k]} == {k for k in V_PARAMS if old[k] != V_PARAMS[k]}
    assert {k: bare[k] for k in V_PARAMS} == V_PARAMS
    # explicit parameters still win: posterior=0 is the old default, every parameter
    assert make_bot(GAME, "expert:posterior=0", 0, Rng(1)).params == {  # type: ignore[attr-defined]
        **bare, "posterior": 0}
    assert {k: v for k, v in old.items() if k not in V_PARAMS} == \
        {k: v for k, v in bare.items() if k not in V_PARAMS}


@pytest.mark.parametrize("gid", ["graph-t", "towai", "lianxian", "alice"])
def test_other_games_expert_builds_as_before(gid):
    g = games.get(gid)
    assert make_bot(g, "expert", 0, Rng(1)).params == STORED["params"][gid]  # type: ignore[attr-defined]
    assert make_bot(g, "expert", 0, Rng(1)).params["posterior"] == 0  # type: ignore[attr-defined]


def test_the_listing_names_v():
    listed = next(d for d in bot_descriptions(GAME) if d.startswith("expert:"))
    assert listed.endswith(":posterior=1:thin=2:chains=2:burn=100:giveup=1:warm=1"
                           ":rollout=tactics:others=greedy")
    # (climb=20000 is the parameter's own default, so the listing leaves it out)
    assert make_bot(GAME, listed, 0, Rng(1)).params == make_bot(  # type: ignore[attr-defined]
        GAME, V, 0, Rng(1)).params  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec,old", [("expert:posterior=0", "expert"),
                                      ("expert:cheat=1", "expert:cheat=1"),
                                      ("expert:cheat=hands", "expert:cheat=hands")])
def test_old_default_and_cheaters_play_as_before(spec, old):
    """``expert:posterior=0`` plays the old default's actions; the cheater and the hands
    rung, under the new default, their own old actions."""
    rows = STORED["actions"][old]
    assert len(rows) == 3 and all(len(r["actions"]) >= 9 for r in rows)
    for r in rows:
        assert _actions(spec, r["seed"], r["players"]) == r["actions"], (spec, r["seed"])


def _spy(monkeypatch) -> list[dict]:
    calls: list[dict] = []
    real = expert_mod.posterior_draw

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(expert_mod, "posterior_draw", spy)
    return calls


def _first_choice(spec: str) -> None:
    """One decision of ``spec`` with a real choice, early in a 3-player round."""
    rng = Rng("v-choice")
    state = GAME.new_state(3, RULES)
    greedy = [make_bot(GAME, "greedy", s, rng.fork(s + 1)) for s in range(3)]
    k = 0
    while True:
        mover = state.to_move
        if mover == DEALER:
            state.push(GAME.chance_action(state, rng))
            continue
        if k >= 4 and len(state.legal_actions()) > 1:
            break
        k += 1
        state.push(greedy[mover].choose(state))
    make_bot(GAME, spec + ":level=fast", state.to_move, Rng(2)).choose(state)


def test_bare_expert_asks_the_posterior_with_vs_settings(monkeypatch):
    calls = _spy(monkeypatch)
    _first_choice("expert")
    assert len(calls) == 1
    got = calls[0]
    assert (got["thin"], got["chains"], got["burn"], got["climb"], got["give_up"]) == \
        (2, 2, 100, 20000, True)
    assert got["warm"] is not None and not got["persist"]


@pytest.mark.parametrize("spec", ["expert:posterior=0", "expert:cheat=1", "expert:cheat=hands"])
def test_the_old_default_and_the_cheaters_never_ask_the_posterior(monkeypatch, spec):
    calls = _spy(monkeypatch)
    _first_choice(spec)
    assert calls == []
